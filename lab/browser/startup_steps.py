#!/usr/bin/env python3
"""Where the main thread's long tasks of a start come from: the start-up, step by step (issue 45).

    .venv/bin/python -m lab.browser.startup_steps [--runs 5] [--cpu 1,4] [--importtime] [--json F]

Not a test, and nothing of it ships. It copies ``dist/`` into a temporary folder and swaps two
files for instrumented ones, so the game starts exactly as it does but leaves performance marks:

* ``runtime.mjs``: ``tools/build.py``'s own ``RUNTIME_TEMPLATE`` with marks spliced in (each splice
  must match the template exactly once, or this fails: the steps measured are the product's), and
  Pyodide's ``createPyodideModule`` passed in (the same ``pyodide.asm.mjs``, imported here) so that
  the steps inside ``loadPyodide`` show: the import of ``pyodide.asm.mjs`` (1.25 MB of JavaScript),
  the wasm's ``instantiateStreaming``, writing the standard library's zip into the file system,
  Python's ``main()`` (``Py_Initialize``: encodings, zipimport of the start-up modules), Pyodide's
  ``finalizeBootstrap`` (its own packages, asyncio's loop), decoding each archive (fzstd) and
  unpacking ``app.zst``;
* ``web/main.py``: the product's, with marks spliced in: importing the engine, importing the game
  (``hearts_web.controller`` and all it imports, after a task boundary), building the
  ``Controller`` and ``start()`` (the first render; it sets ``html.ready``).

Between the runtime's end and ``main.py`` is PyScript's own set-up; before ``loadPyodide``, the
HTML, PyScript's core and config. Every main-thread task over 50 ms (``longtask`` observer) is cut
into the steps it overlaps; what no step covers is "other" (script compilation, GC, PyScript).
``--importtime`` runs Python with ``PYTHONPROFILEIMPORTTIME=1`` and lists the slowest imports (it
slows the start a little). Visits as in ``lab.browser.startup_phone`` (first and returning, the
third), at each ``--cpu`` rate (DevTools CPU throttling; no network throttling: the steps are CPU).
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
from typing import Any, TypedDict

from playwright.sync_api import BrowserContext, Playwright

from lab.browser.startup import WAIT_SW
from lab.browser.startup_phone import RAW, Profile, Site, launch_profile, start_site_server, throttle, visit_metrics
from tools import build, serve

ROOT = Path(__file__).resolve().parents[2]

# Helpers put in front of the runtime module: M(name) marks a point, S(name, t0) a span from t0.
PRELUDE = """
const HX = (name) => "hx:" + name;
const M = (name) => performance.mark(HX(name));
const S = (name, start) => performance.measure(HX(name), { start, end: performance.now() });
const NOW = () => performance.now();
const IMPORTTIME = __IMPORTTIME__;
globalThis.__hxImports = [];
M("runtime.mjs evaluated");
"""

# (what the product's template has, what the instrumented copy has instead): each exactly once
SPLICES = [
    ("export { version };\n", "export { version };\n" + PRELUDE),
    (
        """async function archive(url) {
  return unzstd(await fetched(url));
}""",
        """async function archive(url) {
  const name = url.split("/").pop().replace(/-[0-9a-f]+\\.zst$|\\.zst$/, "");
  const bytes = await fetched(url);
  M(`fetched ${name}`);
  const t = NOW();
  const out = unzstd(bytes);
  S(`decode ${name} (fzstd)`, t);
  return out;
}

// Pyodide's createPyodideModule (the default export of pyodide.asm.mjs), with marks: loadPyodide
// calls it instead of importing pyodide.asm.mjs itself.
async function createPyodideModule(settings) {
  let t = NOW();
  const create = (await import(new URL("./pyodide.asm.mjs", INDEX_URL).href)).default;
  S("import pyodide.asm.mjs", t);
  await nextTask();  // as the runtime's pyodideModule
  const instantiate = WebAssembly.instantiateStreaming;
  let instantiated = 0;
  WebAssembly.instantiateStreaming = async (...args) => {
    WebAssembly.instantiateStreaming = instantiate;
    const t = NOW();
    try { return await instantiate.apply(WebAssembly, args); }
    finally { S("wasm instantiateStreaming", t); instantiated = NOW(); }
  };
  let main = 0;
  settings.onRuntimeInitialized = () => {
    main = NOW();
    if (instantiated) S("Emscripten set-up (instance → main())", instantiated);
  };
  const module = await create(settings);
  if (main) S("Python main() (Py_Initialize)", main);
  const restore = module.API.restoreSnapshot;
  module.API.restoreSnapshot = function (...args) {
    const t = NOW();
    try { return restore.apply(this, args); } finally { S("restore the snapshot", t); }
  };
  const finalize = module.API.finalizeBootstrap;
  module.API.finalizeBootstrap = function (...args) {
    const t = NOW();
    try { return finalize.apply(this, args); } finally { S("Pyodide finalizeBootstrap", t); }
  };
  return module;
}

