"""The seats of the browser's table: the person at this screen and the computer opponents.

Both implement :class:`hearts.table.Player`, so the one table loop drives them. Nothing here
touches the DOM: the table loop passes callbacks (what to show when the person is asked, who is
thinking), which keeps these classes testable in CPython.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from typing import Protocol

from hearts import Action, IllegalAction, PassCards, Phase, PlayCard, Seat, SeatView
from hearts.bots import make_bot, remote
from hearts.bots.player import BotPlayer, RngSource, decision_action

from .bot_worker import BotWorker, WorkerUnavailable

__all__ = [
    "Pacer",
    "AskedSeat",
    "HumanPlayer",
    "WebBot",
    "play_forced",
    "SLICE_BUDGET",
    "WORKER_START_WAIT",
    "WORKER_BUDGET",
]

# Give the browser a turn at least this often while Python computes (seconds).
SLICE_BUDGET = 0.03
# How long a bot waits for a starting worker before it thinks on the page instead (seconds): the
# worker starts in 1.5-3 s on a warm cache, a slow phone takes longer.
WORKER_START_WAIT = 10.0
# Hard's budget in the worker (ms): the page does not wait on it, so a play may take a little more
# than the page's 250 ms (median decision ~300 ms, target <= 400). The pass is chosen while the
# person picks three cards: each bot thinks up to 2.5 s (the three share the worker, one after
# another), and once the person has passed (HumanPlayer's on_passed -> BotWorker.hurry) every pass
# still searching or to come ends 500 ms after its start, or at once: the person never waits more
# than 3 x 500 ms. Whether the longer pass wins points is not shown yet (2,400 deals: -0.075 +- 0.137
# per hand); it costs the player nothing. A play reaches about 1,100 to 4,000 worlds, more as the hand
# shortens.
WORKER_BUDGET = {"budget_ms": 300.0, "pass_budget_ms": 2500.0, "hurry_ms": 500.0}


class Pacer:
    """A pace for :func:`hearts.table.drain`: gives the page a turn (``await asyncio.sleep(0)``)
    once ``budget`` seconds of work have passed since the last one, so it never freezes."""

    def __init__(self, budget: float = SLICE_BUDGET) -> None:
        self.budget = budget
        self.since = time.perf_counter()

    async def __call__(self) -> None:
        if time.perf_counter() - self.since > self.budget:
            await asyncio.sleep(0)
            self.since = time.perf_counter()


class AskedSeat(Protocol):
    """A seat this screen's player answers for: a seat of the table loop here (:class:`HumanPlayer`)
    or a guest's seat at someone else's online table (:class:`~hearts_web.online.guest.GuestTable`)."""

    @property
    def asked(self) -> SeatView | None:
        """The view the table asks with, while it waits for this seat."""

    @property
    def waiting(self) -> bool: ...

    def submit(self, action: Action, automatic: bool = False) -> bool:
        """Answer the table; False when it is not waiting (a second tap, or not this seat's turn).
        ``automatic``: the page made the move by itself (a forced card), not the person."""


def play_forced(seat: AskedSeat, view: SeatView) -> bool:
    """Play the only legal card of ``view`` for the person at ``seat`` (Settings → "Play a forced
    card by itself"), if the seat is still asked that question; False otherwise. The answer is
    marked ``automatic``: it stands for a person who is there, and never takes a seat back from the
    bot that plays for a person who is away (the online turn timer: only a tap does)."""
    if view.phase is not Phase.PLAYING or len(view.legal) != 1 or seat.asked is not view or not seat.waiting:
        return False
    return seat.submit(PlayCard(view.seat, view.legal[0]), automatic=True)


class HumanPlayer:
    """The person at this screen. When the table asks, ``on_asked(view)`` lets the page offer the
    choice; a click answers with :meth:`submit`. ``on_refused`` explains a refused action."""

    def __init__(
        self,
        on_asked: Callable[[SeatView], None],
        on_refused: Callable[[IllegalAction], None],
        on_passed: Callable[[], None] | None = None,
    ) -> None:
        self.on_asked = on_asked
        self.on_refused = on_refused
        self.on_passed = on_passed  # the person's pass is in (the bots' passes may stop thinking)
        self.asked: SeatView | None = None
        self.automatic = False  # the last answer was made by the page by itself (a forced card)
        self._answer: asyncio.Future[Action] | None = None

    @property
    def waiting(self) -> bool:
        """True while the table waits for this person and no answer has been given yet."""
        return self._answer is not None and not self._answer.done()

    async def choose(self, view: SeatView) -> Action:
        self._answer = asyncio.get_event_loop().create_future()
        self.asked = view
        try:
            self.on_asked(view)
            return await self._answer
        finally:
            self.asked = None
            self._answer = None

    def submit(self, action: Action, automatic: bool = False) -> bool:
        """Answer the table; False when it is not waiting (a second tap, or not this seat's turn)."""
        if not self.waiting:
            return False
        assert self._answer is not None
        self.automatic = automatic
        self._answer.set_result(action)
        if isinstance(action, PassCards) and self.on_passed is not None:
            self.on_passed()
        return True

    def refused(self, action: Action, error: IllegalAction) -> None:
        self.on_refused(error)


# The worker for a level: None decides on the page (hearts_web.table.bot_seats starts the worker for Hard).
WorkerFor = Callable[[str], "BotWorker | None"]
SearchFor = Callable[[str], Mapping[str, int]]  # a level's fixed search (make_bot's options), if it has one


class WebBot:
    """A computer opponent at ``seat``. The level is read at each decision (the settings may change
    it mid-match); a play takes at least ``min_think()`` seconds so the player can follow, and
    ``on_thinking`` shows who is thinking.

    Where ``worker(level)`` gives a :class:`~hearts_web.table.bot_worker.BotWorker` (Hard), the bot
    decides there, with the very RNG it would use here (waiting up to ``WORKER_START_WAIT`` for a
    starting worker); otherwise (no worker, failed, or a quick level) on the page, giving the page
    a turn between slices of the search. ``search(level)``: fixed options for :func:`make_bot`
    (a challenge's Hard searches a set number of worlds), used on the page and in the worker
    alike; without it Hard searches on the time budget."""

    def __init__(
        self,
        level: Callable[[], str],
        seed: str,
        min_think: Callable[[], float],
        on_thinking: Callable[[Seat | None], None],
        rng: RngSource | None = None,
        worker: WorkerFor | None = None,
        search: SearchFor | None = None,
    ) -> None:
        self.level = level
        self.search = search
        self.seed = seed
        self.rng = rng  # per-decision RNGs (a challenge replays the original match's bots exactly)
        self.min_think = min_think
        self.on_thinking = on_thinking
        self.worker = worker
        self.decided = {"worker": 0, "page": 0}  # where the decisions were made (tests, benchmarks)
        self._players: dict[str, BotPlayer] = {}

    def player(self, level: str) -> BotPlayer:
        if level not in self._players:
            options = self.search(level) if self.search is not None else {}
            self._players[level] = BotPlayer(make_bot(level, **options), seed=self.seed, rng=self.rng, pace=Pacer())
        return self._players[level]

    async def decide(self, level: str, view: SeatView) -> Action:
        """The bot's action: in the worker when one is ready for ``level``, else on the page."""
        player = self.player(level)
        worker = self.worker(level) if self.worker is not None else None
        if worker is not None and await worker.started(WORKER_START_WAIT):
            try:
                options: Mapping[str, float] = WORKER_BUDGET if level == "hard" else {}
                if self.search is not None:
                    options = self.search(level)
                answer = await worker.decide(remote.request(view, level, player.rng(view), **options))
                player.last = remote.decision_from(answer, view)
                self.decided["worker"] += 1
                return decision_action(view, player.last)
            except (WorkerUnavailable, remote.RemoteError) as exc:
                print(f"hearts: the bot decides on the page ({exc})")
        self.decided["page"] += 1
        return await player.choose(view)

    async def choose(self, view: SeatView) -> Action:
        level = self.level()
        if view.phase is not Phase.PLAYING:
            return await self.decide(level, view)
        loop = asyncio.get_event_loop()
        started = loop.time()
        self.on_thinking(view.seat)
        try:
            await asyncio.sleep(0)  # the drawing before and the request after run as separate browser tasks
            action = await self.decide(level, view)
            remaining = self.min_think() - (loop.time() - started)
            if remaining > 0:
                await asyncio.sleep(remaining)
        finally:
            self.on_thinking(None)
        return action

    def refused(self, action: Action, error: IllegalAction) -> None:
        raise AssertionError(f"bot made an illegal move {action}: {error}")
