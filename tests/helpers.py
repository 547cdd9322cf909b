"""Builders shared by the engine tests: explicit deals and quick random play."""

from __future__ import annotations

import random
from typing import Mapping

from hearts import CARDS, Hand, Match, Phase, Rules, Seat, parse_cards
from hearts.seats import SEATS, PassDirection


def make_deal(spec: Mapping[Seat, str]) -> list[list[int]]:
    """Give the named seats exactly these cards; deal the rest in order to the other seats."""
    hands: dict[Seat, list[int]] = {seat: list(parse_cards(text)) for seat, text in spec.items()}
    used = {c for cards in hands.values() for c in cards}
    rest = [c for c in range(52) if c not in used]
    for seat in SEATS:
        if seat not in hands:
            hands[seat] = rest[:13]
            rest = rest[13:]
    assert not rest, "the spec must leave whole hands"
    return [hands[s] for s in SEATS]


def hold_hand(spec: Mapping[Seat, str], rules: Rules | None = None) -> Hand:
    return Hand(make_deal(spec), rules or Rules(), PassDirection.HOLD)


def play_all(hand: Hand, cards: str) -> None:
    for card in parse_cards(cards):
        seat = hand.turn
        assert seat is not None
        hand.play(seat, card)


def random_match(rules: Rules, seed: str, rng: random.Random, max_steps: int = 10_000) -> Match:
    match = Match(rules, seed=seed)
    for _ in range(max_steps):
        if match.is_over:
            break
        step(match, rng)
    return match


def step(game: Match | Hand, rng: random.Random) -> None:
    if game.phase is Phase.PASSING:
        seat = game.waiting_for_pass[0]
        hand = game.hand if isinstance(game, Match) else game
        game.choose_pass(seat, rng.sample(hand.legal_pass_cards(seat), 3))
    else:
        seat = game.turn
        assert seat is not None
        game.play(seat, rng.choice(game.legal_plays(seat)))


__all__ = ["make_deal", "hold_hand", "play_all", "random_match", "step", "CARDS"]
