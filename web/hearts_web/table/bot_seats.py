"""The computer opponents of this page: the three bots of a game, the stand-ins of an online table,
and Hard's Web Worker, started when Hard first plays.

Every bot is a :class:`~hearts_web.table.players.WebBot`; a challenge game's bots decide with the original
match's per-decision seeds (:func:`hearts.challenge.challenge_rngs`) and, at Hard, a fixed number of
worlds (:func:`hearts.challenge.challenge_bot_options`), so the same plays get the same replies on
any machine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from hearts import Seat
from hearts.challenge import challenge_bot_options, challenge_rngs, decode
from hearts.table import Player

from ..data.session import Mode, Session
from . import bot_worker, bot_worker_browser
from .players import HumanPlayer, WebBot

__all__ = ["BotSeats"]


class BotSeats:
    """``on_thinking`` shows who is thinking; ``min_think()`` is how long a play takes at least;
    ``?worker=off`` in ``params`` keeps every bot on the page (benchmarks compare the two)."""

    def __init__(
        self, on_thinking: Callable[[Seat | None], None], min_think: Callable[[], float], params: Mapping[str, str]
    ) -> None:
        self.on_thinking, self.min_think, self.params = on_thinking, min_think, params
        self.worker: bot_worker.BotWorker | None = None
        self._tried = False

    def seats_for(self, session: Session, human: HumanPlayer) -> list[Player]:
        """The four seats of ``session`` on this screen: the person, then three bots at the
        session's level (read at each decision: the settings may change it)."""
        if session.state.mode is Mode.CHALLENGE and session.state.challenge:
            challenge = decode(session.state.challenge)
            rngs = challenge_rngs(challenge)
            return [human] + [
                WebBot(
                    lambda: challenge.level,
                    challenge.seed,
                    self.min_think,
                    self.on_thinking,
                    rngs,
                    self.worker_for,
                    challenge_bot_options,
                )
                for _ in range(3)
            ]
        seed = session.match.seed or "hearts"
        return [human] + [
            WebBot(lambda: session.state.difficulty, seed, self.min_think, self.on_thinking, worker=self.worker_for)
            for _ in range(3)
        ]

    def stand_in(self, level: str) -> Player:
        """A bot at ``level``: an online table's empty seat, or a guest's while the guest is away."""
        return WebBot(lambda: level, "hearts", self.min_think, self.on_thinking, worker=self.worker_for)

    def worker_for(self, level: str) -> bot_worker.BotWorker | None:
        """The bots' Web Worker for ``level``, started at the first ask. Only Hard searches long
        enough to need one (Easy and Medium play by rules, without a search)."""
        if level != "hard" or self.params.get("worker") == "off":
            return None
        if not self._tried:
            self._tried = True
            self.worker = bot_worker_browser.start()
        return self.worker

    def hurry(self) -> None:
        """The person has passed: Hard's passes in the worker stop thinking (BotWorker.hurry)."""
        if self.worker is not None:
            self.worker.hurry()
