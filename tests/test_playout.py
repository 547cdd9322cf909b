import random

from hearts import Hand, Rules, Seat, random_deal, score_hand
from hearts.playout import position_from_hand, random_playout
from helpers import step


def test_playouts_deal_every_card_once_and_score_26():
    rng = random.Random(1)
    for i in range(300):
        rules = Rules(queen_breaks_hearts=bool(i % 2))
        hand = Hand(random_deal(rng), rules, hand_number=3)
        for _ in range(rng.randrange(0, 40)):
            step(hand, rng)
        taken = random_playout(position_from_hand(hand), rules, rng)
        assert sum(bin(m).count("1") for m in taken) == 52
        assert sum(score_hand(taken, rules).penalty) == 26


def test_playout_matches_engine_legality():
    """Replaying a playout's tricks through the engine must be legal: rebuild one and check."""
    rng = random.Random(2)
    for _ in range(100):
        rules = Rules()
        hand = Hand(random_deal(rng), rules, hand_number=3)
        pos = position_from_hand(hand)
        seed = rng.random()
        # a recording playout: patch shuffle so we know the order used
        orders = []

        class Recorder(random.Random):
            def shuffle(self, x):  # type: ignore[override]
                super().shuffle(x)
                orders.append(list(x))

        taken = random_playout(pos, rules, Recorder(seed))
        # the engine with the same policy: first card of the seat's order that is legal
        while hand.turn is not None:
            seat = hand.turn
            legal = set(hand.legal_plays(seat))
            card = next(c for c in orders[seat] if c in legal)
            orders[seat].remove(card)
            hand.play(seat, card)
        assert [hand.taken_mask(s) for s in Seat] == taken


class _RecordingHands(list):  # type: ignore[type-arg]
    """The hands list handed to the rollout; it records every card a seat gives up, in order.
    (heuristic_playout updates ``hands[seat]`` in place for each card it plays.)"""

    def __init__(self, hands):
        super().__init__(hands)
        self.plays = []

    def __setitem__(self, seat, value):
        gone = self[seat] & ~value
        assert gone and gone & (gone - 1) == 0, "one card at a time"
        self.plays.append((seat, gone.bit_length() - 1))
        super().__setitem__(seat, value)


def test_heuristic_rollouts_play_only_legal_cards():
    """Every card of the bots' rollout policy (moon plans, blockers and noise included) is legal
    for the engine, and the engine's tricks match the rollout's."""
    from hearts.bots.rollout import heuristic_playout

    rng = random.Random(4)
    for i in range(300):
        rules = Rules(queen_breaks_hearts=bool(i % 2), jack_of_diamonds=bool(i % 3 == 0))
        hand = Hand(random_deal(rng), rules, hand_number=3)
        for _ in range(rng.randrange(0, 40)):
            step(hand, rng)
        pos = position_from_hand(hand)
        hands = _RecordingHands(pos.hands)
        taken = heuristic_playout(hands, pos.leader, list(pos.trick), pos.trick_number, pos.hearts_broken,
                                  list(pos.taken), rules, random.Random(i), shooter=rng.choice([-1, -1, 0, 1, 2, 3]),
                                  me=rng.randrange(4), noise=rng.choice([0.0, 0.3, 1.0]))
        assert len(hands.plays) == 52 - len(hand.plays), "the rollout must play every remaining card"
        for seat, card in hands.plays:
            assert hand.turn == seat, (seat, card)
            hand.play(Seat(seat), card)  # raises IllegalAction on an illegal card
        assert [hand.taken_mask(s) for s in Seat] == taken
