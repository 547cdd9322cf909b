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

from hearts import PRESETS, SEATS, Action, Deal, Event, HandOver, HandScore, Match, Rules, Seat, deal_from_seed
from hearts.fairdeal import commitment, deal_seed
from hearts.table import Game, Listener, Player

from ..data.session import Snapshot
from . import protocol
from .decoder import GUEST_MESSAGES
from .handover import HostHeirs
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
    Lobby,
    LobbySeat,
    Ping,
    Probe,
    React,
    Reacted,
    Refused,
    Sit,
    State,
    Succession,
    Turn,
    Version,
    Welcome,
    encode,
)
from .protocol import PeerCheck, RateLimit, clean_name, seat_proof_text, worth_logging
from .rematch import HostRematch, RematchOffer
from .remote import FairDeals, FairHand, RemotePlayer, SeatInfo, filter_events
from .timer import TimedSeat, TurnTimer

__all__ = ["HostTable", "DROP_AFTER", "PING_EVERY", "REACTION_RATE", "REACTION_BURST"]

Send = Callable[[str, str], None]
PING_EVERY = 2.0  # seconds between heartbeats
DROP_AFTER = 6.0  # a guest silent this long is treated as gone (a bot plays for it)
CONTRIBUTION_WAIT = 3.0  # how long a hand's deal waits for the guests' contributions
REACTION_BURST, REACTION_RATE = 3.0, 0.5  # a player's reactions: 3 at once, then one every 2 s
Verify = Callable[[str, str, str], Awaitable[bool]]  # (public key, text, signature)


async def _refuse(key: str, text: str, sig: str) -> bool:
    return False


class HostTable(HostHeirs, HostRematch, Listener):
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
        seats = tuple(
            LobbySeat(s, info.shown_kind if self.started else ("free" if info.kind == "bot" else info.kind), info.name)
            for s, info in zip(SEATS, self.seats)
        )
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
        self.peer_keys.pop(peer, None)
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
        got = check.admit(raw, GUEST_MESSAGES, protocol.MAX_GUEST_MESSAGE, protocol.MAX_CHAIN_MESSAGE)
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
            case _:
                assert_never(message)

    def _drop(self, peer: str, reason: str) -> None:
        self.log.append(f"dropped a message from {peer[:8]}: {reason}")
        del self.log[:-200]

    def _hello(self, peer: str, hello: Hello) -> None:
        token = hello.token
        claimed = next((s for s, info in zip(SEATS, self.seats) if token and info.token == token), None)
        by_key = next(
            (s for s, info in zip(SEATS, self.seats) if hello.key and info.kind == "remote" and info.key == hello.key),
            None,
        )
        if claimed is None and by_key is not None and hello.proof:  # a seat this table knows by its key only
            asyncio.ensure_future(self._hello_by_key(peer, hello, by_key))
            return
        if claimed is None:
            if hello.key:
                self.peer_keys[peer] = hello.key  # for its seat, when it sits down
            self.send(peer, self.lobby())
            return
        if hello.key:
            self.seats[claimed].key = hello.key
        self._bind(peer, hello, claimed)

    async def _hello_by_key(self, peer: str, hello: Hello, seat: Seat) -> None:
        assert hello.key is not None and hello.proof is not None
        if await self.verify(hello.key, seat_proof_text(self.room, self.self_peer, peer), hello.proof):
            if self.seats[seat].token is None:
                self.seats[seat].token = self.random_hex(16)
            self._bind(peer, hello, seat)
        else:
            self._drop(peer, f"a hello for {seat.key} whose key proof does not check out")

    def _bind(self, peer: str, hello: Hello, claimed: Seat) -> None:
        """``peer`` is the guest of ``claimed`` again (a reload, a new connection, a new host)."""
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
        info.key = self.peer_keys.get(peer)
        info.peer, info.last_seen = peer, self.clock()
        self._welcome(wanted)

    def _welcome(self, seat: Seat) -> None:
        info = self.seats[seat]
        assert info.token is not None
        self.tell(seat, Welcome(seat, info.token, info.name))
        self.broadcast_lobby()
        self._heirs_changed()
        if self.signed_heirs is not None:
            self.tell(seat, self.signed_heirs)
        if self._turn is not None:
            self.tell(seat, self._turn)
        if self.rematch is not None:
            self.tell(seat, self.rematch.message())
        if self.match is not None:
            self.send_state(seat, [])
            commit = self.fair.pending(self.match.hand_number, seat)
            if commit is not None:
                self.tell(seat, commit)

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
        """The table's four seats: the host, remote players for guests, bots for the rest; the
        host's and the guests' seats under the turn timer (``on_lost``: a bot moved for the host)."""
        out: list[Player] = [TimedSeat(local, self.stand_in(Seat.SOUTH), self.timer, on_lost=on_lost)]
        for s in SEATS[1:]:
            info = self.seats[s]
            if info.kind == "remote":
                self.remote[s] = RemotePlayer(info, self.stand_in(s), partial(self.tell, s))
                out.append(
                    TimedSeat(
                        self.remote[s],
                        self.remote[s].stand_in,
                        self.timer,
                        present=partial(lambda i: i.peer is not None, info),
                    )
                )
            else:
                out.append(self.stand_in(s))
        return out

    async def start(self, rules: Rules, max_hands: int | None = None, earlier: Sequence[HandScore] = ()) -> Match:
        """Close the lobby and deal the first hand (fairly) for the seated players; ``earlier``: the
        score sheet of a table carried on (the match goes on from its next hand)."""
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
        reveal = self.fair.reveal(hand)
        if reveal is not None:
            for s in SEATS[1:]:
                self.tell(s, reveal)

    async def on_hand_over(self, game: Match) -> Deal | None:
        return await self.deal_round(game.hand_number + 1)

    def close(self) -> None:
        self.closed = True
        for peer in list(self.checks):
            self.send(peer, Closed())
