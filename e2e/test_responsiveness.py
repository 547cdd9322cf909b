"""No main-thread task longer than 200 ms during a hand on Hard (Long Tasks API), and Hard thinking
in its Web Worker (web/runtime/bot-worker.mjs) with the page as the fallback.

The tests print the longest task. By default they only fail on a real freeze (over 1 s), so a
loaded CI machine cannot make them flaky; the 200 ms target is checked in benchmark mode:

    HEARTS_LONGTASK_LIMIT_MS=200 .venv/bin/python -m pytest e2e/test_responsiveness.py -s
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from conftest import Guard
from playwright.sync_api import Page
from ui_helpers import open_game, pass_three, play_until_dialog

OBSERVER = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longtasks.push({start: e.startTime, duration: e.duration});
}).observe({type: "longtask", buffered: true});
"""
TARGET_MS = 200  # the product target, met in benchmark mode
LIMIT_MS = int(os.environ.get("HEARTS_LONGTASK_LIMIT_MS", "1000"))


def test_no_long_tasks_during_a_hand_on_hard(page: Page) -> None:
    page.add_init_script(OBSERVER)
    # normal speed: the player's pace; the bots think while cards fly
    open_game(page, "/?speed=fast&seed=e2e-bench", difficulty="hard")
    ready_at = page.evaluate("performance.now()")
    play_until_dialog(page)
    tasks = page.evaluate("window.__longtasks")
    after = [t for t in tasks if t["start"] > ready_at]
    longest = max((t["duration"] for t in after), default=0.0)
    startup = max((t["duration"] for t in tasks if t["start"] <= ready_at), default=0.0)
    print(
        f"\nHard hand: {len(after)} long tasks after start-up, longest {longest:.0f} ms "
        f"(start-up's longest {startup:.0f} ms; target {TARGET_MS} ms)"
    )
    assert longest <= LIMIT_MS, sorted(after, key=lambda t: -t["duration"])[:5]


def test_no_long_tasks_while_the_daily_par_is_computed_and_a_hint_runs(page: Page) -> None:
    page.add_init_script(OBSERVER)
    open_game(page, "/?daily=2026-11-28&speed=fast")
    ready_at = page.evaluate("performance.now()")
    page.wait_for_function("() => document.documentElement.dataset.dailyPar !== undefined", timeout=60_000)
    page.click("[data-action='hint']")
    page.wait_for_selector("#hand .card.hinted")
    tasks = page.evaluate("window.__longtasks")
    after = [t for t in tasks if t["start"] > ready_at]
    longest = max((t["duration"] for t in after), default=0.0)
    print(f"\npar + hint: {len(after)} long tasks after start-up, longest {longest:.0f} ms (target {TARGET_MS} ms)")
    assert longest <= LIMIT_MS, sorted(after, key=lambda t: -t["duration"])[:5]


# ------------------------------------------------------------------ Hard's Web Worker
WORKER_STATE = "() => document.documentElement.dataset.botWorker"


def test_hard_thinks_in_its_worker_while_the_player_plays(page: Page) -> None:
    """The shipped game: Hard's passes and plays are decided in web/runtime/bot-worker.mjs, not on the page."""
    page.add_init_script(OBSERVER)
    open_game(page, "/?speed=instant&seed=e2e-worker", difficulty="hard")
    ready_at = page.evaluate("performance.now()")
    page.wait_for_function(f"() => ({WORKER_STATE})() === 'ready'", timeout=60_000)
    play_until_dialog(page)
    answered = int(page.evaluate("() => document.documentElement.dataset.botWorkerAnswers"))
    assert answered == 3 + 3 * 13  # three passes and 39 plays, every one of them in the worker
    trips = page.evaluate("() => performance.getEntriesByName('hearts-bot-worker').map(e => e.detail)")
    assert len(trips) == answered
    # each measure says what it answered: the passes (3 cards, from 13 held) and every play's cards held
    assert sorted((t["cards"], t["held"]) for t in trips) == sorted(
        [(3, 13)] * 3 + [(1, held) for held in range(1, 14)] * 3
    )
    after = [t for t in page.evaluate("window.__longtasks") if t["start"] > ready_at]
    longest = max((t["duration"] for t in after), default=0.0)
    print(f"\nHard in its worker: {len(after)} long tasks after start-up, longest {longest:.0f} ms")
    assert longest <= LIMIT_MS, sorted(after, key=lambda t: -t["duration"])[:5]


PASS_TRIPS = """() => performance.getEntriesByName('hearts-bot-worker')
    .filter(e => e.detail && e.detail.cards === 3).map(e => ({start: e.startTime, end: e.startTime + e.duration,
    worlds: e.detail.worlds}))"""


def test_hards_passes_think_while_the_player_chooses_and_stop_when_the_player_passes(page: Page) -> None:
    """The bots' passes search up to 2.5 s each while the person picks (three, one after another:
    7.5 s); the person's pass hurries them: the hand goes on within the old 3 x 500 ms."""
    open_game(page, "/?speed=instant&seed=e2e-worker-pass", difficulty="hard")
    page.wait_for_function(f"() => ({WORKER_STATE})() === 'ready'", timeout=60_000)
    page.wait_for_selector("#pass-btn:not([hidden])")
    page.wait_for_timeout(3_500)  # the person takes a while: the first bot's pass has its whole time
    clicked = page.evaluate("performance.now()")
    pass_three(page)
    page.wait_for_function(f"() => ({PASS_TRIPS})().length === 3", timeout=30_000)
    trips = page.evaluate(PASS_TRIPS)
    first = min(trips, key=lambda t: t["end"])
    last = max(t["end"] for t in trips)
    print(
        f"\npasses: {[(round(t['end'] - t['start']), t['worlds']) for t in trips]} (ms, worlds); "
        f"the last {last - clicked:.0f} ms after the click"
    )
    assert first["end"] - first["start"] >= 2_000  # it thought far longer than the old 500 ms
    assert last - clicked <= 2_500  # ... and the rest stopped once the person had passed


def test_without_its_worker_hard_still_plays_on_the_page(
    page: Page, page_guard: Guard, altered_site: Callable[[Callable[[Path], None]], str]
) -> None:
    """A worker that cannot load (here: its script is missing) never stops the game: Hard thinks
    in the game's worker then."""
    page_guard.allow(r"404|bot-worker")  # the missing script, as the browser reports it
    base = altered_site(lambda site: (site / "runtime" / "bot-worker.mjs").unlink())
    open_game(page, base + "/?speed=instant&seed=e2e-worker", difficulty="hard")
    page.wait_for_function(f"() => ({WORKER_STATE})() === 'failed'", timeout=60_000)
    play_until_dialog(page)
    assert page.evaluate("() => document.documentElement.dataset.botWorkerAnswers") == "0"
    assert page.locator("dialog[open]").count() == 1


def test_easy_and_medium_start_no_worker(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-worker", difficulty="medium")
    play_first_trick = page.locator("#pass-btn:not([hidden])")
    play_first_trick.wait_for()
    assert page.evaluate(WORKER_STATE) is None
