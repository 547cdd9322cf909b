"""The keeper of the player's data, beside the controller: which tab owns the game, every stored
key checked when this tab takes it (with a truthful notice), failed writes shown with an export,
and export/import. The controller only starts and stops the game when told to.

Until this tab owns the game its store is read-only: a tab that opens while another one plays
reads the settings (for its language) and writes nothing at all.
"""

from __future__ import annotations

import asyncio
from typing import Any, Coroutine, Protocol

from . import store_checks
from .data_transfer import DataUI
from .data_html import notice_html, stored_notice_html
from .dialogs import Dialogs
from .dom import document, local_storage, window
from .i18n import t
from .notices import Notices
from .settings import Settings
from .store import OWNED_KEYS, SETTINGS_KEY, Store, Unreadable
from .tabs import Snapshot, Tabs
from .tabs_browser import BrowserPlatform, hide_overlay, new_tab_id, show_overlay

__all__ = ["Keeper", "KeeperHost"]


class KeeperHost(Protocol):
    """What the keeper needs from the controller."""

    dialogs: Dialogs

    def begin(self, settings: Settings) -> None: ...

    def stop(self) -> None: ...

    def fail(self, exc: BaseException) -> None: ...


def _peek_settings(store: Store) -> Settings:
    """The stored settings as far as they can be read, changing nothing (not even a backup)."""
    try:
        data = store.get_json(SETTINGS_KEY)
    except Unreadable:
        return Settings()
    return Settings.from_dict(data)[0] if isinstance(data, dict) else Settings()


class Keeper:
    def __init__(self, host: KeeperHost) -> None:
        self.host = host
        self.store = Store(local_storage(), on_status=self._on_status)
        self.store.readonly = True  # until this tab owns the game
        self.settings = _peek_settings(self.store)  # for the language and look until then
        self.notices = Notices()
        self._saving = True  # False while writes are only held in memory (storage full)
        self.loading = False  # notices are collected while the game loads, then shown at once
        self.told: list[store_checks.Notice] = []
        self.on_card: list[store_checks.Notice] = []  # what the "stored" card shows now
        self.data = DataUI(self.store, host.dialogs, self.notices, lambda: self.begin(None))
        self.platform = BrowserPlatform()
        self.tabs = Tabs(self.platform, self, new_tab_id())
        self.platform.bind(self.tabs)

    def start(self) -> None:
        self._guard(self.tabs.start())

    def _guard(self, coro: Coroutine[Any, Any, None]) -> None:
        async def run() -> None:
            try:
                await coro
            except Exception as exc:  # noqa: BLE001 - the error banner, never a dead page
                self.host.fail(exc)

        asyncio.ensure_future(run())

    def on_action(self, name: str) -> None:
        if name == "tab-continue":
            self._guard(self.tabs.take_over())
        else:
            self.data.on_action(name)

    # ------------------------------------------------------------------ tabs.Host
    def begin(self, snapshot: Snapshot | None) -> None:
        self.store.readonly = False
        for key, raw in (snapshot or {}).items():
            if key in OWNED_KEYS:
                self.store.set_raw(key, raw)
        hide_overlay()
        self.loading, self.told, self.on_card = True, [], []  # a new start: the old card goes
        self.notices.hide("stored")
        try:
            self.settings, notices = store_checks.check_start(self.store)
            self.notify(notices)
            self.host.begin(self.settings)
        finally:
            self.loading = False
        self.notify([])
        if self.store.storage is None:
            self.notices.show("no-storage", notice_html("no-storage", t("no_storage")))

    def stop(self) -> None:
        self.store.readonly = True
        self.host.stop()

    def snapshot(self) -> Snapshot:
        return {key: raw for key in OWNED_KEYS if (raw := self.store.get_raw(key)) is not None}

    def show_elsewhere(self, moved: bool) -> None:
        show_overlay(moved)
        root = document.documentElement
        root.classList.remove("booting")
        root.classList.add("ready")

    # ------------------------------------------------------------------ notices
    def notify(self, notices: list[store_checks.Notice]) -> None:
        """Say what happened to stored data (all of it in one card while the game is loaded)."""
        for notice in notices:
            window.console.warn(f"hearts: stored data {notice.kind}: {notice.reason}; backup: {notice.backup}")
        self.told.extend(notices)
        if not self.loading and self.told:
            if self.notices.shown("stored"):  # still on screen: one card for all of it
                self.told = [n for n in self.on_card if n not in self.told] + self.told
            failed = any(n.backup is None for n in self.told)
            self.notices.show("stored", stored_notice_html(self.told), seconds=None if failed else 20)
            self.on_card, self.told = self.told, []

    def notice(self, notice_id: str, text: str, actions: list[tuple[str, str]]) -> None:
        self.notices.show(notice_id, notice_html(notice_id, text, actions), seconds=20)

    def _on_status(self, ok: bool) -> None:
        if ok == self._saving:
            return  # shown once per change (a dismissed warning does not come back at every move)
        self._saving = ok
        if ok:
            self.notices.show("storage", notice_html("storage", t("storage_ok"), warn=False), seconds=4)
        else:
            self.notices.show("storage", notice_html("storage", t("storage_full"), [("data-export", t("export"))]))
