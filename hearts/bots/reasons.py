"""Why a card is played: the reason codes of the "show me" hint (see ``docs/bots.md``)."""

from __future__ import annotations

from typing import Any

from ..cards import CARDS
from ..seats import Seat
from ._bits import AS, HEARTS, KS, QS, SUITS, count, high, low
from .knowledge import Knowledge
from .medium import suit_name

__all__ = ["classify_play", "PLAY_REASONS", "PASS_REASONS"]

PASS_REASONS = ("pass_queen", "pass_high_spades", "pass_high_hearts", "void_suit", "pass_high_cards", "shoot_moon")
PLAY_REASONS = (
    "only_legal_card",
    "shoot_moon",
    "block_moon",
    "feed_leader",
    "lead_spades_flush_queen",
    "lead_low",
    "lead_safe_winner",
    "dump_queen",
    "duck",
    "win_cheaply",
    "unload_high",
    "keep_low_heart",
    "follow_low",
    "dump_high_heart",
    "dump_high_card",
    "make_void",
    "random",
)


def _t(card: int) -> str:
    return CARDS[card].text


def classify_play(k: Knowledge, card: int, shoot: bool) -> tuple[str, dict[str, Any]]:
    """The reason code and parameters for playing ``card`` from the position ``k``."""
    p: dict[str, Any] = {"card": _t(card)}
    if count(k.legal) == 1:
        return "only_legal_card", p
    if shoot:
        return "shoot_moon", p
    runner = k.moon_runner()
    trick_points = k.trick_points()
    if not k.trick:
        if runner >= 0 and card // 13 == 3:
            return "block_moon", {**p, "seat": Seat(runner).key}
        if card // 13 == 2 and card < QS and k.queen_out and not k.queen_mine:
            return "lead_spades_flush_queen", p
        out = k.out_in_suit(card // 13)
        if out and not out >> card:
            return "lead_safe_winner", {**p, "suit": suit_name(card // 13)}
        return "lead_low", {**p, "suit": suit_name(card // 13)}
    win_seat, best = k.trick_best()
    follow = k.legal & SUITS[k.led]
    wins_now = card // 13 == k.led and card > best
    if runner >= 0 and (wins_now and (trick_points > 0 or card // 13 == 3)):
        return "block_moon", {**p, "seat": Seat(runner).key}
    near_end = max(k.view.scores) + 26 >= k.view.rules.target
    if near_end and not wins_now and (card // 13 == 3 or card == QS) and not follow:
        scores = k.view.scores
        leader = min(range(4), key=lambda s: (scores[s], s))
        if leader == win_seat and leader != k.me:
            return "feed_leader", {**p, "seat": Seat(leader).key}
    if follow:
        if card == QS and best > QS:
            return "dump_queen", {**p, "under": _t(best)}
        if card < best:
            return "duck", {**p, "under": _t(best)}
        below = follow & ((1 << best) - 1)
        if k.trick_number == 0 and trick_points <= 0:
            return "win_cheaply", p
        if below:
            if k.led == 3:
                return "keep_low_heart", {**p, "low": _t(low(below))}
            return "win_cheaply", p
        if k.position == 3:
            return ("win_cheaply" if trick_points <= 0 else "unload_high"), p
        if card == low(follow):
            return "follow_low", p
        return "unload_high", p
    if card == QS:
        return "dump_queen", p
    if card // 13 == 3:
        if k.hand & HEARTS & ((1 << card) - 1) and high(k.hand & HEARTS) == card:
            return "dump_high_heart", {**p, "keep": _t(low(k.hand & HEARTS))}
        return "dump_high_heart", p
    if card in (AS, KS) and k.queen_out:
        return "dump_high_card", p
    if count(k.hand & SUITS[card // 13]) == 1 and card // 13 != 2:
        return "make_void", {**p, "suit": suit_name(card // 13)}
    return "dump_high_card", p
