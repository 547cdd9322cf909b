"""Keeping the player's data (hearts_web.transfer.keeping): the browser is asked to keep it, and the
player is told the truth about where it may be deleted: once, in a notice, where WebKit deletes it
after 7 days without a visit (not on the Home Screen); in "Your data" everywhere else. Chromium here
stands in for the others by what the page can see of them: ``navigator.vendor`` (Apple's: WebKit),
``navigator.standalone`` (opened from the Home Screen), the answers of ``navigator.storage``, and
Firefox's ``-moz-appearance`` (it asks the player in a prompt). The smoke path meets the real
WebKitGTK (e2e/engines)."""

from __future__ import annotations

import pytest
from conftest import goto_ready, shot
from playwright.sync_api import Page, expect
from ui_helpers import open_tool, stored, use_settings

WEBKIT = "Object.defineProperty(Navigator.prototype, 'vendor', {get: () => 'Apple Computer, Inc.'});"
HOME_SCREEN = "Object.defineProperty(Navigator.prototype, 'standalone', {get: () => true});"
FIREFOX = """{ const supports = CSS.supports.bind(CSS);
  CSS.supports = (...a) => a[0] === '-moz-appearance' || supports(...a); }"""
# the browser keeps the data once asked (Chromium here refuses: it has seen too little of the site)
GRANTS = """{ let kept = false;
  StorageManager.prototype.persisted = async () => kept;
  StorageManager.prototype.persist = async () => { window.__asked = (window.__asked || 0) + 1; kept = true; return true; }; }"""
NOTICE = "#notices [data-notice='keep']"
SAYS = {
    "en-US": ("7 days", "Home Screen", "Settings → Your data"),
    "de-DE": ("7 Tage", "Home-Bildschirm", "Deine Daten"),
}


def storage_state(page: Page) -> str:
    page.wait_for_function("() => !!document.documentElement.dataset.storage")
    return str(page.evaluate("() => document.documentElement.dataset.storage"))


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_webkit_off_the_home_screen_is_told_once(page: Page, locale: str) -> None:
    page.add_init_script(WEBKIT)
    use_settings(page)  # something is saved already: a returning player
    goto_ready(page, "/?speed=instant&seed=keeping")
    notice = page.locator(NOTICE)
    for words in SAYS[locale]:
        expect(notice).to_contain_text(words)
    expect(notice.locator("[data-action='data-export']")).to_be_visible()
    assert storage_state(page) == "seven_days"
    shot(page, f"keeping-webkit-{locale}")
    notice.locator("[data-close-notice='keep']").click()
    expect(notice).to_have_count(0)
    assert stored(page, "hearts.settings.v1")["storage_told"] is True
    page.reload(wait_until="commit")
    goto_ready(page, "/?speed=instant")
    assert storage_state(page) == "seven_days"
    page.wait_for_timeout(500)
    expect(notice).to_have_count(0)  # remembered
    open_tool(page, "settings")  # "Your data" says it too
    expect(page.locator("[data-storage-line='seven_days']")).to_contain_text(SAYS[locale][0])


def test_a_first_visit_and_the_home_screen_hear_nothing_of_it_and_your_data_says_why(page: Page) -> None:
    page.add_init_script(WEBKIT)
    goto_ready(page, "/?speed=instant&seed=keeping")  # nothing saved yet: the welcome, not this
    assert storage_state(page) == "seven_days"
    page.wait_for_timeout(500)
    expect(page.locator(NOTICE)).to_have_count(0)
    page.add_init_script(HOME_SCREEN)
    page.reload(wait_until="commit")
    goto_ready(page, "/?speed=instant")
    # on the Home Screen: no 7 days; Chromium was asked at the start, and refused (a new profile:
    # too little seen of the site), so only a full disk may delete the data: no notice for that
    assert storage_state(page) == "space"
    page.wait_for_timeout(500)
    expect(page.locator(NOTICE)).to_have_count(0)
    open_tool(page, "settings")  # "Your data" says it, and offers to ask again
    line = page.locator("[data-storage-line='space']")
    expect(line).to_contain_text("runs short of space")
    expect(line.locator("[data-action='storage-keep']")).to_be_visible()


@pytest.mark.locale("de-DE")
def test_firefox_is_asked_only_when_the_player_presses_the_button(page: Page) -> None:
    page.add_init_script(FIREFOX + GRANTS)
    use_settings(page)
    goto_ready(page, "/?speed=instant&seed=keeping")
    assert storage_state(page) == "space"
    assert page.evaluate("() => window.__asked || 0") == 0  # no prompt at the start
    open_tool(page, "settings")
    page.click("[data-storage-line] [data-action='storage-keep']")
    expect(page.locator("[data-storage-line='kept']")).to_contain_text("dauerhaft")  # kept for good
    expect(page.locator("[data-storage-line] [data-action='storage-keep']")).to_have_count(0)
    assert page.evaluate("() => window.__asked") == 1
    shot(page, "keeping-kept-de")
