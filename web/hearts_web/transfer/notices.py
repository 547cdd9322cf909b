"""What the player is told about stored data: one card for what the checks found when the game
loads (repaired, set aside, backup kept or not), the warning when the storage refuses a write
(with an export) and "saved again" when it takes writes again, and one-off notices (a bad link).

The cards themselves are :class:`~hearts_web.core.notices.Notices`; their HTML is :mod:`~.html`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..core.dom import window
from ..core.i18n import t
from ..core.notices import Notices
from ..data.registry import Notice
from .html import notice_html, stored_notice_html

__all__ = ["DataNotices"]


class DataNotices:
    def __init__(self) -> None:
        self.cards = Notices()
        self._saving = True  # False while writes are only held in memory (storage full)
        self.loading = False  # notices are collected while the game loads, then shown at once
        self.told: list[Notice] = []
        self.on_card: list[Notice] = []  # what the "stored" card shows now

    def start_loading(self) -> None:
        """A new start: the old card goes; what the checks find is shown at once when it ends."""
        self.loading, self.told, self.on_card = True, [], []
        self.cards.hide("stored")

    def end_loading(self) -> None:
        """The game is loaded (or failed to): notices are shown as they come again."""
        self.loading = False

    def notify(self, notices: list[Notice]) -> None:
        """Say what happened to stored data (all of it in one card while the game is loaded)."""
        for notice in notices:
            window.console.warn(f"hearts: stored data {notice.kind}: {notice.reason}; backup: {notice.backup}")
        self.told.extend(notices)
        if not self.loading and self.told:
            if self.cards.shown("stored"):  # still on screen: one card for all of it
                self.told = [n for n in self.on_card if n not in self.told] + self.told
            failed = any(n.backup is None for n in self.told)
            told = list(self.told)
            self.cards.show("stored", lambda: stored_notice_html(told), seconds=None if failed else 20)
            self.on_card, self.told = self.told, []

    def backup_lost(self, backup_key: str) -> None:
        """The storage refused a backup after it was said to be kept: every notice that says so
        says now that it could not be kept (the copy is held in memory for an export)."""
        lost = [n for n in self.on_card + self.told if n.backup == backup_key]
        if not lost:
            return
        window.console.warn(f"hearts: stored data: the backup {backup_key} was refused; held in memory")
        self.told = [replace(n, backup=None) if n.backup == backup_key else n for n in self.told]
        if any(n.backup == backup_key for n in self.on_card):
            self.on_card = [replace(n, backup=None) if n.backup == backup_key else n for n in self.on_card]
            told = list(self.on_card)
            self.cards.show("stored", lambda: stored_notice_html(told), seconds=None)

    def notice(self, notice_id: str, text: Callable[[], str], actions: Callable[[], list[tuple[str, str]]]) -> None:
        """A one-off notice; ``text`` and ``actions`` are asked again when the language changes."""
        self.cards.show(notice_id, lambda: notice_html(notice_id, text(), actions()), seconds=20)

    def no_storage(self) -> None:
        self.cards.show("no-storage", lambda: notice_html("no-storage", t("no_storage")))

    def storage_status(self, ok: bool) -> None:
        """The storage took a write again (``ok``) or refused one."""
        if ok == self._saving:
            return  # shown once per change (a dismissed warning does not come back at every move)
        self._saving = ok
        if ok:
            self.cards.show("storage", lambda: notice_html("storage", t("storage_ok"), warn=False), seconds=4)
        else:
            self.cards.show(
                "storage", lambda: notice_html("storage", t("storage_full"), [("data-export", t("export"))])
            )
