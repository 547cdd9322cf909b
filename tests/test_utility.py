"""What a played-out hand is worth (hearts.bots.utility): the engine's score, and the match near its end."""

from __future__ import annotations

from helpers import pass_view
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import Rules, score_hand
from hearts.bots.utility import MATCH_WEIGHT, Utility, hand_points
from hearts.rules import MoonScoring


def _taken(owners: list[int]) -> list[int]:
    taken = [0, 0, 0, 0]
    for card, seat in enumerate(owners):
        taken[seat] |= 1 << card
    if owners[0] == 0:  # often a moon: one seat takes every heart and the queen
        for card in list(range(39, 52)) + [36]:
            for s in range(4):
                taken[s] &= ~(1 << card)
            taken[owners[1]] |= 1 << card
    return taken


def _result(taken: list[int]) -> tuple[list[int], int, int]:
    hearts = [bin(t >> 39).count("1") for t in taken]
    queen = next(s for s in range(4) if taken[s] >> 36 & 1)
    jack = next(s for s in range(4) if taken[s] >> 22 & 1)
    return hearts, queen, jack


@settings(max_examples=300, deadline=None)
@given(
    owners=st.lists(st.integers(0, 3), min_size=52, max_size=52),
    moon=st.sampled_from(list(MoonScoring)),
    jack=st.booleans(),
    scores=st.tuples(*[st.integers(0, 120)] * 4),
)
def test_hand_points_equal_score_hand(
    owners: list[int], moon: MoonScoring, jack: bool, scores: tuple[int, int, int, int]
) -> None:
    rules = Rules(moon=moon, jack_of_diamonds=jack)
    taken = _taken(owners)
    assert hand_points(*_result(taken), rules, scores) == list(score_hand(taken, rules, scores).points)


@settings(max_examples=300, deadline=None)
@given(
    owners=st.lists(st.integers(0, 3), min_size=52, max_size=52),
    me=st.integers(0, 3),
    moon=st.sampled_from(list(MoonScoring)),
    jack=st.booleans(),
    scores=st.tuples(*[st.integers(0, 120)] * 4),
)
def test_the_utility_is_own_points_and_near_the_end_a_little_of_the_chosen_opponents(
    owners: list[int], me: int, moon: MoonScoring, jack: bool, scores: tuple[int, int, int, int]
) -> None:
    view = pass_view("2C 3C 4C 5C 6D 7D 8D 9D 2S 3S QS KS AS")
    rules = Rules(moon=moon, jack_of_diamonds=jack)
    view = type(view)(**{**view.__dict__, "rules": rules, "scores": scores})
    utility = Utility(me, view)
    result = _result(_taken(owners))
    points = hand_points(*result, rules, scores)
    assert utility.own_points(*result) == points[me]
    target = utility.target_seat
    assert (target >= 0) == (max(scores) + 26 >= rules.target) and target != me
    assert utility(*result) == -float(points[me]) + (MATCH_WEIGHT * points[target] if target >= 0 else 0.0)


def test_near_the_end_the_leader_wants_it_over_and_the_others_feed_the_leader() -> None:
    view = pass_view("2C 3C 4C 5C 6D 7D 8D 9D 2S 3S QS KS AS")
    ahead = type(view)(**{**view.__dict__, "scores": (60, 90, 70, 80)})
    assert Utility(0, ahead).target_seat == 1  # South leads: points on the seat closest to the target
    behind = type(view)(**{**view.__dict__, "scores": (85, 90, 60, 80)})
    assert Utility(0, behind).target_seat == 2  # the others: feed the leader
    early = type(view)(**{**view.__dict__, "scores": (10, 20, 30, 40)})
    assert Utility(0, early).target_seat == -1
