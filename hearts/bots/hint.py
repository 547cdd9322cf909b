"""The "show me" hint: Hard's choice for a view, with one reason code and its parameters."""

from __future__ import annotations

import random
from collections.abc import Generator

from ..table import run_steps
from ..view import SeatView
from .base import Hint
from .hard import HardBot
from .reasons import PASS_REASONS, PLAY_REASONS

__all__ = ["hint", "hint_steps", "REASONS", "HINT_ITERATIONS", "view_seed"]

REASONS: tuple[str, ...] = tuple(dict.fromkeys(PASS_REASONS + PLAY_REASONS))
HINT_ITERATIONS = 120

HintSteps = Generator[None, None, Hint]


def view_seed(view: SeatView) -> str:
    """A stable seed text for a view (same view → same seed, in CPython and Pyodide)."""
    played = ",".join(str(int(c)) for t in view.tricks for _, c in t.plays)
    current = ",".join(str(int(c)) for _, c in view.current_trick)
    hand = ",".join(str(int(c)) for c in view.hand)
    return f"hint|{int(view.seat)}|{view.hand_number}|{view.phase.value}|{hand}|{played}|{current}|{view.scores}"


def hint_steps(view: SeatView, rng: random.Random | None = None, iterations: int = HINT_ITERATIONS) -> HintSteps:
    """The hint as a generator (yields between slices, returns the :class:`Hint`)."""
    rng = rng if rng is not None else random.Random(view_seed(view))
    decision = yield from HardBot(iterations=iterations).decide_steps(view, rng)
    return Hint(decision.cards, decision.reason, dict(decision.params))


def hint(view: SeatView, rng: random.Random | None = None, iterations: int = HINT_ITERATIONS) -> Hint:
    """What Hard would do in ``view`` and why. Deterministic for the same view when ``rng`` is None."""
    return run_steps(hint_steps(view, rng, iterations))
