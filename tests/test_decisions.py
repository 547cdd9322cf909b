"""Hard plays the same game: a cheap slice of ``lab/decisions.py``, pinned by its signature.

The slice decides a few hundred positions with the play configuration, the daily par's and the
hand review (plays, passes, budget mode on a fake clock, the worker's protocol, the hint, values,
verdicts of a whole hand, two pars) at fixed worlds and seeds. Its signature is a hash over every
card, reason and searched value: any change of play, or of a random stream, changes it. The full
check (some 22,800 decisions) is ``python3 -m lab.decisions check`` after
``python3 -m lab.decisions record`` on the code to compare with.
"""

from __future__ import annotations

from lab.decisions import slice_signature

SLICE = (242, "a65bd20b0fd14ae3")  # decisions, signature (CPython and Pyodide agree)


def test_the_slice_of_recorded_decisions_is_unchanged() -> None:
    assert slice_signature() == SLICE
