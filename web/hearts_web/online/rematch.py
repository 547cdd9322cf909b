"""A rematch offered at match over (pure): who is asked, who agreed, and who sits where next.

The host offers; everyone still seated is asked (``"asked"``); a guest who agrees (``"yes"``)
keeps the seat; a seat whose guest leaves, or has not agreed when the new match starts, is played
by a bot (``"bot"``). The host's own seat is ``"host"``. A guest may agree before the offer comes
(it then starts as ``"yes"``). The answers travel as :class:`~.messages.Rematch`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from hearts import SEATS, Match, Seat

from .messages import HostMessage, Rematch
from .remote import FairDeals, RemotePlayer, SeatInfo
from .timer import TurnTimer

__all__ = ["RematchOffer", "HostRematch"]


@dataclass
class RematchOffer:
    answers: list[str] = field(default_factory=lambda: ["host", "bot", "bot", "bot"])

    @classmethod
    def of(cls, seated: set[Seat], agreed: set[Seat]) -> RematchOffer:
        """The offer to the guests seated now (``seated``); those in ``agreed`` said yes already."""
        return cls(["host"] + ["yes" if s in agreed else "asked" if s in seated else "bot" for s in SEATS[1:]])

    def agree(self, seat: Seat) -> bool:
        """``seat``'s guest plays again (True when that changed the answers)."""
        if self.answers[seat] != "asked":
            return False
        self.answers[seat] = "yes"
        return True

    def leave(self, seat: Seat) -> bool:
        """``seat``'s guest left: a bot plays that seat in the new match."""
        if self.answers[seat] not in ("asked", "yes"):
            return False
        self.answers[seat] = "bot"
        return True

    def ask_again(self, seat: Seat) -> bool:
        """``seat``'s guest came back (a reload) before the new match: asked again."""
        if self.answers[seat] != "bot":
            return False
        self.answers[seat] = "asked"
        return True

    @property
    def complete(self) -> bool:
        """Every guest asked has answered: the new match can start."""
        return "asked" not in self.answers

    def close(self) -> set[Seat]:
        """The new match starts now: the seats kept by their guests (the rest are bots)."""
        self.answers = [a if a in ("host", "yes") else "bot" for a in self.answers]
        return {s for s in SEATS if self.answers[s] == "yes"}

    def message(self) -> Rematch:
        a, b, c, d = self.answers
        return Rematch((a, b, c, d))


class RematchTable(Protocol):
    """What the rematch needs of the host's table (:class:`~.host.HostTable`)."""

    match: Match | None
    seats: list[SeatInfo]
    rematch: RematchOffer | None
    wants_again: set[Seat]
    bot_names: list[str]
    started: bool
    log: list[str]
    fair: FairDeals
    remote: dict[Seat, RemotePlayer]
    timer: TurnTimer
    on_rematch: Callable[[], None]

    def tell(self, to: Seat, message: HostMessage) -> None: ...

    def broadcast_rematch(self) -> None: ...

    def _drop(self, peer: str, reason: str) -> None: ...


class HostRematch:
    """The host's table at match over: the offer, the answers, and who sits where next."""

    match: Match | None
    rematch: RematchOffer | None
    wants_again: set[Seat]
    started: bool

    def offer_rematch(self: RematchTable) -> None:
        """At match over: everyone still seated is asked to play again."""
        if self.match is None or not self.match.is_over or self.rematch is not None:
            return
        seated = {s for s in SEATS[1:] if self.seats[s].kind == "remote" and self.seats[s].peer is not None}
        self.rematch = RematchOffer.of(seated, self.wants_again & seated)
        self.broadcast_rematch()

    def broadcast_rematch(self: RematchTable) -> None:
        if self.rematch is not None:
            for s in SEATS[1:]:
                self.tell(s, self.rematch.message())
            self.on_rematch()

    def _again(self: RematchTable, peer: str, seat: Seat | None) -> None:
        if seat is None or self.match is None or not self.match.is_over:
            return self._drop(peer, "a rematch answer out of place")
        if self.rematch is None:
            self.wants_again.add(seat)
        elif self.rematch.agree(seat):
            self.broadcast_rematch()

    def close_rematch(self: RematchTable) -> None:
        """The new match starts: the guests who agreed keep their seats, bots play the others.
        (Then :meth:`~.host.HostTable.start` deals its first hand, fairly, as always.)"""
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
