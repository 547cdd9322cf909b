"""What happened: every action returns a list of these, so a UI animates from events."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import Card
from .errors import _plain
from .seats import PassDirection, Seat

__all__ = [
    "Event",
    "HandStarted",
    "PassChosen",
    "CardsPassed",
    "CardPlayed",
    "HeartsBroken",
    "TrickWon",
    "MoonShot",
    "HandOver",
    "MatchOver",
]


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


@dataclass(frozen=True)
class HandStarted(Event):
    kind: ClassVar[str] = "hand_started"
    hand_number: int
    pass_direction: PassDirection


@dataclass(frozen=True)
class PassChosen(Event):
    """A seat has chosen its cards (they stay hidden until everybody has chosen)."""

    kind: ClassVar[str] = "pass_chosen"
    seat: Seat


@dataclass(frozen=True)
class CardsPassed(Event):
    """The exchange: ``given[s]`` are the cards seat ``s`` gave to ``direction.target(s)``."""

    kind: ClassVar[str] = "cards_passed"
    direction: PassDirection
    given: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True)
class CardPlayed(Event):
    kind: ClassVar[str] = "card_played"
    seat: Seat
    card: Card
    trick_number: int  # 0..12


@dataclass(frozen=True)
class HeartsBroken(Event):
    kind: ClassVar[str] = "hearts_broken"
    seat: Seat
    card: Card


@dataclass(frozen=True)
class TrickWon(Event):
    kind: ClassVar[str] = "trick_won"
    seat: Seat
    trick_number: int
    plays: tuple[tuple[Seat, Card], ...]
    points: int  # penalty points in the trick (J♦ −10 included when that rule is on)
    marker: str  # "none", "hearts", "queen" (or "jack") — the table's trick marker


@dataclass(frozen=True)
class MoonShot(Event):
    kind: ClassVar[str] = "moon_shot"
    seat: Seat
    scoring: str  # "add_to_others" or "subtract_from_shooter": how it was scored


@dataclass(frozen=True)
class HandOver(Event):
    kind: ClassVar[str] = "hand_over"
    hand_number: int
    points: tuple[int, int, int, int]  # this hand's score per seat
    moon: Seat | None
    totals: tuple[int, int, int, int]  # match totals after this hand


@dataclass(frozen=True)
class MatchOver(Event):
    kind: ClassVar[str] = "match_over"
    winners: tuple[Seat, ...]
    totals: tuple[int, int, int, int]
