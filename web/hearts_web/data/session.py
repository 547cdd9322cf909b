"""The session: the match on the table and what the page knows about it, typed, with its save format.

A :class:`Session` is the match (the engine's :class:`~hearts.Match`) plus a :class:`SessionState`:
whether it is a normal match or a daily game, practice or counted, the bots' level, and the
figures of the match so far (``pending``). Saving writes ``{"v": 2, "record": ..., "session": ...}``;
loading replays the record (:func:`decode_game`) and migrates saves of version 1, whose extra state
was a loose ``meta`` dict. Which key holds the game of each mode: :mod:`hearts_web.data.registry`.

Corrupt or foreign data raises :class:`~hearts_web.data.store.Unreadable` (the caller keeps it aside and
starts afresh); anything else that goes wrong while loading is a bug and propagates.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from hearts import HandScore, Match, Phase, RecordError, Seat, SeatView, match_from_record, match_to_record
from hearts.challenge import decode as decode_challenge

from .settings import DIFFICULTIES
from .store import Decoded, Repairs, Unreadable

__all__ = ["Mode", "Pending", "SessionState", "Session", "Snapshot", "SAVE_VERSION", "encode_save", "decode_game"]

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
        out: dict[str, object] = {
            "mode": self.mode.value,
            "practice": self.practice,
            "counted": self.counted,
            "difficulty": self.difficulty,
            "pending": {"hands": self.pending.hands, "points": self.pending.points, "moons": self.pending.moons},
        }
        if self.date is not None:
            out["date"] = self.date
        if self.challenge is not None:
            out["challenge"] = self.challenge
        return out

    @classmethod
    def from_dict(cls, data: object, repairs: list[str], mode: Mode, difficulty: str = "medium") -> SessionState:
        """Checked field by field: a bad field that has a safe value is set to it and its name is
        appended to ``repairs``: the mode comes from ``mode`` (the key it was stored under), the
        level from ``difficulty``, a bad ``practice`` becomes True (the result is not counted), and
        ``counted``/``pending`` are set by :func:`decode_game` from the match itself. A daily game
        without a valid date or a challenge game without its token cannot be repaired
        (:class:`Unreadable`)."""

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
    """The fields of a stored session state, read one by one: a bad one is noted in ``repairs``
    and takes its safe value."""

    def __init__(self, data: object, repairs: list[str]) -> None:
        self.repairs = repairs
        if not isinstance(data, Mapping):
            self.bad("session")
            data = {}
        self.data: Mapping[str, object] = data

    def bad(self, name: str) -> None:
        self.repairs.append(name)

    def mode(self, stored_as: Mode) -> Mode:
        raw = self.data.get("mode", "match")
        try:
            mode = Mode(raw)
        except (ValueError, TypeError):
            mode = None
        if mode is not stored_as:  # another mode (a guided hand is never saved), or none
            self.bad("mode")
        return stored_as

    def flag(self, name: str, fallback: bool) -> bool:
        value = self.data.get(name, False)
        if not isinstance(value, bool):
            self.bad(name)
            return fallback
        return value

    def level(self, mode: Mode, difficulty: str) -> str:
        level = self.data.get("difficulty", "medium")
        if not isinstance(level, str) or level not in DIFFICULTIES:
            self.bad("difficulty")
            return "medium" if mode is Mode.DAILY else difficulty
        return level

    def date(self, mode: Mode) -> str | None:
        date = self.data.get("date")
        if mode is not Mode.DAILY and date is None:
            return None
        if not isinstance(date, str) or not _DATE.match(date):
            if mode is Mode.DAILY:
                raise Unreadable("a daily game needs its date")
            self.bad("date")
            return None
        try:
            datetime.date.fromisoformat(date)
        except ValueError:
            if mode is Mode.DAILY:
                raise Unreadable(f"no such date {date!r}") from None
            self.bad("date")
            return None
        return date

    def challenge(self, mode: Mode) -> str | None:
        challenge = self.data.get("challenge")
        if mode is not Mode.CHALLENGE and challenge is None:
            return None
        if not isinstance(challenge, str):
            raise Unreadable("bad challenge: a challenge token must be text")
        try:
            decode_challenge(challenge)
        except (ValueError, TypeError) as exc:
            raise Unreadable(f"bad challenge: {str(exc)[:80]}") from None
        return challenge

    def pending(self) -> Pending:
        pending = self.data.get("pending", {})
        if not isinstance(pending, Mapping):
            self.bad("pending")
            pending = {}
        values = {}
        for name in ("hands", "points", "moons"):
            value = pending.get(name, 0)
            if not isinstance(value, int) or isinstance(value, bool) or not -(10**6) < value < 10**6:
                self.bad("pending")
                value = 0
            values[name] = value
        return Pending(**values)


@dataclass
class Session:
    match: Match
    state: SessionState

    @property
    def deal_can_be_shared(self) -> bool:
        """A deal a friend can get as a challenge link: from a seeded match of this screen or a
        challenge game (not an online table: its deals come from all players' contributions)."""
        if self.state.mode is Mode.CHALLENGE:
            return bool(self.state.challenge)
        return self.state.mode not in (Mode.ONLINE, Mode.GUIDED) and bool(self.match.seed)

    def snapshot(self, seat: Seat = Seat.SOUTH) -> Snapshot:
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


def decode_game(data: object, mode: Mode, difficulty: str = "medium") -> Decoded[Session]:
    """The session of a save written by :func:`encode_save` (or by version 1) under the key of
    ``mode``, and the names of the fields that had to be repaired.

    The session state is repaired where it safely can be (see :meth:`SessionState.from_dict`);
    ``pending`` is always checked against the match's own score sheet, and ``counted`` is taken
    from whether the match is over when it could not be read. The match record itself is never
    repaired: a record the engine refuses, an unknown version or a daily or challenge game of more
    than one hand is :class:`Unreadable`."""
    if not isinstance(data, Mapping):
        raise Unreadable("a save must be an object")
    version = data.get("v")
    if type(version) is not int or version not in (1, SAVE_VERSION):  # true is not 1, 2.0 is not 2
        raise Unreadable(f"unknown save version {str(version)[:20]!r}")
    fixed: list[str] = []
    migrated = version == 1
    if migrated:
        data = _migrate_v1(data, fixed)
    state = SessionState.from_dict(data.get("session"), fixed, mode, difficulty)
    try:
        match = match_from_record(data.get("record"))
    except RecordError as exc:
        raise Unreadable(f"the match record is invalid: {exc}") from None
    if state.mode in (Mode.DAILY, Mode.CHALLENGE) and match.max_hands != 1:
        raise Unreadable("a daily or challenge game is a one-hand match")
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
    repairs = Repairs()
    repairs.say("practice", "n_now_practice")  # a bad practice flag made the game practice: said so
    for name in dict.fromkeys(fixed):  # each field once
        repairs.note(name)
    return Decoded(Session(match, state), repairs)


def _pending_from(match: Match) -> Pending:
    """The player's hands, points and moons of this match, from its score sheet."""
    rows = match.score_sheet
    return Pending(len(rows), sum(r.points[Seat.SOUTH] for r in rows), sum(1 for r in rows if r.moon == Seat.SOUTH))


def _migrate_v1(data: Mapping[str, object], repairs: list[str]) -> dict[str, object]:
    """Version 1 kept the extra state in ``meta`` and the match dealt the next hand by itself: a save
    made while the hand summary was open (``meta.summary`` = that hand) already holds the next
    hand's empty body. Dropping it leaves the match waiting at the end of the hand, which is
    where the summary now lives. A save without its ``meta`` object is migrated with ``"meta"``
    named among the repairs (the notice says so)."""
    meta = data.get("meta")
    if not isinstance(meta, Mapping):
        repairs.append("meta")
        meta = {}
    record = data.get("record")
    summary = meta.get("summary")
    if isinstance(record, Mapping) and isinstance(summary, int) and not isinstance(summary, bool):
        hands = record.get("hands")
        if (
            isinstance(hands, list)
            and len(hands) == summary + 2
            and hands[-1] in ({"passes": {}, "plays": []}, {"plays": []})
        ):
            record = dict(record, hands=hands[:-1])
    known = {k: meta[k] for k in ("mode", "practice", "counted", "difficulty", "date", "pending") if k in meta}
    return {"v": SAVE_VERSION, "record": record, "session": known}
