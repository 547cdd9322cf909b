"""The daily game's HTML and share text: the result, the history with streaks, the line to share.

Pure (no DOM): :mod:`hearts_web.daily_game` puts it on the page. The rules of the day (deal, par,
markers, streaks) come from :mod:`hearts.daily`; the stored data is :mod:`hearts_web.daily_data`.
"""

from __future__ import annotations

import datetime
from typing import Mapping

from hearts.daily import DailyResult, parse_date, streaks

from .i18n import t
from .table_html import esc

__all__ = ["SHARE_GLYPH", "result_html", "history_html", "share_text"]

SHARE_GLYPH = {"none": "○", "hearts": "♥", "queen": "♠", "jack": "♦"}


def result_html(r: DailyResult) -> str:
    par = r.par if r.par is not None else "?"
    if r.par is None:
        verdict = ""
    elif r.points < r.par:
        verdict = t("daily_beat")
    elif r.points == r.par:
        verdict = t("daily_equal")
    else:
        verdict = t("daily_over")
    line = "".join(SHARE_GLYPH.get(m, "○") for m in r.markers)
    return (
        f'<p class="result-big" data-daily-points="{r.points}">{esc(t("daily_result", pts=r.points, par=par))}</p>'
        f'<p class="hint-line"><span>{esc(verdict)}</span></p>'
        f'<p class="par" aria-label="{esc(t("markers_label", list=""))}">{esc(line)}</p>'
    )


def history_html(results: Mapping[str, DailyResult], today: str) -> str:
    if not results:
        return f'<h3>{esc(t("history"))}</h3><p class="note">{esc(t("no_history"))}</p>'
    s = streaks(results, today)
    day = parse_date(today)
    cells = []
    for i in range(27, -1, -1):
        d = (day - datetime.timedelta(days=i)).isoformat()
        r = results.get(d)
        cls = "par" if r is not None and r.at_or_under_par else ("played" if r is not None else "")
        title = f"{d}: {r.points}/{r.par}" if r is not None else d
        cells.append(f'<span class="{cls}" title="{esc(title)}">{int(d[-2:])}</span>')
    items = []
    for d in sorted(results, reverse=True)[:10]:
        r = results[d]
        good = ' class="good"' if r.at_or_under_par else ""
        items.append(f"<li><span>{esc(d)}</span><span{good}>{r.points} / {r.par if r.par is not None else '?'}</span></li>")
    return (
        f'<h3>{esc(t("history"))}</h3>'
        f'<p>{esc(t("streak_one") if s.played == 1 else t("streak", n=s.played))} · '
        f'{esc(t("streak_par_one") if s.at_or_under_par == 1 else t("streak_par", n=s.at_or_under_par))} · '
        f'{esc(t("played_days", n=s.days_played))}</p>'
        f'<div class="cal" aria-hidden="true">{"".join(cells)}</div><ul class="history">{"".join(items)}</ul>'
    )


def share_text(result: DailyResult, page_url: str) -> str:
    """Spoiler-free: the points, the par, one glyph per trick and the link to the day."""
    line = "".join(SHARE_GLYPH.get(m, "○") for m in result.markers)
    par = result.par if result.par is not None else "?"
    link = f"{page_url}?daily={result.date}"
    return "\n".join([t("share_title", date=result.date), t("share_points", pts=result.points, par=par), line, link])
