"""What given options are worth from a seat's view: Hard's search, every option on the same worlds.

The hand review (:mod:`hearts.review`) asks how many points a decision cost compared with the
best alternative. Hard's own search (:mod:`hearts.bots.hard`) picks a card, but it gives
Medium's choice a head start and (version 2) stops searching the weaker candidates half-way,
so its numbers are not a fair comparison of two given options. This module runs the same
machinery — the world sampler with the opponent model (:class:`~hearts.bots.hard.WorldSampler`,
:func:`~hearts.bots.inference.read_plays`), the heuristic rollouts with a moon plan and
blockers (:func:`~hearts.bots.rollout.playout`), Hard's parameters (``PARAMS``) — but plays **every**
option in **every** sampled world with the same random numbers (common random numbers), so a
difference between two options is not sampling noise of two separate samples.

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
from ._bits import HEARTS, JD, QS, QS_BIT, bits, count
from .hard import VERSIONS, HardParams, WorldSampler, _consider_moon, _runner, hand_points
from .inference import Reading, read_plays
from .knowledge import Knowledge
from .medium import pass_choice
from .rollout import POOL, RolloutRules, playout, playout_randoms, random_pool, split_hands

__all__ = ["play_values", "pass_values", "PARAMS", "SLICE_WORK", "Values"]

# The sampler, opponent model, runner rule and rollouts of Hard v5. Not the latest (v7) nor v6: they
# watch a lone point-taker from the seventh trick on (runner_gate 4) *and* draw, for such a runner, only
# worlds in which its moon goes through (moon_viable). This module does not draw those worlds, and the
# wider watch without them blocked no moon in the screens (docs/bots.md, "Hard v6: measured again"): it
# would only make the review call more plays mistakes for a moon that seldom comes. v7's other two
# switches are left out with them: its rollouts' blind defenders (late_defence 27) are a model of a
# Medium table, and its cost on throwing the moon stopper (keep_stopper) is a bias, not a loss the
# review could show the player.
PARAMS: HardParams = VERSIONS[5]
SLICE_WORK = 240  # tricks of rollouts per slice (~2 ms in CPython, a few ms in Pyodide)

Values = Generator[None, None, list[float]]


def _noise(me: int, reading: Reading | None, p: HardParams) -> tuple[float, ...]:
    """Rollout noise per seat, as Hard sets it (``HardBot._noise``)."""
    if reading is None or not p.model_noise:
        return tuple(0.0 if s == me else p.rollout_noise for s in range(4))
    return tuple(0.0 if s == me else min(p.noise_max, max(p.noise_min, reading.deviation_rate(s, p.rollout_noise, 4.0)))
                 for s in range(4))


def play_values(view: SeatView, cards: Sequence[int], rng: random.Random, iterations: int) -> Values:
    """The value of playing each of ``cards`` (legal card numbers) now, over ``iterations`` worlds.

    A card's value is its normal plan's mean; when Hard would consider shooting the moon from
    this position, also its moon plan's mean if that plan reaches the moon in most worlds
    (Hard v2's rule), whichever is higher."""
    k = Knowledge(view)
    p = PARAMS
    plans: list[tuple[int, bool]] = [(c, False) for c in cards]
    if _consider_moon(k, p.moon_gate):
        plans += [(c, True) for c in cards]
    runner = _runner(k, p.runner_gate)
    rules = view.rules
    rr = RolloutRules(rules)
    reading = read_plays(k) if p.trust or p.model_noise else None
    noise = _noise(k.me, reading, p)
    trick = k.trick_cards
    leader = k.leader if trick else k.me
    hearts = [count(t & HEARTS) for t in k.taken]
    queen = next((s for s in range(4) if k.taken[s] & QS_BIT), -1)
    jack = next((s for s in range(4) if k.taken[s] >> JD & 1), -1)
    me, me4 = k.me, k.me * 4
    scores = view.scores
    sampler = WorldSampler(k, reading.avoid if reading else (0, 0, 0, 0), [p.trust] * 4, shuffle=not p.fast_random)
    pool = random_pool(rng, playout_randoms(k.trick_number))
    queen_breaks = rules.queen_breaks_hearts
    sums = [0.0] * len(plans)
    moons = [0] * len(plans)
    per_world = len(plans) * (13 - k.trick_number)
    work = 0
    for _ in range(iterations):
        world = split_hands(sampler(rng))
        start = int(rng.random() * POOL)
        coin = start & 1
        for i, (card, shoot) in enumerate(plans):
            hands = list(world)
            hands[me4 + card // 13] &= ~(1 << card % 13)
            shooter = me if shoot else (runner if runner >= 0 and coin else -1)
            broken = k.broken or card >= 39 or (queen_breaks and card == QS)
            taken, q, j = playout(hands, leader, trick + [card], k.trick_number, broken, hearts, queen, jack,
                                  rr, pool, shooter, noise, p.medium_rollouts, p.defend, start)
            sums[i] -= hand_points(taken, q, j, rules, scores)[me]
            if shoot and taken[me] == 13 and q == me:
                moons[i] += 1
        work += per_world
        if work >= SLICE_WORK:
            work = 0
            yield None
    n = max(iterations, 1)
    values = [sums[i] / n for i in range(len(cards))]
    for i in range(len(cards), len(plans)):
        if 2 * moons[i] > n:
            c = i - len(cards)
            values[c] = max(values[c], sums[i] / n)
    return values


def pass_values(view: SeatView, passes: Sequence[Sequence[int]], rng: random.Random, iterations: int) -> Values:
    """The value of passing each of ``passes`` (3 card numbers from the seat's hand each), over
    ``iterations`` deals of the unseen cards: the other seats pass like Medium, then the hand is
    played out with the rollout policy (Hard's pass search, every candidate on every deal)."""
    p = PARAMS
    me = int(view.seat)
    hand = view.hand_mask
    rules = view.rules
    jack = rules.jack_of_diamonds
    offset = view.pass_direction.offset
    rr = RolloutRules(rules)
    noise = _noise(me, None, p)
    scores = view.scores
    masks = []
    for cand in passes:
        mask = 0
        for c in cand:
            mask |= 1 << c
        masks.append(mask)
    unseen = bits(((1 << 52) - 1) & ~hand)
    others = [(me + i) % 4 for i in (1, 2, 3)]
    no_points = (0, 0, 0, 0)
    pool = random_pool(rng, playout_randoms(0))
    sums = [0.0] * len(masks)
    per_world = 13 * len(masks)
    work = 0
    for _ in range(iterations):
        rng.shuffle(unseen)
        dealt = [0, 0, 0, 0]
        dealt[me] = hand
        for i, s in enumerate(others):
            for c in unseen[13 * i:13 * i + 13]:
                dealt[s] |= 1 << c
        given = [0, 0, 0, 0]
        for s in others:
            for c in pass_choice(dealt[s], jack)[0]:
                given[s] |= 1 << c
        start = int(rng.random() * POOL)
        for i, mask in enumerate(masks):
            given[me] = mask
            hands = [dealt[s] & ~given[s] for s in range(4)]
            for s in range(4):
                hands[(s + offset) % 4] |= given[s]
            leader = next(s for s in range(4) if hands[s] & 1)
            taken, q, j = playout(split_hands(hands), leader, (), 0, False, no_points, -1, -1, rr, pool, -1, noise,
                                  p.medium_rollouts, False, start)
            sums[i] -= hand_points(taken, q, j, rules, scores)[me]
        work += per_world
        if work >= SLICE_WORK:
            work = 0
            yield None
    n = max(iterations, 1)
    return [s / n for s in sums]
