"""The settings in force on this page, and the settings dialog.

:class:`Preferences` holds the current :class:`~hearts_web.data.settings.Settings` and the speed they
give (``?speed=`` may override it for a visit); it applies the language, the look and the speed
to the page. :class:`SettingsDialog` registers the toolbar's ``settings``, the dialog's choices
(``set-lang``, ``set-difficulty``, ``set-look``, ``set-deck``) and its form, and applies what a
change means at once (a new language redraws everything; a new level is the bots' next decision).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from ..core import i18n
from ..core.commands import Commands, FieldChange, Press
from ..core.dom import by_id, document, is_none, qs, window
from ..core.i18n import t
from ..data.registry import SETTINGS, SavedData
from ..data.session import Mode
from ..data.settings import MIN_THINK, TIMINGS, Settings
from ..screen import page
from ..screen.dialogs import Dialogs
from ..table.door import SessionDoor
from ..table.view import TableView
from . import form as settings_form

__all__ = ["Preferences", "SettingsDialog", "TableDoor"]


class Preferences:
    def __init__(self, settings: Settings, params: Mapping[str, str]) -> None:
        self.settings = settings
        self.speed_override: str | None = params["speed"] if params.get("speed") in TIMINGS else None

    @property
    def speed(self) -> str:
        return self.speed_override or self.settings.speed

    def timings(self) -> tuple[float, float, float]:
        fly, pause, collect = TIMINGS[self.speed]
        if page.reduced_motion():  # no flying cards; the finished trick still stays a moment
            return 0.0, pause, 0.0
        return fly, pause, collect

    def min_think(self) -> float:
        return MIN_THINK[self.speed]

    def apply(self) -> None:
        """The language, the look and the speed of the settings, on the page."""
        page = document.documentElement.getAttribute("data-page-lang")  # the German page's (tools/pages.py)
        page_lang = "" if is_none(page) else str(page)
        i18n.set_lang(self.settings.lang or i18n.default_lang(str(window.navigator.language or ""), page_lang))
        self.apply_look()
        self.apply_speed()

    def apply_look(self) -> None:
        page.apply_look(self.settings.look, self.settings.deck)

    def apply_speed(self) -> None:
        page.apply_speed(self.timings(), self.speed == "instant")


class TableDoor(SessionDoor, Protocol):
    """What the settings need of the table (:class:`~hearts_web.table.loop.TableLoop`)."""

    def save(self) -> None: ...

    def show_badge(self) -> None: ...


class SettingsDialog:
    """``relabel()``: what else the page shows in words is drawn again after a change of language;
    ``storage()``: what the browser promises about the data ("Your data" says it)."""

    def __init__(
        self,
        commands: Commands,
        prefs: Preferences,
        saved: SavedData,
        dialogs: Dialogs,
        view: TableView,
        table: TableDoor,
        relabel: Callable[[], None] = lambda: None,
        storage: Callable[[], str] = lambda: "unknown",
    ) -> None:
        self.prefs, self.saved, self.dialogs, self.view, self.table = prefs, saved, dialogs, view, table
        self.relabel, self.storage = relabel, storage  # storage(): what the browser promises (transfer.keeping)
        commands.add("settings", lambda _: self.dialogs.open(t("settings"), self._html()))
        for action in ("set-lang", "set-difficulty", "set-look", "set-deck"):
            commands.add(action, self.tap)
        commands.add_form("settings", self.changed)

    @property
    def settings(self) -> Settings:
        return self.prefs.settings

    def _html(self) -> str:
        return settings_form.settings_html(self.settings, self.storage())

    def tap(self, press: Press) -> None:
        value = press.text("value") or ""
        changed = settings_form.on_click(self.settings, press.action, value)
        if changed == "lang":
            self.set_lang(value)
        else:
            self._apply(changed)

    def changed(self, change: FieldChange) -> None:
        self._apply(settings_form.on_change(self.settings, change.name, change.value, change.checked))

    def _apply(self, changed: str | None) -> None:
        if changed == "look":
            self.prefs.apply_look()
        elif changed == "speed":
            self.prefs.speed_override = None
            self.prefs.apply_speed()
        elif changed == "difficulty":
            session = self.table.session
            if session is not None and session.state.mode is Mode.MATCH:
                session.state.difficulty = self.settings.difficulty  # the bots' next decision uses it
                self.table.save()
        if changed is not None:
            self.saved.write(SETTINGS, self.settings)
            self.refresh()

    def refresh(self) -> None:
        """Draw the open settings dialog again (the focus stays on the same field)."""
        active = document.activeElement
        focus = ""
        if not is_none(active) and hasattr(active, "getAttribute"):
            focus = str(active.getAttribute("name") or active.getAttribute("data-action") or "")
        by_id("dlg-body").innerHTML = self._html()
        if focus:
            el = qs(f'#dlg-body [name="{focus}"]') or qs(f'#dlg-body [data-action="{focus}"][aria-pressed="true"]')
            if el is not None:
                el.focus()

    def set_lang(self, lang: str) -> None:
        self.settings.lang = lang if lang in i18n.LANGS else "en"
        self.saved.write(SETTINGS, self.settings)
        i18n.set_lang(self.settings.lang)
        page.apply_texts(self.view.seating)
        self.view.render()
        self.table.show_badge()
        if self.dialogs.is_open and qs("#dlg-body [data-settings]") is not None:
            self.refresh()  # the settings dialog follows the language at once
        self.view.relabel()  # the toast on screen ("You received … from Shelly")
        self.relabel()
