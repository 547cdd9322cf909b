#!/usr/bin/env python3
"""Build the deployable folder ``dist/`` (stdlib Python, plus Node for one step).

``dist/`` holds exactly what the game serves and nothing else:

* ``index.html``                                copied from the repository root, with the start-up
                                                preload links (see PRELOAD_MARKER), its link
                                                preview (tools/pages.py) and, when the
                                                build's environment has HEARTS_TURN, the site's TURN
                                                servers (see site_turn)
* ``web/**``                                    static files of ``web/`` (no Python sources; the
                                                runtime's and the online table's JavaScript bundled)
* ``runtime/``                                  web/runtime/ bundled by esbuild (RUNTIME_ENTRIES): the
                                                page's side (``page.mjs``), the game's worker and the
                                                bots' worker (Pyodide with the trimmed standard
                                                library, the game's archives, a zstd decoder), their
                                                shared chunk, and the build's data for them
                                                (RUNTIME_CONFIG: paths, the snapshot's key)
* ``de/index.html``                             the German page: the same game, German first
                                                (tools/pages.py)
* ``app.zst``                                   the packages ``hearts`` and ``hearts_web``: sources
                                                plus their bytecode (``__pycache__``), a zip in one
                                                zstd frame, unpacked in the game's worker at start-up
* ``extras.zst``                                the same for the features loaded on demand
                                                (LAZY_MODULES: the review, challenges)
* ``online.zst``                                the same for the online table (ONLINE_MODULES): loaded
                                                only when a player goes online, so not precached
* ``vendor/pyodide-<version>/``                 the stock Pyodide runtime files the workers run
                                                (wasm, JS) and ``stdlib-<hash>.zst``: only the
                                                standard-library modules the game imports, compiled
* ``build-info.json``                           version hash, file list with sizes
* ``web/online.js``                             the online table's transport (``web/online/transport.js``
                                                bundled by esbuild with Trystero's Nostr strategy and a
                                                QR encoder); loaded only when a player goes online, so
                                                it is not precached
* ``sw.js``                                     the service worker (web/runtime/sw.js after a line of
                                                the build's data: it precaches what the page loads,
                                                everything above but NOT_PRECACHED)

The Python step (compile + trim, tools/pack_python.py) runs inside Pyodide under Node, the same
CPython the browser runs; its output is cached in ``.cache/pack/`` by a hash of its inputs.

Versions come from ``package.json`` and are checked against ``node_modules``. This file assembles:
the page's and the workers' code lives in ``web/`` (``web/runtime/``), checked by the JavaScript
linter and tested (``tests/runtime/``).
The output is deterministic: the same sources give byte-identical files and the same hash.

Usage: ``python3 tools/build.py [--out DIR]``
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":  # python3 tools/build.py: the package from the root, not tools/ itself
    sys.path[0] = str(ROOT)

from tools import online_network, vendor_pins  # noqa: E402
from tools.pages import GERMAN_PAGE, IMAGE, site_url, write_pages  # noqa: E402
from tools.vendor_patch import PatchError, replace_once  # noqa: E402

# Stock Pyodide files the game ships (the workers fetch exactly these, plus the trimmed stdlib;
# checked in e2e/test_platform.py).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
)
# What a stock PyScript page fetches from the pyodide npm package (the lab's bare page, the
# reference of the start-up benchmarks): the game replaces python_stdlib.zip by stdlib-<hash>.zst
# and needs no lock file (no packages).
STOCK_PYODIDE_FILES = PYODIDE_FILES + ("python_stdlib.zip", "pyodide-lock.json")
# Python packages shipped inside app.zst: (source folder, name inside the archive).
ARCHIVE_PACKAGES = (
    ("hearts", "hearts"),
    ("web/hearts_web", "hearts_web"),
)
# The Python of the features a first visit does not use: not followed from the game's entry but
# shipped, with what only they reach, in the second archive (extras.zst), which the page fetches
# and unpacks when one of them is first opened (hearts_web.screen.extras; docs/architecture.md).
# Not here: export and import of the player's data (hearts_web.transfer.dialog), the way out when
# storage is full or unreadable: it must work without any download, offline from the first second.
LAZY_MODULES = (
    "hearts_web.review.dialog",  # the hand review
    "hearts_web.challenge.links",  # a deal for a friend
)
# The online table's Python, and what neither the start nor the extras reach: a third archive
# (online.zst), fetched when a player goes online and, like its JavaScript (web/online.js), not
# precached: useless offline, and a first visit does not pay for it (hearts_web.screen.extras).
ONLINE_MODULES = ("hearts_web.online.panel",)
# Data files a module reads beside itself (Path(__file__).with_name): shipped in its archive, next
# to it. The online network's file is also what this build reads (tools/online_network.py).
MODULE_DATA = {"hearts_web.online.config": ("network.json",)}
APP_ARCHIVE = "app.zst"
EXTRAS_ARCHIVE = "extras.zst"
ONLINE_ARCHIVE = "online.zst"
# What the game's worker runs (web/runtime/game-worker.mjs starts its Controller): where the
# modules of the first archive are followed from.
ENTRY_MODULE = "hearts_web.controller"
# JavaScript sources bundled into one file each (not served as they are): source -> served path.
BUNDLES = {"web/online/transport.js": "web/online.js"}

SKIP_DIRS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis"}
SKIP_SUFFIXES = {".pyc", ".pyo"}
SKIP_NAMES = {".DS_Store", "Thumbs.db"}
# Fixed timestamp for zip members so that the archives (and the hash) depends on content only.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
CACHE_PREFIX = "hearts-"
# Cache Storage of the Python snapshots the game's worker makes (not the service worker's: not a file of the site)
SNAPSHOT_CACHE = "python-snapshot"
# The runtime: web/runtime/ bundled into dist/runtime/ (one shared chunk), and its build data
RUNTIME_SOURCE = "web/runtime"
RUNTIME_ENTRIES = ("page.mjs", "game-worker.mjs", "bot-worker.mjs")
RUNTIME_OUT = "runtime"
RUNTIME_CONFIG = "HEARTS_BUILD_CONFIG"  # the name the runtime reads its build data by (JSON text: esbuild's define)
PYTHON_RUNTIME = "web/runtime/python.mjs"  # the runtime's Python start (its Python text counts as imports)
SERVICE_WORKER = "web/runtime/sw.js"

# Modules that run although no Python source in reach imports them by name (pack_python.py
# derives _strptime and codecs from calls in the game's code; the game's archives are unzipped by
# web/runtime/zip.mjs, not by zipfile, which needed encodings.cp437 for their member names):
EXTRA_MODULES: tuple[str, ...] = ()
PACK_SCRIPT = "tools/pack_python.py"
PACK_RUNNER = "tools/pyodide_run.mjs"
# No column ranges in the bytecode (tracebacks keep file and line, lose the ^^^ markers):
# 20 % smaller archives.
PACK_ENV = {"PYTHONNODEBUGRANGES": "1"}
# The standard library is compiled like `python -OO` (no docstrings, no asserts: 15 % smaller);
# Pyodide's own packages keep their docstrings (it builds the JavaScript API's docs from them).
# The game's code is compiled as it is (optimize 0).
STDLIB_OPTIMIZE = 2
KEEP_DOCSTRINGS = ("pyodide", "_pyodide")
PRELOAD_MARKER = "<!-- start-up preloads: written here by tools/build.py -->"
TURN_VARIABLE = "HEARTS_TURN"  # the site's TURN servers (see site_turn)


class BuildError(Exception):
    """A problem the developer must fix; printed without a traceback."""


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data
    except FileNotFoundError:
        raise BuildError(f"missing {path.relative_to(ROOT)}") from None


def vendor_versions(root: Path = ROOT) -> dict[str, str]:
    """Versions pinned in package.json, checked against what npm installed: Pyodide, which the
    game runs, and PyScript (a development dependency: the lab's bare PyScript page, the reference
    of its start-up benchmarks, ``copy_stock_vendor``)."""
    pins = _read_json(root / "package.json")
    deps = {**pins.get("devDependencies", {}), **pins.get("dependencies", {})}
    wanted = {"pyodide": deps.get("pyodide"), "pyscript": deps.get("@pyscript/core")}
    installed_dirs = {"pyodide": "node_modules/pyodide", "pyscript": "node_modules/@pyscript/core"}
    for name, version in wanted.items():
        if not version or not re.fullmatch(r"[0-9][0-9A-Za-z.+-]*", version):
            raise BuildError(f"package.json must pin an exact version for {name} (found {version!r})")
        pkg = root / installed_dirs[name] / "package.json"
        if not pkg.exists():
            raise BuildError(f"{installed_dirs[name]} is missing: run `npm ci` first")
        have = _read_json(pkg).get("version")
        if have != version:
            raise BuildError(f"{installed_dirs[name]} is version {have} but package.json pins {version}: run `npm ci`")
    return {k: v for k, v in wanted.items() if v}


def _walk(folder: Path) -> Iterator[tuple[Path, Path]]:
    """Files under folder, sorted, skipping caches and editor junk."""
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part in SKIP_DIRS for part in rel.parts):
            continue
        if path.is_file() and path.suffix not in SKIP_SUFFIXES and path.name not in SKIP_NAMES:
            yield path, rel


MINIFIED = (".css", ".js")  # web/'s own stylesheets and classic scripts


def copy_web(root: Path, out: Path) -> None:
    web = root / "web"
    if not web.is_dir():
        raise BuildError("missing web/ folder")
    for path, rel in _walk(web):
        if rel.parts[0] in ("hearts_web", "online", "runtime"):
            continue  # shipped inside app.zst / bundled by esbuild
        if path.suffix == ".py":
            continue  # Python sources travel in app.zst
        dest = out / "web" / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix in MINIFIED:
            minify(root, path, dest)
        else:
            shutil.copyfile(path, dest)


def minify(root: Path, source: Path, target: Path) -> None:
    """``source`` (a stylesheet or a classic script of web/) minified by esbuild, not bundled: the
    same rules and code without comments and spaces (about a quarter less of a first visit's CSS and
    scripts, gzipped)."""
    run_esbuild(root, source, "--minify", "--legal-comments=none", "--log-level=warning", f"--outfile={target}")


def snippet_imports(*texts: str) -> set[str]:
    """Module names in Python text embedded in JavaScript (import statements inside strings)."""
    pattern = re.compile(
        r"(?:^|\\n|\\t|[\s;\"'`(])(?:from\s+([A-Za-z_][\w.]*)\s+import\b"
        r"|import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*))"
    )
    names: set[str] = set()
    for text in texts:
        for single, several in pattern.findall(text):
            names.update(n.strip() for n in (single or several).split(","))
    return names


# ------------------------------------------------------------------ Python: compile and trim
def _tree_files(folder: Path) -> list[tuple[Path, str]]:
    return [(path, rel.as_posix()) for path, rel in _walk(folder)]


def pack_python(root: Path) -> tuple[bytes, bytes, bytes, bytes, dict[str, Any]]:
    """(trimmed stdlib, app, extras, online, report) from tools/pack_python.py inside Pyodide;
    cached. The four archives are zips in a zstd frame."""
    pyodide_dir = root / "node_modules/pyodide"
    js_texts = [
        (root / PYTHON_RUNTIME).read_text(encoding="utf-8"),  # the Python text the game's worker runs
        (pyodide_dir / "pyodide.asm.mjs").read_text(encoding="utf-8"),
    ]
    extra = sorted({ENTRY_MODULE, *EXTRA_MODULES} | snippet_imports(*js_texts))

    sources: list[tuple[str, bytes]] = []  # (path in the work folder, content)
    for src, name in ARCHIVE_PACKAGES:
        folder = root / src
        if not (folder / "__init__.py").is_file():
            raise BuildError(f"{src}/__init__.py is missing: {src} must be a package")
        sources += [(f"app/{name}/{rel}", path.read_bytes()) for path, rel in _tree_files(folder)]
    shipped = {rel for rel, _ in sources}
    for module, files in MODULE_DATA.items():
        beside = "/".join(["app", *module.split(".")[:-1]])
        missing = [f for f in files if f"{beside}/{f}" not in shipped]
        if missing:
            raise BuildError(f"MODULE_DATA: {module} reads {missing}, which are not beside it")
    job = {
        "search": ["app", "."],
        "entries": [],
        "extra_modules": extra,
        "app_packages": [f"app/{name}" for _, name in ARCHIVE_PACKAGES],
        "module_data": {module: list(files) for module, files in MODULE_DATA.items()},
        "lazy_roots": list(LAZY_MODULES),
        "extras_out": "out/extras.zst",
        "online_roots": list(ONLINE_MODULES),
        "online_out": "out/online.zst",
        "stdlib_optimize": STDLIB_OPTIMIZE,
        "keep_docstrings": list(KEEP_DOCSTRINGS),
        "stdlib_out": "out/stdlib.zst",
        "app_out": "out/app.zst",
        "report": "out/report.json",
    }

    key = hashlib.sha256()
    for part in [
        json.dumps(job, sort_keys=True).encode(),
        json.dumps(PACK_ENV, sort_keys=True).encode(),
        (root / PACK_SCRIPT).read_bytes(),
        (root / PACK_RUNNER).read_bytes(),
        hashlib.sha256((pyodide_dir / "python_stdlib.zip").read_bytes()).digest(),
        (pyodide_dir / "package.json").read_bytes(),
    ]:
        key.update(hashlib.sha256(part).digest())
    for rel, data in sources:
        key.update(rel.encode() + b"\0" + hashlib.sha256(data).digest())
    cache = root / ".cache" / "pack" / key.hexdigest()[:20]
    if not (cache / "report.json").is_file():
        if shutil.which("node") is None:
            raise BuildError("node (Node 20+) is required: the build compiles Python inside Pyodide")
        with tempfile.TemporaryDirectory(prefix="hearts-pack-") as tmp:
            work = Path(tmp)
            for rel, data in sources:
                (work / rel).parent.mkdir(parents=True, exist_ok=True)
                (work / rel).write_bytes(data)
            (work / "job.json").write_text(json.dumps(job, indent=1), encoding="utf-8")
            result = subprocess.run(
                ["node", str(root / PACK_RUNNER), str(root / PACK_SCRIPT), str(work), "job.json"],
                cwd=root,
                capture_output=True,
                text=True,
                env={**os.environ, "PYODIDE_RUN_ENV": json.dumps(PACK_ENV)},
            )
            if result.returncode != 0:
                raise BuildError(f"{PACK_SCRIPT} failed inside Pyodide:\n{result.stdout}{result.stderr}")
            if cache.parent.is_dir():  # keep the cache small: the newest few results
                for old in sorted(cache.parent.iterdir(), key=lambda p: p.stat().st_mtime)[:-3]:
                    shutil.rmtree(old, ignore_errors=True)
            staging = cache.with_name(cache.name + ".tmp")
            shutil.rmtree(staging, ignore_errors=True)
            shutil.copytree(work / "out", staging)
            staging.rename(cache)
    report = json.loads((cache / "report.json").read_text(encoding="utf-8"))
    if report["eager_extras"]:
        raise BuildError(
            "a module imports one of a later archive (LAZY_MODULES, ONLINE_MODULES) "
            f"outside a function: {report['eager_extras']}; import it after "
            "hearts_web.screen.extras.load(), inside the function that needs it"
        )
    if report["computed_imports"]:
        raise BuildError(
            "the game imports modules by computed names, which the trimmed standard "
            f"library cannot see: {report['computed_imports']}; use import statements"
        )
    return (
        (cache / "stdlib.zst").read_bytes(),
        (cache / "app.zst").read_bytes(),
        (cache / "extras.zst").read_bytes(),
        (cache / "online.zst").read_bytes(),
        report,
    )


def copy_vendor(root: Path, out: Path, versions: dict[str, str], stdlib: bytes) -> dict[str, str]:
    """The runtime files the game loads; returns {role: path in dist} of the hashed ones."""
    pyodide_src = root / "node_modules/pyodide"
    pyodide_dst = out / "vendor" / f"pyodide-{versions['pyodide']}"
    pyodide_dst.mkdir(parents=True)
    for name in PYODIDE_FILES:
        if not (pyodide_src / name).is_file():
            raise BuildError(f"node_modules/pyodide/{name} is missing: run `npm ci`")
        shutil.copyfile(pyodide_src / name, pyodide_dst / name)
    # The folder name carries Pyodide's version, the file name the content: immutable caching.
    stdlib_name = f"stdlib-{hashlib.sha256(stdlib).hexdigest()[:16]}.zst"
    (pyodide_dst / stdlib_name).write_bytes(stdlib)

    try:  # what the runtime relies on in Pyodide for its snapshot start
        vendor_pins.check_pyodide_snapshot(pyodide_dst, (root / PYTHON_RUNTIME).read_text(encoding="utf-8"))
    except PatchError as exc:
        raise BuildError(str(exc)) from None
    return {"stdlib": f"vendor/pyodide-{versions['pyodide']}/{stdlib_name}"}


def copy_stock_vendor(root: Path, out: Path, versions: dict[str, str]) -> None:
    """The stock runtime as npm ships it (all of PyScript's dist but maps, Pyodide's runtime
    with the full stdlib and lock file): what a bare PyScript page loads (the start-up benchmark's reference)."""
    pyodide_dst = out / "vendor" / f"pyodide-{versions['pyodide']}"
    pyodide_dst.mkdir(parents=True)
    for name in STOCK_PYODIDE_FILES:
        shutil.copyfile(root / "node_modules/pyodide" / name, pyodide_dst / name)
    for path, rel in _walk(root / "node_modules/@pyscript/core/dist"):
        if path.suffix != ".map":
            dest = out / "vendor" / f"pyscript-{versions['pyscript']}" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)


