#!/usr/bin/env python3
"""Lighthouse's performance category for the game and the bare PyScript page, on the local server.

    .venv/bin/python -m lab.browser.lighthouse [--runs 3] [--presets mobile,desktop] [--lighthouse CMD] [--json F]

Lighthouse is not a dependency of the project (it brings about 200 npm packages, which every ``npm ci``
of the test command would install): by default this runs ``npx --yes lighthouse@12.8.2`` (npx keeps
it in its own cache, outside the repository; 12.x is the last line that runs on Node 20), or the
command given with ``--lighthouse`` (e.g. a scratch install: ``npm install --prefix /tmp/lh
lighthouse@12.8.2``, then ``--lighthouse /tmp/lh/node_modules/.bin/lighthouse``).

The pages are the ones of ``lab.browser.startup_phone`` (``dist/`` and the bare page on the stock
runtime, plus ``--compare DIR``), served gzipped by default (``--no-gzip``: as stored) with the headers
of netlify.toml. For each run, preset and page (the order alternating) the runner starts a fresh
headless Debian ``chromium`` with the project's flags (``tools/chromium.py``: ``--host-resolver-rules``
keeps every request on 127.0.0.1) and a new profile, and Lighthouse attaches to it (``--port``): a
first visit (Lighthouse clears the origin's storage and cache). Presets: ``mobile`` (Lighthouse's
default: a Moto G Power screen, slow 4G and a 4x slower CPU, simulated from an unthrottled load:
``--throttling-method simulate``) and ``desktop`` (``--preset=desktop``). Reported: the performance
score and the metrics it is made of (FCP, LCP, TBT, CLS, Speed Index), medians, and the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TypedDict

from lab.browser.startup import stock_rules
from lab.browser.startup_phone import Site, make_bare_site, start_site_server
from tools import serve
from tools.chromium import CHROMIUM_ARGS, chromium_executable

ROOT = Path(__file__).resolve().parents[2]
LIGHTHOUSE = "lighthouse@12.8.2"
PRESETS = ("mobile", "desktop")
AUDITS = {  # column: Lighthouse audit id
    "FCP": "first-contentful-paint",
    "LCP": "largest-contentful-paint",
    "TBT": "total-blocking-time",
    "CLS": "cumulative-layout-shift",
    "SI": "speed-index",
}


class Report(TypedDict):
    score: float | None
    metrics: dict[str, float | None]  # AUDITS' columns: ms, CLS unitless
    observed: dict[str, float | None]  # the unthrottled load Lighthouse saw (simulate: the input of its model)
    lcp_element: str
    warnings: list[str]
    error: str | None


def lighthouse_command(args: argparse.Namespace) -> list[str]:
    if args.lighthouse:
        return [args.lighthouse]
    return ["npx", "--yes", LIGHTHOUSE]


def start_chromium(profile: Path) -> tuple[subprocess.Popen[bytes], int]:
    """A headless chromium with the project's flags and a DevTools port; (process, port)."""
    exe = chromium_executable() or "chromium"
    process = subprocess.Popen(
        [
            exe,
            "--headless=new",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            *CHROMIUM_ARGS,
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    port_file = profile / "DevToolsActivePort"
    for _ in range(300):
        if port_file.is_file() and port_file.read_text().strip():
            return process, int(port_file.read_text().splitlines()[0])
        if process.poll() is not None:
            break
        time.sleep(0.1)
    stop_chromium(process)
    raise RuntimeError("chromium did not open its DevTools port")


def stop_chromium(process: subprocess.Popen[bytes]) -> None:
    """End the chromium this runner started (its own process group: the renderers go with it)."""
    try:
        os.killpg(process.pid, 15)
        process.wait(10)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, 9)
        except ProcessLookupError:
            pass


def parse_report(data: dict[str, Any]) -> Report:
    audits = data.get("audits", {})

    def value(audit: str) -> float | None:
        v = audits.get(audit, {}).get("numericValue")
        return None if v is None else float(v)

    observed: dict[str, float | None] = {}
    items = (audits.get("metrics", {}).get("details") or {}).get("items") or [{}]
    for key in (
        "observedFirstContentfulPaint",
        "observedLargestContentfulPaint",
        "observedLoad",
        "observedCumulativeLayoutShift",
    ):
        raw = items[0].get(key)
        observed[key] = None if raw is None else float(raw)
    element = ""
    details = audits.get("largest-contentful-paint-element", {}).get("details") or {}
    for item in details.get("items", []):
        for row in item.get("items", []) if isinstance(item, dict) else []:
            node = row.get("node") if isinstance(row, dict) else None
            if isinstance(node, dict) and node.get("selector"):
                element = str(node["selector"])
                break
        if element:
            break
    score = (data.get("categories", {}).get("performance") or {}).get("score")
    error = (data.get("runtimeError") or {}).get("code")
    return Report(
        score=None if score is None else float(score) * 100,
        metrics={column: value(audit) for column, audit in AUDITS.items()},
        observed=observed,
        lcp_element=element,
        warnings=[str(w) for w in data.get("runWarnings", [])],
        error=None if error is None else str(error),
    )


# Lighthouse's message when the page's renderer died under it (seen 2 times in ~45 runs on
# 2026-12-06, on two builds; 60 plain first visits had none): that run is measured again, once.
TAB_CRASHED = "Browser tab has unexpectedly crashed"


class TabCrashed(RuntimeError):
    """Lighthouse lost the page: its renderer crashed."""


def run_lighthouse(args: argparse.Namespace, url: str, preset: str, tmp: Path, tag: str) -> Report:
    profile = tmp / f"chromium-{tag}"
    shutil.rmtree(profile, ignore_errors=True)
    profile.mkdir()
    out = tmp / f"{tag}.json"
    process, port = start_chromium(profile)
    try:
        command = [
            *lighthouse_command(args),
            url,
            f"--port={port}",
            "--only-categories=performance",
            "--output=json",
            f"--output-path={out}",
            "--quiet",
            "--no-enable-error-reporting",
            f"--max-wait-for-load={args.max_wait_ms}",
            f"--throttling-method={args.throttling_method}",
        ]
        if preset == "desktop":
            command.append("--preset=desktop")
        if args.keep:
            command.append("--save-assets")  # the trace too: <tag>-0.trace.json
        env = {**os.environ, "CHROME_PATH": chromium_executable() or "chromium"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode != 0 or not out.is_file():
            kind = TabCrashed if TAB_CRASHED in done.stderr else RuntimeError
            raise kind(f"lighthouse failed ({done.returncode}): {done.stderr[-2000:]}")
        report = parse_report(json.loads(out.read_text(encoding="utf-8")))
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for kept in [out, *tmp.glob(f"{tag}-*.json")]:
                shutil.copyfile(kept, args.keep / kept.name)
        return report
    finally:
        stop_chromium(process)
        shutil.rmtree(profile, ignore_errors=True)


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description="Lighthouse performance: the game vs. a bare PyScript page.")
    parser.add_argument("--runs", type=int, default=3, help="runs per preset and page (default 3)")
    parser.add_argument("--presets", default="mobile,desktop", help="comma-separated: mobile, desktop")
    parser.add_argument("--lighthouse", help=f"the lighthouse command (default: npx --yes {LIGHTHOUSE})")
    parser.add_argument(
        "--throttling-method",
        default="simulate",
        choices=("simulate", "devtools", "provided"),
        help="Lighthouse's throttling (default simulate, as PageSpeed Insights)",
    )
    parser.add_argument("--max-wait-ms", type=int, default=120_000, help="Lighthouse's --max-wait-for-load")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument(
        "--compare",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="another build of the game (repeatable)",
    )
    parser.add_argument("--no-bare", action="store_true", help="leave the bare PyScript page out")
    parser.add_argument("--no-gzip", action="store_true", help="send files as stored (tools/serve.py), not gzipped")
    parser.add_argument("--keep", type=Path, help="keep Lighthouse's JSON reports and traces in this folder")
    parser.add_argument("--json", type=Path, help="also write every run's numbers here")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    presets = args.presets.split(",")
    if any(p not in PRESETS for p in presets):
        print(f"lighthouse: presets are {', '.join(PRESETS)}", file=sys.stderr)
        return 2
    dist = args.dist.resolve()
    if not (dist / "index.html").is_file():
        print("lighthouse: dist/ missing: run python3 tools/build.py", file=sys.stderr)
        return 1
    game_rules = tuple(serve.load_header_rules())
    load_before = os.getloadavg()
    results: dict[str, dict[str, list[Report]]] = {}
    with tempfile.TemporaryDirectory(prefix="hearts-lighthouse-") as tmpdir:
        tmp = Path(tmpdir)
        sites = [Site("game", dist, game_rules)]
        if not args.no_bare:
            sites.append(Site("bare", make_bare_site(tmp), tuple(stock_rules())))
        for other in args.compare:
            name = other.resolve().name
            while name in {s.name for s in sites}:
                name += "'"
            sites.append(Site(name, other.resolve(), game_rules))
        servers = {site.name: start_site_server(site, compress=not args.no_gzip) for site in sites}
        results = {preset: {site.name: [] for site in sites} for preset in presets}
        try:
            pairs = [(preset, site) for preset in presets for site in sites]
            for run in range(args.runs):
                for preset, site in pairs if run % 2 == 0 else list(reversed(pairs)):
                    tag = f"{preset}-{site.name}-{run}"
                    try:
                        report = run_lighthouse(args, servers[site.name].url, preset, tmp, tag)
                    except TabCrashed:
                        print(f"run {run + 1}/{args.runs} {preset:8} {site.name:8} the tab crashed: again", flush=True)
                        report = run_lighthouse(args, servers[site.name].url, preset, tmp, tag)
                    results[preset][site.name].append(report)
                    m = report["metrics"]
                    print(
                        f"run {run + 1}/{args.runs} {preset:8} {site.name:8} score {report['score']} "
                        f"LCP {m['LCP']} TBT {m['TBT']} CLS {m['CLS']} {report['error'] or ''}",
                        flush=True,
                    )
        finally:
            for server in servers.values():
                server.stop()
    load_after = os.getloadavg()

    def med(values: list[float | None]) -> float | None:
        clean = [v for v in values if v is not None]
        return statistics.median(clean) if clean else None

    print()
    print(
        f"Lighthouse {args.lighthouse or LIGHTHOUSE}, performance, median of {args.runs} runs, alternating "
        f"({time.strftime('%Y-%m-%d %H:%M')}; throttling {args.throttling_method}; served "
        f"{'as stored' if args.no_gzip else 'gzipped'}; load average {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after)"
    )
    print(
        f"{'preset':9}{'page':10}{'score':>7}{'FCP':>9}{'LCP':>9}{'TBT':>10}{'CLS':>7}{'SI':>9}"
        f"{'obs. LCP':>10}{'obs. load':>10}  LCP element"
    )
    for preset in presets:
        for name, reports in results[preset].items():
            score = med([r["score"] for r in reports])
            m = {c: med([r["metrics"][c] for r in reports]) for c in AUDITS}
            o = {
                k: med([r["observed"][k] for r in reports]) for k in ("observedLargestContentfulPaint", "observedLoad")
            }

            def s(v: float | None) -> str:
                return "-" if v is None else f"{v / 1000:.1f} s"

            def ms(v: float | None) -> str:
                return "-" if v is None else f"{v:,.0f} ms"

            print(
                f"{preset:9}{name:10}{'-' if score is None else f'{score:.0f}':>7}{s(m['FCP']):>9}{s(m['LCP']):>9}"
                f"{ms(m['TBT']):>10}{'-' if m['CLS'] is None else format(m['CLS'], '.3f'):>7}{s(m['SI']):>9}"
                f"{s(o['observedLargestContentfulPaint']):>10}{s(o['observedLoad']):>10}"
                f"  {reports[-1]['lcp_element'] if reports else ''}"
            )
    print(
        "score and metrics as Lighthouse rates them (mobile: simulated slow 4G and 4x CPU); obs.: the "
        "unthrottled load it observed"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {"runs": results, "load": [load_before, load_after], "lighthouse": args.lighthouse or LIGHTHOUSE},
                indent=1,
            ),
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
