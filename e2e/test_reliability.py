"""Reliability in the browser: broken links, two tabs, a full storage, export → clear → import, and
the boot guard. (The corrupted-storage corpus is e2e/test_storage_corpus.py.)"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import READY_TIMEOUT_MS, goto_ready, shot, wait_ready
from playwright.sync_api import BrowserContext, Page, expect
from ui_helpers import (
    HAND,
    PLAYABLE,
    drawn_as,
    hand_cards,
    import_file,
    pass_three,
    play_first,
    stored,
    use_settings,
    wait_my_turn_or_dialog,
)

MATCH_KEY = "hearts.match.v1"
DAILY_KEY = "hearts.daily.v1"
GAME_KEYS = ("hearts.settings.v1", MATCH_KEY, "hearts.daily-game.v1", DAILY_KEY, "hearts.stats.v1")

FILL = """(leave) => {  // fill localStorage until it refuses; leave ~`leave` characters free
  let chunk = "x".repeat(1 << 20), n = 0;
  while (chunk.length >= 1) {
    try { localStorage.setItem("filler." + (n++), chunk); } catch (e) { n--; chunk = chunk.slice(0, chunk.length >> 1); }
  }
  let freed = 0;
  for (let i = n; i >= 0 && freed < leave; i--) {
    const v = localStorage.getItem("filler." + i);
    if (v !== null) { freed += v.length; localStorage.removeItem("filler." + i); }
  }
  return n;
}"""
UNFILL = "() => Object.keys(localStorage).filter(k => k.startsWith('filler.')).forEach(k => localStorage.removeItem(k))"


def storage(page: Page) -> dict[str, str]:
    return page.evaluate(
        "() => Object.fromEntries(Object.keys(localStorage).filter(k => "
        "k.startsWith('hearts.')).map(k => [k, localStorage.getItem(k)]))"
    )


def notices(page: Page) -> dict[str, dict[str, str]]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#notices [data-notice-key]')]
        .map(n => [n.dataset.noticeKey, {kind: n.dataset.noticeKind, backup: n.dataset.noticeBackup, text: n.textContent}]))""")


def plays_in_record(page: Page) -> int:
    record = stored(page, MATCH_KEY)["record"]
    return sum(len(h.get("plays", [])) for h in record["hands"])


def my_turn(page: Page) -> None:
    """Pass if asked, then wait until a card of ours can be played."""
    state = wait_my_turn_or_dialog(page)
    if state == "pass":
        pass_three(page)
        state = wait_my_turn_or_dialog(page)
    assert state == "play", state


# ------------------------------------------------------------------ links (findings 2 and 8)
def test_half_broken_links_open_the_game_and_never_count_a_daily(page: Page) -> None:
    use_settings(page)
    for path in (
        "/?seed=%&speed=instant",
        "/?daily=%E0%A4%A&speed=instant",
        "/?daily=2026-02-30&speed=instant",
        "/?seed=%ED%A0%80&speed=instant&daily=x%",
    ):
        goto_ready(page, path)
        my_turn(page)
        play_first(page)  # playable
        if "daily=" not in path:
            continue
        link = page.locator('#notices [data-notice="link"]')
        expect(link).to_contain_text("does not name a valid day")
        assert "\ufffd" not in (link.text_content() or "")  # shown as typed, not as broken characters
        assert not (stored(page, DAILY_KEY) or {}).get("attempts"), f"{path} started a counted attempt"
        assert "daily=" not in page.url and page.get_attribute("html", "data-daily-date") is None
        if "%E0" in path:
            shot(page, "reliability-bad-daily-link-en")
            page.click('#notices [data-notice="link"] [data-action="daily"]')  # the way to today's daily
            expect(page.locator("#dlg")).to_be_visible()
            page.keyboard.press("Escape")


# ------------------------------------------------------------------ deep JSON everywhere
def test_json_nested_ten_thousand_deep_in_every_key_never_blocks_the_start(page: Page) -> None:
    deep = "[" * 10_000 + "]" * 10_000
    page.add_init_script(f"""if (!sessionStorage.getItem('seeded')) {{
        for (const k of {json.dumps(list(GAME_KEYS))}) localStorage.setItem(k, {json.dumps(deep)});
        sessionStorage.setItem('seeded', '1'); }}""")
    goto_ready(page, "/?speed=instant&daily=2026-11-29")
    assert set(notices(page)) == set(GAME_KEYS) - {MATCH_KEY}  # the match is read when it is opened
    page.click('.tool[data-action="new-match"]')  # "Back to the match"
    page.wait_for_function(f"() => document.querySelector('#notices [data-notice-key=\"{MATCH_KEY}\"]')")
    found = notices(page)
    for key in GAME_KEYS:
        assert found[key]["kind"] == "replaced", found
        assert page.evaluate("k => localStorage.getItem(k)", found[key]["backup"]) == deep
    my_turn(page)
    play_first(page)
    page.click('.tool[data-action="stats"]')
    expect(page.locator("#dlg .stats")).to_be_visible()
    page.keyboard.press("Escape")
    page.reload(wait_until="commit")  # and the next start is clean
    wait_ready(page)
    assert notices(page) == {}
    assert page.locator("#boot-guard").count() == 0  # the boot guard stays away from a good start
    assert page.locator("#fatal-reset").count() == 1  # offered with the error banner (hidden until then)
    assert page.evaluate("getComputedStyle(document.getElementById('fatal')).display") == "none"


