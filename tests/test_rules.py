"""Edge-case table for every rule and option."""

import pytest
from helpers import hold_hand, play_all

from hearts import (
    PRESETS,
    ErrorCode,
    FirstTrick,
    IllegalAction,
    MoonScoring,
    PassDirection,
    Rules,
    Seat,
    Suit,
    TieRule,
    legal_mask,
    mask_of,
    parse_cards,
    preset_name,
    score_hand,
)
from hearts.rules import PASS_CYCLES

S, W, N, E = Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST
ALL_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"


def texts(cards):
    return " ".join(c.text for c in cards)


# --------------------------------------------------------------------------- the first trick
# West cannot follow the 2♣ lead; what may it discard?
FIRST_TRICK_CASES = [
    # (rule, west's hand, legal discards)
    (FirstTrick.HEARTS_AND_QUEEN, "2D 3D 4D 2S 3S QS 2H 3H 4H 5H 6H 7H 8H", "2D 3D 4D 2S 3S"),
    (FirstTrick.HEARTS_AND_QUEEN, "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
    (FirstTrick.HEARTS_AND_QUEEN, ALL_HEARTS, ALL_HEARTS),
    (FirstTrick.HEARTS_AND_QUEEN, "QS 3S 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "3S"),
    (FirstTrick.QUEEN_ONLY, "2D 3D 4D 2S 3S QS 2H 3H 4H 5H 6H 7H 8H", "2D 3D 4D 2S 3S 2H 3H 4H 5H 6H 7H 8H"),
    (FirstTrick.QUEEN_ONLY, "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
    (FirstTrick.NONE, "2D 3D 4D 2S 3S QS 2H 3H 4H 5H 6H 7H 8H", "2D 3D 4D 2S 3S QS 2H 3H 4H 5H 6H 7H 8H"),
]


@pytest.mark.parametrize("rule, west, legal", FIRST_TRICK_CASES)
def test_first_trick_when_void_in_clubs(rule, west, legal):
    hand = hold_hand({S: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", W: west}, Rules(first_trick=rule))
    hand.play(S, "2C")
    assert texts(hand.legal_plays(W)) == legal


def test_first_trick_points_are_refused_with_the_reason():
    hand = hold_hand({S: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", W: "2D 3D 4D 2S 3S QS 2H 3H 4H 5H 6H 7H 8H"})
    hand.play(S, "2C")
    with pytest.raises(IllegalAction) as err:
        hand.play(W, "QS")
    assert err.value.code is ErrorCode.NO_POINTS_ON_FIRST_TRICK and err.value.details["kind"] == "queen"
    with pytest.raises(IllegalAction) as err:
        hand.play(W, "2H")
    assert err.value.code is ErrorCode.NO_POINTS_ON_FIRST_TRICK and err.value.details["kind"] == "hearts"


def test_first_trick_followers_with_clubs_must_follow():
    hand = hold_hand({S: "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD", W: "3C QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"})
    hand.play(S, "2C")
    assert texts(hand.legal_plays(W)) == "3C"
    with pytest.raises(IllegalAction) as err:
        hand.play(W, "QS")
    assert err.value.code is ErrorCode.MUST_FOLLOW_SUIT


def test_first_lead_must_be_the_two_of_clubs():
    hand = hold_hand({S: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"})
    assert hand.turn is S and texts(hand.legal_plays()) == "2C"
    with pytest.raises(IllegalAction) as err:
        hand.play(S, "AC")
    assert err.value.code is ErrorCode.MUST_LEAD_TWO_OF_CLUBS


# --------------------------------------------------------------------------- leading hearts
def _south_wins_first_trick(south: str, rules: Rules | None = None):
    """West leads 2♣, north and east follow, south wins with the A♣ and leads trick 2.

    East holds the other clubs, the A♦ and whatever of the Q♠ and the hearts south lacks.
    """
    hand = hold_hand(
        {W: "2C 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD", N: "3C 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS", S: south}, rules
    )
    play_all(hand, "2C 3C 4C AC")
    assert hand.turn is S and hand.trick_number == 1
    return hand


def test_hearts_cannot_be_led_before_broken():
    hand = _south_wins_first_trick("AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH")
    assert texts(hand.legal_plays()) == "QS"
    with pytest.raises(IllegalAction) as err:
        hand.play(S, "2H")
    assert err.value.code is ErrorCode.HEARTS_NOT_BROKEN


def test_a_leader_with_only_hearts_may_lead_hearts_and_others_must_follow():
    hand = _south_wins_first_trick("AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    assert not hand.hearts_broken and hand.legal_plays() == hand.cards(S)
    events = hand.play(S, "2H")
    assert hand.hearts_broken and "hearts_broken" in [e.kind for e in events]
    hand.play(W, "2D")  # void in hearts
    hand.play(N, "2S")
    with pytest.raises(IllegalAction) as err:
        hand.play(E, "5C")
    assert err.value.code is ErrorCode.MUST_FOLLOW_SUIT and err.value.details["suit"] is Suit.HEARTS
    assert err.value.to_dict()["details"]["suit"] == "hearts"
    assert texts(hand.legal_plays(E)) == "AH"


@pytest.mark.parametrize("breaks", [False, True])
def test_queen_of_spades_breaks_hearts_only_with_the_option(breaks):
    hand = _south_wins_first_trick("AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", Rules(queen_breaks_hearts=breaks))
    events = hand.play(S, "QS")
    assert hand.hearts_broken is breaks and ("hearts_broken" in [e.kind for e in events]) is breaks
    play_all(hand, "2D AS AD")  # west discards, north wins with the A♠, east discards
    assert hand.turn is N and hand.hearts_broken is breaks
    south_lead = legal_mask(
        hand.cards_mask(S), -1, hand.trick_number, hand.hearts_broken, Rules().first_trick_forbidden
    )
    assert (south_lead == hand.cards_mask(S)) is True  # south holds only hearts now: allowed either way
    east_lead = legal_mask(hand.cards_mask(E), -1, hand.trick_number, hand.hearts_broken, 0)
    assert bool(east_lead & mask_of(parse_cards("KH AH"))) is breaks


def test_a_discarded_heart_breaks_hearts():
    hand = _south_wins_first_trick("AC QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH")
    hand.play(S, "QS")
    hand.play(W, "2D")
    hand.play(N, "AS")
    assert not hand.hearts_broken
    events = hand.play(E, "KH")
    assert hand.hearts_broken and [e.kind for e in events][:2] == ["card_played", "hearts_broken"]
    assert events[-1].kind == "trick_won" and events[-1].seat is N and events[-1].points == 14
    assert events[-1].marker == "queen" and hand.trick_markers(N) == ("queen",)


def test_not_your_turn_and_wrong_phase():
    hand = hold_hand({S: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"})
    with pytest.raises(IllegalAction) as err:
        hand.play(W, "2D")
    assert err.value.code is ErrorCode.NOT_YOUR_TURN and err.value.details["turn"] is S
    with pytest.raises(IllegalAction) as err:
        hand.choose_pass(S, "3C 4C 5C")
    assert err.value.code is ErrorCode.WRONG_PHASE


def test_unknown_card_text():
    hand = hold_hand({S: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"})
    with pytest.raises(IllegalAction) as err:
        hand.play(S, "1Z")
    assert err.value.code is ErrorCode.UNKNOWN_CARD


# --------------------------------------------------------------------------- scoring
def _taken(*texts_by_seat: str) -> list[int]:
    return [mask_of(parse_cards(t)) for t in texts_by_seat]


EVERYTHING_ELSE = (
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S TS JS KS AS"
)


def test_plain_scoring():
    result = score_hand(_taken("QS 2H", "3H 4H", "", "5H 6H 7H 8H 9H TH JH QH KH AH " + EVERYTHING_ELSE), Rules())
    assert result.points == (14, 2, 0, 10) and result.moon is None and sum(result.points) == 26


@pytest.mark.parametrize(
    "moon, before, points, scoring",
    [
        (MoonScoring.ADD_TO_OTHERS, (0, 0, 0, 0), (0, 26, 26, 26), MoonScoring.ADD_TO_OTHERS),
        (MoonScoring.SUBTRACT_FROM_SHOOTER, (0, 0, 0, 0), (-26, 0, 0, 0), MoonScoring.SUBTRACT_FROM_SHOOTER),
        # adding 26 ends nothing: the others get +26
        (MoonScoring.SHOOTERS_CHOICE, (10, 20, 30, 40), (0, 26, 26, 26), MoonScoring.ADD_TO_OTHERS),
        # adding 26 would end the match (west 106) with the shooter (90) above north (56): take −26 instead
        (MoonScoring.SHOOTERS_CHOICE, (90, 80, 30, 40), (-26, 0, 0, 0), MoonScoring.SUBTRACT_FROM_SHOOTER),
        # adding 26 ends the match and the shooter (40) is lowest: the others get +26
        (MoonScoring.SHOOTERS_CHOICE, (40, 80, 75, 90), (0, 26, 26, 26), MoonScoring.ADD_TO_OTHERS),
    ],
)
def test_moon_scoring(moon, before, points, scoring):
    result = score_hand(_taken("QS " + ALL_HEARTS, "", "", EVERYTHING_ELSE), Rules(moon=moon), before)
    assert result.moon is S and result.points == points and result.moon_scoring is scoring


def test_jack_of_diamonds_counts_minus_ten_only_with_the_option():
    taken = _taken("QS 2H JD", "3H 4H", "", "5H 6H 7H 8H 9H TH JH QH KH AH " + EVERYTHING_ELSE.replace("JD ", ""))
    assert score_hand(taken, Rules()).points == (14, 2, 0, 10)
    assert score_hand(taken, Rules(jack_of_diamonds=True)).points == (4, 2, 0, 10)
    assert score_hand(taken, Rules(jack_of_diamonds=True)).jack is S


def test_moon_does_not_need_the_jack_of_diamonds():
    rules = Rules(jack_of_diamonds=True)
    with_jack = score_hand(_taken("QS JD " + ALL_HEARTS, "", "", EVERYTHING_ELSE.replace("JD ", "")), rules)
    assert with_jack.moon is S and with_jack.points == (-10, 26, 26, 26)
    without = score_hand(_taken("QS " + ALL_HEARTS, "JD", "", EVERYTHING_ELSE.replace("JD ", "")), rules)
    assert without.moon is S and without.points == (0, 16, 26, 26)


# --------------------------------------------------------------------------- pass cycle
@pytest.mark.parametrize(
    "cycle, eight",
    [
        ("left_right_across_hold", "left right across hold left right across hold"),
        ("left_across_right_hold", "left across right hold left across right hold"),
        ("none", "hold hold hold hold hold hold hold hold"),
    ],
)
def test_pass_cycle_over_eight_hands(cycle, eight):
    rules = Rules(pass_cycle=PASS_CYCLES[cycle])
    assert " ".join(rules.pass_direction(n).value for n in range(8)) == eight


def test_pass_targets_go_clockwise():
    assert PassDirection.LEFT.target(S) is W and PassDirection.RIGHT.target(S) is E
    assert PassDirection.ACROSS.target(W) is E and PassDirection.HOLD.target(N) is N
    assert all(d.source(d.target(s)) is s for d in PassDirection for s in Seat)


# --------------------------------------------------------------------------- presets and rules data
def test_presets_follow_the_seeds():
    assert PRESETS["standard"] == Rules()
    assert PRESETS["classic"].first_trick is FirstTrick.QUEEN_ONLY
    assert PRESETS["king"].target == 50 and PRESETS["king"].pass_cycle == PASS_CYCLES["left_across_right_hold"]
    assert PRESETS["omnibus"].jack_of_diamonds
    assert all(preset_name(rules) == name for name, rules in PRESETS.items())
    assert preset_name(Rules(target=77)) is None
    assert not Rules().queen_breaks_hearts and Rules().tie is TieRule.PLAY_ON


def test_rules_round_trip_and_validation():
    rules = Rules(moon=MoonScoring.SHOOTERS_CHOICE, target=75, tie=TieRule.SHARED_WIN, queen_breaks_hearts=True)
    assert Rules.from_dict(rules.to_dict()) == rules
    assert Rules.from_dict({"pass_cycle": "none"}).pass_cycle == (PassDirection.HOLD,)
    for bad in [
        {"target": 0},
        {"target": "100"},
        {"moon": "sideways"},
        {"colour": "red"},
        {"pass_cycle": []},
        {"jack_of_diamonds": "yes"},
        {"pass_cycle": ["up"]},
    ]:
        with pytest.raises(ValueError):
            Rules.from_dict(bad)
