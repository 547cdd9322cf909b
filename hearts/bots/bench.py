"""Hard's decision time: ``python -m hearts botbench``.

Plays hands with Hard in every seat (budget mode, as in the browser, or a fixed iteration
count) and prints the median and 95th percentile of the time per decision, with and
without the decisions that need no search (one legal card, or only equivalent ones), and
the worlds a search sampled. ``tools/bench_browser.py`` runs the same benchmark in Chromium.
"""

from __future__ import annotations

import os
import random
import sys
import time
from typing import Any, Generator, Sequence

from ..deal import deal_from_seed
from ..hand import Hand
from ..rules import PRESETS
from . import make_bot
from .hard import LATEST

__all__ = ["main", "add_arguments", "run_from_args", "bench", "bench_steps", "report"]


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_steps(hands: int, budget_ms: float | None, iterations: int | None, seed: int,
                version: int | None = None, pass_iterations: int | None = None) -> Generator[None, None, dict[str, Any]]:
    """The benchmark as a generator: yields between the bots' slices (a browser gives the page
    a turn there, as the game does) and returns the figures. Times are wall-clock per decision."""
    bot = make_bot("hard", budget_ms=budget_ms, iterations=iterations, version=version, pass_iterations=pass_iterations)
    rng = random.Random(seed)
    all_times: list[float] = []
    searched: list[float] = []
    worlds: list[int] = []
    pass_times: list[float] = []
    pass_worlds: list[int] = []
    slices: list[float] = []

    def timed(view: Any) -> Generator[None, None, Any]:
        steps = bot.decide_steps(view, rng)
        last = time.perf_counter()
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value
            now = time.perf_counter()
            slices.append(now - last)
            yield None
            last = time.perf_counter()

    for i in range(hands):
        hand = Hand(deal_from_seed(f"botbench-{seed}-{i}"), PRESETS["standard"], hand_number=i % 4)
        while hand.waiting_for_pass:
            for passer in hand.waiting_for_pass:
                t0 = time.perf_counter()
                d = yield from timed(hand.view(passer))
                pass_times.append(time.perf_counter() - t0)
                pass_worlds.append(int(d.stats.get("worlds", 0)))
                hand.choose_pass(passer, d.cards)
        while hand.result is None:
            seat = hand.turn
            assert seat is not None
            view = hand.view(seat)
            t0 = time.perf_counter()
            decision = yield from timed(view)
            dt = time.perf_counter() - t0
            all_times.append(dt)
            if decision.stats.get("worlds"):  # a real search (not a forced or equivalent choice)
                searched.append(dt)
                worlds.append(int(decision.stats["worlds"]))
            hand.play(seat, decision.cards[0])
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


def bench(hands: int, budget_ms: float | None, iterations: int | None, seed: int,
          version: int | None = None, pass_iterations: int | None = None) -> dict[str, Any]:
    steps = bench_steps(hands, budget_ms, iterations, seed, version, pass_iterations)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: dict[str, Any] = done.value
            return result


def report(r: dict[str, Any], hands: int, mode: str, runtime: str) -> str:
    return "\n".join([
        f"{runtime}; Hard ({mode}) in all four seats, {hands} hands, standard rules",
        f"all decisions ({r['decisions']}):      median {r['median_ms']:7.1f} ms   p95 {r['p95_ms']:7.1f} ms   "
        f"max {r['max_ms']:7.1f} ms",
        f"searched decisions ({r['searched']}): median {r['searched_median_ms']:7.1f} ms   p95 "
        f"{r['searched_p95_ms']:7.1f} ms   worlds: median {r['worlds_median']:.0f} (p10 {r['worlds_p10']:.0f}, "
        f"p90 {r['worlds_p90']:.0f})",
        f"pass decisions: median {r['pass_median_ms']:.1f} ms, median worlds {r['pass_worlds_median']:.0f}; "
        f"time slices between yields: p95 {r['slice_p95_ms']:.1f} ms, max {r['slice_max_ms']:.1f} ms",
    ])


def add_arguments(parser: Any) -> None:
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--budget-ms", type=float, default=None, help="Hard's time budget (default 250)")
    parser.add_argument("--iterations", type=int, default=None, help="fixed worlds per decision instead of a budget")
    parser.add_argument("--pass-iterations", type=int, default=None, help="fixed worlds per pass (with --iterations)")
    parser.add_argument("--version", type=int, default=None, help="Hard's version (default: the latest)")
    parser.add_argument("--seed", type=int, default=1)


def run_from_args(args: Any) -> int:
    r = bench(args.hands, args.budget_ms, args.iterations, args.seed, args.version, args.pass_iterations)
    mode = f"iterations={args.iterations}" if args.iterations else f"budget_ms={args.budget_ms or 250:g}"
    version = args.version if args.version is not None else LATEST
    runtime = os.environ.get("HEARTS_RUNTIME", f"python {sys.version.split()[0]}")
    print(report(r, args.hands, f"v{version}, {mode}", runtime))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m hearts botbench")
    add_arguments(parser)
    return run_from_args(parser.parse_args(argv))
