"""The daily game: one deal for everyone each day, a par to beat, a result to share.

Everything here derives from the date text ``YYYY-MM-DD`` (the player's local date), so
every device computes the same game:

* the deal is :func:`hearts.deal_from_seed` of the date text itself;
* the pass direction rotates with the calendar: ``left, right, across, hold`` indexed by
  the date's proleptic Gregorian ordinal modulo 4 (2026-11-29 is ``right``);
* the rules are the standard preset with that single direction, one hand
  (``Match(..., max_hands=1)``);
* every bot decision uses :func:`hearts.bots.player.decision_rng`, seeded by the date, the
  seat and how many cards have been played, so two players who make the same choices see the
  same game (and a reload continues it identically);
* the opponents play at ``OPPONENT_LEVEL``; the **par** is what the Hard bot (with a fixed
  iteration count, so it is deterministic) scores in the player's seat against the same
  opponents with the same seeds.

The par is versioned: ``PAR_BOTS[v]`` pins the bot that makes "par v{v}" (a Hard version and
its number of worlds), so a stronger Hard never moves the par of a day, past days included.
``PAR_VERSION`` is the version new results use; a stored :class:`DailyResult` keeps the par
version it was compared with (results stored before versions existed are par v1).

>>> pass_direction("2026-11-29").value
'right'
>>> daily_match("2026-11-29").hand.deal == deal_from_seed("2026-11-29")
True
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .bots import make_bot
from .bots.player import BotPlayer
from .deal import deal_fingerprint, deal_from_seed
from .hand import Hand
from .match import Match
from .rules import PRESETS, STANDARD_CYCLE, Rules
from .seats import SEATS, PassDirection, Seat
from .table import Pace, play, run_sync

__all__ = [
    "OPPONENT_LEVEL",
    "PAR_LEVEL",
    "PAR_ITERATIONS",
    "PAR_VERSION",
    "PAR_BOTS",
    "ParBot",
    "PLAYER",
    "parse_date",
    "pass_direction",
    "daily_rules",
    "daily_match",
    "daily_fingerprint",
    "daily_players",
    "play_par",
    "compute_par",
    "share_markers",
    "SHARE_MARKERS",
    "DailyResult",
    "Streaks",
    "streaks",
]

OPPONENT_LEVEL = "medium"
PAR_LEVEL = "hard"
PAR_ITERATIONS = 200


@dataclass(frozen=True)
class ParBot:
    """The bot that plays the player's seat to make a par version."""

    hard_version: int  # a Hard configuration by its version (hearts.bots.config.CONFIGS)
    iterations: int  # sampled worlds per decision (deterministic)


# Frozen: a par version never changes once published. A new par needs a new version number
# (and golden values for it in tests/test_daily.py).
PAR_BOTS: dict[int, ParBot] = {1: ParBot(hard_version=1, iterations=PAR_ITERATIONS)}
PAR_VERSION = 1
PLAYER = Seat.SOUTH
SHARE_MARKERS = ("none", "hearts", "queen", "jack")  # what share_markers can give (jack: the J♦ rule)
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_date(text: str) -> datetime.date:
    """The date of ``YYYY-MM-DD`` (strict); ``ValueError`` with the reason otherwise."""
    if not isinstance(text, str) or not _DATE.match(text):
        raise ValueError(f"a daily date must look like 2026-11-29, got {text!r}")
    try:
        return datetime.date.fromisoformat(text)
    except ValueError as exc:
        raise ValueError(f"no such date {text!r}: {exc}") from None


def pass_direction(date_text: str) -> PassDirection:
    return STANDARD_CYCLE[parse_date(date_text).toordinal() % 4]


def daily_rules(date_text: str) -> Rules:
    return PRESETS["standard"].replace(pass_cycle=(pass_direction(date_text),))


def daily_match(date_text: str) -> Match:
    """The day's game: a one-hand match dealt from the date."""
    return Match(daily_rules(date_text), seed=date_text, max_hands=1)


def daily_fingerprint(date_text: str) -> str:
    """Deal and pass direction in one short digest (to compare CPython with the browser)."""
    return f"{deal_fingerprint(deal_from_seed(date_text))}-{pass_direction(date_text).value}"


def daily_players(date_text: str, pace: Pace | None = None) -> list[BotPlayer]:
    """The day's opponents at every seat (the player's seat is replaced by whoever plays it)."""
    bot = make_bot(OPPONENT_LEVEL)
    return [BotPlayer(bot, seed=date_text, pace=pace) for _ in SEATS]


