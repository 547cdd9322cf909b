"""Hard (hearts.bots.hard): deterministic sizes and budgets, the pass search, the gate, the moon defences."""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import mid_hand, pass_view, stopper_view

from hearts import PRESETS, Hand, Seat, SeatView, parse_cards
from hearts.bots import Decision, make_bot
from hearts.bots.candidates import equivalent
from hearts.bots.config import PLAY
from hearts.bots.gate import Gate
from hearts.bots.hard import HardBot
from hearts.bots.knowledge import Knowledge
from hearts.bots.medium import medium_play
from hearts.bots.moon import RunnerWorlds
from hearts.seats import PassDirection


def test_hard_is_deterministic_in_iterations_mode() -> None:
    hand = mid_hand("determinism", 3, 1)
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    first = make_bot("hard", iterations=40).decide(view, random.Random(11))
    for _ in range(2):
        again = make_bot("hard", iterations=40).decide(view, random.Random(11))
        assert again.cards == first.cards and again.stats == first.stats and again.reason == first.reason


def test_a_play_schedule_sizes_each_play_by_the_cards_held() -> None:
    """``play_schedule`` (the arena's ``hard@worker``): a play with n cards in hand searches
    ``schedule[n]`` worlds, the pass keeps ``pass_iterations``."""
    schedule = (5,) + tuple(range(20, 150, 10))  # by cards held: 1 card 20 ... 13 cards 140
    bot = HardBot(iterations=7, pass_iterations=9, play_schedule=schedule)
    sizes = {}
    for seed, tricks, extra in (("sched-a", 1, 2), ("sched-b", 5, 1), ("sched-c", 8, 0)):
        hand = mid_hand(seed, tricks, extra)
        view = hand.view(hand.turn)  # type: ignore[arg-type]
        assert len(view.legal) > 1, seed
        held = len(view.hand)
        sizes[held] = bot.decide(view, random.Random(2)).stats["worlds"]
        assert sizes[held] == schedule[held]
    assert len(set(sizes.values())) == 3
    assert bot.decide(pass_view("2C 3C 4C 5C 6D 7D 8D 9D 2S 3S QS KS AS"), random.Random(1)).stats["worlds"] == 9
    for bad in ((), (5,) * 13, (5,) * 13 + (0,)):
        with pytest.raises(ValueError):
            HardBot(iterations=7, play_schedule=bad)
    with pytest.raises(ValueError):
        HardBot(play_schedule=(5,) * 14)  # needs iterations: the schedule is a deterministic size


def test_decide_steps_yields_slices_and_returns_the_decision() -> None:
    hand = mid_hand("steps", 2, 0)
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    bot = make_bot("hard", iterations=60)
    steps = bot.decide_steps(view, random.Random(3))
    slices = 0
    while True:
        try:
            assert next(steps) is None
            slices += 1
        except StopIteration as done:
            decision = done.value
            break
    assert slices >= 2
    assert decision == bot.decide(view, random.Random(3))


class TickClock:
    """A fake ``perf_counter``: every reading is 1 ms later than the one before."""

    def __init__(self) -> None:
        self.now = 0.0
        self.readings = 0

    def __call__(self) -> float:
        self.now += 0.001
        self.readings += 1
        return self.now


@pytest.mark.parametrize("budget_ms", [30, 90])
def test_budget_mode_stops_when_the_budget_is_spent(budget_ms: int) -> None:
    hand = mid_hand("budget", 1, 1)
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    clock = TickClock()
    decision = HardBot(budget_ms=budget_ms, clock=clock).decide(view, random.Random(1))
    assert decision.cards[0] in view.legal
    # one clock reading per world (plus the two that set the deadline and the first slice
    # and one per yield): the search stopped at the first reading past the deadline
    worlds = decision.stats["worlds"]
    assert clock.now >= budget_ms / 1000
    assert budget_ms * 0.6 <= worlds <= budget_ms, worlds


# ----------------------------------------------------------------------------- Hard's pass
def test_hard_searches_the_pass_over_medium_and_its_alternatives() -> None:
    view = pass_view("2C 3C 4C 5C 6D 7D 8D 9D 2S 3S QS KS AS")
    d = make_bot("hard", iterations=30).decide(view, random.Random(5))
    assert len(set(d.cards)) == 3 and set(d.cards) <= set(view.hand) and d.reason.startswith("pass_")
    values = d.stats["values"]
    assert d.stats["worlds"] == 30
    assert "QS KS AS" in values and len(values) == 20  # Medium's pass + the other 19 of C(6, 3)
    chosen = " ".join(str(c) for c in sorted(d.cards))
    # the choice is the best average once Medium's pass has its head start
    assert values[chosen] + (0.5 if chosen == "QS KS AS" else 0) >= max(values.values()) - 1e-9


def test_hard_pass_is_deterministic_and_does_not_peek() -> None:
    view = pass_view("2C 9C JC 5D 6D KD 3S 8S QS 2H 7H JH AH")
    first = make_bot("hard", iterations=20).decide(view, random.Random(8))
    mine = list(parse_cards("2C 9C JC 5D 6D KD 3S 8S QS 2H 7H JH AH"))
    rest = [c for c in range(52) if c not in mine]
    random.Random(3).shuffle(rest)  # other hidden hands than make_deal's
    hand = Hand([mine, rest[:13], rest[13:26], rest[26:]], PRESETS["standard"], PassDirection.LEFT)
    other = make_bot("hard", iterations=20).decide(hand.view(Seat.SOUTH), random.Random(8))
    assert first == other  # other hidden cards, same view: same decision


