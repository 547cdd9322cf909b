"""The online table's extras on the page, the same for the host and its guests: the turn timer at
the seats (a countdown at a seat the table waits for, "bot plays" at a seat a bot plays for, with
``data-seat-auto="true"``), the quick reactions (a bar of ``[data-reaction]`` buttons; each one
shown briefly at its sender's seat as ``data-reaction-shown``) with the player's mute switch (kept
in the settings), and the local player's next tap, which takes the seat back from the bot.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable

from hearts import Seat

from ..core.dom import Element, JsEvent, by_id, document, listen, qs, qsa, window
from ..core.html import esc
from ..core.i18n import t
from ..data.registry import SETTINGS
from ..screen import page
from .door import Door
from .messages import REACTIONS, Turn
from .panel_html import TIMER_KEYS, timer_label
from .protocol import RateLimit

__all__ = ["TableExtras", "GLYPHS", "timer_label", "timer_select"]

GLYPHS = {"thumbs": "👍", "wow": "😮", "phew": "😅", "party": "🎉", "gg": ""}  # "gg" shows its words
SHOWN_FOR = 3.0  # seconds a reaction stays at its seat


def timer_select(limit: int) -> str:
    """The host's control of the turn timer (its lobby)."""
    options = "".join(
        f'<option value="{n}"{" selected" if n == limit else ""}>{esc(timer_label(n))}</option>' for n in TIMER_KEYS
    )
    return (
        f'<div class="form" data-form="online-table"><label for="online-turn-timer">{esc(t("online_timer"))} '
        f'<select id="online-turn-timer" name="turn-timer" data-setting="turn-timer">{options}</select></label>'
        f'<p class="note">{esc(t("online_timer_note"))}</p></div>'
    )


def reaction_words(code: str) -> str:
    glyph = GLYPHS.get(code, "")
    return f"{glyph} {t(f'react_{code}')}" if glyph else t(f"react_{code}")


