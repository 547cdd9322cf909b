#!/usr/bin/env python3
"""Start-up benchmark (not a test): the game vs. a bare PyScript page on the same runtime.

    .venv/bin/python tools/bench_startup.py [--runs 5] [--dist dist] [--json out.json]

Measures the time from navigation start to ``html.ready`` (read in the page with
``performance.now()`` the moment the class appears), for

* the game: ``dist/`` as built, and
* a bare page: a temporary folder holding only the same ``vendor/`` runtime and a page whose
  Python sets ``html.ready`` (nothing of the game, no service worker),

each served by tools/serve.py (same headers as netlify.toml), in headless chromium:

* cold: a new browser profile per run (empty HTTP cache, no service worker),
* warm: the same profile, visited again (HTTP cache / service worker as a returning player has).

Runs alternate game and bare so machine noise hits both. Prints medians and the game/bare
ratio, and the bytes a first visit downloads (all response bodies of the cold load, service-worker
precaching included, counted by the server; plus the gzip estimate from build-info.json).
Needs dist/ (python3 tools/build.py) and Playwright (.venv from ./scripts/test).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "e2e"))

import build  # noqa: E402
import serve  # noqa: E402

READY_MARK = """
(() => {
  const mark = () => {
    if (window.__readyAt === undefined && document.documentElement.classList.contains("ready"))
      window.__readyAt = performance.now();
  };
  new MutationObserver(mark).observe(document, { attributes: true, subtree: true, attributeFilter: ["class"] });
})();
"""

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


class CountingHandler(serve.Handler):
    """serve.Handler that adds up the body bytes it sends (first-visit download size)."""

    counter: dict[str, int] = {}
    lock = threading.Lock()

    def copyfile(self, source: Any, outputfile: Any) -> None:  # type: ignore[override]
        data = source.read()
        outputfile.write(data)
        with self.lock:
            self.counter["bytes"] = self.counter.get("bytes", 0) + len(data)
            self.counter["responses"] = self.counter.get("responses", 0) + 1
            path = self.path.split("?")[0]
            self.counter.setdefault("paths", {})[path] = self.counter.setdefault("paths", {}).get(path, 0) + 1  # type: ignore[union-attr]


def start_counting_server(directory: Path) -> tuple[serve.Server, dict[str, Any]]:
    counter: dict[str, Any] = {}
    handler = type("Counting", (CountingHandler,), {
        "rules": serve.load_header_rules(), "quiet": True, "counter": counter})
    from functools import partial

    server = serve.Server((serve.HOST, 0), partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, counter


def make_bare_site(dist: Path, tmp: Path) -> Path:
    versions = build.vendor_versions(ROOT)
    site = tmp / "bare"
    site.mkdir()
    (site / "vendor").symlink_to((dist / "vendor").resolve(), target_is_directory=True)
    (site / "index.html").write_text(BARE_HTML.format(**versions), encoding="utf-8")
    (site / "bare.toml").write_text(BARE_TOML.format(**versions), encoding="utf-8")
    (site / "bare.py").write_text(BARE_PY, encoding="utf-8")
    return site


def measure(context: Any, url: str, wait_sw: bool = False, timeout_ms: float = 90_000) -> tuple[float, bool]:
    """Seconds from navigation start to html.ready; with wait_sw, then wait (on the same page)
    until a service worker the page registered has finished installing (precaching)."""
    page = context.new_page()
    try:
        page.goto(url, wait_until="commit", timeout=timeout_ms)
        page.wait_for_selector("html.ready, .py-error", state="attached", timeout=timeout_ms)
        if page.query_selector(".py-error"):
            raise RuntimeError(f"Python error on {url}: {page.inner_text('.py-error')[:500]}")
        page.wait_for_function("window.__readyAt !== undefined", timeout=5000)
        ready = float(page.evaluate("window.__readyAt")) / 1000
        sw = False
        if wait_sw:
            sw = bool(page.evaluate("""async () => {
                let reg = await navigator.serviceWorker.getRegistration();
                for (let i = 0; !reg && i < 30; i++) {
                    await new Promise((r) => setTimeout(r, 100));
                    reg = await navigator.serviceWorker.getRegistration();
                }
                if (!reg) return false;
                await navigator.serviceWorker.ready;
                return true;
            }"""))
        return ready, sw
    finally:
        page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Start-up benchmark: game vs. bare PyScript page.")
    parser.add_argument("--runs", type=int, default=5, help="runs per case (default 5)")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--json", type=Path, help="also write the raw numbers here")
    parser.add_argument("--block-sw", action="store_true",
                        help="block service workers (warm = HTTP cache only), to see what the SW costs")
    args = parser.parse_args(argv)
    dist = args.dist.resolve()
    if not (dist / "index.html").is_file():
        print("bench: dist/ missing: run python3 tools/build.py", file=sys.stderr)
        return 1

    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {f"{s}_{k}": [] for s in ("game", "bare") for k in ("cold", "warm")}
    first_visit: dict[str, dict[str, Any]] = {}
    sw_used = False
    with tempfile.TemporaryDirectory(prefix="hearts-bench-") as tmpdir:
        tmp = Path(tmpdir)
        bare_site = make_bare_site(dist, tmp)
        servers = {"game": start_counting_server(dist), "bare": start_counting_server(bare_site)}
        try:
            with sync_playwright() as pw:
                for run in range(args.runs):
                    for name in ("game", "bare"):
                        for attempt in (1, 2):  # a renderer crash under heavy load: retry once
                            try:
                                sw_used = one_case(pw, args, tmp, name, run, servers, times,
                                                   first_visit) or sw_used
                                break
                            except PlaywrightError as exc:
                                if attempt == 2:
                                    raise
                                print(f"run {run + 1} {name}: {exc.message.splitlines()[0]}: retrying",
                                      file=sys.stderr)
                    print(f"run {run + 1}/{args.runs}: " + "  ".join(
                        f"{k} {v[-1]:.2f}s" for k, v in times.items()), flush=True)
        finally:
            for server, _ in servers.values():
                server.stop()
    report(args, dist, times, first_visit, sw_used)
    return 0


def one_case(pw: Any, args: argparse.Namespace, tmp: Path, name: str, run: int,
             servers: dict[str, Any], times: dict[str, list[float]],
             first_visit: dict[str, dict[str, Any]]) -> bool:
    """One cold + one warm measurement of one page in a new profile; True if a SW served it."""
    from conftest import launch_options

    server, counter = servers[name]
    profile = tmp / f"profile-{name}-{run}"
    shutil.rmtree(profile, ignore_errors=True)
    ctx = pw.chromium.launch_persistent_context(
        str(profile), headless=True,
        service_workers="block" if args.block_sw else "allow", **launch_options())
    ctx.add_init_script(READY_MARK)
    try:
        counter.clear()
        cold, sw = measure(ctx, server.url, wait_sw=True)
        fetched = {"bytes": counter.get("bytes", 0), "responses": counter.get("responses", 0),
                   "paths": dict(counter.get("paths", {}))}
        warm = measure(ctx, server.url)[0]
    finally:
        ctx.close()
        shutil.rmtree(profile, ignore_errors=True)
    times[f"{name}_cold"].append(cold)
    times[f"{name}_warm"].append(warm)
    if run == 0:
        first_visit[name] = fetched
    return sw and name == "game"


def report(args: argparse.Namespace, dist: Path, times: dict[str, list[float]],
           first_visit: dict[str, dict[str, Any]], sw_used: bool) -> None:
    med = {k: statistics.median(v) for k, v in times.items()}
    info = json.loads((dist / "build-info.json").read_text(encoding="utf-8"))
    gz = {"/" + f["path"]: f["gzip_bytes"] for f in info["files"]}
    fetched_game = first_visit["game"]["paths"]
    game_gz = sum(gz.get(p, 0) for p in fetched_game)
    dup = {p: n for p, n in fetched_game.items() if n > 1}
    print()
    print(f"Start-up, navigation -> html.ready, median of {args.runs} (headless chromium, {time.strftime('%Y-%m-%d')})")
    print(f"{'':8}{'game':>9}{'bare':>9}{'ratio':>8}")
    for kind in ("cold", "warm"):
        print(f"{kind:8}{med['game_' + kind]:>8.2f}s{med['bare_' + kind]:>8.2f}s"
              f"{med['game_' + kind] / med['bare_' + kind]:>8.2f}")
    print(f"warm game visit served by a service worker: {'yes' if sw_used else 'no (the page registered none)'}")
    print()
    for name in ("game", "bare"):
        fv = first_visit[name]
        print(f"first visit, {name}: {fv['bytes'] / 1e6:.2f} MB in {fv['responses']} responses "
              f"(uncompressed, service-worker precaching included)")
    print(f"first visit, game, if the host gzips: ~{game_gz / 1e6:.2f} MB for the distinct files fetched")
    if dup:
        print(f"files fetched more than once on the first visit: {dup}")
    if args.json:
        args.json.write_text(json.dumps({"runs": times, "median": med, "first_visit": first_visit,
                                         "service_worker": sw_used}, indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
