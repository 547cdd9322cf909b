"""The statistics dialog: the player's figures per level and rules preset, the trend chart, the
online matches, the daily calendar and the history (HTML: :mod:`hearts_web.stats.html`).

Registers ``stats`` (the toolbar's button) and ``stats-month`` (the calendar's previous and next
month, redrawn in place). The trend chart is drawn again at the width it has in the open dialog.
"""

from __future__ import annotations

import re

from ..core.commands import Commands, Press
from ..core.dom import local_date, qs
from ..core.i18n import t
from ..daily import html as daily_html
from ..data.daily import DailyData
from ..data.registry import DAILY, STATS, SavedData
from ..screen import charts
from ..screen.dialogs import Dialogs
from .html import statistics_html

__all__ = ["StatsDialog"]

_MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")


class StatsDialog:
    def __init__(self, commands: Commands, saved: SavedData, dialogs: Dialogs) -> None:
        self.saved, self.dialogs = saved, dialogs
        commands.add("stats", lambda _: self.show())
        commands.add("stats-month", self.month)

    def _daily(self) -> DailyData:
        return self.saved.get(DAILY)

    def show(self) -> None:
        today = local_date()
        stats = self.saved.get(STATS)
        self.dialogs.open(t("stats"), statistics_html(stats, self._daily().results, today, today[:7]), "dlg-wide")
        history = stats.history
        self.dialogs.fit_charts({"trend": lambda width, font: charts.trend(history, width, font)})

    def month(self, press: Press) -> None:
        """Another month of the daily calendar (not beyond this one), with the focus on the same button."""
        month, today = press.text("month") or "", local_date()
        calendar = qs('#dlg-body [data-chart="daily-calendar"]')
        if calendar is None or not _MONTH.match(month) or month > today[:7]:
            return
        forward = month > str(calendar.dataset.month)
        calendar.outerHTML = daily_html.month_calendar(self._daily().results, month, today)
        buttons = [
            b
            for b in [qs(f'#dlg-body .cal-nav[data-month="{daily_html.shift_month(month, d)}"]') for d in (1, -1)]
            if b is not None and not b.disabled
        ]
        wanted = buttons[0] if forward and buttons else (buttons[-1] if buttons else None)
        if wanted is not None:
            wanted.focus()
