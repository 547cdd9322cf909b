"""Start-up: the static first paint, no layout jump when Python takes over, the preloads, and the
trimmed, precompiled standard library the runtime starts with (docs/development.md, "Start-up").

Timings are not tested here (lab/browser/startup.py measures them); these are the properties
the fast start-up relies on.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from axe import describe, violations
from conftest import DIST, goto_ready, shot, wait_ready
from playwright.sync_api import BrowserContext, Page, Response, Route
from ui_helpers import overlap, use_settings

# The boxes of the table: their place must not change when Python replaces the static first paint.
BOXES = [
    ".topbar",
    ".tools",  # labelled, or icons only where the labels do not fit (boot.js measures as Python does)
    "#table",
    '.seat[data-seat="0"]',
    '.seat[data-seat="1"]',
    '.seat[data-seat="2"]',
    '.seat[data-seat="3"]',
    "#trick",
    ".south",
    "#hand",
]
# The prompt row's width follows its text; its place and height must not change.
ROW = ".prompt-row"
RECORD_FIRST_PAINT = """
(() => {
  const boxes = %s;
  const grab = () => Object.fromEntries(boxes.map((s) => {
    const e = document.querySelector(s);
    if (!e) return [s, null];
    const r = e.getBoundingClientRect();
    return [s, [r.x, r.y, r.width, r.height].map(Math.round)];
  }));
  window.__grabBoxes = grab;
  // DOMContentLoaded is long before Python runs (it needs the wasm first): the static table
  document.addEventListener("DOMContentLoaded", () => requestAnimationFrame(() => {
    window.__bootBoxes = grab();
    window.__bootClasses = document.documentElement.className;
  }));
})();
""" % json.dumps(BOXES + [ROW])

LAYOUTS = {
    "desktop": dict(viewport={"width": 1280, "height": 800}),
    "phone": dict(viewport={"width": 390, "height": 844}),
    "small": dict(viewport={"width": 360, "height": 640}),
    "landscape": dict(viewport={"width": 844, "height": 390}),
}


def hold_python(page: Page) -> list[Route]:
    """Keep Pyodide's wasm from arriving, so the page stays in its static first paint."""
    held: list[Route] = []
    page.route(re.compile(r".*\.wasm$"), lambda route: held.append(route))
    return held


def open_static(page: Page) -> None:
    hold_python(page)
    page.goto("/", wait_until="domcontentloaded")
    page.wait_for_timeout(300)  # fonts, a few frames


# ------------------------------------------------------------------ first paint
# The shown notices end inside their region (which scrolls when they do not).
WELCOME_WHOLE = """() => {
  const region = document.getElementById("notices").getBoundingClientRect();
  return [...document.querySelectorAll("#notices .notice")].filter((n) => n.offsetParent)
    .every((n) => n.getBoundingClientRect().bottom <= region.bottom + 1);
}"""


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_first_paint_is_the_table(page: Page, layout: str) -> None:
    """Before any Python runs: the felt, four seats with their names, a face-down hand of 13
    and the loading bar, all drawn by index.html and style.css."""
    page.set_viewport_size(LAYOUTS[layout]["viewport"])
    open_static(page)
    assert page.evaluate("document.documentElement.classList.contains('booting')")
    assert not page.evaluate("document.documentElement.classList.contains('ready')")
    felt = page.evaluate("getComputedStyle(document.body).backgroundImage")
    assert "radial-gradient" in felt
    for seat, name in ((0, "You"), (1, "Pip"), (2, "Hops"), (3, "Shelly")):
        box = page.locator(f'.seat[data-seat="{seat}"]')
        assert box.is_visible()
        assert page.locator(f'.seat[data-seat="{seat}"] .name').inner_text() == name
    backs = page.locator("#hand .card.back")
    assert backs.count() == 13
    for i in range(13):
        assert backs.nth(i).is_visible()
    size = page.evaluate("""(() => { const r = document.querySelector('#hand .card.back').getBoundingClientRect();
                             return [r.width, r.height]; })()""")
    assert size[0] > 40 and size[1] > size[0]  # card-sized, upright
    assert page.locator("#loader").is_visible()
    assert page.locator("#loader-text").inner_text() == "Loading…"
    bar = page.evaluate("document.getElementById('loader-bar').getBoundingClientRect().width")
    assert bar > 0, "the loading bar shows some progress"
    assert page.locator("#pass-btn").is_hidden()
    welcome = page.locator('#notices [data-notice="welcome"]').bounding_box()
    assert welcome is not None, "a first visit: the welcome is in the first paint"
    for seat in range(4):
        box = page.locator(f'.seat[data-seat="{seat}"]').bounding_box()
        assert box is not None and not overlap(welcome, box), f"the welcome covers seat {seat}: {welcome}, {box}"
    assert not overlap(welcome, page.locator("#loader").bounding_box()), "the loading bar covers the welcome"
    assert page.evaluate(WELCOME_WHOLE), "the welcome is cut off"
    shot(page, f"startup-first-paint-{layout}")


