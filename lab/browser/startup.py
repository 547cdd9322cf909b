#!/usr/bin/env python3
"""Start-up benchmark (not a test): the game vs. a bare PyScript page on the stock runtime.

    .venv/bin/python -m lab.browser.startup [--runs 5] [--dist dist] [--compare DIR ...] [--json out.json]

Pages, each served by tools/serve.py (the headers of netlify.toml) on its own port:

* game: ``dist/`` as built;
* bare: a page whose Python only sets ``html.ready``, on the STOCK runtime as npm ships it
  (PyScript's whole dist, Pyodide with its full python_stdlib.zip and lock file: what a plain
  PyScript page loads; build.copy_stock_vendor), no service worker;
* any other build of the game (``--compare DIR``, repeatable; named after the folder), e.g.
  main's dist/, to compare before/after or variants in the same session.

For each run, and for each page (the order alternates from run to run, so machine noise hits
every page alike), a new browser profile (headless chromium) visits the page four times:

* cold: the first visit (empty HTTP cache, no service worker); then it waits until the page's
  service worker, if any, has installed (precached);
* warm: the second visit (HTTP cache, service worker: what a returning player has; Chromium
  usually compiles the wasm once more here and only then keeps the compiled code);
* third: the third visit, everything cached, the compiled wasm too (every later visit looks like
  this one);
* offline: a fourth visit with the network off (only pages with a service worker can start).

Measured per visit, in the page: first paint (``first-contentful-paint``: for the game, the
static table) and ready (navigation start to ``html.ready``). Printed: medians, each page's
ready time relative to the bare page's, the machine load (``os.getloadavg``), and what the cold and warm
visits of the first run moved over the network, counted by the server: responses (304s
included) and body bytes, as sent (uncompressed) and as a compressing host would send them
(gzip level 6 of each body, or the body when that is smaller; brotli too when node is
available). Needs dist/ (python3 tools/build.py), node_modules (npm ci) and Playwright (.venv).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from tools import build, serve
from tools.chromium import launch_options

ROOT = Path(__file__).resolve().parents[2]

READY_MARK = """
(() => {
  const mark = () => {
    if (window.__readyAt === undefined && document.documentElement.classList.contains("ready"))
      window.__readyAt = performance.now();
  };
  new MutationObserver(mark).observe(document, { attributes: true, subtree: true, attributeFilter: ["class"] });
})();
"""
FIRST_PAINT = """() => {
  const e = performance.getEntriesByName("first-contentful-paint")[0];
  return e ? e.startTime : null;
}"""

BARE_HTML = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>bare</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="./vendor/pyscript-{pyscript}/core.css">
  <script type="module" src="./vendor/pyscript-{pyscript}/core.js"></script>
</head>
<body>
  <script type="py" src="./bare.py" config="./bare.toml"></script>
</body>
</html>
"""
BARE_TOML = 'name = "bare"\ninterpreter = "./vendor/pyodide-{pyodide}/pyodide.mjs"\n'
BARE_PY = "from pyscript import document\ndocument.documentElement.classList.add('ready')\n"
KINDS = ("cold", "warm", "third", "offline")


class CountingHandler(serve.Handler):
    """serve.Handler that counts the responses it sends and their body bytes, by path."""

    log: list[tuple[str, int, int]] = []  # (path, status, body bytes)
    lock = threading.Lock()
    status = 0

    def send_response(self, code: int, message: str | None = None) -> None:
        self.status = code
        super().send_response(code, message)

    def copyfile(self, source: Any, outputfile: Any) -> None:
        data = source.read()
        outputfile.write(data)
        with self.lock:
            self.log.append((self.path.split("?")[0], self.status, len(data)))

    def end_headers(self) -> None:
        super().end_headers()
        if self.status != 200:  # 304, 404: no body copied (a 200's bytes are counted in copyfile)
            with self.lock:
                self.log.append((self.path.split("?")[0], self.status, 0))


