"""A fast heuristic playout policy on bitmasks (Medium-like play for every seat).

Heuristic rollouts make the Hard search see what real opponents do (duck, dump the Q♠ on
the winner, keep low cards), which random rollouts do not. One seat may play a moon plan
(``shooter``): it tries to win every trick, and the others then try to block it (take a
heart, hold a high heart back). The shooter gives up as soon as another seat takes a point.
"""

from __future__ import annotations

import random

from ..rules import Rules
from ._bits import AS, HEARTS, KS, QS, QS_BIT

__all__ = ["heuristic_playout"]

_S = [((1 << 13) - 1) << (13 * s) for s in range(4)]
_SPADES = _S[2]
_BELOW_QS = ((1 << QS) - 1) & _SPADES
_AKS = (1 << AS) | (1 << KS)
_PENALTY = HEARTS | QS_BIT


def _high_rank(mask: int) -> int:
    """The card of ``mask`` with the highest rank (any suit); ties go to the lower suit."""
    best, best_rank = -1, -1
    for s in (0, 1, 2, 3):
        m = mask & _S[s]
        if m:
            c = m.bit_length() - 1
            r = c - 13 * s
            if r > best_rank:
                best, best_rank = c, r
    return best


def _lead(hand: int, broken: bool, queen_live: bool, shooting: bool, rnd: float) -> int:
    allowed = hand
    if not broken and hand & ~HEARTS:
        allowed = hand & ~HEARTS
    if shooting:
        return _high_rank(allowed)
    if hand & QS_BIT and allowed & ~_SPADES:
        allowed &= ~_SPADES  # never lead spades into one's own queen
    elif queen_live and allowed & _BELOW_QS and not hand & _AKS and rnd < 0.6:
        m = allowed & _BELOW_QS
        return m.bit_length() - 1  # flush the queen with the highest spade below her
    # The lowest card by rank, hearts last; a little noise keeps the rollouts varied.
    best, best_rank = -1, 99
    for s in (0, 1, 2, 3):
        m = allowed & _S[s]
        if m:
            c = (m & -m).bit_length() - 1
            r = c - 13 * s + (3 if s == 3 else 0)
            if r < best_rank:
                best, best_rank = c, r
    if rnd > 0.85:
        suits = [s for s in (0, 1, 2, 3) if allowed & _S[s]]
        m = allowed & _S[suits[int((rnd - 0.85) / 0.15 * len(suits)) % len(suits)]]
        return (m & -m).bit_length() - 1
    return best


def heuristic_playout(
    hands: list[int],
    leader: int,
    trick: list[int],
    trick_number: int,
    broken: bool,
    taken: list[int],
    rules: Rules,
    rng: random.Random,
    shooter: int = -1,
    me: int = -1,
    noise: float = 0.0,
) -> list[int]:
    """Play to the end of the hand; return the cards each seat took. ``hands`` is consumed.

    With ``noise``, every seat but ``me`` plays a random legal card that often: real
    opponents are not as tidy as the policy, and a search that expects perfect ducking
    from everyone plays too timidly against weaker tables.
    """
    rand = rng.random
    forbidden = rules.first_trick_forbidden
    queen_breaks = rules.queen_breaks_hearts
    taken = list(taken)
    queen_live = not any(t & QS_BIT for t in taken) and QS not in trick
    if shooter >= 0:
        for s in range(4):
            if s != shooter and taken[s] & _PENALTY:
                shooter = -1
    for t in range(trick_number, 13):
        if trick:
            played = trick
        else:
            if t == 0:
                lead = 0
            else:
                lead = _lead(hands[leader], broken, queen_live, leader == shooter, rand())
            hands[leader] &= ~(1 << lead)
            if lead >= 39 or (queen_breaks and lead == QS):
                broken = True
            played = [lead]
        lead = played[0]
        led = lead // 13
        suit_mask = _S[led]
        winner = leader
        best = lead
        mask = 0
        for k, card in enumerate(played):
            mask |= 1 << card
            if k and card // 13 == led and card > best:
                best = card
                winner = (leader + k) & 3
        for k in range(len(played), 4):
            seat = (leader + k) & 3
            hand = hands[seat]
            follow = hand & suit_mask
            if noise and seat != me and seat != shooter and rand() < noise:
                pool = follow
                if not pool:
                    pool = hand & ~forbidden if t == 0 and forbidden and hand & ~forbidden else hand
                opts = []
                while pool:
                    lowbit = pool & -pool
                    opts.append(lowbit.bit_length() - 1)
                    pool ^= lowbit
                card = opts[int(rand() * len(opts))]
                if card >= 39 or (queen_breaks and card == QS):
                    broken = True
            elif follow:
                if seat == shooter:
                    top = follow.bit_length() - 1
                    card = top if top > best else (follow & -follow).bit_length() - 1
                else:
                    below = follow & ((1 << best) - 1)
                    if shooter >= 0 and winner == shooter and led == 3 and follow & ~below:
                        card = follow.bit_length() - 1  # block: take the heart trick
                    elif below:
                        card = below.bit_length() - 1
                        if card == QS and below & ~QS_BIT and best < QS:
                            card = (below & ~QS_BIT).bit_length() - 1
                    else:
                        safe = follow & ~QS_BIT or follow
                        if led == 2:
                            if k < 3 and queen_live and safe & ~_AKS:
                                safe &= ~_AKS
                            card = safe.bit_length() - 1 if k == 3 else (safe & -safe).bit_length() - 1
                        elif led == 3 and k < 3:
                            card = (safe & -safe).bit_length() - 1
                        else:
                            card = safe.bit_length() - 1
            else:
                allowed = hand
                if t == 0 and forbidden and hand & ~forbidden:
                    allowed = hand & ~forbidden
                if seat == shooter:
                    rest = allowed & ~_PENALTY
                    card = (rest & -rest).bit_length() - 1 if rest else _high_rank(allowed)
                elif shooter >= 0 and winner == shooter and allowed & ~_PENALTY:
                    card = _high_rank(allowed & ~_PENALTY)  # do not feed the shooter
                elif allowed & QS_BIT:
                    card = QS
                elif queen_live and allowed & _AKS:
                    card = (allowed & _AKS).bit_length() - 1
                elif allowed & HEARTS:
                    card = (allowed & HEARTS).bit_length() - 1
                else:
                    card = _high_rank(allowed)
                if card >= 39 or (queen_breaks and card == QS):
                    broken = True
            hands[seat] = hand & ~(1 << card)
            mask |= 1 << card
            if card // 13 == led and card > best:
                best = card
                winner = seat
        taken[winner] |= mask
        if mask & QS_BIT:
            queen_live = False
        if shooter >= 0 and winner != shooter and mask & _PENALTY:
            shooter = -1
        leader = winner
        trick = []
    return taken
