"""The guided first hand: the pinned deal has what the guide needs, and the guide's tips are sound."""

from __future__ import annotations

import random

from helpers import play_guided, random_player, suggested
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rules_strategy

from hearts import PRESETS, IllegalAction, Phase, Rules, Seat, SeatView
from hearts.cards import QUEEN_OF_SPADES, TWO_OF_CLUBS, Suit
from hearts.guide import GUIDED_SEAT, TIPS, Tip, guided_match, guided_rules, next_tip
from hearts.seats import PassDirection


def test_the_pinned_deal_has_what_the_guide_needs() -> None:
    match = guided_match()
    south = match.cards(GUIDED_SEAT)
    assert TWO_OF_CLUBS in south  # the player leads the first trick
    assert QUEEN_OF_SPADES in south  # the pass is about the queen
    assert match.pass_direction is PassDirection.LEFT
    assert match.is_over is False and match.max_hands == 1
    # Whatever the player does, a seat shows out of a suit, hearts are broken and the Q♠ falls.
    for pick in range(12):
        tips, _ = play_guided(random_player(random.Random(pick)))
        codes = {t.code for t in tips}
        assert {"void_shown", "queen_fell", "hearts_broken", "first_trick", "follow_suit"} <= codes


def test_following_the_guide_meets_every_situation() -> None:
    tips, match = play_guided(suggested)
    codes = [t.code for t in tips]
    for code in (
        "pass",
        "lead_two_of_clubs",
        "first_trick",
        "follow_suit",
        "no_card_of_suit",
        "hearts_not_broken",
        "your_lead",
        "queen_fell",
        "hearts_broken",
        "void_shown",
        "moon_threat",
        "hand_over",
    ):
        assert code in codes, code
    assert codes[0] == "pass" and codes[1] == "lead_two_of_clubs" and codes[-1] == "hand_over"
    assert match.is_over
    assert tips[0].reason == "pass_queen" and QUEEN_OF_SPADES in tips[0].cards
    lead = tips[1]
    assert lead.cards == (TWO_OF_CLUBS,) and lead.rule is not None and lead.rule.value == "must_lead_two_of_clubs"


def test_a_tip_about_a_rule_names_a_card_that_rule_refuses() -> None:
    tips, _ = play_guided(suggested)
    follow = next(t for t in tips if t.code == "follow_suit")
    assert follow.rule is not None and follow.rule.value == "must_follow_suit"
    assert follow.example is not None and follow.example.suit.name.lower() != follow.params["suit"]
    closed = next(t for t in tips if t.code == "hearts_not_broken")
    assert closed.example is not None and closed.example.suit is Suit.HEARTS


def test_the_guided_hand_keeps_the_players_rules_but_passes_left() -> None:
    rules = PRESETS["omnibus"].replace(queen_breaks_hearts=True, pass_cycle=(PassDirection.HOLD,))
    guided = guided_rules(rules)
    assert guided.pass_cycle == (PassDirection.LEFT,)
    assert guided.jack_of_diamonds and guided.queen_breaks_hearts
    assert guided_match(rules).rules == guided


def sound(tip: Tip, view: SeatView, told: list[str]) -> None:
    """What the property test asks of every tip."""
    assert tip.code in TIPS and tip.code not in told  # never repeated
    if view.phase is Phase.PASSING:
        assert len(set(tip.cards)) == 3 and set(tip.cards) <= set(view.hand)
    else:
        assert set(tip.cards) <= set(view.legal)  # never an illegal move
        if tip.cards:
            assert view.turn == view.seat and len(tip.cards) == 1
    if tip.example is not None:
        assert tip.rule is not None
        try:
            view.verify_play(tip.example)
        except IllegalAction as exc:
            assert exc.code is tip.rule
        else:
            raise AssertionError(f"{tip.example} is playable")


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6), rules_strategy)
def test_the_guide_never_suggests_an_illegal_move_nor_repeats_a_tip(seed: int, rules: Rules) -> None:
    tips, match = play_guided(random_player(random.Random(seed)), rules, check=sound)
    codes = [t.code for t in tips]
    assert len(codes) == len(set(codes))
    assert codes[0] == "pass" and codes[-1] == "hand_over"
    assert match.is_over


def test_no_tip_when_everything_was_said() -> None:
    match = guided_match()
    assert next_tip(match.view(GUIDED_SEAT), TIPS) is None
    assert next_tip(match.view(Seat.WEST), ("pass",)) is None  # West has not been told, but waits for nothing new
