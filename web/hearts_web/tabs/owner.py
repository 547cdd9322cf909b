"""This tab's claim on the game: which tab owns it (:mod:`hearts_web.tabs`), the checked start of
the stored data when this tab takes it (:meth:`~hearts_web.data.registry.SavedData.check_start`), and
the stop when another tab does.

Until this tab owns the game its store is read-only: a tab that opens while another one plays
reads the settings (for its language) and writes nothing at all. Registers ``tab-continue``
("Continue here" on the page shown while another tab owns the game).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ..core.commands import Commands
from ..data.registry import OWNED_KEYS, SETTINGS, SavedData
from ..data.settings import Settings
from ..screen import page
from ..transfer.notices import DataNotices
from .browser import BrowserPlatform, hide_overlay, new_tab_id, show_overlay
from .protocol import Snapshot, Tabs

__all__ = ["TabOwner"]


class TabOwner:
    """:class:`hearts_web.tabs.protocol.Host`: ``on_begin(settings)`` loads and plays the game once this tab
    owns it (again, after a take-over or an import): its awaitable ends once the game is drawn;
    ``on_stop()`` ends the table when another tab takes it."""

    def __init__(
        self,
        commands: Commands,
        notices: DataNotices,
        saved: SavedData,
        on_begin: Callable[[Settings], Awaitable[None]],
        on_stop: Callable[[], None],
    ) -> None:
        self.notices, self.saved, self.on_begin, self.on_stop = notices, saved, on_begin, on_stop
        self.store = saved.store
        self.store.readonly = True  # until this tab owns the game
        self.settings = SETTINGS.peek(self.store) or Settings()  # for the language and look until then
        self.platform = BrowserPlatform()
        self.tabs = Tabs(self.platform, self, new_tab_id())
        self.platform.bind(self.tabs)
        commands.add("tab-continue", lambda _: page.guard(self.tabs.take_over()))

    def start(self) -> None:
        page.guard(self.tabs.start())

    # ------------------------------------------------------------------ tabs.Host
    def begin(self, snapshot: Snapshot | None) -> None:
        self.store.readonly = False
        for key, raw in (snapshot or {}).items():
            if key in OWNED_KEYS:
                self.store.set_raw(key, raw)
        self.notices.start_loading()
        try:
            self.settings = self.saved.check_start()
            drawn = self.on_begin(self.settings)
        finally:
            self.notices.end_loading()
        self.notices.notify([])  # what the checks and the load found, in one card
        if self.store.storage is None:
            self.notices.no_storage()
        page.guard(self._uncover(drawn))

    @staticmethod
    async def _uncover(drawn: Awaitable[None]) -> None:
        """The notice "open in another tab" stays until the game this tab took is drawn: the
        position behind it is an old one (a tab that takes the game back drew it before it stopped)."""
        try:
            await drawn
        finally:
            hide_overlay()

    def stop(self) -> None:
        self.store.readonly = True
        self.on_stop()

    def snapshot(self) -> Snapshot:
        return self.saved.snapshot()

    def show_elsewhere(self, moved: bool) -> None:
        show_overlay(moved)
        page.set_ready()
