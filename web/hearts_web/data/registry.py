"""The registry of saved data: every key the game stores, declared once, and the one way each is
read, repaired, written, described and imported. No other module names a key.

A :class:`SavedKind` says, for one localStorage key: its name, the longest text accepted, how its
text decodes (``decode(raw, level) -> Decoded[T]``, with the :class:`~hearts_web.data.store.Repairs` it
needed, or :class:`~hearts_web.data.store.Unreadable` when nothing can be used; ``level`` is the bots'
level a repaired game falls back to), how a value is written, what its notices are called
(``n_<what>_repaired`` / ``n_<what>_replaced``, and ``imp_<what>`` in the import preview), the
sentences its repairs may add, whether the game checks it when it starts, and how an import
describes it (kinds without a description are exported but never imported: the online table's).

A checked read (:meth:`SavedKind.check`) has three outcomes besides "nothing stored":

* **fine**: the value is used and nothing is written;
* **repaired**: some fields were bad and took safe values; the original is copied to a backup
  key, the repaired value is written, and a :class:`Notice` says what happened;
* **replaced**: nothing usable; the original is moved to a backup key and that part starts afresh.

When the storage cannot take the backup (full) the notice says so: the copy is then only in
memory (:attr:`~hearts_web.data.store.Store.unkept`) and the player is offered an export.
:class:`SavedData` is the page's door to all of it. Pure: no DOM.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from ..core.i18n import t
from .daily import DailyData
from .session import Mode, Session, decode_game, encode_save
from .settings import Settings
from .stats import TOLD, Statistics
from .store import DEFAULT_LIMIT, Decoded, Repairs, Store, Unreadable, parse_json

__all__ = [
    "SavedKind",
    "Kind",
    "Notice",
    "SavedData",
    "SETTINGS",
    "MATCH",
    "DAILY_GAME",
    "CHALLENGE_GAME",
    "DAILY",
    "STATS",
    "ONLINE_MATCH",
    "ONLINE_HOST",
    "ONLINE_GUEST",
    "KINDS",
    "BY_KEY",
    "GAMES",
    "OWNED_KEYS",
    "PREFIX",
    "BACKUP_PREFIX",
    "backup_key",
    "set_aside",
    "kept_aside",
]

T = TypeVar("T")
PREFIX = "hearts."  # every key of the game's (an export holds them all)
BACKUP_PREFIX = "hearts.backup."  # + the key + "." + milliseconds: data set aside or repaired, verbatim


@dataclass(frozen=True)
class SavedKind(Generic[T]):
    """One stored key: see the module's docstring."""

    key: str
    what: str  # the stem of its texts: n_<what>_repaired, n_<what>_replaced, imp_<what>
    limit: int
    decode: Callable[[object, str], Decoded[T]]
    encode: Callable[[T], object]
    fresh: Callable[[], T] | None = None  # the value when none is stored (None: there is none, a game)
    describe: Callable[[T], str] | None = None  # the import preview's words; None: never imported
    says: tuple[str, ...] = ()  # the text keys its repairs may add to a notice
    at_start: bool = False  # checked when the game starts (the games: when they are opened)
    mode: Mode | None = None  # the game of this mode is saved here

    @property
    def importable(self) -> bool:
        return self.describe is not None

    @property
    def texts(self) -> tuple[str, ...]:
        """Every text key the player may see about this key (for the page-and-code contract test)."""
        own = (f"n_{self.what}_repaired", f"n_{self.what}_replaced") + (
            (f"imp_{self.what}",) if self.importable else ()
        )
        return own + self.says

    def decode_text(self, text: str, level: str = "medium") -> Decoded[T]:
        """``text`` as stored under this key, decoded; :class:`Unreadable` when nothing can be used."""
        try:
            return self.decode(parse_json(text, self.limit), level)
        except Unreadable as exc:
            raise Unreadable(f"{self.key}: {exc}") from None

    def check(self, store: Store, level: str = "medium") -> tuple[T | None, Notice | None]:
        """The value stored under this key (``None``: nothing stored, or set aside), checked:
        repaired and written back where it safely can be, set aside otherwise, with the notice
        that says so."""
        raw = store.get_raw(self.key)
        if raw is None:
            return None, None
        try:
            decoded = self.decode_text(raw, level)
        except Unreadable as exc:
            return None, set_aside(store, self, str(exc))
        if not decoded.repairs:
            return decoded.value, None
        notice = kept_aside(store, self, decoded.repairs)
        store.set_json(self.key, self.encode(decoded.value))
        return decoded.value, notice

    def peek(self, store: Store) -> T | None:
        """What is stored under this key as far as it can be read, changing nothing (not even a backup)."""
        raw = store.get_raw(self.key)
        try:
            return None if raw is None else self.decode_text(raw).value
        except Unreadable:
            return None

    def describe_text(self, text: str | None) -> str:
        """The import preview's words for ``text`` stored under this key ("hand 3, 12 points for you")."""
        if text is None:
            return t("imp_none")
        if self.describe is not None:
            try:
                return self.describe(self.decode_text(text).value)
            except Unreadable:
                pass
        return t("imp_invalid")


