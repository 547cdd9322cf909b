"""The duplicate-deal arena: rotations, reproducibility, the report and the command line."""

from __future__ import annotations

import io
import math
import sys
from collections import Counter
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest

from lab.arena import (
    ArenaConfig,
    MatchRow,
    format_report,
    main,
    order_block,
    run_arena,
    seat_assignment,
    seat_orders,
    seating,
    summarize,
)


def test_rotations_put_every_bot_in_every_seat() -> None:
    bots = ("hard", "medium", "easy", "random")
    seen: dict[str, set[int]] = {b: set() for b in bots}
    for r in range(4):
        for seat, b in enumerate(seat_assignment(bots, r)):
            seen[b].add(seat)
    assert all(s == {0, 1, 2, 3} for s in seen.values())
    assert seat_assignment(("a", "b"), 1) == ("b", "a", "b", "a")


def _neighbour_counts(
    seatings: list[tuple[str, ...]],
) -> tuple[Counter[tuple[str, int]], Counter[tuple[str, str]], Counter[tuple[str, str]]]:
    """(bot, seat) counts; (bot, the bot on its left) counts; (bot, the bot across) counts."""
    seats: Counter[tuple[str, int]] = Counter()
    left: Counter[tuple[str, str]] = Counter()
    across: Counter[tuple[str, str]] = Counter()
    for names in seatings:
        for i, b in enumerate(names):
            seats[(b, i)] += 1
            left[(b, names[(i + 1) % 4])] += 1
            across[(b, names[(i + 2) % 4])] += 1
    return seats, left, across


def test_a_block_of_sets_takes_every_cyclic_order_so_no_bot_keeps_its_neighbours() -> None:
    """Four bots: six consecutive sets (24 matches) put every bot in every seat, and every other
    bot on its left, on its right and across from it, equally often. With the order fixed, each
    bot has the same bot on its left in all of its matches: the bias this removes."""
    bots = ("hard", "hard@600", "hard-v1", "medium")
    cfg = ArenaConfig(bots)
    assert order_block(cfg) == 6 and seat_orders(bots)[0] == bots
    assert len(set(seat_orders(bots))) == 6 and all(
        o[0] == bots[0] and sorted(o) == sorted(bots) for o in seat_orders(bots)
    )
    seatings = [seating(cfg, seed, r) for seed in range(10, 16) for r in range(4)]
    seats, left, across = _neighbour_counts(seatings)
    assert set(seats.values()) == {6} and len(seats) == 16
    assert set(left.values()) == {8} and len(left) == 12  # every ordered pair of different bots
    assert set(across.values()) == {8} and len(across) == 12
    assert "6 cyclic orders, no whole set played yet" in format_report(cfg, summarize(cfg, []), 1.0)
    fixed = replace(cfg, fixed_order=True)
    assert order_block(fixed) == 1
    _, left_fixed, _ = _neighbour_counts([seating(fixed, seed, r) for seed in range(10, 16) for r in range(4)])
    assert left_fixed[("hard", "hard@600")] == 24 and left_fixed[("hard", "hard-v1")] == 0
    # three bots: two orders; two bots: one, and the seating of old
    assert seat_orders(("a", "b", "c")) == [("a", "b", "c"), ("a", "c", "b")]
    assert [seating(ArenaConfig(("a", "b")), seed, 1) for seed in range(3)] == [("b", "a", "b", "a")] * 3


