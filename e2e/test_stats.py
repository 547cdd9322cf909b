"""The statistics in the browser: a real match recorded end to end, the figures per level, the charts
(score sheet, match over, trend, the daily calendar) in English and German, on a laptop and a phone,
axe-core on the dialogs, a damaged history repaired with a true notice, and the history through
export, clearing and import.

Three finished matches at two levels, fast and honest: two are stored beforehand (hand-picked values
in the stored form, written as the game writes them), the third is a real match played here ("King
of Hearts" to 50 at ``?speed=instant``), which proves the path from the table to the storage.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Any

import pytest
from axe import describe, serious_violations
from conftest import goto_ready, shot, wait_ready
from hearts_web.data.stats import Statistics
from playwright.sync_api import Page, expect
from ui_helpers import import_file, play_until_dialog, press_continue, stored, use_settings

from hearts import PRESETS
from hearts.tally import MatchTally

STATS_KEY = "hearts.stats.v1"
TODAY = datetime.date.today()


@pytest.fixture(autouse=True)
def page_clock_at_noon_today(page: Page) -> None:
    """The page's clock stands at noon of ``TODAY``: the stored days and the page's "today" agree even
    when the test runs across midnight."""
    page.clock.set_fixed_time(datetime.datetime.combine(TODAY, datetime.time(12)).timestamp())


def day(back: int) -> str:
    return (TODAY - datetime.timedelta(days=back)).isoformat()


def two_matches() -> dict[str, Any]:
    """Two finished matches as the game stores them: Hard (won, shared) and Easy (third)."""
    stats = Statistics()
    stats.record(
        MatchTally(hands=7, points=41, moons_shot=1, moons_allowed=0, queens=2, won=True, shared=False, place=1),
        "hard",
        "standard",
        day(3),
        online=False,
    )
    stats.record(
        MatchTally(hands=5, points=38, moons_shot=0, moons_allowed=1, queens=2, won=False, shared=False, place=3),
        "easy",
        "king",
        day(1),
        online=False,
    )
    return stats.to_dict()


def daily_results() -> dict[str, Any]:
    results = {
        day(b): {"date": day(b), "points": p, "par": par, "markers": ["none"] * 13, "moon": False}
        for b, p, par in ((0, 3, 5), (1, 7, 5), (2, 4, 4))
    }
    return {"results": results, "attempts": {}, "par_ms": {}}


def seed(page: Page, values: dict[str, Any]) -> None:
    """Store ``values`` before the page's first start (not again after a reload)."""
    page.add_init_script(f"""if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1');
        for (const [k, v] of Object.entries({json.dumps({k: json.dumps(v) for k, v in values.items()})})) localStorage.setItem(k, v); }}""")


def play_to_match_over(page: Page) -> None:
    for _ in range(12):
        play_until_dialog(page, max_plays=20)
        if page.locator("dialog[open] #dlg-title").inner_text() in ("Match over", "Partie beendet"):
            return
        press_continue(page)
    raise AssertionError("the match to 50 points did not end")


def no_serious_violations(page: Page, where: str) -> None:
    found = serious_violations(page, "#dlg")
    assert found == [], f"{where}:\n{describe(found)}"


def open_statistics(page: Page) -> None:
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[open]", state="detached")
    page.click('.tool[data-action="stats"]')
    page.wait_for_selector("dialog[open] svg[data-chart='trend']")