# ------------------------------------------------------------------ start-up: the runtime and preloads
def read_archive(path: Path, root: Path = ROOT) -> bytes:
    """The zip inside one of the game's ``.zst`` archives, decoded by the same decoder the page
    uses (fzstd, through node): for tests and people."""
    script = (
        "const {decompress}=require(process.argv[1]);const fs=require('fs');"
        "process.stdout.write(Buffer.from(decompress(fs.readFileSync(process.argv[2]))))"
    )
    done = subprocess.run(
        ["node", "-e", script, str(root / "node_modules/fzstd"), str(path)], capture_output=True, check=True
    )
    return done.stdout


def write_runtime(root: Path, out: Path, versions: dict[str, str], stdlib_path: str) -> None:
    """dist/runtime/: web/runtime/'s entries bundled by esbuild (minified, one shared chunk), with
    the build's data for them as the constant RUNTIME_CONFIG: where Pyodide, the standard library and
    the game's archives are, Pyodide's lock information, and the key of Python's snapshot (a
    snapshot restores only into the runtime, standard library and game that made it)."""
    info = _read_json(root / "node_modules/pyodide/pyodide-lock.json")["info"]
    pyodide_dir = f"vendor/pyodide-{versions['pyodide']}"
    sources = sorted((root / RUNTIME_SOURCE).glob("*.mjs"))
    made_by = [pyodide_dir.encode(), stdlib_path.encode(), (out / APP_ARCHIVE).read_bytes()]
    made_by += [path.read_bytes() for path in sources]
    config = {
        "pyodideDir": pyodide_dir,
        "stdlib": stdlib_path,
        "app": APP_ARCHIVE,
        "extras": EXTRAS_ARCHIVE,
        "online": ONLINE_ARCHIVE,
        "lockInfo": info,
        "snapshotKey": hashlib.sha256(b"\0".join(made_by)).hexdigest()[:16],
        "snapshotCache": SNAPSHOT_CACHE,
    }
    run_esbuild(
        root,
        root / RUNTIME_SOURCE / RUNTIME_ENTRIES[0],
        *[str(root / RUNTIME_SOURCE / entry) for entry in RUNTIME_ENTRIES[1:]],
        "--bundle",
        "--splitting",
        "--format=esm",
        "--minify",
        "--target=es2020",
        "--legal-comments=none",
        "--log-level=warning",
        f"--define:{RUNTIME_CONFIG}={json.dumps(json.dumps(config, sort_keys=True, separators=(',', ':')))}",
        "--chunk-names=shared-[hash]",
        "--out-extension:.js=.mjs",
        f"--outdir={out / RUNTIME_OUT}",
    )