def test_a_run_plays_whole_blocks_of_seat_orders_and_says_so(tmp_path: Path) -> None:
    """``--hands`` finishes the block it started (three bots: sets in pairs, one per order); the
    report says how many sets took each order, and flags a run whose ``--sets`` leaves them
    uneven. A run saved in the fixed order does not resume in the balanced one."""
    cfg = ArenaConfig(("medium", "easy", "random"), hands=20, seed=8)
    rows = run_arena(cfg, progress=None)
    by_seed = _sets(rows)
    assert len(by_seed) % 2 == 0 and len(by_seed) >= 2
    assert {r.seat_bots[:3] for r in rows if r.rotation == 0} == {
        ("medium", "easy", "random"),
        ("medium", "random", "easy"),
    }
    s = summarize(cfg, rows)
    assert s["sets_per_order"] == [len(by_seed) // 2] * 2
    report = format_report(cfg, s, 1.0)
    assert f"2 cyclic orders, {len(by_seed) // 2} set{'s' if len(by_seed) > 2 else ''} each (balanced)" in report
    # each order's own paired difference is that of its sets alone; 'balanced' weights the orders equally
    assert "in each cyclic seat order alone" in report and "order 2: medium, random, easy" in report
    assert "spread Q=" in report
    assert sum(s["deals_per_order"]) == s["full_deals"]
    alone = [summarize(cfg, [r for r in rows if r.seed % 2 == o]) for o in range(2)]
    for pair in s["pairs"]:
        assert s["pairs_by_order"][pair] == [part["pairs"][pair][:2] for part in alone]
        assert [part["pairs"][pair][2] for part in alone] == s["deals_per_order"]
        assert s["pairs_even"][pair][0] == pytest.approx(sum(part["pairs"][pair][0] for part in alone) / 2)
        assert s["pairs_even"][pair][1] == pytest.approx(math.hypot(*(part["pairs"][pair][1] for part in alone)) / 2)
    # one order: no balanced line, no table by order
    fixed = replace(cfg, fixed_order=True)
    fixed_summary = summarize(fixed, run_arena(replace(fixed, sets=1), progress=None))
    fixed_report = format_report(fixed, fixed_summary, 1.0)
    assert not fixed_summary["pairs_even"] and not fixed_summary["pairs_by_order"]
    assert not any(line.split()[:1] == ["balanced"] for line in fixed_report.splitlines())
    assert "each cyclic seat order alone" not in fixed_report
    assert "seat order: fixed (--fixed-order)" in fixed_report
    odd = replace(cfg, sets=3)
    odd_rows = run_arena(odd, progress=None, saved=rows)
    assert "sets per order 2/1: NOT balanced (whole blocks of 2 sets balance them)" in format_report(
        odd, summarize(odd, odd_rows), 1.0
    )
    saved = tmp_path / "arena.jsonl"
    args = ["--bots", "medium,easy,random", "--seed", "8", "--sets", "2", "--save", str(saved)]
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(args + ["--fixed-order"]) == 0
    assert "seat order: fixed (--fixed-order)" in out.getvalue()
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        assert main(args) == 2
    assert "another seat order" in err.getvalue()
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        assert main(["--bots", "medium,easy,random", "--seed", "8", "--sets", "1"]) == 0
    assert "--sets 1 is not a multiple of 2" in err.getvalue()


def test_arena_is_reproducible_and_duplicate() -> None:
    cfg = ArenaConfig(("medium", "easy", "random"), hands=24, seed=3)
    a = run_arena(cfg, progress=None)
    b = run_arena(cfg, progress=None)
    assert [(r.seed, r.rotation, r.winners, [h.points for h in r.hands]) for r in a] == [
        (r.seed, r.rotation, r.winners, [h.points for h in r.hands]) for r in b
    ]
    assert sum(len(r.hands) for r in a) >= 24
    assert {r.rotation for r in a} == {0, 1, 2}
    s = summarize(cfg, a)
    assert s["full_deals"] > 0 and set(s["per_hand"]) == {"medium", "easy", "random"}
    report = format_report(cfg, s, 1.0)
    assert "points/hand" in report and "paired differences" in report


def test_arena_command_line() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["--bots", "medium,random", "--hands", "8", "--seed", "2"]) == 0
    text = out.getvalue()
    assert "medium" in text and "random" in text and "match wins" in text


def test_arena_refuses_unknown_bots() -> None:
    with pytest.raises(SystemExit) as refused:  # argparse: the error and the usage
        main(["--bots", "medium,wizard", "--hands", "4"])
    assert refused.value.code == 2


