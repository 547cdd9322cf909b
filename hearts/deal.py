"""Dealing: a documented, portable deal from a seed string, and random deals.

``deal_from_seed(seed)`` gives the same four hands on every Python (CPython, Pyodide),
because it uses only SHA-256 and integer arithmetic:

1. A byte stream is the concatenation of ``SHA-256(f"hearts-deal-v1:{seed}:{i}")`` for
   ``i = 0, 1, 2, …`` (the seed encoded as UTF-8; ``i`` in decimal).
2. The stream is read as unsigned 32-bit big-endian integers.
3. The deck ``[0, 1, …, 51]`` (card numbers, 2♣ = 0 … A♥ = 51) is shuffled with
   Fisher–Yates: for ``i`` from 51 down to 1, draw ``x`` from the stream until
   ``x < 2**32 - (2**32 % (i + 1))`` (rejection removes modulo bias), then swap
   positions ``i`` and ``x % (i + 1)``.
4. South gets deck positions 0–12, west 13–25, north 26–38, east 39–51; each hand sorted.

>>> " ".join(c.text for c in deal_from_seed("2026-11-29")[0])
'9C TC AC 2D 5D JD KD 3S 5S 2H 4H 6H KH'
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence

from .cards import CARDS, Card

__all__ = ["Deal", "deal_from_seed", "random_deal", "validate_deal", "deal_fingerprint"]

Deal = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


def _stream(seed: str) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha256(f"hearts-deal-v1:{seed}:{counter}".encode()).digest()
        for offset in range(0, 32, 4):
            yield int.from_bytes(block[offset : offset + 4], "big")
        counter += 1


def deal_from_seed(seed: str) -> Deal:
    """The deal for ``seed`` (the daily game uses ``"YYYY-MM-DD"``)."""
    if not isinstance(seed, str):
        raise ValueError("a deal seed must be a string")
    deck = list(range(52))
    stream = _stream(seed)
    for i in range(51, 0, -1):
        bound = i + 1
        limit = 2**32 - (2**32 % bound)
        x = next(stream)
        while x >= limit:
            x = next(stream)
        j = x % bound
        deck[i], deck[j] = deck[j], deck[i]
    return _split(deck)


def random_deal(rng: random.Random) -> Deal:
    """A uniformly random deal from ``rng`` (for simulations; not a documented format)."""
    deck = list(range(52))
    rng.shuffle(deck)
    return _split(deck)


def _split(deck: Sequence[int]) -> Deal:
    hands = (tuple(CARDS[c] for c in sorted(deck[13 * s : 13 * s + 13])) for s in range(4))
    return tuple(hands)  # type: ignore[return-value]


def validate_deal(hands: Sequence[Sequence[int]]) -> Deal:
    """Check four hands of 13 distinct cards covering the deck; return them sorted."""
    if len(hands) != 4:
        raise ValueError(f"a deal has 4 hands, got {len(hands)}")
    seen: set[int] = set()
    for index, hand in enumerate(hands):
        if len(hand) != 13:
            raise ValueError(f"hand {index} has {len(hand)} cards, not 13")
        for card in hand:
            if card in seen:
                raise ValueError(f"card {CARDS[card].text} is dealt twice")
            seen.add(card)
    return tuple(tuple(CARDS[c] for c in sorted(hand)) for hand in hands)  # type: ignore[return-value]


def deal_fingerprint(deal: Deal) -> str:
    """A short hex digest of a deal, for comparing deals across runtimes."""
    text = "|".join(" ".join(c.text for c in hand) for hand in deal)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
