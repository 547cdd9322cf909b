"""The player's statistics: totals per level and rules preset, the online matches, the last 50 matches.

What a finished match means (points, moons shot and allowed, Q♠ taken, the place) is the engine's
(:mod:`hearts.tally`); this module keeps it. Stored (:mod:`hearts_web.data.registry`) as::

    {"v": 2,
     "levels": {"easy": {"king": {"matches": 3, "won": 1, "hands": 17, "points": 120,
                                  "moons_shot": 0, "moons_allowed": 1, "queens": 4}}},
     "online": {"matches": 1, "won": 0, "hands": 6, "points": 52, "moons_shot": 0, "moons_allowed": 0},
     "earlier": {"matches": 12, "won": 5, "hands": 90, "points": 640, "moons_shot": 1},
     "history": [{"date": "2026-12-03", "level": "easy", "preset": "king", "online": false,
                  "hands": 6, "points": 38, "place": 2, "shared": false}]}

``earlier`` holds the five counters of version 1 (no ``"v"``: played, won, hands, points, moons),
which knew no level: they count in the overall figures, never under a level. Version 1 is read
as it is and written in this form with the next recorded match. Reading checks every part: a
value that is not a whole number in its range becomes zero, totals that cannot all be true are
lowered to fit (:func:`hearts.tally.fit_totals`: no more wins than matches, no hands without a
match, no Q♠ in a hand whose moon another seat shot...), a history entry that cannot be read is
left out, and so is one that its level's totals do not hold (the history never shows more matches,
wins or hands than the figures beside it); the repairs say what was done. Practice matches
and daily games are never recorded here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace

from hearts import Event, HandOver, MatchOver, Seat, preset_name
from hearts.rules import PRESETS
from hearts.tally import HAND_POINTS, MAX_MATCH_HANDS, MatchTally, fit_totals, match_tally

from .daily import is_date
from .session import Mode, Session
from .settings import DIFFICULTIES
from .store import Decoded, Repairs, Unreadable

__all__ = [
    "Totals",
    "Entry",
    "Statistics",
    "Counted",
    "note_events",
    "HISTORY_LIMIT",
    "LEVELS",
    "PRESET_NAMES",
    "VERSION",
    "TOLD",
]

VERSION = 2
PLAYER = Seat.SOUTH
HISTORY_LIMIT = 50
LEVELS = DIFFICULTIES
PRESET_NAMES = (*PRESETS, "custom")
_BIG = 10**9
# the fields each kind of totals keeps (a guest does not see who took the Q♠; version 1 counted less)
LEVEL_FIELDS = ("matches", "won", "hands", "points", "moons_shot", "moons_allowed", "queens")
ONLINE_FIELDS = LEVEL_FIELDS[:6]
EARLIER_FIELDS = LEVEL_FIELDS[:5]
_V1 = {"played": "matches", "won": "won", "hands": "hands", "points": "points", "moons": "moons_shot"}
_ENTRY_KEYS = ("date", "level", "preset", "online", "hands", "points", "place", "shared")
# the repairs the player's notice spells out (code, text key), in the order it tells them
TOLD = (
    ("history_unreadable", "n_stats_history_unreadable"),
    ("history_dropped", "n_stats_history"),
    ("totals_fixed", "n_stats_totals_fixed"),
    ("history_disagrees", "n_stats_history_disagrees"),
    ("unknown_dropped", "n_stats_unknown_dropped"),
)


def _whole(value: object, low: int = 0, high: int = _BIG) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else None


@dataclass
class Totals:
    matches: int = 0
    won: int = 0
    hands: int = 0
    points: int = 0
    moons_shot: int = 0
    moons_allowed: int = 0
    queens: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.won / self.matches if self.matches else None

    @property
    def per_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None

    def add(self, tally: MatchTally) -> None:
        self.matches += 1
        self.won += tally.won
        self.hands += tally.hands
        self.points += tally.points
        self.moons_shot += tally.moons_shot
        self.moons_allowed += tally.moons_allowed
        self.queens += tally.queens or 0

    def plus(self, other: Totals) -> Totals:
        return Totals(*(getattr(self, f.name) + getattr(other, f.name) for f in fields(self)))

    def to_dict(self, keep: Sequence[str]) -> dict[str, int]:
        return {name: getattr(self, name) for name in keep}

    @classmethod
    def read(cls, data: object, keep: Sequence[str], repairs: Repairs) -> Totals:
        """Totals from stored data (only the ``keep`` fields); bad values become zero and totals
        that cannot all be true are lowered, each counted in ``repairs``."""
        if not isinstance(data, Mapping):
            repairs.note("totals_fixed")
            return cls()
        repairs.note("unknown_dropped", len(set(data) - set(keep)))
        values: dict[str, int] = {}
        for name in keep:
            value = _whole(data.get(name, 0), -_BIG if name == "points" else 0)  # absent: none yet
            if value is None:
                repairs.note("totals_fixed")
            values[name] = value or 0
        totals = cls(**values)
        repairs.note("totals_fixed", totals._fit(keep))
        return totals

    def _fit(self, keep: Sequence[str]) -> int:
        """Lower what cannot be true (the ``keep`` fields); the number of values changed. Version
        1 did not keep its hands and matches in step (it counted no moons allowed): only its wins
        and moons are bounded."""
        before = replace(self)
        if "moons_allowed" in keep:
            for name, value in fit_totals(self.to_dict(keep)).items():
                setattr(self, name, value)
        else:
            self.won = min(self.won, self.matches)
            self.moons_shot = min(self.moons_shot, self.hands)
        return sum(getattr(self, f.name) != getattr(before, f.name) for f in fields(self))


@dataclass(frozen=True)
class Entry:
    """One recorded match of the history."""

    date: str
    level: str
    preset: str
    online: bool
    hands: int
    points: int
    place: int  # 1 = won (shared when ``shared``), 2..4 otherwise
    shared: bool = False

    @property
    def won(self) -> bool:
        return self.place == 1

    @property
    def per_hand(self) -> float:
        return self.points / self.hands

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in _ENTRY_KEYS}

    @classmethod
    def read(cls, data: object) -> Entry | None:
        """The entry, or ``None`` when any part of it cannot be true."""
        if not isinstance(data, Mapping) or set(data) != set(_ENTRY_KEYS):
            return None
        hands, place = _whole(data["hands"], 1, MAX_MATCH_HANDS), _whole(data["place"], 1, 4)
        online, shared = data["online"], data["shared"]
        if hands is None or place is None or not isinstance(online, bool) or not isinstance(shared, bool):
            return None
        points = _whole(data["points"], HAND_POINTS[0] * hands, HAND_POINTS[1] * hands)
        level, preset, date = data["level"], data["preset"], data["date"]
        if (
            points is None
            or not is_date(date)
            or level not in LEVELS
            or preset not in PRESET_NAMES
            or (shared and place != 1)
        ):
            return None
        return cls(str(date), str(level), str(preset), online, hands, points, place, shared)


@dataclass
class Statistics:
    levels: dict[str, dict[str, Totals]] = field(default_factory=dict)  # level -> preset -> totals
    online: Totals = field(default_factory=Totals)
    earlier: Totals | None = None  # version 1's counters (no level)
    history: list[Entry] = field(default_factory=list)  # oldest first, at most HISTORY_LIMIT

    # ------------------------------------------------------------------ figures
    def by_level(self, level: str) -> Totals:
        out = Totals()
        for totals in self.levels.get(level, {}).values():
            out = out.plus(totals)
        return out

    def by_preset(self, preset: str) -> Totals:
        out = Totals()
        for presets in self.levels.values():
            out = out.plus(presets.get(preset, Totals()))
        return out

    @property
    def overall(self) -> Totals:
        """Every recorded match at this screen's table, version 1's counters included (not online)."""
        out = self.earlier or Totals()
        for level in self.levels:
            out = out.plus(self.by_level(level))
        return out

    @property
    def presets_played(self) -> list[str]:
        return [p for p in PRESET_NAMES if self.by_preset(p).matches]

    # ------------------------------------------------------------------ recording
    def record(self, tally: MatchTally, level: str, preset: str, date: str, online: bool) -> None:
        """Add one finished match (``level`` is the bots' level, ``preset`` the rules' name)."""
        if online:
            self.online.add(tally)
        else:
            self.levels.setdefault(level, {}).setdefault(preset, Totals()).add(tally)
        self.history.append(Entry(date, level, preset, online, tally.hands, tally.points, tally.place, tally.shared))
        del self.history[:-HISTORY_LIMIT]

    # ------------------------------------------------------------------ the stored form
    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "v": VERSION,
            "levels": {
                lv: {p: t.to_dict(LEVEL_FIELDS) for p, t in presets.items()} for lv, presets in self.levels.items()
            },
            "online": self.online.to_dict(ONLINE_FIELDS),
            "history": [e.to_dict() for e in self.history],
        }
        if self.earlier is not None:
            out["earlier"] = self.earlier.to_dict(EARLIER_FIELDS)
        return out

    @classmethod
    def decode(cls, data: object) -> Decoded[Statistics]:
        """Statistics from stored data (version 2, or version 1's counters) and what had to be
        repaired; :class:`Unreadable` for no object or another version (a newer game's data is
        not guessed at)."""
        if not isinstance(data, Mapping):
            raise Unreadable("statistics must be an object")
        repairs = Repairs()
        for code, text in TOLD:
            repairs.say(code, text)
        if "v" not in data:
            return Decoded(cls._read_v1(data, repairs), repairs)
        if type(data["v"]) is not int or data["v"] != VERSION:  # true is not 1, 2.0 is not 2
            raise Unreadable(f"unknown statistics version {str(data['v'])[:20]!r}")
        repairs.note("unknown_dropped", len(set(data) - {"v", "levels", "online", "earlier", "history"}))
        stats = cls(
            levels=_read_levels(data.get("levels", {}), repairs),
            online=Totals.read(data.get("online", {}), ONLINE_FIELDS, repairs),
        )
        if "earlier" in data:
            stats.earlier = Totals.read(data["earlier"], EARLIER_FIELDS, repairs)
        stats.history = stats._held(_read_history(data.get("history", []), repairs), repairs)
        return Decoded(stats, repairs)

    def _held(self, history: list[Entry], repairs: Repairs) -> list[Entry]:
        """The entries that their totals hold (the newest first): a level and preset's entries
        (online: the online ones) never add up to more matches, wins or hands than its totals."""
        used: dict[tuple[str, str, bool], Totals] = {}
        kept: list[Entry] = []
        for e in reversed(history):
            group = ("", "", True) if e.online else (e.level, e.preset, False)
            totals = self.online if e.online else self.levels.get(e.level, {}).get(e.preset, Totals())
            sums = used.setdefault(group, Totals())
            if (
                sums.matches < totals.matches
                and sums.won + e.won <= totals.won
                and sums.hands + e.hands <= totals.hands
            ):
                sums.matches, sums.won, sums.hands = sums.matches + 1, sums.won + e.won, sums.hands + e.hands
                kept.append(e)
            else:
                repairs.note("history_disagrees")
        return kept[::-1]

    @classmethod
    def _read_v1(cls, data: Mapping[str, object], repairs: Repairs) -> Statistics:
        repairs.note("unknown_dropped", len(set(data) - set(_V1)))
        renamed = {new: data[old] for old, new in _V1.items() if old in data}
        earlier = Totals.read(renamed, EARLIER_FIELDS, repairs)
        return cls(earlier=earlier if earlier != Totals() else None)


def _read_levels(data: object, repairs: Repairs) -> dict[str, dict[str, Totals]]:
    if not isinstance(data, Mapping):
        repairs.note("totals_fixed")
        return {}
    out: dict[str, dict[str, Totals]] = {}
    for level, presets in data.items():
        if level not in LEVELS or not isinstance(presets, Mapping):
            repairs.note("unknown_dropped")
            continue
        for preset, raw in presets.items():
            if preset in PRESET_NAMES:
                out.setdefault(str(level), {})[str(preset)] = Totals.read(raw, LEVEL_FIELDS, repairs)
            else:
                repairs.note("unknown_dropped")
    return out


def _read_history(data: object, repairs: Repairs) -> list[Entry]:
    if not isinstance(data, list):
        repairs.note("history_unreadable")
        return []
    entries = [Entry.read(item) for item in data]
    kept = [e for e in entries if e is not None]
    repairs.note("history_dropped", len(entries) - len(kept) + max(0, len(kept) - HISTORY_LIMIT))
    return kept[-HISTORY_LIMIT:]


# ------------------------------------------------------------------ recording a finished match
@dataclass(frozen=True)
class Counted:
    """A finished match that counts: what :meth:`Statistics.record` adds."""

    tally: MatchTally
    level: str
    preset: str
    date: str
    online: bool

    def add_to(self, stats: Statistics) -> None:
        stats.record(self.tally, self.level, self.preset, self.date, self.online)


def note_events(session: Session, events: Sequence[Event], today: str) -> Counted | None:
    """Keep the match's running figures in ``state.pending`` (a match at this screen's table); at
    the end of a counted match (at this table or hosted online) mark it counted and return what
    the statistics must add (the caller writes it: :meth:`hearts_web.data.registry.SavedData.update`)."""
    state = session.state
    if state.mode not in (Mode.MATCH, Mode.ONLINE):
        return None
    counted = None
    for ev in events:
        if isinstance(ev, HandOver) and state.mode is Mode.MATCH:
            state.pending.hands += 1
            state.pending.points += ev.points[PLAYER]
            state.pending.moons += 1 if ev.moon == PLAYER else 0
        elif isinstance(ev, MatchOver) and not state.practice and not state.counted:
            preset = preset_name(session.match.rules) or "custom"
            counted = Counted(
                match_tally(session.match, PLAYER), state.difficulty, preset, today, online=state.mode is Mode.ONLINE
            )
            state.counted = True
    return counted
