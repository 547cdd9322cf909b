"""Golden records and tamper detection: loading = replaying through the engine."""

import copy
import json
import pathlib

import pytest

from hearts import (
    ErrorCode,
    Hand,
    Match,
    Phase,
    RecordError,
    Seat,
    dumps,
    hand_from_record,
    load_record,
    loads,
    match_from_record,
    match_to_record,
)

FIXTURES = pathlib.Path(__file__).parent / "fixtures"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text())


def test_golden_match_replays_to_its_result():
    match = match_from_record(fixture("match_standard.json"))
    assert match.is_over and match.scores == (75, 101, 71, 91) and match.winners == (Seat.NORTH,)
    assert len(match.hands) == 13
    assert match_to_record(match) == fixture("match_standard.json")


def test_golden_match_in_progress_resumes_mid_hand():
    match = match_from_record(fixture("match_king_in_progress.json"))
    assert match.scores == (31, 9, 11, 27) and match.phase is Phase.PLAYING
    assert (match.hand_number, match.hand.trick_number) == (3, 8)
    assert match_to_record(match) == fixture("match_king_in_progress.json")


def test_golden_hand_with_the_jack_of_diamonds():
    hand = hand_from_record(fixture("hand_omnibus.json"))
    assert hand.result is not None and hand.result.points == (2, 7, -9, 16) and hand.result.jack is Seat.NORTH


def test_dumps_loads_round_trip_mid_trick():
    match = match_from_record(fixture("match_king_in_progress.json"))
    match.play(match.turn, match.legal_plays()[0])
    again = loads(dumps(match))
    assert isinstance(again, Match)
    assert again.current_trick == match.current_trick and again.turn == match.turn
    assert again.cards(Seat.SOUTH) == match.cards(Seat.SOUTH)


def test_partial_passes_are_kept():
    match = Match(seed="partial")
    match.choose_pass(Seat.NORTH, match.cards(Seat.NORTH)[:3])
    again = match_from_record(match_to_record(match))
    assert again.waiting_for_pass == (Seat.SOUTH, Seat.WEST, Seat.EAST)


def _swap_first_two_plays(record: dict, hand_index: int) -> dict:
    bad = copy.deepcopy(record)
    plays = bad["hands"][hand_index]["plays"]
    plays[4], plays[5] = plays[5], plays[4]
    return bad


TAMPERED = [
    # (mutation, code, step prefix)
    (lambda r: {**r, "format": "chess"}, ErrorCode.UNKNOWN_FORMAT, "format"),
    (lambda r: {**r, "version": 99}, ErrorCode.UNSUPPORTED_VERSION, "version"),
    (lambda r: {**r, "rules": {"target": -5}}, ErrorCode.BAD_RULES, "rules"),
    (lambda r: {**r, "hands": []}, ErrorCode.BAD_FIELD, "hands"),
    (lambda r: {**r, "seed": 7}, ErrorCode.BAD_FIELD, "seed"),
    (
        lambda r: _set(r, ["hands", 0, "plays", 0], _another_card_of_the_first_leader(r)),
        ErrorCode.MUST_LEAD_TWO_OF_CLUBS,
        "hands[0].plays[0]",
    ),
    (lambda r: _set(r, ["hands", 0, "plays", 3], "ZZ"), ErrorCode.BAD_FIELD, "hands[0].plays[3]"),
    (
        lambda r: _set(r, ["hands", 1, "passes", "west"], ["2C", "2C", "3C"]),
        ErrorCode.DUPLICATE_CARDS,
        "hands[1].passes.west",
    ),
    (lambda r: _set(r, ["hands", 0, "points"], [0, 0, 0, 26]), ErrorCode.BAD_FIELD, "hands[0].points"),
    (
        lambda r: _set(r, ["hands", 0, "plays"], r["hands"][0]["plays"] + ["2C"]),
        ErrorCode.EXTRA_PLAYS,
        "hands[0].plays[52]",
    ),
    (lambda r: _set(r, ["hands", 2, "passes"], {}), ErrorCode.INCOMPLETE_PASSES, "hands[2].passes"),
    (lambda r: _set(r, ["hands", 0, "passes", "up"], ["2C", "3C", "4C"]), ErrorCode.BAD_FIELD, "hands[0].passes.up"),
]


def _another_card_of_the_first_leader(record: dict) -> str:
    first = match_from_record(record).hands[0]
    leader = first.tricks[0].leader
    return next(c.text for t in first.tricks[1:] for s, c in t.plays if s == leader)


def _set(record: dict, path: list, value) -> dict:
    bad = copy.deepcopy(record)
    target = bad
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return bad


