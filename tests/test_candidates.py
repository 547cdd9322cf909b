"""What Hard searches (hearts.bots.candidates): one card per class of equivalent cards, and the passes."""

from __future__ import annotations

import random

from helpers import follow_view, mid_hand
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import SeatView
from hearts.bots import make_bot
from hearts.bots.candidates import candidates, equivalent, pass_candidates, void_passes
from hearts.bots.knowledge import Knowledge
from hearts.cards import mask_of, parse_cards


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6), tricks=st.integers(min_value=0, max_value=11))
def test_hard_candidates_cover_the_legal_cards(seed: int, tricks: int) -> None:
    hand = mid_hand(f"cand-{seed}", tricks, seed % 4)
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    k = Knowledge(view)
    cands = candidates(k)
    assert set(cands) <= set(view.legal) and cands
    for card in view.legal:
        # every legal card is a candidate or equivalent to one (same suit, nothing unseen between)
        ok = card in cands or any(
            c // 13 == card // 13 and not (((1 << max(c, card)) - 1) & ~((1 << (min(c, card) + 1)) - 1) & k.unseen)
            for c in cands
        )
        assert ok, (card, cands)


def _duck_or_win_view() -> SeatView:
    """South follows the 3♠ with 2♠ 4♠: one ducks, the other wins, nothing unseen between them."""
    return follow_view(
        "2C 3C 4C 5C 8C JC 2S 4S 2H 3H 4H 5H 6H",
        "2C 9C 7C AC 3S",  # east wins the first trick with the A♣ and leads the 3♠
        west="9C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        north="7C QC KC 2D 5S 6S 7S 8S 9S TS JS QS KS",
        east="AC TC 6C 3S 7H 8H 9H TH JH QH KH AH AS",
    )


def test_a_card_of_the_trick_between_two_of_mine_keeps_them_apart() -> None:
    view = _duck_or_win_view()
    k = Knowledge(view)
    assert [str(c) for c in view.legal] == ["2S", "4S"]
    assert candidates(k) == [26, 28]  # 2♠ ducks under the 3♠, 4♠ wins
    assert candidates(k, trick_split=False) == [28]  # the par's Hard: one card, the higher
    play = make_bot("hard", iterations=40).decide(view, random.Random(1))
    assert {"2S", "4S"} <= set(play.stats["values"])  # both searched
    par = make_bot("hard", iterations=40, version=1).decide(view, random.Random(1))
    assert str(par.cards[0]) == "4S" and par.stats == {"worlds": 0}  # the par's Hard cannot duck (frozen as it is)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    tricks=st.integers(min_value=0, max_value=11),
    extra=st.integers(min_value=1, max_value=3),
)
def test_equivalent_candidates_never_mix_a_duck_with_a_win(seed: int, tricks: int, extra: int) -> None:
    hand = mid_hand(f"duck-{seed}", tricks, extra)  # a follower: 1 to 3 cards of the trick are down
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    k = Knowledge(view)
    cands = candidates(k)
    best = k.trick_best()[1]
    for card in view.legal:
        same = [c for c in cands if equivalent(k, c, card)]
        assert same, (card, cands)
        if card // 13 == k.led:  # the card that stands for it wins the trick exactly when it would
            assert all((c > best) == (card > best) for c in same), (card, same, best)


def _cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(int(c) for c in parse_cards(text)))


def test_pass_candidates_are_mediums_then_every_three_of_six_then_void_and_moon_passes() -> None:
    hand = mask_of(int(c) for c in parse_cards("4C 9D 2S 5S 8S AS KS 2H 6H TH QH KH AH"))
    prior = _cards("9D KS AS")
    plain, shoots = pass_candidates(hand, prior, False, False, False, False)
    assert plain[0] == prior and len(plain) == 20 and len(set(plain)) == 20 and not any(shoots)
    full, shoots = pass_candidates(hand, prior, False, False, True, True)
    assert full[:20] == plain
    assert full[20:] == [_cards("4C KS AS"), _cards("4C 2S 2H"), _cards("4C 2S 5S")]  # void clubs; two moon passes
    assert shoots == [False] * 21 + [True, True]


def test_void_passes_fill_up_with_the_cards_that_most_want_to_leave_but_keep_a_scoring_jack() -> None:
    hand = mask_of(int(c) for c in parse_cards("4C 9D JD 2S 5S 8S AS KS 2H 6H TH QH KH"))
    ranked = [int(c) for c in parse_cards("AS KS KH QH")]
    assert void_passes(hand, ranked, False) == [_cards("4C AS KS"), _cards("9D JD AS")]
    assert void_passes(hand, ranked, True) == [_cards("4C AS KS")]  # the J♦ counts -10: keep it
