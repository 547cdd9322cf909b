"""A corrupted-storage corpus against the real page.

Every run stores at least 100 variants in the five keys the game reads (hand-picked ones for
every key, plus JSON shapes made by hypothesis: any JSON, real values with one part replaced,
plain text), several keys per page load, and checks for each load:

* the page gets ready (no Python error, no boot guard, no console error), the statistics and daily
  panels open, and a card can be played;
* each loaded key's notice is the one the checked loaders (run here in CPython on the same value)
  say it must be: none for a good value, "repaired" or "replaced" otherwise, in the page's language;
* the notice is true: "kept as a backup" means that backup key holds the exact original, "replaced"
  means the original is gone from its key, no notice means the value was left as it was.

One warm page serves the whole corpus: the hand-picked values (and a few made by hypothesis) are
written before the page's scripts run and the game is opened (a real start, a few seconds each);
most hypothesis shapes are written by a second tab while the game runs, and "Continue here"
loads them in place (the path of a tab that another one wrote over), about a second each.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import Guard, wait_ready
from hearts_web.core import i18n
from hearts_web.data.registry import BY_KEY, DAILY, DAILY_GAME, MATCH, SETTINGS, STATS
from hearts_web.data.session import Mode, Pending, Session, SessionState, encode_save
from hearts_web.data.settings import Settings
from hearts_web.data.stats import Statistics
from hearts_web.data.store import MemoryStorage, Store
from helpers import step
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from strategies import json_paths
from ui_helpers import PLAYABLE, pass_three, press_continue

from hearts import Match, Rules
from hearts import Phase as GamePhase
from hearts.daily import daily_match
from hearts.tally import MatchTally

SETTINGS_KEY, MATCH_KEY, DAILY_GAME_KEY, DAILY_KEY, STATS_KEY = (
    SETTINGS.key,
    MATCH.key,
    DAILY_GAME.key,
    DAILY.key,
    STATS.key,
)
DAILY_DATE = "2026-11-29"
PATH = f"/?speed=instant&daily={DAILY_DATE}"  # the daily game first, then "Back to the match"
AT_START = (SETTINGS_KEY, STATS_KEY, DAILY_KEY, DAILY_GAME_KEY)  # read when the page starts on a daily link
KEYS = (*AT_START, MATCH_KEY)  # the match is read when the player goes back to it
DEEP = "[" * 10_000 + "]" * 10_000
MIN_VARIANTS = 100
HYPOTHESIS_LOADS = 2
HYPOTHESIS_RESTARTS = 12
seen: dict[tuple[str, str], str] = {}  # (key, value) -> what the page had to say, for this run


# ------------------------------------------------------------------ real values and hand-picked variants
def _real() -> dict[str, dict[str, Any]]:
    match = Match(Rules(), "corpus")
    rng = random.Random(5)
    while len(match.hand.plays) < 9:
        step(match, rng)
    done = Match(Rules(), "corpus-2")
    while done.phase is not GamePhase.HAND_OVER:
        step(done, rng)
    daily = daily_match(DAILY_DATE)
    return {
        SETTINGS_KEY: Settings(difficulty="easy").to_dict(),
        MATCH_KEY: encode_save(Session(match, SessionState(difficulty="easy"))),
        DAILY_GAME_KEY: encode_save(Session(daily, SessionState(mode=Mode.DAILY, date=DAILY_DATE, practice=True))),
        DAILY_KEY: {
            "results": {
                "2026-11-28": {"date": "2026-11-28", "points": 3, "par": 5, "markers": ["none"] * 13, "moon": False}
            },
            "attempts": {"2026-11-28": "started"},
            "par_ms": {},
        },
        STATS_KEY: _stats(),
        "_over": encode_save(
            Session(
                done,
                SessionState(pending=Pending(1, done.score_sheet[0].points[0], int(done.score_sheet[0].moon == 0))),
            )
        ),
    }


def _stats() -> dict[str, Any]:
    """Statistics as the game stores them: two levels, an online match, version 1's counters."""
    stats = Statistics.decode({"played": 3, "won": 1, "hands": 20, "points": 140, "moons": 1}).value
    stats.record(MatchTally(6, 40, 0, 1, 2, False, False, 2), "easy", "king", "2026-11-27", online=False)
    stats.record(MatchTally(8, 35, 1, 0, 1, True, False, 1), "hard", "standard", "2026-11-28", online=False)
    stats.record(MatchTally(5, 30, 0, 0, None, True, True, 1), "medium", "classic", "2026-11-28", online=True)
    return stats.to_dict()