class Kind(Protocol):
    """Any :class:`SavedKind`, whatever it holds (what the registry's lists and the export see)."""

    @property
    def key(self) -> str: ...

    @property
    def what(self) -> str: ...

    @property
    def importable(self) -> bool: ...

    @property
    def at_start(self) -> bool: ...

    @property
    def texts(self) -> tuple[str, ...]: ...

    def check(self, store: Store, level: str = ...) -> tuple[object, Notice | None]: ...

    def decode_text(self, text: str, level: str = ...) -> Decoded[object]: ...

    def describe_text(self, text: str | None) -> str: ...


# ------------------------------------------------------------------ how each key decodes and is described
def _object(raw: object) -> Mapping[str, object]:
    if not isinstance(raw, Mapping):
        raise Unreadable("not an object")
    return raw


def _settings(raw: object, _level: str) -> Decoded[Settings]:
    return Settings.decode(raw)


def _stats(raw: object, _level: str) -> Decoded[Statistics]:
    return Statistics.decode(raw)


def _daily(raw: object, _level: str) -> Decoded[DailyData]:
    return DailyData.decode(raw)


def _game(mode: Mode) -> Callable[[object, str], Decoded[Session]]:
    return lambda raw, level: decode_game(raw, mode, level)


def _describe_game(session: Session) -> str:
    if session.state.mode is Mode.DAILY:
        return t("imp_daily_game_desc", date=session.state.date)
    m = session.match
    if m.is_over:
        return t("imp_match_over")
    return t("imp_match_desc", hand=len(m.hands), trick=min(m.hand.trick_number + 1, 13), pts=m.scores[0])


_HOST_FIELDS: dict[str, tuple[type, ...]] = {
    "room": (str,),
    "net": (str,),
    "hide_ip": (bool,),
    "key": (str,),
    "link_key": (str, type(None)),
    "table": (dict,),
}


def _online_host(raw: object, _level: str) -> Decoded[dict[str, object]]:
    """The online table hosted here: its room (without one it is unusable), the other fields of
    the right type (the table's own entries are checked when it resumes: ``online.host_save``)."""
    data, repairs = _object(raw), Repairs()
    if not isinstance(data.get("room"), str):
        raise Unreadable("an online table needs its room")
    kept = {
        name: value for name, value in data.items() if name in _HOST_FIELDS and isinstance(value, _HOST_FIELDS[name])
    }
    repairs.note("fields", len(data) - len(kept))
    return Decoded(kept, repairs)


def _online_guest(raw: object, _level: str) -> Decoded[dict[str, object]]:
    """The tables joined as a guest: room -> an object with this guest's seat (checked where used)."""
    data, repairs = _object(raw), Repairs()
    kept: dict[str, object] = {room: seat for room, seat in data.items() if isinstance(seat, dict)}
    repairs.note("rooms", len(data) - len(kept))
    return Decoded(kept, repairs)


def _same(value: dict[str, object]) -> object:
    return value


def _game_kind(key: str, what: str, limit: int, mode: Mode) -> SavedKind[Session]:
    describe = None if mode is Mode.ONLINE else _describe_game
    return SavedKind(key, what, limit, _game(mode), encode_save, describe=describe, says=("n_now_practice",), mode=mode)


# ------------------------------------------------------------------ the registry
# Limits in characters. A match to 10,000 points is about 1,500 hands of ~330 characters; a year
# of daily results is ~60,000 characters.
SETTINGS = SavedKind(
    "hearts.settings.v1",
    "settings",
    20_000,
    _settings,
    Settings.to_dict,
    Settings,
    lambda _: t("imp_settings_desc"),
    at_start=True,
)
MATCH = _game_kind("hearts.match.v1", "match", 2_000_000, Mode.MATCH)
DAILY_GAME = _game_kind("hearts.daily-game.v1", "daily_game", 200_000, Mode.DAILY)
CHALLENGE_GAME = _game_kind("hearts.challenge-game.v1", "challenge_game", 200_000, Mode.CHALLENGE)
DAILY = SavedKind(
    "hearts.daily.v1",
    "daily",
    2_000_000,
    _daily,
    DailyData.to_dict,
    DailyData,
    lambda d: t("imp_daily_desc", days=len(d.results)),
    at_start=True,
)
STATS = SavedKind(
    "hearts.stats.v1",
    "stats",
    20_000,
    _stats,
    Statistics.to_dict,
    Statistics,
    lambda s: t("imp_stats_desc", n=s.overall.matches + s.online.matches),
    says=tuple(text for _, text in TOLD),
    at_start=True,
)
ONLINE_MATCH = _game_kind("hearts.online-match.v1", "online_match", 2_000_000, Mode.ONLINE)  # the table hosted here
ONLINE_HOST = SavedKind("hearts.online-host.v1", "online", DEFAULT_LIMIT, _online_host, _same, at_start=True)
ONLINE_GUEST = SavedKind("hearts.online-guest.v1", "online", DEFAULT_LIMIT, _online_guest, _same, dict, at_start=True)

