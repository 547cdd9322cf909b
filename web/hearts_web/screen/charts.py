"""Charts drawn as inline SVG: the match's running totals and the player's trend. Pure: no DOM.

Every chart is drawn for the width it will have on the page (``width``, in CSS pixels, measured by
the browser layer) so that its text is the page's own size, and scales along if the page is
resized. Colours, line widths and the font come from the page's CSS (``.chart`` and the
``--chart-*`` variables, both looks); ``font`` is the size the CSS gives the chart's text, for
the layout. Players are told apart by more than colour: each has its own marker and dash pattern
and its name at the end of its line. Each chart carries its text alternative as ``aria-label``
(a sentence); the score sheet and the match history are the tables behind them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from hearts import HandScore

from ..core import local_format as fmt
from ..core.html import esc
from ..core.i18n import t
from ..data.stats import Entry

__all__ = ["match_totals", "trend", "nice_ticks", "spread", "MARKERS", "DASHES", "KIND_MARKER"]

# per seat, counted from the player's (the player: a solid line with circles; then to the left...)
MARKERS = ("circle", "square", "triangle", "diamond")
DASHES = ("", "7 4", "2 4", "9 4 2 4")  # solid, dashed, dotted, dash-dot
KIND_MARKER = {"easy": "circle", "medium": "square", "hard": "triangle", "online": "diamond"}
NAME_CHARS = 10  # longer names are cut at the line's end (the score sheet has them in full)


def _n(value: float) -> str:
    """A coordinate, short."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def nice_ticks(low: float, high: float, most: int = 6, whole: bool = False) -> list[float]:
    """Round numbers from at most ``low`` to at least ``high`` (about ``most`` of them; steps of
    1, 2, 2.5 or 5 times a power of ten, or whole numbers only)."""
    if high <= low:
        high = low + 1
    raw = (high - low) / max(1, most - 1)
    power = 10 ** math.floor(math.log10(raw))
    steps = (1, 2, 5, 10) if whole else (1, 2, 2.5, 5, 10)
    step = next(m * power for m in steps if m * power >= raw and (not whole or float(m * power).is_integer()))
    start = math.floor(low / step) * step
    ticks = []
    value = start
    while value < high + step * 0.999:
        ticks.append(round(value, 6))
        value += step
    return ticks


