"""Hard's decision time: ``python3 -m lab.botbench``.

Plays hands with Hard in every seat (budget mode, as in the browser, or a fixed iteration
count) and prints the median and 95th percentile of the time per decision, with and
without the decisions that need no search (one legal card, or only equivalent ones), and
the worlds a search sampled. ``python3 -m lab.browser.hard_bench`` runs the same benchmark in Chromium.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import TypedDict

from hearts.actions import Action
from hearts.bots import make_bot
from hearts.bots.config import CONFIGS, PLAY
from hearts.bots.player import BotPlayer
from hearts.deal import deal_from_seed
from hearts.hand import Hand
from hearts.phase import Phase
from hearts.rules import PRESETS
from hearts.table import Pace, play, run_sync
from hearts.view import SeatView
from lab.timed import TimedPlayer

__all__ = ["main", "cli", "add_arguments", "run_from_args", "bench", "bench_async", "report", "BenchResult"]


class BenchResult(TypedDict):
    """The figures of a benchmark run (also the JSON the browser's page returns): times in ms,
    the lists per searched play or pass."""

    decisions: int  # play decisions
    median_ms: float
    p95_ms: float
    searched: int  # play decisions that searched (a world or more)
    searched_median_ms: float
    searched_p95_ms: float
    max_ms: float
    worlds_median: float
    worlds_p10: float
    worlds_p90: float
    pass_median_ms: float
    pass_worlds_median: float
    pass_worlds: list[int]
    worlds: list[int]
    pass_ms: list[float]
    searched_ms: list[float]
    slice_p95_ms: float  # the bots' slices of work between two yields
    slice_max_ms: float


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class _SliceClock:
    """The bots' pace: records how long each slice of work ran before it yielded, then awaits
    ``outer`` (the browser's pace: gives the page a turn) if there is one."""

    def __init__(self, outer: Pace | None = None) -> None:
        self.slices: list[float] = []
        self.last = 0.0
        self.outer = outer

    async def tick(self) -> None:
        self.slices.append(time.perf_counter() - self.last)
        if self.outer is not None:
            await self.outer()
        self.last = time.perf_counter()


class _ClockedPlayer(TimedPlayer):
    def __init__(self, inner: BotPlayer, clock: _SliceClock) -> None:
        super().__init__(inner)
        self.clock = clock

    async def choose(self, view: SeatView) -> Action:
        self.clock.last = time.perf_counter()
        return await super().choose(view)


async def bench_async(
    hands: int,
    budget_ms: float | None,
    iterations: int | None,
    seed: int,
    version: int | None = None,
    pass_iterations: int | None = None,
    pace: Pace | None = None,
    progress: bool = False,
) -> BenchResult:
    """Play ``hands`` hands with Hard in every seat and return the figures (wall-clock per
    decision). ``pace`` is awaited between the bots' slices: the browser passes the game's own
    pace there (``python3 -m lab.browser.hard_bench``), so the times include the page's turns."""
    bot = make_bot("hard", budget_ms=budget_ms, iterations=iterations, version=version, pass_iterations=pass_iterations)
    rng = random.Random(seed)
    clock = _SliceClock(pace)
    seats = [_ClockedPlayer(BotPlayer(bot, rng=lambda _view: rng, pace=clock.tick), clock) for _ in range(4)]
    for i in range(hands):
        hand = Hand(deal_from_seed(f"botbench-{seed}-{i}"), PRESETS["standard"], hand_number=i % 4)
        await play(hand, seats)
        if progress:
            print(f"\rhand {i + 1}/{hands}", end="", file=sys.stderr)
    if progress:
        print(file=sys.stderr)
    records = [r for seat in seats for r in seat.records]
    all_times = [dt for view, _, dt in records if view.phase is Phase.PLAYING]
    # a real search (not a forced or an equivalent choice)
    played = [(d, dt) for view, d, dt in records if view.phase is Phase.PLAYING and d.stats.get("worlds")]
    searched = [dt for _, dt in played]
    worlds = [int(d.stats["worlds"]) for d, _ in played]
    passed = [(d, dt) for view, d, dt in records if view.phase is Phase.PASSING]
    pass_times = [dt for _, dt in passed]
    pass_worlds = [int(d.stats.get("worlds", 0)) for d, _ in passed]
    slices = clock.slices
    return {
        "decisions": len(all_times),
        "median_ms": 1000 * _pct(all_times, 0.5),
        "p95_ms": 1000 * _pct(all_times, 0.95),
        "searched": len(searched),
        "searched_median_ms": 1000 * _pct(searched, 0.5),
        "searched_p95_ms": 1000 * _pct(searched, 0.95),
        "max_ms": 1000 * max(all_times),
        "worlds_median": _pct([float(w) for w in worlds], 0.5),
        "worlds_p10": _pct([float(w) for w in worlds], 0.1),
        "worlds_p90": _pct([float(w) for w in worlds], 0.9),
        "pass_median_ms": 1000 * _pct(pass_times, 0.5),
        "pass_worlds_median": _pct([float(w) for w in pass_worlds], 0.5),
        "pass_worlds": pass_worlds,
        "worlds": worlds,
        "pass_ms": [1000 * t for t in pass_times],
        "searched_ms": [1000 * t for t in searched],
        "slice_p95_ms": 1000 * _pct(slices, 0.95) if slices else 0.0,
        "slice_max_ms": 1000 * max(slices) if slices else 0.0,
    }


def bench(
    hands: int,
    budget_ms: float | None,
    iterations: int | None,
    seed: int,
    version: int | None = None,
    pass_iterations: int | None = None,
    progress: bool = False,
) -> BenchResult:
    return run_sync(bench_async(hands, budget_ms, iterations, seed, version, pass_iterations, progress=progress))


def report(r: BenchResult, hands: int, mode: str, runtime: str) -> str:
    return "\n".join(
        [
            f"{runtime}; Hard ({mode}) in all four seats, {hands} hands, standard rules",
            f"all decisions ({r['decisions']}):      median {r['median_ms']:7.1f} ms   p95 {r['p95_ms']:7.1f} ms   "
            f"max {r['max_ms']:7.1f} ms",
            f"searched decisions ({r['searched']}): median {r['searched_median_ms']:7.1f} ms   p95 "
            f"{r['searched_p95_ms']:7.1f} ms   worlds: median {r['worlds_median']:.0f} (p10 {r['worlds_p10']:.0f}, "
            f"p90 {r['worlds_p90']:.0f})",
            f"pass decisions: median {r['pass_median_ms']:.1f} ms, median worlds {r['pass_worlds_median']:.0f}; "
            f"time slices between yields: p95 {r['slice_p95_ms']:.1f} ms, max {r['slice_max_ms']:.1f} ms",
        ]
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hands", type=int, default=20, help="hands to play (default 20: about 3 minutes, 9 s a hand)")
    parser.add_argument("--budget-ms", type=float, default=None, help="Hard's time budget (default 250)")
    parser.add_argument("--iterations", type=int, default=None, help="fixed worlds per decision instead of a budget")
    parser.add_argument("--pass-iterations", type=int, default=None, help="fixed worlds per pass (with --iterations)")
    parser.add_argument(
        "--version",
        type=int,
        default=None,
        choices=sorted(CONFIGS),
        help="Hard's configuration by its version (default: the game's, 7; 1: the par's)",
    )
    parser.add_argument("--seed", type=int, default=1)


def run_from_args(args: argparse.Namespace) -> int:
    r = bench(args.hands, args.budget_ms, args.iterations, args.seed, args.version, args.pass_iterations, progress=True)
    mode = f"iterations={args.iterations}" if args.iterations else f"budget_ms={args.budget_ms or 250:g}"
    version = args.version if args.version is not None else PLAY.label
    runtime = os.environ.get("HEARTS_RUNTIME", f"python {sys.version.split()[0]}")
    print(report(r, args.hands, f"v{version}, {mode}", runtime))
    return 0


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(prog="python3 -m lab.botbench")
    add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_from_args(cli().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
