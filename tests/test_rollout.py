"""The rollout policy (hearts.bots.rollout): legal cards only, and each habit in a position built for it."""

from __future__ import annotations

import random

from hearts import Card, Hand, PlayCard, Rules, Seat, random_deal
from hearts.bots.rollout import (
    HI,
    LO,
    NEVER,
    RolloutPolicy,
    Rollouts,
    SeenAt,
    Start,
    block,
    discard,
    follow,
    lead,
    random_card,
    split_hands,
    start_at,
    trick_so_far,
)
from hearts.bots.worlds import random_pool
from hearts.cards import mask_of, parse_cards
from hearts.rules import FirstTrick

RANK = {r: i for i, r in enumerate("23456789TJQKA")}


def step(hand: Hand, rng: random.Random) -> None:
    """One random legal card by the seat to play (the hands here are hold hands: no pass)."""
    seat = hand.to_act[0]
    hand.apply(PlayCard(seat, rng.choice(hand.view(seat).legal)))


def start_of(hand: Hand) -> Start:
    """Where a playout of the engine's ``hand`` starts."""
    on_table = tuple(int(c) for _, c in hand.current_trick)
    leader = int(hand.current_trick[0][0]) if on_table else int(hand.turn)  # type: ignore[arg-type]
    taken = [hand.taken_mask(s) for s in Seat]
    return start_at(
        leader,
        on_table,
        hand.trick_number,
        hand.hearts_broken,
        tuple(bin(t >> 39).count("1") for t in taken),
        next((s for s in range(4) if taken[s] >> 36 & 1), -1),
        next((s for s in range(4) if taken[s] >> 22 & 1), -1),
    )


class _RecordingHands(list):  # type: ignore[type-arg]
    """The hands list handed to the rollout (``hands[seat * 4 + suit]``, 13-bit rank masks); it
    records every card a seat gives up, in order (the rollout updates one entry per card)."""

    def __init__(self, hands: list[int]) -> None:
        super().__init__(hands)
        self.plays: list[tuple[int, int]] = []

    def __setitem__(self, index, value):  # type: ignore[no-untyped-def]
        gone = self[index] & ~value
        assert gone and gone & (gone - 1) == 0, "one card at a time"
        seat, suit = divmod(index, 4)
        self.plays.append((seat, suit * 13 + gone.bit_length() - 1))
        super().__setitem__(index, value)


def test_heuristic_rollouts_play_only_legal_cards() -> None:
    """Every card of the rollout policy (moon plans, blockers, noise, every habit) is legal for
    the engine, and the engine's tricks match the rollout's result."""
    rng = random.Random(4)
    for i in range(600):
        rules = Rules(
            queen_breaks_hearts=bool(i % 2),
            jack_of_diamonds=bool(i % 3 == 0),
            first_trick=(FirstTrick.HEARTS_AND_QUEEN, FirstTrick.QUEEN_ONLY, FirstTrick.NONE)[i % 5 % 3],
        )
        hand = Hand(random_deal(rng), rules, hand_number=3)
        for _ in range(rng.randrange(0, 40) if i % 3 else rng.randrange(0, 4)):  # the first trick is special
            step(hand, rng)
        hands = _RecordingHands(split_hands([hand.cards_mask(s) for s in Seat]))
        me = rng.randrange(4)
        policy = RolloutPolicy(
            medium_habits=i % 4 < 2,
            full_defence=i % 5 < 3,
            clean_last=i % 7 < 3,
            my_moon_seen_at=rng.choice([0, 8, 14]),
            runner_seen_at=rng.choice([0, 8, NEVER]),
        )
        got = Rollouts(policy, rules, me).play(
            hands,
            start_of(hand),
            random_pool(random.Random(i), 90),
            rng.randrange(8192),
            shooter=rng.choice([-1, -1, 0, 1, 2, 3]),
            watcher=rng.choice([-1, me]),
        )
        assert len(hands.plays) == 52 - len(hand.plays), "the rollout must play every remaining card"
        for seat, card in hands.plays:
            assert hand.turn == seat, (seat, card)
            hand.play(Seat(seat), card)  # raises IllegalAction on an illegal card
        taken = [hand.taken_mask(s) for s in Seat]
        assert got == (
            [bin(t >> 39).count("1") for t in taken],
            next((s for s in range(4) if taken[s] >> 36 & 1), -1),
            next((s for s in range(4) if taken[s] >> 22 & 1), -1),
        )


