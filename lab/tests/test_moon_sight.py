"""lab.moon_sight: how soon Hard's worlds, uniform and weighed, see another seat's moon run."""

from __future__ import annotations

import random

import pytest

from hearts import PRESETS, Hand, Seat
from hearts.bots._bits import HEARTS, QS_BIT
from hearts.bots.candidates import candidates
from hearts.bots.hard import HardBot
from hearts.bots.knowledge import Knowledge
from hearts.deal import deal_from_seed
from hearts.seats import PassDirection
from lab.arena import ArenaConfig, _make, bot_spec
from lab.moon_sight import MoonEyedHard, main, medium_hands, sight


def test_the_hands_replay_and_a_shooter_took_every_point() -> None:
    for seed, plays, shooter in medium_hands(40):
        hand = Hand(deal_from_seed(seed), PRESETS["standard"], PassDirection.HOLD)
        for seat, card in plays:
            hand.play(seat, card)
        assert hand.is_over
        assert (shooter >= 0) == (26 in hand.points_taken)
        if shooter >= 0:
            assert hand.points_taken[shooter] == 26


def test_only_the_seats_a_moon_is_still_open_to_are_measured() -> None:
    bot = HardBot()
    seen_open = seen_closed = False
    for seed, plays, _shooter in medium_hands(6):
        hand = Hand(deal_from_seed(seed), PRESETS["standard"], PassDirection.HOLD)
        for seat, card in plays:
            if seat is Seat.SOUTH:
                view = sight(hand, card, 8, 0.5, 1, bot)
                takers = {s for s in range(4) if hand.taken_mask(Seat(s)) & (HEARTS | QS_BIT)}
                expected = {s for s in (1, 2, 3) if takers <= {s}}
                assert set(view.uniform) == set(view.weighed) == set(view.truth) == expected
                assert all(0 <= v <= 1 for d in (view.uniform, view.weighed, view.truth) for v in d.values())
                seen_open = seen_open or bool(expected)
                seen_closed = seen_closed or not expected
            hand.play(seat, card)
    assert seen_open and seen_closed


def test_the_report_sees_the_true_deals_runs_best(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--hands", "120", "--worlds", "30", "--calm", "3"]) == 0
    out = capsys.readouterr().out
    shooter = next(line for line in out.splitlines() if line.startswith("the shooter, "))
    late = shooter.split("tricks 9-13: ")[1].split(" (")[0]
    uniform, _weighed, truth = (float(x) for x in late.split(" / "))
    assert truth > uniform  # the true deal shows the run the sampled worlds can only guess at
    assert "every other seat, 3 hands without a moon" in out and "sign test p = " in out


def test_the_moon_eyed_hard_plays_against_the_seat_its_weighed_worlds_see_running() -> None:
    seed, plays, shooter = next(h for h in medium_hands(200) if h[2] > 0)  # another seat shoots
    hand = Hand(deal_from_seed(seed), PRESETS["standard"], PassDirection.HOLD)
    eyed, blind = MoonEyedHard(iterations=30, eye=0.3, looks=40), MoonEyedHard(iterations=30, eye=1.0, looks=40)
    seen_sooner = 0
    last = None
    for seat, card in plays:
        if seat is Seat.SOUTH and len(hand.legal_plays(seat)) > 1:
            knowledge = Knowledge(hand.view(seat))
            cards = candidates(knowledge, eyed.config.trick_split)
            if len(cards) > 1:
                plain = HardBot(iterations=30)._play_search(knowledge, cards, random.Random(5)).runner
                runner = eyed._play_search(knowledge, cards, random.Random(5)).runner
                assert runner in (plain, shooter) and (plain < 0 or runner == plain)
                assert blind._play_search(knowledge, cards, random.Random(5)).runner in (plain, shooter)
                seen_sooner += plain < 0 and runner == shooter
                last = hand.view(seat)
        hand.play(seat, card)
    assert seen_sooner > 0  # the weighed worlds named the shooter before its points did
    assert last is not None
    assert eyed.decide(last, random.Random(1)).cards[0] in last.legal  # it still decides a legal play


def test_the_lab_names_the_moon_eyed_hard_and_refuses_what_it_cannot_be() -> None:
    cfg = ArenaConfig(("x",))
    assert bot_spec("eye30-hard@290/70", cfg).eye == 0.3
    assert isinstance(_make("eye25-hard@50/20", cfg), MoonEyedHard)
    for bad in ("eye0-hard@100", "eye101-hard@100", "eye30-medium", "eye30-seeing-hard@100", "eye30-weigh4e50-hard"):
        with pytest.raises(ValueError):
            bot_spec(bad, cfg)
