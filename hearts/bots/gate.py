"""The decision gate: when Hard leaves Medium's choice for what its search prefers.

The search's means are noisy, and the rule of thumb (Medium's card, Medium's pass) is a good
default, so the search must beat it clearly:

* a **head start** (:attr:`Gate.head_start`): Medium's option gets this many points a hand on
  top of its mean, so another option must be better on average by more than that;
* or a **significance gate** (:attr:`Gate.significance`): each option is compared with Medium's
  world by world (the same worlds, the same random numbers) and may win only if its mean
  advantage is above zero by that many standard errors of the paired differences (the one
  gate or the other: a head start with the significance gate is refused);
* and **successive halving** (:attr:`Gate.halving`, a :class:`Race`): after a quarter and again
  after half of the search only the better half of the options goes on, so the contenders get
  the worlds the losers would have taken.

Medium's pass always has ``PASS_HEAD_START``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Gate", "PASS_HEAD_START", "Race", "PairedGate", "clearly_better"]

PASS_HEAD_START = 0.5  # points a hand: Medium's pass against the searched ones


@dataclass(frozen=True)
class Gate:
    head_start: float = 0.0  # points a hand for Medium's card
    significance: float = 0.0  # > 0: standard errors of the paired differences a card must clear (no head start)
    halving: bool = False  # successive halving of the candidates (plays and passes)

    def __post_init__(self) -> None:
        if self.significance > 0 and self.head_start != 0:
            raise ValueError("a gate has a head start or a significance, not both")


class Race:
    """The options still searched, and how many worlds each has seen.

    With ``halving``, after a quarter and again after half of the search only the better half of
    the options (at least two, always Medium's, ``prior_index``) goes on; Medium's head start
    counts in that comparison. Without it every option sees every world."""

    def __init__(self, n: int, prior_index: int, prior: float, halving: bool) -> None:
        self.active = list(range(n))
        self.worlds = [0] * n
        self.prior_index = prior_index
        self.prior = prior
        self.steps = [0.25, 0.5] if halving and n > 2 else []

    def prune(self, totals: list[float], progress: float) -> None:
        """At a halving step (``progress``: the share of the search done), keep the better half."""
        if not self.steps or progress < self.steps[0]:
            return
        self.steps.pop(0)

        def mean(i: int) -> float:
            return totals[i] / max(self.worlds[i], 1) + (self.prior if i == self.prior_index else 0.0)

        ranked = sorted(self.active, key=lambda i: (-mean(i), i))
        keep = ranked[: max(2, (len(ranked) + 1) // 2)]
        if self.prior_index >= 0 and self.prior_index not in keep:
            keep.append(self.prior_index)
        self.active = sorted(keep)

    def add_prior(self, totals: list[float]) -> None:
        """Add Medium's head start to its total (once, at the end of the search)."""
        if self.prior_index >= 0:
            totals[self.prior_index] += self.prior * self.worlds[self.prior_index]


class PairedGate:
    """The significance gate: the sums of each option's value minus Medium's, world by world."""

    def __init__(self, n: int, prior_index: int, significance: float) -> None:
        self.prior_index = prior_index
        self.significance = significance
        self.diffs = [0.0] * n
        self.squares = [0.0] * n

    def add(self, values: Sequence[float], active: Sequence[int]) -> None:
        """One world's values of the active options."""
        base = values[self.prior_index]
        diffs, squares = self.diffs, self.squares
        for i in active:
            d = values[i] - base
            diffs[i] += d
            squares[i] += d * d

    def passing(self, allowed: list[int], worlds: Sequence[int]) -> list[int]:
        """The options the gate lets through: Medium's, and every one whose mean paired advantage
        is clearly above zero."""
        return [
            i
            for i in allowed
            if i == self.prior_index or clearly_better(self.diffs[i], self.squares[i], worlds[i], self.significance)
        ]


def clearly_better(total: float, squares: float, n: int, k: float) -> bool:
    """Is a mean paired advantage of ``total / n`` (sum of squares ``squares``) above zero by ``k``
    standard errors?"""
    if n < 2:
        return False
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return bool(mean > k * math.sqrt(var / n))
