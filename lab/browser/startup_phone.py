#!/usr/bin/env python3
"""Start-up like a phone (issue 45): first paint, LCP, ready, long tasks and CLS, with and without throttling.

    .venv/bin/python -m lab.browser.startup_phone [--runs 5] [--profiles desktop,phone] [--parent]
        [--compare DIR ...] [--hands medium,hard] [--tap-gap MS] [--press MS] [--steps] [--json F]

The sibling of ``lab.browser.startup`` (same pages: the game's ``dist/`` and a bare PyScript page on
the stock runtime, ``startup.make_bare_site``), measured the way Lighthouse and a phone see them:

* **profiles**: ``desktop`` (no throttling) and ``phone``: the page's main thread 4x slower
  (DevTools' ``Emulation.setCPUThrottlingRate``) and Lighthouse's "slow 4G" as Lighthouse applies it
  with DevTools throttling (``Network.emulateNetworkConditions``: 150 ms RTT x 3.75 = 562.5 ms per
  request, 1.6 Mbps x 0.9 down, 750 kbps x 0.9 up). Chromium throttles the page's main thread only:
  a Web Worker runs at full speed under ``Emulation.setCPUThrottlingRate`` (workers reject the
  command), so a page that starts Python in a worker looks faster than a phone would run it.
  Screens as Lighthouse emulates them: desktop 1350x940, phone 412x823 at 1.75x, mobile and touch.
* **visits**: per run and page, a new browser profile visits three times: the **first** visit
  (empty caches; then it waits until the page's service worker, if any, has installed), a second
  one (HTTP cache, service worker; Chromium compiles the wasm once more here) and the **returning**
  visit (the third: everything cached, the compiled wasm too, as every later visit). The profile's
  throttling applies to every visit.
* **served compressed** (gzip level 6, where it makes a file smaller): as a host sends the site,
  which matters on a 1.5 Mbps line (12 MB as stored, 5 MB gzipped); ``--no-gzip`` serves the files
  as stored (``tools/serve.py``, what the issue's first Lighthouse run saw). Headers from
  netlify.toml (the bare page: with ``'unsafe-eval'``, which stock PyScript needs).

* **a hand** (``--hands``, each level named): after the returning visit, the same profile opens
  the game once more with that level's bots and plays one hand by taps (the first playable
  card, the three highest to pass; speed "fast"; each tap raw mouse input at the card's corner,
  the page looked at only after the tap's answer: ``play_by_clicks``): the longest main-thread
  task and the tasks over 50 ms while the hand is played, and **tap-to-paint** for every tap on a
  card of the hand (the
  click's time to the start of the first frame after the page made the tap's own change: the card
  picked or put back to pass, or gone to the trick), median and 95th percentile over the hand, and
  the 95th percentile of the pass taps and of the play taps apart. ``--tap-gap MS``: a player's
  pause before each tap (default none: each tap as soon as the harness has seen the last one's
  change); ``--press MS``: from the press to the release (default 80, a finger's tap; 0: a
  click with no press).
* ``--steps``: the returning visit's start step by step, median time of each event: the files the
  page fetched and the game's worker fetched (Resource Timing, the worker's read through
  ``heartsGame.run`` and put on the page's clock), the worker's marks (``hearts: restored``, ...),
  the progress steps the page heard, and ready.
* ``--parent``: the build of this commit's parent too (a git worktree of ``HEAD^`` built with its
  own tools/build.py, node_modules shared), as the page "parent".

Measured in the page by a script that runs before the page's own (``OBSERVER``): first paint
(``first-contentful-paint``), LCP (the last ``largest-contentful-paint`` entry one second after
ready), ready (``html.ready``), every main-thread task over 50 ms (``longtask`` observer): the
longest one between first paint and ready and the total blocking time there (TBT: each task's
time after first paint beyond 50 ms, summed, as Lighthouse counts it), and CLS (the largest
session window of ``layout-shift`` entries, as web-vitals counts it). All times from navigation
start. Prints medians per profile, visit and page, and the load average before and after.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, TypedDict

from playwright.sync_api import BrowserContext, Playwright
from playwright.sync_api import Error as PlaywrightError

from lab.browser import startup
from lab.browser.startup import WAIT_SW, stock_rules
from tools import serve
from tools.chromium import launch_options

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Profile:
    """How the browser is slowed down: CPU rate (1 = as is) and, when ``latency_ms`` is set, the network."""

    name: str
    cpu: float
    latency_ms: float | None = None  # added to every request (DevTools' request-level latency)
    down_kbps: float = 0.0  # kilobits (1,024 bits) a second, as Lighthouse's settings
    up_kbps: float = 0.0
    screen: tuple[int, int, float, bool] = (1350, 940, 1.0, False)  # width, height, pixel ratio, mobile

    def describe(self) -> str:
        net = (
            "no network throttling"
            if self.latency_ms is None
            else f"{self.latency_ms:g} ms a request, {self.down_kbps / 1024:.2f} Mbps down, {self.up_kbps:g} kbps up"
        )
        width, height, ratio, mobile = self.screen
        return (
            f"{self.name}: CPU {self.cpu:g}x, {net}, screen {width}x{height} at {ratio:g}x"
            f"{', mobile, touch' if mobile else ''}"
        )


# Lighthouse 12's "mobileSlow4G" (constants.js): rttMs 150, throughputKbps 1.6 * 1024, cpu 4x; with
# DevTools throttling Lighthouse applies requestLatencyMs = 150 * 3.75, downloadThroughputKbps =
# 1.6 * 1024 * 0.9, uploadThroughputKbps = 750 * 0.9 (the factors stand for what a real 150 ms RTT
# costs per request: connection set-up, slow start).
# Screens: Lighthouse's too (desktop 1350x940; mobile a Moto G Power, 412x823 at 1.75).
PROFILES = {
    "desktop": Profile("desktop", 1.0),
    "phone": Profile("phone", 4.0, 150 * 3.75, 1.6 * 1024 * 0.9, 750 * 0.9, (412, 823, 1.75, True)),
}
VISITS = ("first", "second", "returning")
REPORTED = ("first", "returning")
SETTLE_S = 1.0  # after ready: the render's paint, its LCP entry and any layout shift
TIMEOUT_MS = 300_000  # a first visit on the phone profile downloads ~5 MB at 1.5 Mbps

# Runs before the page's own scripts (Playwright init script, every visit).
OBSERVER = """
(() => {
  const S = window.__startup = { longtasks: [], lcp: [], shifts: [], readyAt: null };
  const observe = (type, each) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(each)).observe({ type, buffered: true });
    } catch (err) { /* type not supported */ }
  };
  observe("longtask", (e) => S.longtasks.push([e.startTime, e.duration]));
  const describe = (el) => !el || !el.tagName ? String(el && el.nodeName) : el.tagName.toLowerCase()
    + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className ? "." + el.className.trim().split(" ")[0] : "");
  observe("largest-contentful-paint", (e) => S.lcp.push([e.startTime, e.size, describe(e.element)]));
  observe("layout-shift", (e) => {
    if (e.hadRecentInput) return;
    S.shifts.push([e.startTime, e.value, (e.sources || []).map((s) => describe(s.node)).join(" ")]);
  });
  // tap-to-paint: a click on a card of the hand, to the first frame after the tap's own change
  // (the card picked or put back to pass, or gone from the hand), not any other change of the hand
  // (the tab stop moved to the tapped card): [ms, "pass" or "play"]
  S.taps = [];
  document.addEventListener("click", (event) => {
    const card = event.target.closest && event.target.closest("#hand button[data-card]");
    const hand = document.getElementById("hand");
    if (!card || !hand) return;
    const clicked = event.timeStamp;
    const name = card.dataset.card, pressed = card.getAttribute("aria-pressed");
    const kind = pressed === null ? "play" : "pass";
    const changed = () => {
      const now = hand.querySelector(`button[data-card="${name}"]`);
      return !now || now.getAttribute("aria-pressed") !== pressed;
    };
    const seen = new MutationObserver(() => {
      if (!changed()) return;
      seen.disconnect();
      requestAnimationFrame((frame) => S.taps.push([frame - clicked, kind]));
    });
    seen.observe(hand, { subtree: true, childList: true, attributes: true });
  }, true);
  // the start's steps as the page hears them (web/runtime/page.mjs: hearts:progress), ms from navigation
  S.steps = [];
  addEventListener("hearts:progress", (e) => S.steps.push([String(e.detail), performance.now()]));
  const mark = () => {
    if (S.readyAt === null && document.documentElement.classList.contains("ready")) S.readyAt = performance.now();
  };
  new MutationObserver(mark).observe(document, { attributes: true, subtree: true, attributeFilter: ["class"] });
})();
"""
RAW = """() => {
  const S = window.__startup;
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const nav = performance.getEntriesByType("navigation")[0];
  const files = performance.getEntriesByType("resource")
    .map((e) => [e.name.split("/").pop() || e.name, e.startTime, e.responseEnd]);
  if (nav) files.unshift(["(the page)", nav.startTime, nav.responseEnd]);
  return { fcp: fcp ? fcp.startTime : null, readyAt: S.readyAt, longtasks: S.longtasks, lcp: S.lcp, shifts: S.shifts,
           notes: window.__labNotes || null, steps: S.steps, files, origin: performance.timeOrigin };
}"""
# the game's worker's own fetches (its Resource Timing) and its start's marks ("hearts: ..."), in
# ms from the worker's time origin
WORKER_FILES = """import js, json
origin, entries = js.performance.timeOrigin, js.performance.getEntriesByType
got = [[e.name.split("/")[-1] or e.name, e.startTime, e.responseEnd] for e in entries("resource")]
got += [[e.name, e.startTime, e.startTime] for e in entries("mark") if e.name.startswith("hearts:")]
json.dumps(got + [["(origin)", origin, 0]])"""


class Visit(TypedDict):
    """One page load, in seconds from navigation start (``longest``, ``tbt``: seconds of tasks)."""

    fcp: float | None
    lcp: float | None
    lcp_element: str
    ready: float
    longest: float  # the longest task over 50 ms overlapping [first paint, ready]; 0 if none
    tbt: float
    tasks: int  # tasks over 50 ms overlapping [first paint, ready]
    cls: float
    sw: bool
    longtasks: list[tuple[float, float]]  # every task over 50 ms: (start, duration) in ms
    shifts: list[tuple[float, float, str]]  # layout shifts: (ms, value, the nodes that moved)
    notes: dict[str, float]  # what a prototype page left in window.__labNotes (JSON), e.g. times inside a worker
    steps: list[tuple[str, float]]  # files, marks, progress steps, ready: (what, ms from navigation)


def blocking(tasks: list[tuple[float, float]], start: float, end: float) -> tuple[float, float, int]:
    """(longest, total blocking time, count) of the tasks (start, duration) that overlap [start, end]:
    only the part after ``start`` counts (Lighthouse clips tasks at first paint), a task that began
    before ``end`` counts whole (ready is set inside the task that renders)."""
    longest = total = 0.0
    count = 0
    for t0, duration in tasks:
        t1 = t0 + duration
        if t1 <= start or t0 >= end:
            continue
        part = t1 - max(t0, start)
        longest = max(longest, part)
        total += max(0.0, part - 50.0)
        count += 1
    return longest, total, count


def cumulative_layout_shift(shifts: list[tuple[float, float]]) -> float:
    """The largest session window: shifts less than 1 s apart, at most 5 s long (web-vitals' CLS)."""
    best = current = 0.0
    first = last = -1e18
    for at, value in sorted(shifts):
        if at - last < 1000 and at - first < 5000:
            current += value
        else:
            current, first = value, at
        last = at
        best = max(best, current)
    return best


def visit_metrics(raw: dict[str, Any], sw: bool = False) -> Visit:
    """A Visit from what ``RAW`` read in the page (milliseconds)."""
    ready_ms = float(raw["readyAt"])
    fcp_ms = None if raw["fcp"] is None else float(raw["fcp"])
    tasks = [(float(a), float(b)) for a, b in raw["longtasks"]]
    shifts = [(float(a), float(b), str(c)) for a, b, c in raw["shifts"]]
    longest, tbt, count = blocking(tasks, fcp_ms if fcp_ms is not None else 0.0, ready_ms)
    lcp = raw["lcp"][-1] if raw["lcp"] else None
    return Visit(
        fcp=None if fcp_ms is None else fcp_ms / 1000,
        lcp=None if lcp is None else float(lcp[0]) / 1000,
        lcp_element=str(lcp[2]) if lcp else "",
        ready=ready_ms / 1000,
        longest=longest / 1000,
        tbt=tbt / 1000,
        tasks=count,
        cls=cumulative_layout_shift([(a, b) for a, b, _ in shifts]),
        sw=sw,
        longtasks=tasks,
        shifts=shifts,
        notes={str(k): float(v) for k, v in json.loads(raw["notes"]).items()} if raw.get("notes") else {},
        steps=timeline(raw),
    )


def timeline(raw: dict[str, Any]) -> list[tuple[str, float]]:
    """The start's events in order, in ms from navigation: each file the page fetched ("page: NAME
    done", its response's end), each progress step ("step: NAME"), each file the game's worker
    fetched ("worker: NAME done", when ``raw`` has the worker's entries), and "ready"."""
    events = [(f"page: {name} done", float(end)) for name, _start, end in raw.get("files", [])]
    events += [(f"step: {name}", float(at)) for name, at in raw.get("steps", [])]
    worker = raw.get("worker_files") or []
    shift = next((float(o) for name, o, _ in worker if name == "(origin)"), None)
    if shift is not None:
        shift -= float(raw["origin"])  # the worker's time origin, in the page's ms
        events.append(("worker: its time origin", shift))
        events += [
            (f"worker: {name}" if name.startswith("hearts:") else f"worker: {name} done", float(end) + shift)
            for name, _s, end in worker
            if name != "(origin)"
        ]
    if raw.get("readyAt") is not None:
        events.append(("ready", float(raw["readyAt"])))
    return sorted(events, key=lambda e: e[1])


class GzipHandler(serve.Handler):
    """``serve.Handler`` that sends a file gzip-compressed (level 6) when the client accepts it and it
    gets smaller (as a host would), and counts the body bytes it sent."""

    gzip = True
    cache: dict[tuple[str, float], bytes | None] = {}
    lock = threading.Lock()
    sent = [0]
    _body: bytes | None = None

    def _compressed(self) -> bytes | None:
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")  # what SimpleHTTPRequestHandler sends for a folder
        try:
            stat = os.stat(path)
        except OSError:
            return None
        key = (path, stat.st_mtime)
        with self.lock:
            if key not in self.cache:
                data = Path(path).read_bytes()
                packed = gzip.compress(data, 6, mtime=0)
                self.cache[key] = packed if len(packed) < 0.95 * len(data) else None
            return self.cache[key]

    def send_header(self, keyword: str, value: str) -> None:
        if (
            keyword.lower() == "content-length"
            and self.gzip
            and self.command == "GET"
            and getattr(self, "_status", 0) == 200
            and "gzip" in self.headers.get("Accept-Encoding", "")
        ):
            self._body = self._compressed()
            if self._body is not None:
                super().send_header("Content-Encoding", "gzip")
                super().send_header("Vary", "Accept-Encoding")
                value = str(len(self._body))
        super().send_header(keyword, value)

    def copyfile(self, source: Any, outputfile: Any) -> None:
        if self._body is not None:
            outputfile.write(self._body)
            n = len(self._body)
        else:
            data = source.read()
            outputfile.write(data)
            n = len(data)
        with self.lock:
            self.sent[0] += n


@dataclass(frozen=True)
class Site:
    """A page to measure: a folder served with these header rules."""

    name: str
    path: Path
    rules: tuple[serve.HeaderRule, ...]


def make_bare_site(tmp: Path) -> Path:
    """``startup.make_bare_site`` plus one line of text, so that the bare page paints (a page that
    paints nothing has no first paint and no LCP, and Lighthouse stops at NO_FCP)."""
    site = startup.make_bare_site(tmp)
    index = site / "index.html"
    text = index.read_text(encoding="utf-8")
    index.write_text(text.replace("<body>", "<body>\n  <p>A bare PyScript page.</p>", 1), encoding="utf-8")
    return site


def start_site_server(site: Site, compress: bool = True) -> serve.Server:
    handler = type(
        "Site", (GzipHandler,), {"rules": list(site.rules), "quiet": True, "gzip": compress, "cache": {}, "sent": [0]}
    )
    server = serve.Server((serve.HOST, 0), partial(handler, directory=str(site.path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def throttle(context: BrowserContext, page: Any, profile: Profile) -> None:
    """Apply the profile to a page (before it navigates: DevTools keeps it across navigations)."""
    cdp = context.new_cdp_session(page)
    if profile.cpu != 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": profile.cpu})
    if profile.latency_ms is not None:
        cdp.send("Network.enable")
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": profile.latency_ms,
                "downloadThroughput": profile.down_kbps * 1024 / 8,
                "uploadThroughput": profile.up_kbps * 1024 / 8,
            },
        )


def visit(context: BrowserContext, url: str, profile: Profile, wait_sw: bool = False, timeline: bool = False) -> Visit:
    """One page load under ``profile``; with wait_sw, then wait until the page's service worker is
    active; with timeline, the game's worker's files and marks too (``--steps``)."""
    page = context.new_page()
    try:
        throttle(context, page, profile)
        page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
        page.wait_for_selector("html.ready, #boot-guard", state="attached", timeout=TIMEOUT_MS)
        if page.query_selector("html.ready") is None:
            raise RuntimeError(f"the game did not start on {url}: {page.inner_text('#boot-guard')[:500]}")
        page.wait_for_function("window.__startup && window.__startup.readyAt !== null", timeout=10_000)
        page.wait_for_timeout(SETTLE_S * 1000 * profile.cpu)
        raw = page.evaluate(RAW)
        raw["worker_files"] = []
        if timeline:
            try:
                raw["worker_files"] = json.loads(page.evaluate("(code) => window.heartsGame.run(code)", WORKER_FILES))
            except PlaywrightError:
                pass  # a page without the game's worker (the bare page)
        sw = bool(page.evaluate(WAIT_SW)) if wait_sw else False
        return visit_metrics(raw, sw)
    finally:
        page.close()


HAND_TIMEOUT_MS = 120_000


class Hand(TypedDict):
    """One hand played by clicks: ``longest`` (s) and ``tasks`` over 50 ms while it was played,
    ``taps`` (s): tap-to-paint of each tap on a card, ``kinds``: each tap's "pass" (a card picked or
    put back) or "play"."""

    longest: float
    tasks: int
    taps: list[float]
    kinds: list[str]


def new_match(page: Any, url: str, level: str, cpu: float) -> None:
    """Open the game and start a new match with ``level``'s bots (the saved match and the settings
    of the visits before gone), then let the page settle."""
    settings = json.dumps({"difficulty": level, "autoplay": False, "speed": "fast"})
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_selector("html.ready", state="attached", timeout=TIMEOUT_MS)
    page.evaluate("(s) => { localStorage.clear(); localStorage.setItem('hearts.settings.v1', s); }", settings)
    page.reload(wait_until="commit")
    page.wait_for_selector("html.ready", state="attached", timeout=TIMEOUT_MS)
    page.wait_for_timeout(SETTLE_S * 1000 * cpu)


# What the hand looks like to a player (the cards, each with the point of its top left corner to tap
# and whether it is picked to pass; the playable ones; the pass button; a dialog), read in one go.
HAND_STATE = """() => {
  if (document.querySelector("dialog[open]")) return { over: true, passing: false, cards: [], playable: [] };
  const corner = (card) => {
    const box = card.getBoundingClientRect();
    return [card.dataset.card, box.left + 10, box.top + 14, card.getAttribute("aria-pressed") === "true"];
  };
  const cards = [...document.querySelectorAll("#hand button[data-card]")];
  return {
    over: false,
    passing: Boolean(document.querySelector("#pass-btn:not([hidden])")),
    cards: cards.map(corner),
    playable: cards.filter((card) => card.getAttribute("aria-disabled") !== "true").map(corner),
  };
}"""
ANSWERED_MS = 250  # after a tap, the page is not looked at before this: the tap's answer is measured alone
LOOK_EVERY_MS = 100
# A finger is down for tens of milliseconds before it lifts (the click); the harness presses this long,
# so the press's own work (the focus moved, the worker told of it) is done before the click
PRESS_MS = 80


def hand_state(page: Any, until: Callable[[dict[str, Any]], bool], wait_first_ms: float = 0) -> dict[str, Any]:
    """The hand as :data:`HAND_STATE` reads it once ``until`` holds, read every 100 ms (after
    ``wait_first_ms``): no script of the harness runs in the page between two looks."""
    if wait_first_ms:
        page.wait_for_timeout(wait_first_ms)
    deadline = time.monotonic() + HAND_TIMEOUT_MS / 1000
    while True:
        state: dict[str, Any] = page.evaluate(HAND_STATE)
        if until(state):
            return state
        if time.monotonic() > deadline:
            raise TimeoutError(f"the hand did not get there in {HAND_TIMEOUT_MS / 1000:.0f} s: {state}")
        page.wait_for_timeout(LOOK_EVERY_MS)


class Tapping(NamedTuple):
    """How the harness taps: ``gap_ms`` a player's pause before each tap (0: at once),
    ``press_ms`` from the finger's press to its release (the click)."""

    gap_ms: float = 0
    press_ms: float = PRESS_MS


A_FINGER = Tapping()  # a tap at once after the last one's change, pressed as long as a finger does


def play_by_clicks(page: Any, tapping: Tapping = A_FINGER) -> None:
    """Play one hand as a person taps: pass the three highest cards, then the first playable card
    on each turn, until a dialog opens. Each tap is a mouse press and release at the card's top
    left corner (the part a phone's overlapping hand leaves in view), sent as raw input: none of
    Playwright's checks before a click (visible, stable over two frames, the point hits the card)
    and no polling of the page runs on its throttled main thread while a tap is answered; the page
    is looked at :data:`ANSWERED_MS` after the tap, and then every :data:`LOOK_EVERY_MS`.
    ``tapping``: the pause before each tap and how long a press lasts."""

    def picked(name: str) -> Callable[[dict[str, Any]], bool]:
        return lambda state: any(card[0] == name and card[3] for card in state["cards"])

    def played(name: str) -> Callable[[dict[str, Any]], bool]:
        return lambda state: bool(state["over"]) or all(card[0] != name for card in state["cards"])

    def tap(x: float, y: float) -> None:
        if tapping.gap_ms:
            page.wait_for_timeout(tapping.gap_ms)
        page.mouse.click(x, y, delay=tapping.press_ms)

    for _ in range(40):
        state = hand_state(page, lambda s: s["over"] or s["passing"] or bool(s["playable"]))
        if state["over"]:
            return
        if state["passing"]:
            for name, x, y, _picked in state["cards"][-3:]:
                tap(x, y)
                hand_state(page, picked(name), ANSWERED_MS)
            page.click("#pass-btn")
            hand_state(page, lambda s: s["over"] or not s["passing"])
            continue
        name, x, y, _picked = state["playable"][0]
        tap(x, y)
        hand_state(page, played(name), ANSWERED_MS)


def play_hand(context: BrowserContext, url: str, profile: Profile, level: str, tapping: Tapping = A_FINGER) -> Hand:
    """Open the game with ``level``'s bots (a new match) and play one hand by taps (``tapping``:
    :func:`play_by_clicks`)."""
    page = context.new_page()
    try:
        throttle(context, page, profile)
        new_match(page, url, level, profile.cpu)
        start = float(page.evaluate("performance.now()"))
        play_by_clicks(page, tapping)
        end = float(page.evaluate("performance.now()"))
        raw = page.evaluate("() => ({ longtasks: window.__startup.longtasks, taps: window.__startup.taps })")
        tasks = [(float(a), float(b)) for a, b in raw["longtasks"]]
        longest, _tbt, count = blocking(tasks, start, end)
        return Hand(
            longest=longest / 1000,
            tasks=count,
            taps=[float(t) / 1000 for t, _ in raw["taps"]],
            kinds=[str(kind) for _, kind in raw["taps"]],
        )
    finally:
        page.close()


def percentile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (0..1) of ``values``, linearly interpolated; None if there are none."""
    if not values:
        return None
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    low = int(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def launch_profile(pw: Playwright, folder: Path, profile: Profile) -> BrowserContext:
    """A new browser profile in ``folder`` with ``profile``'s screen, observed by :data:`OBSERVER`."""
    shutil.rmtree(folder, ignore_errors=True)
    width, height, ratio, mobile = profile.screen
    context = pw.chromium.launch_persistent_context(
        str(folder),
        headless=True,
        viewport={"width": width, "height": height},
        device_scale_factor=ratio,
        is_mobile=mobile,
        has_touch=mobile,
        **launch_options(),
    )
    context.add_init_script(OBSERVER)
    return context


Run = dict[str, Any]  # visit -> Visit, and "hands": level -> Hand


def one_profile(
    pw: Playwright,
    tmp: Path,
    site: Site,
    url: str,
    profile: Profile,
    run: int,
    hands: tuple[str, ...] = (),
    timeline: bool = False,
    tapping: Tapping = A_FINGER,
) -> Run:
    """The three visits of one page in a new browser profile, then a hand at each level of ``hands``
    (not on the bare page)."""
    folder = tmp / f"profile-{site.name}-{profile.name}-{run}"
    context = launch_profile(pw, folder, profile)
    try:
        out: Run = {}
        for kind in VISITS:
            out[kind] = visit(context, url, profile, wait_sw=kind == "first", timeline=timeline)
        if site.name != "bare":
            out["hands"] = {level: play_hand(context, url, profile, level, tapping) for level in hands}
        return out
    finally:
        context.close()
        shutil.rmtree(folder, ignore_errors=True)


Results = dict[str, dict[str, list[Run]]]  # profile -> page -> runs


def measure(
    sites: list[Site],
    profiles: list[Profile],
    runs: int,
    compress: bool = True,
    progress: bool = True,
    hands: tuple[str, ...] = (),
    timeline: bool = False,
    tapping: Tapping = A_FINGER,
) -> Results:
    """Every (profile, page) once per run, the order reversed every other run (machine noise hits all alike)."""
    from playwright.sync_api import sync_playwright

    results: Results = {p.name: {s.name: [] for s in sites} for p in profiles}
    servers = {site.name: start_site_server(site, compress) for site in sites}
    try:
        with sync_playwright() as pw, tempfile.TemporaryDirectory(prefix="hearts-phone-") as tmpdir:
            pairs = [(p, s) for p in profiles for s in sites]
            for run in range(runs):
                for profile, site in pairs if run % 2 == 0 else list(reversed(pairs)):
                    for attempt in (1, 2):  # a renderer crash under heavy load: retry once
                        try:
                            result = one_profile(
                                pw, Path(tmpdir), site, servers[site.name].url, profile, run, hands, timeline, tapping
                            )
                            break
                        except PlaywrightError as exc:
                            if attempt == 2:
                                raise
                            print(
                                f"run {run + 1} {profile.name} {site.name}: {exc.message.splitlines()[0]}: retrying",
                                file=sys.stderr,
                            )
                    results[profile.name][site.name].append(result)
                    if progress:
                        print(
                            f"run {run + 1}/{runs} {profile.name:8} {site.name:10} "
                            + "  ".join(
                                f"{kind} ready {result[kind]['ready']:.2f} s, TBT {result[kind]['tbt'] * 1000:.0f} ms"
                                for kind in REPORTED
                            )
                            + "".join(
                                f"  {level}: longest {hand['longest'] * 1000:.0f} ms, "
                                f"tap p95 {(percentile(hand['taps'], 0.95) or 0) * 1000:.0f} ms"
                                for level, hand in result.get("hands", {}).items()
                            ),
                            flush=True,
                        )
    finally:
        for server in servers.values():
            server.stop()
    return results


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


METRICS = ("fcp", "lcp", "ready", "longest", "tbt", "tasks", "cls")


def number(visit: Visit, metric: str) -> float | None:
    value = dict(visit).get(metric)
    return float(value) if isinstance(value, (int, float)) else None


def medians(results: Results) -> dict[str, dict[str, dict[str, dict[str, float | None]]]]:
    """profile -> page -> visit -> metric -> median over the runs."""
    out: dict[str, dict[str, dict[str, dict[str, float | None]]]] = {}
    for profile, pages in results.items():
        out[profile] = {}
        for page, runs in pages.items():
            out[profile][page] = {}
            for kind in VISITS:
                out[profile][page][kind] = {
                    metric: median([value for r in runs if (value := number(r[kind], metric)) is not None])
                    for metric in METRICS
                }
    return out


def table(results: Results, profiles: list[Profile]) -> list[str]:
    med = medians(results)
    lines = [
        f"{'profile':9}{'page':12}{'visit':11}{'first paint':>12}{'LCP':>9}{'ready':>9}"
        f"{'longest':>10}{'TBT':>9}{'tasks':>7}{'CLS':>7}  LCP element (last run)"
    ]
    for profile in profiles:
        for page, runs in results[profile.name].items():
            for kind in REPORTED:
                m = med[profile.name][page][kind]

                def s(v: float | None) -> str:
                    return "-" if v is None else f"{v:.2f} s"

                def ms(v: float | None) -> str:
                    return "-" if v is None else f"{v * 1000:.0f} ms"

                lines.append(
                    f"{profile.name:9}{page:12}{kind:11}{s(m['fcp']):>12}{s(m['lcp']):>9}{s(m['ready']):>9}"
                    f"{ms(m['longest']):>10}{ms(m['tbt']):>9}{m['tasks'] or 0:>7.0f}"
                    f"{(m['cls'] or 0):>7.3f}  {runs[-1][kind]['lcp_element'] if runs else ''}"
                )
    return lines


def hand_table(results: Results, profiles: list[Profile], hands: tuple[str, ...]) -> list[str]:
    """Per profile, page and level: the longest task while the hand was played (median over the
    runs, and the worst), tasks over 50 ms, tap-to-paint median and p95 over every tap of the runs,
    and the p95 of the taps that pick a card to pass and of those that play one."""
    lines = [
        f"{'profile':9}{'page':12}{'level':8}{'longest':>9}{'worst':>8}{'tasks':>7}{'taps':>6}"
        f"{'tap median':>12}{'tap p95':>9}{'pass p95':>10}{'play p95':>10}"
    ]
    for profile in profiles:
        for page, runs in results[profile.name].items():
            for level in hands:
                played = [r["hands"][level] for r in runs if level in r.get("hands", {})]
                if not played:
                    continue
                taps = [t for h in played for t in h["taps"]]
                by_kind = {
                    kind: [t for h in played for t, k in zip(h["taps"], h.get("kinds", []), strict=False) if k == kind]
                    for kind in ("pass", "play")
                }
                longest = [h["longest"] for h in played]

                def ms(v: float | None) -> str:
                    return "-" if v is None else f"{v * 1000:.0f} ms"

                lines.append(
                    f"{profile.name:9}{page:12}{level:8}{ms(median(longest)):>9}{ms(max(longest)):>8}"
                    f"{median([float(h['tasks']) for h in played]) or 0:>7.0f}{len(taps):>6}"
                    f"{ms(median(taps)):>12}{ms(percentile(taps, 0.95)):>9}"
                    f"{ms(percentile(by_kind['pass'], 0.95)):>10}{ms(percentile(by_kind['play'], 0.95)):>10}"
                )
    return lines


def steps_table(results: Results, profiles: list[Profile], visit_kind: str = "returning") -> list[str]:
    """Per profile and page: the median time of each event of the visit's start (files fetched by
    the page and the game's worker, progress steps, ready), in the order of their medians."""
    lines = []
    for profile in profiles:
        for page, runs in results[profile.name].items():
            times: dict[str, list[float]] = {}
            for run in runs:
                seen: set[str] = set()
                for name, at in run[visit_kind].get("steps", []):
                    if name not in seen:  # a name's first time in the run
                        seen.add(name)
                        times.setdefault(name, []).append(at)
            if not times:
                continue
            lines.append(f"{profile.name} {page} ({visit_kind} visit, ms from navigation, median of {len(runs)}):")
            for name, at in sorted(times.items(), key=lambda item: statistics.median(item[1])):
                lines.append(f"  {statistics.median(at):8.0f}  {name}")
    return lines


def build_parent(folder: Path) -> Path:
    """dist/ of this commit's parent: a detached git worktree of HEAD^ in ``folder``, built by its
    own tools/build.py with this checkout's node_modules."""
    import subprocess

    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(folder), "HEAD^"], check=True)
    (folder / "node_modules").symlink_to(ROOT / "node_modules")
    subprocess.run([sys.executable, "tools/build.py"], cwd=folder, check=True)
    return folder / "dist"


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(
        description="Start-up like a phone: the game vs. a bare PyScript page, desktop and throttled."
    )
    parser.add_argument("--runs", type=int, default=5, help="runs per profile and page (default 5)")
    parser.add_argument(
        "--profiles", default="desktop,phone", help=f"comma-separated, of {', '.join(PROFILES)} (default desktop,phone)"
    )
    parser.add_argument("--cpu", type=float, help="the phone profile's CPU slowdown (default 4)")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument(
        "--compare",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="another build of the game to measure alongside (repeatable)",
    )
    parser.add_argument("--parent", action="store_true", help="measure the build of this commit's parent too")
    parser.add_argument(
        "--hands",
        default="medium,hard",
        help="levels to play a hand at after the visits ('' for none; default medium,hard)",
    )
    parser.add_argument(
        "--tap-gap",
        type=float,
        default=0,
        metavar="MS",
        help="a player's pause before each tap on a card in the hands (default 0: at once)",
    )
    parser.add_argument(
        "--press",
        type=float,
        default=PRESS_MS,
        metavar="MS",
        help=f"from a finger's press to its release on a card (default {PRESS_MS:.0f}; 0: both at once)",
    )
    parser.add_argument("--no-bare", action="store_true", help="leave the bare PyScript page out")
    parser.add_argument("--no-gzip", action="store_true", help="send files as stored (tools/serve.py), not gzipped")
    parser.add_argument("--json", type=Path, help="also write every visit's numbers here")
    parser.add_argument(
        "--steps", action="store_true", help="also print the returning visit's start step by step (files, steps)"
    )
    return parser


