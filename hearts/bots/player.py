"""A bot as a seat at the table: :class:`BotPlayer` answers the table loop with the bot's decision."""

from __future__ import annotations

import random
from collections.abc import Callable

from ..actions import Action, PassCards, PlayCard
from ..errors import IllegalAction
from ..phase import Phase
from ..seats import Seat
from ..table import Pace, drain
from ..view import SeatView
from .base import Bot, Decision

__all__ = ["BotPlayer", "RngSource", "decision_rng", "seeded_rngs", "decision_action"]

RngSource = Callable[[SeatView], random.Random]


def decision_rng(seed: str, hand_number: int, seat: Seat, step: int | str) -> random.Random:
    """The RNG for one bot decision. ``step`` is ``"pass"`` or the number of cards played so far.

    Seeding ``random.Random`` with text is stable across Python versions (it hashes the text
    with SHA-512), so CPython and Pyodide agree: a resumed match, or a daily played the same
    way, makes the same choices again.
    """
    return random.Random(f"hearts-bot-v1:{seed}:{hand_number}:{Seat(seat).key}:{step}")


def seeded_rngs(seed: str) -> RngSource:
    """One fresh :func:`decision_rng` per decision of a match dealt from ``seed``."""

    def rng_for(view: SeatView) -> random.Random:
        step: int | str = "pass" if view.phase is Phase.PASSING else view.cards_played
        return decision_rng(seed, view.hand_number, view.seat, step)

    return rng_for


def decision_action(view: SeatView, decision: Decision) -> Action:
    """The table action for a bot's decision in ``view``."""
    if view.phase is Phase.PASSING:
        return PassCards(view.seat, decision.cards)
    return PlayCard(view.seat, decision.card)


class BotPlayer:
    """Plays one seat with ``bot``. Each decision gets its RNG from ``rng`` (a function of the
    view; :func:`seeded_rngs` of ``seed`` by default); ``pace`` is awaited between slices of the
    search (the browser passes one that gives the page a turn). ``last`` is the latest decision."""

    def __init__(self, bot: Bot, *, seed: str = "", rng: RngSource | None = None, pace: Pace | None = None) -> None:
        self.bot = bot
        self.rng = rng or seeded_rngs(seed)
        self.pace = pace
        self.last: Decision | None = None

    async def choose(self, view: SeatView) -> Action:
        self.last = await drain(self.bot.decide_steps(view, self.rng(view)), self.pace)
        return decision_action(view, self.last)

    def refused(self, action: Action, error: IllegalAction) -> None:
        raise AssertionError(f"{self.bot.level} bot made an illegal move {action}: {error}")
