"""The rules of one trick, on bitmasks: which cards may be played, who wins, what it is worth.

These functions are the single source of legality and trick scoring: the :class:`~hearts.hand.Hand`
state machine, the bots' knowledge and the fast playouts all call them (or are tested against them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import HEARTS_MASK, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, SUIT_MASKS, Card, popcount
from .errors import ErrorCode, IllegalAction
from .rules import Rules
from .seats import Seat

__all__ = ["Trick", "legal_mask", "check_play", "trick_winner", "trick_points", "trick_marker", "rest_is_decided"]

_QS_BIT = QUEEN_OF_SPADES.mask
_JD_BIT = JACK_OF_DIAMONDS.mask


@dataclass(frozen=True)
class Trick:
    """A completed trick: ``plays`` in the order they were played, the first by ``leader``."""

    number: int
    leader: Seat
    plays: tuple[tuple[Seat, Card], ...]
    winner: Seat
    points: int
    marker: str


def legal_mask(hand: int, led_suit: int, trick_number: int, hearts_broken: bool, first_trick_forbidden: int) -> int:
    """The cards (bitmask) of ``hand`` that may be played now. The single source of legality.

    ``led_suit`` is -1 when leading. On the first trick a player who cannot follow may not
    discard the ``first_trick_forbidden`` cards unless the hand holds nothing else, in
    which case any card may be played (the rule is lifted entirely, as the seeds say:
    "außer du hast nichts anderes"). A leader may not lead hearts before they are broken
    unless the hand holds only hearts.
    """
    if led_suit < 0:
        if trick_number == 0:
            return hand & 1  # the 2♣ (its holder leads the first trick)
        if not hearts_broken:
            other = hand & ~HEARTS_MASK
            if other:
                return other
        return hand
    follow = hand & SUIT_MASKS[led_suit]
    if follow:
        return follow
    if trick_number == 0 and first_trick_forbidden:
        allowed = hand & ~first_trick_forbidden
        if allowed:
            return allowed
    return hand


def check_play(
    hand: int,
    trick: Sequence[tuple[Seat, Card]],
    trick_number: int,
    hearts_broken: bool,
    rules: Rules,
    seat: Seat,
    card: Card,
) -> None:
    """Raise :class:`IllegalAction` with the reason's code unless ``seat``, whose turn it is and
    who holds ``hand`` (bitmask), may play ``card`` to ``trick`` (the plays so far)."""
    if not hand >> card & 1:
        raise IllegalAction(
            ErrorCode.CARD_NOT_IN_HAND, f"{card.text} is not in {seat.key}'s hand", seat=seat, card=card
        )
    led_suit = trick[0][1] // 13 if trick else -1
    if legal_mask(hand, led_suit, trick_number, hearts_broken, rules.first_trick_forbidden) >> card & 1:
        return
    if not trick:
        if trick_number == 0:
            raise IllegalAction(ErrorCode.MUST_LEAD_TWO_OF_CLUBS, "the first trick must be led with the 2♣", card=card)
        raise IllegalAction(ErrorCode.HEARTS_NOT_BROKEN, "hearts cannot be led until hearts are broken", card=card)
    led = trick[0][1].suit
    if hand & SUIT_MASKS[led]:
        raise IllegalAction(
            ErrorCode.MUST_FOLLOW_SUIT, f"{seat.key} must follow {led.name.lower()}", card=card, suit=led
        )
    kind = "queen" if card == QUEEN_OF_SPADES else "hearts"
    raise IllegalAction(
        ErrorCode.NO_POINTS_ON_FIRST_TRICK,
        "no points may be discarded on the first trick",
        card=card,
        kind=kind,
        barred=rules.first_trick.value,
    )


def trick_winner(plays: Sequence[tuple[int, int]]) -> tuple[int, int]:
    """(seat, card) of the highest card of the led suit among ``plays`` (seat, card), led first."""
    winner, best = plays[0]
    led = best // 13
    for seat, card in plays[1:]:
        if card // 13 == led and card > best:
            winner, best = seat, card
    return winner, best


def trick_points(cards_mask: int, rules: Rules) -> int:
    points = popcount(cards_mask & HEARTS_MASK)
    if cards_mask & _QS_BIT:
        points += 13
    if rules.jack_of_diamonds and cards_mask & _JD_BIT:
        points -= 10
    return points


def trick_marker(cards_mask: int, rules: Rules) -> str:
    if cards_mask & _QS_BIT:
        return "queen"
    if cards_mask & HEARTS_MASK:
        return "hearts"
    if rules.jack_of_diamonds and cards_mask & _JD_BIT:
        return "jack"
    return "none"


def rest_is_decided(mine: int, others: int, on_table: int, rules: Rules) -> bool:
    """Can the rest of the hand no longer change the score? The claim rule, on bitmasks: ``mine``
    is the hand of the seat to play, ``others`` every card the other seats still hold,
    ``on_table`` the cards of the unfinished trick.

    True when no penalty card is left in a hand or on the table (hearts, the Q♠, and the J♦
    when it counts), or when the seat is on lead (nothing on the table) and each of its cards
    outranks every card of the same suit the others hold: it wins every trick whatever it leads.
    """
    penalty = HEARTS_MASK | _QS_BIT | (_JD_BIT if rules.jack_of_diamonds else 0)
    if not (mine | others | on_table) & penalty:
        return True
    if on_table:
        return False
    for suit in SUIT_MASKS:
        held = mine & suit
        if held and (held & -held) < (others & suit):
            return False  # another seat holds a higher card of a suit this seat may have to lead
    return True
