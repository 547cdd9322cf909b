"""The bot interface: a bot turns one seat's view and a seeded RNG into a :class:`Decision`."""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, cards_of, mask_of
from ..phase import Phase
from ..table import run_steps
from ..view import SeatView

__all__ = ["Decision", "Hint", "Bot", "Steps"]


@dataclass(frozen=True)
class Decision:
    """What a bot does: ``cards`` is the 3 pass cards while passing, else a 1-tuple with the card to play.

    ``reason`` and ``params`` say why (the codes are listed in ``docs/bots.md``); ``stats``
    carries search figures (iterations, worlds, plan) for benchmarks and debugging.
    """

    cards: tuple[Card, ...]
    reason: str
    params: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def card(self) -> Card:
        return self.cards[0]


@dataclass(frozen=True)
class Hint:
    """The "show me" answer: the cards Hard would pick and one reason code with parameters."""

    cards: tuple[Card, ...]
    reason: str
    params: dict[str, Any] = field(default_factory=dict)


Steps = Generator[None, None, Decision]


class Bot:
    """Base class. Subclasses implement :meth:`choose_pass` and :meth:`choose_play` as generators."""

    level = "base"

    def decide(self, view: SeatView, rng: random.Random) -> Decision:
        return run_steps(self.decide_steps(view, rng))

    def decide_steps(self, view: SeatView, rng: random.Random) -> Steps:
        """A generator that yields ``None`` between time slices and returns the :class:`Decision`."""
        if view.phase is Phase.PASSING:
            if view.passed is not None:
                raise ValueError(f"{view.seat.key} has already passed")
            decision = yield from self.choose_pass(view, rng)
            chosen = mask_of(decision.cards)
            if len(decision.cards) != 3 or chosen & ~view.hand_mask or len(set(decision.cards)) != 3:
                raise AssertionError(f"{self.level} bot chose an illegal pass {decision.cards}")  # pragma: no cover
            return decision
        if view.phase is not Phase.PLAYING or view.turn != view.seat or not view.legal:
            raise ValueError(f"it is not {view.seat.key}'s turn to play")
        decision = yield from self.choose_play(view, rng)
        if len(decision.cards) != 1 or not view.legal_mask >> decision.cards[0] & 1:
            raise AssertionError(f"{self.level} bot chose an illegal play {decision.cards}")  # pragma: no cover
        return decision

    def choose_pass(self, view: SeatView, rng: random.Random) -> Steps:
        raise NotImplementedError
        yield  # pragma: no cover

    def choose_play(self, view: SeatView, rng: random.Random) -> Steps:
        raise NotImplementedError
        yield  # pragma: no cover


def as_cards(cards: tuple[int, ...]) -> tuple[Card, ...]:
    return cards_of(mask_of(cards)) if len(cards) > 1 else tuple(Card(c) for c in cards)
