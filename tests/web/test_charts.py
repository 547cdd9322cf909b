"""hearts_web.screen.charts: the SVG is well formed, inside its frame, tells the players apart by more than
colour, keeps its labels apart, and says in a sentence what it shows (both languages)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hearts_web.core import i18n
from hearts_web.data.stats import Entry
from hearts_web.screen.charts import DASHES, MARKERS, match_totals, nice_ticks, spread, trend
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import HandScore, Seat

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["You", "Pip", "Hops", "Shelly"]


def sheet_of(rows: list[tuple[int, int, int, int]]) -> list[HandScore]:
    out, totals = [], (0, 0, 0, 0)
    for i, points in enumerate(rows):
        totals = tuple(a + b for a, b in zip(totals, points))  # type: ignore[assignment]
        moon = Seat(points.index(0)) if sorted(points) == [0, 26, 26, 26] else None
        out.append(HandScore(i, points, points, moon, None, totals))
    return out


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def numbers(path: str) -> list[float]:
    return [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path)]


def inside(root: ET.Element) -> None:
    """Every point of every line, marker and label lies within the viewBox."""
    _, _, width, height = map(float, root.get("viewBox", "").split())
    for el in root.iter():
        for name in ("x", "y", "x1", "x2", "y1", "y2"):
            if el.get(name) is not None:
                assert -0.5 <= float(el.get(name) or 0) <= (width if "x" in name else height) + 0.5, (
                    el.tag,
                    name,
                    el.get(name),
                )
        if el.tag == f"{SVG}path" and "a" not in (el.get("d") or ""):
            d = el.get("d") or ""
            if re.fullmatch(r"(M[\d. -]+(L[\d. -]+)*)+", d):  # absolute polylines: check each point
                pts = numbers(d)
                assert all(-0.5 <= x <= width + 0.5 for x in pts[0::2]) and all(
                    -0.5 <= y <= height + 0.5 for y in pts[1::2]
                )


rows = st.lists(
    st.sampled_from(
        [
            (0, 26, 26, 26),
            (26, 0, 26, 26),
            (13, 13, 0, 0),
            (0, 0, 13, 13),
            (5, 8, 13, 0),
            (-26, 0, 0, 0),
            (1, 2, 3, 20),
            (16, 0, 0, 0),
        ]
    ),
    min_size=1,
    max_size=40,
)


@settings(max_examples=80, deadline=None)
@given(rows=rows, width=st.integers(200, 900), target=st.sampled_from([50, 100]), lang=st.sampled_from(["en", "de"]))
def test_the_running_totals_chart_for_any_match(
    rows: list[tuple[int, int, int, int]], width: int, target: int, lang: str
) -> None:
    i18n.set_lang(lang)
    sheet = sheet_of(rows)
    root = parse(match_totals(sheet, NAMES, target, width))
    assert root.get("data-chart") == "match-totals" and root.get("role") == "img"
    label = root.get("aria-label") or ""
    assert all(f"{NAMES[s]} {sheet[-1].totals[s]}" in label for s in range(4)) and str(target) in label
    series = [g for g in root.iter(f"{SVG}g") if "series" in (g.get("class") or "")]
    assert len(series) == 4 and (series[-1].get("class") or "").endswith("me")  # the player's line on top
    lines = [g.find(f"{SVG}path") for g in series]
    dashes = {line.get("stroke-dasharray") for line in lines if line is not None}
    assert len(dashes) == 4  # four dash patterns: told apart without colour
    ends = [el for el in root.iter(f"{SVG}text") if "end-label" in (el.get("class") or "")]
    ys = sorted(float(el.get("y") or 0) for el in ends)
    assert len(ends) == 4 and all(b - a >= 12 * 1.15 - 0.11 for a, b in zip(ys, ys[1:]))  # apart (to 0.1 px)
    inside(root)
    i18n.set_lang("en")


def test_no_chart_before_the_first_hand_is_over() -> None:
    assert match_totals([], NAMES, 100, 400) == "" and trend([], 400) == ""


def test_each_seat_has_its_own_marker_and_dash() -> None:
    assert len(set(MARKERS)) == 4 and len(set(DASHES)) == 4


def test_long_names_are_cut_at_the_line_end_and_escaped() -> None:
    svg = match_totals(sheet_of([(1, 2, 3, 20)]), ["You", "<b>Bartholomew the Great</b>", "Hops", "Shelly"], 100, 360)
    root = parse(svg)
    ends = [el.text or "" for el in root.iter(f"{SVG}text") if "end-label" in (el.get("class") or "")]
    assert "<b>Barthol… 2" in ends and "&lt;b&gt;" in svg


def entry(points: int, hands: int = 5, place: int = 1, level: str = "easy", online: bool = False) -> Entry:
    return Entry("2026-12-01", level, "standard", online, hands, points, place)


entries = st.builds(
    entry,
    points=st.integers(0, 26 * 5),
    place=st.integers(1, 4),
    level=st.sampled_from(["easy", "medium", "hard"]),
    online=st.booleans(),
)


@settings(max_examples=80, deadline=None)
@given(
    history=st.lists(entries, min_size=1, max_size=50), width=st.integers(200, 900), lang=st.sampled_from(["en", "de"])
)
def test_the_trend_chart_for_any_history(history: list[Entry], width: int, lang: str) -> None:
    i18n.set_lang(lang)
    root = parse(trend(history, width))
    assert root.get("data-chart") == "trend" and root.get("role") == "img"
    points = [el for el in root.iter(f"{SVG}path") if (el.get("class") or "").startswith("pt ")]
    assert len(points) == len(history)
    assert sum("won" in (el.get("class") or "") for el in points) == sum(e.won for e in history)
    kinds = {re.search(r"k-(\w+)", el.get("class") or "").group(1) for el in points}  # type: ignore[union-attr]
    assert kinds == {"online" if e.online else e.level for e in history}
    assert str(len(history)) in (root.get("aria-label") or "")
    inside(root)
    i18n.set_lang("en")


def test_the_trend_sentence_gives_the_latest_best_and_average_in_the_language() -> None:
    history = [entry(30), entry(10), entry(22)]  # 6.0, 2.0, 4.4 per hand
    i18n.set_lang("de")
    label = parse(trend(history, 400)).get("aria-label") or ""
    assert "zuletzt 4,4" in label and "am besten 2,0" in label and "im Schnitt 4,1" in label
    i18n.set_lang("en")
    label = parse(trend(history, 400)).get("aria-label") or ""
    assert "latest 4.4" in label and "best 2.0" in label and "average 4.1" in label


@given(low=st.integers(-100, 100), span=st.integers(0, 500), whole=st.booleans())
def test_ticks_cover_the_range_in_round_steps(low: int, span: int, whole: bool) -> None:
    ticks = nice_ticks(low, low + span, 6, whole)
    assert ticks[0] <= low and ticks[-1] >= low + span and 2 <= len(ticks) <= 12
    steps = {round(b - a, 6) for a, b in zip(ticks, ticks[1:])}
    assert len(steps) == 1 and (not whole or all(float(v).is_integer() for v in ticks))


@given(wanted=st.lists(st.floats(0, 300), min_size=1, max_size=4))
def test_labels_are_spread_apart_within_the_frame(wanted: list[float]) -> None:
    placed = spread(wanted, 14, 10, 300)
    ordered = sorted(placed)
    assert all(b - a >= 14 - 1e-6 for a, b in zip(ordered, ordered[1:]))
    assert all(10 - 1e-6 <= y <= 300 + 1e-6 for y in placed)
    assert [i for i, _ in sorted(enumerate(wanted), key=lambda p: (p[1], p[0]))] == [
        i for i, _ in sorted(enumerate(placed), key=lambda p: (p[1], p[0]))
    ]  # the order stays


@pytest.mark.parametrize("lang, text", [("en", "Target 100"), ("de", "Ziel 100")])
def test_the_target_is_named_in_the_language(lang: str, text: str) -> None:
    i18n.set_lang(lang)
    assert text in match_totals(sheet_of([(5, 8, 13, 0)]), NAMES, 100, 400)
    i18n.set_lang("en")


def test_the_player_has_the_same_look_at_any_seat() -> None:
    """A guest at West sees its own line as the host sees the host's: solid, circles, class s0."""
    root = parse(match_totals(sheet_of([(1, 2, 3, 20)]), ["Ada", "You", "Hops", "Shelly"], 100, 400, me=1))
    mine = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").endswith(" me")]
    assert len(mine) == 1 and mine[0].get("class") == "series s0 me"
    line = mine[0].find(f"{SVG}path")
    assert line is not None and line.get("stroke-dasharray") is None
    labels = {el.text: el.get("class") for el in root.iter(f"{SVG}text") if "end-label" in (el.get("class") or "")}
    assert labels["You 2"] == "end-label s0 me" and labels["Ada 1"] == "end-label s3"