@pytest.mark.locale("de-DE")
def test_first_paint_in_the_players_language_and_look(page: Page) -> None:
    """The saved look (classic) and language (German here) apply to the first paint."""
    use_settings(page, look="classic", lang="de")
    open_static(page)
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.evaluate("document.documentElement.classList.contains('classic')")
    assert page.locator('.seat[data-seat="0"] .name').inner_text() == "Du"
    assert page.locator('.seat[data-seat="2"] .dir').inner_text() == "Nord"
    assert page.locator("#loader-text").inner_text() == "Lädt…"
    shot(page, "startup-first-paint-classic-de")


@pytest.mark.parametrize("layout", [*LAYOUTS, *(f"{name}-classic-de" for name in LAYOUTS)])
def test_no_layout_jump_when_python_takes_over(page: Page, layout: str) -> None:
    """Python fills the static table's boxes: none moves or changes size (a new match: the pass)."""
    page.set_viewport_size(LAYOUTS[layout.split("-")[0]]["viewport"])
    if layout.endswith("classic-de"):
        use_settings(page, look="classic", lang="de")
    page.add_init_script(RECORD_FIRST_PAINT)
    goto_ready(page)
    page.wait_for_timeout(200)
    assert "booting" in page.evaluate("window.__bootClasses"), "recorded before Python ran"
    before: dict[str, Any] = page.evaluate("window.__bootBoxes")
    after: dict[str, Any] = page.evaluate("window.__grabBoxes()")
    moved = {s: (before[s], after[s]) for s in BOXES if before[s] != after[s]}
    row_before, row_after = before[ROW], after[ROW]
    if (row_before[1], row_before[3]) != (row_after[1], row_after[3]):
        moved[ROW + " (top, height)"] = (row_before, row_after)
    assert moved == {}, f"moved when Python took over ([x, y, width, height]): {moved}"
    assert page.locator("#hand button[data-card]").count() == 13
    assert page.locator("#loader").is_hidden()


# ------------------------------------------------------------------ a first visit's welcome
# Records the largest contentful paint (LCP) entries, the layout shifts and when html.ready came.
RECORD_PAINTS = """
(() => {
  const S = window.__paints = { lcp: [], shifts: [], shifted: [], ready: null };
  const name = (n) => n && n.nodeType === 1 ? n.tagName.toLowerCase() + (n.id ? "#" + n.id : "")
    + (n.className && typeof n.className === "string" ? "." + n.className.split(" ").join(".") : "") : String(n);
  new PerformanceObserver((list) => list.getEntries().forEach((e) => S.lcp.push({
    at: e.startTime, size: e.size,
    welcome: !!(e.element && e.element.closest && e.element.closest('[data-notice="welcome"]')) })))
    .observe({ type: "largest-contentful-paint", buffered: true });
  new PerformanceObserver((list) => list.getEntries().forEach((e) => {
    if (e.hadRecentInput) return;
    S.shifts.push(e.value);
    S.shifted.push({ at: Math.round(e.startTime), value: e.value, nodes: e.sources.map((x) => name(x.node)) });
  })).observe({ type: "layout-shift", buffered: true });
  new MutationObserver(() => {
    if (S.ready === null && document.documentElement.classList.contains("ready")) S.ready = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["class"] });  // (no <html> yet)
})();
"""
WELCOME = {"en": "Welcome! New to Hearts?", "de": "Willkommen! Neu bei Hearts?"}
NOTICES = {"en": "Notices", "de": "Hinweise"}  # the notices' region, named in the page's language


