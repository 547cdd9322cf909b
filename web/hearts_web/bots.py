"""Bridge to ``hearts.bots``: runs a bot's search in slices so the page keeps animating.

``decide_steps`` is a generator that yields between short slices of work; we run slices until
a small time budget is used up, then give the browser a turn (``await asyncio.sleep(0)``).
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any, Generator

from hearts.bots import hint_steps, make_bot

# Give the browser a turn at least this often while a bot computes (seconds).
SLICE_BUDGET = 0.03


async def drive(steps: Generator[None, None, Any], budget: float = SLICE_BUDGET) -> Any:
    start = time.perf_counter()
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
        if time.perf_counter() - start > budget:
            await asyncio.sleep(0)
            start = time.perf_counter()


def decision_rng(seed: str, view: Any) -> random.Random:
    """A seed per decision (not per bot): a resumed match makes the same choices again."""
    played = sum(len(t.plays) for t in view.tricks) + len(view.current_trick)
    return random.Random(f"{seed}|{int(view.seat)}|{view.hand_number}|{view.phase}|{played}")


class Seatbot:
    """One computer player (difficulty + seed) behind a small async interface."""

    def __init__(self, level: str, seed: str, seat: int, **options: Any) -> None:
        self.level = level
        self.seed = seed
        self.seat = seat
        self.bot = make_bot(level, **options)

    async def decide(self, view: Any) -> Any:
        return await drive(self.bot.decide_steps(view, decision_rng(self.seed, view)))

    async def choose_pass(self, view: Any) -> tuple[Any, ...]:
        return tuple((await self.decide(view)).cards)

    async def choose_play(self, view: Any) -> Any:
        return (await self.decide(view)).card


async def hint(view: Any) -> tuple[tuple[Any, ...], str, dict[str, Any]]:
    """(recommended cards, reason code, reason params) from the bots' hint."""
    result = await drive(hint_steps(view))
    return tuple(result.cards), str(result.reason), dict(result.params)
