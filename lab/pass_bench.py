"""Pass benchmark: Hard's searched pass against Medium's pass rule, in duplicate.

Each deal is played twice with the same seeds: once South passes with Hard's search, once with
Medium's rule (West, North and East pass like Medium both times); then all four seats play the
hand like Medium. Prints South's mean difference in points per hand (search − rule; negative:
the search passes better) with a 95% confidence interval, and the pass decision time.

    python3 -m lab.pass_bench --deals 800 --iterations 400 --first 2000
    python3 -m lab.pass_bench --deals 600 --bots hard-v1@590/50,hard@1400/130   # versions, paired

With ``--bots`` (arena specs, their pass sizes), every listed bot passes for South on the same
deals; each is compared with Medium's rule and with the others (paired per deal).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

from hearts.bots import make_bot
from hearts.bots.base import Bot, Steps
from hearts.bots.player import BotPlayer
from hearts.deal import deal_from_seed
from hearts.hand import Hand
from hearts.rules import PRESETS
from hearts.seats import PassDirection
from hearts.table import play, run_sync
from hearts.view import SeatView
from lab.arena import ArenaConfig, _make, bot_list
from lab.timed import TimedPlayer

DIRECTIONS = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS)


class PassWith(Bot):
    """Passes like ``passer``, plays like ``player``."""

    def __init__(self, passer: Bot, player: Bot) -> None:
        self.passer, self.player = passer, player
        self.level = f"{passer.level}-pass"

    def choose_pass(self, view: SeatView, rng: random.Random) -> Steps:
        return self.passer.choose_pass(view, rng)

    def choose_play(self, view: SeatView, rng: random.Random) -> Steps:
        return self.player.choose_play(view, rng)


def south_points(deal_no: int, south: Bot, medium: Bot) -> tuple[int, float]:
    """South's points in the deal when South passes with ``south``; and its pass time (s)."""
    hand = Hand(deal_from_seed(f"pass-bench-{deal_no}"), PRESETS["standard"], DIRECTIONS[deal_no % 3])
    seed = f"pass-bench-{deal_no}"
    timed = TimedPlayer(BotPlayer(PassWith(south, medium), seed=seed))
    run_sync(play(hand, [timed] + [BotPlayer(medium, seed=seed) for _ in range(3)]))
    assert hand.result is not None
    return hand.result.points[0], timed.records[0][2]


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--iterations", type=int, default=400, help="Hard's worlds per pass decision")
    parser.add_argument("--first", type=int, default=0, help="number of the first deal")
    parser.add_argument(
        "--bots", default="", type=bot_list, help="compare these arena specs (their pass sizes) instead"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes for --bots")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    if args.bots:
        return compare(args)
    hard, medium = make_bot("hard", iterations=args.iterations), make_bot("medium")
    diffs: list[int] = []
    times: list[float] = []
    for n in range(args.first, args.first + args.deals):
        searched, seconds = south_points(n, hard, medium)
        rule, _ = south_points(n, medium, medium)
        diffs.append(searched - rule)
        times.append(seconds)
    mean = statistics.mean(diffs)
    ci = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
    changed = sum(1 for d in diffs if d) / len(diffs)
    print(f"deals {args.first}..{args.first + args.deals - 1}, Hard pass at {args.iterations} worlds")
    print(
        f"South's points/hand, searched pass - Medium's pass: {mean:+.3f} ± {ci:.3f} (95% CI; "
        f"{'significant' if abs(mean) > ci else 'not significant'}); outcome changed in {changed:.0%} of deals"
    )
    print(
        f"pass decision time: median {statistics.median(times) * 1000:.0f} ms, "
        f"max {max(times) * 1000:.0f} ms (CPython {sys.version.split()[0]})"
    )
    return 0


_BOTS: dict[str, Bot] = {}


def _deal_points(n: int) -> list[int]:
    """South's points on deal ``n``: Medium's pass first, then each bot's (``_BOTS``, in order)."""
    medium = _BOTS["medium"]
    return [south_points(n, bot, medium)[0] for bot in _BOTS.values()]


def compare(args: argparse.Namespace) -> int:
    names = args.bots.split(",")
    _BOTS.clear()
    _BOTS["medium"] = make_bot("medium")
    for name in names:
        _BOTS[name] = _make(name, ArenaConfig(tuple(names)))
    deals = range(args.first, args.first + args.deals)
    if args.jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:  # the workers inherit _BOTS
            rows = pool.map(_deal_points, deals, chunksize=4)
    else:
        rows = [_deal_points(n) for n in deals]
    points = {name: [row[i] for row in rows] for i, name in enumerate(_BOTS)}
    print(
        f"deals {args.first}..{args.first + args.deals - 1}: South passes with each bot, then all four play like Medium"
    )
    print("South's points/hand, A - B per deal (95% CI):")
    order = [*names, "medium"]
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            diffs = [x - y for x, y in zip(points[a], points[b])]
            mean = statistics.mean(diffs)
            ci = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
            changed = sum(1 for d in diffs if d) / len(diffs)
            print(
                f"  {a} - {b}: {mean:+.3f} ± {ci:.3f} ({'significant' if abs(mean) > ci else 'not significant'}; "
                f"outcome changed in {changed:.0%} of deals)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
