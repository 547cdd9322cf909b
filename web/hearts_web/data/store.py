"""Saved data's plumbing: JSON text in a key-value storage, read with limits, written without ever
losing what cannot be read, and the one form every decoder of stored data answers in.

:class:`Store` works on anything with the small :class:`Storage` interface: the browser's
``localStorage`` (wrapped by :class:`hearts_web.core.page_storage.LocalStorage`) or :class:`MemoryStorage`
in the unit tests. It knows no key: which keys exist, their limits and how each decodes are
declared once, in :mod:`hearts_web.data.registry`.

Reads are checked *before* parsing: a value longer than its key's limit or nested deeper than
:data:`MAX_DEPTH` is :class:`Unreadable` without ever reaching the JSON parser (deep nesting
overflows the browser's stack inside Pyodide and kills the interpreter). Parsed values are plain
JSON text: no lone surrogates anywhere.

Decoding a stored value gives a :class:`Decoded` (the value and the :class:`Repairs` it needed),
or raises :class:`Unreadable` when nothing of it can be used.

Writes never raise: a write the storage refuses (full) is kept in memory, reads see it, every
later successful write retries it ("catches up"), and :attr:`Store.on_status` tells the page.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from hearts.records import json_depth

__all__ = [
    "Storage",
    "MemoryStorage",
    "Store",
    "Unreadable",
    "Repairs",
    "Decoded",
    "DEFAULT_LIMIT",
    "MAX_DEPTH",
    "json_depth",
    "parse_json",
]

T_co = TypeVar("T_co", covariant=True)
DEFAULT_LIMIT = 200_000  # characters of a value whose key declares no other limit
# Deepest nesting of arrays/objects accepted (the deepest real value, a match record, has 5).
MAX_DEPTH = 32


class Unreadable(ValueError):
    """Stored data that cannot be used; the message says why (for the log, not the player)."""


@dataclass
class Repairs:
    """What decoding a stored value had to change: each repair's code with how often it was made
    (for the console), and the sentences the player's notice adds about some of them (text keys
    of :mod:`hearts_web.core.i18n` that take ``n``), in the order a decoder declared them."""

    made: dict[str, int] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)  # code -> the text key that says it

    def say(self, code: str, text: str) -> None:
        """A repair of ``code`` is told to the player with ``text`` (declare in the order to tell)."""
        self.words.setdefault(code, text)

    def note(self, code: str, n: int = 1) -> None:
        """``n`` repairs of kind ``code`` were made (``n`` <= 0: none)."""
        if n > 0:
            self.made[code] = self.made.get(code, 0) + n

    def count(self, code: str) -> int:
        return self.made.get(code, 0)

    def __bool__(self) -> bool:
        return bool(self.made)

    @property
    def told(self) -> tuple[tuple[str, int], ...]:
        """The notice's sentences: (text key, number) for each repair that is told."""
        return tuple((text, self.made[code]) for code, text in self.words.items() if code in self.made)

    def __str__(self) -> str:
        return ", ".join(code if n == 1 else f"{code} x{n}" for code, n in self.made.items()) or "nothing"


@dataclass(frozen=True)
class Decoded(Generic[T_co]):
    """A stored value, decoded: the value to use and what had to be repaired to get it."""

    value: T_co
    repairs: Repairs = field(default_factory=Repairs)


def parse_json(
    text: str, max_chars: int = DEFAULT_LIMIT, max_depth: int = MAX_DEPTH, lone_surrogates: bool = False
) -> object:
    """``text`` parsed, after the size and depth checks; :class:`Unreadable` otherwise. Text with
    lone surrogates (``"\\ud800"``) is unreadable unless ``lone_surrogates`` (an export file,
    whose values are kept verbatim, damaged ones included)."""
    if len(text) > max_chars:
        raise Unreadable(f"too long ({len(text)} characters, at most {max_chars})")
    if json_depth(text, max_depth) > max_depth:
        raise Unreadable(f"nested deeper than {max_depth} levels")
    try:
        value = json.loads(text)
        if not lone_surrogates:  # they are not text: they break printing and the page's strings
            json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (ValueError, RecursionError) as exc:  # UnicodeError is a ValueError
        raise Unreadable(f"not valid JSON: {str(exc)[:80]}") from None
    return value


