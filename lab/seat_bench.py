#!/usr/bin/env python3
"""Seat-swap benchmark: one seat plays a candidate bot, the other three the field, in duplicate.

Each deal (one hand, pass directions left/right/across/hold in turn) is played once with the
field in all four seats (the baseline) and once more per candidate with the candidate in one
seat. Every bot decision draws its RNG from (deal, seat, step), so the field plays exactly as in
the baseline until the candidate's choices change the game: hands in which the candidate decides
like the field cost no variance. Reports the candidate seat's points minus the field's in the same
seat on the same deal (negative: the candidate is better), with a 95% confidence interval, and the
moons: shot by the seat, allowed (another seat shot), per 1,000 hands, with the baseline's.

    python3 -m lab.seat_bench --field hard-v1 --bots hard,hard-v3 --deals 800 --jobs 2
    python3 -m lab.seat_bench --field hard-v1@300/40 --bots hard-v3@300/40 --deals 400 --cache .cache/seat

A screening tool for changes to Hard (a field of one bot, a single hand, no match score); the
target figures for the README come from ``python3 -m lab.arena`` (whole matches, all seatings).
``--seat rotate`` (default) puts the candidate in seat ``deal % 4``; ``--seat all`` plays every
seat of every deal (4x the games, less variance per deal). ``--cache DIR`` keeps the baseline
hands (keyed by the field, the deals and the rules) so further candidates reuse them; ``--out``
keeps every candidate hand as it finishes, and a run stopped midway resumes from it.
Bot specs as in the arena: ``hard``, ``hard-vN``, ``hard@PLAY/PASS``, ``hard~significance=2``.
Each candidate hand also keeps the candidate's thinking (wall time and worlds of its searched
plays, and of those with a moon runner about): run CPython with one job per core and compare
candidates of one run only, for the cost per world that the browser's time budget turns into fewer worlds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from hearts.bots.player import BotPlayer
from hearts.deal import deal_from_seed
from hearts.events import CardPlayed, CardsPassed, Event
from hearts.hand import Hand
from hearts.phase import Phase
from hearts.rules import PRESETS
from hearts.seats import PassDirection
from hearts.table import Game, Listener, play, run_sync
from lab.arena import ArenaConfig, _make, bot_list, play_text
from lab.rows import CandidateHand, SeatHand, Thinking
from lab.timed import TimedPlayer

DIRECTIONS = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD)

Task = tuple[int, str, str, int, str]  # deal, field, candidate, the candidate's seat (-1: none), rules


def play_deal(task: Task) -> SeatHand:
    """Play deal ``n`` with ``field`` everywhere but ``seat`` (which plays ``cand``; -1: none)."""
    n, field, cand, seat, rules = task
    seed = f"seat-bench-{n}"
    hand = Hand(deal_from_seed(seed), PRESETS[rules], DIRECTIONS[n % 4])
    cfg = ArenaConfig((field,))
    players = [BotPlayer(_make(cand if s == seat else field, cfg), seed=seed) for s in range(4)]
    tried = _MoonWatch(players)
    timed = TimedPlayer(players[seat]) if seat >= 0 else None
    run_sync(play(hand, [timed if timed is not None and s == seat else p for s, p in enumerate(players)], tried))
    assert hand.result is not None
    moon = -1 if hand.result.moon is None else int(hand.result.moon)
    plays = [play_text(int(s), c) for t in hand.tricks for s, c in t.plays]
    row: SeatHand = {
        "n": n,
        "seat": seat,
        "points": list(hand.result.points),
        "penalty": list(hand.result.penalty),
        "moon": moon,
        "plays": " ".join(plays),
        "attempts": sorted(tried.seats),
    }
    if timed is not None:
        row["think"] = _thinking(timed)
    return row


def _thinking(timed: TimedPlayer) -> Thinking:
    """The candidate's searched plays (a world or more): their wall time and worlds, all of them
    and those with a moon runner about (``stats["runner"]``, Hard v6 on); passes left out. The
    times are rounded to 0.1 ms."""
    out: Thinking = {"ms": 0.0, "worlds": 0, "runner_ms": 0.0, "runner_worlds": 0}
    for view, decision, seconds in timed.records:
        worlds = int(decision.stats.get("worlds", 0))
        if view.phase is Phase.PASSING or not worlds:
            continue
        out["ms"] += 1000 * seconds
        out["worlds"] += worlds
        if decision.stats.get("runner", -1) >= 0:
            out["runner_ms"] += 1000 * seconds
            out["runner_worlds"] += worlds
    out["ms"] = round(out["ms"], 1)
    out["runner_ms"] = round(out["runner_ms"], 1)
    return out


class _MoonWatch(Listener):
    """The seats whose bot chose a moon plan (``Decision.stats["plan"]``) at least once."""

    def __init__(self, players: list[BotPlayer]) -> None:
        self.players = players
        self.seats: set[int] = set()

    async def on_events(self, game: Game, events: list[Event]) -> None:
        for ev in events:
            seats = [int(ev.seat)] if isinstance(ev, CardPlayed) else range(4) if isinstance(ev, CardsPassed) else []
            for s in seats:
                last = self.players[s].last
                if last is not None and last.stats.get("plan") == "moon":
                    self.seats.add(s)


def _key(field: str, rules: str) -> str:
    return hashlib.sha256(f"{field}|{rules}|v1".encode()).hexdigest()[:16]


def run(tasks: list[Task], jobs: int, on_row: Callable[[Task, SeatHand], None] | None = None) -> list[SeatHand]:
    """Play ``tasks`` (in order); ``on_row(task, row)`` sees each as it finishes, with progress."""
    if not tasks:
        return []
    rows: list[SeatHand] = []
    start = time.perf_counter()

    def done(task: Task, row: SeatHand) -> None:
        rows.append(row)
        if on_row is not None:
            on_row(task, row)
        if len(rows) % 50 == 0 or len(rows) == len(tasks):
            rate = len(rows) / max(time.perf_counter() - start, 1e-9)
            print(f"  {len(rows)}/{len(tasks)} hands, {60 * rate:.0f} per minute", file=sys.stderr, flush=True)

    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for task, row in zip(tasks, pool.imap(play_deal, tasks, chunksize=1)):
                done(task, row)
    else:
        for task in tasks:
            done(task, play_deal(task))
    return rows


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--field", default="hard-v1", type=bot_list)
    parser.add_argument("--bots", required=True, type=bot_list, help="comma-separated candidate specs")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--seat", choices=("rotate", "all"), default="rotate")
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=None, help="folder for the baseline hands")
    parser.add_argument("--out", type=Path, default=None, help="write every candidate hand as JSON lines")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    deals = range(args.first, args.first + args.deals)
    cands = [b.strip() for b in args.bots.split(",") if b.strip()]
    for spec in [args.field, *cands]:
        _make(spec, ArenaConfig((spec,)))  # fails early on a bad spec
    start = time.perf_counter()

    base: dict[int, SeatHand] = {}
    cache_file = args.cache / f"{_key(args.field, args.rules)}.jsonl" if args.cache else None
    if cache_file is not None and cache_file.exists():
        for line in cache_file.read_text().splitlines():
            cached: SeatHand = json.loads(line)
            base[cached["n"]] = cached
    todo = [(n, args.field, args.field, -1, args.rules) for n in deals if n not in base]
    fresh = run(todo, args.jobs)
    for row in fresh:
        base[row["n"]] = row
    if cache_file is not None and fresh:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        with cache_file.open("a") as out:
            for row in fresh:
                out.write(json.dumps(row) + "\n")

    seats = (lambda n: [n % 4]) if args.seat == "rotate" else (lambda n: [0, 1, 2, 3])
    # deal by deal, every candidate on it: a run stopped midway compares them on the same deals
    tasks = [(n, args.field, c, s, args.rules) for n in deals for c in cands for s in seats(n)]
    # --out keeps every candidate hand as it finishes: a stopped run resumes from it
    saved: dict[tuple[str, str, int, int], SeatHand] = {}
    if args.out is not None and args.out.exists():
        for line in args.out.read_text().splitlines():
            if line.strip():
                kept: CandidateHand = json.loads(line)
                if kept.get("rules", "standard") == args.rules:
                    saved[(kept["field"], kept["cand"], kept["n"], kept["seat"])] = kept
    todo_c = [t for t in tasks if (t[1], t[2], t[0], t[3]) not in saved]
    out = args.out.open("a") if args.out is not None else None

    def keep(task: Task, row: SeatHand) -> None:
        saved[(task[1], task[2], task[0], task[3])] = row
        if out is not None:
            written: CandidateHand = {"field": task[1], "cand": task[2], "rules": task[4], **row}
            out.write(json.dumps(written) + "\n")
            out.flush()

    try:
        run(todo_c, args.jobs, keep)
    finally:
        if out is not None:
            out.close()
    results = [saved[(t[1], t[2], t[0], t[3])] for t in tasks]

    print(
        f"seat bench: field {args.field}, deals {deals.start}..{deals.stop - 1}, seat {args.seat}, "
        f"rules {args.rules}, {time.perf_counter() - start:.0f} s ({len(todo)} baseline and "
        f"{len(todo_c)} candidate hands played, {len(tasks) - len(todo_c)} candidate hands from --out)"
    )
    base_shot = sum(1 for n in deals for s in seats(n) if base[n]["moon"] == s)
    base_allowed = sum(1 for n in deals for s in seats(n) if base[n]["moon"] not in (-1, s))
    slots = sum(len(seats(n)) for n in deals)
    print(
        f"  field in the candidate's seat: {sum(base[n]['points'][s] for n in deals for s in seats(n)) / slots:.3f} "
        f"points/hand; moons shot {1000 * base_shot / slots:.1f}, allowed {1000 * base_allowed / slots:.1f} per 1,000"
    )
    for c in cands:
        rows = [(t, r) for t, r in zip(tasks, results) if t[2] == c]
        diffs = [r["points"][t[3]] - base[t[0]]["points"][t[3]] for t, r in rows]
        # hands in which neither the candidate's game nor the baseline's had a moon: the ordinary play
        calm = [d for d, (t, r) in zip(diffs, rows) if r["moon"] == -1 and base[t[0]]["moon"] == -1]
        changed = sum(1 for t, r in rows if r["plays"] != base[t[0]]["plays"]) / len(rows)
        shot = sum(1 for t, r in rows if r["moon"] == t[3])
        allowed = sum(1 for t, r in rows if r["moon"] not in (-1, t[3]))
        pts = sum(r["points"][t[3]] for t, r in rows) / len(rows)
        tried = [(t, r) for t, r in rows if t[3] in r.get("attempts", ())]
        made = sum(1 for t, r in tried if r["moon"] == t[3])
        print(
            f"  {c}: {pts:.3f} points/hand; minus the field {interval(diffs)}; "
            f"{changed:.0%} of hands played differently; moons shot {1000 * shot / len(rows):.1f}, "
            f"allowed {1000 * allowed / len(rows):.1f} per 1,000; moon plan chosen in {len(tried)} hands, "
            f"made {made}"
        )
        print(f"    in hands without a moon (either game): {interval(calm)}")
        timed = [r["think"] for t, r in rows if "think" in r]  # rows written before timings existed have none
        ms, worlds, rms, rworlds = (sum(x[k] for x in timed) for k in ("ms", "worlds", "runner_ms", "runner_worlds"))
        if worlds:  # compare only candidates of one run
            print(
                f"    thinking over {len(timed)} hands' searched plays: {1000 * ms / max(worlds, 1):.1f} ms per "
                f"1,000 worlds; with a runner about: {1000 * rms / max(rworlds, 1):.1f} ms per 1,000 worlds "
                f"({100 * rworlds / max(worlds, 1):.1f}% of the worlds)"
            )
    first = cands[0]
    for c in cands[1:]:  # the candidates against each other, seat by seat on the same deals
        theirs = {(t[0], t[3]): r for t, r in zip(tasks, results) if t[2] == first}
        pairs = [(r, theirs[(t[0], t[3])], t[3]) for t, r in zip(tasks, results) if t[2] == c]
        diffs = [r["points"][s] - o["points"][s] for r, o, s in pairs]
        calm = [d for d, (r, o, _) in zip(diffs, pairs) if r["moon"] == -1 and o["moon"] == -1]
        print(
            f"  {c} minus {first}, same seats and deals: {interval(diffs)}; without a moon in either: {interval(calm)}"
        )
    return 0


def interval(diffs: Sequence[float]) -> str:
    """``mean ± 95% interval (p, n)`` of paired differences (normal approximation)."""
    if not diffs:
        return "no hands"
    m = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((v - m) ** 2 for v in diffs) / max(len(diffs) - 1, 1))
    se = sd / math.sqrt(len(diffs))
    p = math.erfc(abs(m) / se / math.sqrt(2)) if se > 0 else float("nan")
    return f"{m:+.3f} ± {1.96 * se:.3f} (p={p:.2g}, n={len(diffs)})"


if __name__ == "__main__":
    sys.exit(main())
