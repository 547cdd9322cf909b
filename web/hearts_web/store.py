"""Saved data: JSON values under versioned keys in a key-value storage, never losing unreadable data.

:class:`Store` works on anything with the small :class:`Storage` interface: the browser's
``localStorage`` (wrapped by :class:`hearts_web.dom.LocalStorage`) or :class:`MemoryStorage`
in the unit tests.

Reads are checked *before* parsing: a value longer than its key's limit or nested deeper than
:data:`MAX_DEPTH` is :class:`Unreadable` without ever reaching the JSON parser (deep nesting
overflows the browser's stack inside Pyodide and kills the interpreter). Parsed values are plain
JSON text: no lone surrogates anywhere.

Writes never raise: a write the storage refuses (full) is kept in memory, reads see it, every
later successful write retries it ("catches up"), and :attr:`Store.on_status` tells the page.
"""

from __future__ import annotations

import json
import time
from typing import Callable, Protocol

from hearts.records import json_depth

__all__ = ["Storage", "MemoryStorage", "Store", "Unreadable", "SETTINGS_KEY", "MATCH_KEY", "DAILY_GAME_KEY",
           "STATS_KEY", "DAILY_KEY", "BACKUP_PREFIX", "ONLINE_MATCH_KEY", "ONLINE_HOST_KEY", "ONLINE_GUEST_KEY",
           "CHALLENGE_GAME_KEY", "GAME_KEYS", "ONLINE_KEYS", "OWNED_KEYS", "LIMITS", "MAX_DEPTH", "json_depth", "parse_json"]

SETTINGS_KEY = "hearts.settings.v1"
MATCH_KEY = "hearts.match.v1"
DAILY_GAME_KEY = "hearts.daily-game.v1"
STATS_KEY = "hearts.stats.v1"
DAILY_KEY = "hearts.daily.v1"
CHALLENGE_GAME_KEY = "hearts.challenge-game.v1"  # a challenge game in progress
ONLINE_MATCH_KEY = "hearts.online-match.v1"  # the match of the online table hosted here
ONLINE_HOST_KEY = "hearts.online-host.v1"  # that table's room, seats, key and unrevealed deals
ONLINE_GUEST_KEY = "hearts.online-guest.v1"  # seat tokens of the tables joined as a guest
BACKUP_PREFIX = "hearts.backup."
GAME_KEYS = (SETTINGS_KEY, MATCH_KEY, DAILY_GAME_KEY, CHALLENGE_GAME_KEY, DAILY_KEY, STATS_KEY)
ONLINE_KEYS = (ONLINE_MATCH_KEY, ONLINE_HOST_KEY, ONLINE_GUEST_KEY)
OWNED_KEYS = GAME_KEYS + ONLINE_KEYS  # what the tab that owns the game writes (hearts_web.tabs)

# Longest value accepted per key (characters). A match to 10,000 points is about 1,500 hands of
# ~330 characters; a year of daily results is ~60,000 characters.
LIMITS = {SETTINGS_KEY: 20_000, STATS_KEY: 20_000, MATCH_KEY: 2_000_000, DAILY_GAME_KEY: 200_000, CHALLENGE_GAME_KEY: 200_000,
          DAILY_KEY: 2_000_000, ONLINE_MATCH_KEY: 2_000_000}
DEFAULT_LIMIT = 200_000
# Deepest nesting of arrays/objects accepted (the deepest real value, a match record, has 5).
MAX_DEPTH = 32

class Unreadable(ValueError):
    """Stored data that cannot be used; the message says why (for the log, not the player)."""


def parse_json(text: str, max_chars: int = DEFAULT_LIMIT, max_depth: int = MAX_DEPTH) -> object:
    """``text`` parsed, after the size and depth checks; :class:`Unreadable` otherwise."""
    if len(text) > max_chars:
        raise Unreadable(f"too long ({len(text)} characters, at most {max_chars})")
    if json_depth(text, max_depth) > max_depth:
        raise Unreadable(f"nested deeper than {max_depth} levels")
    try:
        value = json.loads(text)
        # lone surrogates (``"\\ud800"``) are not text: they break printing and the page's strings
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError) as exc:  # UnicodeError is a ValueError
        raise Unreadable(f"not valid JSON: {str(exc)[:80]}") from None
    return value


class Storage(Protocol):
    """A string key-value storage. ``set`` raises ``OSError`` when the storage is full."""

    def get(self, key: str) -> str | None: ...

    def set(self, key: str, value: str) -> None: ...

    def remove(self, key: str) -> None: ...

    def keys(self) -> list[str]: ...