// the standard library's zip written into the file system (Pyodide's installStdlib)
function fsInit(FS) {
  const write = FS.writeFile;
  FS.writeFile = function (path, ...rest) {
    const t = NOW();
    try { return write.call(this, path, ...rest); }
    finally { if (String(path).endsWith(".zip")) S("write stdlib zip to FS", t); }
  };
}

function instrument(options) {
  const extra = { createPyodideModule, fsInit };
  if (IMPORTTIME) {
    const stderr = options.stderr;
    extra.env = { ...(options.env || {}), PYTHONPROFILEIMPORTTIME: "1" };
    extra.stderr = (line) => {
      if (String(line).startsWith("import time:")) globalThis.__hxImports.push([NOW(), String(line)]);
      else if (stderr) stderr(line);
    };
  }
  return extra;
}""",
    ),
    (
        "export async function loadPyodide(options = {}) {\n",
        'export async function loadPyodide(options = {}) {\n  M("loadPyodide called (by PyScript)");\n',
    ),
    (
        "  let snapshot = await storedSnapshot();\n",
        '  const tRead = NOW();\n  let snapshot = await storedSnapshot();\n  S("read the stored snapshot", tRead);\n',
    ),
    (
        "    snapshot = await snapshotFromWorker(...raw);\n",
        "    const tWorker = NOW();\n    snapshot = await snapshotFromWorker(...raw);\n"
        '    S("snapshot worker (off the page)", tWorker);\n',
    ),
    ("      ...options, indexURL", "      ...options, ...instrument(options), indexURL"),
    (
        "createPyodideModule: thenYield(pyodideModule, intact),",
        "createPyodideModule: thenYield(createPyodideModule, intact),",
    ),
    (
        """  unzip(py, appBytes);""",
        """  let t = NOW();
  unzip(py, appBytes);
  S("unpack app", t);
  M("runtime done (back to PyScript)");""",
    ),
]

# (what the product's web/main.py has, what the instrumented copy has instead): each exactly once
MAIN_SPLICES = [
    (
        "import asyncio\n",
        'import asyncio\n\nimport js\n\njs.performance.mark("hx:main.py runs")\n_t = js.performance.now()\n',
    ),
    (
        "import hearts.table  # noqa: F401  (the engine, and the bots' players)\n",
        "import hearts.table  # noqa: F401\n"
        'js.performance.measure("hx:import the engine", {"start": _t, "end": js.performance.now()})\n',
    ),
    (
        "from hearts_web.controller import Controller  # noqa: E402\n",
        "_t = js.performance.now()\n"
        "from hearts_web.controller import Controller  # noqa: E402\n"
        'js.performance.measure("hx:import the game", {"start": _t, "end": js.performance.now()})\n',
    ),
    (
        "\nController().start()\n",
        """