@pytest.mark.parametrize("lang", ["en", pytest.param("de", marks=pytest.mark.locale("de-DE"))])
def test_a_first_visits_welcome_is_in_the_first_paint(page: Page, lang: str) -> None:
    """Nothing saved: the welcome is drawn by index.html in the player's language before Python
    runs, so it is the largest thing on screen at the first paint and stays so (the largest
    contentful paint comes before ready); Python's welcome takes its place without a jump."""
    page.add_init_script(RECORD_PAINTS)
    held = hold_python(page)
    page.goto("/", wait_until="domcontentloaded")
    page.wait_for_timeout(300)
    welcome = page.locator('#notices [data-notice="welcome"]')
    assert welcome.is_visible()
    assert welcome.locator("strong:visible").inner_text() == WELCOME[lang]
    shot(page, f"startup-first-visit-welcome-{lang}")
    before = welcome.bounding_box()
    for route in held:
        route.fallback()  # on to the context's guard, which serves it
    page.unroute(re.compile(r".*\.wasm$"))
    wait_ready(page)
    page.wait_for_timeout(500)
    paints = page.evaluate("window.__paints")
    assert paints["ready"] is not None and paints["lcp"], paints
    last = paints["lcp"][-1]
    assert last["welcome"] and last["at"] < paints["ready"], f"the largest paint came with Python: {paints}"
    assert sum(paints["shifts"]) <= 0.05, (paints["shifted"], paints["ready"])
    assert welcome.is_visible() and welcome.locator("strong:visible").inner_text() == WELCOME[lang]
    assert page.locator(".boot-only").count() == 0, "Python's welcome took the place of index.html's"
    assert page.get_attribute("#notices", "aria-label") == NOTICES[lang]
    assert welcome.bounding_box() == before
    page.locator('#notices [data-action="guided-hand"]').click()  # Python's buttons work
    page.wait_for_selector(".guide", timeout=10_000)


START_LAYOUTS = {
    "labelled": {"width": 1350, "height": 940},  # a desktop: the toolbar has its words
    "icons": {"width": 1280, "height": 720},  # icons only
    "phone": {"width": 390, "height": 844},  # icons only, some in the "More" menu; the <h1>'s words hidden
}


@pytest.mark.parametrize("layout", list(START_LAYOUTS))
@pytest.mark.parametrize("visit", ["first", "returning"])
@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_start_has_names_and_contrast(page: Page, layout: str, visit: str, locale: str) -> None:
    """The static first paint, before Python runs, is what a screen reader and Lighthouse meet
    first: axe-core finds nothing at all (any impact). Before: the icon-only tools had no name
    (their labels display: none, aria-label only from Python), the loader's "Loading…" 4.08:1, the
    welcome's dimmed buttons under 4.5:1, and on a phone an <h1> without words."""
    page.set_viewport_size(START_LAYOUTS[layout])
    if visit == "returning":
        use_settings(page)
    open_static(page)
    assert "booting" in page.evaluate("document.documentElement.className")
    found = violations(page)
    assert found == [], describe(found)


@pytest.mark.locale("de-DE")
def test_a_returning_player_gets_no_welcome_in_the_first_paint(page: Page) -> None:
    use_settings(page, lang="de")
    open_static(page)
    assert page.locator('#notices [data-notice="welcome"]').is_hidden()
    page.unroute(re.compile(r".*\.wasm$"))
    page.reload(wait_until="commit")
    wait_ready(page)
    assert page.locator('[data-notice="welcome"]').count() == 0
    assert page.get_attribute("#notices", "aria-label") == NOTICES["de"]  # index.html's region, named