KINDS: tuple[Kind, ...] = (
    SETTINGS,
    MATCH,
    DAILY_GAME,
    CHALLENGE_GAME,
    DAILY,
    STATS,
    ONLINE_MATCH,
    ONLINE_HOST,
    ONLINE_GUEST,
)
BY_KEY: dict[str, Kind] = {kind.key: kind for kind in KINDS}
GAMES: dict[Mode, SavedKind[Session]] = {
    kind.mode: kind for kind in (MATCH, DAILY_GAME, CHALLENGE_GAME, ONLINE_MATCH) if kind.mode is not None
}
OWNED_KEYS = frozenset(BY_KEY)  # what the tab that owns the game writes (hearts_web.tabs)


# ------------------------------------------------------------------ checked reads, and what the player is told
@dataclass(frozen=True)
class Notice:
    """What happened to one stored key. ``backup`` is where the original is kept (``None``: the
    storage could not take the copy). ``reason`` is for the console, not for the player; ``told``
    the sentences the repairs add ((text key, number) each)."""

    key: str
    what: str
    repaired: bool
    backup: str | None
    reason: str = ""
    told: tuple[tuple[str, int], ...] = ()

    @property
    def kind(self) -> str:
        return "repaired" if self.repaired else "replaced"

    def text(self, with_backup: bool = True) -> str:
        """What happened, for the player; ``with_backup``: and where the original is."""
        parts = [t(f"n_{self.what}_{self.kind}")] + [t(key, n=n) for key, n in self.told]
        if with_backup:
            parts.append(t("n_backup_kept") if self.backup is not None else t("n_backup_failed"))
        return " ".join(parts)


def backup_key(store: Store, key: str) -> str:
    """A new backup key for the value under ``key``."""
    return store.free_key(f"{BACKUP_PREFIX}{key}.{int(time.time() * 1000)}")


def set_aside(store: Store, kind: Kind, reason: str) -> Notice:
    """The value under ``kind`` cannot be used: moved to a backup key (or held in memory)."""
    return Notice(
        kind.key, kind.what, repaired=False, backup=store.backup(kind.key, backup_key(store, kind.key)), reason=reason
    )


def kept_aside(store: Store, kind: Kind, repairs: Repairs) -> Notice:
    """The value under ``kind`` was repaired: the original is copied to a backup key first."""
    backup = store.backup(kind.key, backup_key(store, kind.key), keep_original=True)
    return Notice(
        kind.key, kind.what, repaired=True, backup=backup, reason=f"{kind.key}: repaired {repairs}", told=repairs.told
    )


class SavedData:
    """The page's saved data: every read checked (:meth:`SavedKind.check`), every notice told through
    ``notify``; ``difficulty()`` is the bots' level a repaired game falls back to."""

    def __init__(self, store: Store, notify: Callable[[list[Notice]], None], difficulty: Callable[[], str]) -> None:
        self.store, self.notify, self.difficulty = store, notify, difficulty

    def stored(self, kind: Kind) -> bool:
        return self.store.get_raw(kind.key) is not None

    def load(self, kind: SavedKind[T]) -> T | None:
        """The value under ``kind`` (``None`` when nothing usable is stored), checked."""
        value, notice = kind.check(self.store, self.difficulty() if kind.mode is not None else "medium")
        if notice is not None:
            self.notify([notice])
        return value

    def get(self, kind: SavedKind[T]) -> T:
        """The value under ``kind``, checked, or a fresh one when nothing usable is stored."""
        if kind.fresh is None:
            raise TypeError(f"{kind.key} has no fresh value: use load()")
        value = self.load(kind)
        return kind.fresh() if value is None else value

    def write(self, kind: SavedKind[T], value: T) -> bool:
        return self.store.set_json(kind.key, kind.encode(value))

    def update(self, kind: SavedKind[T], change: Callable[[T], None]) -> bool:
        """Read, change and write the value under ``kind`` (a fresh one if none is stored)."""
        value = self.get(kind)
        change(value)
        return self.write(kind, value)

    def remove(self, kind: Kind) -> None:
        self.store.remove(kind.key)

    def save_game(self, session: Session) -> None:
        """Write ``session`` under its mode's key (the guided hand has none: it is never saved)."""
        kind = GAMES.get(session.state.mode)
        if kind is not None:
            self.write(kind, session)

    def repaired(self, kind: Kind, repairs: Repairs) -> None:
        """Repairs made where the value is used (the online table's entries): the original is
        kept as a backup and the player told; the user of the value writes the repaired one."""
        if repairs:
            self.notify([kept_aside(self.store, kind, repairs)])

    def check_start(self) -> Settings:
        """Every key checked when the game starts (the settings, statistics, daily data and the
        online table's keys, so that their panels only ever see clean data): the settings in force.
        The saved games are checked when they are opened."""
        settings = self.get(SETTINGS)
        notices = [
            notice
            for kind in KINDS
            if kind.at_start and kind.key != SETTINGS.key
            if (notice := kind.check(self.store)[1]) is not None
        ]
        self.notify(notices)
        return settings

    def snapshot(self) -> dict[str, str]:
        """Every key of the game's as stored (writes held in memory included), for another tab."""
        return {key: raw for key in OWNED_KEYS if (raw := self.store.get_raw(key)) is not None}
