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
from collections.abc import Callable
from functools import partial
from typing import assert_never

from hearts import PRESETS, SEATS, Action, Deal, Event, HandOver, Match, Rules, Seat, deal_from_seed
from hearts.fairdeal import commitment, deal_seed
from hearts.table import Game, Listener, Player

from ..session import Snapshot
from .decoder import GUEST_MESSAGES
from .messages import (
    TIMER_CHOICES, VERSION, Act, Again, Back, Bye, Closed, Commit, Contrib, Envelope, Hello, HostMessage, Lobby,
    LobbySeat, Ping, Probe, React, Reacted, Refused, Reveal, Sit, State, Turn, Version, Welcome, encode,
)
from .protocol import MAX_GUEST_MESSAGE, PeerCheck, RateLimit, clean_name, worth_logging
from .rematch import RematchOffer
from .remote import FairHand, RemotePlayer, SeatInfo, filter_events
from .timer import TimedSeat, TurnTimer

__all__ = ["HostTable", "DROP_AFTER", "PING_EVERY", "REACTION_RATE", "REACTION_BURST"]

Send = Callable[[str, str], None]
PING_EVERY = 2.0  # seconds between heartbeats
DROP_AFTER = 6.0  # a guest silent this long is treated as gone (a bot plays for it)
CONTRIBUTION_WAIT = 3.0  # how long a hand's deal waits for the guests' contributions
REACTION_BURST, REACTION_RATE = 3.0, 0.5  # a player's reactions: 3 at once, then one every 2 s