def parse_profiles(text: str, cpu: float | None = None) -> list[Profile]:
    out = []
    for name in text.split(","):
        if name not in PROFILES:
            raise SystemExit(f"unknown profile {name!r} (choose from {', '.join(PROFILES)})")
        profile = PROFILES[name]
        if cpu is not None and profile.cpu != 1:
            profile = Profile(profile.name, cpu, profile.latency_ms, profile.down_kbps, profile.up_kbps, profile.screen)
        out.append(profile)
    return out


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    profiles = parse_profiles(args.profiles, args.cpu)
    dist = args.dist.resolve()
    if not (dist / "index.html").is_file():
        print("bench: dist/ missing: run python3 tools/build.py", file=sys.stderr)
        return 1
    game_rules = tuple(serve.load_header_rules())
    load_before = os.getloadavg()
    hands = tuple(level for level in args.hands.split(",") if level)
    with tempfile.TemporaryDirectory(prefix="hearts-phone-sites-") as tmpdir:
        sites = [Site("game", dist, game_rules)]
        parent = Path(tmpdir) / "parent"
        if args.parent:
            sites.append(Site("parent", build_parent(parent), game_rules))
        if not args.no_bare:
            sites.append(Site("bare", make_bare_site(Path(tmpdir)), tuple(stock_rules())))
        for other in args.compare:
            name = other.resolve().name
            while name in {s.name for s in sites}:
                name += "'"
            sites.append(Site(name, other.resolve(), game_rules))
        try:
            results = measure(
                sites,
                profiles,
                args.runs,
                compress=not args.no_gzip,
                hands=hands,
                timeline=args.steps,
                tapping=Tapping(args.tap_gap, args.press),
            )
        finally:
            if args.parent:
                import subprocess

                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(parent)], check=False)
    load_after = os.getloadavg()
    print()
    print(
        f"Start-up like a phone: median of {args.runs} runs, alternating (headless chromium, "
        f"{time.strftime('%Y-%m-%d %H:%M')}; load average {load_before[0]:.1f} before, {load_after[0]:.1f} after, "
        f"{os.cpu_count()} cores; served {'as stored' if args.no_gzip else 'gzipped'})"
    )
    for profile in profiles:
        print("  " + profile.describe())
    print("\n".join(table(results, profiles)))
    print(
        "first visit: empty caches; returning: the third visit (everything cached, the compiled wasm too). "
        "longest, TBT, tasks: main-thread tasks over 50 ms between first paint and ready"
    )
    if args.steps:
        print()
        print("\n".join(steps_table(results, profiles)))
    if hands:
        gap = f", {args.tap_gap:.0f} ms before each tap" if args.tap_gap else ""
        print(f"\nA hand played by taps after the returning visit (speed fast, presses of {args.press:.0f} ms{gap}):")
        print("\n".join(hand_table(results, profiles, hands)))
        print(
            "longest: the longest main-thread task while the hand was played (median of the runs; worst: of all); "
            "tap: a tap on a card to the first frame after its change (picked, put back, played; all taps of the runs)"
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "runs": results,
                    "median": medians(results),
                    "profiles": [p.__dict__ for p in profiles],
                    "load": [load_before, load_after],
                },
                indent=1,
            ),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