def test_rollouts_respect_the_first_trick_when_a_seat_is_void_in_clubs() -> None:
    """The rare case random deals almost never reach: a void seat on the first trick (noisy or
    not) must not discard a heart or the Q♠ while it holds anything else."""
    from helpers import make_deal

    deal = make_deal({Seat.WEST: "2D 3D 4D QS 2H 3H 4H 5H 6H 7H 8H 9H TH"})
    for i in range(200):
        hand = Hand(deal, Rules(), hand_number=3)
        hands = _RecordingHands(split_hands([hand.cards_mask(s) for s in Seat]))
        me = (int(Seat.WEST) + 1 + i % 3) % 4  # West plays noisy cards (the searching seat plays none)
        Rollouts(RolloutPolicy(medium_habits=bool(i % 2)), Rules(), me).play(
            hands, start_of(hand), random_pool(random.Random(i), 90), i
        )
        for seat, card in hands.plays:
            hand.play(Seat(seat), card)  # raises IllegalAction on a barred first-trick discard


def _mask(text: str) -> int:
    return mask_of(int(c) for c in parse_cards(text))


def _moon_trick(seen_at: SeenAt, watcher: int) -> list[str]:
    """Trick 6: West (shooting, with 4 hearts, the Q♠ still out) led the 9♥; the plays of that
    trick by North, East and South. ``watcher`` 0: South searches and watches West, a moon runner
    (``runner_seen_at``); -1: West's moon is the searching seat's own (``my_moon_seen_at``)."""
    hands = _RecordingHands(
        split_hands(
            [
                _mask("AH JH 5H 2S 3S 4S 5S QS"),
                _mask("AC KC QC JC TC 9C 8C"),
                _mask("TH KH 3H 2D 3D 4D 5D 6D"),
                _mask("QH 4H 7D 8D 9D TD JD QD"),
            ]
        )
    )
    policy = RolloutPolicy(medium_habits=True, full_defence=True, my_moon_seen_at=seen_at, runner_seen_at=seen_at)
    start = start_at(1, (int(Card.parse("9H")),), 5, True, (0, 4, 0, 0), -1, -1)
    Rollouts(policy, Rules(), 0).play(hands, start, [0.5] * 90, 0, shooter=1, watcher=watcher)
    return [Card(c).text for _, c in hands.plays[:3]]


def test_late_defence_blocks_a_runner_from_the_watching_seat_with_the_cheapest_winner() -> None:
    """Below the threshold the other seats do not see the shooter yet (they duck as usual); the
    seat watching a runner does, and takes the heart trick with its cheapest winner."""
    assert _moon_trick(8, watcher=0) == ["3H", "4H", "JH"]  # North, East duck; South blocks
    assert _moon_trick(8, watcher=-1) == ["3H", "4H", "5H"]  # nobody sees a runner at 4 points
    assert _moon_trick(4, watcher=-1) == ["TH", "4H", "5H"]  # at 4 >= 4 North blocks, cheaply
    assert _moon_trick(0, watcher=-1) == ["KH", "QH", "JH"]  # seen at once: with the highest heart
    assert _moon_trick(NEVER, watcher=0) == ["3H", "4H", "JH"]  # never seen: only the watcher blocks, cheaply
    assert _moon_trick(NEVER, watcher=-1) == ["3H", "4H", "5H"]


