"""The one ``<dialog>`` of the page and what it shows: hand summary, match end, score sheet, last
trick, confirmations. The HTML comes from :mod:`hearts_web.screen.table_html`, the charts from
:mod:`hearts_web.screen.charts`: drawn at the width their place in the dialog really has (measured once
the dialog is open: :meth:`Dialogs.fit_charts`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from hearts import HandScore, Seat, Trick

from ..core import i18n
from ..core.commands import Commands
from ..core.dom import JsEvent, by_id, call, css_pixels, document, listen, qs, tell, window
from ..core.html import esc
from ..core.i18n import t
from . import charts, table_html
from .table_state import Seating

KINDS = ("dlg-hand", "dlg-end", "dlg-wide")  # the dialog's variants (classes)
ChartDrawing = Callable[[float, float], str]  # (width, font) -> the chart's SVG

__all__ = ["Dialogs"]


def _actions(*buttons: tuple[str, str, str]) -> str:
    """Buttons as (class, data-action, label); the last one gets the focus."""
    html = "".join(
        f'<button type="button" class="{cls}" '
        f'data-action="{action}"{" autofocus" if i == len(buttons) - 1 else ""}>{esc(label)}</button>'
        for i, (cls, action, label) in enumerate(buttons)
    )
    return f'<div class="dlg-actions">{html}</div>'


def _review_picker(sheet: list[HandScore]) -> str:
    """Which finished hand the "Review" button opens (the last one unless another is picked)."""
    if len(sheet) < 2:
        return ""
    options = "".join(
        f'<option value="{row.hand_number}"{" selected" if i == len(sheet) - 1 else ""}>'
        f"{esc(t('review_title', n=row.hand_number + 1))}</option>"
        for i, row in enumerate(sheet)
    )
    return (
        f'<label class="review-pick" for="review-hand">{esc(t("review"))} <select '
        f'id="review-hand">{options}</select></label>'
    )


class Dialogs:
    """``seating()`` names the players (the table's seating: an online table has its own). The
    dialogs' own buttons (``close-dialog``, ``continue``) close it."""

    def __init__(self, seating: Callable[[], Seating], commands: Commands) -> None:
        self.seating = seating
        self.el = by_id("dlg")
        commands.add("close-dialog", lambda _: self.close())
        commands.add("continue", lambda _: self.close())
        self._closed: asyncio.Future[bool] | None = None
        listen(self.el, "close", self._on_close)

    @property
    def is_open(self) -> bool:
        return bool(self.el.open)

    def open(self, title: str, body: str, kind: str = "") -> None:
        by_id("dlg-title").textContent = title
        content = by_id("dlg-body")
        self.el.classList.remove(*KINDS)
        if kind:
            self.el.classList.add(kind)
        content.innerHTML = body
        if not self.el.open:
            self.el.showModal()
        tell("dialogFocus")  # at its top, on the control it asks for (web/runtime/services.mjs: the page's layout)

    def current(self) -> tuple[str, str, str] | None:
        """What the open dialog shows (title, body, kind), to show it again later; None if closed."""
        if not self.el.open:
            return None
        kind = next((k for k in KINDS if self.el.classList.contains(k)), "")
        return str(by_id("dlg-title").textContent), str(by_id("dlg-body").innerHTML), kind

    def close(self) -> None:
        if self.el.open:
            self.el.close()

    def _on_close(self, _event: JsEvent = None) -> None:
        if self._closed is not None and not self._closed.done():
            self._closed.set_result(True)
        self.el.classList.remove(*KINDS)

    async def wait_closed(self) -> None:
        """Until the dialog is closed (by its button, Escape, or a new dialog replacing it)."""
        if not self.el.open:
            return
        self._closed = asyncio.get_event_loop().create_future()
        await self._closed

    def fit_charts(self, drawings: dict[str, ChartDrawing]) -> None:
        """Draw each chart again at the width of its slot (``[data-chart-slot=name]``) in the open
        dialog, as the page measures it once the dialog is on screen, and the font size of the
        page's ``--chart-font``."""
        asyncio.ensure_future(self._fit_charts(drawings))

    async def _fit_charts(self, drawings: dict[str, ChartDrawing]) -> None:
        font = css_pixels("--chart-font", 12)
        for name, draw in drawings.items():
            slot = qs(f'#dlg-body [data-chart-slot="{name}"]')
            if slot is None:
                continue
            document.name(slot)
            width = float(await call("width", slot.vid) or 0.0)
            if width >= 200 and slot.isConnected:  # hidden or not laid out: the first drawing stays
                slot.innerHTML = draw(width, font)

    def _totals_chart(self, sheet: list[HandScore], target: int, share: float) -> tuple[str, dict[str, ChartDrawing]]:
        """The match's running totals as a figure, and how to draw it again at its real width
        (at most ``share`` of the window's height: the dialog's first lines stay in sight)."""
        if not sheet:
            return "", {}
        seating = self.seating()
        names = [seating.name(s) for s in range(4)]

        def draw(width: float, font: float) -> str:
            tallest = float(window.innerHeight) * share
            return charts.match_totals(sheet, names, target, width, font, me=int(seating.me), max_height=tallest)

        html = (
            f'<figure class="chart-figure"><figcaption>{esc(t("chart_totals_title"))}</figcaption>'
            f'<div class="chart-slot" data-chart-slot="match-totals">{draw(340, 12)}</div></figure>'
        )
        return html, {"match-totals": draw}

    # ------------------------------------------------------------------ contents
    def hand_summary(
        self,
        row: HandScore,
        markers: list[tuple[str, ...]],
        sheet: list[HandScore],
        practice: bool,
        last: bool,
        guest: bool = False,
        challenge: bool = True,
    ) -> None:
        """``guest``: at someone else's online table, whose host deals the next hand; ``challenge``:
        the deal can be sent to a friend as a link."""
        parts, seating = [], self.seating()
        if row.moon is not None:
            text = t("moon_you") if row.moon == seating.me else t("moon", name=seating.name(row.moon))
            parts.append(f'<p class="moon" role="status">☾ {esc(text)}</p>')
        parts.append(table_html.hand_summary(row.points, markers, seating))
        parts.append(table_html.score_sheet(sheet, seating))
        if practice:
            parts.append(f'<p class="note">{esc(t("practice_note"))}</p>')
        if guest and not last:
            parts.append(f'<p class="note">{esc(t("online_host_deals"))}</p>')
        label = t("close") if guest else (t("continue") if last else t("next_hand"))
        if guest:
            parts.append(_actions(("primary", "continue", label)))
        else:
            buttons = [("secondary", "review", t("review"))]
            if challenge:
                buttons.append(("secondary", "challenge", t("challenge_play")))
            parts.append(
                '<div class="challenge-slot"></div>'
                + _actions(*buttons, ("primary", "continue", label))
                .replace('data-action="review"', f'data-action="review" data-hand="{row.hand_number}"')
                .replace('data-action="challenge"', f'data-action="challenge" data-hand="{row.hand_number}"')
            )
        self.open(t("hand_over", n=row.hand_number + 1), "".join(parts), "dlg-hand")

    def match_over(
        self,
        winners: tuple[Seat, ...],
        totals: tuple[int, ...],
        sheet: list[HandScore],
        practice: bool,
        target: int,
        actions: tuple[tuple[str, str, str], ...] | None = None,
        extra: str = "",
    ) -> None:
        """The result; ``actions`` (class, data-action, label) replace review and new match (an
        online table's own), ``extra`` is HTML shown above them."""
        seating = self.seating()
        if winners == (seating.me,):
            head = t("winner_you")
        elif len(winners) == 1:
            head = t("winner", name=seating.name(winners[0]))
        else:
            head = t("winners", names=i18n.join_list([seating.name(w) for w in winners]))
        order = sorted(range(4), key=lambda s: totals[s])
        rows = "".join(
            f"<tr><td>{i + 1}. {esc(seating.name(s))}</td><td>{totals[s]}</td></tr>" for i, s in enumerate(order)
        )
        chart, drawings = self._totals_chart(sheet, target, 0.3)
        body = (
            f'<p class="result-big">{"🏆&#xFE0E; " if seating.me in winners else ""}{esc(head)}</p>'
            f'<h3>{esc(t("standings"))}</h3><table class="sheet"><tbody>{rows}</tbody></table>'
            + chart
            + (f'<p class="note">{esc(t("practice_note"))}</p>' if practice else "")
            + f"<details><summary>{esc(t('score_sheet'))}</summary>{table_html.score_sheet(sheet, seating)}</details>"
            + _review_picker(sheet)
            + extra
            + _actions(
                *(actions or (("secondary", "review", t("review")), ("primary", "new-match-now", t("new_match"))))
            )
        )
        self.open(t("match_over"), body, "dlg-end")
        self.fit_charts(drawings)

    def scores(self, target: int, sheet: list[HandScore]) -> None:
        review = (("secondary", "review", t("review")),) if sheet else ()
        chart, drawings = self._totals_chart(sheet, target, 0.36)
        body = (
            f'<p class="note">{esc(t("target", n=target))}</p>'
            + chart
            + table_html.score_sheet(sheet, self.seating())
            + _review_picker(sheet)
            + _actions(*review, ("primary", "close-dialog", t("close")))
        )
        self.open(t("score_sheet"), body)
        self.fit_charts(drawings)

    def last_trick(self, trick: Trick | None) -> None:
        if trick is None:
            body = f"<p>{esc(t('no_last_trick'))}</p>"
        else:
            seating = self.seating()
            who = (
                t("you_take_trick") if trick.winner == seating.me else t("takes_trick", name=seating.name(trick.winner))
            )
            body = table_html.trick_review(trick.plays, trick.winner, seating) + f"<p>{esc(who)}</p>"
        self.open(t("last_trick"), body + _actions(("primary", "close-dialog", t("close"))))

    def confirm_new_match(self) -> None:
        body = f"<p>{esc(t('new_match_confirm'))}</p>" + _actions(
            ("secondary", "close-dialog", t("close")), ("primary", "new-match-now", t("new_match"))
        )
        self.open(t("new_match"), body)
