"""Hard's versions: version 1 (the daily par's bot) decides exactly as it always did.

``tests/fixtures/hard_v1.json`` holds 120 positions with Hard v1's decision and every searched
value at a fixed number of worlds and RNG seed, written by ``python3 -m lab.golden_hard`` before the
search was made faster. A change in the random stream, the world sampler or the rollout
policy of v1 changes some value (a single rollout that ends differently moves a mean by
1/30 point or more).
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import PRESETS, Rules, score_hand
from hearts.bots import make_bot
from hearts.bots.hard import BROWSER_WORLDS, LATEST, VERSIONS, hand_points
from hearts.rules import MoonScoring

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


def test_version_4_is_what_the_arena_measured_v3_plus_the_gate_and_the_clean_trick() -> None:
    # bench/out/arena-confirm-v3-clean-gate.txt measured exactly this against v3
    v3, v4 = dataclasses.asdict(VERSIONS[3]), dataclasses.asdict(VERSIONS[4])
    assert {k: v4[k] for k in v3 if v4[k] != v3[k]} == {"version": 4, "medium_prior": 0.0, "gate_k": 1.5,
                                                         "clean_last": True}


def test_version_5_is_version_4_that_can_duck_under_the_tricks_winner() -> None:
    v4, v5 = dataclasses.asdict(VERSIONS[4]), dataclasses.asdict(VERSIONS[5])
    assert {k: v5[k] for k in v4 if v5[k] != v4[k]} == {"version": 5, "trick_split": True}
    assert set(BROWSER_WORLDS) == set(VERSIONS)


def test_version_6_is_version_5_with_the_moon_defence_the_seat_bench_measured() -> None:
    # bench/out/seat-medium-gate.txt and seat-v3field-gate.txt measured exactly this against v5
    v5, v6 = dataclasses.asdict(VERSIONS[5]), dataclasses.asdict(VERSIONS[6])
    assert {k: v6[k] for k in v5 if v6[k] != v5[k]} == {"version": 6, "moon_viable": True, "runner_gate": 4}


def test_version_7_is_version_6_with_no_blockers_in_the_rollouts_and_the_stopper_kept() -> None:
    # bench/out/seat-medium-stopper.txt measured exactly this against v6 and v1
    v6, v7 = dataclasses.asdict(VERSIONS[6]), dataclasses.asdict(VERSIONS[7])
    assert {k: v7[k] for k in v6 if v7[k] != v6[k]} == {"version": 7, "late_defence": 27, "shoot_late": 8,
                                                         "keep_stopper": 0.25}


def test_versions_are_known_and_checked() -> None:
    assert 1 in VERSIONS and VERSIONS[1].version == 1
    for v, params in VERSIONS.items():
        assert params.version == v
    with pytest.raises(ValueError):
        make_bot("hard", version=max(VERSIONS) + 1)
    with pytest.raises(ValueError):
        make_bot("hard", pass_iterations=5)  # needs iterations
    assert make_bot("hard", iterations=9, version=1).pass_iterations == 9  # type: ignore[attr-defined]


@settings(max_examples=300, deadline=None)
@given(owners=st.lists(st.integers(0, 3), min_size=52, max_size=52),
       moon=st.sampled_from(list(MoonScoring)), jack=st.booleans(),
       scores=st.tuples(*[st.integers(0, 120)] * 4))
def test_hand_points_equal_score_hand(owners: list[int], moon: MoonScoring, jack: bool,
                                      scores: tuple[int, int, int, int]) -> None:
    rules = Rules(moon=moon, jack_of_diamonds=jack)
    taken = [0, 0, 0, 0]
    for card, seat in enumerate(owners):
        taken[seat] |= 1 << card
    if owners[0] == 0:  # often a moon: one seat takes every heart and the queen
        for card in list(range(39, 52)) + [36]:
            for s in range(4):
                taken[s] &= ~(1 << card)
            taken[owners[1]] |= 1 << card
    hearts = [bin(t >> 39).count("1") for t in taken]
    queen = next(s for s in range(4) if taken[s] >> 36 & 1)
    jd = next(s for s in range(4) if taken[s] >> 22 & 1)
    assert hand_points(hearts, queen, jd, rules, scores) == list(score_hand(taken, rules, scores).points)


def test_presets_are_covered_by_the_golden_positions() -> None:
    assert {json.dumps(c["hand"]["rules"], sort_keys=True) for c in CASES} == \
           {json.dumps(r.to_dict(), sort_keys=True) for r in PRESETS.values()}