def test_statistics_after_three_matches_at_two_levels(page: Page) -> None:
    seed(page, {STATS_KEY: two_matches(), "hearts.daily.v1": daily_results()})
    use_settings(page, lang="en", rules=PRESETS["king"].to_dict(), preset="king")
    goto_ready(page, "/?speed=instant&seed=e2e-stats")
    play_to_match_over(page)
    # the match over: its running totals as a chart, with a sentence for screen readers
    chart = page.locator("dialog[open] svg[data-chart='match-totals']")
    expect(chart).to_be_visible()
    assert re.match(r"Running totals after \d+ hands: You -?\d+, Pip", chart.get_attribute("aria-label") or "")
    shot(page, "stats-match-over-en")
    # the real match is recorded: the third match, at Easy with the King of Hearts rules
    history = stored(page, STATS_KEY)["history"]
    assert len(history) == 3 and {k: history[-1][k] for k in ("level", "preset", "online", "date")} == {
        "level": "easy",
        "preset": "king",
        "online": False,
        "date": TODAY.isoformat(),
    }
    # the score sheet with its chart
    page.keyboard.press("Escape")
    page.click('.tool[data-action="scores"]')
    expect(page.locator("dialog[open] svg[data-chart='match-totals']")).to_be_visible()
    no_serious_violations(page, "score sheet")
    shot(page, "stats-score-sheet-en")
    # the statistics dialog: per level, the trend, the calendar
    open_statistics(page)
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("[data-stats-level='easy'] [data-stats-matches]")).to_have_text("2 matches")
    expect(dialog.locator("[data-stats-level='hard'] [data-stats-matches]")).to_have_text("1 match")
    expect(dialog.locator("[data-stats-level='hard'] .st-rate")).to_have_text("100%")
    expect(dialog.locator("[data-stats-level='medium']")).to_contain_text("No matches yet")
    expect(dialog.locator("svg[data-chart='trend'] path.pt")).to_have_count(3)
    assert "3 recorded matches" in (dialog.locator("svg[data-chart='trend']").get_attribute("aria-label") or "")
    calendar = dialog.locator("[data-chart='daily-calendar']")
    expect(calendar.locator(f"td[data-day='{TODAY.isoformat()}'].at-par")).to_be_visible()
    expect(calendar.locator(".cal-streak")).to_contain_text("Streak: 3 days")
    no_serious_violations(page, "statistics dialog")
    shot(page, "stats-dialog-en")
    # the calendar's previous month, and back: the focus stays on the month buttons
    month = calendar.get_attribute("data-month")
    dialog.locator(".cal-nav").first.click()
    expect(dialog.locator("[data-chart='daily-calendar']")).not_to_have_attribute("data-month", month or "")
    assert page.evaluate("document.activeElement.classList.contains('cal-nav')")
    dialog.locator(".cal-nav").last.click()
    expect(dialog.locator("[data-chart='daily-calendar']")).to_have_attribute("data-month", month or "")
    # German, on a phone
    page.keyboard.press("Escape")
    page.click(".langs button[data-lang='de']")
    page.set_viewport_size({"width": 390, "height": 844})
    page.click('.tool[data-action="stats"]')
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("[data-stats-level='easy'] [data-stats-matches]")).to_have_text("2 Partien")
    expect(dialog.locator("#dlg-title")).to_have_text("Statistik")
    width = page.evaluate("document.querySelector('svg[data-chart=trend]').getBoundingClientRect().width")
    assert abs(float(dialog.locator("svg[data-chart='trend']").get_attribute("width") or 0) - width) < 2  # drawn 1:1
    assert page.evaluate("document.querySelector('#dlg-body').scrollTop") == 0  # opens at the top
    shot(page, "stats-dialog-de-phone")
    no_serious_violations(page, "statistics dialog, German, phone")
    dialog.locator("svg[data-chart='trend']").scroll_into_view_if_needed()
    shot(page, "stats-dialog-de-phone-trend")


