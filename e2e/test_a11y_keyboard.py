"""Keyboard and screen readers: the whole game can be played with the keyboard, focus is visible."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from conftest import goto_ready, shot
from ui_helpers import hand_cards, open_game, use_settings, wait_my_turn_or_dialog


def _focused_card(page: Page) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card || null : null")


def test_pass_and_play_with_the_keyboard_only(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-keys")
    # Tab from the top of the page reaches the hand
    for _ in range(30):
        page.keyboard.press("Tab")
        if _focused_card(page):
            break
    first = _focused_card(page)
    assert first == hand_cards(page)[0]
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", outline  # focus is visible
    # choose three cards with Space / Enter and the arrow keys
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    expect(page.locator("#hand .card.selected")).to_have_count(3)
    shot(page, "keyboard-pass-selected-en")
    page.keyboard.press("p")
    page.wait_for_selector("#pass-btn", state="hidden")
    # after the exchange the focus is on a playable card when it is our turn
    plays = 0
    for _ in range(13):
        state = wait_my_turn_or_dialog(page)
        if state == "dialog":
            break
        page.wait_for_function("() => document.activeElement && document.activeElement.matches('#hand button[data-card]:enabled')")
        n = len(hand_cards(page))
        page.keyboard.press("Enter")
        page.wait_for_function("n => document.querySelectorAll('#hand button[data-card]').length < n", arg=n)
        plays += 1
        if plays == 3:
            break
    assert plays == 3
    assert len(hand_cards(page)) == 10


def test_screen_reader_names_and_live_region(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-sr")
    expect(page.locator("#hand")).to_have_attribute("role", "group")
    expect(page.locator("#hand")).to_have_attribute("aria-label", "Your hand")
    expect(page.locator("#prompt")).to_have_attribute("aria-live", "polite")
    names = page.eval_on_selector_all(".tools button", "e => e.map(x => x.getAttribute('aria-label'))")
    assert all(names), names
    # seat markers are announced in words
    label = page.locator(".seat[data-seat='1'] .markers").get_attribute("aria-label")
    assert label == "Tricks this hand: no tricks yet"


TOOLS_IN_VIEW = """() => [...document.querySelectorAll('.tools button')].filter(b => !b.hidden).map(b => {
  const r = b.getBoundingClientRect();
  return {action: b.dataset.action, inside: r.left >= 0 && r.right <= innerWidth && r.width > 0,
          label: b.getAttribute('aria-label')};
})"""


@pytest.mark.context(viewport={"width": 1280, "height": 720})
@pytest.mark.parametrize("lang", [pytest.param("en", marks=pytest.mark.locale("en-US")),
                                  pytest.param("de", marks=pytest.mark.locale("de-DE"))])
def test_the_toolbar_fits_its_row_in_a_daily_game_at_1280x720(page: Page, lang: str) -> None:
    """The daily's long badge and "Back to your match" used to push "Fullscreen" off the right edge:
    when the labelled toolbar does not fit, it shows icons (labels stay as tooltips and names)."""
    use_settings(page)
    goto_ready(page, "/?daily=2026-11-29&speed=instant")
    expect(page.locator("#mode-badge")).to_be_visible()
    tools = page.evaluate(TOOLS_IN_VIEW)
    assert len(tools) >= 7 and all(t["inside"] and t["label"] for t in tools), tools
    shot(page, f"toolbar-daily-1280-{lang}")
