"""Notice cards at the top of the page: what happened to stored data, a failed save, a bad link.

Unlike the toast (one short line that the table reuses all the time), a notice stays until the
player closes it (or ``seconds`` pass), several can be shown at once, and each may carry buttons
(their ``data-action`` is a command like any other). HTML from :mod:`~hearts_web.transfer.html`.
A notice given as a function of no arguments is drawn again in the new language by
:meth:`Notices.relabel`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from .dom import Element, JsEvent, by_id, closest, document, listen, qs
from .i18n import t

__all__ = ["Notices"]


class Notices:
    def __init__(self) -> None:
        self._tokens: dict[str, object] = {}
        self._builders: dict[str, Callable[[], str]] = {}
        self._box_seen: Element | None = None

    def _box(self) -> Element:
        """The notices' region: index.html's (it may hold the first visit's welcome, drawn
        before Python ran), or a new one."""
        box = by_id("notices")
        if box is None or not hasattr(box, "appendChild"):
            box = document.createElement("div")
            box.id = "notices"
            box.className = "notices"
            box.setAttribute("aria-live", "polite")
            box.setAttribute("role", "region")  # a landmark of its own, named in the page's language
            (by_id("table") or document.body).appendChild(box)  # in the table's grid, as index.html's
        if self._box_seen is not box:
            self._box_seen = box
            box.setAttribute("aria-label", t("notices_label"))
            listen(box, "click", self._on_click)
        return box

    def _on_click(self, event: JsEvent) -> None:
        el = closest(event, "[data-close-notice]")
        if el is not None:
            self.hide(str(el.getAttribute("data-close-notice")))

    def show(self, notice_id: str, html: str | Callable[[], str], seconds: float | None = None) -> None:
        """Show (or replace) the notice ``notice_id``; it goes away after ``seconds`` if given.
        ``html`` may be a function that builds it (in the page's language at the time)."""
        if callable(html):
            self._builders[notice_id] = html
            html = html()
        else:
            self._builders.pop(notice_id, None)
        self._draw(notice_id, html)
        token = self._tokens[notice_id] = object()
        if seconds is not None:
            asyncio.ensure_future(self._expire(notice_id, token, seconds))

    def relabel(self) -> None:
        """The language changed: every notice shown that has a builder is drawn again (its
        expiry stays as it was)."""
        if self._box_seen is not None:
            self._box_seen.setAttribute("aria-label", t("notices_label"))
        for notice_id, build in list(self._builders.items()):
            if self.shown(notice_id):
                self._draw(notice_id, build())
            else:
                self._builders.pop(notice_id, None)

    def _draw(self, notice_id: str, html: str) -> None:
        box = self._box()
        old = qs(f'[data-notice="{notice_id}"]', box)
        holder = document.createElement("div")
        holder.innerHTML = html
        card = holder.firstElementChild
        assert card is not None, f"a notice's HTML is an element: {notice_id}"
        if old is not None:
            card.classList.add("again")  # in place of one on screen: it does not slide in again
            box.replaceChild(card, old)
        else:
            box.appendChild(card)

    async def _expire(self, notice_id: str, token: object, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if self._tokens.get(notice_id) is token:
            self.hide(notice_id)

    def hide(self, notice_id: str) -> None:
        self._tokens.pop(notice_id, None)
        self._builders.pop(notice_id, None)
        old = qs(f'#notices [data-notice="{notice_id}"]')
        if old is not None:
            old.remove()

    def shown(self, notice_id: str) -> bool:
        return qs(f'#notices [data-notice="{notice_id}"]') is not None
