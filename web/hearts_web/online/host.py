"""The host's side of an online table: seats, remote players, what each guest may see, the fair
deal, the turn timer, reactions and the rematch.

The host's browser runs the match with the one table loop (:func:`hearts.table.play`); a guest's
seat is a :class:`~.remote.RemotePlayer` (it waits for the guest's ``act``; a stand-in bot plays
while the guest is away), and every person's seat is under the turn timer (:class:`~.timer.TimedSeat`).
:class:`HostTable` admits every message through :class:`~.protocol.PeerCheck`, binds peers to seats
by a secret seat token, and as a :class:`~hearts.table.Listener` sends each guest only what its seat
may see after every action. Nothing here touches the DOM or the network: ``send(peer, text)`` does.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import assert_never, cast

from hearts import (
    PRESETS,
    SEATS,
    Action,
    Deal,
    Event,
    HandOver,
    HandScore,
    HandStarted,
    Match,
    Rules,
    Seat,
    deal_from_seed,
)
from hearts.fairdeal import commitment, deal_seed
from hearts.table import Game, Listener, Player

from ..data.session import Snapshot
from . import protocol
from .decoder import AT_HOST
from .handover import HostHeirs
from .host_seats import HostSeats
from .messages import (
    TIMER_CHOICES,
    VERSION,
    Act,
    Again,
    Back,
    Bye,
    Claim,
    Closed,
    Commit,
    Contrib,
    Envelope,
    Heir,
    Heirs,
    Hello,
    HostMessage,
    HostProof,
    Ping,
    Probe,
    React,
    Reacted,
    Sit,
    State,
    Succession,
    Turn,
    Version,
    encode,
)
from .protocol import PeerCheck, RateLimit, worth_logging
from .rematch import HostRematch, RematchOffer
from .remote import FairDeals, FairHand, RemotePlayer, SeatInfo, filter_events
from .timer import TimedSeat, TurnTimer

__all__ = ["HostTable", "DROP_AFTER", "FREE_AFTER", "PING_EVERY", "REACTION_RATE", "REACTION_BURST"]

Send = Callable[[str, str], None]
PING_EVERY = 2.0  # seconds between heartbeats
DROP_AFTER = 6.0  # a guest silent this long is treated as gone (a bot plays for it)
FREE_AFTER = 60.0  # a guest gone this long during a match: a newcomer may take the seat
CONTRIBUTION_WAIT = 3.0  # how long a hand's deal waits for the guests' contributions
COMMIT_AGAIN = 0.5  # the commitment is told again to a guest that has not answered after this long
REACTION_BURST, REACTION_RATE = 3.0, 0.5  # a player's reactions: 3 at once, then one every 2 s
Verify = Callable[[str, str, str], Awaitable[bool]]  # (public key, text, signature)


async def _refuse(key: str, text: str, sig: str) -> bool:
    return False


def _sender(message: object) -> str:
    """Whose numbering a message follows: a peer's host proof is numbered by its table, the rest by
    its guest's side (a guest who carries a table on begins its host's numbering afresh)."""
    return "host" if isinstance(message, HostProof) else "guest"


class HostTable(HostSeats, HostHeirs, HostRematch, Listener):
    def __init__(
        self,
        send: Send,
        *,
        host_name: str,
        bot_names: list[str],
        stand_in: Callable[[Seat], Player],
        preset: str,
        level: str,
        clock: Callable[[], float] = time.monotonic,
        random_hex: Callable[[int], str] = secrets.token_hex,
    ) -> None:
        self.send_raw = send
        self.clock = clock
        self.random_hex = random_hex
        self.preset = preset if preset in PRESETS else "standard"
        self.level = level
        self.seats = [SeatInfo("local", host_name)] + [SeatInfo("bot", bot_names[i]) for i in range(3)]
        self.checks: dict[str, PeerCheck] = {}
        self.started = False
        self.closed = False
        self.match: Match | None = None
        self.fair = FairDeals()
        self.stand_in = stand_in
        self.remote: dict[Seat, RemotePlayer] = {}
        self.log: list[str] = []
        self.bot_names = list(bot_names)
        self.timer = TurnTimer(clock=clock)
        self.timer.on_change = self.broadcast_turn
        self.reactions = {s: RateLimit(REACTION_RATE, REACTION_BURST, clock) for s in SEATS}
        self.rematch: RematchOffer | None = None
        self.wants_again: set[Seat] = set()  # guests who said "play again" before the host offered
        self.on_change: Callable[[], None] = lambda: None  # the page redraws the lobby / seat kinds
        self.on_probe: Callable[[str], None] = lambda peer: None  # the page proves to ``peer`` that it is the host
        self.on_turn: Callable[[Turn], None] = lambda turn: None  # the page shows the timer
        self.on_reaction: Callable[[Seat, str], None] = lambda seat, code: None  # the page shows a reaction
        self.on_rematch: Callable[[], None] = lambda: None  # the page shows the answers (or starts, when complete)
        self.on_heirs: Callable[[tuple[Heir, ...]], None] = lambda heirs: None  # the page signs and sends them
        self.on_claim: Callable[[str, Claim], None] = lambda peer, claim: None  # someone carried this table on
        self.on_successor: Callable[[str, HostProof], None] = lambda peer, proof: None  # a host after this one?
        self.on_joining: Callable[[Seat, str], None] = lambda seat, name: None  # a guest sat down mid-match
        # a table carried on: its term (1: the link's own host) and the passings-on that led here
        self.term, self.chain = 1, cast(tuple[Succession, ...], ())
        # who this table is to a guest's signature (:func:`~.protocol.seat_proof_text`), and the check
        self.room, self.self_peer = "", ""
        self.verify: Verify = _refuse
        self.signed_heirs: Heirs | None = None  # the heirs as last signed (each guest gets them)
        self._heirs: tuple[Heir, ...] = ()
        self.peer_keys: dict[str, str] = {}  # the keys of peers not seated yet (from their hello)
        self._seq = 0
        self._last_ping = 0.0
        self._turn: Turn | None = None
        self._free: frozenset[Seat] = frozenset()  # the seats a newcomer may take, as last told
        self.free_after = FREE_AFTER  # a guest gone this long during the match frees its seat

    @property
    def rules(self) -> Rules:
        return PRESETS[self.preset]

    # ------------------------------------------------------------------ sending
    def send(self, peer: str, message: HostMessage) -> None:
        self._seq += 1
        self.send_raw(peer, encode(message, self._seq))

    def tell(self, to: Seat, message: HostMessage) -> None:
        peer = self.seats[to].peer
        if peer is not None:
            self.send(peer, message)

    def snapshot(self, seat: Seat) -> Snapshot:
        m = self.match
        assert m is not None
        return Snapshot(m.view(seat), m.scores, tuple(m.score_sheet), m.winners, m.phase)

    def send_state(self, seat: Seat, events: list[Event]) -> None:
        """``seat``'s view after ``events``, to its guest if it plays this hand."""
        if self.match is None or not self.seats[seat].plays(self.match.hand_number):
            return
        self.tell(seat, State(self.snapshot(seat), tuple(filter_events(events, seat))))

    # ------------------------------------------------------------------ peers
    def tick(self) -> None:
        """Heartbeats out; guests silent for ``DROP_AFTER`` seconds are treated as gone."""
        now = self.clock()
        if now - self._last_ping >= PING_EVERY:
            self._last_ping = now
            for peer in list(self.checks):
                self.send(peer, Ping())
        for s, info in zip(SEATS, self.seats):
            if info.peer is not None and now - info.last_seen > DROP_AFTER:
                self._unbind(s, "timed out")
        if self.started and self.free() != self._free:  # a seat is free now (its guest has been gone long)
            self.broadcast_lobby()
        self.timer.tick()

    def on_message(self, peer: str, raw: object) -> None:
        """The one door of a peer's text: admitted (rate limit, size, the decoder, a rising sequence
        number) before anything acts on it, then handled; anything bad is dropped with a log line.
        Another host's proof (a guest who carried this table on, a rival heir) goes to
        :attr:`on_successor`."""
        check = self.checks.setdefault(peer, PeerCheck(RateLimit(clock=self.clock)))
        got = check.admit(raw, AT_HOST, protocol.MAX_GUEST_MESSAGE, protocol.MAX_CHAIN_MESSAGE, _sender)
        if not isinstance(got, Envelope):
            if got.reason != "rate limit" or worth_logging(check.dropped):
                self._drop(peer, f"{got.reason} (#{check.dropped})")
            if got.other_version:
                self.send(peer, Version(VERSION))
            return
        seat = self.seat_of(peer)
        if seat is not None:
            self.seats[seat].last_seen = self.clock()
        message = got.message
        match message:
            case Ping():
                pass
            case Probe():
                self.on_probe(peer)  # "who is the host here?" (the first proof may have been lost)
            case Bye():
                self.peer_left(peer)
            case Hello():
                self._hello(peer, message)
            case Sit():
                self._sit(peer, seat, message)
            case Act(action):
                self._act(peer, seat, action)
            case Contrib():
                self._contrib(peer, seat, message)
            case Back():
                if seat is not None:
                    self.timer.back(seat)
            case React(code):
                self._react(peer, seat, code)
            case Again():
                self._again(peer, seat)
            case Claim():
                self.on_claim(peer, message)  # this table was carried on while this host was away?
            case HostProof():
                self.on_successor(peer, message)
            case _:
                assert_never(message)

    def _drop(self, peer: str, reason: str) -> None:
        self.log.append(f"dropped a message from {peer[:8]}: {reason}")
        del self.log[:-200]

    def _act(self, peer: str, seat: Seat | None, action: Action) -> None:
        if seat is None:
            return self._drop(peer, "act from a peer without a seat")
        if getattr(action, "seat", None) != seat:
            return self._drop(peer, f"act for another seat than {seat.key}")
        player = self.remote.get(seat)
        if player is None:
            return self._drop(peer, "act from a seat without a remote player")
        if not self.seats[seat].plays(self.hand):
            return self._drop(peer, f"act for {seat.key} before its guest's first hand")
        if player.answer(action):
            return None
        if self.match is not None and seat in self.match.to_act:
            player.early = action  # the state reached the guest before the table asked: keep it
        else:
            self._drop(peer, "act out of turn")

    def _contrib(self, peer: str, seat: Seat | None, contrib: Contrib) -> None:
        refused = "contribution not expected" if seat is None else self.fair.contribute(seat, contrib)
        if refused:
            self._drop(peer, refused)

    # ------------------------------------------------------------------ timer, reactions, rematch
    def set_timer(self, seconds: int) -> None:
        if seconds in TIMER_CHOICES and seconds != self.timer.limit:
            self.timer.set_limit(seconds)

    def broadcast_turn(self) -> None:
        """The timer, to every guest and the host's page, when it changed."""
        turn = self.timer.message()
        if turn == self._turn:
            return
        self._turn = turn
        for s in SEATS[1:]:
            self.tell(s, turn)
        self.on_turn(turn)

    def react(self, seat: Seat, code: str) -> bool:
        """``seat`` reacts: shown to everyone else, unless that seat reacts too often."""
        if not self.reactions[seat].allow():
            return False
        for s in SEATS[1:]:
            if s != seat:
                self.tell(s, Reacted(seat, code))
        if seat != Seat.SOUTH:
            self.on_reaction(seat, code)
        return True

    def _react(self, peer: str, seat: Seat | None, code: str) -> None:
        if seat is None:
            return self._drop(peer, "a reaction from a peer without a seat")
        if not self.react(seat, code) and worth_logging(self.reactions[seat].refused):
            self._drop(peer, f"reactions too often (#{self.reactions[seat].refused})")

    # ------------------------------------------------------------------ the match
    def players(self, local: Player, on_lost: Callable[[], None] = lambda: None) -> list[Player]:
        """The table's four seats: the host, and a remote player at each other seat (its guest
        plays it, or its stand-in bot while it has none: a guest may sit down during the match);
        the host's and the playing guests' seats under the turn timer (``on_lost``: a bot moved
        for the host)."""
        out: list[Player] = [TimedSeat(local, self.stand_in(Seat.SOUTH), self.timer, on_lost=on_lost)]
        for s in SEATS[1:]:
            info = self.seats[s]
            remote = self.remote[s] = RemotePlayer(info, self.stand_in(s), partial(self.tell, s))
            out.append(TimedSeat(remote, remote.stand_in, self.timer, present=partial(self._playing, info)))
        return out

    def _playing(self, info: SeatInfo) -> bool:
        return self.match is not None and info.plays(self.match.hand_number)

    async def start(self, rules: Rules, max_hands: int | None = None, earlier: Sequence[HandScore] = ()) -> Match:
        """Close the lobby and deal the first hand (fairly) for the seated players; ``earlier``: the
        score sheet of a table carried on (the match goes on from its next hand)."""
        for info in self.seats:
            info.from_hand = 0  # whoever sits now plays from the first deal
        self.started = True
        self.broadcast_lobby()
        deal = await self.deal_round(len(earlier))
        self.match = Match(rules, deals=[deal], max_hands=max_hands, earlier=earlier)
        for s in SEATS[1:]:
            if self.seats[s].kind == "remote":
                self.send_state(s, [])
        return self.match

    async def deal_round(self, hand: int) -> Deal:
        """Commit to a secret, collect the guests' contributions (briefly), deal from all of them."""
        secret = self.random_hex(16)
        fair = self.fair[hand] = FairHand(commitment(secret), secret)
        waiting = [s for s, info in zip(SEATS, self.seats) if info.kind == "remote" and info.peer is not None]
        for s in waiting:
            self.tell(s, Commit(hand, fair.commit))
        start = self.clock()
        deadline, again = start + CONTRIBUTION_WAIT, start + COMMIT_AGAIN
        while any(not fair.contributions[s] and self.seats[s].peer is not None for s in waiting):
            now = self.clock()
            if now >= deadline:
                break
            if now >= again:  # a guest that has not answered may have missed it (a new host's first words)
                again = now + COMMIT_AGAIN
                for s in waiting:
                    if not fair.contributions[s] and self.seats[s].peer is not None:
                        self.tell(s, Commit(hand, fair.commit))
            await asyncio.sleep(0.05)
        fair.dealt = True
        return deal_from_seed(deal_seed(secret, fair.contributions))

    async def on_events(self, game: Game, events: list[Event]) -> None:
        if any(isinstance(e, HandStarted) for e in events) and any(
            info.from_hand and info.from_hand == self.hand for info in self.seats
        ):
            self.broadcast_lobby()  # a guest who sat down during the last hand plays from this one
        for s in SEATS[1:]:
            if self.seats[s].kind == "remote":
                self.send_state(s, events)
        for ev in events:
            if isinstance(ev, HandOver):
                self.reveal(ev.hand_number)

    def reveal(self, hand: int) -> None:
        """A finished hand's secret and parts, to every guest who played it."""
        reveal = self.fair.reveal(hand)
        if reveal is not None:
            for s in SEATS[1:]:
                if hand >= self.seats[s].from_hand:
                    self.tell(s, reveal)

    async def on_hand_over(self, game: Match) -> Deal | None:
        return await self.deal_round(game.hand_number + 1)

    def close(self) -> None:
        self.closed = True
        for peer in list(self.checks):
            self.send(peer, Closed())