def _plays(hands_text: list[str], leader: int, trick: str, policy: RolloutPolicy = RolloutPolicy()) -> list[str]:  # noqa: B008 (frozen)
    """The cards a rollout without noise (every seat is the searching one's) plays from trick 6
    on, no points taken yet."""
    hands = _RecordingHands(split_hands([_mask(t) for t in hands_text]))
    on_table = tuple(int(c) for c in parse_cards(trick)) if trick else ()
    rollouts = Rollouts(policy, Rules(), 0)
    rollouts.noise = (0.0, 0.0, 0.0, 0.0)
    rollouts.play(hands, start_at(leader, on_table, 5, False, (0, 0, 0, 0), -1, -1), [0.5] * 200, 0)
    assert hands.plays[0][0] == (leader + len(on_table)) % 4, "the seat to play plays first"
    return [Card(card).text for _, card in hands.plays]


def test_clean_last_wins_a_trick_without_points_with_its_highest_card() -> None:
    """``clean_last``: South is last to a diamond trick with no points in it (5D 9D 3D). Without it
    South ducks as high as it can (8D) and keeps the AD, a card that may win a point trick later;
    with it South takes this trick, which costs nothing, with the AD."""
    table = ["2D 8D KD AD 2C 3C 4C 5C", "6C 7C 2S 3S 4S 5S 6S", "8C 9C 7S 8S 9S TS JS", "TC JC 2H 3H 4H 5H 6H"]
    assert _plays(table, 1, "5D 9D 3D")[0] == "8D"
    assert _plays(table, 1, "5D 9D 3D", RolloutPolicy(clean_last=True))[0] == "AD"
    # with a point on the trick nothing changes: South still ducks
    hearts_on = ["2D 8D KD AD 2C 3C 4C 5C", "6C 7C 2S 3S 4S 5S 6S", "8C 9C 7S 8S 9S TS JS", "TC JC 2H 3H 4H 5H 7D"]
    assert _plays(hearts_on, 1, "5D 9D 6H", RolloutPolicy(clean_last=True))[0] == "8D"


def _suits(text: str) -> list[int]:
    """A hand's four 13-bit rank masks."""
    return split_hands([_mask(text)])


def test_lead_low_never_into_ones_own_queen_and_flush_her() -> None:
    hands = _suits("5C 9C 4S QS KH")
    assert lead(hands, 0, 5, False, 0.7, True, False) == (0, RANK["5"])  # the lowest card, hearts unbroken
    assert lead(_suits("9C 4S 8S"), 0, 5, False, 0.5, True, False) == (2, RANK["8"])  # flush the queen
    assert lead(_suits("9C 4S 8S"), 0, 5, False, 0.7, True, False) == (2, RANK["4"])  # not this time: lowest
    assert lead(_suits("9C 4S 8S AS"), 0, 5, False, 0.5, True, False) == (2, RANK["4"])  # with the A♠: no flush
    assert lead(_suits("2S 3S QS 2H"), 0, 5, True, 0.7, True, False) == (3, RANK["2"])  # spades into her: never
    assert lead(_suits("9D 2S QS"), 0, 5, False, 0.7, True, False) == (1, RANK["9"])
    assert lead(_suits("5C 9C 2H"), 0, 5, True, 0.7, True, False) == (0, RANK["5"])  # a heart only 3 ranks lower
    assert lead(_suits("8C 9C 2H"), 0, 5, True, 0.7, True, False) == (3, RANK["2"])
    assert lead(_suits("5C 9C AH"), 0, 5, True, 0.7, True, True) == (3, RANK["A"])  # a shooter: its highest
    assert lead(_suits("2C 9C"), 0, 0, False, 0.7, True, False) == (0, 0)  # the first trick: the 2♣


