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

from ..actions import Action
from ..deal import deal_from_seed
from ..hand import Hand
from ..phase import Phase
from ..rules import PRESETS
from ..table import play, run_sync
from ..view import SeatView
from . import make_bot
from .player import BotPlayer, TimedPlayer

__all__ = ["main", "add_arguments", "run_from_args", "bench"]


def _pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class _SliceClock:
    """The bots' pace: records how long each slice of work ran before it yielded."""

    def __init__(self) -> None:
        self.slices: list[float] = []
        self.last = 0.0

    async def tick(self) -> None:
        now = time.perf_counter()
        self.slices.append(now - self.last)
        self.last = now


class _ClockedPlayer(TimedPlayer):
    def __init__(self, inner: BotPlayer, clock: _SliceClock) -> None:
        super().__init__(inner)
        self.clock = clock

    async def choose(self, view: SeatView) -> Action:
        self.clock.last = time.perf_counter()
        return await super().choose(view)


def bench(hands: int, budget_ms: float | None, iterations: int | None, seed: int) -> dict[str, Any]:
    bot = make_bot("hard", budget_ms=budget_ms, iterations=iterations)
    rng = random.Random(seed)
    clock = _SliceClock()
    seats = [_ClockedPlayer(BotPlayer(bot, rng=lambda _view: rng, pace=clock.tick), clock) for _ in range(4)]
    for i in range(hands):
        hand = Hand(deal_from_seed(f"botbench-{seed}-{i}"), PRESETS["standard"], hand_number=i % 4)
        run_sync(play(hand, seats))
        print(f"\rhand {i + 1}/{hands}", end="", file=sys.stderr)
    print(file=sys.stderr)
    records = [r for seat in seats for r in seat.records]
    all_times = [dt for view, _, dt in records if view.phase is Phase.PLAYING]
    searched = [dt for view, _, dt in records if view.phase is Phase.PLAYING and len(view.legal) > 1]
    worlds = [float(d.stats.get("worlds", 0)) for view, d, _ in records if view.phase is Phase.PLAYING and len(view.legal) > 1]
    passes = [dt for view, _, dt in records if view.phase is Phase.PASSING]
    return {
        "decisions": len(all_times),
        "median_ms": 1000 * _pct(all_times, 0.5),
        "p95_ms": 1000 * _pct(all_times, 0.95),
        "searched": len(searched),
        "searched_median_ms": 1000 * _pct(searched, 0.5),
        "searched_p95_ms": 1000 * _pct(searched, 0.95),
        "max_ms": 1000 * max(all_times),
        "worlds_median": _pct(worlds, 0.5),
        "pass_median_ms": 1000 * _pct(passes, 0.5),
        "slice_p95_ms": 1000 * _pct(clock.slices, 0.95) if clock.slices else 0.0,
        "slice_max_ms": 1000 * max(clock.slices) if clock.slices else 0.0,
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
