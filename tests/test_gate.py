"""The decision gate (hearts.bots.gate): the significance gate, successive halving, the head start."""

from __future__ import annotations

import pytest

from hearts.bots.gate import Gate, PairedGate, Race, clearly_better


def _gate(k: float, worlds: int = 100) -> tuple[PairedGate, list[int]]:
    """Medium's card is option 0; paired advantages over it: option 1 +1.0 (sd 1), option 2 +0.2
    (sd 3), option 3 +2 (sd 25)."""
    gate = PairedGate(4, 0, k)
    gate.diffs = [0.0, worlds * 1.0, worlds * 0.2, worlds * 2.0]
    gate.squares = [0.0, worlds * (1.0 + 1.0), worlds * (0.04 + 9.0), worlds * (4.0 + 625.0)]
    return gate, [worlds] * 4


def test_the_gate_lets_a_card_leave_mediums_only_when_clearly_better() -> None:
    gate, worlds = _gate(1.5)
    assert gate.passing([0, 1, 2, 3], worlds) == [0, 1]  # a big mean from a few worlds does not pass
    gate, worlds = _gate(11.0)
    assert gate.passing([0, 1, 2, 3], worlds) == [0]  # +1.0 is 10 standard errors: not 11
    gate, worlds = _gate(0.01)
    assert gate.passing([1, 2], worlds) == [1, 2]
    gate, _ = _gate(1.5)
    assert gate.passing([0, 1], [1, 1, 1, 1]) == [0]  # one world proves nothing


def test_the_gate_sums_the_paired_differences_of_the_active_options() -> None:
    gate = PairedGate(3, 1, 1.5)
    gate.add([2.0, -1.0, 0.5], [0, 1, 2])
    gate.add([-3.0, -1.0, 9.0], [1, 2])  # option 0 is out of the race
    assert gate.diffs == [3.0, 0.0, 11.5] and gate.squares == [9.0, 0.0, 2.25 + 100.0]


def test_clearly_better_needs_k_standard_errors_above_zero() -> None:
    assert clearly_better(50.0, 100 * (0.25 + 1.0), 100, 1.5)  # mean 0.5, sd 1: 5 standard errors
    assert not clearly_better(50.0, 100 * (0.25 + 1.0), 100, 5.5)
    assert not clearly_better(-50.0, 100 * (0.25 + 1.0), 100, 0.0)


def test_a_gate_has_a_head_start_or_a_significance_not_both() -> None:
    assert Gate(head_start=0.5) != Gate(significance=1.5)
    with pytest.raises(ValueError):
        Gate(head_start=0.5, significance=1.5)


def test_halving_keeps_the_better_half_and_always_mediums_option() -> None:
    race = Race(6, 5, 0.0, True)
    totals = [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    race.worlds = [1] * 6
    race.prune(totals, 0.1)
    assert race.active == list(range(6))  # before a quarter of the search: all
    race.prune(totals, 0.25)
    assert race.active == [0, 1, 2, 5]  # the better half, and Medium's
    race.prune(totals, 0.3)
    assert race.active == [0, 1, 2, 5]  # the next step is at half
    race.prune(totals, 0.5)
    assert race.active == [0, 1, 5]
    assert Race(6, 0, 0.0, False).steps == [] and Race(2, 0, 0.0, True).steps == []  # off, or two options


def test_the_head_start_counts_in_the_halving_and_once_in_the_totals() -> None:
    race = Race(4, 3, 3.0, True)
    race.worlds = [2, 2, 2, 2]
    totals = [4.0, 2.0, 0.0, -1.0]  # means 2, 1, 0, -0.5; Medium's -0.5 + 3 = 2.5
    race.prune(totals, 0.25)
    assert race.active == [0, 3]
    race.add_prior(totals)
    assert totals == [4.0, 2.0, 0.0, 5.0]