def test_a_damaged_history_is_repaired_truthfully_and_survives_export_and_import(page: Page, tmp_path: Path) -> None:
    value = two_matches()
    value["history"].append(dict(value["history"][0], place=9))  # cannot be: left out
    raw = json.dumps(value)
    seed(page, {STATS_KEY: value})
    use_settings(page, lang="en")
    goto_ready(page, "/?speed=instant&seed=e2e-stats-repair")
    notice = page.locator(f"#notices [data-notice-key='{STATS_KEY}']")
    expect(notice).to_have_attribute("data-notice-kind", "repaired")
    expect(notice).to_contain_text(
        "Some of your statistics could not be read or did not add up. 1 match in the history could not "
        "be read and was left out."
    )
    backup = notice.get_attribute("data-notice-backup") or ""
    assert page.evaluate("k => localStorage.getItem(k)", backup) == raw  # "kept as a backup" is true
    assert len(stored(page, STATS_KEY)["history"]) == 2
    shot(page, "stats-repaired-notice-en")
    # export, clear everything, import: the history is back as it was
    before = page.evaluate("k => localStorage.getItem(k)", STATS_KEY)
    page.click('.tool[data-action="settings"]')
    with page.expect_download() as info:
        page.click('#dlg [data-action="data-export"]')
    exported = Path(info.value.path()).read_text()
    assert json.loads(exported)["data"][STATS_KEY] == before
    page.keyboard.press("Escape")
    page.evaluate("() => Object.keys(localStorage).forEach(k => localStorage.removeItem(k))")
    page.reload(wait_until="commit")
    wait_ready(page)
    page.click('.tool[data-action="stats"]')
    expect(page.locator("dialog[open] [data-stats-empty]")).to_be_visible()
    page.keyboard.press("Escape")
    import_file(page, tmp_path / "export.json", exported)
    expect(page.locator(f'#dlg [data-import-key="{STATS_KEY}"]')).to_contain_text("2 matches played")
    page.click('#dlg [data-action="data-import-confirm"]')
    expect(page.locator('#notices [data-notice="import"]')).to_contain_text("imported")
    assert page.evaluate("k => localStorage.getItem(k)", STATS_KEY) == before
    page.click('.tool[data-action="stats"]')
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("tr[data-stats-entry]")).to_have_count(2)
    expect(dialog.locator("[data-stats-level='hard'] [data-stats-matches]")).to_have_text("1 match")


