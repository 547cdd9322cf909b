"""One tab owns the game: the others wait, and take over cleanly when the player asks.

The game lives in one shared storage, so two tabs playing at once would save over each other's
moves. The owner holds an exclusive lock (the browser's Web Locks in :mod:`~.browser`); a tab
that opens while another owns the game shows "this game is open in another tab — continue here?"
and neither loads nor writes anything. The hand-over, on "Continue here":

1. the new tab posts ``takeover`` to every tab of the game (a broadcast channel);
2. the owner stops its table (no more writes) and answers ``handover`` with everything it has
   stored, including writes a full storage refused (so not one move is lost), then shows the
   page "this game continues in another tab";
3. the new tab takes the lock (``steal``: no third tab can slip in between), writes what it was
   handed (the storage may still show an older state to this tab for a moment) and starts.

An owner that does not answer within :data:`HANDOVER_SECONDS` is frozen or gone: the lock is
taken anyway, and the old owner learns it when its lock is stolen. A waiting tab gets the lock
by itself when the owner's tab is closed, and then starts. A write to the game by some other
tab (a browser without Web Locks, an older version of the page) stops the owner as well.

Pure (asyncio, no DOM): :class:`Platform` and :class:`Host` are what the browser provides.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

__all__ = ["Platform", "Host", "Tabs", "HANDOVER_SECONDS", "Snapshot"]

HANDOVER_SECONDS = 2.0
Snapshot = dict[str, str]  # stored key -> value, what the old owner hands over


class Platform(Protocol):
    """The lock and the channel every tab of the game shares."""

    async def try_lock(self) -> bool:
        """Take the lock if nobody holds it; True when this tab now holds it."""
        ...

    async def wait_lock(self) -> None:
        """Return once this tab holds the lock (queued behind the holder)."""
        ...

    async def steal_lock(self) -> None:
        """Take the lock from whoever holds it (the holder is told through :meth:`Tabs.on_lost`)."""
        ...

    def post(self, message: dict[str, object]) -> None:
        """Send ``message`` to every other tab of the game."""
        ...


class Host(Protocol):
    """The page: it starts and stops the game."""

    def begin(self, snapshot: Snapshot | None) -> None:
        """This tab owns the game now: store ``snapshot`` (if any), then load and play."""
        ...

    def stop(self) -> None:
        """Another tab owns the game now: stop playing and write nothing more."""
        ...

    def snapshot(self) -> Snapshot:
        """Everything stored for the game, as this tab sees it (memory-only writes included)."""
        ...

    def show_elsewhere(self, moved: bool) -> None:
        """Show that the game is open in another tab (``moved``: it was here and moved there)."""
        ...


class Tabs:
    """The ownership of this tab: ``state`` is ``starting``, ``owner``, ``waiting`` or ``claiming``."""

    def __init__(self, platform: Platform, host: Host, tab_id: str, handover_seconds: float = HANDOVER_SECONDS) -> None:
        self.platform = platform
        self.host = host
        self.tab_id = tab_id
        self.handover_seconds = handover_seconds
        self.state = "starting"
        self._handover: asyncio.Future[Snapshot] | None = None
        self._queued: asyncio.Task[None] | None = None
        self.holding = False  # this tab holds the lock (until another one steals it)

    @property
    def owner(self) -> bool:
        return self.state == "owner"

    async def start(self) -> None:
        """Own the game if no other tab does; otherwise wait (and say so)."""
        if await self.platform.try_lock():
            self.holding = True
            self._own(None)
        else:
            self._wait(moved=False)

    def _own(self, snapshot: Snapshot | None) -> None:
        self.state = "owner"
        self.host.begin(snapshot)

    def _wait(self, moved: bool) -> None:
        self.state = "waiting"
        self.host.show_elsewhere(moved)
        if self._queued is None or self._queued.done():
            self._queued = asyncio.ensure_future(self._queue())

    async def _queue(self) -> None:
        """Queued for the lock: granted when the owner's tab closes (or releases it)."""
        await self.platform.wait_lock()
        self.holding = True
        if self.state == "waiting":
            self._own(None)

    def _stop(self) -> None:
        if self.state == "owner":
            self.host.stop()

    async def take_over(self) -> None:
        """The player chose "Continue here"."""
        if self.state != "waiting":
            return
        if self.holding:  # stopped by a write from elsewhere, but nobody took the lock: go on at once
            self._own(None)
            return
        self.state = "claiming"
        self._handover = asyncio.get_event_loop().create_future()
        self.platform.post({"type": "takeover", "from": self.tab_id})
        snapshot: Snapshot | None
        try:
            snapshot = await asyncio.wait_for(asyncio.shield(self._handover), self.handover_seconds)
        except TimeoutError:
            snapshot = None  # the owner is frozen or gone: take the lock anyway
        self._handover = None
        await self.platform.steal_lock()
        self.holding = True
        self._own(snapshot)

    def on_message(self, message: object) -> None:
        """A message from another tab of the game."""
        if not isinstance(message, dict):
            return
        kind = message.get("type")
        if kind == "takeover" and message.get("from") != self.tab_id and self.state == "owner":
            self._stop()
            self.platform.post({"type": "handover", "to": message.get("from"), "data": self.host.snapshot()})
            self._wait(moved=True)
        elif kind == "handover" and message.get("to") == self.tab_id and self._handover is not None:
            data = message.get("data")
            if not self._handover.done():
                clean: Snapshot = {}
                if isinstance(data, dict):
                    clean = {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
                self._handover.set_result(clean)

    def on_lost(self) -> None:
        """Our lock was taken by another tab (it did not wait for our answer)."""
        self.holding = False
        if self.state == "owner":
            self._stop()
            self._wait(moved=True)

    def on_foreign_write(self) -> None:
        """Another tab wrote the game's data while this one owns it."""
        if self.state == "owner":
            self._stop()
            self._wait(moved=True)
