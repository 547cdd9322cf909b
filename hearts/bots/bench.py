"""Hard's decision time: ``python -m hearts botbench``.

Plays hands with Hard in every seat (budget mode, as in the browser, or a fixed iteration
count) and prints the median and 95th percentile of the time per decision, with and
without the forced plays (a single legal card, answered at once).
"""

from __future__ import annotations

import random
import sys
import time
from typing import Any, Sequence

from ..deal import deal_from_seed
from ..hand import Hand
from ..rules import PRESETS
from . import make_bot

__all__ = ["main", "add_arguments", "run_from_args", "bench"]


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench(hands: int, budget_ms: float | None, iterations: int | None, seed: int) -> dict[str, Any]:
    bot = make_bot("hard", budget_ms=budget_ms, iterations=iterations)
    rng = random.Random(seed)
    all_times: list[float] = []
    searched: list[float] = []
    worlds: list[int] = []
    pass_times: list[float] = []
    slices: list[float] = []
    for i in range(hands):
        hand = Hand(deal_from_seed(f"botbench-{seed}-{i}"), PRESETS["standard"], hand_number=i % 4)
        while hand.waiting_for_pass:
            for passer in hand.waiting_for_pass:
                t0 = time.perf_counter()
                d = bot.decide(hand.view(passer), rng)
                pass_times.append(time.perf_counter() - t0)
                hand.choose_pass(passer, d.cards)
        while hand.result is None:
            seat = hand.turn
            assert seat is not None
            view = hand.view(seat)
            steps = bot.decide_steps(view, rng)
            t0 = last = time.perf_counter()
            while True:
                try:
                    next(steps)
                    now = time.perf_counter()
                    slices.append(now - last)
                    last = now
                except StopIteration as done:
                    decision = done.value
                    break
            dt = time.perf_counter() - t0
            all_times.append(dt)
            if len(view.legal) > 1:
                searched.append(dt)
                worlds.append(int(decision.stats.get("worlds", 0)))
            hand.play(seat, decision.cards[0])
        print(f"\rhand {i + 1}/{hands}", end="", file=sys.stderr)
    print(file=sys.stderr)
    return {
        "decisions": len(all_times),
        "median_ms": 1000 * _pct(all_times, 0.5),
        "p95_ms": 1000 * _pct(all_times, 0.95),
        "searched": len(searched),
        "searched_median_ms": 1000 * _pct(searched, 0.5),
        "searched_p95_ms": 1000 * _pct(searched, 0.95),
        "max_ms": 1000 * max(all_times),
        "worlds_median": _pct([float(w) for w in worlds], 0.5),
        "pass_median_ms": 1000 * _pct(pass_times, 0.5),
        "slice_p95_ms": 1000 * _pct(slices, 0.95) if slices else 0.0,
        "slice_max_ms": 1000 * max(slices) if slices else 0.0,
    }


def add_arguments(parser: Any) -> None:
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--budget-ms", type=float, default=None, help="Hard's time budget (default 250)")
    parser.add_argument("--iterations", type=int, default=None, help="fixed worlds per decision instead of a budget")
    parser.add_argument("--seed", type=int, default=1)


def run_from_args(args: Any) -> int:
    r = bench(args.hands, args.budget_ms, args.iterations, args.seed)
    mode = f"iterations={args.iterations}" if args.iterations else f"budget_ms={args.budget_ms or 250:g}"
    print(f"python {sys.version.split()[0]}; Hard ({mode}) in all four seats, {args.hands} hands, standard rules")
    print(f"all decisions ({r['decisions']}):      median {r['median_ms']:7.1f} ms   p95 {r['p95_ms']:7.1f} ms   max {r['max_ms']:7.1f} ms")
    print(f"searched decisions ({r['searched']}): median {r['searched_median_ms']:7.1f} ms   p95 {r['searched_p95_ms']:7.1f} ms"
          f"   median worlds {r['worlds_median']:.0f}")
    print(f"pass decisions: median {r['pass_median_ms']:.2f} ms; time slices between yields: p95 {r['slice_p95_ms']:.1f} ms, "
          f"max {r['slice_max_ms']:.1f} ms")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m hearts botbench")
    add_arguments(parser)
    return run_from_args(parser.parse_args(argv))
