"""Hard's configurations: the three the game uses, frozen.

* :data:`PLAY` is the Hard the game plays (``make_bot("hard")``, the hint), version 7.
* :data:`PAR` is the Hard of the daily par v1 (``hearts.daily.PAR_BOTS``), version 1. A par never
  changes once published: neither may this.
* :data:`REVIEW` is the hand review's search (``hearts.bots.evaluate``, ``hearts.review``): the
  worlds of version 5 (its sampler, runner and rollouts), every option played in every world,
  without a head start, so it measures rather than picks; its sizes and its threshold.

The search code is shared; a configuration only names the parts it uses (``docs/bots.md``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .gate import Gate
from .moon import MoonPlans, RunnerWatch, RunnerWorlds
from .rollout import NEVER, RolloutPolicy

__all__ = ["WorldLoop", "HardConfig", "ReviewConfig", "PLAY", "PAR", "REVIEW", "CONFIGS"]


@dataclass(frozen=True)
class WorldLoop:
    """How a search draws its worlds and plays its options out in them (Hard's and the review's)."""

    policy: RolloutPolicy  # how every seat plays in the rollouts
    random_pool: bool  # one pool of random numbers per decision, each suit dealt in order (else a new stream per
    # world and each suit shuffled before it is dealt: the same chances, and the pool is faster)
    moon_plans: MoonPlans  # when Hard searches a moon plan of its own
    runner_watch: RunnerWatch  # who counts as a moon runner
    runner_worlds: RunnerWorlds  # how the worlds in which the runner shoots are dealt

    def __post_init__(self) -> None:
        if self.runner_worlds is RunnerWorlds.STRONG and not self.random_pool:
            raise ValueError("strong runner worlds read their coin from the random pool")


@dataclass(frozen=True)
class HardConfig:
    """One Hard: its world loop, its decision gate and its candidates."""

    label: int  # the version number records, pars and the worker's requests name
    loop: WorldLoop
    gate: Gate
    trick_split: bool  # the current trick's cards split equivalent cards (2♠ ducks under a 3♠, 4♠ wins)
    moon_majority: bool  # a moon plan (or pass) must also reach the moon in most of its worlds
    keep_stopper: float  # > 0: points a throw of the moon stopper costs in the search
    void_passes: bool  # the pass search also tries the pass that empties each short club or diamond suit
    moon_passes: bool  # ... and the passes that keep a moon hand together, with Hard shooting


PLAY = HardConfig(
    label=7,
    loop=WorldLoop(
        RolloutPolicy(medium_habits=True, full_defence=True, clean_last=True, my_moon_seen_at=8, runner_seen_at=NEVER),
        random_pool=True,
        moon_plans=MoonPlans.WHILE_OPEN,
        runner_watch=RunnerWatch.LONE_TAKER,
        runner_worlds=RunnerWorlds.STRONG,
    ),
    gate=Gate(significance=1.5, halving=True),
    trick_split=True,
    moon_majority=True,
    keep_stopper=0.25,
    void_passes=True,
    moon_passes=True,
)

PAR = HardConfig(
    label=1,
    loop=WorldLoop(
        RolloutPolicy(),
        random_pool=False,
        moon_plans=MoonPlans.STRONG_HANDS,
        runner_watch=RunnerWatch.HEARTS,
        runner_worlds=RunnerWorlds.EVEN,
    ),
    gate=Gate(head_start=0.5),
    trick_split=False,
    moon_majority=False,
    keep_stopper=0.0,
    void_passes=False,
    moon_passes=False,
)


@dataclass(frozen=True)
class ReviewConfig:
    """The hand review's search: Hard's world loop, to measure what a decision cost, not to pick one.

    What it measures fixes the rest, so it is no switch here: every option is played in every world
    (no head start, gate or halving, no cost for throwing a stopper); a hand is worth the seat's own
    points (the review measures points, not the match); the options are one card per class of
    equivalent cards, or for a pass the chosen one, Medium's and every 3 of the 6 cards that most
    want to leave (no void or moon passes; a hand made to shoot costs 0 without a search); and the
    best option of the first stage is measured again against the chosen one on fresh worlds (the
    maximum of several noisy means overstates the winner).
    """

    loop: WorldLoop
    trick_split: bool  # the current trick's cards split equivalent cards (as in Hard's candidates)
    moon_majority: bool  # a card's moon plan counts only when it reaches the moon in most worlds
    worlds: int  # worlds per stage of a play: every option, then the best against the chosen one
    pass_screen: float  # a pass's first stage, in ``worlds``: every option plays the whole hand out
    pass_confirm: float  # a pass's second stage, in ``worlds`` (a whole hand varies more than its rest)
    threshold: float  # points of the hand: a decision that costs more is flagged


# The threshold (docs/engine.md, "Hand review"): at 1.5 points Hard's own decisions are never
# flagged and a new seed moves about 1% of the flags, while clear mistakes cost several points.
REVIEW = ReviewConfig(
    loop=WorldLoop(
        RolloutPolicy(medium_habits=True, full_defence=True),
        random_pool=True,
        moon_plans=MoonPlans.WHILE_OPEN,
        runner_watch=RunnerWatch.EARLY,
        runner_worlds=RunnerWorlds.EVEN,
    ),
    trick_split=True,
    moon_majority=True,
    worlds=600,
    pass_screen=0.5,
    pass_confirm=2.0,
    threshold=1.5,
)

CONFIGS: dict[int, HardConfig] = {config.label: config for config in (PAR, PLAY)}
