"""What the opponents' plays reveal (lab.inference), and the worlds dealt by it."""

from __future__ import annotations

import random

from hearts import Hand, Rules, Seat, parse_cards
from hearts.bots.knowledge import Knowledge
from hearts.bots.worlds import WorldSampler
from hearts.seats import PassDirection
from lab.inference import read_plays, reading_sampler


def hold_hand(spec: dict[Seat, str]) -> Hand:
    """A hold hand: the named seats hold these cards, the last seat the rest."""
    hands = {seat: [int(c) for c in parse_cards(text)] for seat, text in spec.items()}
    used = {c for cards in hands.values() for c in cards}
    rest = [c for c in range(52) if c not in used]
    for seat in Seat:
        hands.setdefault(seat, rest)
    return Hand([hands[s] for s in Seat], Rules(), PassDirection.HOLD)


def play_all(hand: Hand, cards: str) -> None:
    for card in parse_cards(cards):
        assert hand.turn is not None
        hand.play(hand.turn, card)


def _mask(text: str) -> int:
    mask = 0
    for card in parse_cards(text):
        mask |= 1 << int(card)
    return mask


SPEC = {
    Seat.SOUTH: "2C 3C 4C 5C 2D 3D 4D 5D 2S 3S 4S 2H 3H",
    Seat.WEST: "6C 9C JC 6D 7D 8D 5S 6S 7S 4H 5H 6H 7H",
    Seat.NORTH: "7C 8C TC QC KC AC 9D TD 8S 9S TS 8H 9H",
}


def test_a_duck_and_a_discard_say_which_cards_a_seat_does_not_hold() -> None:
    hand = hold_hand(SPEC)  # east holds the rest: JD QD KD AD, JS QS KS AS, TH JH QH KH AH
    play_all(hand, "2C 9C KC")
    k = Knowledge(hand.view(Seat.EAST))
    reading = read_plays(k)
    # On the first trick a club follower plays its highest club: west's 9C says "no higher
    # club" (west does hold the JC, but it has not shown it yet, so that reading stands).
    assert reading.avoid[int(Seat.WEST)] & _mask("TC QC AC") == _mask("TC QC AC")
    # North went over the 9C with the KC on the first trick: its highest club, so no AC.
    assert reading.avoid[int(Seat.NORTH)] >> int(parse_cards("AC")[0]) & 1


def test_a_void_discard_of_a_side_card_denies_the_queen_and_high_hearts() -> None:
    hand = hold_hand(SPEC)
    play_all(hand, "2C 6C 7C")
    assert not [c for c in hand.cards(Seat.EAST) if c.suit == 0]  # east is void in clubs
    play_all(hand, "JD")  # a side card, not the A♠/K♠ (hearts and the Q♠ are barred on the first trick)
    k = Knowledge(hand.view(Seat.SOUTH))
    reading = read_plays(k)
    east_avoid = reading.avoid[int(Seat.EAST)]
    assert east_avoid >> int(parse_cards("AS")[0]) & 1 and east_avoid >> int(parse_cards("KS")[0]) & 1
    assert not east_avoid >> int(parse_cards("QS")[0]) & 1  # barred on the first trick: no reading


def test_a_seat_that_plays_a_card_it_could_not_hold_counts_a_deviation() -> None:
    hand = hold_hand(SPEC)
    play_all(hand, "2C 6C 7C")  # west went over the 2C with the 6C on the first trick: "no higher club"
    play_all(hand, "AD")  # east (void) throws the AD; north won the trick with the 7C
    play_all(hand, "TC KD 3C JC")  # north leads the TC, east discards, south ducks, west shows the JC
    k = Knowledge(hand.view(Seat.EAST))
    reading = read_plays(k)
    west = int(Seat.WEST)
    assert reading.deviations[west] >= 1 and reading.readings[west] >= reading.deviations[west]
    # north too: its 7C on the first trick was not its highest club (it led the TC next)
    assert reading.deviations[int(Seat.NORTH)] == 1
    assert reading.deviation_rate(west, 0.1, 4.0) > reading.deviation_rate(int(Seat.SOUTH), 0.1, 4.0) == 0.1


def test_trusted_readings_steer_the_sampled_worlds() -> None:
    hand = hold_hand(SPEC)
    play_all(hand, "2C 6C 7C AD KC")  # north won the first trick and leads the KC; east to play
    east = hand.turn
    assert east is not None
    view = hand.view(east)
    k = Knowledge(view)
    reading = read_plays(k)
    seat = next(s for s in range(4) if s != k.me and reading.avoid[s])
    avoid = reading.avoid[seat]
    plain = WorldSampler(k)
    trusting = reading_sampler(k, reading, [0.97] * 4)
    hits_plain = hits_trusting = 0
    for i in range(300):
        hits_plain += bin(plain(random.Random(i))[seat] & avoid).count("1")
        hits_trusting += bin(trusting(random.Random(i))[seat] & avoid).count("1")
    assert hits_trusting < hits_plain / 3
