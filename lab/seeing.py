"""The all-seeing Hard: Hard's own search, every world it samples the real deal.

A lab player (never in the game): the measure of how much Hard loses by not knowing the other
hands. It decides exactly as :class:`~hearts.bots.hard.HardBot` with the same configuration and
sizes (candidates, moon plans, rollouts, utility, gate), except that each world its search draws
is the true one: for a play, the cards the other seats hold now; for a pass, the deal as dealt
(the other seats' passes in that world are Medium's, as in every pass world). The rollouts' random
numbers still differ from world to world, so the search still averages over the plays to come.

Whoever runs the game gives it the truth before each decision (``truth()``: the four hands as
masks, as they are now): ``lab.arena`` from its match, ``lab.openspiel_bench`` from its hand.
In a bot list it is ``seeing-`` before a Hard spec (``seeing-hard@1150/270``); the gap of any
Hard to it is their paired difference on the same deals::

    .venv-lab/bin/python -m lab.openspiel_bench --deals 100 --bots hard@1150/270,seeing-hard@1150/270 --jobs 2
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from hearts.bots.hard import HardBot
from hearts.bots.knowledge import Knowledge
from hearts.bots.search import PassSearch, PlaySearch
from hearts.view import SeatView

__all__ = ["SeeingHard", "TrueDeal"]

Truth = Callable[[], Sequence[int]]  # the four hands as card masks, as they are now


class TrueDeal:
    """A world sampler that always deals the real hands (a copy each time)."""

    def __init__(self, hands: Sequence[int]) -> None:
        self.hands = list(hands)

    def __call__(self, rng: random.Random) -> list[int]:
        return list(self.hands)


class SeeingHard(HardBot):
    """:class:`HardBot` whose worlds are the real deal (``truth`` must be set before it decides)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.truth: Truth | None = None

    def _hands(self, seat: int, hand: int) -> list[int]:
        if self.truth is None:
            raise RuntimeError("the all-seeing Hard was not given the truth (SeeingHard.truth)")
        hands = list(self.truth())
        if hands[seat] != hand:
            raise RuntimeError("the truth given to the all-seeing Hard does not hold this seat's hand")
        return hands

    def _play_search(self, knowledge: Knowledge, cards: list[int], rng: random.Random) -> PlaySearch:
        search = super()._play_search(knowledge, cards, rng)
        real = TrueDeal(self._hands(knowledge.me, knowledge.hand))
        search.worlds.sampler = real  # type: ignore[assignment]
        if search.worlds.strong is not None:
            search.worlds.strong = real  # type: ignore[assignment]
        return search

    def _pass_search(self, view: SeatView, prior: tuple[int, ...], keep_queen: bool, rng: random.Random) -> PassSearch:
        search = super()._pass_search(view, prior, keep_queen, rng)
        dealt = self._hands(int(view.seat), view.hand_mask)
        search.worlds.draw = lambda: search.worlds.world_of(dealt)  # type: ignore[method-assign]
        return search
