#!/usr/bin/env python3
"""The hand review in the real game page (headless Chromium, Pyodide): how long until the first
verdicts and the first flag appear, how long the whole hand takes, and the main-thread long tasks
while it runs.

    .venv/bin/python -m lab.browser.review [--hands 5] [--seed review-bench]

Not a test (targets: first flags within 2 s, whole hand within 15 s, no task over 50 ms).
Serves the built ``dist/`` (run ``python3 tools/build.py`` first) with the headers of netlify.toml.
For each hand: a seeded match (a new seed per hand), the player passes the three lowest cards and
plays the highest legal card every turn (a hand with mistakes to find), then opens the review from
the hand summary. Times run from the click on "Review" to the first rendered verdict, the first
``[data-review-flag]`` and ``[data-review-status=done]``; long tasks (> 50 ms) are recorded with a
PerformanceObserver from the click until done. Prints a table and the medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypedDict

from tools import serve
from tools.chromium import launch_options

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parents[2]

RANKS = "23456789TJQKA"
WATCH = """() => {
  window.__reviewBench = {t0: performance.now(), first: null, flag: null, done: null, long: []};
  const b = window.__reviewBench;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.startTime >= b.t0 && b.done === null) b.long.push(e.duration);
  }).observe({type: "longtask"});
  const check = () => {
    const now = performance.now();
    if (b.first === null && document.querySelector("[data-review-count]:not([data-review-count='0'])")) b.first = now;
    if (b.flag === null && document.querySelector("[data-review-flag]")) b.flag = now;
    if (b.done === null && document.querySelector("[data-review-status='done']")) { b.done = now; return; }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}"""


class Review(TypedDict):
    """One hand's review: from the click on "Review", the first verdict, the first flag (None:
    none) and the whole hand (ms); the long tasks meanwhile (ms) and the flags' costs."""

    seed: str
    first_ms: float | None
    flag_ms: float | None
    done_ms: float
    long: list[float]
    flags: list[float]


def play_badly(page: Page) -> None:
    for _ in range(20):
        page.wait_for_selector(
            "#hand button[data-card]:not([aria-disabled='true']), dialog[open], #pass-btn:not([hidden])", timeout=60_000
        )
        if page.query_selector("dialog[open]"):
            return
        if page.query_selector("#pass-btn:not([hidden])"):
            cards = page.eval_on_selector_all("#hand button[data-card]", "els => els.map(e => e.dataset.card)")
            for card in sorted(cards, key=lambda c: RANKS.index(c[0]))[:3]:
                page.click(f'#hand button[data-card="{card}"]')
            page.click("#pass-btn")
            page.wait_for_selector("#pass-btn", state="hidden")
            continue
        cards = page.eval_on_selector_all(
            "#hand button[data-card]:not([aria-disabled='true'])", "els => els.map(e => e.dataset.card)"
        )
        card = max(cards, key=lambda c: RANKS.index(c[0]))
        page.click(f'#hand button[data-card="{card}"]')
        page.wait_for_selector(f'#hand button[data-card="{card}"]', state="detached")
    page.wait_for_selector("dialog[open]", timeout=60_000)


def review_once(browser: Browser, url: str, seed: str) -> Review:
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.add_init_script(
            "localStorage.setItem('hearts.settings.v1', JSON.stringify("
            "{difficulty: 'easy', lang: 'en', autoplay: false}))"
        )
        page.goto(f"{url}/?speed=instant&seed={seed}")
        page.wait_for_selector("html.ready", state="attached", timeout=120_000)
        play_badly(page)
        page.evaluate(WATCH)
        page.click("dialog[open] [data-action='review']")
        page.wait_for_selector("[data-review-status='done']", state="attached", timeout=300_000)
        time.sleep(0.2)
        b = page.evaluate("window.__reviewBench")
        flags = page.eval_on_selector_all("[data-review-flag]", "els => els.map(e => +e.dataset.cost)")

        def ms(key: str) -> float | None:
            """The time of the page's mark ``key`` since the click, None if it never came."""
            mark: float | None = b[key]
            return None if mark is None else mark - b["t0"]

        done = ms("done")
        if done is None:  # the page showed the review done, but its watch never saw it
            raise RuntimeError(f"{seed}: the review's end was not timed")
        return {
            "seed": seed,
            "first_ms": ms("first"),
            "flag_ms": ms("flag"),
            "done_ms": done,
            "long": b["long"],
            "flags": flags,
        }
    finally:
        context.close()


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--seed", default="review-bench")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    if not (args.dist / "index.html").is_file():
        print(f"{args.dist} has no index.html: run python3 tools/build.py first", file=sys.stderr)
        return 2

    from playwright.sync_api import sync_playwright

    server = serve.start_server(args.dist)
    rows: list[Review] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**launch_options())
            try:
                print(f"Chromium {browser.version}, load {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
                review_once(browser, server.url, f"{args.seed}-warmup")  # V8 tiers the wasm up first
                for i in range(args.hands):
                    rows.append(review_once(browser, server.url, f"{args.seed}-{i}"))
                    r = rows[-1]
                    print(
                        f"hand {i}: first verdict {r['first_ms'] or 0:7.0f} ms  first flag "
                        f"{(r['flag_ms'] or float('nan')):7.0f} ms  whole hand {r['done_ms']:7.0f} ms  "
                        f"flags {len(r['flags'])} {[f'{c:.1f}' for c in r['flags']]}  long tasks "
                        f"{len(r['long'])} (longest {max(r['long'], default=0):.0f} ms)"
                    )
            finally:
                browser.close()
    finally:
        server.stop()

    def med(key: Literal["first_ms", "flag_ms", "done_ms"]) -> float:
        values = [v for v in (r[key] for r in rows) if v is not None]
        return statistics.median(values) if values else float("nan")

    longs = [d for r in rows for d in r["long"]]
    print(
        f"\nmedian over {len(rows)} hands: first verdict {med('first_ms'):.0f} ms, first flag {med('flag_ms'):.0f} ms "
        f"({sum(1 for r in rows if r['flag_ms'] is not None)}/{len(rows)} hands flagged), "
        f"whole hand {med('done_ms'):.0f} ms (max {max(r['done_ms'] for r in rows):.0f})"
    )
    print(f"long tasks during the reviews: {len(longs)}, longest {max(longs, default=0):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
