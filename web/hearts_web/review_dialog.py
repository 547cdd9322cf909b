"""The hand review on the page: step through a finished hand and read where points were lost.

The verdicts come from :func:`hearts.review.review_steps` (Hard's search on the player's own view
of each decision); it runs in slices, so the page stays responsive, and the list fills in as each
decision is checked.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from hearts import Hand, Seat
from hearts.review import Verdict, decision_count, review_steps

from . import review_html
from .dialogs import Dialogs
from .dom import by_id, qs, window
from .i18n import t
from .players import Pacer
from .table_html import esc
from .table_view import TableView

__all__ = ["ReviewUI", "ReviewHost"]


class ReviewHost(Protocol):
    dialogs: Dialogs
    view: TableView

    def guard(self, coro: Any) -> None: ...


class ReviewUI:
    def __init__(self, host: ReviewHost) -> None:
        self.host = host
        self.hand: Hand | None = None
        self.me = Seat.SOUTH
        self.step = 0
        self.verdicts: list[Verdict] = []
        self.total = 0
        self.task: asyncio.Task[None] | None = None
        self.back: tuple[str, str, str] | None = None  # the dialog the review was opened from

    def open(self, hand: Hand, me: Seat, title: str) -> None:
        if self.task is not None:
            self.task.cancel()
        self.hand, self.me, self.step, self.verdicts = hand, me, 1 if hand.tricks else 0, []
        self.total = decision_count(hand, me)
        if not self.showing():
            self.back = self.host.dialogs.current()  # the summary it came from: "Back" shows it again
        body = ('<div class="review" data-review>'
                '<div id="review-stage" class="review-stage" aria-live="polite"></div>'
                '<div class="review-nav">'
                f'<button type="button" class="secondary" data-action="review-prev" aria-label="{esc(t("review_prev"))}">‹</button>'
                '<span id="review-where"></span>'
                f'<button type="button" class="secondary" data-action="review-next" aria-label="{esc(t("review_next"))}">›</button></div>'
                '<div id="review-verdicts"></div>'
                + (f'<div class="dlg-actions"><button type="button" class="primary" data-action="review-back" autofocus>{esc(t("review_back"))}</button></div>'
                   if self.back is not None else
                   f'<div class="dlg-actions"><button type="button" class="primary" data-action="close-dialog" autofocus>{esc(t("close"))}</button></div>')
                + '</div>')
        self.host.dialogs.open(title, body, "dlg-review")
        self.draw_step()
        self.draw_verdicts(done=False)
        self.task = asyncio.ensure_future(self._run(hand))

    def showing(self) -> bool:
        return self.host.dialogs.is_open and qs("#review-stage") is not None

    async def _run(self, hand: Hand) -> None:
        pace = Pacer()
        steps = review_steps(hand, self.me)
        try:
            while True:
                try:
                    item = next(steps)
                except StopIteration:
                    break
                if not self.showing() or self.hand is not hand:
                    return  # closed, or another hand's review opened
                if item is not None:
                    self.verdicts.append(item)
                    self.draw_verdicts(done=False)
                await pace()
            if self.showing() and self.hand is hand:
                self.draw_verdicts(done=True)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the review is optional: say so, keep the page
            out = by_id("review-verdicts")
            if out is not None:
                out.innerHTML = f'<p class="note">{esc(t("review_failed"))}</p>'
            window.console.error(f"hearts: the review failed: {exc!r}")

    def draw_step(self) -> None:
        hand = self.hand
        if hand is None or not self.showing():
            return
        by_id("review-stage").innerHTML = review_html.step_html(hand, self.step, self.host.view.seating)
        last = review_html.step_count(hand) - 1
        by_id("review-where").textContent = t("review_pass") if self.step == 0 else t("review_trick", n=self.step, of=last)
        qs('[data-action="review-prev"]').disabled = self.step <= 0
        qs('[data-action="review-next"]').disabled = self.step >= last

    def draw_verdicts(self, done: bool) -> None:
        out = by_id("review-verdicts")
        if out is not None and self.showing():
            out.innerHTML = review_html.verdicts_html(self.verdicts, self.total, done, self.host.view.seating)

    def on_action(self, name: str, el: Any) -> None:
        if name == "review-back":
            back, self.back = self.back, None
            if back is not None:
                self.host.dialogs.open(*back)
            else:
                self.host.dialogs.close()
            return
        if self.hand is None:
            return
        last = review_html.step_count(self.hand) - 1
        if name == "review-prev":
            self.step = max(0, self.step - 1)
        elif name == "review-next":
            self.step = min(last, self.step + 1)
        elif name == "review-first":
            self.step = 0
        elif name == "review-last":
            self.step = last
        elif name == "review-step" and el is not None:
            self.step = max(0, min(last, int(el.getAttribute("data-review-step") or 0)))
        self.draw_step()