class TableExtras:
    """``react(code)``: send this player's reaction, True when it went out; ``back()``: take the
    seat back from the bot."""

    def __init__(self, door: Door, react: Callable[[str], bool], back: Callable[[], None]) -> None:
        self.door, self._react, self._back = door, react, back
        self.turn: Turn | None = None
        self.turn_at = 0.0
        self.me_auto = False
        self.active = False
        self.mirror = RateLimit(0.5, 3.0)  # what the host lets through: only that is shown here too
        self._shown: dict[Seat, int] = {}
        self._ticker: asyncio.Task[None] | None = None
        self._listening = False

    @property
    def muted(self) -> bool:
        return self.door.settings().mute_reactions

    def show(self) -> None:
        """The table is on screen: the reactions bar, the countdown."""
        self.active = True
        bar = qs("#online-bar")
        if bar is None:
            bar = document.createElement("div")
            bar.id = "online-bar"
            bar.className = "online-bar"
            bar.setAttribute("role", "group")
            by_id("table").appendChild(bar)
        self.draw_bar()
        if not self._listening:
            self._listening = True
            options = window.Object.fromEntries([["capture", True]])
            listen(document, "pointerdown", self._tap, options)
            listen(document, "keydown", self._tap, options)
        if self._ticker is None:
            self._ticker = asyncio.ensure_future(self._tick())

    def hide(self) -> None:
        self.active, self.turn, self.me_auto = False, None, False
        self.draw_auto_note()
        bar = qs("#online-bar")
        if bar is not None:
            bar.remove()
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None
        for el in qsa(".seat[data-seat]"):
            for name in ("data-seat-auto", "data-auto-word", "data-countdown", "data-reaction-shown"):
                el.removeAttribute(name)

    def draw_bar(self) -> None:
        bar = qs("#online-bar")
        if bar is None:
            return
        bar.setAttribute("aria-label", t("online_reactions"))
        buttons = "".join(
            f'<button type="button" class="react" data-action="online-react" data-reaction="{code}"'
            + (
                f' aria-label="{esc(reaction_words(code))}" title="{esc(t(f"react_{code}"))}">{GLYPHS[code]}</button>'
                if GLYPHS[code]
                else f">{esc(t('react_gg'))}</button>"
            )
            for code in REACTIONS
        )
        bar.innerHTML = (
            buttons + f'<button type="button" class="react mute" data-action="online-mute" '
            f'aria-pressed="{"true" if self.muted else "false"}">{esc(t("online_mute"))}</button>'
        )

    # ------------------------------------------------------------------ reactions
    def send(self, code: str) -> None:
        """This player reacts (a button of the bar)."""
        if code in REACTIONS and self._react(code) and self.mirror.allow():
            self.reacted(self.door.view.seating.me, code)

    def reacted(self, seat: Seat, code: str) -> None:
        """A reaction, shown at its sender's seat for a few seconds (not while muted)."""
        me = self.door.view.seating.me
        if not self.active or code not in GLYPHS or (self.muted and seat != me):
            return
        el = self._seat_el(seat)
        if el is None:
            return
        el.setAttribute("data-reaction-shown", GLYPHS[code] or t("react_gg"))
        self._shown[seat] = mark = self._shown.get(seat, 0) + 1
        if seat != me:
            self.door.view.announce(
                t("online_reacted", name=self.door.view.seating.name(seat), reaction=reaction_words(code))
            )
        page.guard(self._unshow(seat, mark))

    async def _unshow(self, seat: Seat, mark: int) -> None:
        await asyncio.sleep(SHOWN_FOR)
        el = self._seat_el(seat)
        if el is not None and self._shown.get(seat) == mark:
            el.removeAttribute("data-reaction-shown")

    def toggle_mute(self) -> None:
        settings = self.door.settings()
        settings.mute_reactions = not settings.mute_reactions
        self.door.saved.write(SETTINGS, settings)
        self.draw_bar()
        if settings.mute_reactions:
            me = self.door.view.seating.me
            for seat in Seat:
                el = self._seat_el(seat)
                if seat != me and el is not None:
                    el.removeAttribute("data-reaction-shown")

    # ------------------------------------------------------------------ the turn timer
    def set_turn(self, turn: Turn) -> None:
        self.turn, self.turn_at = turn, asyncio.get_event_loop().time()
        me_auto = turn.auto[self.door.view.seating.me]
        if me_auto != self.me_auto:
            self.me_auto = me_auto
            self.draw_auto_note()
            if not me_auto:
                self.door.view.toast(t("online_back_done"), seconds=2)
        self.draw_seats()

    def draw_auto_note(self) -> None:
        """While a bot plays for this player: a note above the hand, with the way back."""
        note = qs("#online-auto")
        if not self.me_auto:
            if note is not None:
                note.remove()
            return
        if note is None:
            note = document.createElement("p")
            note.id = "online-auto"
            note.className = "online-auto"
            note.setAttribute("role", "status")
            by_id("table").appendChild(note)
        note.innerHTML = (
            f'<span>{esc(t("online_auto_you"))}</span> <button type="button" class="secondary" '
            f'data-action="online-back">{esc(t("online_back"))}</button>'
        )

    def draw_seats(self) -> None:
        turn = self.turn
        now = asyncio.get_event_loop().time()
        for seat in Seat:
            el = self._seat_el(seat)
            if el is None:
                continue
            auto = turn is not None and turn.auto[seat]
            left = turn.left[seat] if turn is not None else None
            if auto:
                el.setAttribute("data-seat-auto", "true")
                el.setAttribute("data-auto-word", t("online_auto"))
            else:
                el.removeAttribute("data-seat-auto")
            if left is not None and not auto:
                seconds = max(0, math.ceil(left / 1000 - (now - self.turn_at)))
                el.setAttribute("data-countdown", f"{seconds} s")
                el.classList.toggle("hurry", seconds <= 10)
            else:
                el.removeAttribute("data-countdown")

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            if self.turn is not None and any(x is not None for x in self.turn.left):
                self.draw_seats()

    def take_back(self) -> None:
        if self.me_auto:
            self._back()

    def _tap(self, event: JsEvent) -> None:
        """The local player's next tap (or key) takes the seat back from the bot."""
        if (
            self.active
            and self.me_auto
            and str(getattr(event, "key", "")) not in ("Shift", "Control", "Alt", "Meta", "Tab")
        ):
            self._back()

    def _seat_el(self, seat: Seat) -> Element:
        return qs(f'.seat[data-seat="{self.door.view.seating.slot(seat)}"]')
