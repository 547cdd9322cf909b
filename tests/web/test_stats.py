"""hearts_web.stats: hands are held until the match ends, practice is never counted."""

from __future__ import annotations

from hearts import HandOver, MatchOver, Seat
from hearts_web.session import Mode, SessionState
from hearts_web.stats import Statistics, note_events
from hearts_web.store import MemoryStorage, Store

HAND = HandOver(0, (0, 26, 26, 26), Seat.SOUTH, (0, 26, 26, 26))
END = MatchOver((Seat.SOUTH,), (40, 101, 70, 90))


def test_a_counted_match_adds_its_hands_once() -> None:
    store, state = Store(MemoryStorage()), SessionState()
    assert not note_events(state, [HAND], store)
    assert state.pending.hands == 1 and state.pending.moons == 1
    assert note_events(state, [HandOver(1, (4, 9, 13, 0), None, (4, 35, 39, 26)), END], store)
    assert Statistics.load(store) == Statistics(played=1, won=1, hands=2, points=4, moons=1)
    assert not note_events(state, [END], store)  # counted already
    assert Statistics.load(store).played == 1


def test_practice_and_daily_games_are_not_counted() -> None:
    store = Store(MemoryStorage())
    note_events(SessionState(practice=True), [HAND, END], store)
    note_events(SessionState(mode=Mode.DAILY, date="2026-11-29"), [HAND, END], store)
    assert Statistics.load(store) == Statistics()
