"""hearts.tally: what a finished match means for each seat's statistics agrees with the match itself."""

from __future__ import annotations

import random

import pytest
from helpers import hold_hand, random_match
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rules_strategy

from hearts import QUEEN_OF_SPADES, HandScore, Match, Rules, Seat, TieRule
from hearts.seats import SEATS
from hearts.tally import HAND_POINTS, MAX_MATCH_HANDS, fit_totals, hand_tally, match_tally, place_of, sheet_tally


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy.map(lambda r: r.replace(target=min(r.target, 60))), seed=st.integers(0, 2**32))
def test_the_tally_of_any_finished_match_agrees_with_its_totals(rules: Rules, seed: int) -> None:
    match = random_match(rules, f"tally-{seed}", random.Random(seed))
    tallies = [match_tally(match, s) for s in SEATS]
    moons = sum(1 for row in match.score_sheet if row.moon is not None)
    for s, tally in zip(SEATS, tallies):
        assert tally.points == match.scores[s]
        assert tally.hands == len(match.score_sheet) == len(match.hands)
        assert tally.moons_shot + tally.moons_allowed == moons
        assert tally.won == (s in match.winners) == (tally.place == 1)
        assert tally.shared == (tally.won and len(match.winners) > 1)
        assert 0 <= (tally.queens or 0) <= tally.hands
        # a guest who knows only the score sheet counts the same, the Q♠ aside
        from_sheet = sheet_tally(match.score_sheet, match.winners, s)
        assert from_sheet == tally.__class__(**{**tally.__dict__, "queens": None})
    assert sum(t.queens or 0 for t in tallies) == len(match.hands)  # every hand's Q♠ went to someone
    assert sum(t.moons_shot for t in tallies) == moons
    low, high = HAND_POINTS
    assert all(low <= p <= high for row in match.score_sheet for p in row.points)


