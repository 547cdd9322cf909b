"""Language: German by default for a German browser, switcher bottom left, persisted; classic look."""

from __future__ import annotations

import re

import pytest
from conftest import shot, wait_ready
from playwright.sync_api import Page, expect
from ui_helpers import open_game, pass_three, wait_my_turn_or_dialog


@pytest.mark.locale("de-DE")
def test_german_default_and_switch_to_english(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-i18n")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#prompt")).to_have_text("Gib 3 Karten nach links (an Pip)")
    expect(page.locator("#pass-btn")).to_contain_text("Karten geben")
    labels = page.eval_on_selector_all("#hand button[data-card]", "e => e.map(x => x.getAttribute('aria-label'))")
    # what the face shows first (voice control), then the spoken name
    assert all(
        re.fullmatch(r"(\d+|[BDKA])[♣♦♠♥], (Kreuz|Karo|Pik|Herz)-(\d+|Bube|Dame|König|Ass)", x) for x in labels
    ), labels
    # the switcher sits at the bottom left
    box = page.locator(".langs").bounding_box()
    vp = page.viewport_size
    assert box["x"] < vp["width"] / 4 and box["y"] > vp["height"] * 3 / 4, box
    shot(page, "i18n-desktop-de")
    page.click(".langs button[data-lang='en']")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#prompt")).to_have_text("Pass 3 cards to the left (to Pip)")
    expect(page.locator("[data-action='hint'] .tl")).to_have_text("Show me")
    labels = page.eval_on_selector_all("#hand button[data-card]", "e => e.map(x => x.getAttribute('aria-label'))")
    assert all(" of " in x for x in labels), labels
    page.reload(wait_until="commit")
    wait_ready(page)
    expect(page.locator("#prompt")).to_have_text("Pass 3 cards to the left (to Pip)")


@pytest.mark.locale("de-DE")
def test_illegal_reason_in_german(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-illegal")
    pass_three(page)
    assert wait_my_turn_or_dialog(page) == "play"
    legal = set(
        page.eval_on_selector_all(
            "#hand button[data-card]:not([aria-disabled='true'])", "e => e.map(x => x.dataset.card)"
        )
    )
    illegal = [
        c
        for c in page.eval_on_selector_all("#hand button[data-card]", "e => e.map(x => x.dataset.card)")
        if c not in legal
    ]
    page.locator(f'#hand button[data-card="{illegal[0]}"]').click(force=True)
    expect(page.locator("#prompt.error")).to_have_text(
        re.compile(r"Du musst bedienen|Kreuz-2 muss|Herz ist noch nicht|Im ersten Stich")
    )


def test_classic_look_is_chosen_in_settings_and_persists(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-classic")
    page.click("[data-action='settings']")
    dialog = page.locator("dialog[open]")
    expect(dialog).to_be_visible()
    shot(page, "settings-modern-en")
    dialog.locator("[data-action='set-look'][data-value='classic']").click()
    expect(page.locator("html")).to_have_class(re.compile(r"\bclassic\b"))
    shot(page, "settings-classic-en")
    page.keyboard.press("Escape")
    bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert bg == "rgb(0, 127, 14)", bg
    page.click("[data-action='scores']")
    page.wait_for_selector("dialog[open]")
    sheet_bg = page.evaluate("getComputedStyle(document.querySelector('dialog[open]')).backgroundColor")
    assert sheet_bg == "rgb(192, 192, 192)", sheet_bg  # the grey score window
    shot(page, "classic-score-window-en")
    page.keyboard.press("Escape")
    page.reload(wait_until="commit")
    wait_ready(page)
    expect(page.locator("html")).to_have_class(re.compile(r"\bclassic\b"))
    pass_three(page)
    wait_my_turn_or_dialog(page)
    shot(page, "classic-table-en")


def test_rules_preset_and_difficulty_in_settings(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-rules")
    page.click("[data-action='settings']")
    page.select_option("#set-preset", "king")
    expect(page.locator("#set-target")).to_have_value("50")
    expect(page.locator("#set-pass_cycle")).to_have_value("left_across_right_hold")
    page.click("[data-action='set-difficulty'][data-value='hard']")
    expect(page.locator("[data-action='set-difficulty'][data-value='hard']")).to_have_attribute("aria-pressed", "true")
    page.click("[data-action='apply-rules']")
    page.click("[data-action='scores']")
    expect(page.locator("dialog[open]")).to_contain_text("Match to 50 points")
    settings = page.evaluate("JSON.parse(localStorage.getItem('hearts.settings.v1'))")
    assert settings["preset"] == "king" and settings["difficulty"] == "hard" and settings["rules"]["target"] == 50


def test_fullscreen_button_toggles_fullscreen(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-fs")
    page.click("[data-action='fullscreen']")
    page.wait_for_function("() => document.fullscreenElement === document.documentElement")
    page.click("[data-action='fullscreen']")
    page.wait_for_function("() => document.fullscreenElement === null")
