"""The hand review on the page: step through a finished hand and read where points were lost.

The verdicts come from :func:`hearts.review.review_steps` (Hard's search on the player's own view
of each decision); it runs in slices, so the page stays responsive, and the list fills in as each
decision is checked. Registers ``review`` (the buttons of the hand summary, the score sheet, the
match end and the daily result) and the review's own steps (``review-prev``, ``review-next``...).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from hearts import Hand, Seat
from hearts.review import Verdict, decision_count, review_steps

from ..core.commands import Commands, Press
from ..core.dom import by_id, qs, window
from ..core.html import esc
from ..core.i18n import t
from ..screen.dialogs import Dialogs
from ..screen.table_state import Seating
from ..table.door import SessionDoor
from ..table.players import Pacer
from . import html as review_html

__all__ = ["ReviewDialog"]

STEPS = ("review-prev", "review-next", "review-first", "review-last", "review-step")


class ReviewDialog:
    """``seating()``: the names of the table the reviewed hand was played at; ``show_error``
    says why there is nothing to review."""

    def __init__(
        self,
        commands: Commands,
        table: SessionDoor,
        dialogs: Dialogs,
        seating: Callable[[], Seating],
        show_error: Callable[[str], None],
    ) -> None:
        self.table, self.dialogs, self.seating, self.show_error = table, dialogs, seating, show_error
        commands.add("review", self.open_from)
        commands.add("review-back", lambda _: self.go_back())
        for action in STEPS:
            commands.add(action, self.go)
        self.hand: Hand | None = None
        self.me = Seat.SOUTH
        self.step = 0
        self.verdicts: list[Verdict] = []
        self.total = 0
        self.task: asyncio.Task[None] | None = None
        self.back: tuple[str, str, str] | None = None  # the dialog the review was opened from

    def open_from(self, press: Press) -> None:
        """The hand of the button (``data-hand``), or the one picked in ``#review-hand``, or the last."""
        if "hand" in press.data:
            number = press.number("hand")
        else:
            picked = qs("#review-hand")
            raw = str(picked.value) if picked is not None else "-1"
            number = int(raw) if raw.lstrip("-").isdigit() else -1
        if number is None:
            number = -1
        session = self.table.session
        if session is None:
            return
        finished = [h for h in session.match.hands if h.result is not None]
        if not finished:
            self.show_error(t("review_none"))
            return
        hand = next((h for h in finished if h.hand_number == number), finished[-1])
        self.open(hand, t("review_title", n=hand.hand_number + 1))

    def open(self, hand: Hand, title: str) -> None:
        if self.task is not None:
            self.task.cancel()
        self.hand, self.step, self.verdicts = hand, 1 if hand.tricks else 0, []
        self.total = decision_count(hand, self.me)
        if not self.showing():
            self.back = self.dialogs.current()  # the summary it came from: "Back" shows it again
        body = (
            '<div class="review" data-review>'
            '<div id="review-stage" class="review-stage" aria-live="polite"></div>'
            '<div class="review-nav">'
            '<button type="button" class="secondary" data-action="review-prev" '
            f'aria-label="{esc(t("review_prev"))}">‹</button>'
            '<span id="review-where"></span>'
            '<button type="button" class="secondary" data-action="review-next" '
            f'aria-label="{esc(t("review_next"))}">›</button></div>'
            '<div id="review-verdicts"></div>'
            + (
                '<div class="dlg-actions"><button type="button" class="primary" data-action="review-back" '
                f"autofocus>{esc(t('review_back'))}</button></div>"
                if self.back is not None
                else '<div class="dlg-actions"><button type="button" class="primary" data-action="close-dialog" '
                f"autofocus>{esc(t('close'))}</button></div>"
            )
            + "</div>"
        )
        self.dialogs.open(title, body, "dlg-review")
        self.draw_step()
        self.draw_verdicts(done=False)
        self.task = asyncio.ensure_future(self._run(hand))

    def showing(self) -> bool:
        return self.dialogs.is_open and qs("#review-stage") is not None

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
        by_id("review-stage").innerHTML = review_html.step_html(hand, self.step, self.seating())
        last = review_html.step_count(hand) - 1
        by_id("review-where").textContent = (
            t("review_pass") if self.step == 0 else t("review_trick", n=self.step, of=last)
        )
        qs('[data-action="review-prev"]').disabled = self.step <= 0
        qs('[data-action="review-next"]').disabled = self.step >= last

    def draw_verdicts(self, done: bool) -> None:
        out = by_id("review-verdicts")
        if out is not None and self.showing():
            out.innerHTML = review_html.verdicts_html(self.verdicts, self.total, done, self.seating())

    def go_back(self) -> None:
        back, self.back = self.back, None
        if back is not None:
            self.dialogs.open(*back)
        else:
            self.dialogs.close()

    def go(self, press: Press) -> None:
        if self.hand is None:
            return
        last = review_html.step_count(self.hand) - 1
        name = press.action
        if name == "review-prev":
            self.step = max(0, self.step - 1)
        elif name == "review-next":
            self.step = min(last, self.step + 1)
        elif name == "review-first":
            self.step = 0
        elif name == "review-last":
            self.step = last
        elif name == "review-step":
            self.step = max(0, min(last, press.number("review-step") or 0))
        self.draw_step()
