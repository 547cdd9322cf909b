"""HTML of the player's data: notice cards, the "Your data" part of the settings, the import
preview, and the tab-ownership overlay. Pure (no DOM): :mod:`~.notices`, :mod:`~.dialog` and
:mod:`~hearts_web.tabs.browser` put it on the page."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..core.html import esc
from ..core.i18n import t
from ..data.registry import BY_KEY, KINDS, Notice

if TYPE_CHECKING:  # the import preview comes with data_transfer, in the second archive
    from .backup_file import ImportPlan

__all__ = [
    "notice_html",
    "stored_notice_html",
    "data_section_html",
    "storage_line_html",
    "import_preview_html",
    "overlay_html",
]

# What the browser promises about the data (hearts_web.transfer.keeping), and the line that says it
STORAGE_LINES = {"kept": "storage_kept", "space": "storage_space", "seven_days": "storage_seven_days"}


def _buttons(actions: Sequence[tuple[str, str]], primary_last: bool = True) -> str:
    out = []
    for i, (action, label) in enumerate(actions):
        cls = "primary" if primary_last and i == len(actions) - 1 else "secondary"
        out.append(f'<button type="button" class="{cls}" data-action="{esc(action)}">{esc(label)}</button>')
    return "".join(out)


def notice_html(
    notice_id: str,
    text: str,
    actions: Sequence[tuple[str, str]] = (),
    warn: bool = True,
    attrs: Mapping[str, str] | None = None,
) -> str:
    """One notice card: its text, its buttons, and a close button (``data-close-notice``)."""
    extra = "".join(f' data-{esc(k)}="{esc(v)}"' for k, v in (attrs or {}).items())
    role = "alert" if warn else "status"
    return (
        f'<div class="notice{" warn" if warn else ""}" role="{role}" data-notice="{esc(notice_id)}"{extra}>'
        f'<div class="notice-body"><p>{esc(text)}</p></div>'
        f'<div class="notice-actions">{_buttons(actions)}{_close(notice_id)}</div></div>'
    )


def _close(notice_id: str) -> str:
    return (
        f'<button type="button" class="notice-x" data-close-notice="{esc(notice_id)}" '
        f'aria-label="{esc(t("dismiss"))}" title="{esc(t("dismiss"))}">×</button>'
    )


def stored_notice_html(notices: Sequence[Notice]) -> str:
    """One card for what happened to stored data (one line per key). Data attributes say what
    happened to each key, for tests and tools; an export is offered when a backup failed."""

    def attrs(n: Notice) -> str:
        return (
            f' data-notice-key="{esc(n.key)}" data-notice-kind="{esc(n.kind)}"'
            f' data-notice-backup="{esc(n.backup or "")}"'
        )

    failed = [n for n in notices if n.backup is None]
    actions = [("data-export", t("export"))] if failed else []
    if len(notices) == 1:
        body = f"<p{attrs(notices[0])}>{esc(notices[0].text())}</p>"
    else:
        if not failed:
            tail, per_item = t("n_backups_kept"), False
        elif len(failed) == len(notices):
            tail, per_item = t("n_backups_failed"), False
        else:
            tail, per_item = "", True
        items = "".join(f"<li{attrs(n)}>{esc(n.text(with_backup=per_item))}</li>" for n in notices)
        body = f'<ul class="notice-list">{items}</ul>' + (f"<p>{esc(tail)}</p>" if tail else "")
    return (
        f'<div class="notice warn" role="alert" data-notice="stored"><div class="notice-body">{body}</div>'
        f'<div class="notice-actions">{_buttons(actions)}{_close("stored")}</div></div>'
    )


def data_section_html(storage: str = "unknown") -> str:
    """The settings dialog's "Your data" part: export and import, and whether the browser keeps the
    data (``storage``: a key of :data:`STORAGE_LINES`, or "unknown": nothing is said)."""
    buttons = _buttons([("data-export", t("export")), ("data-import", t("import"))], False)
    return (
        f'<fieldset class="data"><legend>{esc(t("your_data"))}</legend>'
        f'<p class="note">{esc(t("data_note"))}</p>{storage_line_html(storage)}'
        f'<div class="data-actions">{buttons}</div>'
        "</fieldset>"
    )


def storage_line_html(storage: str) -> str:
    """What the browser promises about the data, and where it has not promised to keep it, the
    button that asks it (again: Firefox asks the player)."""
    text = f"<span>{esc(t(STORAGE_LINES[storage]))}</span>" if storage in STORAGE_LINES else ""
    ask = _buttons([("storage-keep", t("storage_ask"))], False) if storage == "space" else ""
    return f'<p class="note storage-line" data-storage-line="{esc(storage)}">{text} {ask}</p>'


def import_preview_html(plan: ImportPlan) -> str:
    if plan.empty:
        skipped = f'<p class="note">{esc(t("imp_skipped", n=len(plan.skipped)))}</p>' if plan.skipped else ""
        return (
            f'<p>{esc(t("import_nothing"))}</p>{skipped}<div class="dlg-actions">'
            f"{_buttons([('close-dialog', t('close'))])}</div>"
        )
    parts = []
    if plan.replace:
        items = "".join(
            f'<li data-import-key="{esc(kind.key)}"><strong>{esc(t("imp_" + kind.what))}</strong>: {esc(new)} '
            f'<span class="note">({esc(t("imp_now", what=now))})</span></li>'
            for kind in KINDS
            if kind.key in plan.replace
            for now, new in [plan.replace[kind.key]]
        )
        parts.append(f'<p>{esc(t("import_will_replace"))}</p><ul class="import-list">{items}</ul>')
    kept = [
        f'<li data-import-aside="{esc(key)}">{esc(t("imp_" + BY_KEY[key].what))}: {esc(t("imp_invalid"))}</li>'
        for key in plan.set_aside
    ]
    if plan.backups:
        kept.append(f"<li>{esc(t('imp_backups', n=plan.backups))}</li>")
    if kept:
        parts.append(f'<p>{esc(t("import_adds"))}</p><ul class="import-list">{"".join(kept)}</ul>')
    if plan.skipped:
        parts.append(
            '<p class="note" '
            f'data-import-skipped="{len(plan.skipped)}">{esc(t("imp_skipped", n=len(plan.skipped)))}</p>'
        )
    actions = _buttons([("close-dialog", t("close")), ("data-import-confirm", t("import_confirm"))])
    parts.append(f'<div class="dlg-actions">{actions}</div>')
    return "".join(parts)


def overlay_html(moved: bool) -> str:
    """The page when another tab owns the game: why, and the one way on."""
    head = t("tab_moved") if moved else t("tab_elsewhere")
    return (
        f'<div class="tab-card" role="alertdialog" aria-modal="true" aria-labelledby="tab-head">'
        f'<div class="loader-logo" aria-hidden="true"><span class="suit-red">♥</span><span>♠</span></div>'
        f'<p id="tab-head" class="tab-head">{esc(head)}</p><p>{esc(t("tab_question"))}</p>'
        '<button type="button" class="primary" data-action="tab-continue" '
        f"autofocus>{esc(t('tab_continue'))}</button></div>"
    )
