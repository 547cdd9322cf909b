"""A rematch offered at match over (pure): who is asked, who agreed, and who sits where next.

The host offers; everyone still seated is asked (``"asked"``); a guest who agrees (``"yes"``)
keeps the seat; a seat whose guest leaves, or has not agreed when the new match starts, is played
by a bot (``"bot"``). The host's own seat is ``"host"``. A guest may agree before the offer comes
(it then starts as ``"yes"``). The answers travel as :class:`~.messages.Rematch`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hearts import SEATS, Seat

from .messages import Rematch

__all__ = ["RematchOffer"]


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
