"""lab.seeing: the all-seeing Hard searches the real deal, and the lab's players can field it."""

from __future__ import annotations

import random

import pytest

from hearts import PRESETS, Hand, Seat
from hearts.bots.candidates import candidates, keeps_queen
from hearts.bots.hard import HardBot
from hearts.bots.knowledge import Knowledge
from hearts.bots.medium import medium_pass
from hearts.bots.rollout import split_hands
from hearts.deal import deal_from_seed
from hearts.seats import PassDirection
from lab.arena import ArenaConfig, _make, bot_spec, play_match
from lab.seeing import SeeingHard


def truth_of(hand: Hand) -> list[int]:
    return [hand.cards_mask(s) for s in Seat]


def a_hand_with_a_choice() -> Hand:
    """A hand (no passing) played by the first legal cards until the seat to play has a choice
    of several candidates, a few tricks in."""
    hand = Hand(deal_from_seed("seeing"), PRESETS["standard"], PassDirection.HOLD)
    for _ in range(9):
        seat = hand.turn
        assert seat is not None
        hand.play(seat, hand.legal_plays(seat)[0])
    return hand


def test_every_world_of_a_play_is_the_real_deal() -> None:
    hand = a_hand_with_a_choice()
    bot = SeeingHard(iterations=8)
    bot.truth = lambda: truth_of(hand)
    assert hand.turn is not None
    knowledge = Knowledge(hand.view(hand.turn))
    cards = candidates(knowledge, bot.config.trick_split)
    assert len(cards) > 1
    search = bot._play_search(knowledge, cards, random.Random(3))
    real = split_hands(truth_of(hand))
    draws = [search.worlds.draw() for _ in range(12)]
    assert all(world.hands == real for world in draws)
    assert len({(world.at, tuple(world.randoms[:4])) for world in draws}) > 1  # the playouts still differ
    plain = HardBot(iterations=8)._play_search(knowledge, cards, random.Random(3))
    assert any(plain.worlds.draw().hands != real for _ in range(12))  # (Hard itself deals other worlds)


def test_every_world_of_a_pass_is_the_real_deal_with_mediums_passes() -> None:
    hand = Hand(deal_from_seed("seeing-pass"), PRESETS["standard"], PassDirection.LEFT)
    view = hand.view(Seat.SOUTH)
    bot = SeeingHard(iterations=8)
    bot.truth = lambda: truth_of(hand)
    keep = keeps_queen(view.hand_mask)
    prior, _, _ = medium_pass(view, keep_queen=keep)
    search = bot._pass_search(view, prior, keep, random.Random(5))
    expected = search.worlds.world_of(truth_of(hand)).hands
    assert all(search.worlds.draw().hands == expected for _ in range(6))


def test_it_refuses_to_decide_without_the_truth_or_with_another_hand() -> None:
    hand = a_hand_with_a_choice()
    bot = SeeingHard(iterations=4)
    assert hand.turn is not None
    with pytest.raises(RuntimeError, match="not given the truth"):
        bot.decide(hand.view(hand.turn), random.Random(1))
    bot.truth = lambda: [0, 0, 0, 0]
    with pytest.raises(RuntimeError, match="does not hold this seat's hand"):
        bot.decide(hand.view(hand.turn), random.Random(1))


def test_the_arena_fields_it_and_tells_it_the_truth() -> None:
    cfg = ArenaConfig(("seeing-hard@6/4", "medium"))
    spec = bot_spec("seeing-hard@6/4", cfg)
    assert spec.sees and spec.iterations == 6 and spec.pass_iterations == 4
    assert isinstance(_make("seeing-hard@6/4", cfg), SeeingHard)
    with pytest.raises(ValueError, match="only Hard"):
        bot_spec("seeing-medium", cfg)
    row = play_match((1, 0, cfg))  # a whole match: the arena gave it the real hands before each decision
    assert row.hands and row.seat_bots == ("seeing-hard@6/4", "medium", "seeing-hard@6/4", "medium")
