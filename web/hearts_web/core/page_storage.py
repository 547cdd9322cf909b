"""The page's ``localStorage`` as the game's worker keeps it: a copy of the game's keys, read from what
the page sent at start and what other tabs wrote since; each write goes to the page as an operation
(``["ls", key, value]``, sent with the turn's other operations by :mod:`.dom`), and the page's
answers (a refused write, a probe that fits) come back here.

Nothing here touches the page: :mod:`.dom` wires the operations, the other tabs' events, the
console and the page's reading in, so the rules of a full storage are tested on CPython.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

__all__ = ["LocalStorage", "StorageListener"]


class LocalStorage:
    """The page's ``localStorage`` behind :class:`hearts_web.data.store.Storage`: read from what the
    page sent at start (and what other tabs wrote since), written here and on the page in the
    order of this turn's operations."""

    def __init__(
        self,
        items: dict[str, str],
        *,
        send: Callable[[list[object]], None],
        told: Callable[[str | None, object], None],
        warn: Callable[[str], None],
        read: Callable[[], Awaitable[dict[str, str] | None]],
    ) -> None:
        self.items = dict(items)
        self._send, self._told, self._warn, self._read = send, told, warn, read
        self.full = False  # the page's storage refused a write: writes wait until a probe fits
        self._probing = False
        self.store: StorageListener | None = None  # told of a refused write, and of room again
        self._sent: dict[str, str] = {}  # the last value sent to the page per key (a refusal's value)

    def get(self, key: str) -> str | None:
        return self.items.get(key)

    def set(self, key: str, value: str) -> None:
        self._room_for(key, value)
        self.items[key] = self._sent[key] = value
        self._send(["ls", key, value])

    def copy(self, source: str, target: str, value: str, remove_source: bool) -> None:
        """``target`` takes ``value``; the page removes ``source`` (if asked) only once it has it."""
        self._room_for(target, value)
        self.items[target] = self._sent[target] = value
        if remove_source:
            self.items.pop(source, None)
        self._send(["ls", target, value, source if remove_source else None])

    def _room_for(self, key: str, value: str) -> None:
        """While the page's storage is full a write is not sent: it raises (the store holds it), and
        the page tries whether one of its size fits now (a probe, no data written)."""
        if not self.full:
            return
        if not self._probing:
            self._probing = True
            self._send(["probe", len(key) + len(value)])
        raise OSError(f"storage full: {key} is held")

    def remove(self, key: str) -> None:
        if self.items.pop(key, None) is not None:
            self._send(["ls", key, None])

    def keys(self) -> list[str]:
        return list(self.items)

    def failed(self, key: str, error: str, now: str | None, kept: tuple[str, str | None] | None) -> None:
        """The page could not write ``key`` (its storage is full): its storage holds ``now`` there
        (and, for a copy, still ``kept`` = (source, value)); the store holds the refused value."""
        refused = self._sent.pop(key, None)  # (None: a refusal of an older write, told already)
        if now is None:
            self.items.pop(key, None)
        else:
            self.items[key] = now
        if kept is not None and kept[1] is not None:
            self.items[kept[0]] = kept[1]
        self.full = True
        self._warn(f"hearts: storage refused {key}: {error}")
        if self.store is not None and refused is not None:
            self.store.refused(key, refused)

    def probed(self, fits: bool) -> None:
        """The page's answer to a probe: if it fitted, the page's storage takes writes again."""
        self._probing = False
        if fits and self.full:
            self.full = False
            if self.store is not None:
                self.store.retry()

    def outside(self, key: str, value: object) -> None:
        """Another tab wrote ``key`` (``None``: removed it): the page's storage event."""
        if value is None:
            self.items.pop(key, None)
        else:
            self.items[key] = str(value)
        self._told(key, value)

    async def reread(self) -> None:
        """What the page's storage holds of the game's now (before an export: exactly what is stored)."""
        items = await self._read()
        if items is not None:
            self.items = dict(items)

    def cleared(self, items: dict[str, str]) -> None:
        """Another tab cleared the storage (``items``: what it holds of the game's now)."""
        self.items = {str(k): str(v) for k, v in items.items()}
        self._told(None, None)


class StorageListener(Protocol):
    """What :class:`LocalStorage` tells of the page's answers (hearts_web.data.store.Store)."""

    def refused(self, key: str, value: str) -> None: ...

    def retry(self) -> None: ...
