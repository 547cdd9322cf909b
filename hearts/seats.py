"""Seats around the table and pass directions.

Play goes clockwise: south → west → north → east. "Left" is the next seat clockwise,
so south passes left to west, right to east and across to north.
"""

from __future__ import annotations

from enum import Enum, IntEnum

__all__ = ["Seat", "PassDirection", "SEATS"]


class Seat(IntEnum):
    SOUTH = 0
    WEST = 1
    NORTH = 2
    EAST = 3

    @property
    def next(self) -> Seat:
        """The seat that plays after this one (clockwise, to the left)."""
        return SEATS[(self + 1) % 4]

    @property
    def key(self) -> str:
        """Lower-case name used in records: ``"south"``."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str | int) -> Seat:
        if isinstance(text, int) and not isinstance(text, bool):
            if 0 <= text < 4:
                return SEATS[text]
        elif isinstance(text, str) and text.strip().upper() in cls.__members__:
            return cls[text.strip().upper()]
        raise ValueError(f"unknown seat {text!r}: use south, west, north or east")


SEATS: tuple[Seat, Seat, Seat, Seat] = (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST)


class PassDirection(Enum):
    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    HOLD = "hold"

    @property
    def offset(self) -> int:
        """How many seats clockwise the cards travel (0 for a hold hand)."""
        return _OFFSETS[self]

    def target(self, seat: Seat) -> Seat:
        """Who receives the cards ``seat`` passes."""
        return SEATS[(seat + self.offset) % 4]

    def source(self, seat: Seat) -> Seat:
        """Who passes cards to ``seat``."""
        return SEATS[(seat - self.offset) % 4]


_OFFSETS = {PassDirection.LEFT: 1, PassDirection.RIGHT: 3, PassDirection.ACROSS: 2, PassDirection.HOLD: 0}
