"""The daily game's stored data and its HTML: results, the history with streaks, the share text.

Pure (no DOM): :mod:`hearts_web.daily_ui` puts it on the page. The rules of the day (deal, par,
markers, streaks) come from :mod:`hearts.daily`.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any, Mapping

from hearts.daily import DailyResult, parse_date, streaks

from .i18n import t
from .render import esc

__all__ = ["DailyData", "is_date", "SHARE_GLYPH", "result_html", "history_html", "share_text"]

SHARE_GLYPH = {"none": "○", "hearts": "♥", "queen": "♠", "jack": "♦"}


@dataclass
class DailyData:
    """What the daily stores: each day's counted result, the days attempted, how long par took."""

    results: dict[str, DailyResult] = field(default_factory=dict)
    attempts: set[str] = field(default_factory=set)
    par_ms: dict[str, int] = field(default_factory=dict)
    dropped: int = 0  # entries that could not be read (not dates, wrong types): left out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "DailyData":
        """The stored data; entries that cannot be read (not dates, wrong types, unknown keys)
        are left out and counted in ``dropped``."""
        out = cls()
        out.dropped = len(set(data) - {"results", "attempts", "par_ms"})
        results = data.get("results", {})
        if isinstance(results, Mapping):
            for date, raw in results.items():
                try:
                    parse_date(date)
                    result = DailyResult.from_dict(raw) if isinstance(raw, Mapping) else None
                except ValueError:
                    result = None
                if result is None or result.date != date or not _sane(result):
                    out.dropped += 1
                else:
                    out.results[date] = result
        else:
            out.dropped += 1
        attempts = data.get("attempts", {})
        if isinstance(attempts, Mapping):
            for date in attempts:
                if is_date(date):
                    out.attempts.add(date)
                else:
                    out.dropped += 1
        else:
            out.dropped += 1
        par_ms = data.get("par_ms", {})
        if isinstance(par_ms, Mapping):
            for date, ms in par_ms.items():
                if is_date(date) and isinstance(ms, int) and not isinstance(ms, bool) and 0 <= ms < 10**9:
                    out.par_ms[date] = ms
                else:
                    out.dropped += 1
        else:
            out.dropped += 1
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"results": {d: r.to_dict() for d, r in sorted(self.results.items())},
                "attempts": {d: "started" for d in sorted(self.attempts)},
                "par_ms": dict(sorted(self.par_ms.items()))}

    def attempted(self, date: str) -> bool:
        return date in self.results or date in self.attempts


def is_date(text: object) -> bool:
    """Whether ``text`` is a real date written ``YYYY-MM-DD``."""
    try:
        parse_date(text)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True


def _sane(r: DailyResult) -> bool:
    """Points and par of one hand lie within -26..26 (moon rules) and there are at most 13 tricks."""
    return (not isinstance(r.points, bool) and -26 <= r.points <= 26 and len(r.markers) <= 13
            and (r.par is None or (not isinstance(r.par, bool) and -26 <= r.par <= 26)))


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
