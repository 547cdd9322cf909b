"""A guest's side of an online table: join, sit, answer when asked, check the deal.

The guest keeps no match of its own: it draws what the host sends (a
:class:`~hearts_web.data.session.Snapshot` of its seat and the events, already filtered by the host) and
sends intents. Messages from the host are checked like any input (size, JSON, fields); a bad one is
dropped. The page learns what happened through :class:`GuestEvents`; a finished match reaches the
guest's statistics (:meth:`GuestEvents.match_result`) only from the match-over state, once the deal
of its last hand has been revealed, and only if no deal of the match failed its check.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, assert_never

from hearts import Action, Card, Event, MatchOver, Phase, Seat, SeatView, preset_name
from hearts.fairdeal import verify
from hearts.tally import MatchTally, sheet_tally

from ..data.session import Snapshot
from .decoder import HOST_MESSAGES
from .handover import HANDOVER_AFTER
from .messages import (
    Act,
    Again,
    Back,
    Claim,
    Closed,
    Commit,
    Contrib,
    Envelope,
    GuestMessage,
    Heir,
    Heirs,
    Hello,
    HostProof,
    Lobby,
    LobbySeat,
    Ping,
    Probe,
    React,
    Reacted,
    Refused,
    Rematch,
    Reveal,
    Sit,
    State,
    Succession,
    Turn,
    Version,
    Welcome,
    encode,
)
from .protocol import MAX_HOST_MESSAGE, PeerCheck, RateLimit, clean_name

__all__ = ["GuestEvents", "GuestTable", "Seen", "HOST_SILENT_AFTER", "SIT_AGAIN_AFTER"]


def _question(view: SeatView) -> tuple[int, str, int]:
    """What the table asks in ``view``: which hand, which phase, after how many cards."""
    return view.hand_number, view.phase.value, view.cards_played


HOST_SILENT_AFTER = 6.0  # no word from the host this long: "waiting for the host"
SIT_AGAIN_AFTER = 4.0  # no welcome or refusal this long after asking for a seat: ask again


class GuestEvents(Protocol):
    """What a guest's page is told."""

    def lobby(self, seats: tuple[LobbySeat, ...], started: bool) -> None: ...

    def seated(self, seat: Seat) -> None: ...

    def state(self, snap: Snapshot, events: list[Event], asked: SeatView | None) -> None: ...

    def refused(self, what: str, code: str) -> None: ...

    def verified(self, hand: int, ok: bool | None, late: bool = False) -> None:
        """``ok`` None: this hand could not be checked (joined during it; ``late``: this guest's
        part of the shuffle reached the host after the deal, so the deal did not use it)."""

    def host_away(self, away: bool) -> None: ...

    def closed(self) -> None: ...

    def reload_needed(self) -> None: ...

    def match_result(self, tally: MatchTally, preset: str, level: str) -> None:
        """The match is over and its deals checked out: this seat's result, the rules' preset
        name (``"custom"`` for other rules) and the bots' level, for the guest's statistics."""

    def turn(self, turn: Turn) -> None:
        """The turn timer: who must act within how long, and the seats a bot plays for."""

    def reacted(self, seat: Seat, code: str) -> None:
        """A player's reaction, to show at that seat."""

    def rematch(self, answers: tuple[str, str, str, str], final: bool) -> None:
        """The host offers a new match (each seat's answer so far); ``final``: it starts now."""


@dataclass
class Seen:
    """What the guest keeps about a hand to check its deal afterwards."""

    commit: str = ""
    mine: str = ""
    dealt: tuple[Card, ...] = ()