def test_bot_specs_pin_version_and_size() -> None:
    import pytest

    from hearts.bots.config import PAR, PLAY
    from hearts.bots.hard import HardBot
    from hearts.bots.moon import RunnerWorlds
    from hearts.bots.rollout import NEVER
    from lab.arena import BROWSER_WORLDS, WORKER_PASS_WORLDS, WORKER_PLAY_WORLDS, BotSpec, _make, bot_spec, hard_config

    cfg = ArenaConfig(("hard", "medium"))
    assert bot_spec("medium", cfg) == BotSpec("medium")
    assert bot_spec("hard", cfg) == BotSpec("hard", 7, *BROWSER_WORLDS[7])  # the browser's size
    assert bot_spec("hard-v1", cfg) == BotSpec("hard", 1, *BROWSER_WORLDS[1])
    assert bot_spec("hard-v1@300/40", cfg) == BotSpec("hard", 1, 300, 40)
    assert bot_spec("hard@80", ArenaConfig(("hard",), hard_iterations=5)) == BotSpec("hard", 7, 80, 80)
    assert bot_spec("hard", ArenaConfig(("hard",), hard_iterations=5)) == BotSpec("hard", 7, 5, 5)
    assert bot_spec("hard", ArenaConfig(("hard",), hard_budget_ms=250)) == BotSpec("hard", 7)
    # the game's worker: the play's size by cards held, the pass at the worker's size
    worker = bot_spec("hard@worker", cfg)
    assert worker == BotSpec("hard", 7, BROWSER_WORLDS[7][0], WORKER_PASS_WORLDS, worker=True)
    made, plain, par = _make("hard@worker", cfg), _make("hard", cfg), _make("hard-v1", cfg)
    assert isinstance(made, HardBot) and isinstance(plain, HardBot) and isinstance(par, HardBot)
    assert made.play_schedule == WORKER_PLAY_WORLDS and made.pass_iterations == WORKER_PASS_WORLDS
    assert made.config is PLAY and plain.play_schedule is None and par.config is PAR
    # experiments: switches of the configuration, by name
    changed = hard_config(bot_spec("hard~significance=2~runner_worlds=even~halving=0~runner_seen_at=8@60/6", cfg))
    assert changed.gate.significance == 2.0 and not changed.gate.halving
    assert changed.loop.runner_worlds is RunnerWorlds.EVEN and changed.loop.policy.runner_seen_at == 8
    assert changed.loop.policy.my_moon_seen_at == 8 and changed.label == 7
    assert hard_config(bot_spec("hard-v1~runner_seen_at=never", cfg)).loop.policy.runner_seen_at is NEVER
    worker_cfg = ArenaConfig(("hard@worker", "medium"))
    assert "the worker's worlds per play by cards held (13 down to 1: 1210/1090/" in format_report(
        worker_cfg, summarize(worker_cfg, []), 1.0
    )
    for bad in (
        "wizard",
        "hard-v999",
        "hard-v5",
        "hard@x",
        "medium@5",
        "hard@5/y",
        "hard-v1@worker",
        "medium@worker",
        "hard~trust=0.9",
        "hard~halving=yes",
        "hard~runner_worlds=odd",
        "hard-v1~runner_worlds=strong",
        "hard~runner_seen_at=27",
        "hard~runner_seen_at=8.5",
        "hard~head_start=0.5",
    ):
        with pytest.raises(ValueError):
            bot_spec(bad, cfg)
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["--bots", "hard-v1@2/1,medium", "--hands", "4"]) == 0
    assert "hard-v1@2/1 = Hard v1, 2/1 worlds per play/pass" in out.getvalue()
    assert "moons per 1,000 seat-hands" in out.getvalue()


