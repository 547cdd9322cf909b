"""The session: the match on the table and what the page knows about it, typed, with its save format.

A :class:`Session` is the match (the engine's :class:`~hearts.Match`) plus a :class:`SessionState`:
whether it is a normal match or a daily game, practice or counted, the bots' level, and the
figures of the match so far (``pending``). Saving writes ``{"v": 2, "record": ..., "session": ...}``;
loading replays the record (:func:`decode_save`) and migrates saves of version 1, whose extra state
was a loose ``meta`` dict.

Corrupt or foreign data raises :class:`CorruptSave` (the caller keeps it aside and starts afresh);
anything else that goes wrong while loading is a bug and propagates.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from enum import Enum
from typing import Mapping

from hearts import HandScore, Match, Phase, RecordError, Seat, SeatView, match_from_record, match_to_record
from hearts.challenge import decode as decode_challenge

from .settings import DIFFICULTIES
from .store import CHALLENGE_GAME_KEY, DAILY_GAME_KEY, MATCH_KEY, ONLINE_MATCH_KEY

__all__ = ["Mode", "Pending", "SessionState", "Session", "Snapshot", "CorruptSave", "SAVE_VERSION",
           "encode_save", "decode_save"]

SAVE_VERSION = 2
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class Mode(Enum):
    MATCH = "match"
    DAILY = "daily"
    ONLINE = "online"  # the match of an online table hosted in this browser
    CHALLENGE = "challenge"  # a friend's deal from a challenge link
    GUIDED = "guided"  # the guided first hand (hearts.guide): never saved, never counted


@dataclass
class Pending:
    """The player's hands, points and moons of this match so far, kept with the save (the statistics
    count the finished match from the match itself: :func:`hearts.tally.match_tally`)."""

    hands: int = 0
    points: int = 0
    moons: int = 0


@dataclass
class SessionState:
    mode: Mode = Mode.MATCH
    practice: bool = False  # a hint was used (or a daily is replayed): the result is not counted
    counted: bool = False  # the result has been counted (statistics, or the daily's attempt)
    difficulty: str = "medium"
    date: str | None = None  # the daily game's date
    challenge: str | None = None  # the challenge link's token (a challenge game)
    pending: Pending = field(default_factory=Pending)

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"mode": self.mode.value, "practice": self.practice, "counted": self.counted,
                               "difficulty": self.difficulty,
                               "pending": {"hands": self.pending.hands, "points": self.pending.points,
                                           "moons": self.pending.moons}}
        if self.date is not None:
            out["date"] = self.date
        if self.challenge is not None:
            out["challenge"] = self.challenge
        return out

    @classmethod
    def from_dict(cls, data: object, repairs: list[str] | None = None, mode: Mode | None = None,
                  difficulty: str = "medium") -> "SessionState":
        """Checked field by field; :class:`CorruptSave` names the first bad one.

        With a ``repairs`` list, a bad field that has a safe value is set to it and its name is
        appended instead: the mode comes from ``mode`` (the key it was stored under), the level
        from ``difficulty``, a bad ``practice`` becomes True (the result is not counted), and
        ``counted``/``pending`` are set by :func:`decode_save` from the match itself. Only a
        daily game without a valid date cannot be repaired."""

        fields = _StoredFields(data, repairs)
        state = cls(mode=fields.mode(mode))
        state.practice = fields.flag("practice", fallback=True)
        state.counted = fields.flag("counted", fallback=False)
        state.difficulty = fields.level(state.mode, difficulty)
        state.date = fields.date(state.mode)
        state.challenge = fields.challenge(state.mode)
        state.pending = fields.pending()
        return state


class _StoredFields:
    """The fields of a stored session state, read one by one: a bad one raises :class:`CorruptSave`,
    or, with a ``repairs`` list, is noted there and takes its safe value."""

    def __init__(self, data: object, repairs: list[str] | None) -> None:
        self.repairs = repairs
        if not isinstance(data, Mapping):
            self.bad("session", "the session must be an object")
            data = {}
        self.data: Mapping[str, object] = data

    def bad(self, name: str, message: str) -> None:
        if self.repairs is None:
            raise CorruptSave(message)
        self.repairs.append(name)

    def mode(self, stored_as: Mode | None) -> Mode:
        raw = self.data.get("mode", "match")
        try:
            mode = Mode(raw)
            if mode is Mode.GUIDED:
                raise ValueError("a guided hand is never saved")
        except (ValueError, TypeError):
            self.bad("mode", f"unknown mode {str(raw)[:20]!r}")
            mode = stored_as or Mode.MATCH
        if stored_as is not None and mode is not stored_as and self.repairs is not None:
            self.repairs.append("mode")
            mode = stored_as
        return mode

    def flag(self, name: str, fallback: bool) -> bool:
        value = self.data.get(name, False)
        if not isinstance(value, bool):
            self.bad(name, f"{name} must be true or false")
            return fallback
        return value

    def level(self, mode: Mode, difficulty: str) -> str:
        level = self.data.get("difficulty", "medium")
        if not isinstance(level, str) or level not in DIFFICULTIES:
            self.bad("difficulty", f"unknown difficulty {str(level)[:20]!r}")
            return "medium" if mode is Mode.DAILY else difficulty
        return level

    def date(self, mode: Mode) -> str | None:
        date = self.data.get("date")
        if mode is not Mode.DAILY and date is None:
            return None
        if not isinstance(date, str) or not _DATE.match(date):
            if mode is Mode.DAILY:
                raise CorruptSave("a daily game needs its date")
            self.bad("date", "a match has no date")
            return None
        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            if mode is Mode.DAILY:
                raise CorruptSave(f"no such date {date!r}") from None
            self.bad("date", f"no such date {date!r}")
            return None
        return date

    def challenge(self, mode: Mode) -> str | None:
        challenge = self.data.get("challenge")
        if mode is not Mode.CHALLENGE and challenge is None:
            return None
        if not isinstance(challenge, str):
            raise CorruptSave("bad challenge: a challenge token must be text")
        try:
            decode_challenge(challenge)
        except (ValueError, TypeError) as exc:
            raise CorruptSave(f"bad challenge: {str(exc)[:80]}") from None
        return challenge

    def pending(self) -> Pending:
        pending = self.data.get("pending", {})
        if not isinstance(pending, Mapping):
            self.bad("pending", "pending must be an object")
            pending = {}
        values = {}
        for name in ("hands", "points", "moons"):
            value = pending.get(name, 0)
            if not isinstance(value, int) or isinstance(value, bool) or not -10**6 < value < 10**6:
                self.bad("pending", f"pending.{name} must be a whole number")
                value = 0
            values[name] = value
        return Pending(**values)


class CorruptSave(ValueError):
    """Saved data that cannot be loaded: unreadable, foreign, tampered or from an unknown version."""


@dataclass
class Session:
    match: Match
    state: SessionState

    @property
    def save_key(self) -> str:
        """The key the session is saved under ("" for the guided hand, which is never saved)."""
        if self.state.mode is Mode.GUIDED:
            return ""
        return {Mode.MATCH: MATCH_KEY, Mode.DAILY: DAILY_GAME_KEY, Mode.ONLINE: ONLINE_MATCH_KEY,
                Mode.CHALLENGE: CHALLENGE_GAME_KEY}[self.state.mode]

    @property
    def deal_can_be_shared(self) -> bool:
        """A deal a friend can get as a challenge link: from a seeded match of this screen or a
        challenge game (not an online table: its deals come from all players' contributions)."""
        if self.state.mode is Mode.CHALLENGE:
            return bool(self.state.challenge)
        return self.state.mode not in (Mode.ONLINE, Mode.GUIDED) and bool(self.match.seed)

    def snapshot(self, seat: Seat = Seat.SOUTH) -> "Snapshot":
        m = self.match
        return Snapshot(m.view(seat), m.scores, tuple(m.score_sheet), m.winners, m.phase, m.max_hands == 1)


@dataclass(frozen=True)
class Snapshot:
    """What the table shows to the player at ``view.seat``: that seat's view of the hand plus the
    match's public state (totals after every finished hand, the score sheet, the winners)."""

    view: SeatView
    totals: tuple[int, int, int, int]
    sheet: tuple[HandScore, ...]
    winners: tuple[Seat, ...]
    phase: Phase  # the match's phase (MATCH_OVER once it has ended)
    one_hand: bool = False  # a game of a single hand (the guided hand, a challenge): its end is the hand's

    def markers(self, seat: Seat) -> tuple[str, ...]:
        return tuple(t.marker for t in self.view.tricks if t.winner == seat)


def encode_save(session: Session) -> dict[str, object]:
    return {"v": SAVE_VERSION, "record": match_to_record(session.match), "session": session.state.to_dict()}


def decode_save(data: object, repairs: list[str] | None = None, mode: Mode | None = None,
                difficulty: str = "medium") -> Session:
    """The session of a save written by :func:`encode_save` (or by version 1).

    Strict by default (:class:`CorruptSave` for any bad field). With a ``repairs`` list the
    session state is repaired where it safely can be (see :meth:`SessionState.from_dict`) and
    the names of the repaired fields are appended; ``pending`` is then always checked against
    the match's own score sheet and ``counted`` is taken from whether the match is over. The
    match record itself is never repaired: a record the engine refuses is corrupt."""
    if not isinstance(data, Mapping):
        raise CorruptSave("a save must be an object")
    version = data.get("v")
    if type(version) is not int or version not in (1, SAVE_VERSION):  # true is not 1, 2.0 is not 2
        raise CorruptSave(f"unknown save version {str(version)[:20]!r}")
    fixed: list[str] | None = None if repairs is None else []
    migrated = version == 1
    if migrated:
        data = _migrate_v1(data, fixed)
    state = SessionState.from_dict(data.get("session"), fixed, mode, difficulty)
    try:
        match = match_from_record(data.get("record"))
    except RecordError as exc:
        raise CorruptSave(f"the match record is invalid: {exc}") from None
    if state.mode in (Mode.DAILY, Mode.CHALLENGE) and match.max_hands != 1:
        raise CorruptSave("a daily or challenge game is a one-hand match")
    if fixed is not None and repairs is not None:
        if "counted" in fixed or "session" in fixed or "meta" in fixed:
            state.counted = match.is_over  # a finished match was counted when it ended
        if state.mode is Mode.MATCH:
            derived = _pending_from(match)
            if state.pending != derived:
                state.pending = derived
                if not migrated and "pending" not in fixed:
                    fixed.append("pending")
        elif "pending" in fixed:
            state.pending = Pending()
        repairs.extend(dict.fromkeys(fixed))  # each field once
    return Session(match, state)


def _pending_from(match: Match) -> Pending:
    """The player's hands, points and moons of this match, from its score sheet."""
    rows = match.score_sheet
    return Pending(len(rows), sum(r.points[Seat.SOUTH] for r in rows), sum(1 for r in rows if r.moon == Seat.SOUTH))


def _migrate_v1(data: Mapping[str, object], repairs: list[str] | None) -> dict[str, object]:
    """Version 1 kept the extra state in ``meta`` and the match dealt the next hand by itself: a save
    made while the hand summary was open (``meta.summary`` = that hand) already holds the next
    hand's empty body. Dropping it leaves the match waiting at the end of the hand, which is
    where the summary now lives. A save without its ``meta`` object is corrupt (strict) or is
    migrated with ``"meta"`` named among the repairs (the notice says so)."""
    meta = data.get("meta")
    if not isinstance(meta, Mapping):
        if repairs is None:
            raise CorruptSave("a version 1 save needs its meta object")
        repairs.append("meta")
        meta = {}
    record = data.get("record")
    summary = meta.get("summary")
    if isinstance(record, Mapping) and isinstance(summary, int) and not isinstance(summary, bool):
        hands = record.get("hands")
        if isinstance(hands, list) and len(hands) == summary + 2 and hands[-1] in ({"passes": {}, "plays": []}, {"plays": []}):
            record = dict(record, hands=hands[:-1])
    known = {k: meta[k] for k in ("mode", "practice", "counted", "difficulty", "date", "pending") if k in meta}
    return {"v": SAVE_VERSION, "record": record, "session": known}
