#!/usr/bin/env python3
"""Moons in the seat bench's hands (``python3 -m lab.seat_bench --out`` and its ``--cache`` baseline).

    python3 -m lab.moon_report lab/out/seat-v3field-v1-v5.jsonl --baseline .cache/seat-v3/*.jsonl

Two reports from the logged plays:

* **Runner odds**: before each trick, when exactly one seat has taken points (a *moon runner*),
  how often that seat went on to choose a moon plan (bench_seat's ``attempts``: a Hard seat whose
  search chose one) or to make the moon, by the trick about to be played and the runner's
  points (the table a share of the runner's worlds by these odds was read from: an experiment,
  ``runner_odds``, screened level and left off; lab/RESULTS.md).
* **Moons allowed**, per candidate (and the baseline's field in the candidate's seat): each moon
  another seat made, sorted by the chances the watched seat had to stop it:
  *take*: a trick the shooter won with points on it, which the seat could have won (it followed
  suit with a higher card than the shooter's in hand; *after*: it played after the shooter's
  card and knew; *before*: it played first); *feed*: it was void on a trick another defender won
  (not the first trick) and held a point card; *stopper thrown*: void on a trick of the
  shooter's, it threw a heart higher than one the shooter still held, while it had a card
  without points (*runner seen*: the shooter had points by then; *early*: not yet); *none* of
  these. A moon can count under several; the report also counts the moons with a chance of
  the first four kinds (the shooter had points by then). Also how many of the moons came from a seat the
  watched seat passed to.
* **Pairs**: for each two candidates, on the hands both played (same deal, same seat), the moons
  only the first allowed and only the second, with a two-sided sign test on those.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

from lab.rows import DealMoon, DealPlayed, MoonSeat, Played, Plays, SeatHand

RANKS = "23456789TJQKA"
PASS_OFFSET = (1, 3, 2, 0)  # bench_seat's directions by deal number: left, right, across, hold
TRICK_BINS = ("1-5", "6-8", "9-10", "11-13")  # moon_odds_cell's rows ...
POINT_BINS = ("1", "2-3", "4-12", "13-15", "16-18", "19+")  # ... and columns


def moon_odds_cell(trick: int, points: int) -> tuple[int, int]:
    """The (row, column) of the runner odds for the trick about to be played (1-13) and the
    runner's points."""
    row = 0 if trick <= 5 else 1 if trick <= 8 else 2 if trick <= 10 else 3
    col = 0 if points < 2 else 1 if points < 4 else 2 if points < 13 else 3 if points < 16 else 4 if points < 19 else 5
    return row, col


Card = tuple[str, int]  # (suit letter, rank index 0..12)
QUEEN: Card = ("S", 10)


class _ReportRow(DealPlayed):
    cand: str


class ReportRow(_ReportRow, total=False):
    """A hand as the report reads it from a ``--out`` file: a candidate's, under its field if
    the row names one."""

    field: str


def _plays(row: Plays) -> list[tuple[int, Card]]:
    return [(int(p[0]), (p[-1], RANKS.index(p[1:-1]))) for p in row["plays"].split()]


def _points(card: Card) -> int:
    return 13 if card == QUEEN else 1 if card[0] == "H" else 0


def _tricks(plays: list[tuple[int, Card]]) -> list[tuple[list[tuple[int, Card]], int]]:
    """Each trick's plays and the seat that won it."""
    out: list[tuple[list[tuple[int, Card]], int]] = []
    for t in range(13):
        trick = plays[4 * t : 4 * t + 4]
        led = trick[0][1][0]
        out.append((trick, max((p for p in trick if p[1][0] == led), key=lambda p: p[1][1])[0]))
    return out


def runner_odds(rows: Sequence[Played]) -> dict[tuple[int, int], list[int]]:
    """(trick bin, point bin) -> [states, the runner chose a moon plan, the runner made the moon]."""
    table: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for row in rows:
        hearts, queen = [0] * 4, -1
        for t, (trick, winner) in enumerate(_tricks(_plays(row))):
            holders = [s for s in range(4) if hearts[s] or queen == s]
            if len(holders) == 1:
                s = holders[0]
                cell = table[moon_odds_cell(t + 1, hearts[s] + (13 if queen == s else 0))]
                cell[0] += 1
                cell[1] += s in row.get("attempts", ())
                cell[2] += row["moon"] == s
            hearts[winner] += sum(1 for _, c in trick if c[0] == "H")
            if any(c == QUEEN for _, c in trick):
                queen = winner
    return table


KINDS = ("take after", "take before", "feed", "stopper thrown, runner seen", "stopper thrown early")


