"""Random-legal playouts per second: ``python3 -m lab.playouts [--seconds 3] [--seed 1]``.

The policy is "random legal": every seat's remaining cards are shuffled once, and each
turn the seat plays the first card of that order that the rules allow. The legality is the
same as :func:`hearts.trick.legal_mask` (checked against it in the tests), inlined for speed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence

from hearts.cards import QUEEN_OF_SPADES, card_numbers
from hearts.deal import random_deal
from hearts.hand import Hand
from hearts.rules import Rules
from hearts.seats import SEATS

__all__ = ["Position", "random_playout", "position_from_hand", "main"]

_QS = int(QUEEN_OF_SPADES)


class Position:
    """A play-phase position in plain numbers: what a playout starts from.

    ``hands`` are the four seats' card bitmasks; ``trick`` the cards already played to the
    current trick (in order, the first by ``leader``); ``taken`` the cards each seat has won.
    """

    __slots__ = ("hands", "leader", "trick", "trick_number", "hearts_broken", "taken")

    def __init__(
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int] = (),
        trick_number: int = 0,
        hearts_broken: bool = False,
        taken: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        self.hands = list(hands)
        self.leader = leader
        self.trick = list(trick)
        self.trick_number = trick_number
        self.hearts_broken = hearts_broken
        self.taken = list(taken)


def position_from_hand(hand: Hand) -> Position:
    """The play position of an engine :class:`~hearts.hand.Hand` (all hands known: for tests and benchmarks).
    ValueError if the hand is not being played (passing, or over)."""
    if hand.turn is None:
        raise ValueError(f"no play position: the hand is not being played ({hand.phase.value})")
    trick = [c for _, c in hand.current_trick]
    leader = hand.current_trick[0][0] if trick else hand.turn
    return Position(
        [hand.cards_mask(s) for s in SEATS],
        int(leader),
        trick,
        hand.trick_number,
        hand.hearts_broken,
        [hand.taken_mask(s) for s in SEATS],
    )


def random_playout(pos: Position, rules: Rules, rng: random.Random) -> list[int]:
    """Play ``pos`` to the end with random legal cards; return the cards each seat took (bitmasks)."""
    shuffle = rng.shuffle
    lists = []
    for mask in pos.hands:
        cards = card_numbers(mask)
        shuffle(cards)
        lists.append(cards)
    taken = list(pos.taken)
    broken = pos.hearts_broken
    queen_breaks = rules.queen_breaks_hearts
    forbidden = rules.first_trick_forbidden
    leader = pos.leader
    trick = pos.trick
    for t in range(pos.trick_number, 13):
        if trick:
            lead = trick[0]
            seat = leader
            played = trick
        else:
            hand = lists[leader]
            if t == 0:
                lead = 0
            elif broken:
                lead = hand[0]
            else:
                for lead in hand:
                    if lead < 39:
                        break
                else:
                    lead = hand[0]
            hand.remove(lead)
            if lead >= 39 or (queen_breaks and lead == _QS):
                broken = True
            seat = leader
            played = [lead]
        lo = lead - lead % 13
        hi = lo + 13
        winner = leader
        best = lead
        mask = 0
        for k, card in enumerate(played):
            mask |= 1 << card
            if k and lo <= card < hi and card > best:
                best = card
                winner = (leader + k) & 3
        for k in range(len(played), 4):
            seat = (leader + k) & 3
            hand = lists[seat]
            for card in hand:
                if lo <= card < hi:
                    break
            else:
                card = hand[0]
                if t == 0 and forbidden:
                    for c in hand:
                        if not forbidden >> c & 1:
                            card = c
                            break
                if card >= 39 or (queen_breaks and card == _QS):
                    broken = True
            hand.remove(card)
            mask |= 1 << card
            if lo <= card < hi and card > best:
                best = card
                winner = seat
        taken[winner] |= mask
        leader = winner
        trick = []
    return taken


def _rate(label: str, positions: Sequence[Position], rules: Rules, rng: random.Random, seconds: float) -> None:
    n = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        for pos in positions:
            random_playout(pos, rules, rng)
        n += len(positions)
        now = time.perf_counter()
        if now >= deadline:
            break
    print(f"{label:<28} {n / (now - t0):10,.0f} playouts/s  ({n:,} in {now - t0:.2f} s)")


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(prog="python3 -m lab.playouts", description="random-legal playouts per second")
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = cli().parse_args(argv)
    rules = Rules()
    rng = random.Random(args.seed)
    deals = [random_deal(rng) for _ in range(200)]
    starts = [position_from_hand(Hand(deal, rules, hand_number=3)) for deal in deals]  # hold hands: no pass
    middles = []
    for deal in deals:
        hand = Hand(deal, rules, hand_number=3)
        while hand.trick_number < 6 or len(hand.current_trick) < 2:
            seat = hand.turn
            assert seat is not None
            hand.play(seat, rng.choice(hand.legal_plays(seat)))
        middles.append(position_from_hand(hand))
    print(f"python {sys.version.split()[0]} on {sys.platform}; random-legal playouts, one core")
    _rate("full hand from the deal", starts, rules, rng, args.seconds)
    _rate("mid-hand (trick 7, 2 played)", middles, rules, rng, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