_t = js.performance.now()
_controller = Controller()
js.performance.measure("hx:Controller()", {"start": _t, "end": js.performance.now()})
_t = js.performance.now()
_controller.start()
js.performance.measure("hx:start() (first render)", {"start": _t, "end": js.performance.now()})
""",
    ),
]

READ = """() => ({
  marks: performance.getEntriesByType("mark").filter((e) => e.name.startsWith("hx:"))
    .map((e) => [e.name.slice(3), e.startTime]),
  spans: performance.getEntriesByType("measure").filter((e) => e.name.startsWith("hx:"))
    .map((e) => [e.name.slice(3), e.startTime, e.duration]),
  imports: globalThis.__hxImports || [],
})"""


def instrumented_runtime(importtime: bool) -> str:
    """build.RUNTIME_TEMPLATE with the splices; fails if the template no longer has one of them."""
    text = build.RUNTIME_TEMPLATE
    for old, new in SPLICES:
        if text.count(old) != 1:
            raise SystemExit(f"startup_steps: tools/build.py's RUNTIME_TEMPLATE changed, update SPLICES: {old[:60]!r}")
        text = text.replace(old, new)
    return text.replace("__IMPORTTIME__", "true" if importtime else "false")


def make_instrumented_site(dist: Path, tmp: Path, importtime: bool) -> Path:
    """A copy of dist/ with the instrumented runtime.mjs and web/main.py."""
    site = tmp / "instrumented"
    shutil.copytree(dist, site)
    stdlib = next(p for p in (site / "vendor").glob("pyodide-*/stdlib-*.zst"))
    original = build.RUNTIME_TEMPLATE
    try:
        build.RUNTIME_TEMPLATE = instrumented_runtime(importtime)
        build.write_runtime_module(ROOT, site, build.vendor_versions(ROOT), stdlib.relative_to(site).as_posix())
    finally:
        build.RUNTIME_TEMPLATE = original
    main = site / "web" / "main.py"
    text = main.read_text(encoding="utf-8")
    for old, new in MAIN_SPLICES:
        if text.count(old) != 1:
            raise SystemExit(f"startup_steps: web/main.py changed, update MAIN_SPLICES: {old.strip()[:60]!r}")
        text = text.replace(old, new)
    main.write_text(text, encoding="utf-8")
    return site


TRACE_CATEGORIES = ",".join(
    [
        "toplevel",
        "devtools.timeline",
        "disabled-by-default-devtools.timeline",
        "v8",
        "v8.execute",
        "v8.wasm",
        "disabled-by-default-v8.compile",
        "disabled-by-default-v8.gc",
        "blink.user_timing",
    ]
)
# What kind of work a trace event's own time is (the first rule that matches its name; else running code)
WORK_KINDS = (
    (
        "compile JS",
        (
            "V8.Compile",
            "V8.Parse",
            "V8.PreParse",
            "V8.CollectSourcePositions",
            "v8.compile",
            "V8.ScriptCompiler",
            "V8.StreamingFinalization",
            "V8.DeserializeContext",
            "v8.deserialize",
        ),
    ),
    ("wasm compile, instantiate", ("wasm.", "v8.wasm", "V8.Wasm", "FlushInstructionCache")),
    ("GC", ("GC", "V8.GC", "MajorGC", "MinorGC", "BlinkGC")),
    (
        "style, layout, paint",
        (
            "Layout",
            "UpdateLayoutTree",
            "Paint",
            "PrePaint",
            "Commit",
            "Layerize",
            "RecalculateStyles",
            "ParseHTML",
            "ParseAuthorStyleSheet",
            "HitTest",
            "ScheduleStyleRecalculation",
            "IntersectionObserver",
            "UpdateLayer",
            "CompositeLayers",
        ),
    ),
)


def work_kind(name: str) -> str:
    for kind, prefixes in WORK_KINDS:
        if any(name.startswith(p) for p in prefixes):
            return kind
    return "run JS, wasm (Python)"


def trace_tasks(
    events: list[dict[str, Any]], marks: dict[str, float], threshold: float = 50.0
) -> list[tuple[float, float, dict[str, float]]]:
    """The page's main-thread tasks over ``threshold`` ms in a Chrome trace: (start, ms, {work kind: ms}),
    start in the page's performance.now() (matched through the hx: marks the trace recorded)."""
    user = [e for e in events if str(e.get("name", "")).startswith("hx:") and "user_timing" in str(e.get("cat", ""))]
    if not user:
        return []
    counts: dict[tuple[int, int], int] = {}
    for e in user:
        counts[(e["pid"], e["tid"])] = counts.get((e["pid"], e["tid"]), 0) + 1
    pid, tid = max(counts, key=lambda k: counts[k])
    offset = next((e["ts"] / 1000 - marks[e["name"][3:]] for e in user if e["name"][3:] in marks), 0.0)
    spans: list[dict[str, Any]] = []
    open_: list[dict[str, Any]] = []
    for e in sorted((e for e in events if e.get("pid") == pid and e.get("tid") == tid), key=lambda e: e["ts"]):
        if e.get("ph") == "X" and "dur" in e:
            spans.append(e)
        elif e.get("ph") == "B":
            open_.append(e)
        elif e.get("ph") == "E" and open_:
            begin = open_.pop()
            spans.append({**begin, "dur": e["ts"] - begin["ts"]})
    spans.sort(key=lambda e: (e["ts"], -e["dur"]))
    out: list[tuple[float, float, dict[str, float]]] = []
    stack: list[dict[str, Any]] = []  # [event with "own" = its dur minus its children's]
    roots: list[dict[str, Any]] = []
    for e in spans:
        node = {"name": e["name"], "ts": e["ts"], "dur": e["dur"], "own": e["dur"], "children": []}
        while stack and stack[-1]["ts"] + stack[-1]["dur"] <= e["ts"]:
            stack.pop()
        if stack:
            stack[-1]["children"].append(node)
            stack[-1]["own"] -= e["dur"]
        else:
            roots.append(node)
        stack.append(node)
    for root in roots:
        if root["dur"] / 1000 < threshold:
            continue
        kinds: dict[str, float] = {}
        todo = [root]
        while todo:
            node = todo.pop()
            kind = work_kind(node["name"])
            kinds[kind] = kinds.get(kind, 0.0) + max(0.0, node["own"]) / 1000
            todo.extend(node["children"])
        out.append((root["ts"] / 1000 - offset, root["dur"] / 1000, kinds))
    return out