# ------------------------------------------------------------------ two tabs
def _overlay(page: Page) -> Any:
    return page.locator("#tab-overlay:not([hidden])")


@pytest.mark.context(service_workers="block")
def test_two_tabs_one_owner_and_a_clean_take_over(context: BrowserContext) -> None:
    a = context.new_page()
    use_settings(a)
    goto_ready(a, "/?speed=instant&seed=e2e-tabs")
    my_turn(a)
    play_first(a)
    my_turn(a)  # the bots have played and the game has saved (the worker's writes reach the page after)
    saved_by_a = storage(a)
    b = context.new_page()
    goto_ready(b, "/?speed=instant")
    expect(_overlay(b)).to_contain_text("open in another tab")
    expect(b.locator("#app")).to_have_attribute("inert", "")  # the table behind the notice takes no input
    assert storage(b) == storage(a) == saved_by_a  # b read the settings and wrote nothing
    shot(b, "reliability-tab-elsewhere-en")

    b.click('#tab-overlay [data-action="tab-continue"]')
    expect(_overlay(a)).to_contain_text("continues in another tab")
    expect(_overlay(b)).to_be_hidden()
    drawn_as(b, hand_cards(a))  # the same position, not one move lost (drawn a moment after the notice)
    wait_my_turn_or_dialog(b)
    shot(a, "reliability-tab-moved-en")
    before = plays_in_record(b)
    play_first(b)
    b.wait_for_function(
        "([k, n]) => JSON.parse(localStorage.getItem(k)).record.hands.flatMap(h => h.plays || []).length > n",
        arg=[MATCH_KEY, before],
    )
    my_turn(b)  # the bots have played after the card, and b has saved
    after_b = storage(b)
    a.wait_for_timeout(300)
    late = {k: (len(v), len(after_b.get(k) or "")) for k, v in storage(a).items() if after_b.get(k) != v}
    assert storage(a) == after_b, late  # the old tab never writes again
    assert a.locator(f"{PLAYABLE}").count() == 0 or a.evaluate("document.getElementById('app').inert")

    a.evaluate(HAND_WHEN_UNCOVERED)
    a.click('#tab-overlay [data-action="tab-continue"]')  # and back
    expect(_overlay(b)).to_be_visible()
    expect(_overlay(a)).to_be_hidden()
    # the notice stays until the handed position is drawn: never the old hand uncovered
    assert a.evaluate("window.__handWhenUncovered") == hand_cards(b)
    my_turn(a)
    b.close()


# What the hand shows the moment "open in another tab" goes (a MutationObserver's callback runs
# once the page has applied the operations of the worker's message).
HAND_WHEN_UNCOVERED = """() => {
  const overlay = document.getElementById('tab-overlay');
  const seen = new MutationObserver(() => {
    if (!overlay.hidden) return;
    seen.disconnect();
    window.__handWhenUncovered = [...document.querySelectorAll('#hand button[data-card]')].map((e) => e.dataset.card);
  });
  seen.observe(overlay, { attributes: true, attributeFilter: ['hidden'] });
}"""


@pytest.mark.locale("de-DE")
@pytest.mark.context(service_workers="block", viewport={"width": 390, "height": 844})
def test_on_a_phone_in_german_and_a_waiting_tab_starts_when_the_owner_closes(context: BrowserContext) -> None:
    a = context.new_page()
    goto_ready(a, "/?speed=instant")
    b = context.new_page()
    goto_ready(b, "/?speed=instant")
    expect(_overlay(b)).to_contain_text("in einem anderen Tab")
    shot(b, "reliability-tab-elsewhere-de-phone")
    b.click('#tab-overlay [data-action="tab-continue"]')
    expect(_overlay(a)).to_contain_text("geht in einem anderen Tab weiter")
    shot(a, "reliability-tab-moved-de-phone")
    b.close()  # the owner goes away: the waiting tab takes the game by itself
    expect(_overlay(a)).to_be_hidden()
    expect(a.locator(HAND).first).to_be_visible()


