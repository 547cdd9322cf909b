"""The host's side of an online table: seats, remote players, what each guest may see, the fair deal.

The host's browser runs the match with the one table loop (:func:`hearts.table.play`); a guest's
seat is a :class:`~.remote.RemotePlayer`, which waits for that guest's ``act`` message and lets a stand-in bot
play while the guest is away. :class:`HostTable` admits every message through
:class:`~.protocol.PeerCheck`, binds peers to seats by a secret seat token, and as a
:class:`~hearts.table.Listener` sends each guest only what its seat may see after every action.
Nothing here touches the DOM or the network: ``send(peer, text)`` does.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Mapping
from functools import partial
from typing import assert_never

from hearts import PRESETS, SEATS, Action, Deal, Event, HandOver, Match, Rules, Seat, deal_from_seed
from hearts.fairdeal import commitment, deal_seed, is_token
from hearts.table import Game, Listener, Player

from ..session import Snapshot
from .decoder import GUEST_MESSAGES
from .messages import (
    VERSION, Act, Bye, Closed, Commit, Contrib, Envelope, Hello, HostMessage, Lobby, LobbySeat, Ping, Probe, Refused,
    Reveal, Sit, State, Version, Welcome, encode,
)
from .protocol import MAX_GUEST_MESSAGE, PeerCheck, RateLimit, clean_name
from .remote import FairHand, RemotePlayer, SeatInfo, filter_events

__all__ = ["HostTable", "DROP_AFTER", "PING_EVERY"]

Send = Callable[[str, str], None]
PING_EVERY = 2.0  # seconds between heartbeats
DROP_AFTER = 6.0  # a guest silent this long is treated as gone (a bot plays for it)
CONTRIBUTION_WAIT = 3.0  # how long a hand's deal waits for the guests' contributions


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
        self.on_change: Callable[[], None] = lambda: None  # the page redraws the lobby / seat kinds
        self.on_probe: Callable[[str], None] = lambda peer: None  # the page proves to ``peer`` that it is the host
        self._seq = 0
        self._last_ping = 0.0

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

    def seat_of(self, peer: str) -> Seat | None:
        return next((s for s, info in zip(SEATS, self.seats) if info.peer == peer), None)

    def on_message(self, peer: str, raw: object) -> None:
        """Admit and act on one message from ``peer``; anything bad is dropped with a log line."""
        check = self.checks.setdefault(peer, PeerCheck(RateLimit(clock=self.clock)))
        got = check.admit(raw, GUEST_MESSAGES, MAX_GUEST_MESSAGE)
        if not isinstance(got, Envelope):
            if got.reason != "rate limit" or str(check.dropped).strip("0") == "1":  # a flood: 1st, 10th, 100th…
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
        self._welcome(claimed)

    def _sit(self, peer: str, seat: Seat | None, sit: Sit) -> None:
        wanted, name = sit.seat, clean_name(sit.name)
        if seat is not None and seat == wanted:
            return self._welcome(seat)  # the guest asked again: the welcome may have been lost
        if seat is not None:
            return self._refuse(peer, "sit", "already_seated")
        if self.started:
            return self._refuse(peer, "sit", "started")
        if name is None:
            return self._drop(peer, "sit needs a seat and a name")
        info = self.seats[wanted]
        if info.kind != "bot":
            return self._refuse(peer, "sit", "seat_taken")
        info.kind, info.name, info.token = "remote", name, self.random_hex(16)
        info.peer, info.last_seen = peer, self.clock()
        self._welcome(wanted)

    def _welcome(self, seat: Seat) -> None:
        info = self.seats[seat]
        assert info.token is not None
        self.tell(seat, Welcome(seat, info.token, info.name))
        self.broadcast_lobby()
        if self.match is not None:
            self.send_state(seat, [])
            fair = self.fair.get(self.match.hand_number)
            # only while the deal still waits for this seat's part: once dealt, a contribution
            # would not count (the guest is told at the reveal that it could not check the hand)
            if fair is not None and not fair.dealt and not fair.contributions[seat]:
                self.tell(seat, Commit(self.match.hand_number, fair.commit))

    def _refuse(self, peer: str, what: str, code: str) -> None:
        self.send(peer, Refused(what, code))

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

    # ------------------------------------------------------------------ the match
    def players(self, local: Player) -> list[Player]:
        """The table's four seats: the host, remote players for guests, bots for the rest."""
        out: list[Player] = [local]
        for s in SEATS[1:]:
            if self.seats[s].kind == "remote":
                self.remote[s] = RemotePlayer(self.seats[s], self.stand_in(s), partial(self.tell, s))
                out.append(self.remote[s])
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

    # ------------------------------------------------------------------ saving (the host may reload)
    def to_dict(self) -> dict[str, object]:
        return {"seats": [info.to_dict() for info in self.seats], "started": self.started,
                "rules": dict(self.rules.to_dict(), preset=self.preset),
                "level": self.level, "fair": {str(h): {"commit": f.commit, "secret": f.secret,
                                                       "contributions": f.contributions, "revealed": f.revealed}
                                              for h, f in self.fair.items() if not f.revealed}}

    def restore(self, data: Mapping[str, object]) -> None:
        """The seats and the unrevealed deals of a saved table (checked: a bad entry is skipped)."""
        seats = data.get("seats")
        if isinstance(seats, list) and len(seats) == 4:
            for info, raw in zip(self.seats[1:], seats[1:]):
                if isinstance(raw, dict) and raw.get("kind") in ("bot", "remote"):
                    info.kind = raw["kind"]
                    info.name = clean_name(raw.get("name")) or info.name
                    token = raw.get("token")
                    info.token = token if info.kind == "remote" and is_token(token) and isinstance(token, str) else None
        self.started = bool(data.get("started"))
        fair = data.get("fair")
        if isinstance(fair, dict):
            for hand, raw in fair.items():
                commit, secret = raw.get("commit") if isinstance(raw, dict) else None, raw.get("secret") if isinstance(raw, dict) else None
                parts = raw.get("contributions") if isinstance(raw, dict) else None
                if isinstance(hand, str) and hand.isdigit() and isinstance(commit, str) and isinstance(secret, str) \
                        and isinstance(parts, list) and len(parts) == 4 and all(isinstance(c, str) for c in parts):
                    # saved with its hand under way: that hand was dealt
                    self.fair[int(hand)] = FairHand(commit, secret, [str(c) for c in parts], dealt=True)

    def close(self) -> None:
        self.closed = True
        for peer in list(self.checks):
            self.send(peer, Closed())
