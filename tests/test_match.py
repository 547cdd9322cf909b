import random

import pytest
from helpers import random_action, random_match, step

from hearts import (
    PRESETS,
    ErrorCode,
    IllegalAction,
    Match,
    NextHand,
    PassDirection,
    Phase,
    Rules,
    Seat,
    TieRule,
    deal_from_seed,
    hand_seed,
)


def _first_hand(rules: Rules, seed: str, rng_seed: int) -> Match:
    match = Match(rules, seed=seed)
    rng = random.Random(rng_seed)
    while match.hand_number == 0 and not match.is_over:
        step(match, rng)
    return match


def test_tie_for_lowest_plays_another_hand_by_default():
    match = _first_hand(Rules(target=1), "tie3", 3)
    assert match.score_sheet[0].totals == (0, 0, 4, 22)
    assert not match.is_over and match.hand_number == 1 and match.phase is Phase.PASSING


def test_tie_for_lowest_is_a_shared_win_with_the_option():
    match = _first_hand(Rules(target=1, tie=TieRule.SHARED_WIN), "tie3", 3)
    assert match.is_over and match.winners == (Seat.SOUTH, Seat.WEST) and match.phase is Phase.MATCH_OVER
    with pytest.raises(IllegalAction) as err:
        match.play(Seat.SOUTH, "2C")
    assert err.value.code is ErrorCode.MATCH_OVER


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_whole_matches_end_correctly(preset):
    rules = PRESETS[preset]
    for i in range(3):
        match = random_match(rules, f"m{i}", random.Random(i))
        assert match.is_over
        assert max(match.scores) >= rules.target
        lowest = min(match.scores)
        assert match.winners == tuple(s for s in Seat if match.scores[s] == lowest)
        assert len(match.winners) == 1  # play on until the lowest is unique
        # no hand before the last ended the match
        for row in match.score_sheet[:-1]:
            low = min(row.totals)
            assert max(row.totals) < rules.target or list(row.totals).count(low) > 1
        assert [h.pass_direction for h in match.hands] == [rules.pass_direction(n) for n in range(len(match.hands))]
        totals = [0, 0, 0, 0]
        for row in match.score_sheet:
            totals = [a + b for a, b in zip(totals, row.points)]
            assert tuple(totals) == row.totals


def test_hands_are_dealt_from_the_match_seed():
    match = Match(seed="abc")
    assert match.hand.deal == deal_from_seed("abc") and hand_seed("abc", 2) == "abc#2"
    match = random_match(Rules(target=30), "abc", random.Random(5))
    for n, hand in enumerate(match.hands):
        assert hand.deal == deal_from_seed(hand_seed("abc", n))


def test_one_hand_match():
    match = Match(Rules(pass_cycle=(PassDirection.ACROSS,)), seed="2026-11-29", max_hands=1)
    rng = random.Random(0)
    events = []
    while not match.is_over:
        if match.phase is Phase.PASSING:
            seat = match.waiting_for_pass[0]
            events += match.choose_pass(seat, rng.sample(match.legal_pass_cards(seat), 3))
        else:
            events += match.play(match.turn, rng.choice(match.legal_plays()))
    kinds = [e.kind for e in events]
    assert kinds[-2:] == ["hand_over", "match_over"] and len(match.hands) == 1
    assert kinds.count("trick_won") == 13 and kinds.count("cards_passed") == 1


def test_the_match_waits_at_the_end_of_a_hand_until_told_to_deal():
    match = Match(Rules(target=500), seed="ev")
    rng = random.Random(1)
    with pytest.raises(IllegalAction) as early:
        match.next_hand()
    assert early.value.code is ErrorCode.WRONG_PHASE
    events = []
    while match.phase is not Phase.HAND_OVER:
        events = match.apply(random_action(match.view(match.to_act[0]), rng))
    assert [e.kind for e in events][-1] == "hand_over"
    assert events[-1].to_dict()["totals"] == list(match.scores)
    assert match.hand_number == 0 and match.to_act == () and match.turn is None and not match.is_over
    with pytest.raises(IllegalAction) as err:
        match.play(Seat.SOUTH, "2C")
    assert err.value.code is ErrorCode.WRONG_PHASE
    started = match.apply(NextHand())
    assert [e.kind for e in started] == ["hand_started"] and started[0].pass_direction is PassDirection.RIGHT
    assert match.hand_number == 1 and match.phase is Phase.PASSING and len(match.to_act) == 4


def test_explicit_deals_that_run_out_stop_the_match_with_a_reason():
    match = Match(Rules(), deals=[deal_from_seed("one")])
    rng = random.Random(2)
    while match.phase is not Phase.HAND_OVER:
        match.apply(random_action(match.view(match.to_act[0]), rng))
    assert match.score_sheet[0].totals == match.scores  # the hand is scored
    with pytest.raises(IllegalAction) as err:
        match.next_hand()
    assert err.value.code is ErrorCode.NO_MORE_DEALS and match.phase is Phase.HAND_OVER


