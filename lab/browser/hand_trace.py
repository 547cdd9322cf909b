"""What the page's main thread does in its long tasks while a hand is played, on the phone profile.

Plays one hand by taps (as ``lab.browser.startup_phone`` does: the returning visit, then a new
match at ``--level``) under DevTools' CPU throttling with a Chromium trace running, and prints
every main-thread task over ``--over`` ms with what took its time: script
and the own time of each kind of trace event in it (script, style, layout, paint...). Then the
sums over all long tasks: what to make cheaper first. Then the whole hand: how long the main
thread was busy, with what, and the animations the compositor could not run (the page paints
each of their frames), by the property that kept them on the main thread.

    .venv/bin/python -m lab.browser.hand_trace [--level medium] [--cpu 4] [--over 50]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from lab.browser.startup_phone import (
    OBSERVER,
    Site,
    new_match,
    parse_profiles,
    play_by_clicks,
    start_site_server,
    throttle,
)
from tools import serve
from tools.chromium import launch_options

ROOT = Path(__file__).resolve().parents[2]
CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "v8.execute"]


Times = dict[str, float]  # ms by trace event name


def by_size(times: Times) -> list[tuple[str, float]]:
    return sorted(times.items(), key=lambda item: -item[1])


def self_times(spans: list[dict[str, Any]]) -> Times:
    """Each event's own time (its length less its children's), in ms, summed by name; ``spans``
    sorted by start, the longer first, properly nested (one thread)."""
    own: Times = defaultdict(float)
    stack: list[tuple[float, str]] = []  # (end, name) of the open events
    children: dict[int, float] = defaultdict(float)
    for e in spans:
        start, end = e["ts"], e["ts"] + e["dur"]
        while stack and stack[-1][0] <= start:
            closed_end, name = stack.pop()
            own[name] -= children.pop(len(stack), 0.0)
        if stack:
            children[len(stack) - 1] += e["dur"] / 1000
        own[e["name"]] += e["dur"] / 1000
        stack.append((end, e["name"]))
    while stack:
        _, name = stack.pop()
        own[name] -= children.pop(len(stack), 0.0)
    return own


def long_tasks(events: list[dict[str, Any]], over_ms: float) -> list[tuple[float, Times]]:
    """Each task of the page's main thread over ``over_ms``: (its length in ms, the own time of
    what ran in it, in ms, by event name)."""
    spans = main_spans(events)
    found: list[tuple[float, Times]] = []
    for task in (e for e in spans if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask")):
        if task["dur"] < over_ms * 1000:
            continue
        start, end = task["ts"], task["ts"] + task["dur"]
        inside = [e for e in spans if start <= e["ts"] < end and e["ts"] + e["dur"] <= end]
        found.append((task["dur"] / 1000, self_times(inside)))
    return sorted(found, key=lambda t: -t[0])


def main_spans(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The complete events of the busiest renderer main thread (the page's), sorted by start."""
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e.get("args", {}).get("name") == "CrRendererMain"
    }
    by_thread: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for e in events:
        if (e.get("pid"), e.get("tid")) in main and e.get("ph") == "X" and "dur" in e:
            by_thread[(e["pid"], e["tid"])].append(e)
    spans = max(by_thread.values(), key=len, default=[])
    return sorted(spans, key=lambda e: (e["ts"], -e["dur"]))


def busy(events: list[dict[str, Any]]) -> tuple[float, float, Times]:
    """The page's main thread over the trace: (ms in tasks, ms from its first event to its last,
    the own time of every event in its tasks, in ms, by name)."""
    spans = main_spans(events)
    if not spans:
        return 0.0, 0.0, {}
    tasks = [e for e in spans if e["name"] in ("RunTask", "ThreadControllerImpl::RunTask")]
    span = (max(e["ts"] + e["dur"] for e in spans) - spans[0]["ts"]) / 1000
    outer, end = [], -1.0
    for task in tasks:  # (a task inside another is counted once)
        if task["ts"] >= end:
            outer.append(task)
            end = task["ts"] + task["dur"]
    return sum(t["dur"] for t in outer) / 1000, span, self_times(spans)


def uncomposited(events: list[dict[str, Any]]) -> dict[str, int]:
    """How many animations the compositor could not run, by the properties that kept them off it."""
    counts: dict[str, int] = defaultdict(int)
    for e in events:
        data = e.get("args", {}).get("data") if e.get("name") == "Animation" else None
        if isinstance(data, dict) and data.get("compositeFailed"):
            counts[" ".join(data.get("unsupportedProperties") or ["(other)"])] += 1
    return dict(counts)


def play(url: str, level: str, cpu: float) -> list[dict[str, Any]]:
    (profile,) = parse_profiles("phone", cpu)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(headless=True, **launch_options())
        width, height, ratio, mobile = profile.screen
        context = browser.new_context(
            viewport={"width": width, "height": height}, device_scale_factor=ratio, is_mobile=mobile, has_touch=mobile
        )
        context.add_init_script(OBSERVER)
        page = context.new_page()
        throttle(context, page, profile)
        new_match(page, url, level, cpu)
        browser.start_tracing(page=page, categories=CATEGORIES)
        play_by_clicks(page)
        trace = json.loads(browser.stop_tracing())
        browser.close()
    events: list[dict[str, Any]] = trace["traceEvents"] if isinstance(trace, dict) else trace
    return events


def cli() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--level", default="medium")
    parser.add_argument("--cpu", type=float, default=4)
    parser.add_argument("--over", type=float, default=50, help="ms: the tasks to list")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    server = start_site_server(Site("game", args.dist.resolve(), tuple(serve.load_header_rules())))
    try:
        events = play(f"http://127.0.0.1:{server.server_address[1]}/?speed=fast", args.level, args.cpu)
    finally:
        server.shutdown()
    tasks = long_tasks(events, args.over)
    total: Times = defaultdict(float)
    print(f"A hand at {args.level}, page CPU {args.cpu:g}x: {len(tasks)} main-thread tasks over {args.over:g} ms")
    for length, parts in tasks:
        for name, ms in parts.items():
            total[name] += ms
        print(f"  {length:6.1f} ms: " + ", ".join(f"{k} {v:.1f}" for k, v in by_size(parts)[:4]))
    if tasks:
        print("  all of them, own time by event: " + ", ".join(f"{k} {v:.0f} ms" for k, v in by_size(total)[:14]))
    taken, span, parts = busy(events)
    print(f"The main thread over the hand: busy {taken / 1000:.1f} s of {span / 1000:.1f} s")
    print("  own time by event: " + ", ".join(f"{k} {v:.0f} ms" for k, v in by_size(parts)[:10]))
    kept = uncomposited(events)
    print(
        f"  animations the compositor could not run: {sum(kept.values())}"
        + "".join(f", {n} by {what}" for what, n in sorted(kept.items(), key=lambda item: -item[1]))
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
