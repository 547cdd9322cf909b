"""The sentence for a refused card says the rule in force."""

from __future__ import annotations

import pytest
from hearts_web.core import i18n
from hearts_web.core.refusals import explain
from helpers import make_deal

from hearts import Card, Hand, IllegalAction, Rules, Seat
from hearts.rules import FirstTrick


def _first_trick_refusal(rules: Rules, card: str) -> IllegalAction:
    """West, void in clubs, tries ``card`` on the first trick (South leads the 2♣)."""
    deal = make_deal(
        {Seat.SOUTH: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC", Seat.WEST: "QS 2H 3H 4H 5H 6H 7H 8H 9H TH 2D 3D 4D"}
    )
    hand = Hand(deal, rules, hand_number=3)
    hand.play(Seat.SOUTH, Card.parse("2C"))
    with pytest.raises(IllegalAction) as refused:
        hand.play(Seat.WEST, Card.parse(card))
    return refused.value


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_first_trick_refusal_names_only_what_the_rules_bar(lang: str) -> None:
    i18n.set_lang(lang)
    try:
        both = explain(_first_trick_refusal(Rules(first_trick=FirstTrick.HEARTS_AND_QUEEN), "2H"))
        queen = explain(_first_trick_refusal(Rules(first_trick=FirstTrick.QUEEN_ONLY), "QS"))
    finally:
        i18n.set_lang("en")
    assert queen != both
    word = {"en": "heart", "de": "Herz"}[lang]
    assert word in both and word not in queen