# ------------------------------------------------------------------ Python off the page
def test_the_page_runs_no_python(page: Page, base_url: str) -> None:
    """Pyodide, the standard library and the game's archive are the workers' alone: the page's
    own requests (its resource timing) have none of them, and its heap holds none of Python's
    memory (web/runtime/page.mjs only applies what the game's worker sends)."""
    goto_ready(page)
    page.wait_for_timeout(300)
    own = page.evaluate("performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)")
    assert "/runtime/page.mjs" in own
    python = [p for p in own if p.endswith((".wasm", "/pyodide.asm.mjs", "/app.zst")) or "/stdlib-" in p]
    # (a first visit's preloads fetch them for the worker, from the page: as fetches, never run)
    assert all(e["initiatorType"] == "link" for e in page.evaluate(RESOURCES) if e["path"] in python), python
    assert not [p for p in own if p.endswith(".wasm")]
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("HeapProfiler.collectGarbage")
        page_mb = float(cdp.send("Runtime.getHeapUsage")["backingStorageSize"]) / 2**20
    finally:
        cdp.detach()
    assert page_mb < 2, f"the page holds {page_mb:.1f} MB of ArrayBuffers (Python's memory is the worker's)"


RESOURCES = "performance.getEntriesByType('resource').map((e) => ({path: new URL(e.name).pathname, initiatorType: e.initiatorType}))"


# ------------------------------------------------------------------ what the start loads
ACTIVE_PRELOADS = "document.querySelectorAll('head > link[rel=preload], head > link[rel=modulepreload]').length"


def test_preloads_are_used_and_each_file_is_fetched_once(page: Page, base_url: str) -> None:
    """On a first visit boot.js starts the preloads of index.html; each matches the request that
    uses it (else the browser downloads the file twice, and warns that the preload went unused
    where the page itself uses it). Nothing the workers fetch is preloaded (their request for a
    file still being preloaded went to the network again): each file comes once."""
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    responses: list[Response] = []
    page.on("response", lambda response: responses.append(response))
    worker_scripts: list[str] = []
    page.on("worker", lambda w: worker_scripts.append(w.url))
    goto_ready(page)
    page.wait_for_timeout(3500)  # Chromium reports unused preloads after about 3 s
    html = (DIST / "index.html").read_text(encoding="utf-8")
    preloads = re.findall(r'<link rel="(?:module)?preload" href="\./([^"]+)"', html)
    assert len(preloads) >= 1
    assert page.evaluate(ACTIVE_PRELOADS) == len(preloads), "boot.js starts them on a first visit"
    assert not [p for p in preloads if p.endswith(".wasm")], "see test_returning_start_reuses_the_compiled_wasm"
    downloaded = [r.url for r in responses if r.request.sizes()["responseBodySize"] > 0]
    paths = [u[len(base_url) + 1 :] for u in downloaded if u.startswith(base_url + "/")]
    # the game's worker starts from the page's module; Pyodide fetches its wasm itself
    assert worker_scripts == [f"{base_url}/runtime/game-worker.mjs"], worker_scripts
    pyodide = "vendor/pyodide-" + json.loads((DIST / "build-info.json").read_text())["vendor"]["pyodide"]
    assert paths.count(f"{pyodide}/pyodide.asm.wasm") == 1
    for path in preloads:
        assert paths.count(path) == 1, f"{path} fetched {paths.count(path)} times"
    twice = sorted({p for p in paths if paths.count(p) > 1 and p != "web/icons/icon.svg"})
    assert twice == [], f"downloaded more than once: {twice}"
    # "...is found, but is not used because the request credentials mode does not match" (a
    # mismatch); "...not used within a few seconds from the window's load event" is only timing
    # (Python is slow to start on a busy machine) and is allowed.
    assert not [w for w in warnings if "preload" in w and "not used because" in w], warnings


