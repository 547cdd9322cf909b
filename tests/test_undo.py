"""Undo (hearts.undo): a seat's last decision and the replies after it are taken back exactly."""

from __future__ import annotations

import copy
import random

import pytest
from helpers import random_action
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import rules_strategy

from hearts import (
    PRESETS,
    Match,
    NextHand,
    PassCards,
    Phase,
    PlayCard,
    RecordError,
    Rules,
    Seat,
    match_from_record,
    match_to_record,
    random_deal,
)
from hearts.undo import take_back, undo_decision, undo_last

# where to stop: ``hands`` hands in, then ``steps`` random actions (few: the start of a hand)
stops = st.tuples(st.integers(0, 3), st.one_of(st.integers(0, 6), st.integers(0, 57)))


def _random_match(rules: Rules, seed: int, stop: tuple[int, int], seeded: bool) -> Match:
    """A random legal match (passes in any order) stopped ``stop[1]`` actions into hand ``stop[0]``
    (or at its end)."""
    rng = random.Random(seed)
    if seeded:
        match = Match(rules, seed=f"undo-{seed}", max_hands=rng.choice([None, None, 1, 3]))
    else:
        match = Match(rules, deals=[random_deal(rng)])
    hands, steps = stop
    while not match.is_over and (match.hand_number < hands or steps > 0):
        if match.hand_number >= hands:
            steps -= 1
        if match.phase is Phase.HAND_OVER:
            match.apply(NextHand(None if seeded else random_deal(rng)))
            continue
        seat = match.to_act[rng.randrange(len(match.to_act))]
        match.apply(random_action(match.view(seat), rng))
    return match


def _decisions(record: dict, seat: Seat) -> int:
    """How many decisions ``seat`` made in ``record`` (passes and cards played)."""
    match = match_from_record(record)
    n = 0
    for hand in match.hands:
        n += hand.passes[seat] is not None
        n += sum(1 for t in hand.tricks for s, _ in t.plays if s == seat)
        n += sum(1 for s, _ in hand.current_trick if s == seat)
    return n


@settings(max_examples=60, deadline=None)
@given(
    rules=rules_strategy, seed=st.integers(0, 2**32), stop=stops, seat=st.sampled_from(list(Seat)), seeded=st.booleans()
)
def test_undo_round_trip(rules, seed, stop, seat, seeded):
    match = _random_match(rules, seed, stop, seeded)
    record = match_to_record(match)
    frozen = copy.deepcopy(record)
    undone = take_back(record, seat)
    assert record == frozen  # the input is not changed
    if undone is None:
        assert _decisions(record, seat) == 0
        return
    assert undo_last(record, seat) == undone.record
    new = undone.record
    assert {k: v for k, v in new.items() if k != "hands"} == {k: v for k, v in record.items() if k != "hands"}
    again = match_from_record(new)  # accepted by the loader ...
    assert match_to_record(again) == new  # ... and consistent
    first = undone.actions[0]
    assert isinstance(first, (PassCards, PlayCard)) and first.seat == seat
    assert seat in again.to_act  # waiting for that very decision
    if isinstance(first, PassCards):  # the others' passes of that hand stay
        before = match.hands[again.hand_number]
        assert all(again.hand.passes[s] == before.passes[s] for s in Seat if s != seat)
    assert all(a.seat != seat for a in undone.actions[1:] if isinstance(a, (PassCards, PlayCard)))
    for action in undone.actions:  # replaying what was removed gives back the original exactly
        again.apply(action)
    assert match_to_record(again) == record
    assert again.scores == match.scores and again.phase is match.phase


@settings(max_examples=15, deadline=None)
@given(rules=rules_strategy, seed=st.integers(0, 2**32), stop=stops, seat=st.sampled_from(list(Seat)))
def test_repeated_undo_walks_back_to_the_start(rules, seed, stop, seat):
    record = match_to_record(_random_match(rules, seed, stop, True))
    left = _decisions(record, seat)
    while (shorter := undo_last(record, seat)) is not None:
        assert _decisions(shorter, seat) == left - 1
        record, left = shorter, left - 1
    assert left == 0 and len(record["hands"]) == 1  # back at the first hand, before the seat's first decision


def _passed_all(match: Match) -> None:
    for seat in match.waiting_for_pass:
        match.choose_pass(seat, match.cards(seat)[-3:])


def _play_until(match: Match, stop) -> None:
    while not stop(match):
        if match.phase is Phase.HAND_OVER:
            match.next_hand()
        elif match.phase is Phase.PASSING:
            _passed_all(match)
        else:
            match.play(match.turn, match.legal_plays()[0])


