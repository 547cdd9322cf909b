import random
from collections.abc import MutableSequence
from typing import Any

from hearts import Hand, PlayCard, Rules, Seat, random_deal, score_hand
from lab.playouts import position_from_hand, random_playout


def step(hand: Hand, rng: random.Random) -> None:
    """One random legal card by the seat to play (the hands here are hold hands: no pass)."""
    seat = hand.to_act[0]
    hand.apply(PlayCard(seat, rng.choice(hand.view(seat).legal)))


def test_playouts_deal_every_card_once_and_score_26() -> None:
    rng = random.Random(1)
    for i in range(300):
        rules = Rules(queen_breaks_hearts=bool(i % 2))
        hand = Hand(random_deal(rng), rules, hand_number=3)
        for _ in range(rng.randrange(0, 40)):
            step(hand, rng)
        taken = random_playout(position_from_hand(hand), rules, rng)
        assert sum(bin(m).count("1") for m in taken) == 52
        assert sum(score_hand(taken, rules).penalty) == 26


def test_playout_matches_engine_legality() -> None:
    """Replaying a playout's tricks through the engine must be legal: rebuild one and check."""
    rng = random.Random(2)
    for _ in range(100):
        rules = Rules()
        hand = Hand(random_deal(rng), rules, hand_number=3)
        pos = position_from_hand(hand)
        seed = rng.random()
        # a recording playout: patch shuffle so we know the order used
        orders: list[list[int]] = []

        class Recorder(random.Random):
            def shuffle(self, x: MutableSequence[Any]) -> None:  # random.Random.shuffle's own signature
                super().shuffle(x)
                orders.append(list(x))  # noqa: B023 (used within this iteration)

        taken = random_playout(pos, rules, Recorder(seed))
        # the engine with the same policy: first card of the seat's order that is legal
        while hand.turn is not None:
            seat = hand.turn
            legal = set(hand.legal_plays(seat))
            card = next(c for c in orders[seat] if c in legal)
            orders[seat].remove(card)
            hand.play(seat, card)
        assert [hand.taken_mask(s) for s in Seat] == taken
