"""Export and import in the browser: a download made in the page (works offline), a file picked
by the player, the preview of what an import replaces, and the import itself.
The file format and the checks are :mod:`hearts_web.transfer.backup_file`. Registers ``data-export``,
``data-import`` and ``data-import-confirm`` (the settings' "Your data", notices with an export)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ..core.commands import Commands
from ..core.dom import Element, call, document, listen, local_storage, tell, window
from ..core.html import esc
from ..core.i18n import t
from ..core.notices import Notices
from ..data.store import Store
from ..screen import page
from ..screen.dialogs import Dialogs
from . import backup_file
from .backup_file import ImportError_, ImportPlan
from .html import import_preview_html, notice_html

__all__ = ["DataTransfer", "download"]


def _now_iso() -> str:
    return str(window.Date.new().toISOString())[:19] + "Z"


def download(name: str, text: str) -> None:
    """Save ``text`` as the file ``name`` (the page makes a link to a Blob: no network)."""
    tell("download", name, text, "application/json")


class DataTransfer:
    """``on_imported`` runs after an import was written (the page then loads the new data)."""

    def __init__(
        self, commands: Commands, store: Store, dialogs: Dialogs, notices: Notices, on_imported: Callable[[], None]
    ) -> None:
        self.store = store
        self.dialogs = dialogs
        self.notices = notices
        self.on_imported = on_imported
        self.plan: ImportPlan | None = None
        self._picker: Element = None
        commands.add("data-export", lambda _: page.guard(self.export()))
        commands.add("data-import", lambda _: self.pick_file())
        commands.add("data-import-confirm", lambda _: self.confirm())

    async def export(self) -> None:
        """The file of everything stored (as the page's storage holds it now, and what only
        memory holds: writes a full storage refused, backups it could not take)."""
        storage = local_storage()
        if storage is not None:
            await storage.reread()
        exported = _now_iso()
        name = backup_file.file_name(exported)
        download(name, backup_file.export_text(self.store, exported))
        self.notices.show("export", lambda: notice_html("export", t("export_done", name=name), warn=False), seconds=5)

    def pick_file(self) -> None:
        """The browser's file picker (an ``<input type=file>`` of this page's, clicked on the page)."""
        if self._picker is None:
            picker = document.createElement("input")
            picker.setAttribute("type", "file")
            picker.setAttribute("accept", ".json,application/json")
            picker.setAttribute("hidden", "")
            picker.id = "import-file"
            document.body.appendChild(picker)
            listen(picker, "change", lambda _event: asyncio.ensure_future(self._read_picked()))
            self._picker = picker
        document.name(self._picker)
        tell("pick", self._picker.vid)

    async def _read_picked(self) -> None:
        """The picked file's text (the page reads a file of at most 4 bytes a character allowed)."""
        picked = await call("picked", self._picker.vid, 4 * backup_file.MAX_FILE_CHARS)
        if picked is None:
            return
        if picked.get("text") is None:
            self._refuse(ImportError_("size"))
            return
        storage = local_storage()
        if storage is not None:
            await storage.reread()  # what is stored now: the preview says what the import replaces
        self.preview(str(picked["text"]))

    def preview(self, text: str) -> None:
        """Check the file and say what importing it will replace (nothing changes yet)."""
        self.plan = None
        try:
            data = backup_file.read_file(text)
        except ImportError_ as exc:
            self._refuse(exc)
            return
        self.plan = backup_file.plan_import(self.store, data, str(int(window.Date.now())))
        self.dialogs.open(t("import_title"), import_preview_html(self.plan))

    def _refuse(self, exc: ImportError_) -> None:
        window.console.warn(f"hearts: import refused: {exc}")
        self.dialogs.open(
            t("import_title"),
            f'<p class="import-error">{esc(exc.text())}</p>'
            f'<div class="dlg-actions"><button type="button" class="primary" data-action="close-dialog">'
            f"{esc(t('close'))}</button></div>",
        )

    def confirm(self) -> None:
        plan, self.plan = self.plan, None
        self.dialogs.close()
        if plan is None:
            return
        if not backup_file.apply_import(self.store, plan):
            self.notices.show("import", lambda: notice_html("import", t("import_failed")))
            return
        self.on_imported()
        self.notices.show("import", lambda: notice_html("import", t("import_done"), warn=False), seconds=6)
