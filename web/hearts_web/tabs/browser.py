"""The browser side of :mod:`hearts_web.tabs`: Web Locks, a BroadcastChannel, the ``storage``
event, and the page shown while another tab owns the game.

Without Web Locks (old browsers) every tab starts as the owner; the ``storage`` event still
stops a tab as soon as another one writes the game, so a conflict is shown, never silent."""

from __future__ import annotations

import asyncio
import random

from ..core.dom import JsEvent, JsObject, by_id, document, is_none, keep, listen, to_js, window
from ..data.registry import OWNED_KEYS
from ..transfer.html import overlay_html
from .protocol import Tabs

__all__ = ["BrowserPlatform", "show_overlay", "hide_overlay", "new_tab_id"]

LOCK = "hearts.game"
CHANNEL = "hearts.game"


def _to_js(value: object) -> JsObject:
    return to_js(value, dict_converter=window.Object.fromEntries)


def new_tab_id() -> str:
    return "".join(random.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(12))


class BrowserPlatform:
    """:class:`hearts_web.tabs.protocol.Platform` over ``navigator.locks`` and a ``BroadcastChannel``."""

    def __init__(self) -> None:
        self.tabs: Tabs | None = None
        locks = getattr(window.navigator, "locks", None)
        self.locks = None if locks is None or is_none(locks) else locks
        self.channel: JsObject = None
        if hasattr(window, "BroadcastChannel") and not is_none(window.BroadcastChannel):
            self.channel = window.BroadcastChannel.new(CHANNEL)

    def bind(self, tabs: Tabs) -> None:
        self.tabs = tabs
        if self.channel is not None:
            listen(self.channel, "message", self._on_message)
        listen(window, "storage", self._on_storage)

    def _on_message(self, event: JsEvent) -> None:
        data = event.data
        if self.tabs is not None and not is_none(data) and hasattr(data, "to_py"):
            self.tabs.on_message(data.to_py())

    def _on_storage(self, event: JsEvent) -> None:
        key = event.key
        if self.tabs is not None and (is_none(key) or str(key) in OWNED_KEYS):
            self.tabs.on_foreign_write()

    def _lost(self, _error: JsObject = None) -> None:
        if self.tabs is not None:
            self.tabs.on_lost()

    async def _request(self, options: dict[str, bool]) -> bool:
        """Request the lock; True once held (held until the page closes or it is stolen)."""
        if self.locks is None:
            return True
        granted: asyncio.Future[bool] = asyncio.get_event_loop().create_future()

        def hold(lock: JsObject) -> JsObject:
            if is_none(lock):
                if not granted.done():
                    granted.set_result(False)
                return None
            if not granted.done():
                granted.set_result(True)
            return window.Promise.new(keep(lambda resolve, reject: None))  # never settles: held

        promise = self.locks.request(LOCK, _to_js(options), keep(hold))
        promise.catch(keep(self._lost))  # rejected (AbortError) when another tab steals it
        return await granted

    async def try_lock(self) -> bool:
        return await self._request({"ifAvailable": True})

    async def wait_lock(self) -> None:
        if self.locks is None:
            await asyncio.get_event_loop().create_future()  # never: without locks nobody queues
        await self._request({})

    async def steal_lock(self) -> None:
        await self._request({"steal": True})

    def post(self, message: dict[str, object]) -> None:
        if self.channel is not None:
            self.channel.postMessage(_to_js(message))


def show_overlay(moved: bool) -> None:
    """Cover the page with "open in another tab" (the game behind it cannot be reached)."""
    el = by_id("tab-overlay")
    if el is None or is_none(el):
        el = document.createElement("div")
        el.id = "tab-overlay"
        el.className = "tab-overlay"
        document.body.appendChild(el)
    el.innerHTML = overlay_html(moved)
    el.hidden = False
    app = by_id("app")
    app.inert = True
    button = el.querySelector("button")
    if not is_none(button):
        button.focus()


def hide_overlay() -> None:
    el = by_id("tab-overlay")
    if el is not None and not is_none(el):
        el.hidden = True
    by_id("app").inert = False
