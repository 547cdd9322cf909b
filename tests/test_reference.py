"""The engine against a naive, independent reading of the rules, on thousands of random hands.

The reference below is written straight from the rules text with strings and sets, sharing
no code with the engine; every position of every game must give the same legal cards, trick
winners and scores.
"""

import random

import pytest

from hearts import PRESETS, Hand, Phase, random_deal

SUITS = "CDSH"
RANKS = "23456789TJQKA"


def ref_legal(hand: set[str], trick: list[str], first_trick: bool, hearts_broken: bool, rules) -> set[str]:
    if not trick:
        if first_trick:
            return {"2C"}
        non_hearts = {c for c in hand if c[1] != "H"}
        if not hearts_broken and non_hearts:
            return non_hearts
        return set(hand)
    led = trick[0][1]
    same = {c for c in hand if c[1] == led}
    if same:
        return same
    if first_trick:
        barred = set()
        if rules.first_trick.value in ("hearts_and_queen", "queen_only"):
            barred.add("QS")
        if rules.first_trick.value == "hearts_and_queen":
            barred |= {c for c in hand if c[1] == "H"}
        allowed = set(hand) - barred
        if allowed:
            return allowed
    return set(hand)


def ref_winner(trick: list[str]) -> int:
    led = trick[0][1]
    best = max((RANKS.index(c[0]), i) for i, c in enumerate(trick) if c[1] == led)
    return best[1]


def ref_score(taken: list[set[str]], rules) -> list[int]:
    raw = [sum(1 for c in cards if c[1] == "H") + (13 if "QS" in cards else 0) for cards in taken]
    if 26 in raw and rules.moon.value == "add_to_others":
        points = [0 if r == 26 else 26 for r in raw]
    elif 26 in raw and rules.moon.value == "subtract_from_shooter":
        points = [-26 if r == 26 else 0 for r in raw]
    else:
        points = raw
    if rules.jack_of_diamonds:
        points = [p - 10 if "JD" in cards else p for p, cards in zip(points, taken)]
    return points


@pytest.mark.parametrize(
    "preset", ["standard", "classic", "king", "omnibus", "queen_breaks", "no_first_rule", "moon_minus"]
)
def test_engine_agrees_with_the_reference(preset):
    from hearts import FirstTrick, MoonScoring

    extra = {
        "queen_breaks": PRESETS["standard"].replace(queen_breaks_hearts=True),
        "no_first_rule": PRESETS["standard"].replace(first_trick=FirstTrick.NONE),
        "moon_minus": PRESETS["standard"].replace(moon=MoonScoring.SUBTRACT_FROM_SHOOTER),
    }
    rules = extra.get(preset) or PRESETS[preset]
    rng = random.Random(preset)
    for game in range(400):
        hand = Hand(random_deal(rng), rules, hand_number=game % 4)
        while hand.phase is Phase.PASSING:
            seat = hand.waiting_for_pass[0]
            hand.choose_pass(seat, rng.sample(hand.legal_pass_cards(seat), 3))
        hands = [{c.text for c in hand.cards(s)} for s in range(4)]
        taken: list[set[str]] = [set(), set(), set(), set()]
        broken = False
        trick: list[str] = []
        leader = next(s for s in range(4) if "2C" in hands[s])
        for t in range(13):
            for k in range(4):
                seat = (leader + k) % 4
                assert hand.turn == seat
                expected = ref_legal(hands[seat], trick, t == 0, broken, rules)
                assert {c.text for c in hand.legal_plays()} == expected, (game, t, k)
                # sometimes try an illegal card and check it is refused
                illegal = sorted(hands[seat] - expected)
                if illegal and rng.random() < 0.3:
                    assert not hand.can_play(seat, rng.choice(illegal))
                card = rng.choice(sorted(expected))
                hand.play(seat, card)
                hands[seat].discard(card)
                trick.append(card)
                if card[1] == "H" or (card == "QS" and rules.queen_breaks_hearts):
                    broken = True
            winner = (leader + ref_winner(trick)) % 4
            assert hand.tricks[-1].winner == winner
            taken[winner] |= set(trick)
            leader, trick = winner, []
        assert hand.result is not None and list(hand.result.points) == ref_score(taken, rules)
