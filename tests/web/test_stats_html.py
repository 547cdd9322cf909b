"""hearts_web.stats.html, the daily calendar and local_format: the statistics dialog's figures per
level, its tables and the month calendar, well formed, in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from hearts_web.core import i18n
from hearts_web.core import local_format as fmt
from hearts_web.daily.html import month_calendar, shift_month
from hearts_web.data.stats import Statistics
from hearts_web.stats.html import statistics_html
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts.daily import DailyResult
from hearts.tally import MatchTally

VOID = {"br", "img", "input", "meta", "link", "hr", "path", "line", "rect"}


class Balanced(HTMLParser):
    """Every element that is opened is closed, in order (the page's innerHTML must not leak)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-5:])
        self.stack.pop()


def balanced(html: str) -> str:
    parser = Balanced()
    parser.feed(html)
    assert parser.stack == [], parser.stack
    return html


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_lang("en")
    yield
    i18n.set_lang("en")


def tally(points: int, hands: int = 5, place: int = 1) -> MatchTally:
    return MatchTally(hands, points, 0, 1, 2, place == 1, False, place)


def sample() -> Statistics:
    stats = Statistics()
    stats.record(tally(20), "easy", "king", "2026-12-01", online=False)
    stats.record(tally(40, place=3), "easy", "standard", "2026-12-02", online=False)
    stats.record(tally(35, place=2), "hard", "standard", "2026-12-03", online=False)
    stats.record(tally(30, place=4), "medium", "standard", "2026-12-03", online=True)
    return stats


DAILY = {
    d: DailyResult(d, p, par, ("none",) * 13)
    for d, p, par in [("2026-12-01", 3, 5), ("2026-12-02", 6, 5), ("2026-12-03", 4, 4), ("2026-11-30", 2, None)]
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_level_has_its_figures(lang: str) -> None:
    i18n.set_lang(lang)
    html = balanced(statistics_html(sample(), DAILY, "2026-12-03", "2026-12"))
    for level in ("easy", "medium", "hard"):
        assert f'data-stats-level="{level}"' in html
    easy = html.split('data-stats-level="easy"')[1].split("</section>")[0]
    assert 'data-stats-matches="2"' in easy and ("50\u202f%" in easy if lang == "de" else "50%" in easy)
    assert ("6,0" if lang == "de" else "6.0") in easy  # 60 points in 10 hands
    medium = html.split('data-stats-level="medium"')[1].split("</section>")[0]
    assert i18n.t("st_level_empty") in medium  # the online match at medium counts online, not here
    online = html.split("data-stats-online")[1].split("</section>")[0]
    assert 'data-stats-matches="1"' in online
    assert (
        html.count("data-stats-entry") == 4 and 'data-chart="trend"' in html and 'data-chart="daily-calendar"' in html
    )
    assert 'data-stats-preset="king"' in html and 'data-stats-preset="classic"' not in html
    i18n.set_lang("en")


def test_nothing_recorded_yet_says_so() -> None:
    html = balanced(statistics_html(Statistics(), {}, "2026-12-03", "2026-12"))
    assert "data-stats-empty" in html and 'data-chart="trend"' not in html and i18n.t("st_trend_empty") in html
    assert html.count('data-stats-level="') == 3


def test_the_counters_of_version_1_are_shown_apart() -> None:
    stats = Statistics.decode({"played": 12, "won": 5, "hands": 90, "points": 600, "moons": 1}).value
    html = balanced(statistics_html(stats, {}, "2026-12-03", "2026-12"))
    assert "data-stats-earlier" in html and "12 matches" in html and "6.7" in html


def test_the_month_calendar_marks_results_against_par_and_the_streak() -> None:
    html = balanced(month_calendar(DAILY, "2026-12", "2026-12-03"))
    assert 'data-chart="daily-calendar"' in html and "December 2026" in html
    cell = html.split('data-day="2026-12-01"')[0].rsplit("<td", 1)[1]
    assert "at-par" in cell and "streak" in cell
    assert "−2" in html.split('data-day="2026-12-01"')[1].split("</td>")[0]  # 3 points, par 5
    assert "+1" in html.split('data-day="2026-12-02"')[1].split("</td>")[0]
    assert 'aria-current="date" data-day="2026-12-03"' in html
    assert 'data-streak="4"' in html  # 30 Nov to 3 Dec
    assert 'data-month="2027-01" aria-label="Next month" disabled' in html  # not beyond this month
    # weeks start on Sunday in English, Monday in German: 1 December 2026 is a Tuesday
    assert html.split("<tbody><tr>")[1].startswith("<td></td><td></td><td")
    i18n.set_lang("de")
    de = balanced(month_calendar(DAILY, "2026-12", "2026-12-03"))
    assert "Dezember 2026" in de and de.split("<tbody><tr>")[1].startswith("<td></td><td")
    assert not de.split("<tbody><tr>")[1].startswith("<td></td><td></td>")
    assert "Mo</abbr>" in de and "3 Punkte, Par 5" in de
    i18n.set_lang("en")


@settings(max_examples=60, deadline=None)
@given(year=st.integers(2020, 2040), month=st.integers(1, 12), lang=st.sampled_from(["en", "de"]))
def test_every_month_has_its_days_in_whole_weeks(year: int, month: int, lang: str) -> None:
    i18n.set_lang(lang)
    key = f"{year:04d}-{month:02d}"
    html = balanced(month_calendar({}, key, "2041-01-01"))
    days = html.count("data-day=")
    assert 28 <= days <= 31 and html.count("<td") % 7 == 0
    assert shift_month(shift_month(key, 1), -1) == key and shift_month(key, 12) == f"{year + 1:04d}-{month:02d}"
    i18n.set_lang("en")


@pytest.mark.parametrize(
    "lang, expected",
    [
        ("en", ("5.3", "−2.5", "43%", "3 Dec 2026", "+3", "−2", "±0")),
        ("de", ("5,3", "−2,5", "43\u202f%", "3.12.2026", "+3", "−2", "±0")),
    ],
)
def test_numbers_and_dates_in_the_language(lang: str, expected: tuple[str, ...]) -> None:
    i18n.set_lang(lang)
    got = (
        fmt.decimal(5.3),
        fmt.decimal(-2.5),
        fmt.percent(0.425),
        fmt.date_text("2026-12-03"),
        fmt.signed(3),
        fmt.signed(-2),
        fmt.signed(0),
    )
    assert got == expected
    i18n.set_lang("en")
