#!/usr/bin/env python3
"""Prototypes for issue 45's design decision, measured beside the game: slicing the start on the main
thread, or starting Python in a Web Worker. Nothing of this ships: each variant is a copy of ``dist/``
with a few files swapped, in a temporary folder.

    .venv/bin/python -m lab.browser.startup_proto [--runs 3] [--variants game,sliced,...] [--profiles desktop,phone]

Variants (all from ``dist/`` as built, the instrumented copy of ``lab.browser.startup_steps`` underneath):

* ``game``: the instrumented game (performance marks only): the reference.
* ``sliced``: the same start with the main thread handed back between its steps (``scheduler.yield()``):
  the archives decoded by fzstd's streaming decoder in pieces of ~8 ms; the standard library's bytes
  handed to Pyodide only after the wasm's instance is made (so Emscripten's set-up and Python's
  ``main()`` run in a task of their own); a yield before ``finalizeBootstrap`` and one after it; the
  game's archive put on ``sys.path`` as a zip (zipimport) instead of being unpacked; and ``main.py``
  importing the game's modules one by one, leaves first (the order a calibration visit recorded with
  ``PYTHONPROFILEIMPORTTIME``; the optional ones that failed there fail here too), yielding
  (``await asyncio.sleep(0)``) whenever a slice passed 30 ms,
  then ``Controller()`` and ``start()`` in tasks of their own.
* ``pyworker``: the unchanged game (``web/main.py``) as a PyScript *worker* script
  (``<script type="py" worker>``) on the same ``runtime.mjs``: ``pyscript.document`` and ``window`` are
  the page's, reached synchronously through coincident's proxies (``SharedArrayBuffer`` and
  ``Atomics.wait``), which needs cross-origin isolation: served with ``Cross-Origin-Opener-Policy:
  same-origin`` and ``Cross-Origin-Embedder-Policy: require-corp``, and with ``'unsafe-eval'`` in the
  CSP (PyScript compiles its worker hooks with ``Function()``). It posts the durations of its steps,
  timed inside the worker, to the page (``window.__labNotes``).
* ``pyworker-strict``: the same with the game's own headers (no isolation, strict CSP): does it start?
* ``worker``: no PyScript. A module worker (``new Worker(..., {type: "module"})``, like the game's bot
  worker) loads ``runtime.mjs`` (Pyodide, the trimmed stdlib, ``app.zst``), imports the game
  (``hearts_web.controller``, with a stand-in ``pyscript`` module: no DOM in a worker), builds the
  hand's HTML with ``table_html.hand_buttons`` and posts it; the page sets it and ``html.ready``.
  The game's own headers and CSP; no isolation needed.

Measured with ``lab.browser.startup_phone`` (first paint, LCP, ready, the longest main-thread task
and TBT between first paint and ready, CLS; first and returning visit; desktop and phone profile).
Chromium cannot slow a worker down (``Emulation.setCPUThrottlingRate`` is for pages only): under the
phone profile the worker variants' Python runs at full speed, so their "ready" is optimistic there;
their main-thread figures are not. ``--render-ops N`` also times N synchronous DOM round trips from
a PyScript worker (``document.getElementById(...).textContent = ...``) against the same on the page.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from lab.browser import startup_steps
from lab.browser.startup import stock_rules
from lab.browser.startup_phone import PROFILES, Site, measure, medians, parse_profiles, table
from tools import serve
from tools.chromium import launch_options

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ("game", "sliced", "pyworker", "pyworker-strict", "worker")

YIELD_JS = """
const YIELD = () => (globalThis.scheduler && scheduler.yield)
  ? scheduler.yield() : new Promise((r) => setTimeout(r, 0));
