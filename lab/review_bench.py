"""The hand review's speed: seconds per reviewed hand, time to the first verdict, the longest slice.

    python3 -m lab.review_bench [--hands 8] [--iterations N] [--player easy]      # CPython
    node lab/pyodide_python.mjs -m lab.review_bench --hands 4                    # Pyodide (the browser's runtime)
    python3 -m lab.review_bench --calibrate --hands 30 --player medium             # the threshold's table

Each hand is dealt from a fixed seed (pass directions in turn), south is played by ``--player``
(Easy makes mistakes worth flagging), the others by Medium; then south's hand is reviewed with
``hearts.review.review_steps`` and timed: the whole review, the first verdict (the pass on a
passing hand), and every slice between two yields (the page gets a turn after each). Run it
niced on a shared machine; ``--repeat`` keeps each hand's fastest run. The digest of all verdicts
is printed too: CPython and Pyodide must agree on it.

``--calibrate`` measures instead how often decisions are flagged at several thresholds, reviewing
every hand with two seeds (a flag that moves with the seed sits on a near-tie): the table behind
``REVIEW_THRESHOLD`` in docs/engine.md.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path
from typing import Protocol

from hearts import Hand, Rules, Seat, deal_from_seed
from hearts.bots import make_bot
from hearts.bots.player import BotPlayer
from hearts.review import REVIEW_ITERATIONS, review, review_steps
from hearts.rules import STANDARD_CYCLE
from hearts.table import play, run_sync

ROOT = Path(__file__).resolve().parents[1]


def played_hand(i: int, player: str) -> Hand:
    seed = f"bench-review-{i}"
    hand = Hand(deal_from_seed(seed), Rules(), STANDARD_CYCLE[i % 4])
    bot = make_bot(player, iterations=300) if player == "hard" else make_bot(player)  # Hard: deterministic
    players = [BotPlayer(bot, seed=f"{seed}-player")] + [BotPlayer(make_bot("medium"), seed=seed)] * 3
    run_sync(play(hand, players))
    return hand


class Digest(Protocol):
    """What a hash of :mod:`hashlib` does here: take in bytes."""

    def update(self, data: bytes, /) -> None: ...


def timed_review(hand: Hand, iterations: int, digest: Digest) -> tuple[float, float, list[float], int, int]:
    """(total s, first verdict s, slice lengths s, verdicts, flagged); every verdict goes into ``digest``."""
    slices: list[float] = []
    first = -1.0
    verdicts = flagged = 0
    start = last = time.perf_counter()
    for item in review_steps(hand, Seat.SOUTH, iterations=iterations):
        now = time.perf_counter()
        slices.append(now - last)
        last = now
        if item is not None:
            verdicts += 1
            flagged += item.flagged
            digest.update(repr((item.index, item.best, item.cost.hex(), item.reason, item.params)).encode())
            if first < 0:
                first = now - start
    return time.perf_counter() - start, first, slices, verdicts, flagged


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]


THRESHOLDS = (1.0, 1.5, 2.0, 3.0)


def calibrate(hands: int, player: str, iterations: int) -> None:
    costs: dict[str, list[tuple[float, float]]] = {"pass": [], "play": []}
    for i in range(hands):
        hand = played_hand(i, player)
        a = review(hand, Seat.SOUTH, iterations=iterations, seed="a")
        b = review(hand, Seat.SOUTH, iterations=iterations, seed="b")
        for x, y in zip(a, b):
            costs[x.kind].append((x.cost, y.cost))
        print(
            f"hand {i}: flagged (seed a) {[(v.kind, v.trick, round(v.cost, 1), v.reason) for v in a if v.flagged]}",
            flush=True,
        )
    print(
        f"review iterations {iterations}; {hands} hands, south {player}; flagged share (both seeds) and flags "
        f"that move with the seed"
    )
    for kind, pairs in costs.items():
        cells = []
        for t in THRESHOLDS:
            share = sum((x > t) + (y > t) for x, y in pairs) / max(1, 2 * len(pairs))
            moved = sum((x > t) != (y > t) for x, y in pairs)
            cells.append(f"{t}: {100 * share:.1f} % ({moved} moved)")
        print(f"{kind} ({len(pairs)}): " + " | ".join(cells))


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--iterations", type=int, default=REVIEW_ITERATIONS)
    parser.add_argument("--player", default="easy", help="who plays south (easy, medium, hard)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per hand; the fastest counts")
    parser.add_argument("--calibrate", action="store_true", help="flag shares at several thresholds, two seeds")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    if args.calibrate:
        calibrate(args.hands, args.player, args.iterations)
        return 0
    totals, firsts, slices = [], [], []
    digest = hashlib.sha256()  # the verdicts themselves: the same in CPython and Pyodide
    verdicts = flagged = 0
    for i in range(args.hands):
        hand = played_hand(i, args.player)
        runs = [timed_review(hand, args.iterations, digest if r == 0 else hashlib.sha256()) for r in range(args.repeat)]
        best = min(runs, key=lambda r: r[0])
        total, first, cuts, n, f = best
        totals.append(total)
        firsts.append(first)
        slices += cuts
        verdicts += n
        flagged += f
        print(
            f"hand {i} ({hand.pass_direction.value:6}): {total:5.2f} s, first verdict {first:5.3f} s, "
            f"{len(cuts)} slices (longest {1000 * max(cuts):.1f} ms), {f} of {n} flagged",
            flush=True,
        )
    runtime = os.environ.get("HEARTS_RUNTIME", f"cpython {sys.version.split()[0]}")
    print(f"{runtime}; review iterations {args.iterations}; {args.hands} hands, south {args.player}")
    print(
        f"per hand: mean {sum(totals) / len(totals):.2f} s, max {max(totals):.2f} s; first verdict: mean "
        f"{sum(firsts) / len(firsts):.3f} s, max {max(firsts):.3f} s"
    )
    print(
        f"slices: median {1000 * pct(slices, 0.5):.1f} ms, p99 {1000 * pct(slices, 0.99):.1f} ms, "
        f"max {1000 * max(slices):.1f} ms; flagged {flagged} of {verdicts} decisions; verdicts "
        f"{digest.hexdigest()[:12]}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
