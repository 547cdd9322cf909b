"""The daily game's HTML and share text: the result, the history with streaks, the month calendar
(in the statistics dialog), the line to share.

Pure (no DOM): :mod:`hearts_web.daily.game` puts it on the page. The rules of the day (deal, par,
markers, streaks) come from :mod:`hearts.daily`; the stored data is :mod:`hearts_web.data.daily`.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping

from hearts.daily import DailyResult, parse_date, streaks

from ..core import local_format as fmt
from ..core.html import esc
from ..core.i18n import t

__all__ = ["SHARE_GLYPH", "result_html", "history_html", "share_text", "month_calendar", "shift_month"]

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
        items.append(
            f"<li><span>{esc(d)}</span><span{good}>{r.points} / {r.par if r.par is not None else '?'}</span></li>"
        )
    return (
        f"<h3>{esc(t('history'))}</h3>"
        f"<p data-daily-streaks>{esc(t('streak_one') if s.played == 1 else t('streak', n=s.played))} · "
        f"{esc(t('streak_par_one') if s.at_or_under_par == 1 else t('streak_par', n=s.at_or_under_par))} · "
        f"{esc(t('played_days', n=s.days_played))}</p>"
        f'<div class="cal" aria-hidden="true">{"".join(cells)}</div><ul class="history">{"".join(items)}</ul>'
    )


def share_text(result: DailyResult, page_url: str) -> str:
    """Spoiler-free: the points, the par, one glyph per trick and the link to the day."""
    line = "".join(SHARE_GLYPH.get(m, "○") for m in result.markers)
    par = result.par if result.par is not None else "?"
    link = f"{page_url}?daily={result.date}"
    return "\n".join([t("share_title", date=result.date), t("share_points", pts=result.points, par=par), line, link])


def shift_month(month: str, by: int) -> str:
    """``YYYY-MM`` moved by ``by`` months."""
    year, number = int(month[:4]), int(month[5:7]) - 1 + by
    return f"{year + number // 12:04d}-{number % 12 + 1:02d}"


def _streak_days(results: Mapping[str, DailyResult], today: str, length: int) -> set[str]:
    """The days of the current streak (``length`` days up to today, or up to yesterday when today
    is not played yet: :func:`hearts.daily.streaks`)."""
    end = parse_date(today)
    if today not in results:
        end -= datetime.timedelta(days=1)
    return {(end - datetime.timedelta(days=i)).isoformat() for i in range(length)}


def _day_cell(day: datetime.date, results: Mapping[str, DailyResult], today: str, streak: set[str]) -> str:
    iso = day.isoformat()
    r = results.get(iso)
    classes = ["day"] + (["today"] if iso == today else []) + (["future"] if iso > today else [])
    mark, spoken = "", ""
    if r is not None:
        classes += ["played", "at-par" if r.at_or_under_par else "over-par"] + (["streak"] if iso in streak else [])
        if r.par is None:
            mark, spoken = "•", t("cal_points", points=r.points)
        else:
            mark = fmt.signed(r.points - r.par)
            spoken = t("cal_points_par", points=r.points, par=r.par)
    current = ' aria-current="date"' if iso == today else ""
    said = f'<span class="visually-hidden">, {esc(spoken)}</span>' if spoken else ""
    return (
        f'<td class="{" ".join(classes)}"{current} data-day="{iso}"><span class="d">{day.day}</span>'
        f'<span class="r" aria-hidden="true">{esc(mark)}</span>{said}</td>'
    )


def _month_rows(year: int, month: int, results: Mapping[str, DailyResult], today: str, streak: set[str]) -> str:
    first = datetime.date(year, month, 1)
    lead = (first.weekday() - fmt.first_weekday()) % 7
    days = [None] * lead + [
        first + datetime.timedelta(days=i) for i in range(31) if (first + datetime.timedelta(days=i)).month == month
    ]
    days += [None] * (-len(days) % 7)
    rows = []
    for week in range(0, len(days), 7):
        cells = "".join(
            "<td></td>" if d is None else _day_cell(d, results, today, streak) for d in days[week : week + 7]
        )
        rows.append(f"<tr>{cells}</tr>")
    return "".join(rows)


def month_calendar(results: Mapping[str, DailyResult], month: str, today: str) -> str:
    """``month`` (``YYYY-MM``) as a table: each day played with its result against par (at or
    under par marked, the current streak underlined), the streaks below; buttons
    (``stats-month``) for the previous and the next month (not beyond this month)."""
    year, number = int(month[:4]), int(month[5:7])
    s = streaks(results, today)
    streak = _streak_days(results, today, s.played)
    title = fmt.month_title(year, number)
    heads = "".join(
        f'<th scope="col"><abbr title="{esc(full)}">{esc(short)}</abbr></th>' for short, full in fmt.weekdays()
    )
    prev_m, next_m = shift_month(month, -1), shift_month(month, 1)
    later = " disabled" if next_m > today[:7] else ""
    nav = (
        '<div class="cal-head"><button type="button" class="secondary cal-nav" '
        f'data-action="stats-month" data-month="{prev_m}" '
        f'aria-label="{esc(t("cal_prev"))}">‹</button><h4 id="cal-title">{esc(title)}</h4>'
        f'<button type="button" class="secondary cal-nav" data-action="stats-month" data-month="{next_m}" '
        f'aria-label="{esc(t("cal_next"))}"{later}>›</button></div>'
    )
    played = sum(1 for d in results if d.startswith(month))
    summary = t("cal_month_none") if not played else t("cal_month_played", n=played)
    streak_line = " · ".join(
        [
            t("streak_one") if s.played == 1 else t("streak", n=s.played),
            t("streak_par_one") if s.at_or_under_par == 1 else t("streak_par", n=s.at_or_under_par),
            t("played_days", n=s.days_played),
        ]
    )
    return (
        f'<div class="daily-cal" data-chart="daily-calendar" data-month="{month}">{nav}'
        '<table class="cal-month" aria-labelledby="cal-title" '
        f'aria-describedby="cal-summary"><thead><tr>{heads}</tr></thead>'
        f"<tbody>{_month_rows(year, number, results, today, streak)}</tbody></table>"
        f'<p class="note" id="cal-summary">{esc(summary)} {esc(t("cal_legend"))}</p>'
        f'<p class="cal-streak" data-streak="{s.played}" '
        f'data-streak-par="{s.at_or_under_par}">{esc(streak_line)}</p></div>'
    )
