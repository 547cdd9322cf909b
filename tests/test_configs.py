"""Hard's configurations (hearts.bots.config): the three the game uses, and the par's decisions pinned.

``tests/fixtures/hard_v1.json`` holds 120 positions with the par's Hard (version 1) deciding and
every searched value at a fixed number of worlds and RNG seed, written by
``python3 -m lab.golden_hard``. A change in the random stream, the world sampler or the rollout
policy of the par's configuration changes some value (a single rollout that ends differently moves
a mean by 1/30 point or more).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hearts import PRESETS
from hearts.bots import make_bot
from hearts.bots.config import CONFIGS, PAR, PLAY, REVIEW, HardConfig, ReviewConfig, WorldLoop
from hearts.bots.gate import Gate
from hearts.bots.moon import MoonPlans, RunnerWatch, RunnerWorlds
from hearts.bots.rollout import NEVER, RolloutPolicy
from hearts.review import REVIEW_ITERATIONS, REVIEW_THRESHOLD
from lab import golden_hard

ROOT = Path(__file__).resolve().parents[1]

CASES = json.loads((ROOT / "tests" / "fixtures" / "hard_v1.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("part", range(4))
def test_hard_v1_reproduces_its_golden_decisions(part: int) -> None:
    quarter = len(CASES) // 4
    chosen = {i: c for i, c in enumerate(CASES) if i // quarter == part}
    errors = [e for i, case in chosen.items() for e in _check(i, case)]
    assert not errors, "\n".join(errors[:3])


def _check(i: int, case: dict) -> list[str]:
    from hearts import Seat
    from hearts.records import hand_from_record

    got = json.loads(json.dumps(golden_hard.decide(hand_from_record(case["hand"]), Seat.parse(case["seat"]), i)))
    return [] if got == case["decision"] else [f"case {i}: stored {case['decision']} != now {got}"]


def test_the_configurations_are_the_three_the_game_uses() -> None:
    assert CONFIGS == {1: PAR, 7: PLAY}
    assert make_bot("hard").config is PLAY and make_bot("hard", version=1).config is PAR  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        make_bot("hard", version=5)  # the review's worlds are not a bot
    with pytest.raises(ValueError):
        make_bot("hard", pass_iterations=5)  # needs iterations
    assert make_bot("hard", iterations=9, version=1).pass_iterations == 9  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        WorldLoop(REVIEW.loop.policy, False, REVIEW.loop.moon_plans, REVIEW.loop.runner_watch, RunnerWorlds.STRONG)


def test_the_par_is_hard_as_it_was_first_shipped() -> None:
    """Every part off: Medium's head start, no halving, a random stream per world, rollouts
    without Medium's habits or late defence, moon plans only for strong hands."""
    assert PAR == HardConfig(
        label=1,
        loop=WorldLoop(
            RolloutPolicy(False, False, False, 0, 0),
            False,
            MoonPlans.STRONG_HANDS,
            RunnerWatch.HEARTS,
            RunnerWorlds.EVEN,
        ),
        gate=Gate(0.5, 0.0, False),
        trick_split=False,
        moon_majority=False,
        keep_stopper=0.0,
        void_passes=False,
        moon_passes=False,
    )


def test_the_play_configuration_is_version_7() -> None:
    assert PLAY == HardConfig(
        label=7,
        loop=WorldLoop(
            RolloutPolicy(True, True, True, 8, NEVER),
            True,
            MoonPlans.WHILE_OPEN,
            RunnerWatch.LONE_TAKER,
            RunnerWorlds.STRONG,
        ),
        gate=Gate(significance=1.5, halving=True),
        trick_split=True,
        moon_majority=True,
        keep_stopper=0.25,
        void_passes=True,
        moon_passes=True,
    )


def test_the_review_draws_only_worlds_it_can_reproduce() -> None:
    """The review plays every option in the same worlds; it does not draw the play configuration's
    strong runner worlds (a runner's worlds in which its moon goes through), and without them the
    wider watch of a lone point-taker only makes it call more plays mistakes for a moon that seldom
    comes. Its rollouts have no clean trick and no late defence: those model a Medium table and
    bias the search rather than measure a loss."""
    assert REVIEW == ReviewConfig(
        loop=WorldLoop(
            RolloutPolicy(True, True, False, 0, 0), True, MoonPlans.WHILE_OPEN, RunnerWatch.EARLY, RunnerWorlds.EVEN
        ),
        trick_split=True,
        moon_majority=True,
        worlds=600,
        pass_screen=0.5,
        pass_confirm=2.0,
        threshold=1.5,
    )
    assert (REVIEW_ITERATIONS, REVIEW_THRESHOLD) == (REVIEW.worlds, REVIEW.threshold)


def test_a_shooter_is_seen_at_0_to_26_points_or_never() -> None:
    assert RolloutPolicy(runner_seen_at=NEVER).runner_seen_at is None
    for bad in (27, -1, 8.0):
        with pytest.raises(ValueError):
            RolloutPolicy(runner_seen_at=bad)  # type: ignore[arg-type]


def test_presets_are_covered_by_the_golden_positions() -> None:
    assert {json.dumps(c["hand"]["rules"], sort_keys=True) for c in CASES} == {
        json.dumps(r.to_dict(), sort_keys=True) for r in PRESETS.values()
    }