def test_the_queen_and_the_moon_of_one_hand() -> None:
    hand = hold_hand({Seat.SOUTH: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"})
    assert hand.result is None
    with pytest.raises(ValueError):
        hand_tally(hand, Seat.SOUTH)
    while hand.turn is not None:
        hand.play(hand.turn, hand.legal_plays()[0])
    taker = next(s for s in SEATS if hand.taken_mask(s) & QUEEN_OF_SPADES.mask)
    for s in SEATS:
        tally = hand_tally(hand, s)
        assert tally.queen_taken == (s == taker)
        assert tally.points == hand.result.points[s]
        assert tally.moon_shot == (hand.result.moon == s)


def test_a_moon_is_allowed_by_the_three_others() -> None:
    hand = hold_hand(
        {Seat.SOUTH: "AC AD AS KS QS AH KH QH JH TH 9H 8H 7H", Seat.WEST: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC 2H"}
    )
    while hand.turn is not None:  # everyone plays their highest card: South takes every trick
        hand.play(hand.turn, hand.legal_plays()[-1])
    assert hand.result is not None and hand.result.moon == Seat.SOUTH
    south = hand_tally(hand, Seat.SOUTH)
    assert south.moon_shot and not south.moon_allowed and south.queen_taken and south.points == 0
    assert all(hand_tally(hand, s).moon_allowed and hand_tally(hand, s).points == 26 for s in SEATS[1:])


def test_a_match_still_under_way_has_no_tally() -> None:
    with pytest.raises(ValueError):
        match_tally(Match(Rules(), "x"), Seat.SOUTH)


def test_places_are_shared_by_equal_totals() -> None:
    assert [place_of((10, 20, 10, 30), s) for s in SEATS] == [1, 3, 1, 4]


def test_a_shared_win() -> None:
    rows = [
        HandScore(0, (13, 13, 0, 0), (13, 13, 0, 0), None, None, (13, 13, 0, 0)),
        HandScore(1, (0, 0, 13, 13), (0, 0, 13, 13), None, None, (13, 13, 13, 13)),
    ]
    tally = sheet_tally(rows, (Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST), Seat.SOUTH)
    assert tally.won and tally.shared and tally.place == 1 and tally.points == 13 and tally.queens is None
    assert Rules(tie=TieRule.SHARED_WIN).tie is TieRule.SHARED_WIN


def test_a_score_sheet_that_does_not_add_up_is_refused() -> None:
    rows = [HandScore(0, (26, 0, 0, 0), (26, 0, 0, 0), None, None, (25, 0, 0, 0))]
    with pytest.raises(ValueError, match="do not add up"):
        sheet_tally(rows, (Seat.WEST,), Seat.SOUTH)
    with pytest.raises(ValueError):
        sheet_tally([], (Seat.WEST,), Seat.SOUTH)


TOTAL_KEYS = ("matches", "won", "hands", "points", "moons_shot", "moons_allowed", "queens")


def _sum(tallies: list) -> dict[str, int]:
    return {
        "matches": len(tallies),
        "won": sum(t.won for t in tallies),
        "hands": sum(t.hands for t in tallies),
        "points": sum(t.points for t in tallies),
        "moons_shot": sum(t.moons_shot for t in tallies),
        "moons_allowed": sum(t.moons_allowed for t in tallies),
        "queens": sum(t.queens or 0 for t in tallies),
    }


@settings(max_examples=25, deadline=None)
@given(
    rules=rules_strategy.map(lambda r: r.replace(target=min(r.target, 40))),
    seed=st.integers(0, 2**32),
    seat=st.sampled_from(SEATS),
    count=st.integers(1, 3),
)
def test_totals_of_real_matches_need_no_fitting(rules: Rules, seed: int, seat: Seat, count: int) -> None:
    """What a seat's finished matches add up to always passes the fit unchanged (with or
    without the Q♠, as a guest counts)."""
    tallies = [match_tally(random_match(rules, f"fit-{seed}-{i}", random.Random(seed + i)), seat) for i in range(count)]
    totals = _sum(tallies)
    assert fit_totals(totals) == totals
    without_queens = {k: v for k, v in totals.items() if k != "queens"}
    assert fit_totals(without_queens) == without_queens


def test_totals_that_cannot_be_true_are_lowered_to_fit() -> None:
    # no match, yet 500 hands, 400 Q♠ and 100 moons allowed: nothing can stay
    fitted = fit_totals(
        {"matches": 0, "won": 0, "hands": 500, "points": 2500, "moons_shot": 0, "moons_allowed": 100, "queens": 400}
    )
    assert fitted == dict.fromkeys(TOTAL_KEYS, 0)
    # a billion hands in two matches: at most MAX_MATCH_HANDS each
    fitted = fit_totals(
        {
            "matches": 2,
            "won": 1,
            "hands": 10**9,
            "points": 10,
            "moons_shot": 10**9,
            "moons_allowed": 10**9,
            "queens": 10**9,
        }
    )
    assert fitted["hands"] == 2 * MAX_MATCH_HANDS and fitted["moons_allowed"] == 2 * MAX_MATCH_HANDS
    # whoever allowed a moon in a hand did not take its Q♠; a moon shot takes the Q♠
    assert fitted["queens"] == 0 and fitted["moons_shot"] == 0
    fitted = fit_totals(
        {"matches": 1, "won": 3, "hands": 10, "points": 40, "moons_shot": 5, "moons_allowed": 4, "queens": 3}
    )
    assert fitted == {
        "matches": 1,
        "won": 1,
        "hands": 10,
        "points": 40,
        "moons_shot": 3,
        "moons_allowed": 4,
        "queens": 3,
    }
    # points within what the hands can score
    assert (
        fit_totals({"matches": 1, "won": 0, "hands": 2, "points": 999, "moons_shot": 0})["points"] == 2 * HAND_POINTS[1]
    )
    assert (
        fit_totals({"matches": 1, "won": 0, "hands": 2, "points": -999, "moons_shot": 0})["points"]
        == 2 * HAND_POINTS[0]
    )
    # more matches than hands: every match has a hand
    assert fit_totals({"matches": 5, "won": 5, "hands": 3, "points": 0, "moons_shot": 0})["matches"] == 3