def preload_links() -> list[str]:
    """<link> tags that start the downloads of the start-up at once (see docs/development.md,
    "Start-up"); web/boot.js adds them after the first paint: the page's module, as a module.

    Nothing the workers fetch: a worker's request for a file the page is still preloading goes to
    the network a second time (measured: the 2.4 MB standard library and the workers' shared
    chunk twice on a first visit). The game's worker asks for Pyodide's module and both archives
    at once as its first step instead. Never the wasm either: Chromium then compiles it again at
    every start (a preloaded response bypasses its wasm code cache, measured with a trace)."""
    return [f'<link rel="modulepreload" href="./{RUNTIME_OUT}/page.mjs">']


def site_turn(environ: Mapping[str, str], root: Path = ROOT) -> str:
    """The site's TURN servers for the online table: ``HEARTS_TURN`` in the build's environment, a
    JSON list of RTCIceServer objects (``[{"urls": "turn:turn.example.net:3478", "username": "u",
    "credential": "p"}]``), checked by the rules of network.json, as the page checks it; ``""``
    when not set. The page reads it from ``<meta name="hearts-turn">`` (docs/online.md, "TURN for
    a site operator")."""
    raw = environ.get(TURN_VARIABLE, "").strip()
    if not raw:
        return ""
    try:
        servers = online_network.ice_servers(json.loads(raw), online_network.load(root)["ice_servers"])
    except ValueError as exc:  # json's errors are ValueErrors too
        raise BuildError(f"{TURN_VARIABLE} must be a JSON list of RTCIceServer objects: {exc}") from None
    return json.dumps(list(servers), separators=(",", ":"))