def test_hard_keeps_a_moon_hand_together_without_a_search() -> None:
    view = pass_view("2C 3C 2D AD KD AS KS AH KH QH JH TH 9H")
    d = make_bot("hard", iterations=30).decide(view, random.Random(2))
    assert d.reason == "shoot_moon" and set(d.cards) == set(parse_cards("2C 3C 2D"))


def test_hard_plays_out_void_and_moon_passes_and_a_moon_pass_needs_a_majority() -> None:
    view = pass_view("4C 9D 2S 5S 8S AS KS 2H 6H TH QH KH AH")  # one club, one diamond, moon cards
    d = make_bot("hard", iterations=60).decide(view, random.Random(4))
    values = d.stats["values"]
    assert "4C KS AS" in values and "9D KS AS" in values  # empty the clubs (added), the diamonds (Medium's)
    moon = [k for k in values if k.endswith("*")]
    assert moon == ["4C 2S 2H*", "4C 2S 5S*"]  # the three lowest cards; the three lowest side cards
    assert len(values) == len(set(values))
    if d.stats.get("plan") == "moon":
        assert d.reason == "shoot_moon"
    d1 = make_bot("hard", iterations=60, version=1).decide(view, random.Random(4))
    assert not any(k.endswith("*") for k in d1.stats["values"])  # the par's Hard never plays moon passes out


@pytest.mark.parametrize("seed", ["gate-1", "gate-2", "gate-3"])
def test_a_gate_nothing_passes_plays_mediums_card(seed: str) -> None:
    shut = dataclasses.replace(PLAY, gate=Gate(head_start=0.0, significance=1e9, halving=True))
    for tricks, extra in ((2, 0), (4, 1), (6, 3), (9, 2)):
        hand = mid_hand(seed, tricks, extra)
        view = hand.view(hand.turn)  # type: ignore[arg-type]
        k = Knowledge(view)
        d = HardBot(iterations=40, config=shut).decide(view, random.Random(tricks))
        assert equivalent(k, d.cards[0], medium_play(view)[0][0]), (tricks, extra, d)


def test_pass_budget_is_its_own() -> None:
    view = pass_view("2C 9C JC 5D 6D KD 3S 8S QS 2H 7H JH AH")
    clock = TickClock()
    d = HardBot(budget_ms=10, pass_budget_ms=60, clock=clock).decide(view, random.Random(1))
    assert 30 <= d.stats["worlds"] <= 60
    with pytest.raises(ValueError):
        HardBot(pass_budget_ms=0)


def _deal_435_trick_10() -> SeatView:
    """A deal of a seat bench at trick 10: North has taken six hearts and leads the Q♠; East,
    last to play, holds the K♠. North made the moon."""
    plays = (
        "02C 1KC 2JC 38C 1TS 28S 39S 0AS 05C 17C 29C 34C 26S 33S 0JS 1AH 0TD 16D 28D 39D "
        "0AC 1QC 2QH 33C 0AD 14D 2QD 35D 0KH 16H 28H 37H 0KD 12D 2JD 33D 0QS 1TC 25S 32S "
        "0JH 19H 23H 34H 0TH 15H 27D 3KS 02H 16C 24S 37S"
    ).split()
    deal: list[list[int]] = [[], [], [], []]
    for p in plays:
        deal[int(p[0])].append(int(parse_cards(p[1:])[0]))
    hand = Hand(deal, PRESETS["standard"], PassDirection.HOLD)
    for p in plays[:39]:
        hand.play(hand.turn, parse_cards(p[1:])[0])  # type: ignore[arg-type]
    view = hand.view(Seat.EAST)
    assert [str(c) for c in view.legal] == ["2S", "7S", "KS"]
    return view


def test_strong_runner_worlds_make_ducking_under_its_queen_dear() -> None:
    """On ``_deal_435_trick_10``, with the runner's worlds dealt as any other, Hard ducks with the
    2♠ (in most of them the last hearts are spread and the moon fails). With strong runner worlds
    its moon goes through after the duck, so the duck costs about as much as taking the queen."""
    view = _deal_435_trick_10()

    def duck_minus_take(runner_worlds: RunnerWorlds) -> float:
        config = dataclasses.replace(PLAY, loop=dataclasses.replace(PLAY.loop, runner_worlds=runner_worlds))
        d = HardBot(iterations=400, config=config).decide(view, random.Random(7))
        return float(d.stats["values"]["2S"] - d.stats["values"]["KS"])

    even, strong = duck_minus_take(RunnerWorlds.EVEN), duck_minus_take(RunnerWorlds.STRONG)
    assert even > 4.0  # the duck looks far better than taking the queen (5.7 here)
    assert strong < even - 4.0 and strong < 3.0  # 1.0 here


def test_keep_stopper_charges_the_throw_in_every_world_and_nothing_else() -> None:
    """With the cost on, the K♥'s value is the same search's value minus the cost (same worlds;
    without halving every card sees every world) and the other cards' values are unchanged; a
    large cost keeps the K♥ in hand."""
    view = stopper_view()

    def decide(cost: float) -> Decision:
        config = dataclasses.replace(PLAY, gate=dataclasses.replace(PLAY.gate, halving=False), keep_stopper=cost)
        return HardBot(iterations=120, config=config).decide(view, random.Random(3))

    plain, charged, dear = decide(0.0), decide(0.75), decide(30.0)
    values = plain.stats["values"]
    for card, value in charged.stats["values"].items():
        assert value == pytest.approx(values[card] - (0.75 if card == "KH" else 0.0), abs=1e-3)
    assert str(dear.cards[0]) != "KH"