def spread(wanted: Sequence[float], gap: float, top: float, bottom: float) -> list[float]:
    """Positions near ``wanted`` at least ``gap`` apart, within ``top``..``bottom`` (for labels)."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [min(max(wanted[i], top), bottom) for i in order]
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + gap)
    for k in range(len(placed) - 1, -1, -1):
        limit = bottom if k == len(placed) - 1 else placed[k + 1] - gap
        placed[k] = min(placed[k], limit)
    out = [0.0] * len(wanted)
    for k, i in enumerate(order):
        out[i] = placed[k]
    return out


def marker_path(kind: str, x: float, y: float, r: float) -> str:
    if kind == "square":
        s = r * 0.9
        return f"M{_n(x - s)} {_n(y - s)}h{_n(2 * s)}v{_n(2 * s)}h{_n(-2 * s)}z"
    if kind == "triangle":
        return f"M{_n(x)} {_n(y - r * 1.2)}L{_n(x + r * 1.1)} {_n(y + r * 0.85)}H{_n(x - r * 1.1)}z"
    if kind == "diamond":
        return (
            f"M{_n(x)} {_n(y - r * 1.3)}L{_n(x + r * 1.1)} {_n(y)}L{_n(x)} {_n(y + r * 1.3)}L{_n(x - r * 1.1)} {_n(y)}z"
        )
    return f"M{_n(x - r)} {_n(y)}a{_n(r)} {_n(r)} 0 1 0 {_n(2 * r)} 0a{_n(r)} {_n(r)} 0 1 0 {_n(-2 * r)} 0z"


@dataclass(frozen=True)
class Plot:
    """The drawing area of a chart and its value ranges."""

    width: float
    height: float
    left: float
    right: float
    top: float
    bottom: float
    x_count: int  # points along x: 0 .. x_count - 1
    low: float
    high: float

    def x(self, i: float) -> float:
        inner = self.width - self.left - self.right
        return self.left + (inner / 2 if self.x_count < 2 else inner * i / (self.x_count - 1))

    def y(self, v: float) -> float:
        inner = self.height - self.top - self.bottom
        return self.top + inner * (self.high - v) / (self.high - self.low)


def _frame(plot: Plot, ticks: Sequence[float], font: float, tick_text: Sequence[str]) -> str:
    """Background, horizontal grid lines with their values, the x axis line."""
    parts = [f'<rect class="chart-bg" width="{_n(plot.width)}" height="{_n(plot.height)}" rx="8"/>']
    x0, x1 = plot.left, plot.width - plot.right
    for value, text in zip(ticks, tick_text):
        y = plot.y(value)
        cls = "axis" if value == 0 else "grid"
        parts.append(f'<line class="{cls}" x1="{_n(x0)}" x2="{_n(x1)}" y1="{_n(y)}" y2="{_n(y)}"/>')
        parts.append(
            f'<text class="tick" x="{_n(x0 - 6)}" y="{_n(y + font * 0.35)}" text-anchor="end">{esc(text)}</text>'
        )
    return "".join(parts)


def _svg(kind: str, width: float, height: float, label: str, body: str) -> str:
    return (
        f'<svg class="chart chart-{kind}" data-chart="{kind}" viewBox="0 0 {_n(width)} {_n(height)}" '
        f'width="{_n(width)}" height="{_n(height)}" role="img" aria-label="{esc(label)}" '
        f'xmlns="http://www.w3.org/2000/svg" focusable="false">{body}</svg>'
    )


# ------------------------------------------------------------------ the match's running totals
def _totals_sentence(sheet: Sequence[HandScore], names: Sequence[str], target: int) -> str:
    last = sheet[-1].totals
    parts = ", ".join(f"{names[s]} {last[s]}" for s in range(4))
    return t("chart_totals_alt", n=len(sheet), list=parts, target=target)


def match_totals(
    sheet: Sequence[HandScore],
    names: Sequence[str],
    target: int,
    width: float,
    font: float = 12,
    me: int = 0,
    max_height: float = 320,
) -> str:
    """Each seat's total after every hand (hand 0: the start), the match's target as a dashed
    line, each line named at its end; at most ``max_height`` tall (at least 180). The target is
    named next to its line where no player's line runs, else at the line ends with the players.
    Empty when no hand is finished yet."""
    if not sheet:
        return ""
    series = [[0] + [row.totals[s] for row in sheet] for s in range(4)]
    values = [v for line in series for v in line]
    ticks = nice_ticks(min(0, *values), max(target, *values), 5 if width < 420 else 6, whole=True)
    labels = [f"{names[s][:NAME_CHARS]}{'…' if len(names[s]) > NAME_CHARS else ''} {series[s][-1]}" for s in range(4)]
    named = t("chart_target", n=target)
    height = round(max(min(width * 0.56, max_height, 320), 180))
    plot = _totals_plot(width, height, len(sheet), ticks, labels, font)
    ty = plot.y(target)
    spot = _target_spot(plot, series, named, ty, font)
    if spot is None:  # no free place beside the target's line: it is named at the line ends
        plot = _totals_plot(width, height, len(sheet), ticks, [*labels, named], font)
        ty = plot.y(target)
    parts = [
        _frame(plot, ticks, font, [str(int(v)) for v in ticks]),
        _x_hands(plot, len(sheet), font),
        f'<line class="target" x1="{_n(plot.left)}" x2="{_n(width - plot.right)}" y1="{_n(ty)}" y2="{_n(ty)}"/>',
    ]
    dots = len(sheet) <= 30
    style = [(s - me) % 4 for s in range(4)]  # the player's own look on every screen, the others' in turn
    for s in [*(i for i in range(4) if i != me), me]:  # the player's line on top
        parts.append(_series(plot, series[s], style[s], s == me, MARKERS[style[s]] if dots else ""))
    ends = [plot.y(series[s][-1]) for s in range(4)] + ([ty] if spot is None else [])
    ys = spread(ends, font * 1.15, plot.top + font * 0.4, height - plot.bottom)
    x_end = width - plot.right + 8
    for s in range(4):
        me_cls = " me" if s == me else ""
        parts.append(
            f'<text class="end-label s{style[s]}{me_cls}" x="{_n(x_end)}" y="{_n(ys[s] + font * 0.35)}">'
            f"{esc(labels[s])}</text>"
        )
    x, y = spot if spot is not None else (x_end, ys[4] + font * 0.35)
    parts.append(f'<text class="target-label" x="{_n(x)}" y="{_n(y)}">{esc(named)}</text>')
    return _svg("match-totals", width, height, _totals_sentence(sheet, names, target), "".join(parts))


def _totals_plot(
    width: float, height: float, hands: int, ticks: Sequence[float], labels: Sequence[str], font: float
) -> Plot:
    """The running totals' drawing area: room on the right for the longest of ``labels``."""
    label_w = max(len(text) for text in labels) * font * 0.62 + 10
    return Plot(
        width,
        height,
        left=font * 2.6,
        right=label_w + 6,
        top=font * 1.2,
        bottom=font * 3.4,
        x_count=hands + 1,
        low=ticks[0],
        high=ticks[-1],
    )