def test_a_saved_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    saved = tmp_path / "arena.jsonl"
    args = ["--bots", "medium,easy", "--seed", "4", "--save", str(saved)]
    with redirect_stdout(io.StringIO()):
        assert main(args + ["--hands", "8"]) == 0
    first = saved.read_text().splitlines()
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(args + ["--hands", "30"]) == 0  # plays only the matches that are missing
    lines = saved.read_text().splitlines()
    assert lines[: len(first)] == first and len(lines) > len(first)
    fresh = io.StringIO()
    with redirect_stdout(fresh):
        assert main(["--bots", "medium,easy", "--seed", "4", "--hands", "30"]) == 0
    assert out.getvalue().splitlines()[2].split(", ")[:3] == fresh.getvalue().splitlines()[2].split(", ")[:3]
    assert out.getvalue().split("paired differences")[1] == fresh.getvalue().split("paired differences")[1]
    # the resumed report counts the play time of every match, the ones saved by the first run too
    from lab.arena import row_from_json

    rows = [row_from_json(line) for line in lines]
    assert all(r.seconds > 0 for r in rows)
    assert f"of play in {len(rows)} timed matches" in out.getvalue()
    with redirect_stdout(io.StringIO()):
        assert main(["--bots", "medium,random", "--seed", "4", "--save", str(saved), "--hands", "4"]) == 2


def test_saved_hands_keep_their_plays_in_bench_seats_format(tmp_path: Path) -> None:
    """Each saved hand has its 52 cards in play order ("<seat><card>", as bench_seat writes them):
    the tricks they make give every seat the hearts and the queen its penalty says."""
    from lab import moon_report
    from lab.arena import row_from_json

    saved = tmp_path / "arena.jsonl"
    with redirect_stdout(io.StringIO()):
        assert main(["--bots", "medium,easy", "--seed", "5", "--save", str(saved), "--hands", "4"]) == 0
    hands = [h for line in saved.read_text().splitlines() for h in row_from_json(line).hands]
    assert hands
    for h in hands:
        plays = moon_report._plays({"plays": h.plays})
        assert len(plays) == 52 and len({card for _, card in plays}) == 52
        taken = [0, 0, 0, 0]
        for trick, winner in moon_report._tricks(plays):
            taken[winner] += sum(moon_report._points(card) for _, card in trick)
        assert tuple(taken) == h.penalty


def test_the_no_moon_split_leaves_out_every_deal_with_a_moon_in_any_rotation() -> None:
    from lab.arena import HandRow, MatchRow

    bots = ("medium", "easy")

    def match(rotation: int, hands: list[tuple[tuple[int, ...], int]]) -> MatchRow:
        seats = seat_assignment(bots, rotation)
        return MatchRow(
            7,
            rotation,
            seats,
            (0,),
            [HandRow(7, rotation, n, seats, pts, pts, moon) for n, (pts, moon) in enumerate(hands)],
        )

    # deal 0: an ordinary hand each way; deal 1: seat 1 (medium) shoots the moon in the second rotation only
    rows = [match(0, [((1, 5, 3, 4), -1), ((0, 8, 0, 5), -1)]), match(1, [((2, 4, 4, 3), -1), ((26, 0, 26, 26), 1)])]
    s = summarize(ArenaConfig(bots), rows)
    # medium - easy per deal: deal 0 = ((1+3)/2 - (5+4)/2 + (4+3)/2 - (2+4)/2) / 2 = (-2.5 + 0.5) / 2 = -1
    # deal 1 = ((0 - 6.5) + ((0+26)/2 - (26+26)/2)) / 2 = -9.75
    m, _, n = s["pairs"][("medium", "easy")]
    assert n == 2 and m == (-1 - 9.75) / 2
    m, ci, n = s["pairs_calm"][("medium", "easy")]
    assert (m, n) == (-1.0, 1) and ci == float("inf")
    report = format_report(ArenaConfig(bots), s, 1.0)
    assert "no moon" in report.split("paired differences")[1]


def _sets(rows: list[MatchRow]) -> dict[int, list[MatchRow]]:
    by_seed: dict[int, list[MatchRow]] = {}
    for r in rows:
        by_seed.setdefault(r.seed, []).append(r)
    return by_seed


