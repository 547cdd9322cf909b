"""The daily game in the browser: same deal as CPython, par, one counted attempt, share, reload, practice."""

from __future__ import annotations

import re

import pytest
from conftest import shot, wait_ready
from playwright.sync_api import Page, expect
from ui_helpers import open_game, play_until_dialog, stored

from hearts.daily import compute_par, daily_fingerprint


def test_daily_fingerprint_and_par_match_cpython(page: Page) -> None:
    date = "2026-11-28"
    open_game(page, f"/?daily={date}&speed=instant")
    expect(page.locator("html")).to_have_attribute("data-daily-fingerprint", daily_fingerprint(date))
    page.wait_for_function("() => document.documentElement.dataset.dailyPar !== undefined", timeout=60_000)
    par = int(page.evaluate("document.documentElement.dataset.dailyPar"))
    assert par == compute_par(date)
    # a past daily is practice
    expect(page.locator("#mode-badge")).to_have_text(f"Daily · practice · {date} · Par: {par}")
    ms = stored(page, "hearts.daily.v1")["par_ms"][date]
    print(f"\npar computed in the browser in {ms} ms")


@pytest.mark.context(permissions=["clipboard-read", "clipboard-write"])
def test_play_today_share_reload_and_practice(page: Page) -> None:
    open_game(page, "/?speed=instant")
    today = page.evaluate(
        "(() => { const d = new Date(); return d.getFullYear() + '-' + String(d.getMonth() + "
        "1).padStart(2, '0') + '-' + String(d.getDate()).padStart(2, '0'); })()"
    )
    page.click("[data-action='daily']")
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("#dlg-title")).to_have_text(f"Daily game · {today}")
    expect(dialog.locator(".par")).to_have_text(re.compile(r"Par: \d+"), timeout=60_000)
    par = int(dialog.locator(".par").inner_text().split(":")[1])
    shot(page, "daily-panel-en")
    dialog.get_by_role("button", name="Play today's hand").click()
    expect(page.locator("#mode-badge")).to_have_text(re.compile(rf"^Daily · {today}( · Par: {par})?$"))
    play_until_dialog(page)
    result = page.locator("dialog[open] .result-big")
    expect(result).to_have_text(re.compile(rf"You took \d+ points · par {par}"))
    points = int(result.get_attribute("data-daily-points"))
    shot(page, "daily-result-en")
    page.get_by_role("button", name="Share result").click()
    expect(page.locator("#share-out")).to_contain_text("copied")
    text = page.evaluate("navigator.clipboard.readText()")
    lines = text.split("\n")
    assert lines[0] == f"Hearts daily {today}"
    assert lines[1] == f"{points} points · par {par}"
    assert re.fullmatch(r"[○♥♠]{13}", lines[2]), lines[2]
    assert lines[3].endswith(f"/?daily={today}")
    saved = stored(page, "hearts.daily.v1")["results"][today]
    assert saved["points"] == points and saved["par"] == par
    # the counted attempt is final: Undo is not offered for it
    expect(page.locator("[data-action='undo']")).to_be_disabled()
    # reload shows the stored result
    page.reload(wait_until="commit")
    wait_ready(page)
    expect(page.locator("dialog[open] .result-big")).to_have_text(re.compile(rf"You took {points} points · par {par}"))
    # without Web Share and clipboard the text is shown selected for copying by hand
    page.goto(f"/?daily={today}&speed=instant&share=manual", wait_until="commit")
    wait_ready(page)
    page.locator("dialog[open]").get_by_role("button", name="Share result").click()
    area = page.locator("#share-text")
    expect(area).to_be_visible()
    assert area.input_value() == text
    assert page.evaluate(
        "getSelection().toString() || (document.activeElement.selectionEnd - document.activeElement.selectionStart)"
    ) not in ("", 0)
    shot(page, "daily-share-manual-en")
    # a second play is practice and does not change the result
    page.get_by_role("button", name="Play again (practice)").click()
    expect(page.locator("#mode-badge")).to_have_text(re.compile(rf"^Daily · practice · {today}( · Par: {par})?$"))
    play_until_dialog(page)
    expect(page.locator("dialog[open]")).to_contain_text("Practice")
    assert stored(page, "hearts.daily.v1")["results"][today] == saved
    page.locator("dialog[open]").get_by_role("button", name="Back to your match").click()
    expect(page.locator("#mode-badge")).to_be_hidden()
    page.click("[data-action='daily']")
    expect(page.locator("dialog[open]")).to_contain_text("Streak: 1 day")
    shot(page, "daily-history-en")


