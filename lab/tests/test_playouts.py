import random

from hearts import Hand, PlayCard, Rules, Seat, random_deal, score_hand
from lab.playouts import position_from_hand, random_playout


def step(hand: Hand, rng: random.Random) -> None:
    """One random legal card by the seat to play (the hands here are hold hands: no pass)."""
    seat = hand.to_act[0]
    hand.apply(PlayCard(seat, rng.choice(hand.view(seat).legal)))


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
    """The hands list handed to the rollout (``hands[seat * 4 + suit]``, 13-bit rank masks); it
    records every card a seat gives up, in order (the rollout updates one entry per card)."""

    def __init__(self, hands):
        super().__init__(hands)
        self.plays = []

    def __setitem__(self, index, value):
        gone = self[index] & ~value
        assert gone and gone & (gone - 1) == 0, "one card at a time"
        seat, suit = divmod(index, 4)
        self.plays.append((seat, suit * 13 + gone.bit_length() - 1))
        super().__setitem__(index, value)


def test_heuristic_rollouts_play_only_legal_cards():
    """Every card of the bots' rollout policy (moon plans, blockers, noise, both versions' habits)
    is legal for the engine, and the engine's tricks match the rollout's."""
    from hearts.bots.rollout import RolloutRules, playout, random_pool, split_hands

    rng = random.Random(4)
    for i in range(600):
        rules = Rules(queen_breaks_hearts=bool(i % 2), jack_of_diamonds=bool(i % 3 == 0))
        hand = Hand(random_deal(rng), rules, hand_number=3)
        for _ in range(rng.randrange(0, 40) if i % 3 else rng.randrange(0, 4)):  # the first trick is special
            step(hand, rng)
        pos = position_from_hand(hand)
        hands = _RecordingHands(split_hands(pos.hands))
        hearts = [bin(t >> 39).count("1") for t in pos.taken]
        queen = next((s for s in range(4) if pos.taken[s] >> 36 & 1), -1)
        jack = next((s for s in range(4) if pos.taken[s] >> 22 & 1), -1)
        me = rng.randrange(4)
        noise = [0.0 if s == me else rng.choice([0.0, 0.3, 1.0]) for s in range(4)]
        pool = random_pool(random.Random(i), 90)
        got = playout(hands, pos.leader, list(pos.trick), pos.trick_number, pos.hearts_broken, hearts, queen, jack,
                      RolloutRules(rules), pool, shooter=rng.choice([-1, -1, 0, 1, 2, 3]), noise=noise,
                      medium=bool(i % 4 < 2), defend=bool(i % 5 < 3), ri=rng.randrange(8192),
                      eager=rng.choice([-1, me]), late=rng.choice([0, 0, 8, 14]), counted=bool(i % 6 < 3),
                      clean=bool(i % 7 < 3), short=bool(i % 8 < 3))
        assert len(hands.plays) == 52 - len(hand.plays), "the rollout must play every remaining card"
        for seat, card in hands.plays:
            assert hand.turn == seat, (seat, card)
            hand.play(Seat(seat), card)  # raises IllegalAction on an illegal card
        taken = [hand.taken_mask(s) for s in Seat]
        assert got == ([bin(t >> 39).count("1") for t in taken],
                       next((s for s in range(4) if taken[s] >> 36 & 1), -1),
                       next((s for s in range(4) if taken[s] >> 22 & 1), -1))


def test_rollouts_respect_the_first_trick_when_a_seat_is_void_in_clubs():
    """The rare case random deals almost never reach: a void seat on the first trick (noisy or
    not) must not discard a heart or the Q♠ while it holds anything else."""
    from hearts.bots.rollout import RolloutRules, playout, random_pool, split_hands
    from helpers import make_deal

    deal = make_deal({Seat.WEST: "2D 3D 4D QS 2H 3H 4H 5H 6H 7H 8H 9H TH"})
    for i in range(200):
        hand = Hand(deal, Rules(), hand_number=3)
        masks = [hand.cards_mask(s) for s in Seat]
        hands = _RecordingHands(split_hands(masks))
        leader = next(s for s in range(4) if masks[s] & 1)
        noise = [1.0 if s == int(Seat.WEST) else 0.0 for s in range(4)]
        playout(hands, leader, [], 0, False, [0, 0, 0, 0], -1, -1, RolloutRules(Rules()), random_pool(random.Random(i), 90),
                noise=noise, medium=bool(i % 2), ri=i)
        for seat, card in hands.plays:
            hand.play(Seat(seat), card)  # raises IllegalAction on a barred first-trick discard


def _moon_trick(late: int, eager: int) -> list[tuple[int, int]]:
    """Trick 6 (t = 5): West (a moon runner with 4 hearts, the Q♠ still out) led the 9♥; the
    plays of that trick by North, East and South (the seat ``eager`` watches the runner)."""
    from hearts import Card
    from hearts.bots.rollout import RolloutRules, playout, random_pool, split_hands

    def mask(text: str) -> int:
        return sum(1 << int(Card.parse(c)) for c in text.split())

    south = mask("AH JH 5H 2S 3S 4S 5S QS")
    west = mask("AC KC QC JC TC 9C 8C")
    north = mask("TH KH 3H 2D 3D 4D 5D 6D")
    east = mask("QH 4H 7D 8D 9D TD JD QD")
    hands = _RecordingHands(split_hands([south, west, north, east]))
    playout(hands, 1, [int(Card.parse("9H"))], 5, True, [0, 4, 0, 0], -1, -1, RolloutRules(Rules()),
            random_pool(random.Random(1), 90), shooter=1, medium=True, defend=True, eager=eager, late=late)
    return hands.plays[:3]