def write_index(root: Path, out: Path, links: list[str], turn: str = "") -> None:
    """index.html with the preload links in <template id="start-preloads"> at PRELOAD_MARKER:
    web/boot.js puts them into <head> on a first visit only (no service worker in control); a
    returning visit has every file at hand, and there the preloads only delayed the first paint
    and the offline start (measured: docs/development.md)."""
    text = (root / "index.html").read_text(encoding="utf-8")
    if text.count(PRELOAD_MARKER) != 1:
        raise BuildError(f"index.html must contain the line {PRELOAD_MARKER!r} once (in <head>)")
    boot = text.find(f'<script src="./web/boot.js" data-game="./{RUNTIME_OUT}/page.mjs">')
    if boot < 0 or boot < text.index(PRELOAD_MARKER):
        raise BuildError(
            "index.html: the preload marker must come before "
            f'<script src="./web/boot.js" data-game="./{RUNTIME_OUT}/page.mjs"> '
            "(boot.js reads the preloads, then starts the game)"
        )
    indent = re.search(r"([ \t]*)" + re.escape(PRELOAD_MARKER), text).group(1)  # type: ignore[union-attr]
    block = f"\n{indent}  ".join([PRELOAD_MARKER + f'\n{indent}<template id="start-preloads">'] + links)
    block += f"\n{indent}</template>"
    if turn:
        block += f'\n{indent}<meta name="hearts-turn" content="{html.escape(turn, quote=True)}">'
    (out / "index.html").write_text(text.replace(PRELOAD_MARKER, block), encoding="utf-8")