class HostTable(Listener):
    def __init__(self, send: Send, *, host_name: str, bot_names: list[str], stand_in: Callable[[Seat], Player],
                 preset: str, level: str, clock: Callable[[], float] = time.monotonic,
                 random_hex: Callable[[int], str] = secrets.token_hex) -> None:
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
        self.fair: dict[int, FairHand] = {}
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
        self._seq = 0
        self._last_ping = 0.0
        self._turn: Turn | None = None

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

    def lobby(self) -> Lobby:
        seats = tuple(LobbySeat(s, info.shown_kind if self.started else ("free" if info.kind == "bot" else info.kind),
                                info.name) for s, info in zip(SEATS, self.seats))
        return Lobby(seats, self.started, self.rules, self.preset, self.level)

    def broadcast_lobby(self) -> None:
        for peer in list(self.checks):
            self.send(peer, self.lobby())
        self.on_change()

    def snapshot(self, seat: Seat) -> Snapshot:
        m = self.match
        assert m is not None
        return Snapshot(m.view(seat), m.scores, tuple(m.score_sheet), m.winners, m.phase)

    def send_state(self, seat: Seat, events: list[Event]) -> None:
        if self.match is None:
            return
        self.tell(seat, State(self.snapshot(seat), tuple(filter_events(events, seat))))

    # ------------------------------------------------------------------ peers
    def peer_left(self, peer: str) -> None:
        self.checks.pop(peer, None)
        for s, info in zip(SEATS, self.seats):
            if info.peer == peer:
                self._unbind(s, "left")

    def _unbind(self, seat: Seat, why: str) -> None:
        info = self.seats[seat]
        self.log.append(f"{info.name} ({seat.key}) {why}")
        info.peer = None
        player = self.remote.get(seat)
        if player is not None:
            player.answer(None)
        self.wants_again.discard(seat)
        if self.rematch is not None and self.rematch.leave(seat):
            self.broadcast_rematch()
        self.broadcast_lobby()

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
        self.timer.tick()

    def seat_of(self, peer: str) -> Seat | None:
        return next((s for s, info in zip(SEATS, self.seats) if info.peer == peer), None)

    def on_message(self, peer: str, raw: object) -> None:
        """Admit and act on one message from ``peer``; anything bad is dropped with a log line."""
        check = self.checks.setdefault(peer, PeerCheck(RateLimit(clock=self.clock)))
        got = check.admit(raw, GUEST_MESSAGES, MAX_GUEST_MESSAGE)
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
            case _:
                assert_never(message)

    def _drop(self, peer: str, reason: str) -> None:
        self.log.append(f"dropped a message from {peer[:8]}: {reason}")
        del self.log[:-200]

    def _hello(self, peer: str, hello: Hello) -> None:
        token = hello.token
        claimed = next((s for s, info in zip(SEATS, self.seats) if token and info.token == token), None)
        if claimed is None:
            self.send(peer, self.lobby())
            return
        info = self.seats[claimed]
        if info.peer is not None and info.peer != peer:
            self.checks.pop(info.peer, None)  # the same guest on a new connection (a reload)
        info.peer, info.last_seen = peer, self.clock()
        name = clean_name(hello.name)
        if name:
            info.name = name
        self.log.append(f"{info.name} is back at {claimed.key}")
        self.timer.back(claimed)  # a guest who reloads plays again
        if self.rematch is not None and self.rematch.ask_again(claimed):
            self.broadcast_rematch()
        self._welcome(claimed)

    def _sit(self, peer: str, seat: Seat | None, sit: Sit) -> None:
        wanted, name = sit.seat, clean_name(sit.name)
        if seat is not None and seat == wanted:
            return self._welcome(seat)  # the guest asked again: the welcome may have been lost
        if seat is not None:
            return self.send(peer, Refused("sit", "already_seated"))
        if self.started:
            return self.send(peer, Refused("sit", "started"))
        if name is None:
            return self._drop(peer, "sit needs a seat and a name")
        info = self.seats[wanted]
        if info.kind != "bot":
            return self.send(peer, Refused("sit", "seat_taken"))
        info.kind, info.name, info.token = "remote", name, self.random_hex(16)
        info.peer, info.last_seen = peer, self.clock()
        self._welcome(wanted)

    def _welcome(self, seat: Seat) -> None:
        info = self.seats[seat]
        assert info.token is not None
        self.tell(seat, Welcome(seat, info.token, info.name))
        self.broadcast_lobby()
        if self._turn is not None:
            self.tell(seat, self._turn)
        if self.rematch is not None:
            self.tell(seat, self.rematch.message())
        if self.match is not None:
            self.send_state(seat, [])
            fair = self.fair.get(self.match.hand_number)
            # only while the deal still waits for this seat's part: once dealt, a contribution
            # would not count (the guest is told at the reveal that it could not check the hand)
            if fair is not None and not fair.dealt and not fair.contributions[seat]:
                self.tell(seat, Commit(self.match.hand_number, fair.commit))

    def _act(self, peer: str, seat: Seat | None, action: Action) -> None:
        if seat is None:
            return self._drop(peer, "act from a peer without a seat")
        if getattr(action, "seat", None) != seat:
            return self._drop(peer, f"act for another seat than {seat.key}")
        player = self.remote.get(seat)
        if player is None:
            return self._drop(peer, "act from a seat without a remote player")
        if player.answer(action):
            return None
        if self.match is not None and seat in self.match.to_act:
            player.early = action  # the state reached the guest before the table asked: keep it
        else:
            self._drop(peer, "act out of turn")

    def _contrib(self, peer: str, seat: Seat | None, contrib: Contrib) -> None:
        value, fair = contrib.value, self.fair.get(contrib.hand)
        if seat is None or fair is None or fair.contributions[seat]:
            return self._drop(peer, "contribution not expected")
        if fair.dealt:
            return self._drop(peer, "contribution after the deal")
        fair.contributions[seat] = value

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

    def offer_rematch(self) -> None:
        """At match over: everyone still seated is asked to play again."""
        if self.match is None or not self.match.is_over or self.rematch is not None:
            return
        seated = {s for s in SEATS[1:] if self.seats[s].kind == "remote" and self.seats[s].peer is not None}
        self.rematch = RematchOffer.of(seated, self.wants_again & seated)
        self.broadcast_rematch()

    def broadcast_rematch(self) -> None:
        if self.rematch is not None:
            for s in SEATS[1:]:
                self.tell(s, self.rematch.message())
            self.on_rematch()

    def _again(self, peer: str, seat: Seat | None) -> None:
        if seat is None or self.match is None or not self.match.is_over:
            return self._drop(peer, "a rematch answer out of place")
        if self.rematch is None:
            self.wants_again.add(seat)
        elif self.rematch.agree(seat):
            self.broadcast_rematch()

    def close_rematch(self) -> None:
        """The new match starts: the guests who agreed keep their seats, bots play the others.
        (Then :meth:`start` deals its first hand, fairly, as always.)"""
        assert self.rematch is not None
        kept = self.rematch.close()
        self.broadcast_rematch()  # the last word: whose seat a bot plays now
        for i, s in enumerate(SEATS[1:]):
            info = self.seats[s]
            if info.kind == "remote" and s not in kept:
                self.log.append(f"{info.name} ({s.key}) does not play the new match")
                self.seats[s] = SeatInfo("bot", self.bot_names[i])
        self.rematch, self.wants_again, self.match, self.started = None, set(), None, False
        self.fair.clear()
        self.remote.clear()
        self.timer.auto.clear()

    # ------------------------------------------------------------------ the match
    def players(self, local: Player, on_lost: Callable[[], None] = lambda: None) -> list[Player]:
        """The table's four seats: the host, remote players for guests, bots for the rest; the
        host's and the guests' seats under the turn timer (``on_lost``: a bot moved for the host)."""
        out: list[Player] = [TimedSeat(local, self.stand_in(Seat.SOUTH), self.timer, on_lost=on_lost)]
        for s in SEATS[1:]:
            info = self.seats[s]
            if info.kind == "remote":
                self.remote[s] = RemotePlayer(info, self.stand_in(s), partial(self.tell, s))
                out.append(TimedSeat(self.remote[s], self.remote[s].stand_in, self.timer,
                                     present=partial(lambda i: i.peer is not None, info)))
            else:
                out.append(self.stand_in(s))
        return out

    async def start(self, rules: Rules, max_hands: int | None = None) -> Match:
        """Close the lobby and deal the first hand (fairly) for the seated players."""
        self.started = True
        self.broadcast_lobby()
        deal = await self.deal_round(0)
        self.match = Match(rules, deals=[deal], max_hands=max_hands)
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
        deadline = self.clock() + CONTRIBUTION_WAIT
        while any(not fair.contributions[s] and self.seats[s].peer is not None for s in waiting):
            if self.clock() >= deadline:
                break
            await asyncio.sleep(0.05)
        fair.dealt = True
        return deal_from_seed(deal_seed(secret, fair.contributions))

    async def on_events(self, game: Game, events: list[Event]) -> None:
        for s in SEATS[1:]:
            if self.seats[s].kind == "remote":
                self.send_state(s, events)
        for ev in events:
            if isinstance(ev, HandOver):
                self.reveal(ev.hand_number)

    def reveal(self, hand: int) -> None:
        fair = self.fair.get(hand)
        if fair is None or fair.revealed:
            return
        fair.revealed = True
        c0, c1, c2, c3 = fair.contributions
        for s in SEATS[1:]:
            self.tell(s, Reveal(hand, fair.secret, (c0, c1, c2, c3)))

    async def on_hand_over(self, game: Match) -> Deal | None:
        return await self.deal_round(game.hand_number + 1)

    def close(self) -> None:
        self.closed = True
        for peer in list(self.checks):
            self.send(peer, Closed())
