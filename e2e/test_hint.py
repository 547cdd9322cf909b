""" "Show me": the hint marks the suggested cards with a one-sentence reason and makes the match practice."""

from __future__ import annotations

import re

from conftest import shot
from playwright.sync_api import Page, expect
from ui_helpers import PLAYABLE, open_game, pass_three, stored, wait_my_turn_or_dialog


def test_hint_while_passing_and_playing_marks_practice(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-hint")
    expect(page.locator("#mode-badge")).to_be_hidden()
    page.click("[data-action='hint']")
    hinted = page.locator("#hand .card.hinted")
    expect(hinted).to_have_count(3)
    expect(page.locator("#prompt")).to_have_text(re.compile(r"^Pass .+ and .+\."))
    expect(page.locator("#mode-badge")).to_have_text("Practice")
    assert stored(page, "hearts.match.v1")["session"]["practice"] is True
    shot(page, "hint-pass-en")
    # follow the hint
    cards = hinted.evaluate_all("e => e.map(x => x.dataset.card)")
    pass_three(page, cards)
    assert wait_my_turn_or_dialog(page) == "play"
    page.click("[data-action='hint']")
    expect(page.locator("#hand .card.hinted")).to_have_count(1)
    expect(page.locator("#prompt")).to_have_text(re.compile(r"^Play .+\."))
    hinted_card = page.locator("#hand .card.hinted").get_attribute("data-card")
    assert hinted_card in page.eval_on_selector_all(PLAYABLE, "e => e.map(x => x.dataset.card)")
    shot(page, "hint-play-en")