class Span(TypedDict):
    name: str
    start: float  # ms from navigation start
    ms: float


class StepVisit(TypedDict):
    fcp: float | None
    ready: float
    tbt: float
    longtasks: list[tuple[float, float]]
    spans: list[Span]
    marks: list[tuple[str, float]]
    imports: list[tuple[float, str]]
    traced: list[tuple[float, float, dict[str, float]]]  # --trace: main-thread tasks over 50 ms by kind of work


PHASES = (
    "navigation → loadPyodide (HTML, PyScript core, config)",
    "loadPyodide → runtime done",
    "PyScript set-up → main.py runs",
    "main.py → ready",
)


def phases(marks: dict[str, float], ready: float) -> list[Span]:
    """The whole start as consecutive phases, from the marks (ready in ms)."""
    bounds = [
        0.0,
        marks.get("loadPyodide called (by PyScript)"),
        marks.get("runtime done (back to PyScript)"),
        marks.get("main.py runs"),
        ready,
    ]
    return [
        Span(name=name, start=a, ms=b - a)
        for name, a, b in zip(PHASES, bounds, bounds[1:])
        if a is not None and b is not None
    ]


def overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


# Spans that contain other steps (the module import spans the wasm's start, the wasm's promise spans
# Python's main()): only the time the inner steps leave counts as theirs.
NESTING = ("import pyodide.asm.mjs", "wasm instantiateStreaming")


def task_parts(t0: float, duration: float, spans: list[Span]) -> list[tuple[str, float]]:
    """How one task splits into the steps: [(step, ms)], each ms counted once, the rest as "other"."""
    t1 = t0 + duration
    leaves = [sp for sp in spans if sp["name"] not in NESTING]
    parts: dict[str, float] = {}
    for sp in leaves:
        parts[sp["name"]] = parts.get(sp["name"], 0.0) + overlap(t0, t1, sp["start"], sp["start"] + sp["ms"])
    claimed: list[tuple[float, float]] = [(max(t0, sp["start"]), min(t1, sp["start"] + sp["ms"])) for sp in leaves]
    for name in NESTING:
        for sp in (x for x in spans if x["name"] == name):
            a, b = max(t0, sp["start"]), min(t1, sp["start"] + sp["ms"])
            own = max(0.0, b - a) - sum(overlap(a, b, c0, c1) for c0, c1 in claimed if c1 > c0)
            parts[name] = parts.get(name, 0.0) + max(0.0, own)
            claimed.append((a, b))
    parts["other"] = max(0.0, duration - sum(parts.values()))
    return [(n, ms) for n, ms in parts.items() if ms >= 0.5]


def task_breakdown(visit: StepVisit) -> list[tuple[float, float, list[tuple[str, float]], list[tuple[str, float]]]]:
    """Each long task: (start, duration, its steps [(step, ms)], its phases [(phase, ms)])."""
    marks = dict(visit["marks"])
    ph = phases(marks, visit["ready"] * 1000)
    out = []
    for t0, duration in visit["longtasks"]:
        by_phase = [(p["name"], overlap(t0, t0 + duration, p["start"], p["start"] + p["ms"])) for p in ph]
        out.append(
            (t0, duration, task_parts(t0, duration, visit["spans"]), [(n, ms) for n, ms in by_phase if ms >= 0.5])
        )
    return out