# The game's worker has a clock of its own (Playwright's fake clock is the page's): its dates from
# the same fixed time. (hearts_web.core.dom reads the date through its module's ``js``.)
WORKER_TOMORROW = """
import js
import hearts_web.core.dom as dom


class _Date:
    @staticmethod
    def new(*args):
        return js.Date.new(*(args or (%d,)))


class _Js:
    Date = _Date

    def __getattr__(self, name):
        return getattr(js, name)


dom.js = _Js()
"""


def test_page_left_open_across_midnight_offers_the_new_daily(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-midnight")
    tomorrow = page.evaluate(
        """(() => { const d = new Date(); d.setDate(d.getDate() + 1); d.setHours(0, 0, 30, 0);
             window.__tomorrow = d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-' + String(d.getDate()).padStart(2, '0');
             return [d.getTime(), window.__tomorrow]; })()"""
    )
    page.clock.set_fixed_time(tomorrow[0] / 1000)
    page.evaluate("(code) => window.heartsGame.run(code)", WORKER_TOMORROW % tomorrow[0])  # its clock too
    toast = page.locator("#toast")
    expect(toast).to_contain_text("A new daily game is ready", timeout=20_000)
    shot(page, "daily-midnight-en")
    toast.get_by_role("button", name="Open today's game").click()
    expect(page.locator("#mode-badge")).to_contain_text(f"Daily · {tomorrow[1]}")
    expect(page.locator("html")).to_have_attribute("data-daily-date", tomorrow[1])


def test_a_link_to_another_day_asks_before_it_ends_an_unfinished_daily(page: Page) -> None:
    open_game(page, "/?daily=2026-12-01&speed=instant")
    badge = page.locator("#mode-badge")
    expect(badge).to_contain_text("2026-12-01")
    dealt = sorted(page.locator("#hand button[data-card]").evaluate_all("els => els.map(e => e.dataset.card)"))
    page.goto("/?daily=2026-12-02&speed=instant", wait_until="commit")
    wait_ready(page)
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Your daily game of 2026-12-01 is not finished")
    shot(page, "daily-unfinished-en")
    dialog.get_by_role("button", name="Finish 2026-12-01").click()  # the unfinished game stays
    expect(badge).to_contain_text("2026-12-01")
    assert sorted(page.locator("#hand button[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")) == dealt
    assert stored(page, "hearts.daily-game.v1")["session"]["date"] == "2026-12-01"
    page.goto("/?daily=2026-12-02&speed=instant", wait_until="commit")
    wait_ready(page)
    page.locator("dialog[open]").get_by_role("button", name="Play the daily of 2026-12-02").click()
    expect(badge).to_contain_text("2026-12-02")
    expect(page.locator("html")).to_have_attribute("data-daily-date", "2026-12-02")
    assert stored(page, "hearts.daily-game.v1")["session"]["date"] == "2026-12-02"


@pytest.mark.parametrize(
    "lang, date, text",
    [
        pytest.param("en", "2026-01-31", "No passing this hand: keep your cards.", marks=pytest.mark.locale("en-US")),
        pytest.param(
            "de",
            "2026-02-04",
            "In dieser Runde wird nicht getauscht: Du behältst deine Karten.",
            marks=pytest.mark.locale("de-DE"),
        ),
    ],
)
def test_a_daily_on_a_hold_day_says_there_is_no_passing(page: Page, lang: str, date: str, text: str) -> None:
    """A hold day goes straight to the tricks: the player is told why there is no pass (as in a match)."""
    open_game(page, f"/?daily={date}&speed=instant", lang=lang)
    expect(page.locator("html")).to_have_attribute("data-daily-date", date)
    toast = page.locator("#toast")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text(text)
    expect(toast).to_contain_text(date)  # the day's own intro is still there
    # however narrow the toast (a small phone, a long German line), its lines break between the
    # parts of its head ("Daily game", the date), never inside the date
    page.add_style_tag(content="#toast { max-width: 110px !important; }")
    lines = page.evaluate("() => [...document.querySelectorAll('#toast .part')].map((e) => e.getClientRects().length)")
    assert len(lines) >= 2 and set(lines) == {1}, lines
    expect(page.locator("#sr-live")).to_contain_text(text)
    expect(page.locator("#pass-btn")).to_be_hidden()
    shot(page, f"daily-hold-{lang}")