def chances(row: DealPlayed, me: int) -> tuple[set[str], bool]:
    """The chances seat ``me`` had to stop this hand's moon (KINDS, see the module doc), and
    whether the shooter got ``me``'s pass."""
    shooter = row["moon"]
    plays = _plays(row)
    hand = {c for s, c in plays if s == me}
    held = {c for s, c in plays if s == shooter}
    kinds: set[str] = set()
    runner_points = 0
    for t, (trick, winner) in enumerate(_tricks(plays)):
        led = trick[0][1][0]
        order = [s for s, _ in trick]
        mine = trick[order.index(me)][1]
        follows = any(c[0] == led for c in hand)
        if winner == shooter and follows and any(_points(c) for _, c in trick):
            top = trick[order.index(shooter)][1][1]  # the shooter won: its card is the highest of the suit led
            if any(c[0] == led and c[1] > top for c in hand):
                kinds.add("take after" if order.index(me) > order.index(shooter) else "take before")
        if t and winner not in (shooter, me) and not follows and any(_points(c) for c in hand):
            kinds.add("feed")
        # void, it threw the shooter a heart above one the shooter still had to play, with a
        # card without points in hand: a heart that could have won a trick from it later
        lows = [c[1] for c in held if c[0] == "H"]
        if (
            winner == shooter
            and not follows
            and mine[0] == "H"
            and lows
            and mine[1] > min(lows)
            and any(not _points(c) for c in hand)
        ):
            kinds.add("stopper thrown, runner seen" if runner_points else "stopper thrown early")
        hand.discard(mine)
        held.discard(trick[order.index(shooter)][1])
        if winner == shooter:
            runner_points += sum(_points(c) for _, c in trick)
    offset = PASS_OFFSET[row["n"] % 4]
    return kinds, bool(offset) and (me + offset) % 4 == shooter


def moon_allowed(row: MoonSeat) -> bool:
    """Another seat than the watched one shot the moon in this hand (seat bench and OpenSpiel rows)."""
    return bool(row["moon"] >= 0 and row["moon"] != row["seat"])


def paired(a: Sequence[DealMoon], b: Sequence[DealMoon]) -> tuple[int, int, int, float]:
    """On the hands both played (deal and seat): how many, the moons only ``a`` allowed, only
    ``b``, and the two-sided sign test's p on those discordant hands."""
    first = {(r["n"], r["seat"]): moon_allowed(r) for r in a}
    second = {(r["n"], r["seat"]): moon_allowed(r) for r in b}
    both = first.keys() & second.keys()
    only_a = sum(1 for k in both if first[k] and not second[k])
    only_b = sum(1 for k in both if second[k] and not first[k])
    return len(both), only_a, only_b, sign_test(only_a, only_b)


def sign_test(only_a: int, only_b: int) -> float:
    """The two-sided sign test's p for discordant pairs: ``only_a`` went one way, ``only_b`` the other."""
    n = only_a + only_b
    return min(1.0, 2 * sum(math.comb(n, j) for j in range(min(only_a, only_b) + 1)) / 2**n) if n else 1.0


def _lines(path: Path) -> list[str]:
    """The non-blank lines of a JSON-lines file, gzipped (``.gz``, as kept in lab/out) or not."""
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    return [line for line in text.splitlines() if line.strip()]


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="bench_seat --out files (JSON lines, .gz too)")
    parser.add_argument(
        "--baseline",
        nargs="*",
        type=Path,
        default=[],
        help="bench_seat --cache files (the field watched in seat deal %% 4, as in --seat rotate)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    rows: list[ReportRow] = [json.loads(line) for f in args.files for line in _lines(f)]
    baseline: list[SeatHand] = [json.loads(line) for f in args.baseline for line in _lines(f)]
    # the field watched in the seat a rotating candidate would have taken
    base: list[SeatHand] = [{**row, "seat": row["n"] % 4} for row in baseline]
    every: list[DealPlayed] = [*rows, *base]
    print(f"runner odds: {len(every)} hands; cells: states, chose a moon plan %, made the moon %")
    table = runner_odds(every)
    print("trick  " + "".join(f"{'pts ' + p:>20}" for p in POINT_BINS))
    for tb, name in enumerate(TRICK_BINS):
        cells = []
        for pb in range(len(POINT_BINS)):
            n, tried, made = table[(tb, pb)]
            cells.append(f"{n:>6} {100 * tried / n if n else 0:5.1f} {100 * made / n if n else 0:5.1f}  ")
        print(f"{name:7}" + "".join(cells))
    print("\nmoons allowed by the watched seat, by its chances to stop them (per candidate)")
    by_cand: dict[str, list[DealPlayed]] = defaultdict(list)
    labelled = [(r["cand"] + (f" (field {r['field']})" if "field" in r else ""), r) for r in rows]
    for label, row in [*labelled, *(("field (baseline)", b) for b in base)]:
        if row["seat"] >= 0:
            by_cand[label].append(row)
    for cand, hands in by_cand.items():
        allowed = [r for r in hands if r["moon"] >= 0 and r["moon"] != r["seat"]]
        kinds: Counter[str] = Counter()
        passed = chance = 0
        for r in allowed:
            found, to_shooter = chances(r, r["seat"])
            kinds.update(found or {"none"})
            passed += to_shooter
            chance += bool(found - {"stopper thrown early"})
        per = 1000 / max(len(hands), 1)
        print(
            f"  {cand}: {len(hands)} hands, {len(allowed)} allowed ({len(allowed) * per:.1f} per 1,000): "
            + ", ".join(f"{k} {kinds[k]}" for k in (*KINDS, "none"))
            + f"; a chance once the shooter had points in {chance}; the shooter had its pass in {passed}"
        )
    names = [c for c in by_cand if not c.startswith("field (baseline)")]
    if len(names) > 1:
        print("\nmoons allowed, paired: the hands both played; moons only the first / only the second allowed")
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            n, only_a, only_b, p = paired(by_cand[a], by_cand[b])
            if n:
                print(f"  {a} / {b}: {n} hands, {only_a} / {only_b} (sign test p={p:.2g})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