def esbuild(root: Path, source: Path, target: Path, *extra: str) -> None:
    """Bundle ``source`` with esbuild (pinned in package.json) into one minified ES module."""
    target.parent.mkdir(parents=True, exist_ok=True)
    run_esbuild(
        root,
        source,
        "--bundle",
        "--format=esm",
        "--minify",
        "--target=es2020",
        "--legal-comments=none",
        "--log-level=warning",
        f"--outfile={target}",
        *extra,
    )


def run_esbuild(root: Path, source: Path, *options: str) -> None:
    """esbuild (pinned in package.json) on ``source`` with ``options``; a BuildError says why not."""
    binary = root / "node_modules" / ".bin" / "esbuild"
    if not binary.exists():
        raise BuildError("node_modules/.bin/esbuild is missing: run `npm ci --ignore-scripts`")
    result = subprocess.run([str(binary), str(source), *options], cwd=root, capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildError(f"esbuild failed for {source}:\n{result.stderr.strip()}")


# Trystero, patched where its behaviour does not fit a table of friends on public relays. Each patch
# replaces one passage of a package's file that must be there exactly once (a new Trystero needs a
# new look): (package, file, old, new).
TRYSTERO_CORE = "@trystero-p2p/core"
TRYSTERO_NOSTR = "@trystero-p2p/nostr"
TRYSTERO_PATCHES = (
    # A glare: a peer that holds offers of its own ignores an offer from a peer with a higher id and
    # waits for that peer to answer one of its own offers, which arrives only with its next announce.
    # Patched: a peer that ignores such an offer announces again at once (at most once a second), so
    # the newcomer gets its offers within a round trip.
    (
        TRYSTERO_CORE,
        "dist/signal-handler.mjs",
        "\tif ((hasTrackedOutgoingOffer || hasOutgoingOfferHint) && selfId < peerId) return;\n",
        "\tif ((hasTrackedOutgoingOffer || hasOutgoingOfferHint) && selfId < peerId) {\n"
        "\t\tif (!hasTrackedOutgoingOffer && Date.now() - (ctx.lastGlareAnnounce ?? 0) > 1e3) {\n"
        "\t\t\tctx.lastGlareAnnounce = Date.now();\n"
        "\t\t\tctx.requeueAnnounce?.();\n"
        "\t\t}\n"
        "\t\treturn;\n"
        "\t}\n",
    ),
    # A relay that could not be reached for about a minute was given up for good (until a reload):
    # a host whose network dropped for a minute stayed unreachable. Patched: a relay is tried again
    # for as long as the room is open, at most 15 s apart (at random within that, as before).
    (TRYSTERO_CORE, "dist/utils.mjs", "const maxRetryMs = 6e4;\n", "const maxRetryMs = 15e3;\n"),
    (
        TRYSTERO_CORE,
        "dist/utils.mjs",
        "\t\t\tif (period >= maxRetryMs) {\n\t\t\t\tclient.isClosed = true;\n\t\t\t\treturn;\n\t\t\t}\n",
        "",
    ),
    # Every join made 20 peer connections ahead of time (offers for the BitTorrent strategy, which
    # sends ten with each announce), each gathering its ICE candidates, a TURN allocation included.
    # The Nostr strategy takes one offer per peer met: two ready are plenty.
    (TRYSTERO_CORE, "dist/offer-pool.mjs", "const poolSize = 20;\n", "const poolSize = 2;\n"),
    # A connection that no room uses any more was kept two minutes, for a room joined later. A
    # guest that joins afresh (nobody met it) wants fresh connections: a half-open one kept from
    # before (one side took the other for joined, the other never did) held its introduction off
    # for 97 s (2 of 60 joins on loopback). Patched: such a connection is closed at once.
    (
        TRYSTERO_CORE,
        "dist/strategy.mjs",
        "const sharedPeerIdleMsDefault = 123333;\n",
        "const sharedPeerIdleMsDefault = 0;\n",
    ),
    # Leaving a room and joining it again (a guest that met nobody) lost the new room's subscription
    # to its topic: the old room's unsubscribe runs a moment later and removed the topic by name,
    # the new room's handler with it, so the new room never heard a newcomer again. Patched: a
    # room's cleanup removes the topic only while it still holds that room's own handler.
    (
        TRYSTERO_NOSTR,
        "dist/index.mjs",
        "const batchRemove = (client, topic) => {\n\tconst batcher = batchers[client.url];\n\tif (!batcher) return;\n",
        "const batchRemove = (client, topic, handler) => {\n\tconst batcher = batchers[client.url];\n"
        "\tif (!batcher || handler && batcher.topics.get(topic) !== handler) return;\n",
    ),
    (
        TRYSTERO_NOSTR,
        "dist/index.mjs",
        "\t\t\tbatchRemove(client, topic);\n",
        "\t\t\tbatchRemove(client, topic, handler);\n",
    ),
)


def patched_trystero(root: Path) -> dict[str, Path]:
    """Copies of Trystero's packages under .cache/build/node_modules with :data:`TRYSTERO_PATCHES`
    applied (the build fails if a patched passage is not there exactly once), by package name:
    the bundle resolves each package to its copy."""
    copies: dict[str, Path] = {}
    for package in (TRYSTERO_CORE, TRYSTERO_NOSTR):
        source = root / "node_modules" / package
        if not source.is_dir():
            raise BuildError(f"node_modules/{package} is missing: run `npm ci --ignore-scripts`")
        target = root / ".cache" / "build" / "node_modules" / package
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(source, target)
        copies[package] = target
    for package, name, old, new in TRYSTERO_PATCHES:
        path = copies[package] / name
        try:
            text = replace_once(
                path.read_text(encoding="utf-8"), old, new, where=f"{package}/{name}", see="TRYSTERO_PATCHES"
            )
        except PatchError as exc:
            raise BuildError(str(exc)) from None
        path.write_text(text, encoding="utf-8")
    return copies


def bundle_scripts(root: Path, out: Path) -> None:
    """Bundle each of ``BUNDLES`` into one minified ES module (with Trystero patched: the copies
    import what the packages import, from the project's node_modules)."""
    copies = patched_trystero(root)
    try:  # the error words transport.js tells failures apart by
        vendor_pins.check_trystero_words((root / vendor_pins.TRANSPORT).read_text(encoding="utf-8"), copies)
    except PatchError as exc:
        raise BuildError(str(exc)) from None
    aliases = [f"--alias:{name}={path / 'dist' / 'index.mjs'}" for name, path in copies.items()]
    aliases.append(f"--alias:@noble/secp256k1={root / 'node_modules' / '@noble' / 'secp256k1' / 'index.js'}")
    for src, dest in BUNDLES.items():
        esbuild(root, root / src, out / dest, *aliases)


def served_files(out: Path) -> list[str]:
    """Every file in out as a POSIX path relative to it, sorted."""
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def content_hash(out: Path, files: list[str]) -> str:
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0")
        digest.update(hashlib.sha256((out / rel).read_bytes()).digest())
    return digest.hexdigest()[:16]


def write_build_info(
    out: Path, files: list[str], version: str, versions: dict[str, str], python: dict[str, Any] | None = None
) -> None:
    entries = []
    total = total_gz = 0
    for rel in files:
        data = (out / rel).read_bytes()
        gz = len(gzip.compress(data, compresslevel=6, mtime=0))
        entries.append({"path": rel, "bytes": len(data), "gzip_bytes": gz})
        total += len(data)
        total_gz += gz
    info = {
        "version": version,
        "cache_name": CACHE_PREFIX + version,
        "vendor": versions,
        "total_bytes": total,
        "total_gzip_bytes": total_gz,
        "files": entries,
        "python": python or {},
        "note": "sizes of the files listed (sw.js and this file excluded); gzip_bytes estimates "
        "what a host that compresses responses sends; python: the modules shipped "
        "(stdlib-*.zst, app.zst, extras.zst, online.zst), compiled by tools/pack_python.py",
    }
    (out / "build-info.json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")


# Served but not precached: the page never loads them (offline needs everything it loads).
NOT_PRECACHED = {
    "sw.js": "the worker itself",
    "build-info.json": "for people and tools",
    "index.html": "precached as ./, the start URL; sw.js answers index.html from it",
    GERMAN_PAGE: "precached as ./de/, the German page's address; sw.js answers de/index.html from it",
    IMAGE: "the link preview's image: for the sites that show a link, not for the page",
    "web/icons/icon-192.png": "manifest icon: fetched when the game is installed (online)",
    "web/icons/icon-512.png": "manifest icon: fetched when the game is installed (online)",
    "web/online.js": "the online table's code: loaded only when a player goes online (and useless offline)",
    ONLINE_ARCHIVE: "the online table's Python: loaded only when a player goes online (and useless offline)",
}


def precache_list(files: list[str]) -> list[str]:
    # "./" first: the start URL (with or without ?query, thanks to ignoreSearch); then the German one.
    return ["./", "./de/"] + ["./" + rel for rel in files if rel not in NOT_PRECACHED]


SERVICE_WORKER = "web/runtime/sw.js"


def write_service_worker(root: Path, out: Path, files: list[str], version: str) -> None:
    """dist/sw.js: the build's data (its version, its cache's prefix, the files to precache) in a
    first line, then web/runtime/sw.js as it is."""
    urls = json.dumps(precache_list(files))
    data = f"const VERSION = {json.dumps(version)}, PREFIX = {json.dumps(CACHE_PREFIX)}, URLS = {urls};\n"
    (out / "sw.js").write_text(data + (root / SERVICE_WORKER).read_text(encoding="utf-8"), encoding="utf-8")


def build(root: Path = ROOT, out: Path | None = None) -> dict[str, Any]:
    out = out or root / "dist"
    versions = vendor_versions(root)
    if not (root / "index.html").is_file():
        raise BuildError("missing index.html")
    stdlib, app, extras, online, report = pack_python(root)

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    copy_web(root, out)
    bundle_scripts(root, out)
    (out / APP_ARCHIVE).write_bytes(app)
    (out / EXTRAS_ARCHIVE).write_bytes(extras)
    (out / ONLINE_ARCHIVE).write_bytes(online)
    hashed = copy_vendor(root, out, versions, stdlib)
    write_runtime(root, out, versions, hashed["stdlib"])
    chunks = sorted(p.name for p in (out / RUNTIME_OUT).glob("shared-*.mjs"))
    if len(chunks) != 1:
        raise BuildError(f"the runtime's bundle should share one chunk between its workers, not {chunks}")
    hashed["runtime_chunk"] = chunks[0]
    write_index(root, out, preload_links(), site_turn(os.environ, root))
    try:
        write_pages(out, site_url(os.environ))  # the link previews, and the German page
    except ValueError as exc:
        raise BuildError(str(exc)) from None

    files = served_files(out)
    version = content_hash(out, files)
    keys = ("python", "magic", "stdlib_modules", "app_modules", "extras_modules", "online_modules")
    python = {key: report[key] for key in keys}
    write_build_info(out, files, version, versions, python)
    write_service_worker(root, out, served_files(out), version)
    return _read_json(out / "build-info.json")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default: dist)")
    args = parser.parse_args(argv)
    try:
        info = build(ROOT, args.out.resolve())
    except BuildError as exc:
        print(f"build: ERROR: {exc}", file=sys.stderr)
        return 1
    print(
        f"build: {args.out} version {info['version']}: {len(info['files']) + 2} files, "
        f"{info['total_bytes'] / 1e6:.1f} MB ({info['total_gzip_bytes'] / 1e6:.1f} MB gzipped)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
