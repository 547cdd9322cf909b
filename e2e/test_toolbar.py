"""The toolbar's "More" menu on a phone, by touch and by keyboard, in Chromium.

Every phone size (320 to 430 px wide, upright and sideways, with and without the daily badge, in
English and German: no control cut off or covered, targets at least 24x24, the toolbar's 44x44
upright, no sideways scroll, the badge whole, every tool in reach) is checked by the smoke path in
Chromium, Firefox and WebKit (``e2e/engines``, ``layout.py``), in the engines step, which runs
alongside the online tests. Before the menu, 390x844 with the daily badge squeezed 11 buttons to
20 px, cut off Fullscreen and the badge ("Daily · practic…")."""

from __future__ import annotations

import time

import pytest
from conftest import goto_ready, shot
from engines.layout import CONTROLS
from playwright.sync_api import Page, expect
from ui_helpers import use_settings

FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def settled(page: Page, timeout_s: float = 3.0) -> list[str]:
    """What the layout check finds once the page has answered the new size (the resize event, then
    the toolbar's refit in the next frame)."""
    deadline = time.monotonic() + timeout_s
    while True:
        page.evaluate(FRAMES)
        found: list[str] = page.evaluate(CONTROLS)
        if not found or time.monotonic() > deadline:
            return found
        page.wait_for_timeout(100)


@pytest.mark.context(viewport={"width": 390, "height": 844})
@pytest.mark.locale("de-DE")
def test_the_more_menu_holds_what_the_row_has_no_room_for(page: Page) -> None:
    use_settings(page)
    goto_ready(page, "/?speed=instant&daily=2026-11-30")
    expect(page.locator("#mode-badge")).to_have_text("Täglich · Übung · 2026-11-30 · Par: 0")
    more = page.locator("#more-btn")
    expect(more).to_be_visible()
    expect(more).to_have_attribute("aria-label", "Mehr")
    folded = page.eval_on_selector_all("#more-menu .tool", "e => e.map(x => x.dataset.action)")
    assert "fullscreen" in folded and "hint" not in folded
    more.click()
    menu = page.locator("#more-menu")
    expect(menu).to_be_visible()
    for action in folded:  # labelled, a finger's height
        item = menu.locator(f".tool[data-action='{action}']")
        expect(item.locator(".tl")).to_be_visible()
        box = item.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    assert settled(page) == []
    shot(page, "toolbar-more-menu-de-phone")
    menu.locator(".tool[data-action='stats']").click()
    expect(page.locator("dialog[open] #dlg-title")).to_have_text("Statistik")
    expect(menu).to_be_hidden()
    page.keyboard.press("Escape")  # the dialog closes; the focus is back on the menu's button
    expect(more).to_be_focused()
    page.keyboard.press("Enter")  # by keyboard: the menu opens, Tab goes into it, Escape closes it
    expect(menu).to_be_visible()
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('#more-menu') !== null")
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    page.set_viewport_size({"width": 1280, "height": 720})  # a laptop: every tool in the row, no menu
    expect(more).to_be_hidden()
    assert page.locator("#more-menu .tool").count() == 0