def _polylines(root: ET.Element) -> list[list[tuple[float, float]]]:
    out = []
    for g in root.iter(f"{SVG}g"):
        if "series" in (g.get("class") or ""):
            line = g.find(f"{SVG}path")
            pts = numbers(line.get("d") or "") if line is not None else []
            out.append(list(zip(pts[0::2], pts[1::2])))
    return out


def _hits(box: tuple[float, float, float, float], lines: list[list[tuple[float, float]]]) -> list[tuple[float, float]]:
    """Points of the lines (every half pixel; 1.75 px: half the widest line) and their markers
    (4.7 px: the largest with its edge) that touch ``box`` (left, top, right, bottom)."""
    left, top, right, bottom = box
    found = [
        (x, y)
        for line in lines
        for x, y in line[1:]
        if left - 4.7 <= x <= right + 4.7 and top - 4.7 <= y <= bottom + 4.7
    ]
    for line in lines:
        for (x0, y0), (x1, y1) in zip(line, line[1:]):
            steps = max(1, int(2 * max(abs(x1 - x0), abs(y1 - y0))))
            for k in range(steps + 1):
                x, y = x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps
                if left - 1.75 <= x <= right + 1.75 and top - 1.75 <= y <= bottom + 1.75:
                    found.append((x, y))
    return found