STREAK_LINE = {
    "en": "Streak: 3 days · At or under par: 0 days in a row · Days played: 3",
    "de": "Serie: 3 Tage · Par oder besser: 0 Tage in Folge · Gespielte Tage: 3",
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_day_over_par_ends_the_par_streak_that_day(page: Page, lang: str) -> None:
    """Today +5 (9 against par 4) after −2 and ±0: the par streak is 0, not 2 (calendar and daily panel)."""
    results = {
        day(b): {"date": day(b), "points": p, "par": 4, "markers": ["none"] * 13, "moon": False}
        for b, p in ((0, 9), (1, 2), (2, 4))
    }
    seed(page, {"hearts.daily.v1": {"results": results, "attempts": {day(0): True}, "par_ms": {}}})
    use_settings(page, lang=lang)
    goto_ready(page, "/?speed=instant&seed=e2e-streak")
    page.click('.tool[data-action="stats"]')
    calendar = page.locator("dialog[open] [data-chart='daily-calendar']")
    expect(calendar.locator(f"td[data-day='{TODAY.isoformat()}'].over-par")).to_be_visible()
    expect(calendar.locator(".cal-streak")).to_have_text(STREAK_LINE[lang])
    expect(calendar.locator(".cal-streak")).to_have_attribute("data-streak-par", "0")
    shot(page, f"stats-streak-over-par-{lang}")
    page.keyboard.press("Escape")
    page.click('.tool[data-action="daily"]')
    expect(page.locator("dialog[open] [data-daily-streaks]")).to_contain_text(STREAK_LINE[lang].rsplit(" · ", 1)[0])


def crafted_totals() -> dict[str, Any]:
    """Two real matches, and beside them: a total without a match (yet 500 hands, 400 Q♠ and 100
    moons allowed), a billion hands, Q♠ and moons in one match, a billion matches that add up,
    and a history that is no list."""
    value = two_matches()
    value["levels"]["easy"]["classic"] = {
        "matches": 0,
        "won": 0,
        "hands": 500,
        "points": 2500,
        "moons_shot": 0,
        "moons_allowed": 100,
        "queens": 400,
    }
    value["levels"]["hard"]["custom"] = {
        "matches": 1,
        "won": 0,
        "hands": 10**9,
        "points": 0,
        "moons_shot": 10**9,
        "moons_allowed": 10**9,
        "queens": 10**9,
    }
    value["levels"]["medium"] = {
        "standard": {
            "matches": 10**9,
            "won": 10**9,
            "hands": 10**9,
            "points": 0,
            "moons_shot": 0,
            "moons_allowed": 0,
            "queens": 10**9,
        }
    }
    value["history"] = {"not": "a list"}
    return value


OVERFLOW = """() => [...document.querySelectorAll('#dlg-body .st-level, #dlg-body .st-tiles > div')].flatMap(box => {
    const outer = box.getBoundingClientRect();
    return [...box.querySelectorAll('*:not(.visually-hidden)')].filter(el => {
        const r = el.getBoundingClientRect();
        return r.width && (r.right > outer.right + 0.5 || r.left < outer.left - 0.5 || el.scrollWidth > el.clientWidth + 1);
    }).map(el => el.tagName + ': ' + el.textContent.trim().slice(0, 40));
})"""
FIGURES = """() => ({
    levels: Object.fromEntries([...document.querySelectorAll('#dlg-body [data-stats-level]')].map(s =>
        [s.dataset.statsLevel, [...s.querySelectorAll('dd')].map(d => d.firstChild ? d.firstChild.textContent : '')
                               .concat([s.querySelector('[data-stats-matches]') ? s.querySelector('[data-stats-matches]').dataset.statsMatches : '0'])])),
    presets: [...document.querySelectorAll('#dlg-body .st-presets thead th[data-stats-preset]')].map(th => th.dataset.statsPreset),
    rows: [...document.querySelectorAll('#dlg-body .st-presets tbody tr')].map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent)),
})"""
NOTICE = {
    "en": (
        "Some of your statistics could not be read or did not add up. The history of your matches could not be read "
        "and was left out. Totals that could not be read were set to zero or lowered to fit the matches played."
    ),
    "de": (
        "Einige Werte deiner Statistik waren unlesbar oder passten nicht zusammen. Der Verlauf deiner Partien war "
        "unlesbar und wurde weggelassen. Unlesbare Summen wurden auf null gesetzt oder passend zu den gespielten "
        "Partien verkleinert."
    ),
}


LEVEL_DD = {"queens": 1, "moons_shot": 2, "moons_allowed": 3, "matches": -1}  # a level's figures, in FIGURES' order


def _count(text: str) -> int:
    return int(re.sub(r"[.,\s]", "", text.split("(")[0]))


@pytest.mark.parametrize("lang, phone", [("en", False), ("de", True)])
def test_crafted_totals_show_consistent_figures_and_a_true_notice(page: Page, lang: str, phone: bool) -> None:
    if phone:
        page.set_viewport_size({"width": 390, "height": 844})
    seed(page, {STATS_KEY: crafted_totals()})
    use_settings(page, lang=lang)
    goto_ready(page, "/?speed=instant&seed=e2e-stats-crafted")
    notice = page.locator(f"#notices [data-notice-key='{STATS_KEY}']")
    expect(notice).to_contain_text(NOTICE[lang])
    shot(page, f"stats-crafted-notice-{lang}")
    page.click('.tool[data-action="stats"]')
    page.wait_for_selector("dialog[open] [data-stats-level]")
    expected = Statistics.decode(crafted_totals()).value
    figures = page.evaluate(FIGURES)
    for level in ("easy", "medium", "hard"):
        totals = expected.by_level(level)
        shown = figures["levels"][level]
        assert int(shown[-1]) == totals.matches, (level, shown)
        if totals.matches:
            assert _count(shown[1]) == totals.queens and _count(shown[3]) == totals.moons_allowed, (level, shown)
    # the levels and the rules table add up to the same matches, Q♠ and moons allowed
    rows = dict(zip(("matches", "won", "per_hand", "moons_shot", "moons_allowed", "queens"), figures["rows"]))
    for name in ("matches", "moons_shot", "moons_allowed", "queens"):
        shown = [figures["levels"][lv] for lv in ("easy", "medium", "hard")]
        by_level = sum(_count(f[LEVEL_DD[name]]) for f in shown if len(f) > 1)  # a level without a match: no figures
        assert sum(_count(v) for v in rows[name]) == by_level, (name, rows[name], by_level)
    assert figures["presets"] == ["standard", "king", "custom"]
    assert page.evaluate(OVERFLOW) == []
    shot(page, f"stats-crafted-{lang}{'-phone' if phone else ''}")
    no_serious_violations(page, f"crafted statistics ({lang})")