def test_follow_ducks_as_high_as_it_can_and_else_plays_by_the_suit() -> None:
    clubs = _suits("3C 8C QC")[0]
    below = clubs & ((1 << RANK["T"]) - 1)  # under a T♣
    assert follow(clubs, below, 0, False, 0, True, False, False) == RANK["8"]
    over = _suits("JC QC")[0]  # cannot duck a T♣
    assert follow(over, 0, 0, False, 0, True, False, False) == RANK["Q"]  # the highest
    assert follow(over, 0, 0, False, 0, True, False, True) == RANK["J"]  # Medium's habit: the lowest
    assert follow(over, 0, 0, True, 0, True, False, True) == RANK["Q"]  # ... unless last
    spades = _suits("QS KS AS")[2]  # over a J♠, the queen still out
    assert follow(spades, 0, 2, False, 0, True, False, False) == RANK["K"]  # not the Q♠, and keep the A♠
    assert follow(spades, 0, 2, True, 0, True, False, False) == RANK["A"]  # last: the highest but the Q♠


def test_block_takes_a_shooters_point_trick_or_keeps_the_high_cards() -> None:
    hearts = _suits("4H 9H KH")[3]
    below = hearts & ((1 << RANK["8"]) - 1)  # the shooter leads the 8♥
    assert block(hearts, below, 3, 1, False, False) == RANK["K"]  # at once: the highest
    assert block(hearts, below, 3, 1, False, True) == RANK["9"]  # late: the cheapest winner
    clubs = _suits("4C 9C")[0]
    below = clubs & ((1 << RANK["8"]) - 1)
    assert block(clubs, below, 0, 0, True, False) == RANK["4"]  # no points: keep the 9♣, follow low
    assert block(clubs, below, 0, 1, True, True) == RANK["9"]  # points on it: take it (full defence)
    assert block(clubs, below, 0, 1, False, True) == -1  # otherwise only heart tricks: follow as usual


def test_discard_dumps_the_queen_then_spades_then_hearts() -> None:
    assert discard(_suits("9C QS AS 2H"), 0, 0, 0, False, False, True, False) == (2, RANK["Q"])
    assert discard(_suits("9C AS 2H"), 0, 0, 0, False, False, True, False) == (2, RANK["A"])
    assert discard(_suits("9C AS 2H"), 0, 0, 0, False, False, False, False) == (3, RANK["2"])  # queen gone
    assert discard(_suits("9C 2H"), 0, 0, 0, False, False, True, True) == (0, RANK["9"])  # Medium keeps a low heart
    assert discard(_suits("9C 3D 4D 2H"), 0, 0, 0, False, False, True, True) == (0, RANK["9"])  # the short suit's
    assert discard(_suits("9C QS 2H"), 0, 0, 0, True, False, True, False) == (0, RANK["9"])  # a shooter: low, keeps Q♠
    assert discard(_suits("9C QS 2H"), 0, 0, 0, False, True, True, False) == (0, RANK["9"])  # feed no shooter


def test_a_random_card_is_legal_and_covers_the_choices() -> None:
    hands = _suits("2C 3C 4S QS 2H")
    follows = hands[0]
    assert {random_card(hands, 0, follows, 0, 0, 0, x / 10) for x in range(10)} == {(0, 0), (0, 1)}
    void = {random_card(hands, 0, 0, 1, 0, 0, x / 20) for x in range(20)}
    assert void == {(0, 0), (0, 1), (2, RANK["4"]), (2, RANK["Q"]), (3, 0)}
    barred = {random_card(hands, 0, 0, 0, 1 << RANK["Q"], (1 << 13) - 1, x / 20) for x in range(20)}
    assert barred == {(0, 0), (0, 1), (2, RANK["4"])}  # the first trick: no heart, no Q♠


def test_the_trick_so_far() -> None:
    cards = tuple(int(Card.parse(c)) for c in ("5D", "QS", "9D", "JD"))
    assert trick_so_far(cards, 2) == (1, RANK["J"], 1, 0, True, True)  # the J♦ of seat 1 wins
    assert trick_so_far((), 3) == (-1, -1, 3, 0, False, False)
    assert HI[0b1010] == 3 and LO[0b1010] == 1
