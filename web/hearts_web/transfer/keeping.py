"""Keeping the player's data: the browser is asked to keep it for good (``navigator.storage.persist()``),
and the player is told the truth about where it may be deleted, and what keeps it.

* **WebKit** (Safari, and every browser on an iPhone) deletes what a site's scripts stored (its
  localStorage, its offline files) after 7 days without a visit, unless the site was added to the
  Home Screen: a daily player who takes a week off would lose statistics, streaks and the saved
  match. There, once something is saved, one notice says so and what keeps it (the Home Screen, an
  export); closed, it does not come back (``Settings.storage_told``).
* **Elsewhere** a browser that has not granted persistent storage may delete the data when the
  device runs short of space: "Your data" in the settings says so, beside a button that asks the
  browser (Firefox asks the player in a prompt, so the game asks there only when that button is
  pressed; Chromium and WebKit decide by themselves, and are asked at every start).

What the browser promises is :attr:`Keeping.state` (a key of ``transfer.html.STORAGE_LINES``, or
"unknown"), also on ``<html data-storage>``. Registers ``storage-keep``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.commands import Commands
from ..core.dom import JsEvent, call, closest, document, listen, qs, window
from ..core.i18n import t
from ..core.notices import Notices
from ..data.registry import SETTINGS, SavedData
from ..data.settings import Settings
from ..screen import page
from .html import notice_html, storage_line_html

__all__ = ["Keeping", "risk"]

NOTICE = "keep"


def risk(webkit: bool, installed: bool, persisted: bool | None) -> str:
    """What the browser promises about the data: "seven_days" (WebKit, not on the Home Screen),
    "kept" (persistent storage granted), "space" (not granted), "unknown" (no Storage API)."""
    if webkit and not installed:
        return "seven_days"
    if persisted is None:
        return "unknown"
    return "kept" if persisted else "space"


def _fact(name: str) -> bool:
    """What the page told the worker about its browser at the start (web/runtime/page.mjs, ``facts``)."""
    return bool(window.facts.get(name))


class Keeping:
    def __init__(self, commands: Commands, cards: Notices, saved: SavedData, settings: Callable[[], Settings]) -> None:
        self.cards, self.saved, self.settings = cards, saved, settings
        self.state = "unknown"
        commands.add("storage-keep", lambda _: page.guard(self.ask()))
        listen(document, "click", self._closed)

    async def start(self, returning: bool) -> None:
        """Ask the browser (where it decides by itself) and, where the data may go after 7 days and
        something is saved already, say so once."""
        await self._assess(ask=not _fact("persist_prompts"))
        if self.state == "seven_days" and returning and not self.settings().storage_told:
            self.cards.show(NOTICE, lambda: notice_html(NOTICE, t("keep_seven_days"), [("data-export", t("export"))]))

    async def ask(self) -> None:
        """The player asks: the browser is asked (Firefox: its prompt), and "Your data" says the answer."""
        await self._assess(ask=True)
        line = qs("[data-storage-line]")
        if line is not None:
            line.outerHTML = storage_line_html(self.state)

    async def _assess(self, ask: bool) -> None:
        persisted: bool | None = None
        try:  # the page's navigator.storage (null: an old or locked-down browser has none)
            answer = await call("persisted")
            if answer is not None:
                persisted = bool(answer)
                if not persisted and ask:
                    persisted = bool(await call("persist"))
        except Exception as exc:  # noqa: BLE001 - a browser that refuses to say: nothing is promised
            window.console.warn(f"hearts: persistent storage: {exc}")
        self.state = risk(_fact("webkit"), _fact("installed"), persisted)
        document.documentElement.dataset.storage = self.state

    def _closed(self, event: JsEvent) -> None:
        """The notice was closed: it is not shown again."""
        if closest(event, f'[data-close-notice="{NOTICE}"]') is not None:
            settings = self.settings()
            settings.storage_told = True
            self.saved.write(SETTINGS, settings)
