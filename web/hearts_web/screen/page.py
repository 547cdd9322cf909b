"""The page around the table: texts in the current language, the look, the animation speed, the
mode badge, the ready marker, and the friendly error banner (:func:`guard` runs a task under it)."""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Awaitable

from hearts import Seat

from ..core import i18n
from ..core.dom import by_id, document, qs, qsa, window
from ..core.html import esc
from ..core.i18n import t
from ..data.session import Mode, SessionState
from .table_state import Seating

__all__ = [
    "apply_texts",
    "apply_look",
    "apply_speed",
    "render_badge",
    "offer_undo",
    "reduced_motion",
    "show_failure",
    "guard",
    "set_ready",
]


def apply_texts(seating: Seating) -> None:
    document.documentElement.lang = i18n.lang()
    document.title = t("app_name")
    for el in qsa("[data-i18n]"):
        el.textContent = t(el.getAttribute("data-i18n"))
    for el in qsa(".tool"):
        label = qs(".tl", el)
        if label is not None:
            el.setAttribute("title", label.textContent)
            el.setAttribute("aria-label", label.textContent)
    for el in qsa("[data-lang]"):
        el.setAttribute("aria-pressed", "true" if el.getAttribute("data-lang") == i18n.lang() else "false")
    by_id("hand").setAttribute("aria-label", t("your_hand"))
    by_id("trick").setAttribute("aria-label", t("trick"))
    qs(".langs").setAttribute("aria-label", t("language"))
    qs(".tools").setAttribute("aria-label", t("menu"))
    qs(".dlg-x").setAttribute("aria-label", t("close"))
    notices = by_id("notices")  # index.html's region (hearts_web.core.notices names one it makes)
    if notices is not None:
        notices.setAttribute("aria-label", t("notices_label"))
    for slot in range(4):
        seat = Seat((slot + int(seating.me)) % 4)
        el = qs(f'.seat[data-seat="{slot}"]')
        if el is not None:
            el.setAttribute("aria-label", f"{seating.name(seat)} ({t(f'seat_{int(seat)}')})")
    if not document.fullscreenEnabled:
        by_id("fullscreen-btn").hidden = True


def apply_look(look: str, deck: str = "two") -> None:
    classic = look == "classic"
    document.documentElement.classList.toggle("classic", classic)
    document.documentElement.classList.toggle("four-colour", deck == "four")
    meta = qs('meta[name="theme-color"]')
    if meta is not None:
        meta.setAttribute("content", "#007f0e" if classic else "#0f3b2e")


def reduced_motion() -> bool:
    """The player asked the system for less motion (prefers-reduced-motion)."""
    try:
        return bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    except Exception:  # noqa: BLE001 - an old browser: no preference
        return False


def apply_speed(timings: tuple[float, float, float], instant: bool) -> None:
    fly, _, collect = timings
    root = document.documentElement
    root.classList.toggle("reduced-motion", reduced_motion())
    # on the trick, the only place the cards fly: set on the root, every element's style would be
    # computed again (a custom property is inherited)
    by_id("trick").style.setProperty("--dur", f"{int(max(fly, collect) * 1000)}ms")
    root.classList.toggle("instant", instant)


def render_badge(state: SessionState | None, par: int | None) -> None:
    """The mode badge (daily with its date and par, or practice) and the label of the button that
    leaves the daily game or starts a new match."""
    daily = state is not None and state.mode in (Mode.DAILY, Mode.CHALLENGE, Mode.GUIDED)
    button = qs('.tool[data-action="new-match"]')
    if button is not None:
        key = "back_to_match" if daily else "new_match"
        label = qs(".tl", button)
        label.setAttribute("data-i18n", key)
        label.textContent = t(key)
        button.setAttribute("title", t(key))
        button.setAttribute("aria-label", t(key))
    parts = _badge_parts(state, par, daily)
    badge = by_id("mode-badge")
    # each part whole on its line: a narrow toolbar breaks the badge between its parts only
    badge.innerHTML = " · ".join(f"<span>{esc(part)}</span>" for part in parts)
    badge.hidden = not parts


def _badge_parts(state: SessionState | None, par: int | None, daily: bool) -> list[str]:
    """What the mode badge says, part by part (none: no badge)."""
    if state is None:
        return []
    if state.mode is Mode.GUIDED:
        return [t("guide_badge")]
    if state.mode is Mode.CHALLENGE:
        return [t("challenge_badge")] + ([t("practice")] if state.practice else [])
    if daily:
        parts = [t("daily_practice_badge") if state.practice else t("daily_badge"), state.date or ""]
        return parts + ([t("par", par=par)] if par is not None else [])
    return [t("practice")] if state.practice else []


def offer_undo(possible: bool) -> None:
    """The Undo button works when the player has something to take back."""
    button = by_id("undo-btn")
    if button is not None:
        button.disabled = not possible


def guard(work: Awaitable[None]) -> None:
    """Run ``work`` as a task of its own; an exception shows the error banner (never a dead page)."""

    async def run() -> None:
        try:
            await work
        except Exception as exc:  # noqa: BLE001 - a friendly message, keep the page alive
            show_failure(exc)

    asyncio.ensure_future(run())


def set_ready() -> None:
    """The game is on screen: the loader goes (``html.ready``), and so does what index.html drew
    for a first visit if Python did not take it over (the welcome is not offered on a link)."""
    root = document.documentElement
    root.classList.remove("booting", "first-visit")
    root.classList.add("ready")
    for el in document.querySelectorAll(".boot-only"):
        el.remove()


def show_failure(exc: BaseException) -> None:
    """A friendly message instead of a stack trace; the details go to the console."""
    window.console.warn("hearts: " + "".join(traceback.format_exception(exc)))
    by_id("fatal-text").textContent = t("error")
    by_id("fatal-reload").textContent = t("reload")
    by_id("fatal").hidden = False
