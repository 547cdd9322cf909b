"""lab.runner_watch: late lone point-takers and the points taken in tricks that could be ducked,
on a hand built so that the answer is known."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab import runner_watch

# seat 0 takes a heart at the first trick and no other seat takes points until the seventh, where
# seat 3 wins a heart with the K♣ while it still holds the 7♣ (under the 9♣ played): a duck it missed
TRICKS = [
    "0AC 12H 23C 34C",
    "02S 13S 24S 35S",
    "06S 17S 28S 39S",
    "0TS 1JS 2KS 3AS",
    "02D 13D 24D 35D",
    "06D 17D 28D 39D",
    "08C 13H 29C 3KC",
    "0QC 14H 2TC 37C",
    "0TD 15H 22C 3QH",
    "0JD 16H 25C 37H",
    "0QD 18H 26C 39H",
    "0KD 1TH 2JC 3JH",
    "0AD 1AH 2QS 3KH",
]


def _row(seat: int, moon: int = -1) -> runner_watch.Watched:
    return {
        "cand": "x",
        "seat": seat,
        "moon": moon,
        "plays": " ".join(TRICKS),
        "attempts": [0],
        "points": [26, 0, 0, 0],
    }


def test_the_built_hand_is_a_whole_deck() -> None:
    cards = " ".join(TRICKS).split()
    assert len({c[1:] for c in cards}) == 52


def test_a_late_runner_is_seen_and_the_missed_duck_is_counted() -> None:
    assert runner_watch.watch(_row(3)) == (0, 1)  # the K♣ trick: 1 point, the 7♣ could have ducked
    assert runner_watch.watch(_row(2)) == (0, 0)  # seat 2 never won a point trick
    assert runner_watch.watch(_row(0)) == (-1, 0)  # the point-taker itself watches nobody
    # the same hand with seat 3's 7♣ swapped for seat 2's T♣: nothing under the 9♣, no duck missed
    swapped: runner_watch.Watched = {**_row(3), "plays": " ".join(TRICKS).replace("0QC 14H 2TC 37C", "0QC 14H 27C 3TC")}
    assert swapped["plays"] != _row(3)["plays"]
    assert runner_watch.watch(swapped) == (0, 0)


def test_arena_saves_give_a_row_per_seat_and_the_report_counts_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = {
        "seat_bots": ["a", "b", "c", "d"],
        "moon": 0,
        "attempts": [0],
        "plays": " ".join(TRICKS),
        "points": [0, 26, 26, 26],
    }
    saved = tmp_path / "arena.jsonl"
    saved.write_text(json.dumps({"hands": [hand, dict(hand, plays="")]}) + "\n")
    rows = runner_watch.arena_rows(saved.read_text().splitlines())
    assert [(r["cand"], r["seat"]) for r in rows] == [("a", 0), ("b", 1), ("c", 2), ("d", 3)]  # no plays: left out
    assert runner_watch.main(["--arena", str(saved), "--bots", "d"]) == 0
    out = capsys.readouterr().out
    assert (
        "d (arena arena.jsonl): 1 hands, a late runner in 1 (100.0%); it made the moon in 1 (100.0%), "
        "chose a moon plan in 1; points taken in duckable tricks with it about: 1.000 per such hand" in out
    )
    assert "a (arena" not in out
    calm = tmp_path / "calm.jsonl"  # the same cards without a moon: seat 3 took the K♣ trick's heart
    calm.write_text(json.dumps({"hands": [dict(hand, moon=-1, points=[19, 4, 0, 3])]}) + "\n")
    assert runner_watch.main(["--arena", str(calm), "--bots", "d,c"]) == 0
    out = capsys.readouterr().out
    assert "points a hand without a moon: with a late runner 3.000 (1), without one 0.000 (0)" in out
