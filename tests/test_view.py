"""A seat's view holds what that seat may know and nothing else."""

import dataclasses
import random

from helpers import step

from hearts import PRESETS, Match, Phase, Seat, SeatView, mask_of


def _walk(value, seen=None):
    """Every object reachable from a view (dataclass fields, tuples, enums' values)."""
    seen = set() if seen is None else seen
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _walk(getattr(value, f.name), seen)
    elif isinstance(value, (tuple, list, frozenset, set)):
        for item in value:
            yield from _walk(item, seen)


def test_views_hold_no_hidden_cards_and_no_game_objects():
    rng = random.Random(3)
    match = Match(PRESETS["standard"], seed="view")
    for _ in range(40):
        step(match, rng)
    for seat in Seat:
        view = match.view(seat)
        objects = list(_walk(view))
        assert not any(type(o).__name__ in {"Match", "Hand", "list", "dict", "set"} for o in objects)
        hidden = 0
        for other in Seat:
            if other != seat:
                hidden |= match.hand.cards_mask(other)
        known = mask_of(view.passed or ()) if match.phase is Phase.PLAYING else 0
        cards_in_view = {int(o) for o in objects if type(o).__name__ == "Card"}
        leaked = {c for c in cards_in_view if hidden >> c & 1} - {c for c in range(52) if known >> c & 1}
        assert not leaked, f"{seat.name} sees hidden cards {leaked}"


def test_view_contents():
    rng = random.Random(4)
    match = Match(PRESETS["standard"], seed="contents")
    while match.phase is Phase.PASSING:
        step(match, rng)
    for _ in range(9):
        step(match, rng)
    view = match.view(Seat.SOUTH)
    assert isinstance(view, SeatView)
    assert view.hand == match.cards(Seat.SOUTH) and view.pass_direction.value == "left"
    assert len(view.tricks) == 2 and len(view.current_trick) == 1
    assert view.played_mask == mask_of(match.hand.plays)
    assert view.unseen_mask & view.hand_mask == 0
    assert sum(view.hand_sizes) == 52 - 9
    assert view.known_cards()[Seat.WEST] == mask_of(view.passed) & ~view.played_mask
    assert (view.legal != ()) == (match.turn == Seat.SOUTH)
    for seat, voids in zip(Seat, view.voids()):
        for trick in view.tricks:
            led = trick.plays[0][1].suit
            if any(s == seat and c.suit != led for s, c in trick.plays):
                assert led in voids
