"""Hypothesis strategies and helpers shared by the property tests."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from hearts import PASS_CYCLES, FirstTrick, MoonScoring, Rules, TieRule

# every rules preset's pass cycle, every option, targets up to 120
rules_strategy = st.builds(
    Rules,
    pass_cycle=st.sampled_from([PASS_CYCLES[k] for k in sorted(PASS_CYCLES)]),
    first_trick=st.sampled_from(list(FirstTrick)),
    queen_breaks_hearts=st.booleans(),
    jack_of_diamonds=st.booleans(),
    moon=st.sampled_from(list(MoonScoring)),
    target=st.integers(min_value=1, max_value=120),
    tie=st.sampled_from(list(TieRule)),
)


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path to every part of a JSON value (the whole value first), to replace one of them."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += json_paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += json_paths(v, prefix + (i,))
    return out
