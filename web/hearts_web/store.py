"""Saved data: JSON values under versioned keys in a key-value storage, never losing unreadable data.

:class:`Store` works on anything with the small :class:`Storage` interface: the browser's
``localStorage`` (wrapped by :class:`hearts_web.dom.LocalStorage`) or :class:`MemoryStorage`
in the unit tests.
"""

from __future__ import annotations

import json
import time
from typing import Any, Protocol

__all__ = ["Storage", "MemoryStorage", "Store", "Unreadable", "SETTINGS_KEY", "MATCH_KEY", "DAILY_GAME_KEY",
           "STATS_KEY", "DAILY_KEY", "BACKUP_PREFIX", "ONLINE_MATCH_KEY", "ONLINE_HOST_KEY", "ONLINE_GUEST_KEY"]

SETTINGS_KEY = "hearts.settings.v1"
MATCH_KEY = "hearts.match.v1"
DAILY_GAME_KEY = "hearts.daily-game.v1"
STATS_KEY = "hearts.stats.v1"
DAILY_KEY = "hearts.daily.v1"
ONLINE_MATCH_KEY = "hearts.online-match.v1"  # the match of the online table hosted here
ONLINE_HOST_KEY = "hearts.online-host.v1"  # that table's room, seats, key and unrevealed deals
ONLINE_GUEST_KEY = "hearts.online-guest.v1"  # seat tokens of the tables joined as a guest
BACKUP_PREFIX = "hearts.backup."


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


class Unreadable(ValueError):
    """Stored data that cannot be used; ``reason`` says why (for the log, not the player)."""


class Store:
    """JSON values in a :class:`Storage` (or none at all: privacy modes may forbid storage)."""

    def __init__(self, storage: Storage | None) -> None:
        self.storage = storage

    def get_raw(self, key: str) -> str | None:
        return None if self.storage is None else self.storage.get(key)

    def set_raw(self, key: str, value: str) -> bool:
        if self.storage is None:
            return False
        try:
            self.storage.set(key, value)
        except OSError:
            return False
        return True

    def remove(self, key: str) -> None:
        if self.storage is not None:
            self.storage.remove(key)

    def get_json(self, key: str) -> Any:
        """The parsed value, ``None`` when absent; :class:`Unreadable` when it is not JSON."""
        raw = self.get_raw(key)
        if raw is None:
            return None
        try:
            return json.loads(raw)
        except (ValueError, RecursionError) as exc:
            raise Unreadable(f"{key} is not valid JSON: {exc}") from None

    def set_json(self, key: str, value: Any) -> bool:
        return self.set_raw(key, json.dumps(value, separators=(",", ":")))

    def backup(self, key: str) -> str | None:
        """Keep unreadable data under a backup key (never destroy it) and free the original key.
        Returns the backup key, or ``None`` when nothing could be kept (the original stays)."""
        raw = self.get_raw(key)
        if raw is None:
            return None
        backup_key = f"{BACKUP_PREFIX}{key}.{int(time.time())}"
        if self.set_raw(backup_key, raw):
            self.remove(key)
            return backup_key
        return None

    def load_dict(self, key: str) -> tuple[dict[str, Any], bool]:
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