@dataclass
class GuestTable:
    send_raw: Callable[[str], None]
    events: GuestEvents
    name: str
    token: str | None = None
    clock: Callable[[], float] = time.monotonic
    random_hex: Callable[[int], str] = secrets.token_hex
    seat: Seat | None = None
    host_peer: str | None = None  # the peer that proved it holds the host's key (see link.py)
    snap: Snapshot | None = None
    hands: dict[int, Seen] = field(default_factory=dict)
    check: PeerCheck = field(default_factory=lambda: PeerCheck(RateLimit(rate=200.0, burst=400.0)))
    last_heard: float = 0.0
    away: bool = False
    log: list[str] = field(default_factory=list)
    _seq: int = 0
    _answered: tuple[int, str, int] | None = None  # the question last answered (until a refusal)
    _sitting: tuple[Seat, float] | None = None  # a seat asked for, not yet answered, and when
    lobby_seen: Lobby | None = None  # the table's rules and bots' level, from the host's last lobby
    deal_failed: bool = False  # a deal of this table failed its check: no result is counted
    _over: Snapshot | None = None  # the match-over state, until the last hand's deal is revealed
    timer: Turn | None = None  # the turn timer as the host last told it
    key: str | None = None  # this guest's public key (an heir's, see handover.py)
    term: int = 1  # the host's term: 1 for the link's own host, one more for each passing-on
    chain: tuple[Succession, ...] = ()  # the passings-on that led to the host of this term
    heirs: Heirs | None = None  # the host's signed heirs of this term
    away_since: float = 0.0  # when the host went silent (while ``away``)
    handover_after: float = HANDOVER_AFTER  # the host gone this long: its heirs may carry on
    late: bool = False  # this guest sat down during the match: a bot played its seat before (not counted)

    def send(self, message: GuestMessage) -> None:
        self._seq += 1
        self.send_raw(encode(message, self._seq))

    # ------------------------------------------------------------------ outgoing
    def host_proven(self, peer: str, proof: str | None = None) -> None:
        """``peer`` signed with the key of the invitation link: it is the host (a new peer after
        the host's reload). Only its messages count from now on; say hello (with the seat token,
        and ``proof``: this guest's signature that claims its seat by its key)."""
        if peer != self.host_peer:
            self.host_peer = peer
            self.check = PeerCheck(RateLimit(rate=200.0, burst=400.0))
        self.hello(proof)

    def follow(self, peer: str, chain: tuple[Succession, ...], proof: str | None) -> None:
        """A guest carried the table on (its claim checked out): ``peer`` is the host of the
        chain's last term now. This guest's seat there is told by its welcome; the hand under way
        is dealt afresh."""
        self.term, self.chain, self.heirs = len(chain) + 1, chain, None
        self._answered, self._sitting, self._over = None, None, None
        self.host_peer = None
        self.last_heard = self.clock()  # its proof was a message: the table has a host again
        if self.away:
            self.away = False
            self.events.host_away(False)  # before the page says who carries the table on
        self.host_proven(peer, proof)

    @property
    def may_carry_on(self) -> bool:
        """The host has been gone for :data:`~.handover.HANDOVER_AFTER` seconds in a match under
        way, and it named this guest an heir."""
        snap, heirs = self.snap, self.heirs
        return (
            self.away
            and self.clock() - self.away_since >= self.handover_after
            and snap is not None
            and snap.phase is not Phase.MATCH_OVER
            and heirs is not None
            and self.seat is not None
            and Heir(self.seat, self.key or "") in heirs.heirs
        )

    def claim(self) -> str:
        """For a former host come back: the table went on without it (the chain says with whom)."""
        self._seq += 1
        return encode(Claim(self.chain), self._seq)

    def probe(self) -> str:
        """A "who is the host?" for a peer (sent until one proves it, see link.py)."""
        self._seq += 1
        return encode(Probe(), self._seq)

    def hello(self, proof: str | None = None) -> None:
        """On every (re)connection: a seat token claims the seat back."""
        self.last_heard = self.clock()
        self.send(Hello(self.token, self.name, self.key, proof))

    def sit(self, seat: Seat, name: str) -> None:
        """Ask for ``seat``. The request is repeated until the host answers (a welcome or a
        refusal): a message sent while the connection to the host is being replaced is lost."""
        self.name = name
        self._sitting = (seat, self.clock())
        self.late = self.lobby_seen is not None and self.lobby_seen.started
        self.send(Sit(seat, name))

    @property
    def asked(self) -> SeatView | None:
        """The question the table is asking this guest, if any (its view, when it must act)."""
        snap = self.snap
        if snap is None or self.seat is None:
            return None
        view = snap.view
        asked = (snap.phase is Phase.PASSING and view.passed is None) or (
            snap.phase is Phase.PLAYING and view.turn == self.seat
        )
        return view if asked and _question(view) != self._answered else None

    @property
    def waiting(self) -> bool:
        return self.asked is not None

    def submit(self, action: Action, automatic: bool = False) -> bool:
        """Answer the host. ``automatic``: the page would play a forced card by itself; while a bot
        plays for this seat that is not sent (the host would take it for this person's tap and end
        the bot's turn): the bot makes the move, unless the person taps first."""
        view = self.asked
        if view is None or (automatic and self.auto):
            return False
        self._answered = _question(view)  # a later state about the same question asks nothing new
        self.send(Act(action))
        return True

    def back(self) -> None:
        """This player takes the seat back from the bot that played for them."""
        self.send(Back())

    def react(self, code: str) -> None:
        self.send(React(code))

    def again(self) -> None:
        """This player plays the rematch (or would, when the host offers one)."""
        self.send(Again())

    @property
    def auto(self) -> bool:
        """A bot plays for this player now (the turn timer ran out)."""
        return self.seat is not None and self.timer is not None and self.timer.auto[self.seat]

    def host_gone(self) -> None:
        """The host's connection closed (a reload, a lost network): wait for it to come back."""
        if not self.away:
            self.away, self.away_since = True, self.clock()
            self.events.host_away(True)

    def tick(self) -> None:
        self.send(Ping())
        if self._sitting is not None and self.seat is None and self.clock() - self._sitting[1] >= SIT_AGAIN_AFTER:
            self.sit(self._sitting[0], self.name)
        if not self.away and self.clock() - self.last_heard > HOST_SILENT_AFTER:
            self.away, self.away_since = True, self.last_heard
            self.events.host_away(True)  # until the host's next message says it is back

    # ------------------------------------------------------------------ incoming
    def on_message(self, peer: str, raw: object) -> None:
        if peer != self.host_peer:
            self.log.append(f"dropped a message from {peer[:8]}: not the host")
            del self.log[:-200]
            return
        got = self.check.admit(raw, HOST_MESSAGES, MAX_HOST_MESSAGE)
        if not isinstance(got, Envelope):
            self.log.append(f"dropped a message from the host: {got.reason}")
            if got.other_version:
                self.events.reload_needed()
            return
        self.last_heard = self.clock()
        if self.away:
            self.away = False
            self.events.host_away(False)
        message = got.message
        match message:
            case Ping() | HostProof():
                pass  # a heartbeat; the proof is checked before (link.py), a repeat changes nothing
            case Version():
                self.events.reload_needed()
            case Closed():
                self.events.closed()
            case Lobby(seats, started):
                self.lobby_seen = message
                self.events.lobby(tuple(LobbySeat(s.seat, s.kind, clean_name(s.name) or "?") for s in seats), started)
            case Welcome(seat, token):
                self.seat, self.token, self._sitting = seat, token, None
                self.events.seated(seat)
            case State():
                self._state(message)
            case Refused(what, code):
                self._refused(what, code)
            case Commit(hand, digest):
                seen = self.hands.setdefault(hand, Seen())
                if seen.commit != digest:  # told again (an answer lost on the way): the same answer
                    seen.commit, seen.mine, seen.dealt = digest, self.random_hex(16), ()
                self.send(Contrib(hand, seen.mine))
            case Reveal():
                self._reveal(message)
            case Turn():
                self.timer = message
                self.events.turn(message)
            case Reacted(seat, code):
                if seat != self.seat:
                    self.events.reacted(seat, code)
            case Rematch(answers):
                self._rematch(answers)
            case Heirs(term):
                if term == self.term:
                    self.heirs = message
            case Claim():
                pass  # a claim comes from a guest who carries the table on, not from its host (guest_side.py)
            case _:
                assert_never(message)

    def _state(self, state: State) -> None:
        snap = state.snap
        if self.seat is not None and snap.view.seat != self.seat:
            self.log.append("dropped a state for another seat")
            return
        self.snap = snap
        if any(isinstance(e, MatchOver) for e in state.events):
            self._over = snap  # counted once the last hand's deal is revealed (:meth:`_settle`)
        view = snap.view
        seen = self.hands.setdefault(view.hand_number, Seen())
        if (
            not seen.dealt
            and not view.tricks
            and not view.current_trick
            and view.passed is None
            and len(view.hand) == 13
        ):
            seen.dealt = view.hand  # what this seat was dealt, to check against the revealed seed
        self.events.state(snap, list(state.events), self.asked)

    def _rematch(self, answers: tuple[str, str, str, str]) -> None:
        final = "asked" not in answers
        if final and self.seat is not None and answers[self.seat] == "yes":
            self.deal_failed, self._over, self._answered = False, None, None  # a new match, checked anew
            self.late = False  # played from its first hand
            self.hands.clear()
        elif final and self.seat is not None and answers[self.seat] == "bot":
            self.seat, self.token = None, None  # the new match started without this player
        self.events.rematch(answers, final)

    def _refused(self, what: str, code: str) -> None:
        self._answered = None
        if what == "sit":
            self._sitting = None
        self.events.refused(what, code)
        if self.snap is not None:
            self.events.state(self.snap, [], self.asked)

    def _reveal(self, reveal: Reveal) -> None:
        hand, contributions = reveal.hand, list(reveal.contributions)
        seen = self.hands.get(hand)
        if seen is None or not seen.commit or not seen.dealt or self.seat is None:
            self.events.verified(hand, None)  # joined too late to check this hand
        elif contributions[int(self.seat)] == "":
            self.events.verified(hand, None, late=True)
        else:
            ok = verify(
                seen.commit, reveal.secret, contributions, seat=int(self.seat), mine=seen.mine, dealt=seen.dealt
            )
            self.deal_failed = self.deal_failed or not ok
            self.events.verified(hand, ok)
        self._settle(hand)

    def _settle(self, hand: int) -> None:
        """After the reveal of the match's last hand: its result for this guest's statistics."""
        over = self._over
        if over is None or not over.sheet or hand != over.sheet[-1].hand_number:
            return
        self._over = None
        if self.deal_failed or self.seat is None or self.lobby_seen is None:
            self.log.append("the match's result is not counted: a deal failed its check, or no seat")
            return
        if self.late:
            self.log.append("the match's result is not counted: this player sat down during it")
            return
        try:
            tally = sheet_tally(over.sheet, over.winners, self.seat)
        except ValueError as exc:
            self.log.append(f"the match's result is not counted: {exc}")
            return
        lobby = self.lobby_seen
        self.events.match_result(tally, preset_name(lobby.rules) or "custom", lobby.level)
