"""Hard's search speed on fixed positions: milliseconds per sampled world, play and pass.

    python3 -m lab.search_bench [--version 1] [--repeat 3]            # CPython (default: the game's Hard, 7)
    python3 -m lab.search_bench --set significance=2                  # a switch of the configuration changed
    node lab/pyodide_python.mjs -m lab.search_bench                 # Pyodide (the browser's runtime)
    node lab/pyodide_python.mjs -m cProfile -s tottime lab/search_bench.py --repeat 1

The positions are the golden ones of ``tests/fixtures/hard_v1.json`` (play decisions from
every stage of the hand, and passes). Each search runs a fixed number of worlds; the best of
``--repeat`` rounds is reported, which filters out most of the noise of a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

from hearts import Phase, Seat
from hearts.bots.config import CONFIGS, PLAY
from hearts.bots.hard import HardBot
from hearts.records import hand_from_record
from lab.arena import ArenaConfig, bot_spec, hard_config, switch_setting

ROOT = Path(__file__).resolve().parents[1]


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", type=int, default=PLAY.label, choices=sorted(CONFIGS))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--worlds", type=int, default=60, help="worlds per play decision")
    parser.add_argument("--pass-worlds", type=int, default=12, help="worlds per pass decision")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        type=switch_setting,
        help="change a switch of the configuration (lab.arena.switches(), e.g. significance=2); repeatable",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = cli()
    args = parser.parse_args(argv)
    try:  # the arena's spelling of an experiment: hard~significance=2
        config = hard_config(
            bot_spec(f"hard-v{args.version}" + "".join("~" + c for c in args.set), ArenaConfig(("hard",)))
        )
    except ValueError as exc:
        parser.error(str(exc))
    cases = json.loads((ROOT / "tests" / "fixtures" / "hard_v1.json").read_text(encoding="utf-8"))
    views = [hand_from_record(c["hand"]).view(Seat.parse(c["seat"])) for c in cases]
    plays = [v for v in views if v.phase is not Phase.PASSING]
    passes = [v for v in views if v.phase is Phase.PASSING]
    bot = HardBot(iterations=args.worlds, pass_iterations=args.pass_worlds, config=config)
    best = {"play": float("inf"), "pass": float("inf")}
    worlds = {"play": 0, "pass": 0}
    for _ in range(args.repeat):
        for kind, group in (("play", plays), ("pass", passes)):
            n = 0
            t0 = time.perf_counter()
            for i, view in enumerate(group):
                n += int(bot.decide(view, random.Random(i)).stats.get("worlds", 0))
            seconds = time.perf_counter() - t0
            worlds[kind] = n
            best[kind] = min(best[kind], seconds)
    runtime = os.environ.get("HEARTS_RUNTIME", f"cpython {sys.version.split()[0]}")
    print(f"{runtime}; Hard v{args.version}{''.join(' ' + c for c in args.set)}; best of {args.repeat}")
    for kind in ("play", "pass"):
        n = max(worlds[kind], 1)
        print(
            f"{kind}: {worlds[kind]} worlds in {best[kind]:.2f} s = {1000 * best[kind] / n:.3f} ms/world "
            f"({n / best[kind]:.0f} worlds/s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