async def play_par(date_text: str, version: int = PAR_VERSION, pace: Pace | None = None) -> int:
    """Play the day's hand with par ``version``'s bot in the player's seat; return its points."""
    if version not in PAR_BOTS:
        raise ValueError(f"unknown par version {version!r}: choose from {sorted(PAR_BOTS)}")
    spec = PAR_BOTS[version]
    match = daily_match(date_text)
    players = daily_players(date_text, pace)
    par_bot = make_bot(PAR_LEVEL, iterations=spec.iterations, version=spec.hard_version)
    players[PLAYER] = BotPlayer(par_bot, seed=date_text, pace=pace)
    await play(match, players)
    return match.score_sheet[0].points[PLAYER]


def compute_par(date_text: str, version: int = PAR_VERSION) -> int:
    return run_sync(play_par(date_text, version))


def share_markers(hand: Hand, seat: Seat = PLAYER) -> tuple[str, ...]:
    """One marker per trick, spoiler-free: what ``seat`` took in it (``none``, ``hearts``, ``queen``,
    or ``jack`` for a trick with only the J♦ under its rule; see ``SHARE_MARKERS``)."""
    return tuple(t.marker if t.winner == seat else "none" for t in hand.tricks)


@dataclass(frozen=True)
class DailyResult:
    """The stored result of a day's counted attempt, with the version of the par it was
    compared with (``par_version``; a result stored without one is par v1)."""

    date: str
    points: int
    par: int | None
    markers: tuple[str, ...]
    moon: bool = False
    par_version: int = PAR_VERSION

    @property
    def at_or_under_par(self) -> bool:
        return self.par is not None and self.points <= self.par

    def to_dict(self) -> dict[str, Any]:
        return {
            "date": self.date,
            "points": self.points,
            "par": self.par,
            "markers": list(self.markers),
            "moon": self.moon,
            "par_version": self.par_version,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> DailyResult:
        try:
            parse_date(data["date"])
            points, par, markers = data["points"], data.get("par"), data["markers"]
            if not isinstance(points, int) or (par is not None and not isinstance(par, int)):
                raise ValueError("points and par must be whole numbers")
            if not isinstance(markers, list) or not all(m in SHARE_MARKERS for m in markers):
                raise ValueError("markers must be a list of none/hearts/queen")
            par_version = data.get("par_version", 1)  # stored before par versions existed: v1
            if not isinstance(par_version, int) or isinstance(par_version, bool) or par_version < 1:
                raise ValueError("par_version must be a whole number >= 1")
            return cls(data["date"], points, par, tuple(markers), bool(data.get("moon", False)), par_version)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"bad daily result: {exc}") from None


@dataclass(frozen=True)
class Streaks:
    """The daily's streaks. A streak is a run of consecutive days that each qualify, ending today,
    or ending yesterday while today is not played yet (today can still continue it). A day
    breaks it if it is not played or, once played, does not qualify: the streak is then 0 from
    that day on, today included (a day over par ends the par streak the same day)."""

    played: int  # consecutive days played
    at_or_under_par: int  # consecutive days played at or under par (a day without a known par does not qualify)
    best_played: int
    days_played: int
    days_at_or_under_par: int


def streaks(results: Mapping[str, DailyResult], today: str) -> Streaks:
    """Streaks over the stored results (keys are dates), by the rule of :class:`Streaks`.

    >>> r = {d: DailyResult(d, p, 4, ()) for d, p in (("2026-01-29", 2), ("2026-01-30", 4), ("2026-01-31", 9))}
    >>> s = streaks(r, "2026-01-31")
    >>> s.played, s.at_or_under_par
    (3, 0)
    """
    day = parse_date(today)
    dates = {parse_date(d) for d in results}

    def run(ok: Any) -> int:
        start = day if day in dates else day - datetime.timedelta(days=1)  # a played today counts, good or bad
        count = 0
        while start in dates and ok(start):
            count += 1
            start -= datetime.timedelta(days=1)
        return count

    def under(d: datetime.date) -> bool:
        return results[d.isoformat()].at_or_under_par

    best = 0
    current = 0
    previous: datetime.date | None = None
    for d in sorted(dates):
        current = current + 1 if previous is not None and (d - previous).days == 1 else 1
        best = max(best, current)
        previous = d
    return Streaks(
        played=run(lambda d: True),
        at_or_under_par=run(under),
        best_played=best,
        days_played=len(dates),
        days_at_or_under_par=sum(1 for r in results.values() if r.at_or_under_par),
    )
