"""Saved as you play: reload mid-trick resumes exactly; corrupt or old data is kept as a backup."""

from __future__ import annotations

import json

import pytest
from conftest import goto_ready, shot, wait_ready
from hearts_web.core import i18n
from hearts_web.data.registry import BY_KEY
from hearts_web.data.store import MemoryStorage, Store
from playwright.sync_api import BrowserContext, Page, expect
from ui_helpers import (
    PLAYABLE,
    hand_cards,
    open_game,
    overlap,
    pass_three,
    play_first,
    stored,
    trick_cards,
    use_settings,
    wait_my_turn_or_dialog,
)

MATCH_KEY = "hearts.match.v1"


def _state(page: Page) -> dict:
    return {
        "hand": hand_cards(page),
        "trick": trick_cards(page),
        "playable": page.eval_on_selector_all(PLAYABLE, "e => e.map(x => x.dataset.card)"),
        "scores": page.eval_on_selector_all(".seat .pts", "e => e.map(x => x.textContent)"),
        "markers": page.eval_on_selector_all(".seat .markers", "e => e.map(x => x.children.length)"),
    }


def test_reload_mid_trick_resumes_exactly(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-resume")
    pass_three(page)
    # play until it is our turn with cards of others already on the table (mid-trick)
    for _ in range(13):
        assert wait_my_turn_or_dialog(page) == "play"
        if trick_cards(page):
            break
        play_first(page)
    before = _state(page)
    assert before["trick"], "expected to be in the middle of a trick"
    record = stored(page, MATCH_KEY)
    assert record["v"] == 2 and record["record"]["format"] == "hearts-match"
    page.reload(wait_until="commit")
    wait_ready(page)
    page.wait_for_selector(PLAYABLE)
    assert _state(page) == before
    # and play goes on from there
    page.click(f"{PLAYABLE} >> nth=0")
    page.wait_for_function(
        "n => document.querySelectorAll('#hand button[data-card]').length < n", arg=len(before["hand"])
    )


def _check_fresh_start_with_backup(page: Page, raw: str) -> None:
    notice = page.locator(f'#notices [data-notice-key="{MATCH_KEY}"]')
    expect(notice).to_contain_text("could not be read")
    expect(notice).to_have_attribute("data-notice-kind", "replaced")
    shot(page, "persistence-corrupt-notice-en")
    keys = page.evaluate("Object.keys(localStorage)")
    backups = [k for k in keys if k.startswith("hearts.backup.")]
    assert backups == [notice.get_attribute("data-notice-backup")], keys  # the notice names the backup
    assert page.evaluate("k => localStorage.getItem(k)", backups[0]) == raw
    # a fresh, playable match was started and saved
    expect(page.locator("#pass-btn")).to_be_visible()
    assert len(hand_cards(page)) == 13
    assert stored(page, MATCH_KEY)["record"]["format"] == "hearts-match"


def test_corrupt_saved_data_is_kept_and_a_new_match_starts(page: Page) -> None:
    raw = '{"v": 1, "record": {"format": "hearts-match", "version": 1, "hands": [{"plays": ["AH"'
    use_settings(page)
    page.add_init_script(
        f"localStorage.getItem('seeded') || (localStorage.setItem('{MATCH_KEY}', "
        f"{json.dumps(raw)}), localStorage.setItem('seeded', '1'))"
    )
    goto_ready(page, "/?speed=instant")
    _check_fresh_start_with_backup(page, raw)


def test_saved_data_from_an_old_version_is_kept_and_a_new_match_starts(page: Page) -> None:
    raw = json.dumps({"version": 0, "hands": [[1, 2, 3]]})
    use_settings(page)
    page.add_init_script(
        f"localStorage.getItem('seeded') || (localStorage.setItem('{MATCH_KEY}', "
        f"{json.dumps(raw)}), localStorage.setItem('seeded', '1'))"
    )
    goto_ready(page, "/?speed=instant")
    _check_fresh_start_with_backup(page, raw)


def test_tampered_record_with_an_illegal_play_is_refused(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-tamper")
    pass_three(page)
    wait_my_turn_or_dialog(page)
    saved = stored(page, MATCH_KEY)
    saved["record"]["hands"][0]["plays"] = ["AH", "AH"]
    raw = json.dumps(saved)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [MATCH_KEY, raw])
    page.reload(wait_until="commit")
    wait_ready(page)
    _check_fresh_start_with_backup(page, raw)


def test_offline_reload_mid_match_plays_on(persistent_context) -> None:  # type: ignore[no-untyped-def]
    ctx: BrowserContext = persistent_context()
    page = ctx.new_page()
    use_settings(page)
    goto_ready(page, "/?speed=instant&seed=e2e-offline")
    page.wait_for_function(
        "() => navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=60_000
    )
    pass_three(page)
    assert wait_my_turn_or_dialog(page) == "play"
    before = hand_cards(page)
    ctx.set_offline(True)
    page.reload(wait_until="commit")
    wait_ready(page)
    page.wait_for_selector(PLAYABLE)
    assert hand_cards(page) == before
    page.click(f"{PLAYABLE} >> nth=0")
    page.wait_for_function("n => document.querySelectorAll('#hand button[data-card]').length < n", arg=len(before))


# Where the notices' region shows notices: its box without the padding that holds their shadow
# (what scrolls shows through the bottom padding).
NOTICES_SHOWN = """() => {
  const box = document.getElementById("notices"), r = box.getBoundingClientRect(), css = getComputedStyle(box);
  const [top, left, right] = [css.paddingTop, css.paddingLeft, css.paddingRight].map(parseFloat);
  return { x: r.x + left, y: r.y + top, width: r.width - left - right, height: r.height - top };
}"""


@pytest.mark.parametrize("lang", ["en", "de"])
def test_several_keys_repaired_at_once_are_told_truly_in_one_card(page: Page, lang: str) -> None:
    """Settings and daily data repaired, the match repaired into practice, an online key set aside:
    one card, a line per key in the words the registry gives it, and each backup holds its original."""
    open_game(page, "/?speed=instant&seed=e2e-several", lang=lang)
    pass_three(page)
    wait_my_turn_or_dialog(page)
    match, settings = stored(page, MATCH_KEY), stored(page, "hearts.settings.v1")
    match["session"]["practice"] = "yes"
    settings["look"] = "neon"
    values = {
        MATCH_KEY: json.dumps(match),
        "hearts.settings.v1": json.dumps(settings),
        "hearts.daily.v1": '{"results": [1], "attempts": {}}',
        "hearts.online-guest.v1": "[1]",
    }
    page.evaluate("(entries) => entries.forEach(([k, v]) => localStorage.setItem(k, v))", list(values.items()))
    page.reload(wait_until="commit")
    wait_ready(page)
    lines = page.locator('#notices [data-notice="stored"] [data-notice-key]')
    expect(lines).to_have_count(len(values))
    i18n.set_lang(lang)
    for key, raw in values.items():
        notice = BY_KEY[key].check(Store(MemoryStorage({key: raw})), "easy")[1]
        assert notice is not None
        line = page.locator(f'#notices [data-notice-key="{key}"]')
        expect(line).to_have_attribute("data-notice-kind", notice.kind)
        expect(line).to_have_text(notice.text(with_backup=False))
        backup = line.get_attribute("data-notice-backup") or ""
        assert page.evaluate("k => localStorage.getItem(k)", backup) == raw  # "kept as a backup" is true
    expect(page.locator('#notices [data-notice="stored"]')).to_contain_text(i18n.t("n_backups_kept"))
    assert i18n.t("n_now_practice") in page.locator(f'#notices [data-notice-key="{MATCH_KEY}"]').inner_text()
    shot(page, f"persistence-several-notices-{lang}")
    # on a small phone the card is taller than the room under the seats: it scrolls, and neither a
    # seat nor the player's hand and prompt are covered
    page.set_viewport_size({"width": 360, "height": 640})
    notices = page.evaluate(NOTICES_SHOWN)
    covered = [
        s
        for s in (*(f'.seat[data-seat="{n}"]' for n in range(4)), "#hand", ".prompt-row")
        if overlap(notices, page.locator(s).bounding_box())
    ]
    assert covered == [], f"the notices {notices} cover {covered}"
    assert page.evaluate("(e) => e.scrollHeight > e.clientHeight", page.locator("#notices").element_handle())
    shot(page, f"persistence-several-notices-{lang}-phone")


# Each card that leaves the hand: what localStorage held at that moment, copied in the first
# microtask after the page's task that removed it (before the page paints it).
STORAGE_WHEN_SHOWN = """
(() => {
  window.__storageWhenGone = {};
  let inHand = null;
  const copy = () => Object.fromEntries(Object.keys(localStorage).filter((k) => k.startsWith("hearts."))
    .map((k) => [k, localStorage.getItem(k)]));
  const look = () => {
    const now = new Set([...document.querySelectorAll("#hand button[data-card]")].map((b) => b.dataset.card));
    if (inHand) for (const card of inHand) {
      if (!now.has(card) && !(card in window.__storageWhenGone)) window.__storageWhenGone[card] = copy();
    }
    inHand = now;
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true });
})();
"""
# Before the page's own scripts, once per tab: localStorage as it was when the card left the hand.
RESTORE_STORAGE = """
if (!sessionStorage.getItem("restored")) {
  sessionStorage.setItem("restored", "1");
  localStorage.clear();
  for (const [k, v] of Object.entries(%s)) localStorage.setItem(k, v);
}
"""


def test_a_move_the_page_has_shown_is_saved(context: BrowserContext) -> None:
    """The page writes a move's save before, or in the same task as, the drawing that shows it: a
    tab closed at the moment a card leaves the hand (0 ms after: the storage as it was then) comes
    back after that move. The three passed cards, then each of the first trick's plays."""
    page = context.new_page()
    use_settings(page)
    page.add_init_script(STORAGE_WHEN_SHOWN)
    goto_ready(page, "/?speed=instant&seed=e2e-nothing-lost")
    passed = pass_three(page)
    played = [play_first(page) for _ in range(3) if wait_my_turn_or_dialog(page) == "play"]
    when_gone = page.evaluate("window.__storageWhenGone")
    page.close()
    checks = [(passed, card) for card in passed[:1]] + [([card], card) for card in played]
    for gone, card in checks:
        again = context.new_page()
        again.add_init_script(RESTORE_STORAGE % json.dumps(when_gone[card]))
        goto_ready(again, "/?speed=instant")
        again.wait_for_selector(f"{PLAYABLE}, #pass-btn:not([hidden])")
        hand = hand_cards(again)
        assert not set(gone) & set(hand), f"{card} was shown leaving the hand, but the reload has {hand}"
        assert len(hand) == 13 - len(played[: played.index(card) + 1] if card in played else [])
        again.close()
