"""What given options are worth from a seat's view: Hard's world loop, every option on the same worlds.

The hand review (:mod:`hearts.review`) asks how many points a decision cost compared with the
best alternative. Hard's own search picks a card, but it favours Medium's choice and stops
searching the weaker candidates half-way, so its numbers are not a fair comparison of two given
options. This module runs Hard's world loop (:class:`~hearts.bots.worlds.PlayWorlds`,
:class:`~hearts.bots.worlds.PassWorlds`) with the review's configuration
(:data:`~hearts.bots.config.REVIEW`) and plays **every** option in **every** sampled world with
the same random numbers, so a difference between two options is not sampling noise of two
separate samples.

Values are the seat's own expected points of the hand, negated (higher is better): the review
measures points, so the match-aware part of Hard's utility (feeding the leader near the target)
is left out. Only the :class:`~hearts.view.SeatView` is used, like every bot.

Both functions are generators: they yield ``None`` between slices of about ``SLICE_WORK`` tricks
of rollouts (a few milliseconds in the browser) and return the values.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence

from ..view import SeatView
from .config import REVIEW
from .knowledge import Knowledge
from .moon import consider_moon, find_runner, made_moon
from .utility import Utility
from .worlds import PassWorlds, PlayWorlds

__all__ = ["play_values", "pass_values", "SLICE_WORK", "Values"]

SLICE_WORK = 240  # tricks of rollouts per slice (~2 ms in CPython, a few ms in Pyodide)

Values = Generator[None, None, list[float]]


def play_values(view: SeatView, cards: Sequence[int], rng: random.Random, iterations: int) -> Values:
    """The value of playing each of ``cards`` (legal card numbers) now, over ``iterations`` worlds.

    A card's value is its normal plan's mean; when Hard would consider shooting the moon from
    this position, also its moon plan's mean if that plan reaches the moon in most worlds
    (``REVIEW.moon_majority``), whichever is higher."""
    knowledge, loop = Knowledge(view), REVIEW.loop
    moon = consider_moon(knowledge, loop.moon_plans)
    plans = [(c, False) for c in cards] + ([(c, True) for c in cards] if moon else [])
    worlds = PlayWorlds(knowledge, loop, cards, find_runner(knowledge, loop.runner_watch), cards[0], rng)
    own_points = Utility(knowledge.me, view).own_points
    sums = [0.0] * len(plans)
    moons = [0] * len(plans)
    per_world = len(plans) * (13 - knowledge.trick_number)
    work = 0
    for _ in range(iterations):
        world = worlds.draw()
        for i, (card, shoot) in enumerate(plans):
            result = worlds.play(world, card, shoot)
            sums[i] -= own_points(*result)
            if shoot and made_moon(result, knowledge.me):
                moons[i] += 1
        work += per_world
        if work >= SLICE_WORK:
            work = 0
            yield None
    n = max(iterations, 1)
    values = [sums[i] / n for i in range(len(cards))]
    for i in range(len(cards), len(plans)):
        if not REVIEW.moon_majority or 2 * moons[i] > n:
            c = i - len(cards)
            values[c] = max(values[c], sums[i] / n)
    return values


def pass_values(view: SeatView, passes: Sequence[Sequence[int]], rng: random.Random, iterations: int) -> Values:
    """The value of passing each of ``passes`` (3 card numbers from the seat's hand each), over
    ``iterations`` deals of the unseen cards: the other seats pass like Medium, then the hand is
    played out with the rollout policy (Hard's pass search, every candidate on every deal)."""
    me = int(view.seat)
    masks = [sum(1 << c for c in cand) for cand in passes]
    worlds = PassWorlds(view, REVIEW.loop, rng)
    own_points = Utility(me, view).own_points
    sums = [0.0] * len(masks)
    per_world = 13 * len(masks)
    work = 0
    for _ in range(iterations):
        world = worlds.draw()
        for i, mask in enumerate(masks):
            sums[i] -= own_points(*worlds.play(world, mask, False))
        work += per_world
        if work >= SLICE_WORK:
            work = 0
            yield None
    n = max(iterations, 1)
    return [s / n for s in sums]
