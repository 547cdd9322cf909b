"""Invariants over random games (hypothesis): every rules preset and option combination."""

import random

from helpers import random_action
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rules_strategy

from hearts import (
    Hand,
    Match,
    NextHand,
    Phase,
    Seat,
    match_from_record,
    match_to_record,
    random_deal,
)
from hearts.trick import legal_mask


@settings(max_examples=120, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32), hand_number=st.integers(0, 7))
def test_random_hands_keep_every_invariant(rules, seed, hand_number):
    rng = random.Random(seed)
    hand = Hand(random_deal(rng), rules, hand_number=hand_number)
    while hand.phase is Phase.PASSING:
        seat = hand.waiting_for_pass[0]
        hand.choose_pass(seat, rng.sample(hand.legal_pass_cards(seat), 3))
    assert all(len(hand.cards(s)) == 13 for s in Seat)
    seen = []
    while hand.phase is Phase.PLAYING:
        seat = hand.turn
        legal = hand.legal_plays(seat)
        assert legal, "legal plays are never empty for the seat to act"
        assert all(hand.can_play(seat, c) for c in legal)
        illegal = [c for c in hand.cards(seat) if c not in legal]
        for c in illegal:
            assert not hand.can_play(seat, c)
        for other in Seat:
            if other != seat:
                assert hand.legal_plays(other) == ()
        card = rng.choice(legal)
        seen.append(card)
        hand.play(seat, card)
    assert sorted(seen) == list(range(52)), "each card played exactly once"
    assert len(hand.tricks) == 13 and all(len(t.plays) == 4 for t in hand.tricks)
    result = hand.result
    assert result is not None
    assert sum(result.penalty) == 26
    jack = -10 if rules.jack_of_diamonds else 0
    if result.moon is None:
        assert sum(result.points) == 26 + jack
    else:
        assert result.penalty[result.moon] == 26
        assert sum(result.points) in (78 + jack, -26 + jack)
    # the winner of each trick played the highest card of the led suit
    for trick in hand.tricks:
        led = trick.plays[0][1].suit
        best = max(c for _, c in trick.plays if c.suit == led)
        assert dict((c, s) for s, c in trick.plays)[best] == trick.winner


@settings(max_examples=25, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32), steps=st.integers(0, 400))
def test_record_replay_reproduces_the_game(rules, seed, steps):
    rng = random.Random(seed)
    match = Match(rules, seed=str(seed))
    for _ in range(steps):
        if match.is_over:
            break
        if match.phase is Phase.HAND_OVER:
            match.apply(NextHand())
            continue
        seat = match.to_act[rng.randrange(len(match.to_act))]  # passes in any order
        match.apply(random_action(match.view(seat), rng))
    again = match_from_record(match_to_record(match))
    assert match_to_record(again) == match_to_record(match)
    assert again.scores == match.scores and again.phase is match.phase and again.turn == match.turn
    assert all(again.cards(s) == match.cards(s) for s in Seat)
    if not match.is_over:
        assert all(again.view(s) == match.view(s) for s in Seat)


@settings(max_examples=300, deadline=None)
@given(
    hand=st.integers(0, 2**52 - 1),
    led=st.integers(-1, 3),
    trick=st.integers(0, 12),
    broken=st.booleans(),
    forbidden=st.sampled_from([0, 1 << 36, (1 << 36) | (((1 << 13) - 1) << 39)]),
)
def test_legal_mask_is_a_non_empty_subset(hand, led, trick, broken, forbidden):
    if trick == 0 and led < 0:
        hand |= 1  # the first leader holds the 2♣
    if hand == 0:
        return
    legal = legal_mask(hand, led, trick, broken, forbidden)
    assert legal and legal & ~hand == 0
