"""The browser side of :mod:`hearts_web.tabs`: Web Locks, a BroadcastChannel, the ``storage``
event, and the page shown while another tab owns the game.

The lock is the page's (its ``lock`` service, web/runtime/services.mjs): a page's locks go the
moment it closes or reloads, where a worker's may outlive it for a while.

Without Web Locks (old browsers) every tab starts as the owner; the ``storage`` event still
stops a tab as soon as another one writes the game, so a conflict is shown, never silent."""

from __future__ import annotations

import asyncio
import random

from ..core.dom import JsEvent, JsObject, by_id, call, document, is_none, listen, on_page_message, to_js, window
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
        self.locks = bool(window.facts.get("locks"))  # the page has Web Locks
        self.channel: JsObject = None
        if hasattr(window, "BroadcastChannel") and not is_none(window.BroadcastChannel):
            self.channel = window.BroadcastChannel.new(CHANNEL)

    def bind(self, tabs: Tabs) -> None:
        self.tabs = tabs
        if self.channel is not None:
            listen(self.channel, "message", self._on_message)
        listen(window, "storage", self._on_storage)
        on_page_message("lock-lost", self._lost)

    def _on_message(self, event: JsEvent) -> None:
        data = event.data
        if self.tabs is not None and not is_none(data) and hasattr(data, "to_py"):
            self.tabs.on_message(data.to_py())

    def _on_storage(self, event: JsEvent) -> None:
        key = event.key
        if self.tabs is not None and (is_none(key) or str(key) in OWNED_KEYS):
            self.tabs.on_foreign_write()

    def _lost(self, _message: dict[str, object]) -> None:
        if self.tabs is not None:
            self.tabs.on_lost()

    async def _request(self, mode: str) -> bool:
        """Ask the page for the lock (``try``, ``wait`` or ``steal``); True once held (held until
        the page closes or another tab steals it)."""
        if not self.locks:
            return True
        return bool(await call("lock", mode))

    async def try_lock(self) -> bool:
        return await self._request("try")

    async def wait_lock(self) -> None:
        if not self.locks:
            await asyncio.get_event_loop().create_future()  # never: without locks nobody queues
        await self._request("wait")

    async def steal_lock(self) -> None:
        await self._request("steal")

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
