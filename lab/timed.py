"""A seat that times its bot: every decision with its view and wall time (the benchmarks' player)."""

from __future__ import annotations

import time

from hearts.actions import Action
from hearts.bots.base import Decision
from hearts.bots.player import BotPlayer
from hearts.errors import IllegalAction
from hearts.view import SeatView

__all__ = ["TimedPlayer"]


class TimedPlayer:
    """A :class:`~hearts.bots.player.BotPlayer` that also records each decision with its view and wall time."""

    def __init__(self, inner: BotPlayer) -> None:
        self.inner = inner
        self.records: list[tuple[SeatView, Decision, float]] = []

    async def choose(self, view: SeatView) -> Action:
        t0 = time.perf_counter()
        action = await self.inner.choose(view)
        assert self.inner.last is not None
        self.records.append((view, self.inner.last, time.perf_counter() - t0))
        return action

    def refused(self, action: Action, error: IllegalAction) -> None:
        self.inner.refused(action, error)
