"""Hard: card counting, void tracking, pass knowledge and Monte Carlo search.

For each decision Hard samples hidden hands consistent with everything its seat knows (cards
played, suits a seat showed out of, the cards it passed), plays each candidate in every sampled
world, finishes the hand with heuristic rollouts and scores it with a match-aware utility
(:mod:`hearts.bots.search`). Medium's choice is the default it must clearly beat.

Two modes: ``iterations=N`` samples exactly N worlds (deterministic for a given view and RNG
seed); ``budget_ms`` samples until the time is spent (for the UI). Either way the search runs in
slices: :meth:`HardBot.decide_steps` yields between them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Generator, Sequence

from ..view import SeatView
from .base import Bot, Decision, Steps, as_cards
from .candidates import candidates, keeps_queen
from .config import CONFIGS, PLAY, HardConfig
from .knowledge import Knowledge
from .medium import medium_pass, pass_reason
from .moon import moon_pass
from .reasons import classify_play
from .search import PassSearch, PlaySearch

__all__ = ["HardBot", "DEFAULT_BUDGET_MS", "MAX_WORLDS"]

DEFAULT_BUDGET_MS = 250.0
SLICE_S = 0.02  # yield to the caller at least this often (seconds of work) in budget mode
SLICE_WORLDS = 6  # worlds per slice in iterations mode
PASS_SLICE_WORLDS = 2  # worlds per slice when scoring passes in iterations mode (~20 candidates each)
MAX_WORLDS = 4000


class HardBot(Bot):
    level = "hard"

    def __init__(
        self,
        budget_ms: float | None = None,
        iterations: int | None = None,
        *,
        version: int = PLAY.label,
        pass_iterations: int | None = None,
        config: HardConfig | None = None,
        clock: Callable[[], float] = time.perf_counter,
        pass_budget_ms: float | None = None,
        play_schedule: Sequence[int] | None = None,
    ) -> None:
        """``iterations``: sampled worlds per decision (deterministic); ``pass_iterations``
        overrides it for the pass (default: the same); ``play_schedule[n]`` (with ``iterations``)
        overrides it for a play with ``n`` cards in hand (the browser's worker reaches more worlds
        late in a hand). Otherwise ``budget_ms`` of search, timed by ``clock`` (seconds), and
        ``pass_budget_ms`` for the pass (default: ``budget_ms``). ``version`` names a configuration
        (``CONFIGS``: 7, the game's, or 1, the daily par's); ``config`` gives one directly."""
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if pass_iterations is not None and (pass_iterations < 1 or iterations is None):
            raise ValueError("pass_iterations must be at least 1 and needs iterations")
        if config is None and version not in CONFIGS:
            raise ValueError(f"unknown Hard version {version!r}: choose from {sorted(CONFIGS)}")
        self.config = config if config is not None else CONFIGS[version]
        self.version = self.config.label
        self.iterations = iterations
        self.pass_iterations = pass_iterations if pass_iterations is not None else iterations
        if play_schedule is not None:
            if iterations is None or len(play_schedule) != 14 or min(play_schedule[1:]) < 1:
                raise ValueError("play_schedule needs iterations and 14 sizes (by cards held), each at least 1")
            play_schedule = tuple(play_schedule)
        self.play_schedule = play_schedule
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else float(budget_ms)
        if pass_budget_ms is not None and pass_budget_ms <= 0:
            raise ValueError("pass_budget_ms must be positive")
        self.pass_budget_ms = self.budget_ms if pass_budget_ms is None else float(pass_budget_ms)
        self.clock = clock

    def _run_worlds(
        self,
        score_world: Callable[[float], None],
        slice_worlds: int,
        iterations: int | None,
        budget_ms: float | None = None,
    ) -> Generator[None, None, int]:
        """Call ``score_world(progress)`` once per sampled world until the iterations (or, in
        budget mode, the time) are used up, yielding between slices; return the number of
        worlds. ``progress``: the share of the search done so far (worlds or time)."""
        worlds = 0
        deterministic = iterations is not None
        limit = iterations if iterations is not None else MAX_WORLDS
        clock = self.clock
        start = clock()
        budget = (self.budget_ms if budget_ms is None else budget_ms) / 1000.0
        deadline = start + budget
        slice_end = start + SLICE_S
        now = start
        while worlds < limit:
            score_world(worlds / limit if deterministic else (now - start) / budget)
            worlds += 1
            if deterministic:
                if worlds % slice_worlds == 0 and worlds < limit:
                    yield None
            else:
                now = clock()
                if now >= deadline:
                    break
                if now >= slice_end:
                    yield None
                    slice_end = clock() + SLICE_S
        return worlds

    def choose_pass(self, view: SeatView, rng: random.Random) -> Steps:
        hand = view.hand_mask
        keep_queen = keeps_queen(hand)
        cards, reason, params = medium_pass(view, keep_queen=keep_queen)
        moon = moon_pass(hand)
        if moon is not None:
            return Decision(as_cards(moon), "shoot_moon", {"cards": [str(c) for c in as_cards(moon)]})
        search = self._pass_search(view, cards, keep_queen, rng)
        worlds = yield from self._run_worlds(
            search.score_world, PASS_SLICE_WORLDS, self.pass_iterations, self.pass_budget_ms
        )
        choice, stats = search.result(worlds)
        if stats.get("plan") == "moon":
            return Decision(as_cards(choice), "shoot_moon", {"cards": [str(c) for c in as_cards(choice)]}, stats)
        if choice != cards:
            reason, params = pass_reason(choice, hand)
        return Decision(as_cards(choice), reason, params, stats)

    def choose_play(self, view: SeatView, rng: random.Random) -> Steps:
        knowledge = Knowledge(view)
        cards = candidates(knowledge, self.config.trick_split)
        if len(cards) == 1:
            reason, params = classify_play(knowledge, cards[0], False)
            return Decision(as_cards((cards[0],)), reason, params, {"worlds": 0})
        search = self._play_search(knowledge, cards, rng)
        iterations = self.iterations
        if self.play_schedule is not None:
            iterations = self.play_schedule[len(view.hand)]
        worlds = yield from self._run_worlds(search.score_world, SLICE_WORLDS, iterations)
        return search.decision(worlds)

    def _pass_search(self, view: SeatView, prior: tuple[int, ...], keep_queen: bool, rng: random.Random) -> PassSearch:
        """The search of a pass (the lab's all-seeing Hard deals its worlds differently)."""
        return PassSearch(view, prior, keep_queen, self.config, rng)

    def _play_search(self, knowledge: Knowledge, cards: list[int], rng: random.Random) -> PlaySearch:
        """The search of a play (the lab's all-seeing Hard deals its worlds differently)."""
        return PlaySearch(knowledge, cards, self.config, rng)