class Storage(Protocol):
    """A string key-value storage. ``set`` and ``copy`` raise ``OSError`` when the storage is full.

    A storage whose writes are carried out elsewhere (the page's localStorage, written after the
    game's worker has moved on: :class:`hearts_web.core.page_storage.LocalStorage`) may learn only later
    that one was refused: it tells the :class:`Store` (:meth:`Store.refused`, :meth:`Store.retry`)."""

    def get(self, key: str) -> str | None: ...

    def set(self, key: str, value: str) -> None: ...

    def remove(self, key: str) -> None: ...

    def keys(self) -> list[str]: ...

    def copy(self, source: str, target: str, value: str, remove_source: bool) -> None:
        """``value`` (what ``source`` holds) under ``target`` too; ``source`` removed, if
        ``remove_source``, only once the copy is stored."""
        ...


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

    def copy(self, source: str, target: str, value: str, remove_source: bool) -> None:
        self.set(target, value)
        if remove_source:
            self.remove(source)


class Store:
    """JSON values in a :class:`Storage` (or none at all: privacy modes may forbid storage).

    ``unsaved`` holds the writes the storage refused (newest value per key); ``unkept`` the
    backups that could not be stored (backup key -> raw data), so that an export still has them.
    ``readonly`` drops every write (another tab owns the game). ``on_backup_lost(key)``: a backup
    said to be kept was refused after all (it is in ``unkept`` now, its original kept)."""

    def __init__(
        self,
        storage: Storage | None,
        on_status: Callable[[bool], None] | None = None,
        on_backup_lost: Callable[[str], None] | None = None,
    ) -> None:
        self.storage = storage
        self.on_status = on_status  # called with False when a write fails, True when all caught up
        self.on_backup_lost = on_backup_lost
        self.unsaved: dict[str, str] = {}
        self.unkept: dict[str, str] = {}
        self.readonly = False
        self._backups: set[str] = set()  # the backup keys written by this store

    def refused(self, key: str, value: str) -> None:
        """The storage refused ``value`` for ``key`` after it had taken the write (a storage whose
        writes happen elsewhere): a backup goes to ``unkept``, any other write is held in memory."""
        if key in self._backups:
            self._backups.discard(key)
            self.unkept[key] = value
            if self.on_backup_lost is not None:
                self.on_backup_lost(key)
            return
        if self.readonly:
            return
        self.unsaved[key] = value
        if self.on_status is not None:
            self.on_status(False)

    def retry(self) -> None:
        """The storage takes writes again: the ones held in memory are written now."""
        if not self.unsaved or self.readonly:
            return
        for key, held in list(self.unsaved.items()):
            if not self._write(key, held):
                return
            del self.unsaved[key]
        if self.on_status is not None:
            self.on_status(True)

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

    def get_json(self, key: str, limit: int = DEFAULT_LIMIT) -> object:
        """The parsed value, ``None`` when absent; :class:`Unreadable` when it is longer than
        ``limit``, too deep or not JSON."""
        raw = self.get_raw(key)
        if raw is None:
            return None
        try:
            return parse_json(raw, limit)
        except Unreadable as exc:
            raise Unreadable(f"{key}: {exc}") from None

    def set_json(self, key: str, value: object) -> bool:
        return self.set_raw(key, json.dumps(value, separators=(",", ":")))

    def free_key(self, stem: str) -> str:
        """``stem``, or ``stem-2``, ``stem-3``...: a key that holds nothing yet (here or in memory)."""
        name, n = stem, 1
        while self.get_raw(name) is not None or name in self.unkept:
            n += 1
            name = f"{stem}-{n}"
        return name

    def backup(self, key: str, backup_key: str, keep_original: bool = False) -> str | None:
        """Keep the data under ``key`` under ``backup_key`` too (never destroy it); the original
        is removed unless ``keep_original``. Returns the backup key, or ``None`` when the storage
        could not take the copy: then the original stays and the copy is held in ``unkept``."""
        raw = self.get_raw(key)
        if raw is None:
            return None
        if not self.readonly and self.storage is not None:
            try:
                self.storage.copy(key, backup_key, raw, remove_source=not keep_original)
            except OSError:
                pass
            else:
                self._backups.add(backup_key)
                if not keep_original:
                    self.unsaved.pop(key, None)
                return backup_key
        self.unkept[backup_key] = raw
        return None

    def set_many(self, writes: dict[str, str]) -> bool:
        """Write every one of ``writes``, or (storage full, read-only, no storage) none at all.
        True when all were written; nothing is held in memory for a later retry."""
        if self.storage is None or self.readonly:
            return False
        storage = self.storage
        before = {key: storage.get(key) for key in writes}  # what the storage itself holds
        done: list[str] = []
        for key, raw in writes.items():
            if not self._write(key, raw):
                for undo in reversed(done):  # newest first: each old value fits where it was before
                    old = before[undo]
                    if old is None:
                        storage.remove(undo)
                    else:
                        storage.set(undo, old)
                return False
            done.append(key)
            self.unsaved.pop(key, None)
        return True
