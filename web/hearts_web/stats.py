"""The player's statistics: matches played and won, hands, points, moons.

A match's hands are held in the session (:class:`~hearts_web.session.Pending`) and added to the
statistics when the match ends, unless it is practice. Daily games are not counted here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from hearts import Event, HandOver, MatchOver, Seat

from .i18n import t
from .session import Mode, SessionState
from .store import STATS_KEY, Store

__all__ = ["Statistics", "note_events"]

PLAYER = Seat.SOUTH
_BIG = 10**9
_RANGES = {"played": (0, _BIG), "won": (0, _BIG), "hands": (0, _BIG), "points": (-_BIG, _BIG), "moons": (0, _BIG)}


@dataclass
class Statistics:
    played: int = 0
    won: int = 0
    hands: int = 0
    points: int = 0
    moons: int = 0

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> "Statistics":
        return cls.check(data)[0]

    @classmethod
    def check(cls, data: Mapping[str, object]) -> tuple["Statistics", bool]:
        """Statistics from stored data; a value that is not a whole number in its range (or an
        unknown key) is dropped, and the flag says whether anything was."""
        values = {}
        dropped = bool(set(data) - set(_RANGES))
        for name, (low, high) in _RANGES.items():
            value = data.get(name, 0)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                dropped = True
                value = 0
            values[name] = value
        stats = cls(**values)
        if stats.won > stats.played or stats.moons > stats.hands:
            stats.won, stats.moons = min(stats.won, stats.played), min(stats.moons, stats.hands)
            dropped = True
        return stats, dropped

    def to_dict(self) -> dict[str, int]:
        return {"played": self.played, "won": self.won, "hands": self.hands, "points": self.points, "moons": self.moons}

    @property
    def average(self) -> float | None:
        return self.points / self.hands if self.hands else None

    @classmethod
    def load(cls, store: Store) -> "Statistics":
        data, _ = store.load_dict(STATS_KEY)
        return cls.from_dict(data)

    def rows(self) -> list[tuple[str, str]]:
        """(label, value) lines of the statistics panel, in the current language."""
        avg = self.average
        return [
            (t("st_played"), str(self.played)),
            (t("st_won"), f"{self.won}" + (f" ({round(100 * self.won / self.played)} %)" if self.played else "")),
            (t("st_hands"), str(self.hands)),
            (t("st_avg"), "–" if avg is None else f"{avg:.1f}"),
            (t("st_moons"), str(self.moons)),
        ]


def note_events(state: SessionState, events: Sequence[Event], store: Store) -> bool:
    """Hold each finished hand in ``state.pending``; at the end of a counted match add everything to
    the stored statistics. Returns True when the statistics were written."""
    if state.mode is not Mode.MATCH:
        return False
    wrote = False
    for ev in events:
        if isinstance(ev, HandOver):
            state.pending.hands += 1
            state.pending.points += ev.points[PLAYER]
            state.pending.moons += 1 if ev.moon == PLAYER else 0
        elif isinstance(ev, MatchOver) and not state.practice and not state.counted:
            stats = Statistics.load(store)
            stats.played += 1
            stats.won += 1 if PLAYER in ev.winners else 0
            stats.hands += state.pending.hands
            stats.points += state.pending.points
            stats.moons += state.pending.moons
            store.set_json(STATS_KEY, stats.to_dict())
            state.counted = True
            wrote = True
    return wrote
