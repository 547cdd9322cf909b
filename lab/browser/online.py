#!/usr/bin/env python3
"""Online table benchmark (not a test): joining time, play-to-screen latency, the host's long tasks.

    unshare --net --map-root-user sh -c 'ip link set lo up && exec "$@"' netns \\
        .venv/bin/python -m lab.browser.online [--runs 3] [--people 2,4] [--joins-only]

Everything stays on this machine: a local relay (tools/relay.mjs), dist/ served on 127.0.0.1, one
headless Chromium with a context per player, inside a network namespace with loopback only (the
command above; the script refuses to run outside one). Prints, for tables of 2 and of 4 people:
the time from opening the invitation link to being seated (median over runs and guests), the
latency from a card appearing on the host's screen to it appearing on each guest's (median, p95),
and the host's main-thread long tasks (> 50 ms) during a whole hand.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Browser, ConsoleMessage, Page, sync_playwright

from tools import serve
from tools.chromium import CHROMIUM_ARGS, chromium_executable
from tools.relay import local_relay

ROOT = Path(__file__).resolve().parents[2]

WATCH = """
window.__cardsSeen = {};
new MutationObserver(() => {
  for (const el of document.querySelectorAll('#trick .slot [data-card]')) {
    const c = el.dataset.card;
    if (!(c in window.__cardsSeen)) window.__cardsSeen[c] = Date.now();
  }
}).observe(document, {subtree: true, childList: true});
window.__longTasks = [];
try {
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({type: "longtask", buffered: false});
} catch (e) {}
"""


@contextmanager
def relay_and_site() -> Iterator[tuple[str, str]]:
    """A local relay (tools/relay.mjs) and dist/ served on 127.0.0.1 with it in the CSP: yields
    (relay URL, site URL); both stop on leaving."""
    with local_relay() as relay:
        server = serve.start_server(ROOT / "dist", connect=(relay,))
        try:
            yield relay, server.url.rstrip("/")
        finally:
            server.stop()


def in_netns() -> bool:
    """Only loopback here (no other interface with an address)."""
    out = subprocess.run(["ip", "-o", "addr"], capture_output=True, text=True).stdout
    return all(" lo " in line for line in out.splitlines())


def act(page: Page) -> bool:
    if page.query_selector("dialog[open]"):
        return False
    if page.query_selector("#pass-btn:not([hidden])"):
        cards = page.eval_on_selector_all(
            "#hand button[data-card]:not([aria-disabled='true'])", "e => e.map(x => x.dataset.card)"
        )
        if len(cards) == 13:
            for c in cards[-3:]:
                page.click(f'#hand button[data-card="{c}"]')
            page.click("#pass-btn")
            return True
        return False
    el = page.query_selector("#hand button[data-card]:not([aria-disabled='true'])")
    if el is not None:
        el.click()
        return True
    return False


SLOW_JOIN = 10.0  # seconds: a join slower than this prints what the pages logged


def _online_lines(lines: list[str]) -> Callable[[ConsoleMessage], None]:
    """A console listener that keeps the online table's log lines ("online: ...")."""

    def keep(message: ConsoleMessage) -> None:
        if message.text.startswith("online:"):
            lines.append(f"{time.strftime('%H:%M:%S')} {message.text}")

    return keep