REAL = _real()


def _with(key: str, change: Any) -> str:
    value = json.loads(json.dumps(REAL[key]))
    change(value)
    return json.dumps(value)


HAND_PICKED: dict[str, list[str]] = {
    SETTINGS_KEY: [
        DEEP,
        '{"lang": "de", "difficulty": ',
        "[]",
        '{"difficulty": "godlike"}',
        '{"lang": 5, "speed": "warp", "look": null}',
        '{"rules": {"target": -5, "bogus": 1}, "difficulty": "easy"}',
        json.dumps({"lang": "x" * 30_000}),
        '{"lang": "\\ud800"}',
        "\ud800",
        '{"difficulty": "easy", "extra": {}}',
        '{"rules": {"pass_cycle": [], "moon": {"a": 1}}}',
        '{"difficulty": "easy", "lang": ""}',
    ],
    STATS_KEY: [
        DEEP,
        '{"played": Infinity, "won": 1}',
        "[1, 2, 3]",
        '{"played": 2, "won": 7}',
        "null",
        '{"played": 5, "won": 2, "hands": 40, "points": 300, "moons": 0}',  # version 1: read as it is
        json.dumps(REAL[STATS_KEY]),
        _with(STATS_KEY, lambda v: v["history"][1].update(place=9)),
        _with(STATS_KEY, lambda v: v.update(history={"2026-11-28": 1})),
        _with(STATS_KEY, lambda v: v.update(v=3)),
        _with(STATS_KEY, lambda v: v["levels"].update(godlike={}, easy={"king": {"matches": 3, "won": 9, "hands": 2}})),
        _with(STATS_KEY, lambda v: v.update(history=v["history"] * 20)),
    ],
    DAILY_KEY: [
        DEEP,
        '{"results": [1, 2]}',
        '{"results": {"yesterday": {"points": 1}}}',
        '{"results": {"2026-11-28": {"date": "2026-11-27", "points": 3, "par": 5, "markers": []}}}',
        '{"results": {"2026-11-28": {"date": "2026-11-28", "points": 1e999, "par": "5", "markers": "none"}}}',
        '{"attempts": ["2026-11-29"]}',
        '{"par_ms": {"2026-11-29": "slow"}, "results": {}}',
        "true",
        '{"results": {',
        '{"results": {"2026-02-30": {"date": "2026-02-30", "points": 1, "par": 1, "markers": []}}}',
        '{"results": {}, "attempts": {}, "par_ms": {}, "extra": 1}',
        '{"results": {"2026-11-28": {"date": "2026-11-28", "points": 3, "par": 5, "markers": ["none", "spades"]}}}',
    ],
    MATCH_KEY: [
        DEEP,
        _with(MATCH_KEY, lambda v: v["session"].update(difficulty="godlike")),
        _with(MATCH_KEY, lambda v: v["session"].update(difficulty=123)),
        _with(MATCH_KEY, lambda v: v["session"].update(pending={"hands": "2", "points": [1]})),
        _with(MATCH_KEY, lambda v: v["session"].update(practice="yes", counted=None)),
        _with(MATCH_KEY, lambda v: v["record"]["hands"][0].update(plays=["AH", "AH"])),
        _with(MATCH_KEY, lambda v: v["record"].update(seed="\ud800")),
        _with(MATCH_KEY, lambda v: v.update(v=3)),
        _with(MATCH_KEY, lambda v: v["session"].update(mode="daily", date="2026-02-30")),
        json.dumps(REAL[MATCH_KEY])[:-40],
        '{"v": 1, "meta": {"summary": "x"}, "record": 7}',
        json.dumps(REAL["_over"]),
    ],
    DAILY_GAME_KEY: [
        DEEP,
        _with(DAILY_GAME_KEY, lambda v: v["session"].update(date="tomorrow")),
        _with(DAILY_GAME_KEY, lambda v: v["session"].update(difficulty=[], practice=0)),
        _with(DAILY_GAME_KEY, lambda v: v["record"].update(max_hands=13)),
        _with(DAILY_GAME_KEY, lambda v: v["session"].update(mode="match")),
        "{}",
        '{"v": 2}',
        json.dumps(REAL[DAILY_GAME_KEY])[:100],
        "[" * 33 + "]" * 33,
        '{"v": 2, "record": {"format": "hearts-match"}, "session": {"mode": "daily", "date": "2026-11-29"}}',
        _with(DAILY_GAME_KEY, lambda v: v["session"].update(pending={"hands": -1e9})),
        _with(DAILY_GAME_KEY, lambda v: v["record"]["hands"][0].update(passes={"south": ["2C"]})),
    ],
}


