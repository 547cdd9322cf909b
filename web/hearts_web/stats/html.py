"""The statistics dialog's HTML: the figures per level and per rules preset, the trend chart, the
online matches, the daily calendar and the history of the last matches. Pure: no DOM.

Each level's figures sit in ``[data-stats-level="easy|medium|hard"]``; the trend chart
(:func:`hearts_web.screen.charts.trend`) sits in ``[data-chart-slot="trend"]``, drawn here at a default
width and again by the browser layer at the width it really has; the history table below it is
the chart's data as text.
"""

from __future__ import annotations

from collections.abc import Mapping

from hearts.daily import DailyResult

from ..core import local_format as fmt
from ..core.html import esc
from ..core.i18n import t
from ..daily import html as daily_html
from ..data.stats import LEVELS, Entry, Statistics, Totals
from ..screen import charts

__all__ = [
    "statistics_html",
    "level_html",
    "presets_html",
    "online_html",
    "history_html",
    "trend_html",
    "result_text",
    "CHART_WIDTH",
]

CHART_WIDTH = 340  # until the browser layer measures the chart's real width


def _rate(totals: Totals) -> str:
    return "–" if totals.win_rate is None else fmt.percent(totals.win_rate)


def _per_hand(totals: Totals) -> str:
    return "–" if totals.per_hand is None else fmt.decimal(totals.per_hand)


def _overall(stats: Statistics) -> str:
    total = stats.overall
    if not total.matches and not stats.online.matches:
        return f'<p class="st-lead" data-stats-empty>{esc(t("st_none"))}</p>'
    lead = t("st_overall", n=fmt.whole(total.matches), rate=_rate(total), avg=_per_hand(total))
    return f'<p class="st-lead">{esc(lead)}</p>'


_LONG = ' class="st-long"'  # a long figure: its tile takes the whole row, in a smaller font


def _tiles(rows: list[tuple[str, str, str]]) -> str:
    """Figures as tiles: the value large, its label below (``rows``: label, value, words for a screen reader)."""
    tiles = "".join(
        f"<div{_LONG if len(value) > 9 else ''}><dt>{esc(label)}</dt><dd>{esc(value)}"
        + (f'<span class="visually-hidden"> {esc(spoken)}</span>' if spoken else "")
        + "</dd></div>"
        for label, value, spoken in rows
    )
    return f'<dl class="st-tiles">{tiles}</dl>'


def level_html(level: str, totals: Totals) -> str:
    """One level's card: the win rate large, the matches, then points per hand, moons and Q♠."""
    head = f'<h4 id="st-level-{level}">{esc(t(f"diff_{level}"))}</h4>'
    if not totals.matches:
        return (
            f'<section class="st-level st-empty" data-stats-level="{level}" aria-labelledby="st-level-{level}">'
            f'{head}<p class="st-big">–</p><p class="note">{esc(t("st_level_empty"))}</p></section>'
        )
    share = fmt.percent(totals.queens / totals.hands)
    rows = [
        (t("st_per_hand"), _per_hand(totals), ""),
        (t("st_queens"), f"{fmt.whole(totals.queens)} ({share})", t("st_of_hands")),
        (t("st_moons_shot"), fmt.whole(totals.moons_shot), ""),
        (t("st_moons_allowed"), fmt.whole(totals.moons_allowed), ""),
    ]
    matches = t("st_matches_n", n=fmt.whole(totals.matches))
    return (
        f'<section class="st-level" data-stats-level="{level}" aria-labelledby="st-level-{level}">{head}'
        f'<p class="st-big"><span class="st-rate" data-stats-rate>{esc(_rate(totals))}</span> '
        f'<span class="st-rate-label">{esc(t("st_won_rate"))}</span></p>'
        f'<p class="st-count" data-stats-matches="{totals.matches}">{esc(matches)}</p>{_tiles(rows)}</section>'
    )


def presets_html(stats: Statistics) -> str:
    """A column per rules preset played (a row per figure: it fits a phone): matches, win rate,
    points per hand, moons shot and allowed, Q♠ taken."""
    played = stats.presets_played
    if not played:
        return ""
    totals = [stats.by_preset(p) for p in played]
    figures = [
        ("st_matches", [fmt.whole(x.matches) for x in totals]),
        ("st_won_col", [_rate(x) for x in totals]),
        ("st_per_hand", [_per_hand(x) for x in totals]),
        ("st_moons_shot", [fmt.whole(x.moons_shot) for x in totals]),
        ("st_moons_allowed", [fmt.whole(x.moons_allowed) for x in totals]),
        ("st_queens", [fmt.whole(x.queens) for x in totals]),
    ]
    heads = "".join(f'<th scope="col" data-stats-preset="{p}">{esc(t(f"preset_short_{p}"))}</th>' for p in played)
    rows = "".join(
        f'<tr><th scope="row">{esc(t(key))}</th>{"".join(f"<td>{esc(v)}</td>" for v in values)}</tr>'
        for key, values in figures
    )
    return (
        f'<h3>{esc(t("st_by_rules"))}</h3><div class="sheet-wrap"><table class="sheet st-presets">'
        f"<thead><tr><td></td>{heads}</tr></thead><tbody>{rows}</tbody></table></div>"
    )