def test_fresh_hand_goes_back_into_the_previous_one():
    match = Match(PRESETS["standard"], seed="undo-boundary")
    _play_until(match, lambda m: m.hand_number == 1)
    for seat in (Seat.WEST, Seat.NORTH, Seat.EAST):  # the bots pass at once, the player thinks
        match.choose_pass(seat, match.cards(seat)[:3])
    record = match_to_record(match)
    first = match.hands[0]
    last_south = max(
        i
        for i, c in enumerate(first.plays)
        if any(s is Seat.SOUTH and card == c for t in first.tricks for s, card in t.plays)
    )
    new = undo_last(record, Seat.SOUTH)
    assert len(new["hands"]) == 1 and "points" not in new["hands"][0]
    assert new["hands"][0]["plays"] == record["hands"][0]["plays"][:last_south]
    again = match_from_record(new)
    assert again.phase is Phase.PLAYING and again.turn is Seat.SOUTH and again.hand.trick_number == 12
    assert again.scores == (0, 0, 0, 0)


def test_finished_match_can_be_taken_back():
    match = Match(PRESETS["standard"], seed="undo-over", max_hands=1)
    _play_until(match, lambda m: m.is_over)
    again = match_from_record(undo_last(match_to_record(match), Seat.EAST))
    assert not again.is_over and again.turn is Seat.EAST and again.hand.trick_number == 12


def test_pass_undo_keeps_the_others_passes():
    match = Match(PRESETS["standard"], seed="undo-pass")
    _passed_all(match)
    leader = match.turn
    match.play(leader, "2C")
    seat = leader.next  # passed, not played yet
    undone = take_back(match_to_record(match), seat)
    assert undone is not None
    assert set(undone.record["hands"][0]["passes"]) == {s.key for s in Seat if s != seat}
    assert undone.record["hands"][0]["plays"] == []
    assert undone.actions == (PassCards(seat, match.hand.passes[seat]), PlayCard(leader, match.current_trick[0][1]))


def test_nothing_to_undo():
    match = Match(PRESETS["standard"], seed="undo-none")
    assert undo_last(match_to_record(match), Seat.SOUTH) is None
    match.choose_pass(Seat.WEST, match.cards(Seat.WEST)[:3])
    assert undo_last(match_to_record(match), Seat.SOUTH) is None
    assert undo_last(match_to_record(match), Seat.WEST) is not None


def test_bad_records_are_refused():
    with pytest.raises(RecordError):
        undo_last({"format": "hearts-match", "version": 1, "hands": []}, Seat.SOUTH)
    record = match_to_record(Match(seed="undo-bad"))
    record["hands"][0]["passes"] = {"south": ["2C", "2C", "3C"]}
    with pytest.raises(RecordError):
        undo_last(record, Seat.SOUTH)


def _forced_play_then_undo(seed: str) -> tuple[Match, dict, Seat]:
    """A match played by random moves until SOUTH has just played a forced card after a real
    decision of its own (None if the seed gives no such moment)."""
    rng = random.Random(seed)
    match = Match(Rules(), seed=seed)
    real_before = False
    while not match.is_over:
        if match.phase is Phase.HAND_OVER:
            match.apply(NextHand())
            continue
        seat = match.to_act[rng.randrange(len(match.to_act))]
        view = match.view(seat)
        forced = match.phase is Phase.PLAYING and len(view.legal) == 1
        match.apply(random_action(view, rng))
        if seat == Seat.SOUTH:
            if forced and real_before:
                return match, match_to_record(match), seat
            real_before = True
    raise AssertionError("no forced card")


@pytest.mark.parametrize("seed", ["forced-1", "forced-2", "forced-3", "forced-4"])
def test_undo_after_a_forced_card_goes_back_to_the_last_real_decision(seed: str) -> None:
    _, record, seat = _forced_play_then_undo(seed)
    plain = match_from_record(undo_last(record, seat))
    assert plain.turn == seat and len(plain.legal_plays(seat)) == 1  # undo_last: the forced card again
    back = match_from_record(undo_decision(record, seat))
    assert seat in back.to_act
    if back.phase is Phase.PLAYING:
        assert len(back.legal_plays(seat)) > 1  # a real choice
    else:
        assert back.phase is Phase.PASSING
    # the forced card went, and the real decision before it too
    assert _decisions(undo_decision(record, seat), seat) < _decisions(undo_last(record, seat), seat)


def test_undo_decision_is_undo_last_when_the_last_card_was_a_choice() -> None:
    match = Match(seed="undo-choice")
    for seat in Seat:
        match.choose_pass(seat, match.cards(seat)[:3])
    record = match_to_record(match)
    assert undo_decision(record, Seat.SOUTH) == undo_last(record, Seat.SOUTH)
    assert undo_decision(match_to_record(Match(seed="fresh")), Seat.SOUTH) is None