def _hand_picked_loads() -> list[dict[str, str]]:
    """Every hand-picked value at least once; each load carries one for every key."""
    n = max(len(v) for v in HAND_PICKED.values())
    return [{key: HAND_PICKED[key][i % len(HAND_PICKED[key])] for key in KEYS} for i in range(n)]


# ------------------------------------------------------------------ what the checked loaders say (CPython)
def expected(key: str, raw: str) -> str:
    """ "ok", "repaired" or "replaced": what the game must report for ``raw`` under ``key`` (its
    kind in the registry, checked here in CPython)."""
    notice = BY_KEY[key].check(Store(MemoryStorage({key: raw})), "easy")[1]
    return notice.kind if notice is not None else "ok"


# ------------------------------------------------------------------ the warm page
@pytest.fixture(scope="module")
def warm(browser: Browser, base_url: str) -> Iterator[tuple[Page, Guard]]:
    context = browser.new_context(base_url=base_url, locale="en-US")
    guard = Guard()
    guard.watch(context, route=False)  # no routing: it would switch the HTTP cache off
    guard.allow(r"favicon\.ico")  # asked for by the helper tab's JSON page
    # The next load's values wait in sessionStorage and are written before any script of the
    # page runs: the page that is left cannot write anything in between.
    context.add_init_script("""(() => { let next = null; try { next = sessionStorage.getItem("corpus-next"); } catch (e) { return; }
        if (next === null) return;
        sessionStorage.removeItem("corpus-next"); localStorage.clear();
        for (const [k, v] of JSON.parse(next)) localStorage.setItem(k, v); })()""")
    page = context.new_page()
    page.goto("/?speed=instant", wait_until="commit")
    wait_ready(page)
    yield page, guard
    context.close()


NOTICES = """() => Object.fromEntries([...document.querySelectorAll('#notices [data-notice-key]')]
    .map(n => [n.dataset.noticeKey, {kind: n.dataset.noticeKind, backup: n.dataset.noticeBackup, text: n.textContent}]))"""
STORAGE = "() => Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))"
CARD = "() => (document.querySelector('#notices [data-notice=stored]') || {}).textContent || ''"


def load(page: Page, values: dict[str, str]) -> None:
    page.evaluate("(entries) => sessionStorage.setItem('corpus-next', JSON.stringify(entries))", list(values.items()))
    page.goto(PATH, wait_until="commit")
    wait_ready(page)


def play_a_card(page: Page) -> None:
    for _ in range(40):
        settle(page)  # hand summary, match over: go on
        if page.query_selector("#pass-btn:not([hidden])"):
            pass_three(page)
            continue
        found = page.wait_for_selector(PLAYABLE)  # (the game's answer may still be on its way)
        card = found.get_attribute("data-card") if found else None
        page.click(f'#hand button[data-card="{card}"]')
        page.wait_for_selector(f'#hand button[data-card="{card}"]', state="detached")
        return
    raise AssertionError("no card could be played")