PAINT_AND_DOWNLOADS = """async (type) => {
  const paint = await new Promise((resolve) => new PerformanceObserver((list) => {
    const found = list.getEntries().find((e) => e.entryType === type || e.name === type);
    if (found) resolve(found);
  }).observe({ type: type === "first-contentful-paint" ? "paint" : type, buffered: true }));
  return [paint.startTime, performance.getEntriesByType("resource").map((r) => [r.name, r.startTime])];
}"""
HIDE_ENTRY_TYPES = """(hidden) => Object.defineProperty(PerformanceObserver, "supportedEntryTypes",
  {value: Object.freeze(PerformanceObserver.supportedEntryTypes.filter((t) => !hidden.includes(t)))})"""


@pytest.mark.parametrize(
    ("hidden", "known_by", "paint"),
    [
        ([], "lcp", "largest-contentful-paint"),
        (["largest-contentful-paint"], "fcp", "first-contentful-paint"),
        (["largest-contentful-paint", "paint"], "frames", None),
    ],
)
def test_a_first_visits_downloads_wait_for_the_first_paint(
    page: Page, hidden: list[str], known_by: str, paint: str | None
) -> None:
    """Every download of the start-up (each preload, the page's module) starts once the first
    paint is on the screen (web/boot.js, heartsFirstPaint): on a slow network the page's own
    files have the bandwidth to themselves until then. A browser without largest-contentful-paint
    entries goes by the first contentful paint; one without paint entries by animation frames,
    and none waits for the one-second fallback."""
    if hidden:
        page.add_init_script(f"({HIDE_ENTRY_TYPES})({json.dumps(hidden)})")
    goto_ready(page)
    assert page.evaluate("window.heartsFirstPaint") == known_by
    if paint is None:
        return  # (the frames come after the document is parsed; the paint's time is not known here)
    painted, resources = page.evaluate(PAINT_AND_DOWNLOADS, paint)  # (only hidden from boot.js)
    html = (DIST / "index.html").read_text(encoding="utf-8")
    start_up = {url.rsplit("/", 1)[1] for url in re.findall(r'<link rel="(?:module)?preload" href="([^"]+)"', html)}
    seen = [(url.rsplit("/", 1)[1], start) for url, start in resources if url.rsplit("/", 1)[1] in start_up]
    assert {name for name, _ in seen} == start_up, seen
    early = [(name, round(start)) for name, start in seen if start < painted]
    assert early == [], f"started before the first paint at {painted:.0f} ms: {early}"


CHECK_PYTHON = r"""
import importlib, importlib.util, json, sys
result = {"missing": [], "stale": [], "origins": {}}
for name in MODULES:
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        result["missing"].append(f"{name}: {exc}")
        continue
    spec = module.__spec__
    if spec.cached and not spec.origin.startswith("/lib/"):  # the game: checked bytecode from app.zip
        with open(spec.origin, "rb") as f:
            source = f.read()
        with open(spec.cached, "rb") as f:
            pyc = f.read()
        if pyc[8:16] != importlib.util.source_hash(source):
            result["stale"].append(name)
for name in ("json", "asyncio", "dataclasses"):
    result["origins"][name] = sys.modules[name].__spec__.origin
try:
    import email  # in the stock standard library, not imported by the game
    result["email"] = "importable"
except ModuleNotFoundError:
    result["email"] = "not shipped"
json.dumps(result)
"""


def run_python(page: Page, code: str) -> str:
    """Run ``code`` in the game's worker (web/runtime/page.mjs, ``heartsGame.run``): the value of
    its last line, as text (a Python error fails the test)."""
    return str(page.evaluate("(code) => window.heartsGame.run(code)", code))


