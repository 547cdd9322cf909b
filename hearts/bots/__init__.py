"""Computer opponents for Hearts: Easy, Medium and Hard, and the "show me" hint.

>>> import random
>>> from hearts import Match, Seat
>>> from hearts.bots import make_bot
>>> match = Match(seed="doc")
>>> bot = make_bot("medium")
>>> decision = bot.decide(match.view(Seat.SOUTH), random.Random(1))
>>> len(decision.cards), decision.reason in REASONS
(3, True)

A bot receives only a :class:`~hearts.view.SeatView` (what that seat may know) and a
seeded :class:`random.Random`. ``decide`` returns a :class:`Decision`; ``decide_steps`` is
the same search as a generator that yields between time slices (for the browser).
See ``docs/bots.md``.
"""

from __future__ import annotations

from .base import Bot, Decision, Hint
from .config import PLAY
from .hard import HardBot
from .hint import REASONS, hint, hint_steps
from .simple import EasyBot, MediumBot, RandomBot

__all__ = [
    "Bot",
    "Decision",
    "Hint",
    "LEVELS",
    "REASONS",
    "make_bot",
    "hint",
    "hint_steps",
    "RandomBot",
    "EasyBot",
    "MediumBot",
    "HardBot",
]

LEVELS = ("easy", "medium", "hard")


def make_bot(
    level: str,
    *,
    budget_ms: float | None = None,
    iterations: int | None = None,
    version: int | None = None,
    pass_iterations: int | None = None,
    pass_budget_ms: float | None = None,
) -> Bot:
    """A bot of ``level`` ("easy", "medium", "hard" or "random").

    Hard searches for ``budget_ms`` milliseconds (default 250; its pass ``pass_budget_ms``,
    default the same), or, when ``iterations`` is
    given, for exactly that many sampled worlds (``pass_iterations`` for the pass, default the
    same): fully deterministic (the daily par uses it). ``version`` picks one of Hard's frozen
    configurations (``hearts.bots.config.CONFIGS``: 7, the game's, by default; 1, the daily par's).
    """
    name = level.strip().lower()
    if name == "hard":
        return HardBot(
            budget_ms=budget_ms,
            iterations=iterations,
            version=PLAY.label if version is None else version,
            pass_iterations=pass_iterations,
            pass_budget_ms=pass_budget_ms,
        )
    if name == "medium":
        return MediumBot()
    if name == "easy":
        return EasyBot()
    if name == "random":
        return RandomBot()
    raise ValueError(f"unknown bot level {level!r}: use easy, medium, hard or random")