def test_hands_is_a_cap_on_whole_duplicate_sets_not_a_loose_plan() -> None:
    """``--hands N`` starts no set once N hands are played: the run reaches N, and without its last
    set it would be short of N (one process: the set is started only while short). Every set is
    played in every rotation."""
    cfg = ArenaConfig(("medium", "easy"), hands=60, seed=5)
    rows = run_arena(cfg, progress=None)
    by_seed = _sets(rows)
    assert sorted(by_seed) == list(range(len(by_seed)))  # seeds in order from 0
    assert all(sorted(r.rotation for r in ms) == [0, 1] for ms in by_seed.values())
    total = sum(len(r.hands) for r in rows)
    before_last = total - sum(len(r.hands) for r in by_seed[max(by_seed)])
    assert before_last < 60 <= total, (before_last, total)


def test_sets_fixes_the_size_in_advance() -> None:
    cfg = ArenaConfig(("medium", "random"), seed=6, sets=3)
    one = run_arena(cfg, progress=None)
    assert [(r.seed, r.rotation) for r in one] == [(s, r) for s in range(3) for r in range(2)]
    # a bigger run holds the smaller one: the first sets are the same matches
    five = run_arena(ArenaConfig(("medium", "random"), seed=6, sets=5), progress=None)
    assert [[h.points for h in r.hands] for r in five[:6]] == [[h.points for h in r.hands] for r in one]
    # resumed from the bigger run's matches, --sets 3 reports the same 3 sets and plays nothing
    again = run_arena(cfg, progress=None, saved=five)
    assert [(r.seed, r.rotation, r.hands) for r in again] == [(r.seed, r.rotation, r.hands) for r in one]
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["--bots", "medium,random", "--seed", "6", "--sets", "2"]) == 0
    assert "plan: 2 duplicate sets" in out.getvalue() and "4 matches (2 duplicate sets x 2 rotations)" in out.getvalue()
    assert main(["--bots", "medium,random", "--sets", "0"]) == 2


@pytest.mark.skipif(sys.platform == "emscripten", reason="no processes in Pyodide")
def test_sets_in_two_processes_plays_the_same_matches() -> None:
    cfg = ArenaConfig(("medium", "random"), seed=6, sets=3)
    one = run_arena(cfg, progress=None)
    two = run_arena(replace(cfg, jobs=2), progress=None)
    assert [(r.seed, r.rotation, [h.points for h in r.hands]) for r in one] == [
        (r.seed, r.rotation, [h.points for h in r.hands]) for r in two
    ]


def test_the_spread_across_seat_orders_is_tested_against_its_noise() -> None:
    """Cochran's Q over the per-order means: zero for equal means, the chi-square tail at its
    textbook points (5% at 3.841 on 1 degree of freedom, at 11.07 on 5), and a spread of two
    standard errors between two orders is Q = 2."""
    from lab.arena import _chi2_sf, spread_test

    q, p = spread_test([(0.5, 0.4)] * 6)
    assert q == 0.0 and p == pytest.approx(1.0)
    assert _chi2_sf(3.841, 1) == pytest.approx(0.05, abs=1e-4)
    assert _chi2_sf(11.070, 5) == pytest.approx(0.05, abs=1e-4)
    assert _chi2_sf(9.236, 5) == pytest.approx(0.10, abs=1e-4)
    q, p = spread_test([(0.0, 1.96), (2.0, 1.96)])
    assert q == pytest.approx(2.0) and p == pytest.approx(0.1573, abs=1e-4)
    with pytest.raises(ValueError):
        _chi2_sf(1.0, 2)


def test_easy_is_weaker_than_medium_and_legal() -> None:
    """Duplicate deals, Easy and Medium in every seating: Easy takes clearly more points; every
    decision is legal (the table loop refuses anything else, and a refused bot raises)."""
    cfg = ArenaConfig(("medium", "easy"), hands=300, seed=7)
    summary = summarize(cfg, run_arena(cfg, progress=None))
    diff, ci, deals = summary["pairs"][("medium", "easy")]
    assert deals >= 30 and diff < -ci < 0, (diff, ci, deals)  # Medium better, significantly
