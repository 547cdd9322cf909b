"""The host's table and its seats: who sits where, who may sit down (before the start, or during
the match at a seat a bot plays, from the next hand), and a guest who comes back (its seat token,
or its key). Pure: no DOM, no network; :class:`~.host.HostTable` is made of this part."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

from hearts import SEATS, Event, Match, Rules, Seat

from .messages import Heirs, Hello, HostMessage, Lobby, LobbySeat, Refused, Sit, Turn, Welcome
from .protocol import PeerCheck, clean_name, seat_proof_text
from .rematch import RematchOffer
from .remote import FairDeals, RemotePlayer, SeatInfo
from .timer import TurnTimer

__all__ = ["HostSeats", "SeatsTable"]


class SeatsTable(Protocol):
    """What the seats need of the host's table (:class:`~.host.HostTable`)."""

    seats: list[SeatInfo]
    match: Match | None
    started: bool
    preset: str
    level: str
    clock: Callable[[], float]
    random_hex: Callable[[int], str]
    checks: dict[str, PeerCheck]
    peer_keys: dict[str, str]
    remote: dict[Seat, RemotePlayer]
    wants_again: set[Seat]
    rematch: RematchOffer | None
    log: list[str]
    timer: TurnTimer
    fair: FairDeals
    room: str
    self_peer: str
    verify: Callable[[str, str, str], Awaitable[bool]]
    free_after: float
    signed_heirs: Heirs | None
    on_change: Callable[[], None]
    on_joining: Callable[[Seat, str], None]
    _free: frozenset[Seat]
    _turn: Turn | None

    @property
    def rules(self) -> Rules: ...

    @property
    def hand(self) -> int: ...

    def send(self, peer: str, message: HostMessage) -> None: ...

    def tell(self, to: Seat, message: HostMessage) -> None: ...

    def send_state(self, seat: Seat, events: list[Event]) -> None: ...

    def broadcast_rematch(self) -> None: ...

    def broadcast_lobby(self) -> None: ...

    def lobby(self) -> Lobby: ...

    def free(self) -> frozenset[Seat]: ...

    def _heirs_changed(self) -> None: ...

    def _drop(self, peer: str, reason: str) -> None: ...

    def _unbind(self, seat: Seat, why: str) -> None: ...

    def _welcome(self, seat: Seat) -> None: ...

    def _bind(self, peer: str, hello: Hello, claimed: Seat) -> None: ...

    async def _hello_by_key(self, peer: str, hello: Hello, seat: Seat) -> None: ...


class HostSeats:
    """The seats of the host's table (a part of :class:`~.host.HostTable`)."""

    seats: list[SeatInfo]
    match: Match | None

    @property
    def hand(self: SeatsTable) -> int:
        """The hand under way (or just over): 0 before the first deal."""
        return self.match.hand_number if self.match is not None else 0

    def lobby(self: SeatsTable) -> Lobby:
        """The seats as everyone sees them: before the start, who sits where and which seats are
        free; during the match, who plays, who joins from the next hand and which seats a
        newcomer may take (:meth:`free`)."""
        if not self.started:
            kinds = ["free" if info.kind == "bot" else info.kind for info in self.seats]
        else:
            kinds = [
                "free" if s in self.free() else "joining" if info.joining(self.hand) else info.shown_kind(self.hand)
                for s, info in zip(SEATS, self.seats)
            ]
        seats = tuple(LobbySeat(s, kind, info.name) for s, kind, info in zip(SEATS, kinds, self.seats))
        return Lobby(seats, self.started, self.rules, self.preset, self.level)

    def free(self: SeatsTable) -> frozenset[Seat]:
        """The seats a person may take now: before the start every bot's seat; during a match
        (not over) every seat a bot plays for good: a bot's, or one whose guest has been gone for
        :data:`~.host.FREE_AFTER` seconds (counted from when the host first knew it gone)."""
        m = self.match
        if self.started and (m is None or m.is_over):
            return frozenset()
        now = self.clock()
        out = set()
        for s, info in zip(SEATS[1:], self.seats[1:]):
            if info.kind == "remote" and info.peer is None and self.started:
                if info.left_at is None:
                    info.left_at = now
                if now - info.left_at >= self.free_after:
                    out.add(s)
            elif info.kind == "bot":
                out.add(s)
        return frozenset(out)

    def broadcast_lobby(self: SeatsTable) -> None:
        self._free = self.free()
        for peer in list(self.checks):
            self.send(peer, self.lobby())
        self.on_change()

    # ------------------------------------------------------------------ peers
    def peer_left(self: SeatsTable, peer: str) -> None:
        self.checks.pop(peer, None)
        self.peer_keys.pop(peer, None)
        for s, info in zip(SEATS, self.seats):
            if info.peer == peer:
                self._unbind(s, "left")

    def _unbind(self: SeatsTable, seat: Seat, why: str) -> None:
        info = self.seats[seat]
        self.log.append(f"{info.name} ({seat.key}) {why}")
        info.peer, info.left_at = None, self.clock()
        player = self.remote.get(seat)
        if player is not None:
            player.answer(None)
        self.wants_again.discard(seat)
        if self.rematch is not None and self.rematch.leave(seat):
            self.broadcast_rematch()
        self.broadcast_lobby()

    def seat_of(self: SeatsTable, peer: str) -> Seat | None:
        return next((s for s, info in zip(SEATS, self.seats) if info.peer == peer), None)

    def _hello(self: SeatsTable, peer: str, hello: Hello) -> None:
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

    async def _hello_by_key(self: SeatsTable, peer: str, hello: Hello, seat: Seat) -> None:
        assert hello.key is not None and hello.proof is not None
        if await self.verify(hello.key, seat_proof_text(self.room, self.self_peer, peer), hello.proof):
            if self.seats[seat].token is None:
                self.seats[seat].token = self.random_hex(16)
            self._bind(peer, hello, seat)
        else:
            self._drop(peer, f"a hello for {seat.key} whose key proof does not check out")

    def _bind(self: SeatsTable, peer: str, hello: Hello, claimed: Seat) -> None:
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

    def _sit(self: SeatsTable, peer: str, seat: Seat | None, sit: Sit) -> None:
        wanted, name = sit.seat, clean_name(sit.name)
        if seat is not None and seat == wanted:
            return self._welcome(seat)  # the guest asked again: the welcome may have been lost
        if seat is not None:
            return self.send(peer, Refused("sit", "already_seated"))
        if self.started and (self.match is None or self.match.is_over):
            return self.send(peer, Refused("sit", "started"))
        if name is None:
            return self._drop(peer, "sit needs a seat and a name")
        if wanted not in self.free():
            return self.send(peer, Refused("sit", "seat_taken"))
        info = self.seats[wanted]
        if self.started:  # a newcomer during the match: a bot plays the seat to the end of this hand
            info.from_hand = self.hand + 1
            self.timer.back(wanted)
            self.log.append(f"{name} takes {wanted.key} from hand {info.from_hand + 1}")
            self.on_joining(wanted, name)
        info.kind, info.name, info.token = "remote", name, self.random_hex(16)
        info.key = self.peer_keys.get(peer)
        info.peer, info.last_seen, info.left_at = peer, self.clock(), None
        self._welcome(wanted)

    def _welcome(self: SeatsTable, seat: Seat) -> None:
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
        commit = self.fair.pending(max(self.fair, default=-1), seat)  # a deal that waits for its part
        if commit is not None:
            self.tell(seat, commit)
