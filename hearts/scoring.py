"""The score of a finished hand: penalty cards, the moon and the J♦ (``HandResult``, ``score_hand``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import HEARTS_MASK, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, popcount
from .rules import MoonScoring, Rules
from .seats import SEATS, Seat

__all__ = ["HandResult", "score_hand"]

_QS_BIT = QUEEN_OF_SPADES.mask
_JD_BIT = JACK_OF_DIAMONDS.mask


@dataclass(frozen=True)
class HandResult:
    """The score of a finished hand.

    ``penalty`` is what each seat took (hearts 1, Q♠ 13); ``points`` is what each seat
    scores after the moon and the J♦ are applied.
    """

    points: tuple[int, int, int, int]
    penalty: tuple[int, int, int, int]
    moon: Seat | None
    moon_scoring: MoonScoring | None
    jack: Seat | None


def score_hand(taken: Sequence[int], rules: Rules, scores_before: Sequence[int] = (0, 0, 0, 0)) -> HandResult:
    """Score a finished hand from the cards each seat took (bitmasks).

    A moon is all 13 hearts and the Q♠ in one seat's tricks; the J♦ is not needed and is
    scored on top (−10 for whoever took it, the shooter included). With
    ``SHOOTERS_CHOICE`` the others get +26 unless that would end the match with the
    shooter not among the lowest, in which case the shooter takes −26 instead.
    """
    penalty = tuple(popcount(m & HEARTS_MASK) + (13 if m & _QS_BIT else 0) for m in taken)
    jack_seat = None
    if rules.jack_of_diamonds:
        for seat in SEATS:
            if taken[seat] & _JD_BIT:
                jack_seat = seat
    moon = next((s for s in SEATS if penalty[s] == 26), None)
    moon_scoring = None
    if moon is None:
        points = list(penalty)
    else:
        moon_scoring = rules.moon
        if moon_scoring is MoonScoring.SHOOTERS_CHOICE:
            added = [scores_before[s] + (0 if s == moon else 26) for s in SEATS]
            ends = max(added) >= rules.target
            lowest = min(added)
            moon_scoring = (
                MoonScoring.SUBTRACT_FROM_SHOOTER if ends and added[moon] > lowest else MoonScoring.ADD_TO_OTHERS
            )
        if moon_scoring is MoonScoring.ADD_TO_OTHERS:
            points = [0 if s == moon else 26 for s in SEATS]
        else:
            points = [-26 if s == moon else 0 for s in SEATS]
    if jack_seat is not None:
        points[jack_seat] -= 10
    return HandResult(tuple(points), penalty, moon, moon_scoring, jack_seat)  # type: ignore[arg-type]
