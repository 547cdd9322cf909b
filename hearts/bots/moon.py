"""Moons in Hard's search: its own moon plans, the moon runner it watches, the stopper it keeps.

* **Moon plans.** Besides each candidate card Hard may search the same card as a *moon plan*: it
  then tries to win every trick in that card's rollouts, while the others try to stop it
  (:class:`MoonPlans` says when; the rollout policy says how the others defend). A moon pass keeps
  a moon hand together instead of passing its winners (:func:`moon_pass`, :func:`moon_passes`).
* **The runner.** Another seat that has taken every point so far may be shooting. The search
  plays against such a *moon runner* (:class:`RunnerWatch` says who counts as one): in half of
  the worlds the runner plays the moon plan, and Hard blocks it there (:class:`RunnerWorlds` says
  how those worlds are dealt).
* **The stopper.** Throwing the heart that could still stop a moon onto a trick another seat
  wins, while the moon is open to it, costs a small fixed amount in the search
  (:func:`stopper_throws`).
"""

from __future__ import annotations

from enum import Enum

from ._bits import HEARTS, QS_BIT, SUITS, bits, count, high, rank_of
from .knowledge import Knowledge

__all__ = [
    "MoonPlans",
    "RunnerWatch",
    "RunnerWorlds",
    "MOON_CARDS",
    "RUNNER_WEIGHT",
    "VIABLE_TRIES",
    "consider_moon",
    "find_runner",
    "runner_weights",
    "made_moon",
    "stopper_throws",
    "moon_pass",
    "moon_passes",
]


class MoonPlans(Enum):
    """When Hard searches a moon plan of its own (always only while no other seat has a point,
    and before the last two tricks)."""

    STRONG_HANDS = "strong_hands"  # with 8 points taken, or by trick 9 with 3 hearts from the jack up, 4 hearts
    # and 5 cards from the queen up
    WHILE_OPEN = "while_open"  # at every decision: the search (and the majority of moons) decides


class RunnerWatch(Enum):
    """Who counts as a moon runner: another seat that alone has taken points, and ...

    The value is ``(early, any_points_from)`` for :meth:`Knowledge.moon_runner`."""

    HEARTS = (False, 13)  # ... 3 hearts, or the Q♠ with a heart, or 2 hearts from the seventh trick on
    EARLY = (True, 13)  # ... also 2 hearts, or the Q♠, from the fifth trick on
    LONE_TAKER = (True, 6)  # ... as EARLY, and with any points once six tricks are complete


class RunnerWorlds(Enum):
    """How the worlds in which the moon runner shoots (half of them) are dealt."""

    EVEN = "even"  # as any other world (a coin from the world's random numbers decides)
    STRONG = "strong"  # the runner's hand holds the moon cards with RUNNER_WEIGHT times the usual weight,
    # and the world is drawn again (VIABLE_TRIES at most) until the runner makes the moon in it when
    # Hard plays Medium's card: a runner shoots because it can


# The cards that win a moon: the queens, kings and aces, and the hearts from the ten up.
MOON_CARDS = sum(1 << (suit * 13 + r) for suit in range(4) for r in range(10, 13)) | sum(
    1 << (39 + r) for r in range(8, 13)
)
RUNNER_WEIGHT = 3.0
VIABLE_TRIES = 8


def consider_moon(knowledge: Knowledge, plans: MoonPlans) -> bool:
    """Is a moon plan worth searching? Nobody else has a point, two tricks or more are left,
    and (``STRONG_HANDS``) the hand has the power."""
    if not knowledge.i_can_shoot() or knowledge.trick_number >= 12:
        return False
    if plans is MoonPlans.WHILE_OPEN:
        return True
    hand = knowledge.hand
    hearts = hand & HEARTS
    high_hearts = sum(1 for c in bits(hearts) if rank_of(c) >= 11)
    highs = sum(1 for c in bits(hand) if rank_of(c) >= 12)
    if knowledge.points[knowledge.me] >= 8:
        return True
    return knowledge.trick_number <= 8 and high_hearts >= 3 and count(hearts) >= 4 and highs >= 5


def find_runner(knowledge: Knowledge, watch: RunnerWatch) -> int:
    """The moon runner the search plays against (-1: none)."""
    early, any_points_from = watch.value
    return knowledge.moon_runner(early=early, any_from=any_points_from)


def runner_weights(knowledge: Knowledge, runner: int) -> tuple[int, int, float]:
    """The world sampler's boost for the worlds where ``runner`` shoots: its hand holds the
    unseen moon cards with ``RUNNER_WEIGHT`` times the usual weight."""
    return runner, knowledge.unseen & MOON_CARDS, RUNNER_WEIGHT


def made_moon(result: tuple[list[int], int, int], seat: int) -> bool:
    """Did ``seat`` take every heart and the Q♠ in a rollout's result?"""
    return result[0][seat] == 13 and result[1] == seat


def stopper_throws(knowledge: Knowledge) -> int:
    """The cards (a mask) that would throw away this seat's moon stopper: void in the suit led,
    on a trick another seat is winning while the moon is open to that seat, the highest heart in
    hand, if an unseen heart lies below it (a heart run could meet it), the next heart in hand,
    if any, is lower than some unseen heart above it (else the next one stops as well) and a card
    without points could go instead. Thrown, it is a heart the trick's winner need not beat
    later. 0 when none of it holds."""
    if not knowledge.trick or knowledge.hand & SUITS[knowledge.led]:
        return 0
    seat, _ = knowledge.trick_best()
    if seat == knowledge.me or not knowledge.moon_open(seat):
        return 0
    hearts = knowledge.legal & HEARTS
    if not hearts or not knowledge.legal & ~(HEARTS | QS_BIT):
        return 0
    top = high(hearts)
    below = knowledge.unseen & HEARTS & ((1 << top) - 1)
    rest = hearts & ~(1 << top)
    if not below or (rest and not below >> (high(rest) + 1)):
        return 0  # nothing it could beat, or the next heart in hand stops as well
    return 1 << top


def moon_pass(hand: int) -> tuple[int, ...] | None:
    """The pass of a hand made to shoot (6 hearts, 3 of them from the jack up, 7 cards from the
    queen up, 3 side cards up to the 8): its three lowest side cards. None for other hands."""
    hearts = hand & HEARTS
    high_hearts = sum(1 for c in bits(hearts) if rank_of(c) >= 11)
    highs = sum(1 for c in bits(hand) if rank_of(c) >= 12)
    lows = [c for c in bits(hand & ~HEARTS) if rank_of(c) <= 6]
    if count(hearts) >= 6 and high_hearts >= 3 and highs >= 7 and len(lows) >= 3:
        lows.sort(key=lambda c: (rank_of(c), c))
        return tuple(sorted(lows[:3]))
    return None


def moon_passes(hand: int) -> list[tuple[int, ...]]:
    """Passes that keep a hand with moon chances together, for the pass search to play out with
    Hard shooting: its three lowest cards, and its three lowest side cards (hearts stay), for
    hands with at least four cards from the queen up and two hearts from the jack up."""
    highs = sum(1 for c in bits(hand) if rank_of(c) >= 12)
    high_hearts = sum(1 for c in bits(hand & HEARTS) if rank_of(c) >= 11)
    if highs < 4 or high_hearts < 2:
        return []
    by_rank = sorted(bits(hand), key=lambda c: (rank_of(c), c))
    out = [tuple(sorted(by_rank[:3]))]
    side = [c for c in by_rank if c < 39]
    if len(side) >= 3 and tuple(sorted(side[:3])) != out[0]:
        out.append(tuple(sorted(side[:3])))
    return out
