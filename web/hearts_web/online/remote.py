"""A guest's seat at the host: what the host knows of it (:class:`SeatInfo`), the seat as a player
of the table loop (:class:`RemotePlayer`: it waits for the guest's action, and a stand-in bot plays
while the guest is away), the fair deal of a hand (:class:`FairHand`), and what of the events a
seat may see (:func:`filter_events`). Pure: no DOM, no network.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from hearts import SEATS, Action, CardsPassed, Event, IllegalAction, Seat, SeatView
from hearts.table import Player

from .messages import Commit, Contrib, HostMessage, Refused, Reveal

__all__ = ["SeatInfo", "FairHand", "FairDeals", "RemotePlayer", "filter_events"]


@dataclass
class SeatInfo:
    kind: str  # "local" (the host), "bot", or "remote" (a guest's seat, even while the guest is away)
    name: str
    token: str | None = None
    peer: str | None = None
    last_seen: float = 0.0
    key: str | None = None  # the guest's public key: it may carry the table on, and claim its seat with it
    from_hand: int = 0  # the first hand its guest plays (a guest who sat down during the match: the next)
    left_at: float | None = None  # when its guest was last seen leaving (None: not known yet)

    def plays(self, hand: int) -> bool:
        """Its guest is connected and plays hand ``hand`` (else a bot plays the seat)."""
        return self.kind == "remote" and self.peer is not None and hand >= self.from_hand

    def joining(self, hand: int) -> bool:
        """A guest sat down here during hand ``hand`` (or between hands) and plays from the next."""
        return self.kind == "remote" and hand < self.from_hand

    def shown_kind(self, hand: int) -> str:
        """What the table shows during hand ``hand``: a guest who is away, or who plays only from
        the next hand, is played by a bot."""
        return "local" if self.kind == "local" else ("remote" if self.plays(hand) else "bot")

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"kind": self.kind, "name": self.name, "token": self.token, "key": self.key}
        if self.from_hand:
            data["from_hand"] = self.from_hand
        return data


@dataclass
class FairHand:
    commit: str
    secret: str
    contributions: list[str] = field(default_factory=lambda: ["", "", "", ""])
    revealed: bool = False
    dealt: bool = False  # the deal was made from the contributions in by then; later ones are refused


class FairDeals(dict[int, FairHand]):
    """Every hand's fair deal at the host (:mod:`hearts.fairdeal`), by hand number: the host's
    commitment, the guests' parts until the deal, the reveal after the hand."""

    def contribute(self, seat: Seat, contrib: Contrib) -> str | None:
        """Take ``seat``'s part of a hand's deal; the reason when it is not expected."""
        fair = self.get(contrib.hand)
        if fair is None or fair.contributions[seat]:
            return "contribution not expected"
        if fair.dealt:
            return "contribution after the deal"
        fair.contributions[seat] = contrib.value
        return None

    def pending(self, hand: int, seat: Seat) -> Commit | None:
        """The commitment a guest who (re)joins still needs: only while the deal waits for its part
        (once dealt, a part would not count; the guest is told at the reveal that it could not
        check the hand)."""
        fair = self.get(hand)
        return (
            Commit(hand, fair.commit) if fair is not None and not fair.dealt and not fair.contributions[seat] else None
        )

    def reveal(self, hand: int) -> Reveal | None:
        """The secret and the parts of a finished hand, once."""
        fair = self.get(hand)
        if fair is None or fair.revealed:
            return None
        fair.revealed = True
        c0, c1, c2, c3 = fair.contributions
        return Reveal(hand, fair.secret, (c0, c1, c2, c3))


def filter_events(events: list[Event], seat: Seat) -> list[Event]:
    """The events as ``seat`` may see them: of an exchange, only what it gave and what it got."""
    out: list[Event] = []
    for ev in events:
        if isinstance(ev, CardsPassed):
            keep = {seat, ev.direction.source(seat)}
            ev = CardsPassed(ev.direction, tuple(g if s in keep else () for s, g in zip(SEATS, ev.given)))
        out.append(ev)
    return out


class RemotePlayer:
    """A seat other than the host's: waits for its guest's action; while the seat has no guest
    playing (a bot's seat, a guest away or joining from the next hand), ``stand_in`` plays."""

    def __init__(self, info: SeatInfo, stand_in: Player, tell: Callable[[HostMessage], None]) -> None:
        """``info``: the seat (its peer is ``None`` while the guest is away); ``tell`` sends the guest a message."""
        self.info, self.stand_in, self.tell = info, stand_in, tell
        self.asked: SeatView | None = None
        self.early: Action | None = None  # an answer that came before the table asked (it is this seat's turn)
        self._answer: asyncio.Future[Action | None] | None = None

    @property
    def waiting(self) -> bool:
        return self._answer is not None and not self._answer.done()

    async def choose(self, view: SeatView) -> Action:
        while True:
            if self.early is not None:
                early, self.early = self.early, None
                return early
            if not self.info.plays(view.hand_number):
                return await self.stand_in.choose(view)
            self._answer = asyncio.get_event_loop().create_future()
            self.asked = view
            try:
                answer = await self._answer
            finally:
                self.asked, self._answer = None, None
            if answer is not None:
                return answer

    def answer(self, action: Action | None) -> bool:
        """The guest's action (``None``: the guest has gone; ask the stand-in)."""
        if not self.waiting:
            return False
        assert self._answer is not None
        self._answer.set_result(action)
        return True

    def refused(self, action: Action, error: IllegalAction) -> None:
        self.tell(Refused("act", error.code.value))
