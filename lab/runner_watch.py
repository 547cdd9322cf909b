#!/usr/bin/env python3
"""Late lone point-takers (whom Hard's play configuration watches as moon runners, from version 6
on: ``RunnerWatch.LONE_TAKER``) in logged hands, and what watching them cost.

    python3 -m lab.runner_watch lab/out/seat-medium-gate.jsonl --arena lab/out/arena-x.jsonl

Reads ``python3 -m lab.seat_bench --out`` rows (the watched seat is the candidate's) and arena
``--save`` files (every seat is watched, under its bot's name). For each watched seat and hand:

* **late runner**: from the seventh trick on, one other seat alone had taken points (the seat
  v6 counts as a moon runner although v5 does not yet);
* of those hands, how often that seat went on to **make the moon**, and how often it **chose a
  moon plan** (known only for Hard seats: ``attempts``);
* **ducked-trick points**: the points the watched seat took, while such a runner was about, in
  tricks it could have ducked (it followed suit and held a card of the suit led below the
  highest one played to the trick; its own leads are not counted). That is the price of the
  insurance, per hand with a late runner;
* the watched seat's **points a hand** in the hands without a moon, with a late runner and without.

The question it answers: whether a table makes v6's insurance dearer because its late
point-takers shoot less often, or because the insurance takes more points there.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from hearts.bots.moon import RunnerWatch
from lab.moon_report import _lines, _plays, _points, _tricks
from lab.rows import ArenaHand, CandidateHand, Played

LATE = RunnerWatch.LONE_TAKER.value[1]  # complete tricks from which a lone point-taker counts as a runner


class Watched(Played):
    """A hand watched from one seat: the candidate's (seat bench) or a bot's (arena)."""

    cand: str
    points: list[int]


def arena_rows(lines: list[str]) -> list[Watched]:
    """One row per seat of every saved hand that has its plays, under the seat's bot name."""
    rows: list[Watched] = []
    for line in lines:
        hands: list[ArenaHand] = json.loads(line)["hands"]
        for hand in hands:
            plays = hand.get("plays")
            if plays:
                for seat, bot in enumerate(hand["seat_bots"]):
                    rows.append(
                        {
                            "cand": bot,
                            "seat": seat,
                            "moon": hand["moon"],
                            "plays": plays,
                            "attempts": hand.get("attempts", []),
                            "points": hand["points"],
                        }
                    )
    return rows


def watch(row: Played) -> tuple[int, int]:
    """(the late runner's seat or -1, points the watched seat took in duckable tricks while it was about)."""
    me = row["seat"]
    plays = _plays(row)
    hand = {c for s, c in plays if s == me}
    taken = [0, 0, 0, 0]
    runner, paid = -1, 0
    for t, (trick, winner) in enumerate(_tricks(plays)):
        holders = [s for s in range(4) if taken[s]]
        about = t >= LATE and len(holders) == 1 and holders[0] != me
        if about and runner < 0:
            runner = holders[0]
        order = [s for s, _ in trick]
        mine = trick[order.index(me)][1]
        led = trick[0][1][0]
        points = sum(_points(c) for _, c in trick)
        if about and winner == me and points and order.index(me) > 0 and mine[0] == led:
            top = max(c[1] for s, c in trick if s != me and c[0] == led)
            if any(c[0] == led and c[1] < top for c in hand):
                paid += points
        taken[winner] += points
        hand.discard(mine)
    return runner, paid


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, help="bench_seat --out files (JSON lines, .gz too)")
    parser.add_argument("--arena", nargs="*", type=Path, default=[], help="arena --save files (with plays)")
    parser.add_argument("--bots", default="", help="comma-separated: only these candidates/bots")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = cli()
    args = parser.parse_args(argv)
    keep = {b.strip() for b in args.bots.split(",") if b.strip()}
    groups: dict[tuple[str, str], list[Watched]] = defaultdict(list)  # (candidate, where) -> rows
    for f in args.files:
        for line in _lines(f):
            hand: CandidateHand = json.loads(line)
            groups[(hand["cand"], f"field {hand['field']}")].append(hand)
    for f in args.arena:
        for watched in arena_rows(_lines(f)):
            groups[(watched["cand"], f"arena {f.name}")].append(watched)
    if not groups:
        parser.error("no hands: give bench_seat rows or --arena files")
    print("late lone point-takers (from the seventh trick on) seen by the watched seat; per candidate:")
    for (cand, where), rows in groups.items():
        if keep and cand not in keep:
            continue
        seen = made = tried = paid = 0
        calm: dict[bool, list[int]] = {True: [], False: []}  # the seat's points in hands without a moon
        for row in rows:
            runner, cost = watch(row)
            if runner >= 0:
                seen += 1
                made += row["moon"] == runner
                tried += runner in row.get("attempts", ())
                paid += cost
            if row["moon"] < 0:
                calm[runner >= 0].append(row["points"][row["seat"]])
        print(
            f"  {cand} ({where}): {len(rows)} hands, a late runner in {seen} ({100 * seen / len(rows):.1f}%); "
            f"it made the moon in {made} ({100 * made / max(seen, 1):.1f}%), chose a moon plan in {tried}; "
            f"points taken in duckable tricks with it about: {paid / max(seen, 1):.3f} per such hand, "
            f"{paid / len(rows):.3f} per hand; points a hand without a moon: with a late runner "
            f"{sum(calm[True]) / max(len(calm[True]), 1):.3f} ({len(calm[True])}), without one "
            f"{sum(calm[False]) / max(len(calm[False]), 1):.3f} ({len(calm[False])})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
