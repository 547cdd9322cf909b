"""localStorage access: JSON values under versioned keys, never losing unreadable data."""

from __future__ import annotations

import json
import time
from typing import Any

from .dom import is_none, window

SETTINGS_KEY = "hearts.settings.v1"
MATCH_KEY = "hearts.match.v1"
DAILY_GAME_KEY = "hearts.daily-game.v1"
STATS_KEY = "hearts.stats.v1"
DAILY_KEY = "hearts.daily.v1"
BACKUP_PREFIX = "hearts.backup."


def _storage() -> Any:
    try:
        return window.localStorage
    except Exception:  # storage disabled (privacy mode): play on without saving
        return None


def get_raw(key: str) -> str | None:
    storage = _storage()
    if storage is None:
        return None
    value = storage.getItem(key)
    return None if is_none(value) else str(value)


def set_raw(key: str, value: str) -> bool:
    storage = _storage()
    if storage is None:
        return False
    try:
        storage.setItem(key, value)
        return True
    except Exception:  # quota exceeded
        return False


def remove(key: str) -> None:
    storage = _storage()
    if storage is not None:
        storage.removeItem(key)


def get_json(key: str) -> Any:
    """The parsed value, ``None`` when absent; raises ``ValueError`` when unreadable."""
    raw = get_raw(key)
    if raw is None:
        return None
    return json.loads(raw)


def set_json(key: str, value: Any) -> bool:
    return set_raw(key, json.dumps(value, separators=(",", ":")))


def backup(key: str) -> str | None:
    """Keep unreadable data under a backup key (never destroy it) and free the original key."""
    raw = get_raw(key)
    if raw is None:
        return None
    backup_key = f"{BACKUP_PREFIX}{key}.{int(time.time())}"
    if set_raw(backup_key, raw):
        remove(key)
        return backup_key
    return None


def load_dict(key: str) -> tuple[dict[str, Any], bool]:
    """A stored object, or ``{}``; the flag is True when the data was unreadable (and backed up)."""
    try:
        value = get_json(key)
    except ValueError:
        backup(key)
        return {}, True
    if value is None:
        return {}, False
    if not isinstance(value, dict):
        backup(key)
        return {}, True
    return value, False