class MemoryStorage:
    """A storage in a dict, with an optional size limit (in characters) to play "storage full"."""

    def __init__(self, data: dict[str, str] | None = None, quota: int | None = None) -> None:
        self.data = dict(data or {})
        self.quota = quota

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        if self.quota is not None:
            used = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
            if used + len(key) + len(value) > self.quota:
                raise OSError("QuotaExceededError: storage full")
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.data)


class Store:
    """JSON values in a :class:`Storage` (or none at all: privacy modes may forbid storage).

    ``unsaved`` holds the writes the storage refused (newest value per key); ``unkept`` the
    backups that could not be stored (backup key -> raw data), so that an export still has them.
    ``readonly`` drops every write (another tab owns the game)."""

    def __init__(self, storage: Storage | None, on_status: Callable[[bool], None] | None = None) -> None:
        self.storage = storage
        self.on_status = on_status  # called with False when a write fails, True when all caught up
        self.unsaved: dict[str, str] = {}
        self.unkept: dict[str, str] = {}
        self.readonly = False

    @property
    def failing(self) -> bool:
        """True while some write is only held in memory."""
        return bool(self.unsaved)

    def get_raw(self, key: str) -> str | None:
        if key in self.unsaved:
            return self.unsaved[key]
        if self.storage is None:
            return None
        try:
            return self.storage.get(key)
        except Exception:  # noqa: BLE001 - a storage that cannot be read holds nothing for us
            return None

    def keys(self) -> list[str]:
        """Every key of the storage (and those only held in memory), sorted."""
        keys = set(self.unsaved)
        if self.storage is not None:
            try:
                keys.update(self.storage.keys())
            except Exception:  # noqa: BLE001
                pass
        return sorted(keys)

    def _write(self, key: str, value: str) -> bool:
        if self.storage is None:
            return False
        try:
            self.storage.set(key, value)
        except OSError:
            return False
        return True

    def set_raw(self, key: str, value: str) -> bool:
        """Store ``value``; on success also retry the writes held back so far. False when the
        storage refused it (it is then held in memory until a later write gets through)."""
        if self.readonly:
            return False
        was_failing = self.failing
        if not self._write(key, value):
            if self.storage is not None:
                self.unsaved[key] = value
                if self.on_status is not None:
                    self.on_status(False)
            return False
        self.unsaved.pop(key, None)
        for other, held in list(self.unsaved.items()):
            if self._write(other, held):
                del self.unsaved[other]
        if was_failing and self.on_status is not None:
            self.on_status(not self.failing)
        return True

    def remove(self, key: str) -> None:
        if self.readonly:
            return
        self.unsaved.pop(key, None)
        if self.storage is not None:
            try:
                self.storage.remove(key)
            except Exception:  # noqa: BLE001
                pass

    def get_json(self, key: str) -> object:
        """The parsed value, ``None`` when absent; :class:`Unreadable` when it is too long, too
        deep or not JSON."""
        raw = self.get_raw(key)
        if raw is None:
            return None
        try:
            return parse_json(raw, LIMITS.get(key, DEFAULT_LIMIT))
        except Unreadable as exc:
            raise Unreadable(f"{key}: {exc}") from None

    def set_json(self, key: str, value: object) -> bool:
        return self.set_raw(key, json.dumps(value, separators=(",", ":")))

    def backup_key(self, key: str) -> str:
        stamp = f"{BACKUP_PREFIX}{key}.{int(time.time() * 1000)}"
        name, n = stamp, 1
        while self.get_raw(name) is not None or name in self.unkept:
            n += 1
            name = f"{stamp}-{n}"
        return name

    def backup(self, key: str, keep_original: bool = False) -> str | None:
        """Keep the data under ``key`` under a backup key (never destroy it); the original is
        removed unless ``keep_original``. Returns the backup key, or ``None`` when the storage
        could not take the copy: then the original stays and the copy is held in ``unkept``."""
        raw = self.get_raw(key)
        if raw is None:
            return None
        backup_key = self.backup_key(key)
        if not self.readonly and self._write(backup_key, raw):
            if not keep_original:
                self.remove(key)
            return backup_key
        self.unkept[backup_key] = raw
        return None

    def load_dict(self, key: str) -> tuple[dict[str, object], bool]:
        """A stored object, or ``{}``; the flag is True when the data was unreadable (and backed up)."""
        try:
            value = self.get_json(key)
        except Unreadable:
            self.backup(key)
            return {}, True
        if value is None:
            return {}, False
        if not isinstance(value, dict):
            self.backup(key)
            return {}, True
        return value, False