def check_notices(page: Page, keys: tuple[str, ...], values: dict[str, str]) -> None:
    """The notices for ``keys`` are the ones the checked loaders give, and they are true."""
    i18n.set_lang(page.evaluate("document.documentElement.lang"))
    notices, stored, card = page.evaluate(NOTICES), page.evaluate(STORAGE), page.evaluate(CARD)
    for key in keys:
        raw = values.get(key)
        want = "ok" if raw is None else expected(key, raw)
        if raw is not None:
            seen[(key, raw)] = want
        got = notices.get(key)
        where = f"{key} = {raw[:120] if raw else raw!r}"
        if want == "ok":
            assert got is None, f"a notice for a good value: {where}: {got}"
            if key in (SETTINGS_KEY, STATS_KEY) and raw is not None:
                assert stored.get(key) == raw, f"a good value was changed: {where}"
            continue
        assert got is not None and got["kind"] == want, f"expected {want}, the page said {got}: {where}"
        assert got["text"].startswith(i18n.t(f"n_{BY_KEY[key].what}_{want}")), got["text"]
        assert got["backup"] and stored.get(got["backup"]) == raw, f"'kept as a backup' is not true: {where}"
        assert i18n.t("n_backup_kept")[:20] in card or i18n.t("n_backups_kept")[:20] in card, card
        if want == "replaced":
            assert stored.get(key) != raw, f"'replaced' but still there: {where}"
        if stored.get(key) is not None:
            assert expected(key, stored[key]) == "ok", f"what is stored now is not clean: {where}"
    assert set(notices) <= set(keys) | {MATCH_KEY}, notices


def close_dialogs(page: Page) -> None:
    while page.query_selector("dialog[open]"):
        press_continue(page, ".dlg-actions .primary")


def settle(page: Page) -> None:
    """Close the dialogs until the table waits for the player (a card to play or the pass): the
    game tab then writes nothing. A write of its own racing the helper's (the next trick or hand
    saved just after "go on") would win in the shared storage, and this tab would never see
    the helper's value (measured: 11 of 25 such races)."""
    while True:
        page.wait_for_selector(f"{PLAYABLE}, dialog[open], #pass-btn:not([hidden])", timeout=30_000)
        if not page.query_selector("dialog[open]"):
            return
        press_continue(page, ".dlg-actions .primary")


# Records the game tab's storage writes and removals, and whether the "open in another tab"
# overlay was up at the time (installed again after each start of the page).
WATCH_WRITES = """() => {
  if (!window.__writes) {
    window.__writes = [];
    const covered = () => { const o = document.getElementById('tab-overlay'); return !!o && !o.hidden; };
    const set = Storage.prototype.setItem, remove = Storage.prototype.removeItem;
    Storage.prototype.setItem = function (k, v) { window.__writes.push([k, covered()]); return set.call(this, k, v); };
    Storage.prototype.removeItem = function (k) { window.__writes.push([k, covered()]); return remove.call(this, k); };
  }
  window.__writes.length = 0;
}"""


def check(page: Page, guard: Guard, values: dict[str, str], helper: Page | None = None) -> None:
    """Store ``values`` and check the game with them: through a real start of the page, or (with a
    ``helper`` tab that writes them while the game runs) through "Continue here" in place."""
    if helper is None:
        load(page, values)
        assert not page.query_selector("#boot-guard") and page.is_hidden("#fatal"), "the page did not start cleanly"
    else:
        settle(page)
        page.evaluate(WATCH_WRITES)
        page.evaluate(f"history.replaceState(null, '', {json.dumps(PATH)})")  # as if on the daily link
        entries = list(values.items())
        helper.evaluate(
            "(entries) => { localStorage.clear(); for (const [k, v] of entries) localStorage.setItem(k, v); }", entries
        )
        page.wait_for_selector("#tab-overlay:not([hidden])")
        # The overlay comes with the first storage event; this tab's copy of localStorage gets the
        # helper's later writes a moment after (Chromium syncs it between renderers): a player
        # never clicks within those milliseconds, so wait until every value has arrived here.
        # A write of the game's own that was under way when the helper wrote (before this tab
        # heard of it) can land last and win (seen about once in ten runs of this file): the helper then
        # writes again, as another tab would. A write of the game's once the overlay is up is a
        # bug: the game must stop writing as soon as another tab has written.
        arrived = "(entries) => entries.every(([k, v]) => localStorage.getItem(k) === v)"
        for attempt in range(3):
            try:
                page.wait_for_function(arrived, arg=entries, timeout=5_000)
                break
            except PlaywrightTimeout:
                differ = page.evaluate(
                    "(entries) => entries.filter(([k, v]) => localStorage.getItem(k) !== v)"
                    ".map(([k, v]) => [k, localStorage.getItem(k)])",
                    entries,
                )
                assert attempt < 2, f"the helper's values never reached the game tab; here instead: {differ}"
                helper.evaluate("(entries) => { for (const [k, v] of entries) localStorage.setItem(k, v); }", entries)
        late = page.evaluate("() => window.__writes.filter(([key, covered]) => covered).map(([key]) => key)")
        assert not late, f"the game tab wrote {late} after another tab's write had stopped it"
        page.click('#tab-overlay [data-action="tab-continue"]')
        page.wait_for_selector("#tab-overlay", state="hidden")
    page.wait_for_function(f"() => document.documentElement.dataset.dailyDate === {json.dumps(DAILY_DATE)}")
    check_notices(page, AT_START, values)
    play_a_card(page)  # in the daily game
    close_dialogs(page)
    page.click('.tool[data-action="new-match"]')  # "Back to the match": now the match is read
    page.wait_for_function("() => !document.documentElement.dataset.dailyDate")
    check_notices(page, KEYS, values)
    play_a_card(page)
    open_panels(page)
    guard.check()


