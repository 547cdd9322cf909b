"""Small bitmask helpers shared by the bots (a card set is an ``int`` with bit ``card`` set)."""

from __future__ import annotations

from ..cards import HEARTS_MASK, QUEEN_OF_SPADES, SUIT_MASKS, card_numbers

__all__ = ["QS", "QS_BIT", "AS", "KS", "JD", "HEARTS", "SUITS", "low", "high", "bits", "count", "rank_of"]

QS = int(QUEEN_OF_SPADES)
QS_BIT = 1 << QS
KS = QS + 1
AS = QS + 2
JD = 13 + 9
HEARTS = HEARTS_MASK
SUITS = SUIT_MASKS


def low(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def high(mask: int) -> int:
    """The highest card of a non-empty mask."""
    return mask.bit_length() - 1


bits = card_numbers
count = int.bit_count  # the number of cards in a mask (a C method: fast in Pyodide too)


def rank_of(card: int) -> int:
    """2..14."""
    return card % 13 + 2
