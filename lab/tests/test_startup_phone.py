"""The phone start-up benchmark's arithmetic: blocking time and layout shift as Lighthouse and
web-vitals count them, the profiles its command line takes, the start step by step, and the
taps of a hand by kind."""

from __future__ import annotations

import pytest

from lab.browser.startup_phone import (
    PROFILES,
    Hand,
    blocking,
    cumulative_layout_shift,
    hand_table,
    parse_profiles,
    timeline,
)


def test_blocking_counts_what_is_over_50_ms_between_first_paint_and_ready() -> None:
    tasks = [(0.0, 300.0), (400.0, 40.0), (500.0, 120.0), (2000.0, 500.0)]
    # first paint at 100: the first task counts from there (200 ms, 150 blocking); the 40 ms one is
    # not blocking; ready at 1000: the last task starts after it
    assert blocking(tasks, 100.0, 1000.0) == (200.0, 150.0 + 70.0, 3)
    assert blocking(tasks, 0.0, 2001.0) == (500.0, 250.0 + 70.0 + 450.0, 4)
    assert blocking([], 0.0, 1.0) == (0.0, 0.0, 0)


def test_layout_shift_is_the_worst_session_window() -> None:
    assert cumulative_layout_shift([]) == 0.0
    # two windows (a gap of 1 s or more ends one): 0.03 + 0.02, then 0.04
    assert cumulative_layout_shift([(0.0, 0.03), (900.0, 0.02), (3000.0, 0.04)]) == pytest.approx(0.05)
    # a window lasts at most 5 s, however close its shifts
    shifts = [(i * 900.0, 0.01) for i in range(10)]
    assert cumulative_layout_shift(shifts) == pytest.approx(0.06)


def test_profiles_from_the_command_line() -> None:
    assert [p.name for p in parse_profiles("desktop,phone")] == ["desktop", "phone"]
    assert parse_profiles("phone", cpu=6)[0].cpu == 6
    assert PROFILES["phone"].cpu == 4 and PROFILES["desktop"].cpu == 1
    with pytest.raises(SystemExit):
        parse_profiles("tablet")


def test_the_timeline_puts_the_workers_files_on_the_pages_clock() -> None:
    raw = {
        "origin": 1000.0,
        "readyAt": 900.0,
        "files": [["(the page)", 0.0, 40.0], ["page.mjs", 50.0, 80.0]],
        "steps": [["python", 120.0], ["game", 700.0]],
        "worker_files": [["pyodide.mjs", 5.0, 30.0], ["(origin)", 1100.0, 0]],
    }
    assert timeline(raw) == [
        ("page: (the page) done", 40.0),
        ("page: page.mjs done", 80.0),
        ("worker: its time origin", 100.0),
        ("step: python", 120.0),
        ("worker: pyodide.mjs done", 130.0),
        ("step: game", 700.0),
        ("ready", 900.0),
    ]


def test_the_hands_taps_are_summed_up_together_and_by_kind() -> None:
    passing = Hand(longest=0.03, tasks=0, taps=[0.060, 0.070, 0.020], kinds=["pass", "pass", "play"])
    playing = Hand(longest=0.05, tasks=2, taps=[0.010, 0.030], kinds=["play", "play"])
    results = {"phone": {"game": [{"hands": {"hard": passing}}, {"hands": {"hard": playing}}]}}
    header, row = hand_table(results, parse_profiles("phone"), ("hard",))
    assert header.split()[-6:] == ["tap", "p95", "pass", "p95", "play", "p95"]
    # tasks: median of 0 and 2; 5 taps: median 30 ms, p95 of all 68 ms; the pass taps 60 and 70
    # (p95 69.5 ms), the play taps 10, 20 and 30 (p95 29 ms)
    assert row.split()[-10:] == ["1", "5", "30", "ms", "68", "ms", "70", "ms", "29", "ms"]
