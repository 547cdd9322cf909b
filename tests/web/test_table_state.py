"""The line under the hand (``TableState.prompt``) says what the table waits for."""

from __future__ import annotations

import random

from hearts_web.data.session import Session, SessionState
from hearts_web.screen.table_state import TableState
from helpers import RandomPlayer

from hearts import Match, Rules, Seat
from hearts.table import play, run_sync


def _finished(max_hands: int | None) -> TableState:
    match = Match(Rules(target=1), seed="prompt", max_hands=max_hands)
    run_sync(play(match, [RandomPlayer(random.Random(1))] * 4))
    return TableState(snap=Session(match, SessionState()).snapshot(Seat.SOUTH))


def test_a_one_hand_game_ends_with_its_hand_and_a_match_with_the_match() -> None:
    assert _finished(1).prompt() == "Hand 1 is over"
    assert _finished(None).prompt() == "Match over"
