"""The JSON lines the lab's benchmarks write and its reports read back, as types.

``lab.seat_bench`` writes :class:`SeatHand` (its ``--cache`` baseline) and :class:`CandidateHand`
(its ``--out`` file), read by ``lab.moon_report`` and ``lab.runner_watch``; ``lab.openspiel_bench``
writes :class:`OpenSpielGame`, read by ``lab.openspiel_tricks``; ``lab.runner_watch`` also reads
the hands of ``lab.arena``'s ``--save`` file (:class:`ArenaHand`).

A report reads only some keys of a row, and rows of several tools: :class:`MoonSeat`,
:class:`DealMoon`, :class:`Plays`, :class:`Played` and :class:`DealPlayed` are those keys, and every row that has
them fits where they are asked for. Keys that files written by older versions lack are optional
(``total=False``). The module runs under PyPy 3.9 too (``lab.seat_bench``), so it spells optional
keys with ``total=False`` bases rather than ``NotRequired``.
"""

from __future__ import annotations

from typing import TypedDict

__all__ = [
    "MoonSeat",
    "DealMoon",
    "Plays",
    "Played",
    "DealPlayed",
    "Thinking",
    "SeatHand",
    "CandidateHand",
    "OpenSpielGame",
    "ArenaHand",
]


class MoonSeat(TypedDict):
    """The watched seat of a hand and the seat that shot the moon in it (-1: nobody)."""

    seat: int
    moon: int


class DealMoon(MoonSeat):
    """... and the deal's number: the hands of two runs pair up by deal and seat."""

    n: int


class Plays(TypedDict):
    """A hand's plays, space-separated, each the seat's number and the card ("0QS": lab.arena.play_text)."""

    plays: str


class _Played(MoonSeat, Plays):
    pass


class Played(_Played, total=False):
    """A watched hand with its plays."""

    attempts: list[int]  # the seats whose bot chose a moon plan in the hand (rows before it was kept lack it)


class DealPlayed(Played, DealMoon):
    """A watched hand of a numbered deal, with its plays."""


class Thinking(TypedDict):
    """The candidate's searched plays in a hand (``lab.seat_bench``): wall time and worlds, all of
    them and those with a moon runner about."""

    ms: float
    worlds: int
    runner_ms: float
    runner_worlds: int


class _SeatHand(DealPlayed):
    points: list[int]  # per seat, as the rules score them (a moon included)
    penalty: list[int]  # per seat, the points taken in tricks


class SeatHand(_SeatHand, total=False):
    """One hand of ``lab.seat_bench``: deal ``n`` with the candidate in ``seat`` (-1: the field
    everywhere, the baseline)."""

    think: Thinking  # candidate hands only (rows before timings were kept lack it)


class _CandidateHand(SeatHand):
    field: str  # the field's bot spec
    cand: str  # the candidate's bot spec


class CandidateHand(_CandidateHand, total=False):
    """A line of ``lab.seat_bench --out``: a candidate hand with its field and candidate."""

    rules: str  # the preset's name (rows before other rules were benched lack it: standard)


class _OpenSpielGame(MoonSeat):
    deal: int
    bot: str  # the bot's spec (``ismcts@C``: ISMCTS itself)
    points: list[int]  # per seat
    hard: int  # the bot's seat's points
    them: float  # the mean points of the three ISMCTS seats
    hard_seconds: float  # the bot's thinking time in the game


class OpenSpielGame(_OpenSpielGame, total=False):
    """A line of ``lab.openspiel_bench --out``: one game, the bot in ``seat``; with ``--log-plays``
    also the passes (card numbers, per seat) and every card in the order played."""

    passes: list[list[int]]
    plays: list[int]


class _ArenaHand(TypedDict):
    seat_bots: list[str]  # the bot in each seat
    points: list[int]
    moon: int


class ArenaHand(_ArenaHand, total=False):
    """The keys ``lab.runner_watch`` reads of a hand in ``lab.arena --save`` (``HandRow`` as JSON)."""

    attempts: list[int]
    plays: str
