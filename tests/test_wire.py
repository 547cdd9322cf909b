"""hearts.wire: views, score sheets and events round-trip through JSON; anything else is a WireError."""

from __future__ import annotations

import json
import random

from helpers import RandomPlayer
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import PRESETS, Event, Match, Seat
from hearts.table import Listener, play, run_sync
from hearts.wire import WireError, event_from_dict, sheet_from_list, sheet_to_list, view_from_dict, view_to_dict


class Keep(Listener):
    def __init__(self) -> None:
        self.events: list[Event] = []
        self.views = []

    async def on_events(self, game, events):  # type: ignore[no-untyped-def]
        self.events += events
        self.views += [game.view(s) for s in Seat]


def test_everything_a_seat_sees_in_a_match_round_trips() -> None:
    for preset in sorted(PRESETS):
        match = Match(PRESETS[preset], seed=f"wire-{preset}", max_hands=3)
        keep = Keep()
        run_sync(play(match, [RandomPlayer(random.Random(preset))] * 4, keep))
        for view in keep.views:
            assert view_from_dict(json.loads(json.dumps(view_to_dict(view)))) == view
        for ev in keep.events:
            assert event_from_dict(json.loads(json.dumps(ev.to_dict()))) == ev
        assert sheet_from_list(json.loads(json.dumps(sheet_to_list(match.score_sheet)))) == tuple(match.score_sheet)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=6),
    max_leaves=30,
)


@settings(max_examples=200, deadline=None)
@given(data=json_values)
def test_malformed_input_is_a_wire_error_and_nothing_else(data) -> None:  # type: ignore[no-untyped-def]
    for read in (view_from_dict, event_from_dict, sheet_from_list):
        try:
            read(data)
        except WireError:
            pass


def test_a_damaged_view_is_refused() -> None:
    d = view_to_dict(Match(seed="dmg").view(Seat.SOUTH))
    for key, value in (
        ("hand", ["ZZ"]),
        ("hand_sizes", [13, 13, 13]),
        ("seat", "up"),
        ("phase", "dancing"),
        ("hand_sizes", [14, 13, 13, 13]),
        ("rules", {"target": "x"}),
    ):
        bad = dict(d, **{key: value})
        try:
            view_from_dict(bad)
        except WireError:
            continue
        raise AssertionError(f"{key}={value!r} was accepted")
