"""Rules options and named presets.

The four products the game was born from (the common American rules as GameLake plays them, a
web game portal's Hearts, King of Hearts and Hearts Klassik) disagree on a few points; each
difference is an option here, and the presets name the usual combinations. Code asks the
:class:`Rules` object; it never branches on a preset's name.

>>> PRESETS["king"].target, [d.value for d in PRESETS["king"].pass_cycle]
(50, ['left', 'across', 'right', 'hold'])
>>> Rules.from_dict(Rules(jack_of_diamonds=True).to_dict()) == PRESETS["omnibus"]
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import HEARTS_MASK, QUEEN_OF_SPADES
from .seats import PassDirection

__all__ = [
    "FirstTrick",
    "MoonScoring",
    "TieRule",
    "Rules",
    "PRESETS",
    "PASS_CYCLES",
    "preset_name",
]


class FirstTrick(Enum):
    """What a player who cannot follow clubs may not discard on the first trick."""

    HEARTS_AND_QUEEN = "hearts_and_queen"  # no hearts and no Q♠ (the American rules, King of Hearts, Hearts Klassik)
    QUEEN_ONLY = "queen_only"  # only the Q♠ is barred (a web game portal's Hearts)
    NONE = "none"  # anything goes


class MoonScoring(Enum):
    ADD_TO_OTHERS = "add_to_others"  # shooter 0, everyone else +26
    SUBTRACT_FROM_SHOOTER = "subtract_from_shooter"  # shooter −26, everyone else 0
    SHOOTERS_CHOICE = "shooters_choice"  # +26 to the others unless that would lose the match


class TieRule(Enum):
    """What happens when the match has ended and two or more seats share the lowest score."""

    PLAY_ON = "play_on"  # play another hand until the lowest score is unique (GameLake's American rules)
    SHARED_WIN = "shared_win"  # all seats tied for lowest win


STANDARD_CYCLE = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD)
KING_CYCLE = (PassDirection.LEFT, PassDirection.ACROSS, PassDirection.RIGHT, PassDirection.HOLD)
NO_PASSING = (PassDirection.HOLD,)

PASS_CYCLES: dict[str, tuple[PassDirection, ...]] = {
    "left_right_across_hold": STANDARD_CYCLE,
    "left_across_right_hold": KING_CYCLE,
    "none": NO_PASSING,
}


@dataclass(frozen=True)
class Rules:
    """All rules options. The defaults are the common American rules (as GameLake plays them)."""

    pass_cycle: tuple[PassDirection, ...] = STANDARD_CYCLE
    first_trick: FirstTrick = FirstTrick.HEARTS_AND_QUEEN
    queen_breaks_hearts: bool = False
    jack_of_diamonds: bool = False  # J♦ counts −10 (the Omnibus rule, as in "Hearts Klassik")
    moon: MoonScoring = MoonScoring.ADD_TO_OTHERS
    target: int = 100  # the match ends after the hand in which someone reaches this
    tie: TieRule = TieRule.PLAY_ON

    def __post_init__(self) -> None:
        if not self.pass_cycle or not all(isinstance(d, PassDirection) for d in self.pass_cycle):
            raise ValueError("pass_cycle must be a non-empty sequence of pass directions")
        if not isinstance(self.target, int) or isinstance(self.target, bool) or not 1 <= self.target <= 10_000:
            raise ValueError(f"target must be a whole number from 1 to 10000, got {self.target!r}")
        for name, kind in (("first_trick", FirstTrick), ("moon", MoonScoring), ("tie", TieRule)):
            if not isinstance(getattr(self, name), kind):
                raise ValueError(f"{name} must be a {kind.__name__}")

    def pass_direction(self, hand_number: int) -> PassDirection:
        """The pass direction of hand ``hand_number`` (0 = the first hand of the match)."""
        return self.pass_cycle[hand_number % len(self.pass_cycle)]

    @property
    def first_trick_forbidden(self) -> int:
        """Bitmask of the cards that may not be discarded on the first trick."""
        if self.first_trick is FirstTrick.HEARTS_AND_QUEEN:
            return HEARTS_MASK | QUEEN_OF_SPADES.mask
        if self.first_trick is FirstTrick.QUEEN_ONLY:
            return QUEEN_OF_SPADES.mask
        return 0

    def replace(self, **changes: Any) -> Rules:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pass_cycle": [d.value for d in self.pass_cycle],
            "first_trick": self.first_trick.value,
            "queen_breaks_hearts": self.queen_breaks_hearts,
            "jack_of_diamonds": self.jack_of_diamonds,
            "moon": self.moon.value,
            "target": self.target,
            "tie": self.tie.value,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output; missing keys take the defaults, unknown keys are refused."""
        if not isinstance(data, Mapping):
            raise ValueError("rules must be an object")
        unknown = set(data) - {f.name for f in dataclasses.fields(cls)}
        if unknown:
            raise ValueError(f"unknown rules option(s): {', '.join(sorted(unknown))}")
        kwargs: dict[str, Any] = {}
        try:
            if "pass_cycle" in data:
                cycle = data["pass_cycle"]
                if isinstance(cycle, str):
                    if cycle not in PASS_CYCLES:
                        raise ValueError(f"unknown pass cycle {cycle!r}")
                    kwargs["pass_cycle"] = PASS_CYCLES[cycle]
                elif isinstance(cycle, (list, tuple)):
                    kwargs["pass_cycle"] = tuple(PassDirection(d) for d in cycle)
                else:
                    raise ValueError("pass_cycle must be a list of directions")
            for name, kind in (("first_trick", FirstTrick), ("moon", MoonScoring), ("tie", TieRule)):
                if name in data:
                    kwargs[name] = kind(data[name])
            for name in ("queen_breaks_hearts", "jack_of_diamonds"):
                if name in data:
                    if not isinstance(data[name], bool):
                        raise ValueError(f"{name} must be true or false")
                    kwargs[name] = data[name]
            if "target" in data:
                kwargs["target"] = data["target"]
        except (TypeError, KeyError) as exc:
            raise ValueError(f"bad rules: {exc}") from exc
        return cls(**kwargs)


PRESETS: dict[str, Rules] = {
    # The common American rules, as GameLake plays them (and "Hearts Klassik" without its J♦).
    "standard": Rules(),
    # A web game portal's Hearts: only the Q♠ is barred from the first trick.
    "classic": Rules(first_trick=FirstTrick.QUEEN_ONLY),
    # "King of Hearts": left, across, right, hold; the short match to 50.
    "king": Rules(pass_cycle=KING_CYCLE, target=50),
    # "Hearts Klassik", with the Omnibus rule: the J♦ counts −10.
    "omnibus": Rules(jack_of_diamonds=True),
}


def preset_name(rules: Rules) -> str | None:
    """The name of the preset equal to ``rules``, or ``None`` for a custom combination."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None
