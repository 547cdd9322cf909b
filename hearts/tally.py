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

Totals of many matches (as statistics keep them) can only be certain sums: :func:`fit_totals`
lowers stored totals that no real matches add up to, by the rules of the game (a moon takes the
Q♠; a seat that allows a moon did not take the Q♠ of that hand; each hand scores within
:data:`HAND_POINTS`; a match has at least one hand and at most :data:`MAX_MATCH_HANDS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cards import QUEEN_OF_SPADES
from .hand import Hand
from .match import HandScore, Match
from .seats import SEATS, Seat

__all__ = [
    "HandTally",
    "MatchTally",
    "hand_tally",
    "match_tally",
    "sheet_tally",
    "place_of",
    "fit_totals",
    "HAND_POINTS",
    "MAX_MATCH_HANDS",
]

# What one seat can score in one hand: 26 at most (all the penalty cards, or the others' moon);
# −36 at least (a moon scored −26 for the shooter, who also took the J♦ at −10).
HAND_POINTS = (-36, 26)
# The most hands believed of one match: a match to 10,000 points (the highest target) ends within a
# few thousand hands, unless moons scored against their shooter take points away hand after hand.
MAX_MATCH_HANDS = 10_000


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
    return HandTally(
        points=result.points[seat],
        moon_shot=result.moon == seat,
        moon_allowed=result.moon is not None and result.moon != seat,
        queen_taken=bool(hand.taken_mask(seat) & QUEEN_OF_SPADES.mask),
    )


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
    return MatchTally(
        hands=len(hands),
        points=sum(h.points for h in hands),
        moons_shot=sum(h.moon_shot for h in hands),
        moons_allowed=sum(h.moon_allowed for h in hands),
        queens=sum(1 for h in hands if h.queen_taken),
        won=won,
        shared=shared,
        place=place,
    )


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
    return MatchTally(
        hands=len(sheet),
        points=running[seat],
        moons_shot=sum(1 for r in sheet if r.moon == seat),
        moons_allowed=sum(1 for r in sheet if r.moon is not None and r.moon != seat),
        queens=None,
        won=won,
        shared=shared,
        place=place,
    )


def fit_totals(totals: Mapping[str, int]) -> dict[str, int]:
    """``totals`` of a seat's finished matches (``matches``, ``won``, ``hands``, ``points``,
    ``moons_shot``; ``moons_allowed`` and ``queens`` when they are counted), each lowered as
    little as needed so that real matches can add up to them. Real totals come back unchanged.

    >>> fit_totals({"matches": 0, "won": 0, "hands": 500, "points": 2500, "moons_shot": 0, "queens": 400})
    {'matches': 0, 'won': 0, 'hands': 0, 'points': 0, 'moons_shot': 0, 'queens': 0}
    """
    out = dict(totals)
    out["matches"] = min(out["matches"], out["hands"])  # every match has a hand
    out["hands"] = min(out["hands"], out["matches"] * MAX_MATCH_HANDS)
    out["won"] = min(out["won"], out["matches"])
    hands = out["hands"]
    out["points"] = max(HAND_POINTS[0] * hands, min(HAND_POINTS[1] * hands, out["points"]))
    allowed = out["moons_allowed"] = min(out.get("moons_allowed", 0), hands)
    out["moons_shot"] = min(out["moons_shot"], hands - allowed)  # one moon a hand
    if "queens" in totals:
        out["queens"] = min(out["queens"], hands - allowed)  # the moon's shooter took that hand's Q♠
        out["moons_shot"] = min(out["moons_shot"], out["queens"])  # a moon takes the Q♠
    if "moons_allowed" not in totals:
        del out["moons_allowed"]
    return out
