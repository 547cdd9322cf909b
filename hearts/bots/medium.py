"""Medium: sound club play, in plain rules of thumb (and the reason for each choice).

Passing: the Q♠, A♠, K♠ and high hearts go first, or a short side suit is emptied. Play:
duck under the winning card, dump the Q♠ and high hearts when void, never lead spades into
one's own Q♠, lead low, keep a low heart. Every function returns ``(cards, reason, params)``.
"""

from __future__ import annotations

from typing import Any

from ..cards import CARDS, Suit
from ..view import SeatView
from ._bits import AS, HEARTS, JD, KS, QS, QS_BIT, SUITS, bits, count, high, low, rank_of
from .knowledge import Knowledge

__all__ = ["Choice", "pass_danger", "pass_choice", "medium_pass", "medium_play", "suit_name"]

Choice = tuple[tuple[int, ...], str, dict[str, Any]]


def suit_name(suit: int) -> str:
    return Suit(suit).name.lower()


def card_text(card: int) -> str:
    return CARDS[card].text


def pass_danger(card: int, hand: int, jack_rule: bool, keep_queen: bool = False) -> float:
    """How much a card wants to leave the hand (higher: pass it first)."""
    suit, rank = card // 13, rank_of(card)
    spades = hand & SUITS[2]
    low_spades = count(spades & ((1 << QS) - 1))
    if card == QS:
        return 20.0 if keep_queen else 100.0
    if card in (AS, KS):
        if keep_queen:
            return 30.0
        # Long, low spades protect the A♠/K♠; otherwise they catch the queen.
        return (85.0 if card == AS else 80.0) - (25.0 if low_spades >= 4 else 0.0)
    if suit == 3:
        return 40.0 + rank * 2 if rank >= 11 else 6.0 + rank * 1.5
    if jack_rule and card == JD:
        return -50.0
    return rank * 2.5


# pass_danger of the cards whose danger depends on nothing but the card (all but these four)
_SPECIAL = frozenset((QS, AS, KS, JD))
_PLAIN_DANGER = [pass_danger(c, 0, False) for c in range(52)]


def medium_pass(view: SeatView, keep_queen: bool = False) -> Choice:
    hand = view.hand_mask
    picked, void_suit = pass_choice(hand, view.rules.jack_of_diamonds, keep_queen)
    return picked, *pass_reason(picked, hand, void_suit)


def pass_choice(hand: int, jack: bool, keep_queen: bool = False) -> tuple[tuple[int, ...], int]:
    """Medium's 3 pass cards for a hand (a bitmask), and the side suit it empties (or -1)."""
    cards = bits(hand)
    danger = {c: pass_danger(c, hand, jack, keep_queen) if c in _SPECIAL else _PLAIN_DANGER[c] for c in cards}
    ranked = sorted(cards, key=lambda c: (-danger[c], -c))
    best = tuple(ranked[:3])
    best_value = sum(danger[c] for c in best)
    reason_void = -1
    # Emptying a short side suit (clubs or diamonds) lets the hand discard later.
    for suit in (0, 1):
        in_suit = hand & SUITS[suit]
        n = count(in_suit)
        if not 1 <= n <= 3:
            continue
        if jack and in_suit & (1 << JD):
            continue
        chosen = bits(in_suit)
        for c in ranked:
            if len(chosen) == 3:
                break
            if c not in chosen:
                chosen.append(c)
        value = sum(danger[c] for c in chosen) + 30.0 + (10.0 if n <= 2 else 0.0)
        if value > best_value:
            best, best_value, reason_void = tuple(chosen), value, suit
    return tuple(sorted(best)), reason_void


def pass_reason(picked: tuple[int, ...], hand: int, void_suit: int = -1) -> tuple[str, dict[str, Any]]:
    texts = [card_text(c) for c in picked]
    mask = 0
    for c in picked:
        mask |= 1 << c
    if QS in picked:
        return "pass_queen", {"card": "QS", "cards": texts}
    if void_suit < 0:
        for suit in (0, 1, 2, 3):
            if hand & SUITS[suit] and (hand & SUITS[suit]) & ~mask == 0:
                void_suit = suit
                break
    if void_suit >= 0:
        return "void_suit", {"suit": suit_name(void_suit), "cards": texts}
    if AS in picked or KS in picked:
        return "pass_high_spades", {"cards": texts}
    if mask & HEARTS and rank_of(high(mask & HEARTS)) >= 11:
        return "pass_high_hearts", {"cards": texts}
    return "pass_high_cards", {"cards": texts}