def test_pass_exchange_happens_only_when_all_have_chosen():
    match = Match(seed="pass")
    south = match.cards(Seat.SOUTH)
    west_before = match.cards(Seat.WEST)
    match.choose_pass(Seat.SOUTH, south[-3:])
    assert match.cards(Seat.SOUTH) == south and match.cards(Seat.WEST) == west_before
    assert match.waiting_for_pass == (Seat.WEST, Seat.NORTH, Seat.EAST)
    with pytest.raises(IllegalAction) as err:
        match.choose_pass(Seat.SOUTH, south[:3])
    assert err.value.code is ErrorCode.ALREADY_PASSED
    for seat in (Seat.WEST, Seat.NORTH):
        match.choose_pass(seat, match.cards(seat)[:3])
    events = match.choose_pass(Seat.EAST, match.cards(Seat.EAST)[:3])
    assert [e.kind for e in events] == ["pass_chosen", "cards_passed"]
    assert set(south[-3:]) <= set(match.cards(Seat.WEST))  # left: south → west
    assert match.hand.received(Seat.WEST) == tuple(south[-3:])
    assert match.phase is Phase.PLAYING and match.turn == match.hand.holder_of_two_of_clubs


@pytest.mark.parametrize(
    "cards, code",
    [
        ("2C 3C", ErrorCode.WRONG_PASS_COUNT),
        ("2C 3C 4C 5C", ErrorCode.WRONG_PASS_COUNT),
        (None, ErrorCode.DUPLICATE_CARDS),
        (None, ErrorCode.CARD_NOT_IN_HAND),
        ("XX 2C 3C", ErrorCode.UNKNOWN_CARD),
    ],
)
def test_pass_errors(cards, code):
    match = Match(seed="pass")
    own = match.cards(Seat.SOUTH)
    if code is ErrorCode.DUPLICATE_CARDS:
        cards = [own[0], own[0], own[1]]
    elif code is ErrorCode.CARD_NOT_IN_HAND:
        cards = [own[0], own[1], match.cards(Seat.NORTH)[0]]
    elif code is ErrorCode.WRONG_PASS_COUNT:
        cards = own[: len(cards.split())]
    with pytest.raises(IllegalAction) as err:
        match.choose_pass(Seat.SOUTH, cards)
    assert err.value.code is code
    assert match.waiting_for_pass == tuple(Seat)  # nothing changed
    with pytest.raises(IllegalAction) as err:
        match.play(Seat.SOUTH, own[0])
    assert err.value.code is ErrorCode.WRONG_PHASE


def test_error_details_are_plain_data():
    match = Match(seed="x")
    with pytest.raises(IllegalAction) as err:
        match.choose_pass(Seat.SOUTH, match.cards(Seat.SOUTH)[:2])
    data = err.value.to_dict()
    assert data["code"] == "wrong_pass_count" and data["details"] == {"count": 2, "expected": 3}


# ------------------------------------------------------------------ a match carried on from another
def _played(rules: Rules, seed: str, hands: int) -> Match:
    match = Match(rules, seed=seed)
    rng = random.Random(7)
    while len(match.score_sheet) < hands and not match.is_over:
        step(match, rng)
        if match.phase is Phase.HAND_OVER and len(match.score_sheet) < hands:
            match.next_hand()
    return match


def test_a_match_goes_on_from_the_score_sheet_of_earlier_hands():
    """An online table whose host is gone: a guest carries on with the scores so far, the next
    hand number and its pass direction, from a fresh deal; the sheet keeps the earlier rows."""
    rules = PRESETS["standard"]
    before = _played(rules, "carry", 2)
    deal = deal_from_seed("fresh")
    carried = Match(rules, deals=[deal], earlier=before.score_sheet)
    assert carried.first_hand == 2 and carried.hand_number == 2 and carried.scores == before.scores
    assert carried.pass_direction is PassDirection.ACROSS and carried.hand.deal == deal
    assert carried.score_sheet == before.score_sheet and len(carried.hands) == 1
    assert carried.view(Seat.SOUTH).hand_number == 2 and carried.view(Seat.SOUTH).scores == before.scores
    rng = random.Random(3)
    while carried.phase is not Phase.HAND_OVER and not carried.is_over:
        step(carried, rng)
    row = carried.score_sheet[-1]
    assert row.hand_number == 2 and row.totals == tuple(a + b for a, b in zip(before.scores, row.points))
    assert carried.hand_at(2) is carried.hand
    with pytest.raises(IndexError):
        carried.hand_at(1)  # an earlier hand: played elsewhere, no cards here


def test_earlier_hands_must_add_up_and_leave_the_match_open():
    rules = PRESETS["standard"]
    sheet = _played(rules, "carry", 2).score_sheet
    bad = [sheet[0], sheet[1].__class__(1, sheet[1].points, sheet[1].penalty, None, None, (0, 0, 0, 0))]
    with pytest.raises(ValueError, match="do not add up at hand 2"):
        Match(rules, seed="x", earlier=bad)
    with pytest.raises(ValueError, match="do not add up at hand 1"):
        Match(rules, seed="x", earlier=sheet[1:])  # not from hand 1
    with pytest.raises(ValueError, match="already ended"):
        Match(Rules(target=1), seed="x", earlier=sheet)