@pytest.mark.parametrize("index", range(len(TAMPERED)))
def test_tampered_records_are_refused_at_the_first_bad_step(index):
    mutate, code, step = TAMPERED[index]
    with pytest.raises(RecordError) as err:
        match_from_record(mutate(fixture("match_standard.json")))
    assert err.value.code is code
    assert err.value.step.startswith(step)


def test_swapped_plays_are_caught_with_the_rule_that_breaks():
    record = fixture("match_standard.json")
    with pytest.raises(RecordError) as err:
        match_from_record(_swap_first_two_plays(record, 0))
    assert err.value.cause is not None and err.value.code is err.value.cause.code
    assert err.value.step.startswith("hands[0].plays[")


def test_not_json_and_wrong_types():
    with pytest.raises(RecordError) as err:
        loads("{not json")
    assert err.value.code is ErrorCode.NOT_JSON
    for value in [None, [], "x", 3]:
        with pytest.raises(RecordError):
            load_record(value)


def test_record_without_seed_carries_its_deals():
    hand_record = fixture("hand_omnibus.json")
    hand = load_record(hand_record)
    assert isinstance(hand, Hand)
    bad = copy.deepcopy(hand_record)
    bad["deal"]["south"][0] = bad["deal"]["west"][0]
    with pytest.raises(RecordError) as err:
        load_record(bad)
    assert err.value.code is ErrorCode.BAD_DEAL


def test_a_match_waiting_between_hands_round_trips():
    """A match at ``hand_over`` writes the hands dealt so far; a record that goes on with the next
    hand's empty body (as records did before the match learned to wait) loads into that hand."""
    record = fixture("match_standard.json")
    first = dict(record, hands=record["hands"][:1])
    waiting = match_from_record(first)
    assert waiting.phase is Phase.HAND_OVER and waiting.hand_number == 0 and waiting.to_act == ()
    assert match_to_record(waiting) == first
    dealt = match_from_record(dict(record, hands=record["hands"][:1] + [{"passes": {}, "plays": []}]))
    assert dealt.hand_number == 1 and dealt.phase is Phase.PASSING and dealt.scores == waiting.scores
    waiting.next_hand()
    assert match_to_record(waiting) == match_to_record(dealt)


# ------------------------------------------------------------------ a match carried on from another
from helpers import step  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from hearts import PRESETS, deal_from_seed  # noqa: E402
from hearts.tally import match_tally  # noqa: E402


def _carried(earlier_hands: int, plays: int, seed: int) -> Match:
    """A match carried on after ``earlier_hands`` hands played elsewhere, ``plays`` steps into it."""
    import random

    rng = random.Random(seed)
    before = Match(PRESETS["standard"], seed=f"before{seed}")
    while len(before.score_sheet) < earlier_hands and not before.is_over:
        step(before, rng)
        if before.phase is Phase.HAND_OVER and len(before.score_sheet) < earlier_hands:
            before.next_hand()
    sheet = before.score_sheet if not before.is_over else before.score_sheet[:-1]
    carried = Match(PRESETS["standard"], deals=[deal_from_seed(f"fresh{seed}")], earlier=sheet)
    for _ in range(plays):
        if carried.phase is Phase.HAND_OVER or carried.is_over:
            break
        step(carried, rng)
    return carried


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 4), st.integers(0, 60), st.integers(0, 10**6))
def test_a_carried_match_round_trips_through_its_record(earlier_hands: int, plays: int, seed: int) -> None:
    match = _carried(earlier_hands, plays, seed)
    again = loads(dumps(match))
    assert isinstance(again, Match)
    assert again.first_hand == match.first_hand and again.score_sheet == match.score_sheet
    assert again.hand_number == match.hand_number and again.view(Seat.SOUTH) == match.view(Seat.SOUTH)
    assert ("earlier" in match_to_record(match)) == bool(match.first_hand)


def test_earlier_hands_that_do_not_add_up_are_refused_with_the_reason():
    record = match_to_record(_carried(2, 10, 1))
    record["earlier"][1]["totals"][0] += 1
    with pytest.raises(RecordError, match="earlier hands: the earlier hands do not add up at hand 2"):
        match_from_record(record)
    record["earlier"] = "nope"
    with pytest.raises(RecordError) as err:
        match_from_record(record)
    assert err.value.code is ErrorCode.BAD_FIELD


def test_a_carried_match_tallies_every_hand_from_its_sheet():
    match = _carried(3, 10**4, 2)
    import random

    rng = random.Random(5)
    while not match.is_over:
        if match.phase is Phase.HAND_OVER:
            match.next_hand(deal_from_seed(f"more{len(match.score_sheet)}"))
        else:
            step(match, rng)
    tally = match_tally(match, Seat.SOUTH)
    assert tally.hands == len(match.score_sheet) and tally.points == match.scores[Seat.SOUTH] and tally.queens is None