def _target_box(root: ET.Element, font: float = 12) -> tuple[float, float, float, float]:
    label = next(el for el in root.iter(f"{SVG}text") if el.get("class") == "target-label")
    x, y, width = float(label.get("x") or 0), float(label.get("y") or 0), len(label.text or "") * font * 0.62
    if label.get("text-anchor") == "end":
        x -= width
    return x, y - font * 0.8, x + width, y + font * 0.25  # the glyphs, from their caps to their descenders


@settings(max_examples=80, deadline=None)
@given(rows=rows, width=st.integers(260, 900), target=st.sampled_from([1, 5, 13, 26, 50, 100]))
def test_the_target_label_sits_clear_of_the_lines(
    rows: list[tuple[int, int, int, int]], width: int, target: int
) -> None:
    """ "Target 1" used to sit on the lines that start at 0: the label goes where no line is."""
    root = parse(match_totals(sheet_of(rows), NAMES, target, width))
    box = _target_box(root)
    inside(root)
    assert _hits(box, _polylines(root)) == [], (target, box)


def test_a_target_of_one_is_not_written_over_the_start_of_the_lines() -> None:
    sheet = sheet_of([(5, 8, 13, 0), (1, 2, 3, 20)])
    root = parse(match_totals(sheet, NAMES, 1, 600))
    assert _hits(_target_box(root), _polylines(root)) == []