# ------------------------------------------------------------------ storage full
def test_a_full_storage_is_shown_play_goes_on_and_the_next_save_catches_up(page: Page) -> None:
    use_settings(page)
    goto_ready(page, "/?speed=instant&seed=e2e-full")
    my_turn(page)
    saved_plays = plays_in_record(page)
    page.evaluate(FILL, 0)
    play_first(page)  # this save fails
    warning = page.locator('#notices [data-notice="storage"]')
    expect(warning).to_contain_text("could not be saved")
    expect(warning.locator('[data-action="data-export"]')).to_be_visible()
    shot(page, "reliability-storage-full-en")
    assert plays_in_record(page) == saved_plays  # really not saved
    my_turn(page)
    with page.expect_download() as info:
        warning.locator('[data-action="data-export"]').click()
    exported = json.loads(Path(info.value.path()).read_text())
    in_file = json.loads(exported["data"][MATCH_KEY])
    assert sum(len(h.get("plays", [])) for h in in_file["record"]["hands"]) > saved_plays  # the unsaved moves too
    page.click('.tool[data-action="settings"]')  # a change of another key while full: held too
    hard = page.locator('#dlg [data-action="set-difficulty"][data-value="hard"]')
    hard.click()
    expect(hard).to_have_attribute("aria-pressed", "true")  # the game has taken the change
    page.keyboard.press("Escape")
    assert stored(page, "hearts.settings.v1")["difficulty"] == "easy"
    page.evaluate(UNFILL)
    play_first(page)  # the next save gets through, with everything held back
    expect(warning).to_contain_text("Saved again")
    assert stored(page, "hearts.settings.v1")["difficulty"] == "hard"  # caught up
    cards = hand_cards(page)
    page.reload(wait_until="commit")
    wait_ready(page)
    wait_my_turn_or_dialog(page)
    assert hand_cards(page) == cards  # nothing lost


def test_a_corrupt_save_with_a_full_storage_never_claims_a_backup(page: Page) -> None:
    raw = '{"v": 2, "record": {"broken": true}, "session": {}}'
    use_settings(page)
    page.goto("/build-info.json")
    page.evaluate(FILL, 0)
    page.evaluate("([k, v]) => { localStorage.removeItem('filler.0'); localStorage.setItem(k, v); }", [MATCH_KEY, raw])
    page.evaluate(FILL, 0)  # full again: no room for a backup copy
    goto_ready(page, "/?speed=instant")
    # The worker's store takes the copy before the page writes it; the page's refusal comes back a
    # round trip later and the card then says the backup could not be kept (under load the card
    # can be drawn before that, claiming the copy for a moment). What the card ends up saying:
    expect(page.locator(f'#notices [data-notice-key="{MATCH_KEY}"]')).to_have_attribute("data-notice-backup", "")
    found = notices(page)[MATCH_KEY]
    assert found["kind"] == "replaced" and found["backup"] == ""
    assert "could not be kept" in found["text"] and "kept as a backup (" not in found["text"]
    assert not [k for k in storage(page) if k.startswith("hearts.backup.")]
    with page.expect_download() as info:
        page.click('#notices [data-notice="stored"] [data-action="data-export"]')
    data = json.loads(Path(info.value.path()).read_text())["data"]
    assert raw in data.values()  # the copy held in memory is in the file
    page.evaluate(UNFILL)


# ------------------------------------------------------------------ export → clear → import
@pytest.mark.context(service_workers="block")
def test_export_clear_import_round_trip_offline(page: Page, tmp_path: Path) -> None:
    use_settings(page, lang="en", look="classic")
    goto_ready(page, "/?speed=instant&seed=e2e-export")
    my_turn(page)
    play_first(page)
    page.evaluate("""() => localStorage.setItem('hearts.daily.v1', JSON.stringify({results: {'2026-11-28':
        {date: '2026-11-28', points: 3, par: 5, markers: Array(13).fill('none'), moon: false}}, attempts: {'2026-11-28': 'started'}, par_ms: {}}))""")
    wait_my_turn_or_dialog(page)
    before = storage(page)
    cards = hand_cards(page)
    page.context.set_offline(True)
    page.click('.tool[data-action="settings"]')
    page.locator("#dlg fieldset.data").scroll_into_view_if_needed()
    expect(page.locator("#dlg fieldset.data")).to_be_visible()
    shot(page, "reliability-settings-data-en")
    with page.expect_download() as info:
        page.click('#dlg [data-action="data-export"]')
    exported = Path(info.value.path()).read_text()
    assert info.value.suggested_filename.startswith("hearts-backup-") and json.loads(exported)["data"] == before
    page.keyboard.press("Escape")

    page.evaluate("() => Object.keys(localStorage).forEach(k => localStorage.removeItem(k))")  # "cleared browser data"
    page.click('.tool[data-action="new-match"]')
    page.click('#dlg [data-action="new-match-now"]')
    expect(page.locator("#pass-btn")).to_be_visible()

    import_file(page, tmp_path / "export.json", exported)
    preview = page.locator("#dlg")
    expect(preview).to_contain_text("Importing this file replaces")
    expect(preview.locator(f'[data-import-key="{MATCH_KEY}"]')).to_contain_text("Match in progress")
    expect(preview.locator(f'[data-import-key="{DAILY_KEY}"]')).to_contain_text("1 day played")
    shot(page, "reliability-import-preview-en")
    page.click('#dlg [data-action="data-import-confirm"]')
    expect(page.locator('#notices [data-notice="import"]')).to_contain_text("imported")
    drawn_as(page, cards)  # the exported match is back (drawn a moment after the notice)
    wait_my_turn_or_dialog(page)
    assert hand_cards(page) == cards
    assert page.evaluate("document.documentElement.classList.contains('classic')")  # and the settings
    now = storage(page)
    assert {k: now.get(k) for k in before} == before

    import_file(page, tmp_path / "nonsense.json", "[" * 50_000)  # not an export: refused, nothing changes
    expect(page.locator("#dlg .import-error")).to_contain_text("cannot be imported")
    assert storage(page) == now
    page.context.set_offline(False)