def one_table(browser: Browser, base: str, relay: str, people: int, play: bool = True) -> dict[str, list[float]]:
    contexts, pages = [], []
    for _ in range(people):
        ctx = browser.new_context(base_url=base, viewport={"width": 1000, "height": 700})
        ctx.grant_permissions(["camera", "microphone"], origin=base)
        ctx.add_init_script(
            "if (location.protocol === 'http:') localStorage.setItem('hearts.settings.v1',"
            " JSON.stringify({difficulty: 'easy', autoplay: false}));" + WATCH
        )
        contexts.append(ctx)
        page = ctx.new_page()
        lines: list[str] = []  # what the page's online table logged ("online: ...")
        page.on("console", _online_lines(lines))
        page._online_lines = lines  # type: ignore[attr-defined]
        pages.append(page)
    host, guests = pages[0], pages[1:]
    host.goto(f"/?speed=fast&relay={relay}")
    host.wait_for_selector("html.ready", state="attached", timeout=120_000)
    host.click("[data-action='online']")
    host.fill("#online-name", "Host")
    host.click("[data-action='online-host']")
    shown = host.wait_for_selector("[data-table-link]", timeout=120_000)  # None only when waiting for it to go
    link = shown.get_attribute("href") if shown is not None else None
    if link is None:
        raise RuntimeError("the host's table link has no address (href)")
    seated = []
    for page, seat in zip(guests, ("west", "north", "east")):
        t0 = time.perf_counter()
        page.goto(link)
        page.fill("#online-name", seat.title(), timeout=120_000)
        page.click("[data-action='online-join']")
        page.click(f"[data-action='online-sit'][data-seat='{seat}']", timeout=120_000)
        page.wait_for_selector(f"[data-lobby-seat='{seat}'] .sum-name", timeout=120_000)
        host.wait_for_selector(f"[data-lobby-seat='{seat}'][data-kind='remote']", timeout=120_000)
        seated.append(time.perf_counter() - t0)
        if seated[-1] > SLOW_JOIN:  # what the guest and the host logged meanwhile
            for who, logged in (("guest", page), ("host", host)):
                lines = logged._online_lines[-25:]  # type: ignore[attr-defined]
                print(
                    f"    slow join ({seated[-1]:.1f} s), the {who}'s online log:\n      " + "\n      ".join(lines),
                    flush=True,
                )
    if not play:
        for ctx in contexts:
            ctx.close()
        return {"seated": seated, "latency": [], "long_tasks": []}
    host.click("[data-action='online-start']")
    host.evaluate("window.__longTasks = []")
    end = time.time() + 300
    while not all(p.query_selector("dialog[open] .hand-summary") for p in pages):
        if time.time() > end:
            raise RuntimeError("the hand did not finish")
        if not any(act(p) for p in pages):
            host.wait_for_timeout(50)
    host_seen = host.evaluate("window.__cardsSeen")
    latency = []
    for page in guests:
        seen = page.evaluate("window.__cardsSeen")
        latency += [(seen[c] - t) / 1000 for c, t in host_seen.items() if c in seen]
    long_tasks = host.evaluate("window.__longTasks")
    for ctx in contexts:
        ctx.close()
    return {"seated": seated, "latency": latency, "long_tasks": long_tasks}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def seated_line(times: list[float]) -> str:
    """Every guest's time to be seated, sorted, and how many were seated within 5 s."""
    ordered = sorted(times)
    within = sum(t <= 5.0 for t in ordered)
    return f"seated within 5 s: {within} of {len(ordered)}; times (s): " + " ".join(f"{t:.1f}" for t in ordered)


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--people", default="2,4", help="table sizes, e.g. 2 or 2,4")
    parser.add_argument("--joins-only", action="store_true", help="measure the joins only (no hand is played)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    sizes = [int(n) for n in args.people.split(",")]
    if not in_netns():
        print("bench_online: run me inside a network namespace (see the docstring)", file=sys.stderr)
        return 2
    results: dict[int, dict[str, list[float]]] = {}
    with relay_and_site() as (relay, base):
        with sync_playwright() as p:
            browser = p.chromium.launch(
                args=CHROMIUM_ARGS + ["--allow-loopback-in-peer-connection"], executable_path=chromium_executable()
            )
            for people in sizes:
                merged: dict[str, list[float]] = {"seated": [], "latency": [], "long_tasks": []}
                for run in range(args.runs):
                    r = one_table(browser, base, relay, people, play=not args.joins_only)
                    for k in merged:
                        merged[k] += r[k]
                    print(
                        f"  {people} people, run {run + 1}: seated in {[round(s, 1) for s in r['seated']]} s",
                        flush=True,
                    )
                results[people] = merged
            browser.close()
    load = os.getloadavg()
    print(f"\nonline table on loopback (local relay), {args.runs} runs each; load average {load[0]:.1f}")
    for people, r in results.items():
        print(f"{people} people: {seated_line(r['seated'])}")
    if args.joins_only:
        return 0
    print(
        f"{'table':<10}{'seated median':>15}{'max':>8}{'latency median':>17}{'p95':>8}"
        f"{'host long tasks':>17}{'longest':>9}"
    )
    for people, r in results.items():
        lt = r["long_tasks"]
        print(
            f"{str(people) + ' people':<10}{statistics.median(r['seated']):>13.1f} s{max(r['seated']):>6.1f} s"
            f"{1000 * statistics.median(r['latency']):>14.0f} ms{1000 * pct(r['latency'], 0.95):>5.0f} ms"
            f"{len(lt) / args.runs:>12.1f}/hand{max(lt) if lt else 0:>7.0f} ms"
        )
    print(
        json.dumps(
            {
                p: {
                    "seated_median_s": statistics.median(r["seated"]),
                    "latency_median_ms": 1000 * statistics.median(r["latency"]),
                    "latency_p95_ms": 1000 * pct(r["latency"], 0.95),
                    "long_tasks_per_hand": len(r["long_tasks"]) / args.runs,
                    "longest_task_ms": max(r["long_tasks"], default=0),
                }
                for p, r in results.items()
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