"""

# On top of startup_steps.SPLICES (applied first): (old, new), each exactly once in the result.
SLICES = [
    ('import { decompress } from "__FZSTD__";', 'import { decompress, Decompress } from "__FZSTD__";'),
    ("const M = (name) =>", YIELD_JS + "const M = (name) =>"),
    # streaming decode, a piece at a time
    (
        """  const t = NOW();
  const out = unzstd(bytes);
  S(`decode ${name} (fzstd)`, t);
  return out;""",
        """  const t = NOW();
  const out = await unzstdSliced(bytes);
  S(`decode ${name} (fzstd)`, t);
  return out;""",
    ),
    (
        "async function archive(url) {",
        """async function unzstdSliced(bytes) {
  const frame = bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd;
  if (!frame) return bytes;
  const parts = [];
  let size = 0;
  const stream = new Decompress((chunk) => { parts.push(chunk.slice()); size += chunk.length; });
  const STEP = 32768;
  let t = NOW();
  for (let i = 0; i < bytes.length; i += STEP) {
    stream.push(bytes.subarray(i, i + STEP), i + STEP >= bytes.length);
    if (NOW() - t > 8) { await YIELD(); t = NOW(); }
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

async function archive(url) {""",
    ),
    # the stdlib's bytes only after the instance, and a task boundary in between
    (
        "    ? stdlib.then((bytes) => new Response(bytes)) : fetchAnything(input, init);",
        "    ? stdlib.then(async (bytes) => { await INSTANTIATED; await YIELD(); return new Response(bytes); })\n"
        "    : fetchAnything(input, init);",
    ),
    ("let instantiated = 0;", "let instantiated = 0;"),  # (present: checked)
    (
        'S("wasm instantiateStreaming", t); instantiated = NOW(); }',
        'S("wasm instantiateStreaming", t); instantiated = NOW(); INSTANTIATED_RESOLVE(); }',
    ),
    (
        "async function createPyodideModule(settings) {",
        "let INSTANTIATED_RESOLVE;\nconst INSTANTIATED = new Promise((r) => { INSTANTIATED_RESOLVE = r; });\n"
        "async function createPyodideModule(settings) {",
    ),
    # a task boundary before finalizeBootstrap and after it
    (
        "  const finalize = module.API.finalizeBootstrap;",
        "  await YIELD();\n  const finalize = module.API.finalizeBootstrap;",
    ),
    # zipimport instead of unpacking
    (
        """  await nextTask();
  let t = NOW();
  unzip(py, appBytes);
  S("unpack app", t);""",
        """  await nextTask();
  let t = NOW();
  py.FS.writeFile(HOME + "/../app.zip", appBytes);
  py.runPython("import sys; sys.path.insert(1, '/home/app.zip')");
  S("app.zip on sys.path (zipimport)", t);
  await YIELD();""",
    ),
]

SLICED_MAIN = """import asyncio
import importlib
import js

js.performance.mark("hx:main.py runs")
ORDER = {order!r}


async def _start():
    t0 = _t = js.performance.now()
    for name in ORDER:
        try:
            importlib.import_module(name)
        except ImportError:  # an optional module its importer tried (hashlib's _hashlib): failed there too
            pass
        if js.performance.now() - _t > 30:
            await asyncio.sleep(0)
            _t = js.performance.now()
    from hearts_web.controller import Controller
    js.performance.measure("hx:import the game", {{"start": t0, "end": js.performance.now()}})
    await asyncio.sleep(0)
    _t = js.performance.now()
    controller = Controller()
    js.performance.measure("hx:Controller()", {{"start": _t, "end": js.performance.now()}})
    await asyncio.sleep(0)
    _t = js.performance.now()
    controller.start()
    js.performance.measure("hx:start() (first render)", {{"start": _t, "end": js.performance.now()}})


await _start()
"""

WORKER_MAIN = """import json
import time

_t0 = time.perf_counter()
from pyscript import window

_t1 = time.perf_counter()
from hearts_web.controller import Controller

_t2 = time.perf_counter()
_controller = Controller()
_t3 = time.perf_counter()
_controller.start()
_t4 = time.perf_counter()
window.__labNotes = json.dumps({"import the game": (_t2 - _t1) * 1000, "Controller()": (_t3 - _t2) * 1000,
                                "start() (first render, through proxies)": (_t4 - _t3) * 1000})
"""

# --render-ops: N synchronous DOM round trips, from wherever this Python runs
OPS_PY = """import time
from pyscript import document, window
_n = int(window.__hxOps)
_el = document.getElementById("center-info")
_t = time.perf_counter()
for _i in range(_n):
    document.getElementById("center-info").textContent = str(_i)
window.__hxOpsMs = (time.perf_counter() - _t) * 1000
document.documentElement.classList.add("ready")
"""

PLAIN_BOOT = """// Prototype (lab/browser/startup_proto.py): Python in a module worker, the page only applies its HTML.
const root = document.documentElement;
const worker = new Worker(new URL("./proto-worker.mjs", document.baseURI), { type: "module" });
worker.onmessage = (event) => {
  const data = event.data || {};
  if (data.kind === "render") {
    const hand = document.getElementById("hand");
    hand.innerHTML = data.hand;
    hand.classList.remove("waiting");
    performance.mark("hx:worker posted the table");
    window.__labNotes = JSON.stringify(data.times);
    root.classList.add("ready");
  } else if (data.kind === "failed") {
    const p = document.createElement("pre");
    p.className = "py-error";
    p.textContent = data.reason;
    document.body.appendChild(p);
  }
};
"""

PLAIN_WORKER = """// Prototype (lab/browser/startup_proto.py): the game's Python in a module worker
// (as web/bot-worker.js).
import { loadPyodide } from "./runtime.mjs";
const t0 = performance.now();
try {
  const py = await loadPyodide();
  const t1 = performance.now();
  const out = py.runPython(`
import sys, types, json, time
stub = types.ModuleType("pyscript")
class _Nothing:
    def __getattr__(self, name): return _Nothing()
    def __call__(self, *a, **k): return _Nothing()
stub.document = stub.window = _Nothing()
ffi = types.ModuleType("pyscript.ffi")
ffi.create_proxy = ffi.to_js = lambda x, *a, **k: x
ffi.is_none = lambda x: x is None
stub.ffi = ffi
sys.modules["pyscript"] = stub
sys.modules["pyscript.ffi"] = ffi
_t = time.perf_counter()
import hearts_web.controller
from hearts import CARDS
from hearts_web.screen import table_html
_t1 = time.perf_counter()
hand = table_html.hand_buttons(CARDS[:13], CARDS[:13], {})
json.dumps({"hand": hand, "import": (_t1 - _t) * 1000, "render": (time.perf_counter() - _t1) * 1000})
`);
  const result = JSON.parse(out);
  self.postMessage({ kind: "render", hand: result.hand, times: {
    "loadPyodide (worker)": t1 - t0, "import the game": result.import, "hand's HTML": result.render } });
} catch (err) {
  self.postMessage({ kind: "failed", reason: String(err && err.stack || err) });
}
"""


def sliced_runtime(importtime: bool) -> str:
    text = startup_steps.instrumented_runtime(importtime)
    for old, new in SLICES:
        if text.count(old) != 1:
            raise SystemExit(f"startup_proto: a slice does not apply once: {old[:70]!r}")
        text = text.replace(old, new)
    return text


def write_runtime(site: Path, template: str) -> None:
    from tools import build

    stdlib = next(p for p in (site / "vendor").glob("pyodide-*/stdlib-*.zst"))
    original = build.RUNTIME_TEMPLATE
    try:
        build.RUNTIME_TEMPLATE = template
        build.write_runtime_module(ROOT, site, build.vendor_versions(ROOT), stdlib.relative_to(site).as_posix())
    finally:
        build.RUNTIME_TEMPLATE = original


def import_order(dist: Path, tmp: Path) -> list[str]:
    """The modules ``main.py``'s import of the game runs, leaves first: one desktop visit of the
    instrumented copy with PYTHONPROFILEIMPORTTIME (the order its lines come in)."""
    from playwright.sync_api import sync_playwright

    site = Site(
        "calibrate",
        startup_steps.make_instrumented_site(dist, tmp / "calibrate", True),
        tuple(serve.load_header_rules()),
    )
    from lab.browser.startup_phone import start_site_server

    server = start_site_server(site)
    try:
        with sync_playwright() as pw:
            visits = startup_steps.one_profile(pw, tmp, server.url, PROFILES["desktop"], 0)
    finally:
        server.stop()
    v = visits["returning"]
    marks = dict(v["marks"])
    start = marks["main.py runs"]
    order = []
    for at, line in v["imports"]:
        m = startup_steps.IMPORT_LINE.match(line)
        if m and at >= start and m.group(4) not in order:
            order.append(m.group(4))
    if "hearts_web.controller" not in order:
        raise SystemExit("startup_proto: the calibration visit recorded no import of hearts_web.controller")
    return order


def copy_pyscript_chunks(site: Path) -> None:
    """PyScript's whole dist (a worker needs chunks the game does not ship); the patched core stays."""
    versions = json.loads((ROOT / "package.json").read_text())["dependencies"]
    target = site / "vendor" / f"pyscript-{versions['@pyscript/core']}"
    for path in (ROOT / "node_modules/@pyscript/core/dist").iterdir():
        if path.suffix != ".map" and not (target / path.name).exists():
            shutil.copyfile(path, target / path.name)


def header_rules(isolated: bool) -> tuple[serve.HeaderRule, ...]:
    if not isolated:
        return tuple(serve.load_header_rules())
    out = stock_rules()  # PyScript's worker hooks need 'unsafe-eval'
    out.append(
        serve.HeaderRule(
            "/*",
            re.compile(r"^.*$"),
            {"Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp"},
        )
    )
    return tuple(out)


def make_variant(name: str, dist: Path, tmp: Path, order: list[str] | None) -> Site:
    folder = tmp / name
    if name == "game":
        return Site(name, startup_steps.make_instrumented_site(dist, folder, False), header_rules(False))
    if name == "sliced":
        site = startup_steps.make_instrumented_site(dist, folder, False)
        write_runtime(site, sliced_runtime(False))
        (site / "web" / "main.py").write_text(SLICED_MAIN.format(order=order or []), encoding="utf-8")
        return Site(name, site, header_rules(False))
    if name in ("pyworker", "pyworker-strict"):
        site = startup_steps.make_instrumented_site(dist, folder, False)
        copy_pyscript_chunks(site)
        (site / "web" / "main.py").write_text(WORKER_MAIN, encoding="utf-8")
        index = site / "index.html"
        html = index.read_text(encoding="utf-8")
        old = '<script type="py" src="./web/main.py" config="./pyscript.toml"></script>'
        if html.count(old) != 1:
            raise SystemExit('startup_proto: index.html\'s <script type="py"> changed')
        index.write_text(html.replace(old, old.replace('type="py"', 'type="py" worker')), encoding="utf-8")
        return Site(name, site, header_rules(name == "pyworker"))
    if name == "worker":
        site = startup_steps.make_instrumented_site(dist, folder, False)
        (site / "proto-boot.mjs").write_text(PLAIN_BOOT, encoding="utf-8")
        (site / "proto-worker.mjs").write_text(PLAIN_WORKER, encoding="utf-8")
        index = site / "index.html"
        html = index.read_text(encoding="utf-8")
        html = re.sub(r'\s*<script type="py"[^>]*></script>', "", html)
        html = html.replace(
            '<script type="module" src="./vendor/pyscript-0.7.31/core.js"></script>',
            '<script type="module" src="./proto-boot.mjs"></script>',
        )
        if "proto-boot.mjs" not in html:
            raise SystemExit("startup_proto: index.html's PyScript script tag changed")
        index.write_text(html, encoding="utf-8")
        return Site(name, site, header_rules(False))
    raise SystemExit(f"unknown variant {name!r} (choose from {', '.join(VARIANTS)})")


def render_ops(dist: Path, tmp: Path, n: int) -> dict[str, float]:
    """ms for n synchronous DOM round trips from Python: on the page and from a PyScript worker."""
    from playwright.sync_api import sync_playwright

    from lab.browser.startup_phone import start_site_server

    out: dict[str, float] = {}
    for where in ("page", "pyworker"):
        site = make_variant("pyworker" if where == "pyworker" else "game", dist, tmp / f"ops-{where}", None)
        (site.path / "web" / "main.py").write_text(OPS_PY, encoding="utf-8")
        server = start_site_server(site)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(**launch_options())
                page = browser.new_page()
                page.add_init_script(f"window.__hxOps = {n};")
                page.goto(server.url)
                page.wait_for_selector("html.ready, .py-error", state="attached", timeout=120_000)
                if page.query_selector(".py-error"):
                    raise RuntimeError(page.inner_text(".py-error")[:500])
                page.wait_for_function("window.__hxOpsMs !== undefined", timeout=60_000)
                out[where] = float(page.evaluate("window.__hxOpsMs"))
                browser.close()
        finally:
            server.stop()
    return out


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description="Start-up prototypes: slicing vs. a worker, beside the game.")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--variants", default="game,sliced,pyworker,worker", help=f"of {', '.join(VARIANTS)}")
    parser.add_argument("--profiles", default="desktop,phone")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument(
        "--render-ops",
        type=int,
        default=0,
        metavar="N",
        help="also time N synchronous DOM round trips from a PyScript worker and from the page",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="write the variants' folders here (e.g. for lab.browser.startup_steps --site DIR/sliced)",
    )
    parser.add_argument("--json", type=Path)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    dist = args.dist.resolve()
    if not (dist / "index.html").is_file():
        print("startup_proto: dist/ missing: run python3 tools/build.py", file=sys.stderr)
        return 1
    variants = args.variants.split(",")
    profiles = parse_profiles(args.profiles)
    load_before = os.getloadavg()
    extra: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="hearts-proto-") as tmpdir:
        tmp = Path(tmpdir)
        order = import_order(dist, tmp) if "sliced" in variants else None
        if order:
            print(f"sliced: {len(order)} modules imported one by one (calibrated)", flush=True)
        sites = [make_variant(name, dist, tmp, order) for name in variants]
        if args.keep:
            for site in sites:
                shutil.rmtree(args.keep / site.name, ignore_errors=True)
                shutil.copytree(site.path, args.keep / site.name)
        results = measure(sites, profiles, args.runs) if args.runs else {}
        if args.render_ops:
            extra["render_ops"] = render_ops(dist, tmp, args.render_ops)
    load_after = os.getloadavg()
    print()
    print(
        f"Start-up prototypes: median of {args.runs} runs, alternating ({time.strftime('%Y-%m-%d %H:%M')}; "
        f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after)"
    )
    for profile in profiles:
        print("  " + profile.describe())
    if results:
        print("\n".join(table(results, profiles)))
    for profile in profiles:
        for name, runs in results.get(profile.name, {}).items():
            for kind in ("first", "returning"):
                notes = [r[kind]["notes"] for r in runs if r[kind]["notes"]]
                if notes:
                    keys = list(notes[0])
                    print(
                        f"{profile.name:9}{name:16}{kind:10} timed in the page's Python: "
                        + ", ".join(
                            f"{k} {statistics.median([float(n[k]) for n in notes if k in n]):.0f} ms" for k in keys
                        )
                    )
    if "render_ops" in extra:
        ops = extra["render_ops"]
        print(
            f"{args.render_ops} synchronous DOM round trips from Python: on the page {ops['page']:.0f} ms, "
            f"from a PyScript worker {ops['pyworker']:.0f} ms "
            f"({ops['pyworker'] / args.render_ops * 1000:.0f} µs each "
            f"against {ops['page'] / args.render_ops * 1000:.0f} µs)"
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "runs": results,
                    "median": medians(results) if results else {},
                    "extra": extra,
                    "load": [load_before, load_after],
                },
                indent=1,
            ),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