LINE_REACH, DOT_REACH = 3.0, 5.0  # how far a line (its width, and a little air) and a marker reach around their points


def _crossings(plot: Plot, series: Sequence[Sequence[float]], box: tuple[float, float, float, float]) -> int:
    """How many points of the lines (sampled every pixel) and markers touch ``box``."""
    left, top, right, bottom = box
    count = 0
    for values in series:
        points = [(plot.x(i), plot.y(v)) for i, v in enumerate(values)]
        count += sum(
            1
            for x, y in points
            if left - DOT_REACH <= x <= right + DOT_REACH and top - DOT_REACH <= y <= bottom + DOT_REACH
        )
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            steps = max(1, int(max(abs(x1 - x0), abs(y1 - y0))))
            count += sum(
                1
                for k in range(steps + 1)
                if left - LINE_REACH <= x0 + (x1 - x0) * k / steps <= right + LINE_REACH
                and top - LINE_REACH <= y0 + (y1 - y0) * k / steps <= bottom + LINE_REACH
            )
    return count


def _target_spot(
    plot: Plot, series: Sequence[Sequence[float]], text: str, ty: float, font: float
) -> tuple[float, float] | None:
    """Where the target's name (its baseline's start) sits next to its line, free of the players'
    lines: above the line, else below it, from its left end to its right end; ``None`` if nowhere."""
    width = len(text) * font * 0.62
    x0, x1 = plot.left + 4, plot.width - plot.right - 4 - width
    for y in (ty - 4, ty + font):
        if y - font * 0.8 < plot.top or y + font * 0.25 > plot.height - plot.bottom:
            continue  # outside the drawing area
        for k in range(5):
            x = x0 + (x1 - x0) * k / 4
            if not _crossings(plot, series, (x, y - font * 0.8, x + width, y + font * 0.25)):
                return x, y
    return None


def _x_hands(plot: Plot, hands: int, font: float) -> str:
    """Hand numbers under the x axis (every one, or every few when there are many)."""
    inner = plot.width - plot.left - plot.right
    every = max(1, math.ceil(hands * font * 2.2 / max(inner, 1)))
    y = plot.height - plot.bottom + font * 1.3
    marks = [
        f'<text class="tick" x="{_n(plot.x(i))}" y="{_n(y)}" text-anchor="middle">{i}</text>'
        for i in range(0, hands + 1)
        if (hands - i) % every == 0
    ]  # counted back from the last hand
    middle = plot.left + inner / 2
    caption = (
        f'<text class="axis-title" x="{_n(middle)}" y="{_n(plot.height - font * 0.5)}" text-anchor="middle">'
        f"{esc(t('chart_hand_axis'))}</text>"
    )
    return "".join(marks) + caption


