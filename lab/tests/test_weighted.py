"""lab.weighted: worlds weighed by the likelihood of the other seats' plays."""

from __future__ import annotations

import random
import statistics

import pytest

from hearts import PRESETS, Hand, Seat
from hearts.bots import make_bot
from hearts.bots.candidates import candidates
from hearts.bots.hard import HardBot
from hearts.bots.knowledge import Knowledge
from hearts.bots.worlds import WorldSampler
from hearts.deal import deal_from_seed
from hearts.seats import PassDirection
from lab.arena import ArenaConfig, _make, bot_spec
from lab.weighted import PlayLikelihood, WeighedHard, WeighedSampler, main


def truth_of(hand: Hand) -> list[int]:
    return [hand.cards_mask(s) for s in Seat]


def medium_hand(seed: str, plays: int) -> Hand:
    """A hand (no passing) played ``plays`` cards far by Medium in every seat."""
    hand = Hand(deal_from_seed(seed), PRESETS["standard"], PassDirection.HOLD)
    medium = make_bot("medium")
    for _ in range(plays):
        seat = hand.turn
        assert seat is not None
        hand.play(seat, medium.decide(hand.view(seat), random.Random(0)).cards[0])
    return hand


@pytest.mark.parametrize("seed", ["weigh-1", "weigh-2", "weigh-3", "weigh-4"])
def test_the_real_deal_is_likelier_than_the_worlds_the_sampler_deals(seed: str) -> None:
    """Medium plays much like the rollout policy: what it played says something about its hand."""
    hand = medium_hand(seed, 26)
    assert hand.turn is not None
    knowledge = Knowledge(hand.view(hand.turn))
    likelihood = PlayLikelihood(knowledge, HardBot().config.loop.policy, 0.3)
    assert likelihood.events
    sampler, rng = WorldSampler(knowledge), random.Random(1)
    sampled = [likelihood(sampler(rng)) for _ in range(200)]
    assert likelihood(truth_of(hand)) > statistics.median(sampled)
    assert len(set(sampled)) > 1  # the worlds are told apart


def test_the_weighed_sampler_prefers_the_likelier_worlds() -> None:
    hand = medium_hand("weigh-5", 26)
    assert hand.turn is not None
    knowledge = Knowledge(hand.view(hand.turn))
    likelihood = PlayLikelihood(knowledge, HardBot().config.loop.policy, 0.3)
    plain, weighed = WorldSampler(knowledge), WeighedSampler(WorldSampler(knowledge), likelihood, 8)
    rng = random.Random(2)
    mean_plain = statistics.mean(likelihood(plain(rng)) for _ in range(150))
    mean_weighed = statistics.mean(likelihood(weighed(rng)) for _ in range(150))
    assert mean_weighed > mean_plain + 0.5


def test_with_a_fixed_seed_it_decides_the_same_and_searches_weighed_worlds() -> None:
    hand = medium_hand("weigh-6", 21)
    assert hand.turn is not None
    view = hand.view(hand.turn)
    knowledge = Knowledge(view)
    cards = candidates(knowledge, HardBot().config.trick_split)
    assert len(cards) > 1
    bot = WeighedHard(iterations=40, draws=4, eps=0.5)
    assert bot.decide(view, random.Random(9)).cards == bot.decide(view, random.Random(9)).cards
    search = bot._play_search(knowledge, cards, random.Random(3))
    assert isinstance(search.worlds.sampler, WeighedSampler)


def test_the_lab_names_it_and_refuses_what_it_cannot_be() -> None:
    cfg = ArenaConfig(("x",))
    assert bot_spec("weigh4e50-hard@1150/270", cfg).weigh == (4, 0.5)
    assert isinstance(_make("weigh2e30-hard@50/20", cfg), WeighedHard)
    for bad in ("weigh0e50-hard@100", "weigh4e0-hard@100", "weigh4e50-medium", "weigh4e50-seeing-hard@100"):
        with pytest.raises(ValueError):
            bot_spec(bad, cfg)


def test_the_fit_report_ranks_the_truth_high_in_a_field_of_medium(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--medium", "3", "--worlds", "30"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert line.startswith("Medium (3 hands): mean rank ")
    assert float(line.split("mean rank ")[1].split()[0]) > 0.7


def test_the_fit_report_counts_the_plays_that_choose_the_all_seeing_card(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--medium", "2", "--worlds", "10", "--agree", "12", "--draws", "2"]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    searched = int(line.split("of ")[1].split()[0])
    plain = int(line.split("Hard ")[1].split(",")[0])
    weighed = int(line.split("draws) ")[1].split(";")[0])
    assert searched > 5 and 0 < plain <= searched and 0 < weighed <= searched
