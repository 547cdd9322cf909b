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
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from axe import describe, serious_violations
from conftest import ROOT, goto_ready, shot, wait_ready
from ui_helpers import import_file, play_until_dialog, stored, use_settings

sys.path[:0] = [str(ROOT), str(ROOT / "web")]

from hearts import PRESETS  # noqa: E402
from hearts.tally import MatchTally  # noqa: E402
from hearts_web.stats import Statistics  # noqa: E402

STATS_KEY = "hearts.stats.v1"
TODAY = datetime.date.today()


def day(back: int) -> str:
    return (TODAY - datetime.timedelta(days=back)).isoformat()


def two_matches() -> dict[str, Any]:
    """Two finished matches as the game stores them: Hard (won, shared) and Easy (third)."""
    stats = Statistics()
    stats.record(MatchTally(hands=7, points=41, moons_shot=1, moons_allowed=0, queens=2, won=True, shared=False, place=1),
                 "hard", "standard", day(3), online=False)
    stats.record(MatchTally(hands=5, points=38, moons_shot=0, moons_allowed=1, queens=2, won=False, shared=False, place=3),
                 "easy", "king", day(1), online=False)
    return stats.to_dict()


def daily_results() -> dict[str, Any]:
    results = {day(b): {"date": day(b), "points": p, "par": par, "markers": ["none"] * 13, "moon": False}
               for b, p, par in ((0, 3, 5), (1, 7, 5), (2, 4, 4))}
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
        page.locator("dialog[open] [data-action='continue']").click()
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
        "level": "easy", "preset": "king", "online": False, "date": TODAY.isoformat()}
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
    expect(notice).to_contain_text("Some of your statistics could not be read or did not add up. 1 match in the history could not "
                                   "be read and was left out.")
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