def test_late_defence_blocks_a_runner_from_the_watching_seat_with_the_cheapest_winner():
    """Version 3: below ``late`` points the other seats do not see the runner yet (they duck as
    usual); the searching seat does, and takes the heart trick with its cheapest winner."""
    from hearts import Card

    def texts(plays: list[tuple[int, int]]) -> list[str]:
        return [Card(c).text for _, c in plays]

    assert texts(_moon_trick(late=8, eager=0)) == ["3H", "4H", "JH"]  # North, East duck; South blocks
    assert texts(_moon_trick(late=8, eager=-1)) == ["3H", "4H", "5H"]  # nobody sees a runner at 4 points
    assert texts(_moon_trick(late=4, eager=-1)) == ["TH", "4H", "5H"]  # at 4 >= 4 North blocks, cheaply
    assert texts(_moon_trick(late=0, eager=-1)) == ["KH", "QH", "JH"]  # version 2: with its highest heart


def test_counted_leads_lead_the_surest_loser_and_never_a_suit_nobody_can_follow() -> None:
    """``counted``: the leader counts the cards still out. With 7C (every lower club gone) and 5D
    (2D 3D 4D still out) the plain policy leads its lowest rank, the 5D, which can still win; the
    counted lead is the 7C. With the last diamond, 2D, it leads a club instead: nobody could
    follow the 2D, and the trick with whatever the others throw on it would be its own."""
    def first_lead(hands_text: list[str], counted: bool) -> str:
        return _plays(hands_text, 0, "", counted=counted)[0]

    table = ["7C 8C 5D 6D AH KH QH JH", "9C 2D 3D 2S 3S 4S 5S 6S", "TC 4D 7D 8D 7S 8S 9S TS", "JC 9D TD JD 2H 3H 4H 5H"]
    assert first_lead(table, counted=False) == "5D"
    assert first_lead(table, counted=True) == "7C"
    last = ["9C 2D AH KH QH JH TH 9H", "2C 3C 4C 2S 3S 4S 5S 6S", "5C 6C 7S 8S 9S TS 8H 7H", "7C 8C JS 2H 3H 4H 5H 6H"]
    assert first_lead(last, counted=False) == "2D"
    assert first_lead(last, counted=True) == "9C"


def _plays(hands_text: list[str], leader: int, trick: str, **switches: bool) -> list[str]:
    """The cards a plain rollout (no noise) plays from trick 6 on, no points taken yet."""
    from hearts import Card
    from hearts.bots.rollout import RolloutRules, playout, split_hands
    from hearts.cards import mask_of, parse_cards

    hands = _RecordingHands(split_hands([mask_of(int(c) for c in parse_cards(t)) for t in hands_text]))
    on_table = [int(c) for c in parse_cards(trick)] if trick else []
    playout(hands, leader, on_table, 5, False, [0, 0, 0, 0], -1, -1, RolloutRules(Rules()), [0.5] * 200, **switches)
    assert hands.plays[0][0] == (leader + len(on_table)) % 4, "the seat to play plays first"
    return [str(Card(card)) for _, card in hands.plays]


def test_clean_last_wins_a_trick_without_points_with_its_highest_card() -> None:
    """``clean``: South is last to a diamond trick with no points in it (5D 9D 3D). The plain
    policy ducks as high as it can (8D) and keeps the AD, a card that may win a point trick
    later; with ``clean`` it takes this trick, which costs nothing, with the AD."""
    table = ["2D 8D KD AD 2C 3C 4C 5C", "6C 7C 2S 3S 4S 5S 6S", "8C 9C 7S 8S 9S TS JS", "TC JC 2H 3H 4H 5H 6H"]
    assert _plays(table, 1, "5D 9D 3D")[0] == "8D"
    assert _plays(table, 1, "5D 9D 3D", clean=True)[0] == "AD"
    # with a point on the trick nothing changes: South still ducks
    hearts_on = ["2D 8D KD AD 2C 3C 4C 5C", "6C 7C 2S 3S 4S 5S 6S", "8C 9C 7S 8S 9S TS JS", "TC JC 2H 3H 4H 5H 7D"]
    assert _plays(hearts_on, 1, "5D 9D 6H", clean=True)[0] == "8D"


def test_short_leads_lead_the_lowest_card_of_the_shortest_suit() -> None:
    """``short``: the leader empties its shortest suit (the plain policy leads its lowest rank);
    a lone A♠ while the Q♠ is out is not led (it would catch the queen)."""
    others = ["5C 6C 2S 3S 4S 5S 6S 2D", "8C 9C 7S 8S QS TS JS 3D", "TC JC 2H 3H 4H 5H 6H 4D"]
    assert _plays(["2C 3C 4C 7D 9S KS AH 8H"] + others, 0, "")[0] == "2C"
    assert _plays(["2C 3C 4C 7D 9S KS AH 8H"] + others, 0, "", short=True)[0] == "7D"
    assert _plays(["2C 3C 4C AS 8D 9D 7H 8H"] + others, 0, "", short=True)[0] == "8D"