# --------------------------------------------------------------------------- play
def _lowest_safe_lead(k: Knowledge, allowed: int) -> int:
    """The lead least likely to win a trick: the lowest card relative to what is still out."""
    best_card, best_score = -1, 1e9
    for suit in range(4):
        mine = allowed & SUITS[suit]
        if not mine:
            continue
        card = low(mine)
        out = k.out_in_suit(suit)
        under = count(out & ((1 << card) - 1))  # cards out there that lose to nothing: they beat us? no: lower
        over = count(out & ~((1 << (card + 1)) - 1))
        score = float(under * 3 - over)  # fewer lower cards outstanding = safer lead
        if suit == 3:
            score += 2.0  # keep hearts for later when we can
        if suit == 2 and k.queen_mine:
            score += 50.0  # never lead spades into our own Q♠
        if over == 0:
            score += 20.0  # would surely win
        if score < best_score:
            best_card, best_score = card, score
    return best_card


def medium_play(view: SeatView) -> Choice:
    k = Knowledge(view)
    legal = k.legal
    only = bits(legal)
    if len(only) == 1:
        return (only[0],), "only_legal_card", {"card": card_text(only[0])}
    if not k.trick:
        return medium_lead(k)
    follow = legal & SUITS[k.led]
    if follow:
        return medium_follow(k, follow)
    return medium_discard(k, legal)


def medium_lead(k: Knowledge) -> Choice:
    legal = k.legal
    spades = legal & SUITS[2]
    # Flush the Q♠: lead a spade below the queen while she is out and not ours.
    if k.queen_out and not k.queen_mine and spades & ((1 << QS) - 1) and not (k.hand & ((1 << KS) | (1 << AS))):
        card = high(spades & ((1 << QS) - 1))
        return (card,), "lead_spades_flush_queen", {"card": card_text(card)}
    card = _lowest_safe_lead(k, legal)
    if card // 13 == 3:
        return (card,), "lead_low", {"card": card_text(card), "suit": "hearts"}
    return (card,), "lead_low", {"card": card_text(card), "suit": suit_name(card // 13)}


def medium_follow(k: Knowledge, follow: int) -> Choice:
    win_seat, best = k.trick_best()
    below = follow & ((1 << best) - 1)
    last = k.position == 3
    if k.led == 2 and k.hand & QS_BIT and best > QS:
        return (QS,), "dump_queen", {"card": "QS", "under": card_text(best)}
    if below:
        card = high(below)
        if card == QS and below & ~QS_BIT and best < QS:
            card = high(below & ~QS_BIT)
        return (card,), "duck", {"card": card_text(card), "under": card_text(best)}
    # We cannot duck: we will probably win this trick.
    choices = follow & ~QS_BIT if follow & ~QS_BIT else follow
    if k.led == 2 and k.queen_out and not k.queen_mine and not last:
        # Do not play the A♠/K♠ into a trick the queen could still fall on.
        safe = choices & ~((1 << KS) | (1 << AS))
        if safe:
            card = low(safe)
            return (card,), "follow_low", {"card": card_text(card)}
    if last and k.trick_points() <= 0 or k.trick_number == 0:
        card = high(choices)
        return (card,), "win_cheaply", {"card": card_text(card)}
    card = high(choices) if last else low(choices)
    return (card,), ("win_cheaply" if last else "follow_low"), {"card": card_text(card)}


def medium_discard(k: Knowledge, legal: int) -> Choice:
    if legal & QS_BIT:
        return (QS,), "dump_queen", {"card": "QS"}
    if k.queen_out:
        for card in (AS, KS):
            if legal >> card & 1:
                return (card,), "dump_high_card", {"card": card_text(card)}
    hearts = legal & HEARTS
    if hearts:
        card = high(hearts)
        if rank_of(card) >= 9 or not (legal & ~HEARTS):
            return (card,), "dump_high_heart", {"card": card_text(card)}
    # The highest card of the shortest side suit: it would win a trick later, and voids help.
    best_card, best_score = -1, -1e9
    for suit in range(4):
        mine = legal & SUITS[suit]
        if not mine:
            continue
        if k.view.rules.jack_of_diamonds and mine == (1 << JD):
            continue
        card = high(mine)
        if k.view.rules.jack_of_diamonds and card == JD:
            card = high(mine & ~(1 << JD)) if mine & ~(1 << JD) else card
        score = rank_of(card) * 2.0 - count(k.hand & SUITS[suit])
        if suit == 3:
            score += 6.0
        if score > best_score:
            best_card, best_score = card, score
    if best_card < 0:
        best_card = high(legal)
    if best_card // 13 == 3:
        return (best_card,), "dump_high_heart", {"card": card_text(best_card)}
    return (best_card,), "dump_high_card", {"card": card_text(best_card)}
