#!/usr/bin/env python3
"""Hard in the real browser (headless Chromium, Pyodide): worlds per decision at the UI budget,
decision times, main-thread long tasks; and what a Web Worker would cost and give.

    .venv/bin/python -m lab.browser.hard_bench [--hands 8] [--budget-ms 250] [--version 2] [--worker]

Not a test. Serves a temporary site made of the game's own ``app.zip`` and Pyodide runtime
(``tools/build.py`` functions, headers of netlify.toml) plus the page of
``lab/browser/page/``, which boots Pyodide on the page's main thread and runs
``lab.botbench`` (Hard in all four seats, budget mode) driven like the game drives its
bots: the page gets a turn whenever the next slice would push a task past 30 ms. Long tasks
(> 50 ms) are recorded with a PerformanceObserver.

``--worker`` also measures a dedicated module worker with its own Pyodide: start-up, message
round trip, one decision from a match record (replay + search), the benchmark inside the
worker (no slicing), and memory: the wasm heap of each interpreter and the proportional set
size (PSS) of all Chromium processes before and after the worker started.

Prints a report; ``--json FILE`` also writes the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Literal, TypedDict

from hearts.bots.config import CONFIGS
from lab.botbench import BenchResult
from tools import build, serve
from tools.chromium import launch_options

ROOT = Path(__file__).resolve().parents[2]

ASSETS = Path(__file__).resolve().parent / "page"


# What the page's window.bench (page/bench.js) returns: times in ms, wasm heaps in bytes
class Boot(TypedDict):
    """``bench.bootMain()``: Pyodide on the page, then app.zip and ``import hearts.bots``."""

    pyodideMs: float
    readyMs: float
    heap: int


class WorkerStart(Boot):
    """``bench.startWorker()``: the same in a new worker, from ``new Worker``."""

    startMs: float


class Run(TypedDict):
    """``bench.runMain()`` and ``bench.benchInWorker()``: the botbench's figures, the page's long tasks."""

    result: BenchResult
    longTasks: list[float]
    heap: int


class WorkerDecision(TypedDict):
    """One of ``bench.decideInWorker()``: page/bench_page.py's ``decide_from_record`` and the round trip."""

    replay_ms: float
    decide_ms: float
    card: str
    worlds: int
    workerMs: float
    roundTripMs: float
    recordBytes: int


class Memory(TypedDict, total=False):
    """The PSS of our Chromium (kB) at each step; the worker's only with ``--worker``."""

    before_python: int
    main_python: int
    with_worker: int
    after_worker_bench: int


# the median worlds per --budget-ms of a play and of a pass, and the plays' p10 and p90 ("pass" is a
# keyword: the functional form)
Calibration = TypedDict("Calibration", {"play": float, "pass": float, "play_p10": float, "play_p90": float})


class _Figures(TypedDict):
    args: dict[str, str]  # the command line's options
    load: str  # the load average before the run


class Figures(_Figures, total=False):
    """A run's report (and ``--json``), filled in as the run goes: the worker's parts with
    ``--worker``, the calibration with ``--calibrate``."""

    version: str  # Chromium's
    boot_main: Boot
    main: Run
    main_seconds: float
    pss_kb: Memory
    worker_start: WorkerStart
    echo_ms: list[float]  # empty messages' round trips
    decide: list[WorkerDecision]
    worker: Run
    calibration: Calibration


def make_site(tmp: Path) -> Path:
    site = tmp / "site"
    site.mkdir()
    versions = build.vendor_versions(ROOT)
    with zipfile.ZipFile(site / "app.zip", "w") as app:  # the engine's source and the lab's botbench
        sources = sorted((ROOT / "hearts").rglob("*.py"))
        sources += [ROOT / "lab" / name for name in ("__init__.py", "botbench.py", "timed.py")]
        for path in sources:
            app.write(path, path.relative_to(ROOT).as_posix())
    build.copy_stock_vendor(ROOT, site, versions)  # Pyodide with its full stdlib: the page boots it bare
    (site / "vendor" / f"pyodide-{versions['pyodide']}").rename(site / "vendor" / "pyodide")
    for path in ASSETS.iterdir():
        shutil.copyfile(path, site / path.name)
    return site


PROFILE = """
import cProfile, io, pstats
from lab.botbench import bench
bench(1, None, {iterations}, 99, {version})  # warm-up
profile = cProfile.Profile()
profile.enable()
bench({hands}, None, {iterations}, 1, {version})
profile.disable()
out = io.StringIO()
pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(18)
out.getvalue()
"""


MARKER = f"--hearts-bench-run={os.getpid()}"  # an unknown switch Chromium ignores: finds our browser


