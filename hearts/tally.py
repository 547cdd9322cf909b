"""What a finished hand and a finished match mean for one seat's statistics.

A player's statistics count, per match: the hands, the points, the moons the seat shot and the
moons it allowed (another seat shot), how often it took the Q♠, and the result (won, shared,
the place). All of it comes from the engine's own state: a finished :class:`~hearts.Match`, or only
its score sheet and winners when that is all a seat knows (a guest at someone else's table, who
sees the score sheet but not the other hands' tricks: the Q♠ is then unknown).

>>> from hearts import Match, PRESETS, Seat
>>> from hearts.table import play, run_sync
>>> from hearts.bots import make_bot
>>> from hearts.bots.player import BotPlayer
>>> m = Match(PRESETS["king"], seed="tally")
>>> run_sync(play(m, [BotPlayer(make_bot("easy"), seed=str(s)) for s in range(4)]))
<Match seed='tally' hand=5 match_over scores=(54, 29, 47, 26)>
>>> match_tally(m, Seat.EAST).won, match_tally(m, Seat.EAST).place, match_tally(m, Seat.SOUTH).place
(True, 1, 4)
>>> mine = match_tally(m, Seat.SOUTH)
>>> mine.points == m.scores[Seat.SOUTH] and mine.hands == len(m.score_sheet)
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .cards import QUEEN_OF_SPADES
from .hand import Hand
from .match import HandScore, Match
from .seats import SEATS, Seat

__all__ = ["HandTally", "MatchTally", "hand_tally", "match_tally", "sheet_tally", "place_of", "HAND_POINTS"]

# What one seat can score in one hand: 26 at most (all the penalty cards, or the others' moon);
# −36 at least (a moon scored −26 for the shooter, who also took the J♦ at −10).
HAND_POINTS = (-36, 26)


@dataclass(frozen=True)
class HandTally:
    """One finished hand for one seat. ``queen_taken`` is ``None`` when it is not known."""

    points: int
    moon_shot: bool
    moon_allowed: bool  # another seat shot the moon
    queen_taken: bool | None


@dataclass(frozen=True)
class MatchTally:
    """One finished match for one seat: sums over its hands, and the result.

    ``place`` is 1 + the number of seats with fewer points (seats on the same total share a
    place); ``won`` is whether the seat is among the match's winners, ``shared`` whether other
    seats won with it. ``queens`` is ``None`` when the Q♠ of some hand is not known."""

    hands: int
    points: int
    moons_shot: int
    moons_allowed: int
    queens: int | None
    won: bool
    shared: bool
    place: int

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0


def hand_tally(hand: Hand, seat: Seat) -> HandTally:
    """The finished ``hand`` for ``seat``; ``ValueError`` while it is still being played."""
    result = hand.result
    if result is None:
        raise ValueError("the hand is not over")
    return HandTally(points=result.points[seat], moon_shot=result.moon == seat,
                     moon_allowed=result.moon is not None and result.moon != seat,
                     queen_taken=bool(hand.taken_mask(seat) & QUEEN_OF_SPADES.mask))


def place_of(totals: Sequence[int], seat: Seat) -> int:
    """1 + the number of seats with fewer points than ``seat``."""
    return 1 + sum(1 for s in SEATS if totals[s] < totals[seat])


def _result(totals: Sequence[int], winners: Sequence[Seat], seat: Seat) -> tuple[bool, bool, int]:
    won = seat in winners
    return won, won and len(winners) > 1, place_of(totals, seat)


def match_tally(match: Match, seat: Seat) -> MatchTally:
    """The finished ``match`` for ``seat``, from its hands; ``ValueError`` while it goes on."""
    if not match.is_over:
        raise ValueError("the match is not over")
    if match.first_hand:  # carried on from another host's match: its earlier hands are rows only
        return sheet_tally(match.score_sheet, match.winners, seat)
    hands = [hand_tally(h, seat) for h in match.hands]
    won, shared, place = _result(match.scores, match.winners, seat)
    return MatchTally(hands=len(hands), points=sum(h.points for h in hands),
                      moons_shot=sum(h.moon_shot for h in hands), moons_allowed=sum(h.moon_allowed for h in hands),
                      queens=sum(1 for h in hands if h.queen_taken), won=won, shared=shared, place=place)


def sheet_tally(sheet: Sequence[HandScore], winners: Sequence[Seat], seat: Seat) -> MatchTally:
    """A finished match for ``seat`` from its score sheet and winners alone (the Q♠ unknown);
    ``ValueError`` for a sheet that is empty or whose totals do not add up."""
    if not sheet or not winners:
        raise ValueError("a finished match has hands and winners")
    running = [0, 0, 0, 0]
    for row in sheet:
        running = [a + b for a, b in zip(running, row.points)]
        if tuple(running) != tuple(row.totals):
            raise ValueError(f"the totals of hand {row.hand_number + 1} do not add up")
    won, shared, place = _result(running, winners, seat)
    return MatchTally(hands=len(sheet), points=running[seat], moons_shot=sum(1 for r in sheet if r.moon == seat),
                      moons_allowed=sum(1 for r in sheet if r.moon is not None and r.moon != seat),
                      queens=None, won=won, shared=shared, place=place)