def open_panels(page: Page) -> None:
    for name in ("stats", "daily"):  # the panels open on whatever was stored
        close_dialogs(page)
        page.click(f'.tool[data-action="{name}"]')
        page.wait_for_selector("dialog[open]")
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog[open]", state="detached")
    assert page.is_hidden("#fatal")


# ------------------------------------------------------------------ the corpus
HAND_LOADS = _hand_picked_loads()
AT_A_REAL_START = 4  # the first rows (nesting 10,000 deep in every key among them) by a fresh start


@pytest.mark.parametrize("values", HAND_LOADS, ids=[f"row{i}" for i in range(len(HAND_LOADS))])
def test_hand_picked_values_in_every_key(warm: tuple[Page, Guard], helper: Page, values: dict[str, str]) -> None:
    row = HAND_LOADS.index(values)
    check(*warm, values, helper=None if row < AT_A_REAL_START else helper)


@pytest.fixture(scope="module")
def helper(warm: tuple[Page, Guard]) -> Page:
    """A second tab of the same site, which writes the storage while the game runs."""
    page = warm[0].context.new_page()
    page.goto("/build-info.json")
    warm[0].bring_to_front()  # a tab in the background has its timers throttled: the game would crawl
    return page


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["\ud800", "hard", "de", DAILY_DATE, "AH", "hearts-match", "daily"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=15,
)


@st.composite
def shapes(draw: st.DrawFn, key: str) -> str:
    kind = draw(st.sampled_from(["mutate", "mutate", "mutate", "any", "text"]))
    if kind == "text":
        return draw(st.text(max_size=30))
    if kind == "any":
        return json.dumps(draw(json_values))
    value = json.loads(json.dumps(REAL[key]))
    path = draw(st.sampled_from(json_paths(value)[1:]))
    target = value
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = draw(json_values)
    return json.dumps(value)


@settings(
    max_examples=HYPOTHESIS_LOADS,
    deadline=None,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_hypothesis_made_shapes_at_start(warm: tuple[Page, Guard], data: st.DataObject) -> None:
    check(*warm, {key: data.draw(shapes(key), label=key) for key in KEYS})


@settings(
    max_examples=HYPOTHESIS_RESTARTS,
    deadline=None,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_hypothesis_made_shapes_written_by_another_tab(
    warm: tuple[Page, Guard], helper: Page, data: st.DataObject
) -> None:
    check(*warm, {key: data.draw(shapes(key), label=key) for key in KEYS}, helper=helper)


def test_the_corpus_had_enough_variants() -> None:
    """Runs last (file order): counts what the two tests above stored and checked."""
    assert len(seen) >= MIN_VARIANTS, f"only {len(seen)} stored values were checked"
    bad = {k: v for k, v in seen.items() if v != "ok"}
    for key in (SETTINGS_KEY, STATS_KEY, DAILY_KEY, MATCH_KEY, DAILY_GAME_KEY):
        assert any(k == key for k, _ in bad), f"no bad value was checked under {key}"
    counts = {want: sum(1 for v in seen.values() if v == want) for want in ("ok", "repaired", "replaced")}
    print(f"\ncorpus: {len(seen)} stored values checked ({counts})")
