"""Bridge to ``hearts.bots``: runs a bot's search in slices so the page keeps animating.

``decide_steps`` is a generator that yields between short slices of work; we run slices until
a small time budget is used up, then give the browser a turn (``await asyncio.sleep(0)``).
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Generator


# Give the browser a turn at least this often while a bot computes (seconds).
SLICE_BUDGET = 0.03


async def drive(steps: Generator[None, None, Any], budget: float = SLICE_BUDGET) -> Any:
    """Run the generator to its end, giving the browser a turn whenever the next slice would
    push the current task past ``budget`` (predicted from the previous slice's duration)."""
    task_start = time.perf_counter()
    last = 0.0
    while True:
        now = time.perf_counter()
        if now - task_start > 0 and (now - task_start) + last > budget:
            await asyncio.sleep(0)
            task_start = time.perf_counter()
        t0 = time.perf_counter()
        try:
            next(steps)
        except StopIteration as done:
            return done.value
        last = time.perf_counter() - t0


class Seatbot:
    """One computer player (difficulty + seed) behind a small async interface."""

    def __init__(self, level: str, seed: str, seat: int, **options: Any) -> None:
        self.level = level
        self.seed = seed
        self.seat = seat
        self.options = options
        self._bot: Any = None

    @property
    def bot(self) -> Any:
        # imported on first use: the bots are not needed to draw the table (start-up speed)
        if self._bot is None:
            from hearts.bots import make_bot

            self._bot = make_bot(self.level, **self.options)
        return self._bot

    async def decide(self, match: Any, seat: Any) -> Any:
        """The bot's decision for ``seat``; the RNG is seeded per decision (hearts.daily.bot_rng),
        so a resumed match, or a daily played the same way, makes the same choices again."""
        from hearts.daily import bot_rng

        return await drive(self.bot.decide_steps(match.view(seat), bot_rng(match, seat)))


async def hint(view: Any) -> tuple[tuple[Any, ...], str, dict[str, Any]]:
    """(recommended cards, reason code, reason params) from the bots' hint."""
    from hearts.bots import hint_steps

    result = await drive(hint_steps(view))
    return tuple(result.cards), str(result.reason), dict(result.params)
