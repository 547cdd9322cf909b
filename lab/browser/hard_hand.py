#!/usr/bin/env python3
"""Hard hands in the real game page: main-thread long tasks with the bots' Web Worker and without.

    .venv/bin/python -m lab.browser.hard_hand [--hands 3] [--speed fast] [--modes worker,page] [--throttle 4]
                                               [--pass-after 6]

Not a test. Serves ``dist/`` (run ``tools/build.py`` first) with the headers of netlify.toml,
opens the game in headless Chromium with the difficulty on Hard and plays ``--hands`` hands like
a player (the highest three cards passed, the first playable card played), in each mode:

* ``worker``: the game as shipped: Hard thinks in ``web/runtime/bot-worker.mjs`` (its own Pyodide);
* ``page``: ``?worker=off``: Hard thinks on the page in 30 ms slices, as before the worker.

Reports, per mode: the worker's start-up, each bot decision's round trip (the page's
``hearts-bot-worker`` performance measures: the search plus messaging), and every main-thread
task over 50 ms (Long Tasks API) from the moment the game is ready, with its length. The
player's own clicks and the table's animations run in the same page, so what is counted is all
the page does during Hard hands. ``--throttle 4`` slows the page's main thread down like a phone
(Chromium's CPU throttling; the worker runs at full speed). ``--json FILE`` also writes the figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from tools import serve
from tools.chromium import launch_options

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parents[2]

OBSERVER = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longtasks.push({start: e.startTime, duration: e.duration});
}).observe({type: "longtask", buffered: true});
window.__frames = [];
try {  // Long Animation Frames: which scripts ran in a long frame (Chromium 123+)
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__frames.push({start: e.startTime, duration: e.duration,
      blocking: e.blockingDuration, render: e.renderStart ? e.startTime + e.duration - e.renderStart : 0,
      scripts: e.scripts.map((s) => ({invoker: s.invoker, ms: s.duration, fn: s.sourceFunctionName}))});
  }).observe({type: "long-animation-frame", buffered: true});
} catch (e) {}
"""
PLAYABLE = "#hand button[data-card]:not([aria-disabled='true'])"


class Script(TypedDict):
    """A script that ran in a long animation frame (OBSERVER's ``scripts``)."""

    invoker: str
    ms: float
    fn: str


class Frame(TypedDict):
    """A long animation frame (OBSERVER's ``__frames``): its start and length, the time it blocked
    input and the time it spent rendering (ms), and its scripts."""

    start: float
    duration: float
    blocking: float
    render: float
    scripts: list[Script]


class ModeResult(TypedDict):
    """What :func:`run_mode` measured in one mode (times in ms but ``ready_s`` and ``seconds``)."""

    mode: str
    ready_s: float  # the page's start-up
    worker_start_ms: float | None  # the worker's, after the page's (None: the page mode)
    played: int  # cards the player played
    seconds: float  # the hands' wall time
    long_tasks: list[float]  # main-thread tasks over 50 ms after the page was ready
    long_tasks_in_hands: list[float]  # ... from the first card on
    blocking_frames: list[Frame]
    decisions_ms: list[float]  # every bot decision's round trip
    play_worlds: list[int]  # worlds per searched play
    pass_worlds: list[int]  # ... per searched pass
    held_worlds: list[list[int]]  # [cards the bot held, worlds] per searched play
    pass_waits_ms: list[float]  # after each pass of the player's, the wait for the bots' passes
    worker_state: str | None  # the page's data-bot-worker
    worker_answers: str | None  # the page's data-bot-worker-answers


def play_hands(
    page: Page, hands: int, timeout: float, pass_after: float = 0.0, clicks: list[float] | None = None
) -> int:
    """Play until ``hands`` hand summaries have been shown; returns the cards played here. Each pass
    is pressed ``pass_after`` seconds after it was offered; ``clicks`` gets, per pass, the time it
    was offered and the time it was pressed (ms, performance.now)."""
    played = 0
    for _ in range(hands):
        while True:
            page.wait_for_selector(f"{PLAYABLE}, dialog[open], #pass-btn:not([hidden])", timeout=timeout)
            if page.query_selector("dialog[open]"):
                break
            if page.query_selector("#pass-btn:not([hidden])"):
                if clicks is not None:
                    clicks.append(page.evaluate("() => performance.now()"))  # offered
                page.wait_for_timeout(pass_after * 1000)
                for card in page.eval_on_selector_all("#hand button[data-card]", "els => els.map(e => e.dataset.card)")[
                    -3:
                ]:
                    page.click(f'#hand button[data-card="{card}"]')
                if clicks is not None:
                    clicks.append(page.evaluate("() => performance.now()"))
                page.click("#pass-btn")
                page.wait_for_selector("#pass-btn", state="hidden")
                continue
            card = page.eval_on_selector(PLAYABLE, "e => e.dataset.card")
            page.click(f'#hand button[data-card="{card}"]')
            page.wait_for_selector(f'#hand button[data-card="{card}"]', state="detached")
            played += 1
        page.click("dialog[open] [data-action='continue']")
        page.wait_for_selector("dialog[open]", state="detached")
    return played