def chromium_pss_kb() -> int:
    """PSS of our Chromium: the browser process started with MARKER and all its descendants
    (other Chromium instances on the machine are not counted)."""
    parent: dict[int, int] = {}
    roots = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            parent[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
            if MARKER.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                roots.append(int(entry))
        except (OSError, ValueError, IndexError):
            continue
    ours = set(roots)
    grew = True
    while grew:
        grew = False
        for pid, ppid in parent.items():
            if ppid in ours and pid not in ours:
                ours.add(pid)
                grew = True
    total = 0
    for pid in ours:
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--budget-ms", type=float, default=250.0)
    parser.add_argument("--iterations", type=int, default=0, help="fixed worlds instead of the budget")
    parser.add_argument(
        "--version", type=int, default=0, choices=[0, *sorted(CONFIGS)], help="Hard's version (0: the latest)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--warmup",
        type=int,
        default=1,
        help="hands played first and not counted (V8 tiers the wasm up in the first seconds)",
    )
    parser.add_argument("--slice-ms", type=float, default=30.0, help="main-thread task budget (the game: 30 ms)")
    parser.add_argument("--worker", action="store_true", help="also measure a Web Worker")
    parser.add_argument(
        "--calibrate",
        type=int,
        default=0,
        metavar="R",
        help="with --iterations: play the same hands R times and convert each decision's fastest "
        "time into worlds per --budget-ms (robust to other load on the machine)",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--profile",
        action="store_true",
        help="only profile (cProfile) the benchmark at --iterations in the page and print the top",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)

    from playwright.sync_api import sync_playwright

    out: Figures = {
        "args": {k: str(v) for k, v in vars(args).items()},
        "load": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
    }
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        site = make_site(Path(tmp))
        server = serve.start_server(site)
        options = launch_options()
        options["args"] = [*options["args"], MARKER]
        browser = pw.chromium.launch(**options)
        try:
            page = browser.new_page()
            page.on("console", lambda m: print(f"[console] {m.text}", file=sys.stderr) if m.type == "error" else None)
            page.on("pageerror", lambda e: print(f"[pageerror] {e}", file=sys.stderr))
            page.goto(server.url + "/index.html")
            page.wait_for_selector("html.ready", state="attached", timeout=60_000)
            out["version"] = browser.version
            pss0 = chromium_pss_kb()
            out["boot_main"] = page.evaluate("bench.bootMain()")
            pss_main = chromium_pss_kb()
            if args.profile:
                print(
                    page.evaluate(
                        "(code) => bench.run(code)",
                        PROFILE.format(
                            hands=args.hands, iterations=args.iterations or 200, version=args.version or None
                        ),
                    )
                )
                return 0
            if args.warmup:
                page.evaluate(
                    "([h, b, i, s, v, sl]) => bench.runMain(h, b, i, s, v, sl)",
                    [args.warmup, args.budget_ms, args.iterations, args.seed + 1000, args.version, args.slice_ms],
                )
            t0 = time.perf_counter()
            out["main"] = page.evaluate(
                "([h, b, i, s, v, sl]) => bench.runMain(h, b, i, s, v, sl)",
                [args.hands, args.budget_ms, args.iterations, args.seed, args.version, args.slice_ms],
            )
            out["main_seconds"] = time.perf_counter() - t0
            for _ in range(max(0, args.calibrate - 1)):
                again = page.evaluate(
                    "([h, b, i, s, v, sl]) => bench.runMain(h, b, i, s, v, sl)",
                    [args.hands, args.budget_ms, args.iterations, args.seed, args.version, args.slice_ms],
                )
                keys: tuple[Literal["searched_ms", "pass_ms"], ...] = ("searched_ms", "pass_ms")
                for key in keys:
                    out["main"]["result"][key] = [
                        min(a, b) for a, b in zip(out["main"]["result"][key], again["result"][key])
                    ]
            out["pss_kb"] = {"before_python": pss0, "main_python": pss_main}
            if args.worker:
                out["worker_start"] = page.evaluate("bench.startWorker()")
                out["pss_kb"]["with_worker"] = chromium_pss_kb()
                out["echo_ms"] = page.evaluate("bench.echo(200)")
                out["decide"] = page.evaluate(
                    "([b, v]) => bench.decideInWorker(b, v, 5)", [args.budget_ms, args.version]
                )
                if args.warmup:
                    page.evaluate(
                        "([h, b, i, s, v]) => bench.benchInWorker(h, b, i, s, v)",
                        [args.warmup, args.budget_ms, args.iterations, args.seed + 1000, args.version],
                    )
                out["worker"] = page.evaluate(
                    "([h, b, i, s, v]) => bench.benchInWorker(h, b, i, s, v)",
                    [args.hands, args.budget_ms, args.iterations, args.seed, args.version],
                )
                out["pss_kb"]["after_worker_bench"] = chromium_pss_kb()
        finally:
            browser.close()
            server.stop()
    if args.calibrate and args.iterations:
        r = out["main"]["result"]
        per_play = [w * args.budget_ms / t for w, t in zip(r["worlds"], r["searched_ms"])]
        per_pass = [w * args.budget_ms / t for w, t in zip(r["pass_worlds"], r["pass_ms"])]
        out["calibration"] = {
            "play": pct(per_play, 0.5),
            "pass": pct(per_pass, 0.5),
            "play_p10": pct(per_play, 0.1),
            "play_p90": pct(per_play, 0.9),
        }
    print(format_report(out, args))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


def format_report(out: Figures, args: argparse.Namespace) -> str:
    mode = f"iterations={args.iterations}" if args.iterations else f"budget_ms={args.budget_ms:g}"
    version = args.version or "latest"
    lines = [
        f"Chromium {out['version']}, Pyodide on the page's main thread; Hard v{version} ({mode}) in all four "
        f"seats, {args.hands} hands after {args.warmup} warm-up hand(s); slices: a turn for the page before a "
        f"task passes {args.slice_ms:g} ms; load average before: {out['load']}",
        f"start-up: Pyodide {out['boot_main']['pyodideMs']:.0f} ms, + app.zip and `import hearts.bots`: "
        f"{out['boot_main']['readyMs']:.0f} ms in all",
    ]
    for where, run in (("main", out.get("main")), ("worker", out.get("worker"))):
        if run is None:
            continue
        r = run["result"]
        long_tasks = run["longTasks"]
        lines += [
            "",
            f"[{where}] all decisions ({r['decisions']}): median {r['median_ms']:.1f} ms, p95 {r['p95_ms']:.1f} ms, "
            f"max {r['max_ms']:.1f} ms",
            f"[{where}] searched decisions ({r['searched']}): median {r['searched_median_ms']:.1f} ms, "
            f"p95 {r['searched_p95_ms']:.1f} ms; worlds per decision: median {r['worlds_median']:.0f} "
            f"(p10 {r['worlds_p10']:.0f}, p90 {r['worlds_p90']:.0f})",
            f"[{where}] pass: median {r['pass_median_ms']:.1f} ms, median worlds {r['pass_worlds_median']:.0f}; "
            f"bot slices: p95 {r['slice_p95_ms']:.1f} ms, max {r['slice_max_ms']:.1f} ms",
            f"[{where}] main-thread long tasks (> 50 ms) during the run: {len(long_tasks)}"
            + (f", longest {max(long_tasks):.0f} ms" if long_tasks else ""),
        ]
    if "calibration" in out:
        c = out["calibration"]
        lines += [
            "",
            f"calibration (fixed {args.iterations} worlds, fastest of {args.calibrate} runs of the same hands): "
            f"worlds per {args.budget_ms:g} ms = median {c['play']:.0f} per play (p10 {c['play_p10']:.0f}, "
            f"p90 {c['play_p90']:.0f}), {c['pass']:.0f} per pass",
        ]
    if "worker_start" in out:
        ws = out["worker_start"]
        echo = out["echo_ms"]
        dec = out["decide"]
        pss = out["pss_kb"]
        lines += [
            "",
            f"worker start-up (new Worker -> Pyodide + app.zip + import hearts.bots ready): {ws['startMs']:.0f} ms "
            f"(Pyodide alone {ws['pyodideMs']:.0f} ms)",
            f"message round trip (empty message): median {statistics.median(echo):.2f} ms, p95 "
            f"{pct(echo, 0.95):.2f} ms",
            f"one decision from a match record ({dec[0]['recordBytes']} bytes of JSON, trick 7): round trip median "
            f"{statistics.median(d['roundTripMs'] for d in dec):.0f} ms = replay "
            f"{statistics.median(d['replay_ms'] for d in dec):.1f} ms + search "
            f"{statistics.median(d['decide_ms'] for d in dec):.0f} ms + messaging",
            f"memory: wasm heap {out['boot_main']['heap'] / 2**20:.0f} MB (page interpreter), "
            f"{ws['heap'] / 2**20:.0f} MB (worker, at start) -> {out['worker']['heap'] / 2**20:.0f} MB "
            "(after its bench)",
            f"memory (PSS of all Chromium processes): before Python {pss['before_python'] / 1024:.0f} MB, "
            f"Python on the page {pss['main_python'] / 1024:.0f} MB, + worker {pss['with_worker'] / 1024:.0f} MB, "
            f"after the worker's bench {pss['after_worker_bench'] / 1024:.0f} MB",
        ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
