"""What Hard searches: one card per class of equivalent legal cards, and a few passes."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from ._bits import JD, QS, QS_BIT, SUITS, bits, count
from .knowledge import Knowledge
from .medium import pass_danger
from .moon import moon_passes

__all__ = ["PASS_POOL", "candidates", "equivalent", "keeps_queen", "pass_ranking", "pass_candidates", "void_passes"]

PASS_POOL = 6  # candidate passes: every 3 of the 6 cards that most want to leave, + Medium's


def _separators(knowledge: Knowledge, trick_split: bool) -> int:
    """The cards that make two cards of a suit play differently when one lies between them: the
    unseen ones, and (``trick_split``) the current trick's: with the 3♠ winning the trick, the
    2♠ ducks and the 4♠ wins."""
    return knowledge.unseen | knowledge.trick_mask() if trick_split else knowledge.unseen


def equivalent(knowledge: Knowledge, a: int, b: int, trick_split: bool = True) -> bool:
    """Do cards ``a`` and ``b`` play the same (same suit, no separator between them, neither
    the Q♠)?"""
    if a == b:
        return True
    if a // 13 != b // 13 or QS in (a, b):
        return False
    lo, hi = min(a, b), max(a, b)
    return not (((1 << hi) - 1) & ~((1 << (lo + 1)) - 1) & _separators(knowledge, trick_split))


def candidates(knowledge: Knowledge, trick_split: bool = True) -> list[int]:
    """One card per class of equivalent legal cards, the highest of each (the Q♠ and, when it
    scores, the J♦ are classes of their own)."""
    legal = bits(knowledge.legal)
    out: list[int] = []
    jack = knowledge.view.rules.jack_of_diamonds
    special = {QS} | ({JD} if jack else set())
    separators = _separators(knowledge, trick_split)
    for c in legal:
        if out and c not in special and out[-1] not in special and out[-1] // 13 == c // 13:
            between = ((1 << c) - 1) & ~((1 << (out[-1] + 1)) - 1)
            if not between & separators:
                out[-1] = c  # keep the higher card: following high is at stake
                continue
        out.append(c)
    return out


def keeps_queen(hand: int) -> bool:
    """With the Q♠ and six spades, Hard keeps her (Medium's pass is told so)."""
    return bool(hand & QS_BIT) and count(hand & SUITS[2]) >= 6


def pass_ranking(hand: int, jack_rule: bool, keep_queen: bool) -> list[int]:
    """The hand's cards, those that most want to leave first (Medium's ranking)."""
    return sorted(bits(hand), key=lambda c: (-pass_danger(c, hand, jack_rule, keep_queen), -c))


def void_passes(hand: int, ranked: Sequence[int], jack_rule: bool) -> list[tuple[int, ...]]:
    """For each side suit (clubs, diamonds) of one to three cards, the pass that empties it,
    filled up with the cards that most want to leave (``ranked``); never the J♦ when it scores."""
    out = []
    for suit in (0, 1):
        cards = bits(hand & SUITS[suit])
        if not 1 <= len(cards) <= 3 or (jack_rule and JD in cards):
            continue
        for c in ranked:
            if len(cards) == 3:
                break
            if c not in cards:
                cards.append(c)
        out.append(tuple(sorted(cards)))
    return out


def pass_candidates(
    hand: int, prior: tuple[int, ...], jack_rule: bool, keep_queen: bool, with_void: bool, with_moon: bool
) -> tuple[list[tuple[int, ...]], list[bool]]:
    """Hard's candidate passes and which of them are played with a moon plan: Medium's
    (``prior``) first, every 3 of the ``PASS_POOL`` cards that most want to leave, the void
    passes (``with_void``) and the moon passes (``with_moon``)."""
    ranked = pass_ranking(hand, jack_rule, keep_queen)
    cands: list[tuple[int, ...]] = [prior]
    for combo in combinations(sorted(ranked[:PASS_POOL]), 3):
        if combo != prior:
            cands.append(combo)
    for extra in void_passes(hand, ranked, jack_rule) if with_void else ():
        if extra not in cands:
            cands.append(extra)
    shoots = [False] * len(cands)
    if with_moon:
        for extra in moon_passes(hand):
            cands.append(extra)
            shoots.append(True)
    return cands, shoots