def online_html(totals: Totals) -> str:
    """The online matches: a card like a level's (the Q♠ of a guest's hands is not known)."""
    head = f'<h3 id="st-online">{esc(t("st_online"))}</h3>'
    if not totals.matches:
        return (
            f'<section data-stats-online aria-labelledby="st-online">{head}<p '
            f'class="note">{esc(t("st_online_none"))}</p></section>'
        )
    count = t("st_online_count", n=fmt.whole(totals.matches), won=fmt.whole(totals.won))
    rows = [(t("st_per_hand"), _per_hand(totals), ""), (t("st_moons_shot"), fmt.whole(totals.moons_shot), "")]
    return (
        f'<section data-stats-online aria-labelledby="st-online">{head}<div class="st-level st-online">'
        f'<p class="st-big"><span class="st-rate">{esc(_rate(totals))}</span> '
        f'<span class="st-rate-label">{esc(t("st_won_rate"))}</span></p>'
        f'<p class="st-count" data-stats-matches="{totals.matches}">{esc(count)}</p>{_tiles(rows)}</div>'
        f'<p class="note">{esc(t("st_online_note"))}</p></section>'
    )


def result_text(entry: Entry) -> str:
    if entry.won:
        return t("st_shared") if entry.shared else t("st_won_one")
    return t(f"st_place_{entry.place}")


def history_html(history: list[Entry]) -> str:
    """The recorded matches, newest first, as a table (the trend chart's data)."""
    if not history:
        return ""
    rows = []
    for e in reversed(history):
        level = t(f"diff_{e.level}")
        kind = t("st_online_level", level=level) if e.online else level
        cls = ' class="good"' if e.won else ""
        rows.append(
            f"<tr data-stats-entry><td>{esc(fmt.date_text(e.date))}</td>"
            f"<td>{esc(kind)} · {esc(t(f'preset_short_{e.preset}'))}</td><td{cls}>{esc(result_text(e))}</td>"
            f"<td>{esc(fmt.decimal(e.per_hand))}</td></tr>"
        )
    head = "".join(
        f'<th scope="col">{esc(t(k))}</th>' for k in ("st_date", "st_game", "st_result", "st_per_hand_short")
    )
    return (
        f'<details class="st-history"><summary>{esc(t("st_history_summary", n=len(history)))}</summary>'
        f'<div class="sheet-wrap"><table class="sheet"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody>'
        "</table></div></details>"
    )


def _legend() -> str:
    shapes = "".join(
        f'<li><svg class="chart-key" viewBox="0 0 14 14" aria-hidden="true" focusable="false">'
        f'<path class="pt won k-{kind}" d="{charts.marker_path(charts.KIND_MARKER[kind], 7, 7, 4.6)}"/></svg>'
        f"{esc(t('st_online') if kind == 'online' else t(f'diff_{kind}'))}</li>"
        for kind in (*LEVELS, "online")
    )
    fills = (
        f'<li><svg class="chart-key" viewBox="0 0 28 14" aria-hidden="true" focusable="false">'
        f'<path class="pt won k-easy" d="{charts.marker_path("circle", 7, 7, 4.6)}"/>'
        '<path class="pt lost k-easy" '
        f'd="{charts.marker_path("circle", 21, 7, 4.6)}"/></svg>{esc(t("st_legend_won"))}</li>'
        f'<li><svg class="chart-key" viewBox="0 0 28 14" aria-hidden="true" focusable="false">'
        f'<path class="trend-avg" d="M2 7H26"/></svg>{esc(t("st_legend_avg"))}</li>'
    )
    return f'<ul class="chart-legend" aria-hidden="true">{shapes}{fills}</ul>'


def trend_html(history: list[Entry], width: float = CHART_WIDTH, font: float = 12) -> str:
    head = f"<h3>{esc(t('st_trend'))}</h3>"
    if not history:
        return head + f'<p class="note">{esc(t("st_trend_empty"))}</p>'
    return (
        head + f'<figure class="chart-figure"><div class="chart-slot" data-chart-slot="trend">'
        f"{charts.trend(history, width, font)}</div>{_legend()}</figure>"
    )


def _earlier(totals: Totals | None) -> str:
    if totals is None or not totals.matches:
        return ""
    text = t(
        "st_earlier",
        n=fmt.whole(totals.matches),
        won=fmt.whole(totals.won),
        avg=_per_hand(totals),
        moons=fmt.whole(totals.moons_shot),
    )
    return f'<p class="note" data-stats-earlier>{esc(text)}</p>'


def statistics_html(
    stats: Statistics,
    daily: Mapping[str, DailyResult],
    today: str,
    month: str,
    width: float = CHART_WIDTH,
    font: float = 12,
) -> str:
    """The whole dialog body; ``month`` (``YYYY-MM``) is the calendar's month."""
    levels = "".join(level_html(level, stats.by_level(level)) for level in LEVELS)
    return (
        f'<div class="stats st-view" tabindex="-1" autofocus>{_overall(stats)}'
        f'<h3>{esc(t("st_by_level"))}</h3><div class="st-levels">{levels}</div>{_earlier(stats.earlier)}'
        f"{presets_html(stats)}{trend_html(stats.history, width, font)}{history_html(stats.history)}"
        f"{online_html(stats.online)}"
        f"<h3>{esc(t('st_daily'))}</h3>{daily_html.month_calendar(daily, month, today)}"
        f'<p class="note">{esc(t("st_note"))}</p>'
        f'<div class="dlg-actions"><button type="button" class="primary" data-action="close-dialog">'
        f"{esc(t('close'))}</button></div></div>"
    )