# ------------------------------------------------------------------ the boot guard
# The standard library's archive spoilt: Python dies while it starts ("Failed to import encodings")
DEATH = b"not a zstd frame"


@pytest.mark.context(service_workers="block")
def test_the_boot_guard_catches_a_dead_interpreter_and_resets_after_a_download(
    page: Page, page_guard: Any, altered_site: Callable[[Callable[[Path], None]], str]
) -> None:
    # what Python prints as it dies, line by line (blank ones too)
    page_guard.allow(
        r"Fatal Python error|encodings|Python runtime state|thread|Python frame|worker failed|error:\s+\(http"
    )

    def spoil(site: Path) -> None:
        (stdlib,) = site.glob("vendor/pyodide-*/stdlib-*.zst")
        stdlib.write_bytes(DEATH)

    base = altered_site(spoil)
    page.add_init_script("""if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1');
        localStorage.setItem('hearts.match.v1', '{"kept": true}'); localStorage.setItem('hearts.stats.v1', '{"played": 4}');
        localStorage.setItem('not.ours', 'stays'); }""")
    page.goto(base + "/", wait_until="commit")
    guard = page.locator("#boot-guard")
    expect(guard).to_contain_text("could not start", timeout=60_000)
    assert guard.get_attribute("data-kind") == "dead"
    expect(guard).to_contain_text("Your saved game is kept unless you reset it.")
    shot(page, "reliability-boot-guard-dead-en")
    guard.locator('[data-guard="reset"]').click()
    expect(guard).to_contain_text("First a file")
    with page.expect_download() as info:
        guard.locator('[data-guard="confirm-reset"]').click()
    data = json.loads(Path(info.value.path()).read_text())
    assert data["format"] == "hearts-export" and data["data"] == {
        "hearts.match.v1": '{"kept": true}',
        "hearts.stats.v1": '{"played": 4}',
    }
    page.wait_for_load_state()
    page.wait_for_function(
        "() => !localStorage.getItem('hearts.match.v1') && localStorage.getItem('not.ours') === 'stays'"
    )


@pytest.mark.locale("de-DE")
@pytest.mark.context(service_workers="block", viewport={"width": 390, "height": 844})
def test_the_boot_guard_speaks_up_when_the_start_takes_too_long(
    page: Page, held_site: Callable[[str], tuple[str, threading.Event]]
) -> None:
    base, release = held_site(r"\.wasm$")  # the game's worker asks for Python's wasm: no answer yet
    page.add_init_script("window.HEARTS_BOOT_TIMEOUT_MS = 1500")
    page.goto(base + "/", wait_until="commit")
    guard = page.locator("#boot-guard")
    expect(guard).to_contain_text("nicht gestartet", timeout=20_000)
    assert guard.get_attribute("data-kind") == "slow"
    expect(guard).not_to_contain_text("gespeichertes Spiel")  # a first visit: nothing is saved
    shot(page, "reliability-boot-guard-slow-de-phone")
    expect(guard.locator('[data-guard="retry"]')).to_have_text("Erneut versuchen")
    with page.expect_navigation(wait_until="commit"):  # "Try again" reloads: still stuck, it speaks up again
        guard.locator('[data-guard="retry"]').click()
    expect(guard).to_contain_text("nicht gestartet", timeout=20_000)
    release.set()  # the download comes through after all
    page.wait_for_selector("html.ready", state="attached", timeout=READY_TIMEOUT_MS)
    expect(guard).to_have_count(0)  # a game that starts after all sends the guard away
