"""Phones: two overlapping rows of cards, every card tappable, no scrolling in portrait or landscape."""

from __future__ import annotations

import pytest
from conftest import shot
from playwright.sync_api import Page, expect
from ui_helpers import PLAYABLE, hand_cards, open_game, wait_my_turn_or_dialog

PHONE = dict(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, device_scale_factor=2)
SMALL = dict(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True)
LANDSCAPE = dict(viewport={"width": 844, "height": 390}, is_mobile=True, has_touch=True)

TOP_CARD_AT_CENTER = """() => [...document.querySelectorAll('#hand button[data-card]')].map(el => {
  const r = el.getBoundingClientRect();
  // the visible part of a first-row card is its top; tap there, like a finger would
  const x = r.left + Math.min(r.width / 2, 12), y = r.top + r.height * 0.3;
  const hit = document.elementFromPoint(x, y);
  return {card: el.dataset.card, ok: !!hit && hit.closest('button[data-card]') === el,
          top: Math.round(r.top), bottom: r.bottom, right: r.right, left: r.left};
})"""


def _no_scroll(page: Page) -> None:
    dims = page.evaluate(
        "() => ({sw: document.documentElement.scrollWidth, sh: "
        "document.documentElement.scrollHeight, w: innerWidth, h: innerHeight})"
    )
    assert dims["sw"] <= dims["w"] and dims["sh"] <= dims["h"], dims


def _all_cards_tappable(page: Page) -> list[dict]:
    cards = page.evaluate(TOP_CARD_AT_CENTER)
    assert len(cards) == 13
    bad = [c for c in cards if not c["ok"]]
    assert not bad, bad
    w = page.viewport_size["width"]
    h = page.viewport_size["height"]
    assert all(c["left"] >= 0 and c["right"] <= w and c["bottom"] <= h for c in cards), cards
    return cards


@pytest.mark.context(**PHONE)
def test_phone_portrait_two_rows_all_cards_tappable(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-phone")
    cards = _all_cards_tappable(page)
    rows = sorted({c["top"] for c in cards})
    assert len(rows) == 2, rows
    width = page.eval_on_selector("#hand button[data-card]", "e => e.getBoundingClientRect().width")
    assert width >= 48, width  # large enough to read and tap
    _no_scroll(page)
    shot(page, "phone-portrait-pass-en")
    # tap three cards and pass, then play a card by tapping
    for card in hand_cards(page)[-3:]:
        page.tap(f'#hand button[data-card="{card}"]')
    expect(page.locator("#pass-btn")).to_be_enabled()
    page.tap("#pass-btn")
    page.wait_for_selector("#pass-btn", state="hidden")
    assert wait_my_turn_or_dialog(page) == "play"
    n = len(hand_cards(page))
    page.tap(f"{PLAYABLE} >> nth=0")
    page.wait_for_function("n => document.querySelectorAll('#hand button[data-card]').length < n", arg=n)
    _no_scroll(page)
    for seat in (1, 2, 3):  # each opponent's box shows the cards it still holds, face down
        backs = page.locator(f".seat[data-seat='{seat}'] .backs i")
        assert 10 <= backs.count() <= 13, (seat, backs.count())  # the bots may be a trick further
        expect(backs.first).to_be_visible()
    shot(page, "phone-portrait-play-en")


@pytest.mark.context(**SMALL)
def test_small_phone_fits_without_scrolling(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-small")
    _all_cards_tappable(page)
    _no_scroll(page)
    shot(page, "phone-small-360-en")


# pairs of boxes on a phone's table that must not overlap (the slots of the trick may: they fan)
APART = [(".seat-south", other) for other in (".slot-0", "#center-info", ".prompt-row", "#hand", ".langs")] + [
    ("#center-info", slot) for slot in (".slot-0", ".slot-1", ".slot-3")
]
OVERLAPS = """(pairs) => pairs.filter(([a, b]) => {
  const p = document.querySelector(a).getBoundingClientRect(), q = document.querySelector(b).getBoundingClientRect();
  return p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1;
}).map(([a, b]) => a + ' / ' + b)"""


@pytest.mark.locale("de-DE")
@pytest.mark.parametrize(
    "size",
    [
        pytest.param(size, marks=pytest.mark.context(viewport=dict(zip(("width", "height"), size)), is_mobile=True))
        for size in ((360, 640), (375, 667), (390, 844))
    ],
)
def test_on_short_and_tall_phones_the_players_seat_stays_clear_of_the_trick(page: Page, size: tuple[int, int]) -> None:
    """The player's own seat box, the trick's slots, the line under the trick ("hearts are broken",
    German: the longer) and the hand each keep their own place: on a short phone the seat box goes
    below the hand, beside the language switch."""
    open_game(page, "/?speed=instant&seed=e2e-apart")
    page.evaluate("document.getElementById('center-info').textContent = '\u2665\ufe0e Herz ist gebrochen'")
    assert page.evaluate(OVERLAPS, APART) == []
    _no_scroll(page)
    shot(page, f"phone-apart-{size[0]}x{size[1]}-de")


@pytest.mark.context(**LANDSCAPE)
def test_phone_landscape_fits_without_scrolling(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-land")
    _all_cards_tappable(page)
    _no_scroll(page)
    shot(page, "phone-landscape-pass-en")
    for card in hand_cards(page)[-3:]:
        page.tap(f'#hand button[data-card="{card}"]')
    page.tap("#pass-btn")
    page.wait_for_selector("#pass-btn", state="hidden")
    assert wait_my_turn_or_dialog(page) == "play"
    _no_scroll(page)
    shot(page, "phone-landscape-play-en")


@pytest.mark.locale("de-DE")
@pytest.mark.context(**PHONE)
def test_phone_classic_look_in_german(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-phone-de", look="classic")
    expect(page.locator("#prompt")).to_contain_text("Gib 3 Karten")
    _all_cards_tappable(page)
    _no_scroll(page)
    for card in hand_cards(page)[-3:]:
        page.tap(f'#hand button[data-card="{card}"]')
    page.tap("#pass-btn")
    page.wait_for_selector("#pass-btn", state="hidden")
    assert wait_my_turn_or_dialog(page) == "play"
    page.tap(f"{PLAYABLE} >> nth=0")
    page.wait_for_timeout(300)
    shot(page, "phone-portrait-classic-de")
    page.click("[data-action='scores']")
    shot(page, "phone-classic-score-window-de")
