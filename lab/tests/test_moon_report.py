"""lab.moon_report: the runner odds (who goes on to shoot) and the sorting of the moons a seat
allowed by its chances to stop them, on a hand built so that each answer is known."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from lab import moon_report
from lab.rows import DealMoon

SPADES = "AKQJT98732"


def _moon_hand(n: int) -> moon_report.ReportRow:
    """Seat 0 leads every trick and wins it: 5♠ (seat 3 follows 4♠ with the 6♠ in hand: it could
    have taken the trick and its heart), 7♠ (the 6♠ is its last spade), the other spades, A♦, K♦.
    Seat 1 throws a heart on every trick: seat 0 takes all 26 points."""
    leads = ["5S", "7S"] + [f"{r}S" for r in SPADES if r not in "7"] + ["AD", "KD"]
    hearts = [f"{r}H" for r in "AKQJT98765432"]
    seat2 = [f"{r}D" for r in "23456789TJQ"] + ["KC", "AC"]
    seat3 = ["4S", "6S"] + [f"{r}C" for r in "23456789TJQ"]
    plays: list[str] = []
    for t, lead in enumerate(leads):
        plays += [f"0{lead}", f"1{hearts[t]}", f"2{seat2[t]}", f"3{seat3[t]}"]
    return {"n": n, "cand": "x", "seat": 3, "moon": 0, "plays": " ".join(plays), "attempts": [0]}


def _stopper_hand() -> moon_report.ReportRow:
    """Seat 0 leads ten spades, the A♦ and K♦ and last the 2♥. Seat 1, void in spades, throws its
    hearts on the spade tricks while it keeps the K♣: any of them would have beaten the 2♥."""
    leads = ["5S", "7S"] + [f"{r}S" for r in "AKQJT983"] + ["AD", "KD", "2H"]
    seat1 = [f"{r}H" for r in "AKQJT98765432"[:12]] + ["KC"]
    seat2 = ["2S"] + [f"{r}D" for r in "3456789TJ"] + ["AC", "QD", "2D"]
    seat3 = ["4S", "6S"] + [f"{r}C" for r in "23456789TJQ"]
    plays: list[str] = []
    for t, lead in enumerate(leads):
        plays += [f"0{lead}", f"1{seat1[t]}", f"2{seat2[t]}", f"3{seat3[t]}"]
    return {"n": 3, "cand": "x", "seat": 1, "moon": 0, "plays": " ".join(plays), "attempts": [0]}


def test_the_cards_of_the_built_hand_are_a_whole_deck() -> None:
    for row in (_moon_hand(3), _stopper_hand()):
        plays = moon_report._plays(row)
        assert len({c for _, c in plays}) == 52
        assert all(winner == 0 for _, winner in moon_report._tricks(plays))


def test_a_seat_that_could_have_won_a_point_trick_after_the_shooter_had_a_take_chance() -> None:
    assert moon_report.chances(_moon_hand(3), 3) == ({"take after"}, False)  # deal 3: no pass


def test_seats_that_never_held_a_winner_had_no_chance_and_the_pass_is_traced() -> None:
    assert moon_report.chances(_moon_hand(3), 1) == (set(), False)  # hearts only, never followed
    assert moon_report.chances(_moon_hand(3), 2) == (set(), False)  # diamonds under the A♦ and K♦
    # deal 0 passes left: seat 3 passed to seat 0, the shooter
    assert moon_report.chances(_moon_hand(0), 3) == ({"take after"}, True)


def test_a_void_seat_that_threw_hearts_above_the_shooters_last_heart_threw_stoppers() -> None:
    # the A♥ on trick 1 (the shooter had no points yet), the rest once it had
    assert moon_report.chances(_stopper_hand(), 1) == ({"stopper thrown early", "stopper thrown, runner seen"}, False)
    # seat 2 threw diamonds and the A♣, never a heart
    assert moon_report.chances(_stopper_hand(), 2) == (set(), False)


def test_runner_odds_count_each_trick_the_runner_alone_had_points() -> None:
    table = moon_report.runner_odds([_moon_hand(3)])
    # before tricks 2..13 seat 0 alone has points: 12 states, each attempted and made
    assert sum(cell[0] for cell in table.values()) == 12
    assert all(cell[0] == cell[1] == cell[2] for cell in table.values())
    # before trick 2: one heart (bin "1") in tricks 1-5; the Q♠ (led 5th) comes with 4 hearts
    assert table[(0, 0)][0] == 1 and table[(0, 1)][0] == 2 and table[(0, 2)][0] == 1
    assert table[(1, 4)][0] == 1  # before trick 6: the Q♠ and 5 hearts


def test_the_report_prints_both_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "hands.jsonl"
    out.write_text(json.dumps(_moon_hand(3)) + "\n" + json.dumps(dict(_moon_hand(4), moon=-1)) + "\n")
    assert moon_report.main([str(out)]) == 0
    text = capsys.readouterr().out
    assert "runner odds: 2 hands" in text
    assert "x: 2 hands, 1 allowed (500.0 per 1,000): take after 1, take before 0, feed 0, stopper thrown" in text
    assert (
        "stopper thrown early 0, none 0; a chance once the shooter had points in 1; the shooter had its pass in 0"
        in text
    )


def test_gzipped_rows_read_as_the_plain_ones(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = json.dumps(_moon_hand(3)) + "\n\n" + json.dumps(dict(_moon_hand(4), moon=-1)) + "\n"
    plain, packed = tmp_path / "hands.jsonl", tmp_path / "hands.jsonl.gz"
    plain.write_text(rows)
    packed.write_bytes(gzip.compress(rows.encode()))
    assert moon_report.main([str(plain)]) == 0
    expected = capsys.readouterr().out
    assert moon_report.main([str(packed)]) == 0
    assert capsys.readouterr().out == expected
    assert "x: 2 hands, 1 allowed" in expected


def test_the_help_prints(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        moon_report.main(["--help"])
    except SystemExit as stop:
        assert stop.code == 0
    assert "--baseline" in capsys.readouterr().out


def test_pairs_count_the_moons_only_one_candidate_allowed() -> None:
    def row(n: int, seat: int, moon: int) -> DealMoon:
        return {"n": n, "seat": seat, "moon": moon}

    a = [row(n, 1, 0) for n in range(9)] + [row(9, 1, -1), row(10, 2, 1), row(11, 3, 3)]
    b = [row(n, 1, -1) for n in range(9)] + [row(9, 1, 0), row(10, 2, -1), row(12, 0, 1)]
    hands, only_a, only_b, p = moon_report.paired(a, b)
    assert (hands, only_a, only_b) == (11, 10, 1)  # the seat's own moon (11) is not allowed; 12 not shared
    assert abs(p - 2 * 12 / 2**11) < 1e-12  # sign test: 2 * P(X <= 1), X ~ Bin(11, 1/2)
    assert moon_report.paired(b, a)[1:3] == (1, 10) and moon_report.paired(a, a)[1:] == (0, 0, 1.0)