def _series(plot: Plot, values: Sequence[float], look: int, mine: bool, marker: str) -> str:
    """One player's line: ``look`` (0..3) is its colour class and dash pattern."""
    points = [(plot.x(i), plot.y(v)) for i, v in enumerate(values)]
    line = "M" + "L".join(f"{_n(x)} {_n(y)}" for x, y in points)
    dash = f' stroke-dasharray="{DASHES[look]}"' if DASHES[look] else ""
    radius = 4.2 if mine else 3.6
    dots = "".join(marker_path(marker, x, y, radius) for x, y in points[1:]) if marker else ""
    me_cls = " me" if mine else ""
    return (
        f'<g class="series s{look}{me_cls}"><path class="line" d="{line}"{dash}/>'
        + (f'<path class="dot" d="{dots}"/>' if dots else "")
        + "</g>"
    )


# ------------------------------------------------------------------ the player's trend
def _trend_sentence(history: Sequence[Entry]) -> str:
    values = [e.per_hand for e in history]
    mean = sum(values) / len(values)
    return t(
        "chart_trend_alt",
        n=len(values),
        last=fmt.decimal(values[-1]),
        best=fmt.decimal(min(values)),
        mean=fmt.decimal(mean),
    )


def trend(history: Sequence[Entry], width: float, font: float = 12, window: int = 5) -> str:
    """The player's points per hand in each recorded match (oldest left): a marker per match
    (its shape the bots' level or online, filled when won) and the average of the last
    ``window`` matches as a line. Lower is better. Empty without a recorded match."""
    if not history:
        return ""
    values = [e.per_hand for e in history]
    ticks = nice_ticks(min(0.0, *values), max(8.0, *values), 6, whole=True)
    height = round(min(max(width * 0.5, 190), 300))
    plot = Plot(
        width,
        height,
        left=font * 2.8,
        right=font,
        top=font * 2.4,
        bottom=font * 2.2,
        x_count=len(values),
        low=ticks[0],
        high=ticks[-1],
    )
    step_is_whole = all(float(v).is_integer() for v in ticks)
    parts = [_frame(plot, ticks, font, [str(int(v)) if step_is_whole else fmt.decimal(v) for v in ticks])]
    points = [(plot.x(i), plot.y(v)) for i, v in enumerate(values)]
    if len(values) > 1:
        parts.append('<path class="trend-line" d="M' + "L".join(f"{_n(x)} {_n(y)}" for x, y in points) + '"/>')
    if len(values) >= 3:
        means = [
            sum(values[max(0, i - window + 1) : i + 1]) / len(values[max(0, i - window + 1) : i + 1])
            for i in range(len(values))
        ]
        parts.append(
            '<path class="trend-avg" d="M'
            + "L".join(f"{_n(plot.x(i))} {_n(plot.y(m))}" for i, m in enumerate(means))
            + '"/>'
        )
    for entry, (x, y) in zip(history, points):
        kind = "online" if entry.online else entry.level
        cls = "won" if entry.won else "lost"
        parts.append(f'<path class="pt {cls} k-{kind}" d="{marker_path(KIND_MARKER[kind], x, y, 4.6)}"/>')
    base = plot.height - plot.bottom + font * 1.3
    parts.append(
        f'<text class="tick" x="{_n(points[0][0])}" y="{_n(base)}" '
        f'text-anchor="{"start" if len(values) > 1 else "middle"}">'
        f"{esc(fmt.short_date(history[0].date))}</text>"
    )
    if len(values) > 1:
        parts.append(
            f'<text class="tick" x="{_n(points[-1][0])}" y="{_n(base)}" '
            f'text-anchor="end">{esc(fmt.short_date(history[-1].date))}</text>'
        )
    parts.append(
        f'<text class="axis-title" x="{_n(plot.left)}" y="{_n(font * 0.9)}">{esc(t("chart_trend_axis"))}</text>'
    )
    return _svg("trend", width, height, _trend_sentence(history), "".join(parts))