# Until the page's service worker is installed (False: none registered within 10 s), and the
# Python snapshot the game made on this visit is stored (its worker stores it after the page's
# start; the next visit starts from it), for 30 s at most.
WAIT_SW = """async () => {
  let reg = await navigator.serviceWorker.getRegistration();
  for (let i = 0; !reg && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    reg = await navigator.serviceWorker.getRegistration();
  }
  if (!reg) return false;
  await navigator.serviceWorker.ready;
  for (let i = 0; globalThis.heartsPythonStart === "worker" && i < 300; i++) {
    if ((await (await caches.open("python-snapshot")).keys()).length >= 3) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}"""


def stock_rules() -> list[serve.HeaderRule]:
    """The game's headers, but a CSP that lets the stock PyScript of the bare page run: it compiles
    its worker hooks with Function() on the main thread ('unsafe-eval')."""
    rules = []
    for rule in serve.load_header_rules():
        values = {
            name: (
                value.replace("'wasm-unsafe-eval'", "'wasm-unsafe-eval' 'unsafe-eval'")
                if name.lower() == "content-security-policy"
                else value
            )
            for name, value in rule.values.items()
        }
        rules.append(serve.HeaderRule(rule.pattern, rule.regex, values))
    return rules


def start_counting_server(directory: Path, stock: bool = False) -> tuple[serve.Server, list[tuple[str, int, int]]]:
    log: list[tuple[str, int, int]] = []
    handler = type(
        "Counting",
        (CountingHandler,),
        {"rules": stock_rules() if stock else serve.load_header_rules(), "quiet": True, "log": log},
    )
    server = serve.Server((serve.HOST, 0), partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, log


def make_bare_site(tmp: Path) -> Path:
    versions = build.vendor_versions(ROOT)
    site = tmp / "bare"
    site.mkdir()
    build.copy_stock_vendor(ROOT, site, versions)
    (site / "index.html").write_text(BARE_HTML.format(**versions), encoding="utf-8")
    (site / "bare.toml").write_text(BARE_TOML.format(**versions), encoding="utf-8")
    (site / "bare.py").write_text(BARE_PY, encoding="utf-8")
    return site


def visit(context: Any, url: str, wait_sw: bool = False, timeout_ms: float = 120_000) -> dict[str, Any]:
    """One page load: first paint and ready (seconds from navigation start); with wait_sw, then
    wait (on the same page) until a service worker the page registered is active."""
    page = context.new_page()
    try:
        page.goto(url, wait_until="commit", timeout=timeout_ms)
        page.wait_for_selector("html.ready, #boot-guard", state="attached", timeout=timeout_ms)
        if page.query_selector("html.ready") is None:
            raise RuntimeError(f"the game did not start on {url}: {page.inner_text('#boot-guard')[:500]}")
        page.wait_for_function("window.__readyAt !== undefined", timeout=5000)
        ready = float(page.evaluate("window.__readyAt")) / 1000
        paint = page.evaluate(FIRST_PAINT)
        sw = False
        if wait_sw:
            sw = bool(page.evaluate(WAIT_SW))
        return {"ready": ready, "paint": None if paint is None else paint / 1000, "sw": sw}
    finally:
        page.close()


def one_profile(
    pw: Any,
    args: argparse.Namespace,
    tmp: Path,
    name: str,
    run: int,
    server: serve.Server,
    log: list[tuple[str, int, int]],
) -> dict[str, Any]:
    """Cold, warm, third and offline visits of one page in a new profile."""

    profile = tmp / f"profile-{name}-{run}"
    shutil.rmtree(profile, ignore_errors=True)
    ctx = pw.chromium.launch_persistent_context(
        str(profile), headless=True, service_workers="block" if args.block_sw else "allow", **launch_options()
    )
    ctx.add_init_script(READY_MARK)
    result: dict[str, Any] = {}
    try:
        log.clear()
        result["cold"] = visit(ctx, server.url, wait_sw=True)
        result["cold_net"] = list(log)
        log.clear()
        result["warm"] = visit(ctx, server.url)
        result["warm_net"] = list(log)
        result["third"] = visit(ctx, server.url)
        if result["cold"]["sw"]:
            ctx.set_offline(True)
            result["offline"] = visit(ctx, server.url)
            ctx.set_offline(False)
    finally:
        ctx.close()
        shutil.rmtree(profile, ignore_errors=True)
    return result


def compressed_sizes(site: Path, paths: set[str]) -> dict[str, dict[str, int]]:
    """{path: {"gzip": n, "br": n}} per served file, each at most the file's own size."""
    out: dict[str, dict[str, int]] = {}
    files: dict[str, Path] = {}
    for path in paths:
        rel = path.lstrip("/") or "index.html"
        file = (site / rel).resolve()
        if file.is_dir():
            file = file / "index.html"
        if file.is_file():
            files[path] = file
            data = file.read_bytes()
            out[path] = {"raw": len(data), "gzip": min(len(data), len(gzip.compress(data, 6, mtime=0)))}
    if shutil.which("node") and files:
        script = (
            "const fs=require('fs'),z=require('zlib');const o={};"
            "for(const [k,f] of Object.entries(JSON.parse(process.argv[1])))"
            "{const "
            "d=fs.readFileSync(f);o[k]=z.brotliCompressSync(d,{params:{[z.constants.BROTLI_PARAM_QUALITY]:5}}).length}"
            "console.log(JSON.stringify(o))"
        )
        done = subprocess.run(
            ["node", "-e", script, json.dumps({k: str(v) for k, v in files.items()})], capture_output=True, text=True
        )
        if done.returncode == 0:
            for path, size in json.loads(done.stdout).items():
                out[path]["br"] = min(size, out[path]["raw"])
    return out


def net_summary(net: list[tuple[str, int, int]], sizes: dict[str, dict[str, int]]) -> dict[str, Any]:
    full = [(p, n) for p, status, n in net if status == 200]
    summary: dict[str, Any] = {
        "responses": len(net),
        "not_modified": sum(1 for _, status, _ in net if status == 304),
        "bytes": sum(n for _, n in full),
        "gzip": sum(sizes.get(p, {}).get("gzip", n) for p, n in full),
    }
    if all("br" in sizes.get(p, {}) for p, _ in full):
        summary["br"] = sum(sizes[p]["br"] for p, _ in full)
    counts: dict[str, int] = {}
    for p, _ in full:
        counts[p] = counts.get(p, 0) + 1
    summary["downloaded_twice"] = sorted(p for p, n in counts.items() if n > 1)
    summary["paths"] = sorted(set(p for p, _, _ in net))
    return summary


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description="Start-up benchmark: game vs. bare PyScript page.")
    parser.add_argument("--runs", type=int, default=5, help="runs per page (default 5)")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument(
        "--compare",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="another build of the game to measure alongside (repeatable), e.g. main's dist",
    )
    parser.add_argument("--json", type=Path, help="also write the raw numbers here")
    parser.add_argument(
        "--block-sw",
        action="store_true",
        help="block service workers (warm = HTTP cache only), to see what the SW costs",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    dist = args.dist.resolve()
    if not (dist / "index.html").is_file():
        print("bench: dist/ missing: run python3 tools/build.py", file=sys.stderr)
        return 1

    from playwright.sync_api import sync_playwright

    load_before = os.getloadavg()
    results: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory(prefix="hearts-bench-") as tmpdir:
        tmp = Path(tmpdir)
        sites = {"game": dist, "bare": make_bare_site(tmp)}
        for other in args.compare:
            name = other.resolve().name
            while name in sites:
                name += "'"
            sites[name] = other.resolve()
        servers = {name: start_counting_server(site, stock=name == "bare") for name, site in sites.items()}
        results = {name: [] for name in sites}
        try:
            with sync_playwright() as pw:
                for run in range(args.runs):
                    order = list(sites) if run % 2 == 0 else list(reversed(sites))
                    for name in order:
                        server, log = servers[name]
                        for attempt in (1, 2):  # a renderer crash under heavy load: retry once
                            try:
                                results[name].append(one_profile(pw, args, tmp, name, run, server, log))
                                break
                            except PlaywrightError as exc:
                                if attempt == 2:
                                    raise
                                print(f"run {run + 1} {name}: {exc.message.splitlines()[0]}: retrying", file=sys.stderr)
                    print(
                        f"run {run + 1}/{args.runs}: "
                        + "  ".join(
                            f"{name} " + "/".join(f"{r[-1][k]['ready']:.2f}" if k in r[-1] else "-" for k in KINDS)
                            for name, r in results.items()
                        )
                        + "  (cold/warm/third/offline ready, s)",
                        flush=True,
                    )
            load_after = os.getloadavg()
            net = {}
            for name, site in sites.items():
                first = results[name][0]
                paths = {p for p, _, _ in first["cold_net"] + first["warm_net"]}
                sizes = compressed_sizes(site, paths)
                net[name] = {
                    "cold": net_summary(first["cold_net"], sizes),
                    "warm": net_summary(first["warm_net"], sizes),
                }
        finally:
            for server, _ in servers.values():
                server.stop()
    report(args, results, net, load_before, load_after)
    return 0


def median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def report(
    args: argparse.Namespace,
    results: dict[str, list[dict[str, Any]]],
    net: dict[str, Any],
    load_before: tuple[float, ...],
    load_after: tuple[float, ...],
) -> None:
    med: dict[str, dict[str, Any]] = {}
    for name, runs in results.items():
        med[name] = {}
        for kind in KINDS:
            for metric in ("paint", "ready"):
                values = [r[kind][metric] for r in runs if kind in r and r[kind][metric] is not None]
                med[name][f"{kind}_{metric}"] = median(values)

    def fmt(value: float | None, unit: str = "s") -> str:
        if value is None:
            return "-"
        return f"{value * 1000:.0f} ms" if unit == "ms" else f"{value:.2f} s"

    print()
    print(
        f"Start-up, median of {args.runs} runs each, alternating (headless chromium, "
        f"{time.strftime('%Y-%m-%d %H:%M')}; load average {load_before[0]:.1f} before, "
        f"{load_after[0]:.1f} after, {os.cpu_count()} cores)"
    )
    names = list(results)
    width = max(10, *(len(n) + 2 for n in names))
    print(
        f"{'page':{width}}"
        + "".join(f"{k + ' paint':>14}{k + ' ready':>14}" for k in KINDS)
        + f"{'ready/bare cold':>17}{'warm':>6}{'third':>7}"
    )
    for name in names:
        line = f"{name:{width}}"
        for kind in KINDS:
            line += f"{fmt(med[name][kind + '_paint'], 'ms'):>14}{fmt(med[name][kind + '_ready']):>14}"
        for kind, col in (("cold", 17), ("warm", 6), ("third", 7)):
            a, b = med[name][kind + "_ready"], med["bare"][kind + "_ready"]
            line += f"{(f'{a / b:.2f}' if a and b else '-'):>{col}}"
        print(line)
    print("first paint = first-contentful-paint; ready = html.ready; both from navigation start")
    print()
    for name in names:
        for kind in ("cold", "warm"):
            n = net[name][kind]
            br = f", brotli {n['br'] / 1e6:.2f} MB" if "br" in n else ""
            print(
                f"{kind} visit, {name}: {n['responses']} responses ({n['not_modified']} of them 304), "
                f"{n['bytes'] / 1e6:.2f} MB sent uncompressed; a compressing host: gzip "
                f"{n['gzip'] / 1e6:.2f} MB{br}"
            )
            if n["downloaded_twice"]:
                print(f"    downloaded twice: {n['downloaded_twice']}")
    print("(cold: service-worker precaching included; counted by the server in the first run)")
    if args.json:
        args.json.write_text(
            json.dumps({"runs": results, "median": med, "network": net, "load": [load_before, load_after]}, indent=1),
            encoding="utf-8",
        )


if __name__ == "__main__":
    sys.exit(main())