def run_mode(browser: Browser, url: str, mode: str, args: argparse.Namespace) -> ModeResult:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.on("pageerror", lambda e: print(f"[pageerror] {e}", file=sys.stderr))
    page.add_init_script(OBSERVER)
    if args.throttle > 1:  # a slower CPU for the page's main thread (a phone), as DevTools does it
        context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
    settings = json.dumps({"difficulty": "hard", "autoplay": False, "lang": "en"})
    page.add_init_script(f"localStorage.setItem('hearts.settings.v1', {json.dumps(settings)});")
    query = f"?speed={args.speed}&seed={args.seed}" + ("&worker=off" if mode == "page" else "")
    t0 = time.perf_counter()
    page.goto(url + query)
    page.wait_for_selector("html.ready", state="attached", timeout=120_000)
    ready_s = time.perf_counter() - t0
    ready_at = page.evaluate("() => performance.now()")
    worker_start: float | None = None
    if mode == "worker":
        page.wait_for_function(
            "() => ['ready', 'failed'].includes(document.documentElement.dataset.botWorker)", timeout=120_000
        )
        worker_start = page.evaluate("() => performance.now()") - ready_at
    t1 = time.perf_counter()
    play_at = page.evaluate("() => performance.now()")
    clicks: list[float] = []
    played = play_hands(page, args.hands, 120_000, args.pass_after, clicks)
    seconds = time.perf_counter() - t1
    tasks = [t for t in page.evaluate("() => window.__longtasks") if t["start"] > ready_at]
    frames: list[Frame] = [
        f for f in page.evaluate("() => window.__frames") if f["start"] > play_at and f["blocking"] > 0
    ]
    entries = page.evaluate(
        "() => performance.getEntriesByName('hearts-bot-worker')"
        ".map(m => ({ms: m.duration, start: m.startTime, end: m.startTime + m.duration, "
        "...(m.detail || {})}))"
    )
    # after each pass press: how long until the last of the bots' passes of that hand had come (0: they
    # were in); a hand's passes are the ones asked between its pass being offered (less 2 s) and pressed
    pass_waits: list[float] = []
    for offered, pressed in zip(clicks[::2], clicks[1::2]):
        ends = [e["end"] for e in entries if e.get("cards") == 3 and offered - 2000 <= e["start"] <= pressed]
        pass_waits.append(max(0.0, max(ends, default=pressed) - pressed))
    measures = [e["ms"] for e in entries]
    play_worlds = [e["worlds"] for e in entries if e.get("cards") == 1 and e.get("worlds")]
    pass_worlds = [e["worlds"] for e in entries if e.get("cards") == 3 and e.get("worlds")]
    # [cards the bot held, worlds] per searched play: the worlds a fixed time buys grow as the hand shortens
    held_worlds = [
        [e["held"], e["worlds"]] for e in entries if e.get("cards") == 1 and e.get("worlds") and e.get("held")
    ]
    marks = page.evaluate("() => ({...document.documentElement.dataset})")
    context.close()
    return {
        "mode": mode,
        "ready_s": ready_s,
        "worker_start_ms": worker_start,
        "played": played,
        "seconds": seconds,
        "long_tasks": [t["duration"] for t in tasks],
        "long_tasks_in_hands": [t["duration"] for t in tasks if t["start"] > play_at],
        "blocking_frames": frames,
        "decisions_ms": measures,
        "play_worlds": play_worlds,
        "pass_worlds": pass_worlds,
        "held_worlds": held_worlds,
        "pass_waits_ms": pass_waits,
        "worker_state": marks.get("botWorker"),
        "worker_answers": marks.get("botWorkerAnswers"),
    }


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def report(results: list[ModeResult], args: argparse.Namespace, version: str, load: str) -> str:
    from hearts_web.table.players import WORKER_BUDGET as B

    lines = [
        f"# python3 -m lab.browser.hard_hand --hands {args.hands} --speed {args.speed} --seed {args.seed} "
        f"--throttle {args.throttle:g} --pass-after {args.pass_after:g}",
        f"Chromium {version}; the game page (dist/), difficulty Hard (worker: {B['budget_ms']:g} ms a play, "
        f"a pass up to {B['pass_budget_ms']:g} ms while the player chooses, {B['hurry_ms']:g} ms once the "
        f"player has passed; page: 250 ms), {args.hands} hand(s) per mode played like a player who takes "
        f"{args.pass_after:g} s over a pass; main thread slowed {args.throttle:g}x; load average before: {load}",
        "",
    ]
    for r in results:
        tasks = r["long_tasks"]
        head = f"[{r['mode']}] page ready in {r['ready_s']:.1f} s"
        if r["worker_start_ms"] is not None:
            head += (
                f"; worker {r['worker_state']} {r['worker_start_ms']:.0f} ms after the page was ready, "
                f"{r['worker_answers']} decisions answered there"
            )
        lines.append(head)
        d = r["decisions_ms"]
        if d:
            lines.append(
                f"[{r['mode']}] bot decisions in the worker ({len(d)}): round trip median "
                f"{statistics.median(d):.0f} ms, p95 {pct(d, 0.95):.0f} ms, max {max(d):.0f} ms"
            )
        for kind, w in (("play", r["play_worlds"]), ("pass", r["pass_worlds"])):
            if w:
                lines.append(
                    f"[{r['mode']}] worlds per searched {kind} in the worker ({len(w)}): median "
                    f"{statistics.median(w):.0f}, min {min(w)}, max {max(w)}"
                )
        by_held: dict[int, list[int]] = {}
        for held, worlds in r["held_worlds"]:
            by_held.setdefault(held, []).append(worlds)
        if by_held:
            lines.append(
                f"[{r['mode']}] median worlds per searched play by cards held (plays): "
                + ", ".join(
                    f"{h}: {statistics.median(w):.0f} ({len(w)})" for h, w in sorted(by_held.items(), reverse=True)
                )
            )
        waits = r["pass_waits_ms"]
        if r["mode"] == "worker" and waits:
            lines.append(
                f"[{r['mode']}] after the player's pass, the bots' passes came within: "
                + ", ".join(f"{w:.0f}" for w in waits)
                + " ms"
            )
        lines.append(
            f"[{r['mode']}] main-thread tasks over 50 ms after the page was ready: {len(tasks)}"
            + (f", longest {max(tasks):.0f} ms, over 100 ms: {sum(t > 100 for t in tasks)}" if tasks else "")
            + f" ({r['played']} cards played here in {r['seconds']:.0f} s)"
        )
        during = r["long_tasks_in_hands"]
        lines.append(
            f"[{r['mode']}] of them during the hands (from the first card on): {len(during)}"
            + (f", longest {max(during):.0f} ms" if during else "")
        )
        for f in sorted(r["blocking_frames"], key=lambda f: -f["duration"])[:5]:
            top = sorted(f["scripts"], key=lambda s: -s["ms"])[:3]
            lines.append(
                f"    a frame of {f['duration']:.0f} ms (blocking {f['blocking']:.0f}, rendering {f['render']:.0f}): "
                + "; ".join(f"{s['invoker'] or '?'} {s['ms']:.0f} ms" for s in top)
            )
        lines.append("")
    return "\n".join(lines)


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--speed", default="fast", help="the game's ?speed= (instant, fast, normal, relaxed)")
    parser.add_argument("--seed", default="bench-hard-hand")
    parser.add_argument("--modes", default="worker,page")
    parser.add_argument(
        "--throttle",
        type=float,
        default=1.0,
        help="slow the page's main thread down this many times (Chromium's CPU throttling)",
    )
    parser.add_argument(
        "--pass-after",
        type=float,
        default=0.0,
        help="seconds the player takes over each pass (the bots' passes think meanwhile)",
    )
    parser.add_argument("--json", type=Path)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    sys.path.insert(0, str(ROOT / "web"))  # hearts_web: the page's own budgets (report)
    if not (ROOT / "dist" / "runtime" / "bot-worker.mjs").exists():
        print("dist/ is missing or old: run .venv/bin/python tools/build.py first", file=sys.stderr)
        return 2

    from playwright.sync_api import sync_playwright

    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    server = serve.start_server(ROOT / "dist")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(**launch_options())
            results = [run_mode(browser, server.url, mode, args) for mode in args.modes.split(",")]
            version = browser.version
            browser.close()
    finally:
        server.stop()
    print(report(results, args, version, load))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