def visit(context: BrowserContext, url: str, profile: Profile, wait_sw: bool, trace: bool = False) -> StepVisit:
    page = context.new_page()
    events: list[dict[str, Any]] = []
    complete: list[bool] = []
    try:
        throttle(context, page, profile)
        if trace:
            cdp = context.new_cdp_session(page)
            cdp.on("Tracing.dataCollected", lambda ev: events.extend(ev["value"]))
            cdp.on("Tracing.tracingComplete", lambda ev: complete.append(True))
            cdp.send("Tracing.start", {"categories": TRACE_CATEGORIES, "transferMode": "ReportEvents"})
        page.goto(url, wait_until="commit", timeout=300_000)
        page.wait_for_selector("html.ready, .py-error", state="attached", timeout=300_000)
        if page.query_selector(".py-error"):
            raise RuntimeError(f"Python error: {page.inner_text('.py-error')[:500]}")
        page.wait_for_function("window.__startup && window.__startup.readyAt !== null", timeout=10_000)
        page.wait_for_timeout(500 * profile.cpu)
        raw = page.evaluate(RAW)
        data = page.evaluate(READ)
        if trace:
            cdp.send("Tracing.end")
            for _ in range(600):
                if complete:
                    break
                page.wait_for_timeout(100)
        if wait_sw:
            page.evaluate(WAIT_SW)
        metrics = visit_metrics(raw)
        marks = [(str(n), float(t)) for n, t in data["marks"]]
        return StepVisit(
            fcp=metrics["fcp"],
            ready=metrics["ready"],
            tbt=metrics["tbt"],
            longtasks=metrics["longtasks"],
            spans=[Span(name=n, start=float(s), ms=float(d)) for n, s, d in data["spans"]],
            marks=marks,
            imports=[(float(t), str(line)) for t, line in data["imports"]],
            traced=trace_tasks(events, dict(marks)) if trace else [],
        )
    finally:
        page.close()


def one_profile(
    pw: Playwright, tmp: Path, url: str, profile: Profile, run: int, trace: bool = False
) -> dict[str, StepVisit]:
    folder = tmp / f"profile-{profile.name}-{run}"
    context = launch_profile(pw, folder, profile)
    try:
        first = visit(context, url, profile, wait_sw=True, trace=trace)
        visit(context, url, profile, wait_sw=False)
        returning = visit(context, url, profile, wait_sw=False, trace=trace)
        return {"first": first, "returning": returning}
    finally:
        context.close()
        shutil.rmtree(folder, ignore_errors=True)


IMPORT_LINE = re.compile(r"import time:\s+(\d+)\s+\|\s+(\d+)\s+\|( *)(\S+)")


def top_imports(visit: StepVisit, top: int = 8) -> dict[str, list[tuple[str, float]]]:
    """The outermost imports (``PYTHONPROFILEIMPORTTIME``'s lines of the least indentation), by the step
    they finished in, the slowest first: {step: [(module, cumulative ms)]}."""
    steps = [sp for sp in visit["spans"] if sp["name"] not in NESTING]
    marks = dict(visit["marks"])
    phase_spans = phases(marks, visit["ready"] * 1000)
    rows = []
    for at, line in visit["imports"]:
        m = IMPORT_LINE.match(line)
        if m:
            rows.append((at, m.group(4), int(m.group(2)) / 1000, len(m.group(3))))
    if not rows:
        return {}
    outer = min(r[3] for r in rows)
    out: dict[str, list[tuple[str, float]]] = {}
    for at, name, cumulative, depth in rows:
        if depth != outer:
            continue
        where = next((sp["name"] for sp in steps if sp["start"] <= at <= sp["start"] + sp["ms"]), None)
        where = where or next((sp["name"] for sp in phase_spans if sp["start"] <= at <= sp["start"] + sp["ms"]), "?")
        out.setdefault(where, []).append((name, cumulative))
    return {k: sorted(v, key=lambda r: -r[1])[:top] for k, v in out.items()}


