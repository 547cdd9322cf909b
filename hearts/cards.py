"""Cards, suits and compact card sets.

A card is a small ``int`` (0..51) ordered the way a sorted hand reads: clubs, diamonds,
spades, hearts, each from 2 up to the ace. A set of cards is an ``int`` bitmask with bit
``card`` set, which makes the engine and the bots' simulations fast.

>>> card = Card.parse("QS")
>>> str(card), card.symbol, card.suit.name, card.rank
('QS', 'Q♠', 'SPADES', 12)
>>> [str(c) for c in cards_of(mask_of(parse_cards("AH 2C QS")))]
['2C', 'QS', 'AH']
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

__all__ = [
    "Suit",
    "Card",
    "CARDS",
    "RANKS",
    "DECK_MASK",
    "SUIT_MASKS",
    "HEARTS_MASK",
    "QUEEN_OF_SPADES",
    "TWO_OF_CLUBS",
    "JACK_OF_DIAMONDS",
    "mask_of",
    "cards_of",
    "card_numbers",
    "parse_cards",
    "format_cards",
    "sort_cards",
    "popcount",
]

RANKS = "23456789TJQKA"
_RANK_NAMES = {"10": "T"}


class Suit(IntEnum):
    """The four suits, numbered in the order a sorted hand shows them (♣ ♦ ♠ ♥)."""

    CLUBS = 0
    DIAMONDS = 1
    SPADES = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        return "CDSH"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♠♥"[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        index = "CDSH".find(text.strip().upper()) if len(text.strip()) == 1 else -1
        if index < 0:
            raise ValueError(f"unknown suit {text!r}: use one of C, D, S, H")
        return cls(index)


class Card(int):
    """One of the 52 cards. ``Card(n)`` for n in 0..51, or ``Card.parse("QS")``.

    The canonical text form is rank + suit letter (``2C`` … ``TC``, ``JC``, ``QS``, ``AH``);
    ``str(card)`` gives it back, so text round-trips. ``card.symbol`` is the display form ``Q♠``.
    """

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < 52:
            raise ValueError(f"card number out of range: {value}")
        return super().__new__(cls, value)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``"QS"``; lower case and ``"10H"`` are accepted as well."""
        if not isinstance(text, str):
            raise ValueError(f"a card must be text like 'QS', got {type(text).__name__}")
        raw = text.strip().upper()
        if len(raw) < 2:
            raise ValueError(f"unknown card {text!r}: use rank and suit, e.g. 'QS' or 'TH'")
        rank_text = _RANK_NAMES.get(raw[:-1], raw[:-1])
        rank = RANKS.find(rank_text) if len(rank_text) == 1 else -1
        suit = "CDSH".find(raw[-1])
        if rank < 0 or suit < 0:
            raise ValueError(f"unknown card {text!r}: use rank and suit, e.g. 'QS' or 'TH'")
        return CARDS[suit * 13 + rank]

    @classmethod
    def of(cls, suit: Suit | int, rank: int) -> Card:
        """The card of ``suit`` with ``rank`` 2..14 (11 jack, 12 queen, 13 king, 14 ace)."""
        if not 2 <= rank <= 14:
            raise ValueError(f"rank out of range: {rank}")
        return CARDS[int(suit) * 13 + rank - 2]

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """2..14, the ace high."""
        return self % 13 + 2

    @property
    def text(self) -> str:
        return RANKS[self % 13] + "CDSH"[self // 13]

    @property
    def symbol(self) -> str:
        rank = RANKS[self % 13]
        return ("10" if rank == "T" else rank) + "♣♦♠♥"[self // 13]

    @property
    def mask(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card.parse({self.text!r})"

    def __reduce__(self) -> tuple[type, tuple[int]]:
        return (Card, (int(self),))


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, n) for n in range(52))
DECK_MASK = (1 << 52) - 1
SUIT_MASKS: tuple[int, int, int, int] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))  # type: ignore[assignment]
HEARTS_MASK = SUIT_MASKS[Suit.HEARTS]
QUEEN_OF_SPADES = Card.parse("QS")
TWO_OF_CLUBS = Card.parse("2C")
JACK_OF_DIAMONDS = Card.parse("JD")


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def card_numbers(mask: int) -> list[int]:
    """The card numbers of a bitmask, ascending (plain ints: the bots' and playouts' fast path)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask, sorted the way a hand is shown."""
    return tuple(CARDS[n] for n in card_numbers(mask))


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse ``"2C QS AH"`` (or a list of card texts) in the given order."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(item) for item in items)


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(CARDS[c].text for c in cards)


def sort_cards(cards: Iterable[int]) -> tuple[Card, ...]:
    """Sort ♣ ♦ ♠ ♥, low to high (the card numbers are already in that order)."""
    return tuple(CARDS[c] for c in sorted(cards))
