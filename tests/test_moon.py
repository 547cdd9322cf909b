"""Moons in the search (hearts.bots.moon): when Hard plans one, who counts as a runner, the stopper."""

from __future__ import annotations

from helpers import mid_hand, stopper_view

from hearts import Seat
from hearts.bots.knowledge import Knowledge
from hearts.bots.moon import (
    MoonPlans,
    RunnerWatch,
    consider_moon,
    find_runner,
    made_moon,
    moon_pass,
    moon_passes,
    runner_weights,
)
from hearts.cards import mask_of, parse_cards


def _mask(text: str) -> int:
    return mask_of(int(c) for c in parse_cards(text))


def _lone_taker(trick: int, taken: int) -> tuple[Knowledge, int]:
    """A position whose next seat alone has taken ``taken``, ``trick`` tricks complete."""
    hand = mid_hand("runner-3", 5, 1)
    k = Knowledge(hand.view(hand.turn))  # type: ignore[arg-type]
    other = (k.me + 1) % 4
    k.taken = [0, 0, 0, 0]
    k.taken[other] = taken
    k.trick_number = trick
    return k, other


def test_the_runner_watches_from_the_hearts_taken_to_any_lone_point_taker() -> None:
    k, other = _lone_taker(5, _mask("2H 3H 4H"))  # three hearts: a runner for every watch
    assert [find_runner(k, w) for w in RunnerWatch] == [other] * 3
    k, other = _lone_taker(4, _mask("2H 3H"))  # two hearts, four tricks complete: an early watch sees it
    assert [find_runner(k, w) for w in RunnerWatch] == [-1, other, other]
    k, other = _lone_taker(4, _mask("QS"))  # the Q♠ alone: early
    assert [find_runner(k, w) for w in RunnerWatch] == [-1, other, other]
    for trick, lone in ((5, -1), (6, other), (9, other)):  # a single heart: only the lone-taker watch, from trick 7
        k, other = _lone_taker(trick, _mask("2H"))
        assert [find_runner(k, w) for w in RunnerWatch] == [-1, -1, lone]
    k, other = _lone_taker(8, _mask("2H"))
    k.taken[(other + 1) % 4 if (other + 1) % 4 != k.me else (other + 2) % 4] |= _mask("3H")
    assert [find_runner(k, w) for w in RunnerWatch] == [-1, -1, -1]  # two seats with points: nobody runs


def test_a_moon_plan_is_searched_while_the_moon_is_open_or_with_a_strong_hand() -> None:
    hand = mid_hand("moon-plans", 1, 0)
    k = Knowledge(hand.view(hand.turn))  # type: ignore[arg-type]
    k.taken = [0, 0, 0, 0]
    assert consider_moon(k, MoonPlans.WHILE_OPEN)
    k.hand = _mask("AH KH QH 5H AS KS QC 2C")
    assert consider_moon(k, MoonPlans.STRONG_HANDS)
    k.hand = _mask("AH KH 5H 4H AS KS QC 2C")  # two hearts from the jack up only
    assert not consider_moon(k, MoonPlans.STRONG_HANDS)
    k.points[k.me] = 8  # ... unless it has taken 8 points already
    assert consider_moon(k, MoonPlans.STRONG_HANDS)
    k.taken[(k.me + 1) % 4] = _mask("2H")  # another seat has a point: no moon
    assert not consider_moon(k, MoonPlans.WHILE_OPEN) and not consider_moon(k, MoonPlans.STRONG_HANDS)


def test_the_runners_strong_worlds_weigh_its_unseen_moon_cards() -> None:
    k, other = _lone_taker(5, _mask("2H 3H 4H"))
    seat, cards, weight = runner_weights(k, other)
    assert seat == other and weight == 3.0 and cards and not cards & ~k.unseen
    assert all(c % 13 >= 10 or (c >= 39 and c % 13 >= 8) for c in range(52) if cards >> c & 1)
    assert made_moon(([0, 13, 0, 0], 1, -1), 1) and not made_moon(([0, 13, 0, 0], 2, -1), 1)


def test_the_stopper_is_the_top_heart_a_void_seat_would_throw_while_the_moon_is_open() -> None:
    """On North's trick South could throw its K♥, the heart that could win a heart trick from a
    moon runner later (unseen hearts lie below it)."""
    from hearts.bots.moon import stopper_throws

    k = Knowledge(stopper_view())
    assert stopper_throws(k) == 1 << 50  # the K♥
    north, west = int(Seat.NORTH), int(Seat.WEST)
    k.taken[north] |= 1 << 39
    assert stopper_throws(k) == 1 << 50  # North alone has points: the moon is still open to it
    k.taken[west] |= 1 << 40
    assert stopper_throws(k) == 0  # two seats have points: no moon to stop
    # the Q♥ next to the K♥ stops as well: throwing either keeps a stopper
    assert stopper_throws(Knowledge(stopper_view("2C 3D 4D 5D 6D 7D 8D 9D TD 2S 3S KH QH"))) == 0
    # only hearts (and the Q♠) to throw: no choice to make
    assert stopper_throws(Knowledge(stopper_view("2C 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"))) == 0


def test_moon_passes_keep_the_winners() -> None:
    strong = _mask("2C 3C 2D AD KD AS KS AH KH QH JH TH 9H")
    assert moon_pass(strong) == tuple(sorted(int(c) for c in parse_cards("2C 3C 2D")))
    assert moon_pass(_mask("2C 3C 2D AD KD AS KS AH KH QH 4D 5D 6D")) is None  # three hearts: search it
    hand = _mask("4C 9D 2S 5S 8S AS KS 2H 6H TH QH KH AH")
    assert moon_passes(hand) == [tuple(sorted(int(c) for c in parse_cards(t))) for t in ("4C 2S 2H", "4C 2S 5S")]
    assert moon_passes(_mask("4C 9D 2S 5S 8S AS KS 2H 6H TH 3H 4H 5H")) == []  # one heart from the jack up