def timeline(visit: StepVisit) -> list[str]:
    """Every mark, step, task over 50 ms and outermost import of one visit, in time order (ms)."""
    events: list[tuple[float, str]] = [(t, f"mark   {name}") for name, t in visit["marks"]]
    events += [
        (sp["start"], f"step   {sp['name']} {sp['ms']:.0f} ms (to {sp['start'] + sp['ms']:.0f})")
        for sp in visit["spans"]
    ]
    events += [(t0, f"TASK   {d:.0f} ms (to {t0 + d:.0f})") for t0, d in visit["longtasks"]]
    rows = [(at, IMPORT_LINE.match(line)) for at, line in visit["imports"]]
    outer = min((len(m.group(3)) for _, m in rows if m), default=0)
    events += [
        (at, f"import {m.group(4)} {int(m.group(2)) / 1000:.0f} ms (done)")
        for at, m in rows
        if m and len(m.group(3)) == outer
    ]
    events += [
        (
            t0,
            f"trace  {ms:.0f} ms: "
            + ", ".join(f"{k} {v:.0f}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]) if v >= 2),
        )
        for t0, ms, kinds in visit["traced"]
    ]
    if visit["fcp"] is not None:
        events.append((visit["fcp"] * 1000, "mark   first paint"))
    events.append((visit["ready"] * 1000, "mark   ready"))
    return [f"{t:8.0f}  {text}" for t, text in sorted(events)]


def summarize(runs: list[dict[str, StepVisit]], kind: str) -> dict[str, dict[str, float]]:
    """Medians over runs, per phase and per step: its wall time (ms), its time inside tasks over 50 ms
    (in_long), and the longest task it was part of (longest); the phases' in_long up to ready."""
    per: dict[str, dict[str, list[float]]] = {}
    order: list[str] = list(PHASES)
    for run in runs:
        v = run[kind]
        marks = dict(v["marks"])
        seen: dict[str, dict[str, float]] = {}

        def entry(name: str, seen: dict[str, dict[str, float]] = seen) -> dict[str, float]:
            if name not in order:
                order.append(name)
            return seen.setdefault(name, {"ms": 0.0, "in_long": 0.0, "longest": 0.0})

        for sp in phases(marks, v["ready"] * 1000) + v["spans"]:
            entry(sp["name"])["ms"] += sp["ms"]
        for _, duration, parts, by_phase in task_breakdown(v):
            for name, ms in parts + by_phase:
                d = entry(name)
                d["in_long"] += ms
                d["longest"] = max(d["longest"], duration)
        for name, d in seen.items():
            for key, value in d.items():
                per.setdefault(name, {}).setdefault(key, []).append(value)
    return {
        name: {key: statistics.median(values + [0.0] * (len(runs) - len(values))) for key, values in per[name].items()}
        for name in order
        if name in per
    }


def work_kinds(runs: list[dict[str, StepVisit]], kind: str) -> dict[str, float]:
    """Medians over runs of the traced long tasks' time by kind of work, between first paint and ready."""
    sums: dict[str, list[float]] = {}
    for run in runs:
        v = run[kind]
        start, end = (v["fcp"] or 0.0) * 1000, v["ready"] * 1000
        total: dict[str, float] = {}
        for t0, ms, kinds in v["traced"]:
            if t0 + ms <= start or t0 >= end:
                continue
            for name, value in kinds.items():
                total[name] = total.get(name, 0.0) + value
        for name, value in total.items():
            sums.setdefault(name, []).append(value)
    return {
        name: statistics.median(values + [0.0] * (len(runs) - len(values)))
        for name, values in sorted(sums.items(), key=lambda kv: -sum(kv[1]))
    }


def median_run(runs: list[dict[str, StepVisit]], kind: str) -> StepVisit:
    """The run whose TBT is the median one."""
    ranked = sorted(runs, key=lambda r: r[kind]["tbt"])
    return ranked[len(ranked) // 2][kind]


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description="The start-up's main-thread work, step by step.")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cpu", default="1,4", help="comma-separated CPU slowdowns (default 1,4)")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument(
        "--site",
        type=Path,
        help="measure this folder as it is (e.g. a variant written by "
        "lab.browser.startup_proto --keep) instead of instrumenting dist/",
    )
    parser.add_argument("--importtime", action="store_true", help="PYTHONPROFILEIMPORTTIME=1: the slowest imports")
    parser.add_argument(
        "--trace",
        action="store_true",
        help="record a Chrome trace of each measured visit: the long tasks' time by kind of work",
    )
    parser.add_argument("--timeline", action="store_true", help="print the median run's events in time order")
    parser.add_argument("--json", type=Path, help="also write every visit here")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    from playwright.sync_api import sync_playwright

    dist = args.dist.resolve()
    if not (dist / "index.html").is_file():
        print("startup_steps: dist/ missing: run python3 tools/build.py", file=sys.stderr)
        return 1
    profiles = [Profile("desktop" if float(c) == 1 else f"cpu{float(c):g}x", float(c)) for c in args.cpu.split(",")]
    load_before = os.getloadavg()
    results: dict[str, list[dict[str, StepVisit]]] = {p.name: [] for p in profiles}
    with tempfile.TemporaryDirectory(prefix="hearts-steps-") as tmpdir:
        tmp = Path(tmpdir)
        folder = args.site.resolve() if args.site else make_instrumented_site(dist, tmp, args.importtime)
        site = Site("instrumented", folder, tuple(serve.load_header_rules()))
        server = start_site_server(site)
        try:
            with sync_playwright() as pw:
                for run in range(args.runs):
                    for profile in profiles if run % 2 == 0 else list(reversed(profiles)):
                        r = one_profile(pw, tmp, server.url, profile, run, args.trace)
                        results[profile.name].append(r)
                        print(
                            f"run {run + 1}/{args.runs} {profile.name:8} "
                            + "  ".join(f"{k} ready {r[k]['ready']:.2f} s TBT {r[k]['tbt'] * 1000:.0f} ms" for k in r),
                            flush=True,
                        )
        finally:
            server.stop()
    load_after = os.getloadavg()
    print()
    print(
        f"Start-up steps, median of {args.runs} runs ({time.strftime('%Y-%m-%d %H:%M')}; load average "
        f"{load_before[0]:.1f} before, {load_after[0]:.1f} after; ms)"
    )
    summary: dict[str, dict[str, Any]] = {}
    for kind in ("returning", "first"):
        for profile in profiles:
            s = summarize(results[profile.name], kind)
            summary[f"{profile.name} {kind}"] = s
            slowed = "" if profile.cpu == 1 else f" (CPU slowed {profile.cpu:g}x)"
            print(f"\n{profile.name}, {kind} visit{slowed}")
            print(f"  {'phase / step':58}{'ms':>8}{'in tasks>50':>13}{'its task':>10}")
            for name, d in s.items():
                indent = "" if name in PHASES else "  "
                figures = f"{d.get('ms', 0):>8.0f}{d.get('in_long', 0):>13.0f}{d.get('longest', 0):>10.0f}"
                print(f"  {indent + name:58}{figures}")
            v = median_run(results[profile.name], kind)
            print(f"  the long tasks of the run with the median TBT ({v['tbt'] * 1000:.0f} ms; ", end="")
            print(f"ready {v['ready'] * 1000:.0f} ms):")
            for t0, duration, parts, _ in task_breakdown(v):
                if t0 > v["ready"] * 1000:
                    continue
                print(
                    f"    at {t0:6.0f} {duration:6.0f} ms: "
                    + ", ".join(f"{name} {ms:.0f}" for name, ms in sorted(parts, key=lambda p: -p[1]) if ms >= 5)
                )
        if args.trace:
            for profile in profiles:
                print(
                    f"\n{profile.name}, {kind}: main-thread tasks over 50 ms between first paint and ready, by kind "
                    "of work (Chrome trace; median of the runs' sums, ms)"
                )
                print("  " + "  ".join(f"{k} {v:.0f}" for k, v in work_kinds(results[profile.name], kind).items()))
        if args.timeline:
            for profile in profiles:
                print(f"\n{profile.name}, {kind}: timeline of the run with the median TBT")
                print("\n".join(timeline(median_run(results[profile.name], kind))))
        if args.importtime:
            for profile in profiles:
                v = median_run(results[profile.name], kind)
                print(
                    f"\n{profile.name}, {kind}: the slowest outermost imports by the step they ran in "
                    "(run with the median TBT; cumulative ms)"
                )
                for step, rows in top_imports(v).items():
                    total = sum(ms for _, ms in rows)
                    print(f"  {step} ({total:.0f} ms in these): " + ", ".join(f"{n} {ms:.0f}" for n, ms in rows))
    print(
        "\nms: the step's wall time; in tasks>50: how much of it ran inside main-thread tasks over 50 ms; "
        "its task: the longest such task it was part of; 'other': task time no step covers"
    )
    if args.json:
        args.json.write_text(
            json.dumps({"runs": results, "summary": summary, "load": [load_before, load_after]}, indent=1),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