def test_runtime_has_exactly_the_trimmed_precompiled_stdlib(page: Page, page_guard: Any) -> None:
    """In the browser: every module the build shipped imports (the game's from bytecode that
    matches its source, the standard library's from .pyc), and what the game does not import is
    not there."""
    goto_ready(page)
    info = json.loads((DIST / "build-info.json").read_text(encoding="utf-8"))
    modules = info["python"]["app_modules"] + info["python"]["stdlib_modules"]
    result = json.loads(run_python(page, f"MODULES = {modules!r}\n" + CHECK_PYTHON))
    assert result["missing"] == []
    assert result["stale"] == []
    assert all(
        origin.startswith("/lib/python314.zip/") and origin.endswith(".pyc") for origin in result["origins"].values()
    ), result["origins"]
    assert result["email"] == "not shipped"


# ------------------------------------------------------------------ the compiled wasm is reused
def _wasm_trace(ctx: BrowserContext, page: Page) -> list[str]:
    """Names of V8's wasm trace events while the page loads until html.ready."""
    cdp = ctx.new_cdp_session(page)
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda params: events.extend(params["value"]))
    cdp.on("Tracing.tracingComplete", lambda params: done.append(True))
    cdp.send("Tracing.start", {"categories": "v8.wasm", "transferMode": "ReportEvents"})
    goto_ready(page)
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(100)
    return [str(e.get("name", "")) for e in events]


def test_returning_start_reuses_the_compiled_wasm(persistent_context: Callable[..., BrowserContext]) -> None:
    """Chromium caches the compiled wasm with the HTTP cache entry of pyodide.asm.wasm; a start
    that bypasses it (a <link rel=preload> of the wasm, or the service worker answering it from
    Cache Storage) compiles ~2,700 functions again, every time. Warm and offline starts must
    deserialize the cached module instead. (Returning starts use no preloads: boot.js starts
    them only without a service worker in control.)"""
    ctx = persistent_context()
    first = ctx.pages[0] if ctx.pages else ctx.new_page()
    goto_ready(first)
    first.evaluate("navigator.serviceWorker.ready.then(() => true)")  # installed: offline works
    first.close()
    for offline in (False, True):
        ctx.set_offline(offline)
        page = ctx.new_page()
        names = _wasm_trace(ctx, page)
        assert "wasm.StartStreamingCompilation" in names, "no wasm seen: tracing broken?"
        assert "wasm.Deserialize" in names, f"{'offline' if offline else 'warm'} start compiled the wasm again"
        assert page.evaluate(ACTIVE_PRELOADS) == 0
        page.close()


# ------------------------------------------------------------------ Python's snapshot
SNAPSHOT_PARTS = """async () => {
  const cache = await caches.open("python-snapshot");
  return (await cache.keys()).map((r) => new URL(r.url).pathname.split("/").slice(-2).join("/"));
}"""
STORE_PART = """async ([path, bytes, length]) => {
  const cache = await caches.open("python-snapshot");
  await cache.put(new URL(path, location.href).href,
    new Response(new Uint8Array(bytes), { headers: { "x-length": String(length) } }));
}"""
# The stored memory with bytes changed all through it (its length as it was): Pyodide's restore
# fails on it (a trap, or the snapshot's magic number).
SPOIL_MEMORY = """async ([key, from]) => {
  const cache = await caches.open("python-snapshot");
  const url = new URL(`./python-snapshot/${key}/memory`, location.href).href;
  const response = await cache.match(url);
  const body = new Uint8Array(await response.arrayBuffer());
  for (let i = from; i < body.length; i += 997) body[i] ^= 0x5a;
  await cache.put(url, new Response(body, { headers: response.headers }));
}"""
# What Cache Storage holds of the snapshot the moment the game is on screen (html.ready).
PARTS_AT_READY = """
new MutationObserver((_, observer) => {
  if (!document.documentElement?.classList.contains("ready")) return;
  observer.disconnect();
  window.__heartsPartsAtReady = caches.open("python-snapshot").then((cache) => cache.keys())
    .then((requests) => requests.map((r) => new URL(r.url).pathname.split("/").pop()));
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["class"] });
"""
DRAW_RANDOM = """
import random
repr(random.random())
"""


def _snapshot_parts(page: Page, done: Callable[[list[str]], bool], timeout_s: float = 30.0) -> list[str]:
    """The stored snapshot's parts once `done` holds for them (the page does not wait for the
    store). Polled from here: Playwright's wait_for_function takes a returned promise as true."""
    deadline = time.monotonic() + timeout_s
    while True:
        parts: list[str] = page.evaluate(SNAPSHOT_PARTS)
        if done(parts):
            return parts
        assert time.monotonic() < deadline, f"snapshot parts still {parts} after {timeout_s} s"
        page.wait_for_timeout(100)


def _snapshot_key(page: Page) -> str:
    """The stored snapshot's key, once its three parts are stored."""
    parts = _snapshot_parts(page, lambda p: len(p) >= 3)
    assert sorted(p.split("/")[1] for p in parts) == ["app", "memory", "stdlib"], parts
    return str(parts[0].split("/")[0])


def test_a_first_start_makes_pythons_snapshot_and_the_next_starts_from_it(page: Page) -> None:
    """The first visit starts Python plainly and makes its snapshot in the game's worker; the
    worker stores it only once the game is on screen and the page idle (so that the storing does
    not slow the start down); the next start restores the stored one. Each start draws its own
    random numbers: the snapshot's random module is seeded again."""
    page.add_init_script(PARTS_AT_READY)
    goto_ready(page)
    assert page.evaluate("globalThis.heartsPythonStart") == "made"
    assert page.evaluate("window.__heartsPartsAtReady") == []
    _snapshot_key(page)
    first = run_python(page, DRAW_RANDOM)
    for _ in range(2):
        page.reload(wait_until="commit")
        wait_ready(page)
        assert page.evaluate("globalThis.heartsPythonStart") == "stored"
        assert page.locator("#hand .card:not(.back)").count() == 13
        again = run_python(page, DRAW_RANDOM)
        assert again != first
        first = again


@pytest.mark.parametrize("spoilt_from", [0, 5_000_000])
def test_a_spoilt_snapshot_is_dropped_and_python_starts_without(page: Page, spoilt_from: int) -> None:
    """A stored memory with changed bytes (from its header on, or only further in; its length as
    it was) fails its hash, is deleted and never given to Pyodide (a spoilt memory can make the
    restore fail, abort or never end); Python starts the usual way and makes a new snapshot:
    stored data never stops the page from starting."""
    warnings: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
    goto_ready(page)
    key = _snapshot_key(page)
    page.evaluate(SPOIL_MEMORY, [key, spoilt_from])
    page.reload(wait_until="commit")
    wait_ready(page)
    assert page.evaluate("globalThis.heartsPythonStart") == "made"
    assert page.locator("#hand .card:not(.back)").count() == 13
    assert any("snapshot is spoilt (its memory)" in w for w in warnings), warnings
    assert _snapshot_key(page) == key
    page.reload(wait_until="commit")
    wait_ready(page)
    assert page.evaluate("globalThis.heartsPythonStart") == "stored"


def test_a_cut_short_or_other_builds_snapshot_is_not_used(page: Page) -> None:
    """A part shorter than its recorded length, or a snapshot of another build, is deleted unused."""
    goto_ready(page)
    key = _snapshot_key(page)
    page.evaluate(STORE_PART, [f"./python-snapshot/{key}/memory", [0] * 64, 1 << 20])
    page.evaluate(STORE_PART, ["./python-snapshot/0123456789abcdef/memory", [0] * 64, 64])
    page.reload(wait_until="commit")
    wait_ready(page)
    assert page.evaluate("globalThis.heartsPythonStart") == "made"
    # the foreign part goes, and the worker stores this build's three again
    this_build = sorted(f"{key}/{part}" for part in ("app", "memory", "stdlib"))
    _snapshot_parts(page, lambda p: sorted(p) == this_build)
