#!/usr/bin/env python3
"""Build the deployable folder ``dist/`` (stdlib Python, plus Node for one step).

``dist/`` holds exactly what the game serves and nothing else:

* ``index.html``, ``pyscript.toml``            copied from the repository root; index.html gets
                                                the start-up preload links (see PRELOAD_MARKER),
                                                its link preview (tools/pages.py) and, when the
                                                build's environment has HEARTS_TURN, the site's
                                                TURN servers (see site_turn)
* ``de/index.html``                             the German page: the same game, German first
                                                (tools/pages.py)
* ``web/**``                                    static files of ``web/`` (no Python sources,
                                                except ``web/main.py``, the PyScript entry point)
* ``app.zst``                                   the packages ``hearts`` and ``hearts_web``: sources
                                                plus their bytecode (``__pycache__``), a zip in one
                                                zstd frame, unpacked by runtime.mjs at start-up
* ``extras.zst``                                the same for the features loaded on demand
                                                (LAZY_MODULES: the review, challenges)
* ``online.zst``                                the same for the online table (ONLINE_MODULES): loaded
                                                only when a player goes online, so not precached
* ``runtime.mjs``                               generated: PyScript's interpreter module, Pyodide
                                                with the trimmed standard library, no lock file, the
                                                game's archives (a zstd decoder, fzstd, bundled in)
* ``vendor/pyodide-<version>/``                 the stock Pyodide runtime files the browser runs
                                                (wasm, JS: with the task boundaries of
                                                ``tools/pyodide_patch.py``) and
                                                ``stdlib-<hash>.zst``: only the
                                                standard-library modules the game imports, compiled
* ``vendor/pyscript-<version>/``                the PyScript files the game loads (core and the
                                                chunks it imports lazily: see PYSCRIPT_CHUNKS), with
                                                the CSP patch of ``tools/csp_patch.py`` (no 'unsafe-eval')
* ``build-info.json``                           version hash, file list with sizes
* ``web/online.js``                             the online table's transport (``web/online/transport.js``
                                                bundled by esbuild with Trystero's Nostr strategy and a
                                                QR encoder); loaded only when a player goes online, so
                                                it is not precached
* ``sw.js``                                     generated service worker (precaches what the page
                                                loads: everything above but NOT_PRECACHED)

The Python step (compile + trim, tools/pack_python.py) runs inside Pyodide under Node, the same
CPython the browser runs; its output is cached in ``.cache/pack/`` by a hash of its inputs.

Versions come from ``package.json`` and are checked against ``node_modules``; the build fails
with a clear message when ``index.html`` or ``pyscript.toml`` refer to another vendor version.
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
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":  # python3 tools/build.py: the package from the root, not tools/ itself
    sys.path[0] = str(ROOT)

from tools import online_network, vendor_pins  # noqa: E402
from tools.csp_patch import patch_pyscript  # noqa: E402
from tools.pages import GERMAN_PAGE, IMAGE, site_url, write_pages  # noqa: E402
from tools.pyodide_patch import patch_pyodide  # noqa: E402
from tools.vendor_patch import PatchError, replace_once  # noqa: E402

# Stock Pyodide files the game ships (the browser fetches exactly these, plus the trimmed stdlib;
# checked in e2e/test_platform.py), the two JavaScript ones with the task boundaries of
# tools/pyodide_patch.py.
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
)
# What a stock PyScript page fetches from the pyodide npm package (the benchmark's bare page):
# the game replaces python_stdlib.zip by stdlib-<hash>.zip and needs no lock file (no packages).
STOCK_PYODIDE_FILES = PYODIDE_FILES + ("python_stdlib.zip", "pyodide-lock.json")
# Python packages shipped inside app.zst: (source folder, name inside the archive).
ARCHIVE_PACKAGES = (
    ("hearts", "hearts"),
    ("web/hearts_web", "hearts_web"),
)
# The Python of the features a first visit does not use: not followed from web/main.py but
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
# The only Python file served as a plain file (index.html loads it as the PyScript entry).
WEB_ENTRY = "main.py"
# JavaScript sources bundled into one file each (not served as they are): source -> served path.
BUNDLES = {"web/online/transport.js": "web/online.js"}

SKIP_DIRS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis"}
SKIP_SUFFIXES = {".pyc", ".pyo"}
SKIP_NAMES = {".DS_Store", "Thumbs.db"}
# Fixed timestamp for zip members so that the archives (and the hash) depends on content only.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
CACHE_PREFIX = "hearts-"
# Cache Storage of the Python snapshots runtime.mjs makes (not the service worker's: not a file of the site)
SNAPSHOT_CACHE = "python-snapshot"
VENDOR_REF = re.compile(r"vendor/(pyodide|pyscript)-([0-9A-Za-z.+_-]+?)/")

# PyScript's core imports its other chunks lazily, by feature. The game ships the ones it loads;
# every chunk core imports must be listed in one of these two (a PyScript upgrade that adds one
# fails the build, so that someone decides). Plugins the game does not load must be switched off
# in pyscript.toml (plugins = ["!name", ...]), or PyScript would import them at every start.
PYSCRIPT_CHUNKS = {
    "error": "plugin: shows Python errors on the page (.py-error, which tests and boot.js watch)",
    "toml": "the parser of pyscript.toml",
}
PYSCRIPT_UNUSED = {
    "deprecations-manager": "plugin (off in pyscript.toml): warns about deprecated tags",
    "donkey": "plugin (off in pyscript.toml): the donkey API",
    "py-editor": "plugin (off in pyscript.toml): <script type=py-editor>, with codemirror",
    "py-game": "plugin (off in pyscript.toml): <script type=py-game>",
    "py-terminal": "plugin (off in pyscript.toml): the terminal, with xterm",
    "codemirror": "the editor (py-editor only)",
    "codemirror_commands": "the editor (py-editor only)",
    "codemirror_lang-python": "the editor (py-editor only)",
    "codemirror_language": "the editor (py-editor only)",
    "codemirror_state": "the editor (py-editor only)",
    "codemirror_view": "the editor (py-editor only)",
    "pyodide_graph": "package versions, only read when pyscript.toml lists packages",
    "zip": "unzipping for MicroPython only (Pyodide unzips [files] itself)",
}
PYSCRIPT_PLUGINS = ("deprecations-manager", "donkey", "py-editor", "py-game", "py-terminal")
CHUNK_NAME = re.compile(r"(.+)-[A-Za-z0-9_-]{8}\.js")

# Modules that run although no Python source in reach imports them by name (pack_python.py
# derives _strptime and codecs from calls in the game's code; the game's archives are unzipped by
# runtime.mjs, not by zipfile, which needed encodings.cp437 for their member names):
EXTRA_MODULES: tuple[str, ...] = ()
# Found in PyScript's JavaScript as Python text, but only used for features the game does not
# have: tarfile and gzip unpack .tar.gz entries of [files] (the build checks there are none).
PYSCRIPT_SNIPPET_UNUSED = {"tarfile", "gzip"}
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
RUNTIME_MODULE = "runtime.mjs"


class BuildError(Exception):
    """A problem the developer must fix; printed without a traceback."""


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data
    except FileNotFoundError:
        raise BuildError(f"missing {path.relative_to(ROOT)}") from None


def vendor_versions(root: Path = ROOT) -> dict[str, str]:
    """Versions pinned in package.json, checked against what npm installed."""
    deps = _read_json(root / "package.json").get("dependencies", {})
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


def check_vendor_references(root: Path, versions: dict[str, str]) -> None:
    """Fail when index.html / pyscript.toml point at a vendor folder we do not ship."""
    problems = []
    seen = set()
    for name in ("index.html", "pyscript.toml"):
        text = (root / name).read_text(encoding="utf-8")
        for match in VENDOR_REF.finditer(text):
            kind, version = match.groups()
            seen.add(kind)
            if version != versions[kind]:
                problems.append(
                    f"{name} references vendor/{kind}-{version}/ but package.json pins "
                    f"{kind} {versions[kind]} (expected vendor/{kind}-{versions[kind]}/)"
                )
    if problems:
        raise BuildError("vendor version mismatch:\n  " + "\n  ".join(problems))
    for kind in ("pyscript",):  # vendor/pyodide-* is referenced by the generated runtime.mjs
        if kind not in seen:
            print(f"build: warning: neither index.html nor pyscript.toml references vendor/{kind}-*/", file=sys.stderr)


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
    if not (web / WEB_ENTRY).is_file():
        raise BuildError(f"missing web/{WEB_ENTRY} (the PyScript entry point)")
    for path, rel in _walk(web):
        if rel.parts[0] in ("hearts_web", "online"):
            continue  # shipped inside app.zst / bundled by esbuild
        if path.suffix == ".py" and rel.as_posix() != WEB_ENTRY:
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


# ------------------------------------------------------------------ PyScript: what the game loads
def pyscript_core_chunk(src: Path) -> str:
    """The file name of PyScript's core chunk (core.js only re-exports it)."""
    match = re.search(r'from\s*"\./(core-[A-Za-z0-9_-]+\.js)"', (src / "core.js").read_text(encoding="utf-8"))
    if not match:
        raise BuildError("node_modules/@pyscript/core/dist/core.js: cannot find its core-*.js chunk")
    return match.group(1)


def read_pyscript_config(root: Path) -> dict[str, Any]:
    try:
        return tomllib.loads((root / "pyscript.toml").read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise BuildError(f"pyscript.toml: {exc}") from None


def pyscript_files(root: Path, src: Path) -> list[str]:
    """The PyScript files the game loads: core.js, core.css, the core chunk and the chunks of
    PYSCRIPT_CHUNKS. Fails when core imports a chunk that neither list names, or when a plugin
    the game does not ship is not switched off in pyscript.toml."""
    core = pyscript_core_chunk(src)
    imported = sorted(
        set(re.findall(r'import\("\./([A-Za-z0-9_.-]+\.js)"\)', (src / core).read_text(encoding="utf-8")))
    )
    keep = ["core.js", "core.css", core]
    unknown = []
    for name in imported:
        match = CHUNK_NAME.fullmatch(name)
        stem = match.group(1) if match else name
        if stem in PYSCRIPT_CHUNKS:
            keep.append(name)
        elif stem not in PYSCRIPT_UNUSED:
            unknown.append(name)
    if unknown:
        raise BuildError(
            f"PyScript's {core} imports chunks tools/build.py does not know: {unknown}; "
            "add each to PYSCRIPT_CHUNKS (the game loads it) or PYSCRIPT_UNUSED (why not)"
        )
    found = {CHUNK_NAME.fullmatch(n).group(1) for n in keep[3:]}  # type: ignore[union-attr]
    if found != set(PYSCRIPT_CHUNKS):
        raise BuildError(
            f"PyScript's {core} no longer imports {sorted(set(PYSCRIPT_CHUNKS) - found)}: "
            "update PYSCRIPT_CHUNKS in tools/build.py"
        )
    # The kept chunks' own static imports must be kept too.
    for name in keep[3:]:
        for dep in re.findall(
            r'(?:from|import)\s*"\./([A-Za-z0-9_.-]+\.js)"', (src / name).read_text(encoding="utf-8")
        ):
            if dep not in keep:
                raise BuildError(f"PyScript's {name} imports {dep}, which the build does not ship")
    # PyScript sets up both interpreters, "py" (pyscript.toml) and "mpy" (<mpy-config> in
    # index.html): each loads every plugin its config does not switch off.
    mpy = re.search(r"<mpy-config>(.*?)</mpy-config>", (root / "index.html").read_text(encoding="utf-8"), re.S)
    try:
        mpy_plugins = json.loads(mpy.group(1)).get("plugins", []) if mpy else []
    except ValueError:
        raise BuildError("index.html: the <mpy-config> element must hold JSON") from None
    for where, plugins in (
        ("pyscript.toml", read_pyscript_config(root).get("plugins", [])),
        ("<mpy-config> in index.html", mpy_plugins),
    ):
        on = [p for p in PYSCRIPT_PLUGINS if f"!{p}" not in plugins]
        if on:
            raise BuildError(
                f"{where} must switch off the PyScript plugins the game does not ship: "
                f"add {', '.join(json.dumps('!' + p) for p in on)} to its plugins list"
            )
    return keep


_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def js_string(body: str) -> str:
    """The value of a double-quoted JavaScript string literal (without its quotes)."""

    def unescape(match: re.Match[str]) -> str:
        esc = match.group(1)
        if esc[0] == "u":
            return chr(int(esc[2:-1] if esc[1] == "{" else esc[1:], 16))
        if esc[0] == "x":
            return chr(int(esc[1:], 16))
        if esc == "\n":
            return ""  # line continuation
        return _JS_ESCAPES.get(esc, esc)

    return re.sub(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])", unescape, body)


def pyscript_python(src: Path) -> dict[str, str]:
    """PyScript's own Python package (pyscript/*.py), which core writes to the virtual file
    system at start-up: {file name: source}."""
    text = (src / pyscript_core_chunk(src)).read_text(encoding="utf-8")
    start = text.find("{pyscript:{")
    if start < 0:
        raise BuildError("cannot find the sources of PyScript's Python package in its core chunk")
    files = {}
    pos = start + len("{pyscript:{")
    entry = re.compile(r'"([A-Za-z0-9_]+\.py)":"((?:[^"\\]|\\[\s\S])*)",?')
    while match := entry.match(text, pos):
        files[match.group(1)] = js_string(match.group(2))
        pos = match.end()
    if "__init__.py" not in files or len(files) < 5:
        raise BuildError(f"PyScript's Python package looks different than expected ({sorted(files)})")
    return files


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
    pyscript_src = root / "node_modules/@pyscript/core/dist"
    pyodide_dir = root / "node_modules/pyodide"
    config = read_pyscript_config(root)
    archives = [k for k in config.get("files", {}) if str(k).endswith((".tar.gz", ".tgz"))]
    if archives:
        raise BuildError(
            f"pyscript.toml [files] has .tar.gz archives {archives}: then PyScript needs "
            "tarfile and gzip: remove them from PYSCRIPT_SNIPPET_UNUSED in tools/build.py"
        )
    ps_python = pyscript_python(pyscript_src)
    js_texts = [
        (pyscript_src / pyscript_core_chunk(pyscript_src)).read_text(encoding="utf-8"),
        (pyodide_dir / "pyodide.asm.mjs").read_text(encoding="utf-8"),
    ]
    snippets = sorted(snippet_imports(*js_texts) - PYSCRIPT_SNIPPET_UNUSED)
    extra = sorted(set(EXTRA_MODULES) | set(snippets))

    sources: list[tuple[str, bytes]] = []  # (path in the work folder, content)
    for src, name in ARCHIVE_PACKAGES:
        folder = root / src
        if not (folder / "__init__.py").is_file():
            raise BuildError(f"{src}/__init__.py is missing: {src} must be a package")
        sources += [(f"app/{name}/{rel}", path.read_bytes()) for path, rel in _tree_files(folder)]
    sources.append(("main.py", (root / "web" / WEB_ENTRY).read_bytes()))
    shipped = {rel for rel, _ in sources}
    for module, files in MODULE_DATA.items():
        beside = "/".join(["app", *module.split(".")[:-1]])
        missing = [f for f in files if f"{beside}/{f}" not in shipped]
        if missing:
            raise BuildError(f"MODULE_DATA: {module} reads {missing}, which are not beside it")
    sources += [(f"pyscript/{name}", text.encode()) for name, text in sorted(ps_python.items())]
    job = {
        "search": ["app", "."],
        "entries": ["main.py"] + [f"pyscript/{n}" for n in sorted(ps_python)],
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

    pyscript_src = root / "node_modules/@pyscript/core/dist"
    pyscript_dst = out / "vendor" / f"pyscript-{versions['pyscript']}"
    if not (pyscript_src / "core.js").is_file():
        raise BuildError("node_modules/@pyscript/core/dist/core.js is missing: run `npm ci`")
    pyscript_dst.mkdir(parents=True)
    names = pyscript_files(root, pyscript_src)
    for name in names:
        shutil.copyfile(pyscript_src / name, pyscript_dst / name)
    try:
        vendor_pins.check_pyodide_snapshot(pyodide_dst, RUNTIME_TEMPLATE)  # the runtime's snapshot start
        patch_pyodide(pyodide_dst)  # task boundaries in Pyodide's start
        patch_pyscript(pyscript_dst)  # no 'unsafe-eval' needed
    except PatchError as exc:
        raise BuildError(str(exc)) from None
    chunks = {CHUNK_NAME.fullmatch(n).group(1): n for n in names[3:]}  # type: ignore[union-attr]
    return {
        "stdlib": f"vendor/pyodide-{versions['pyodide']}/{stdlib_name}",
        "core_chunk": f"vendor/pyscript-{versions['pyscript']}/{names[2]}",
        **{f"chunk_{stem}": f"vendor/pyscript-{versions['pyscript']}/{name}" for stem, name in chunks.items()},
    }


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


# ------------------------------------------------------------------ start-up: module and preloads
RUNTIME_TEMPLATE = """\
// GENERATED by tools/build.py: do not edit. PyScript's interpreter module (pyscript.toml).
// Pyodide's own loadPyodide, started with the game's standard library: only the modules it
// imports, as bytecode (tools/pack_python.py), and with an empty package lock instead of
// fetching pyodide-lock.json (the game loads no packages). Then the game's Python (app.zst) is
// unpacked into the working folder before PyScript runs web/main.py; extras.zst (the features a
// first visit does not use) and online.zst (the online table) when Python asks for one:
// globalThis.heartsLoadExtras(name).
// The archives are zips in one zstd frame, decoded here (fzstd, bundled into this file by esbuild).
// index.html preloads the first two and this module on a first visit.
//
// Python's own start (CPython's initialisation, Pyodide's bootstrap, importing the game's modules)
// does not run on the page: it runs once in a Web Worker (this module, in a worker of its own),
// which sends back a memory snapshot of the interpreter; the page and the bots' worker start from
// that snapshot, kept in Cache Storage for the next visits (docs/development.md, "Start-up from a
// snapshot"). Without a snapshot (no workers, no Cache Storage, a failed restore) Python starts
// here as usual.
import { loadPyodide as load, version } from "./__PYODIDE_DIR__/pyodide.mjs";
import { decompress } from "__FZSTD__";

export { version };

const INDEX_URL = new URL("./__PYODIDE_DIR__/", import.meta.url).href;
const STDLIB_URL = new URL("./__STDLIB__", import.meta.url).href;
const APP_URL = new URL("./__APP__", import.meta.url).href;
const LATER = {  // the archives unpacked on demand
  extras: new URL("./__EXTRAS__", import.meta.url).href,
  online: new URL("./__ONLINE__", import.meta.url).href,
};
const LOCK = { info: __LOCK_INFO__, packages: {} };
const WASM_URL = new URL("./pyodide.asm.wasm", INDEX_URL).href;
const HOME = "/home/pyodide";  // Python's working folder: sys.path[0] of the page's script
// The snapshot: which build made it (the Pyodide version, the standard library and the game's
// archive: a snapshot only restores into the very runtime and files that made it), where it is
// kept, and what it has imported.
const SNAPSHOT_KEY = "__SNAPSHOT_KEY__";
const SNAPSHOT_CACHE = "__SNAPSHOT_CACHE__";
const SNAPSHOT_URL = new URL(`./python-snapshot/${SNAPSHOT_KEY}`, import.meta.url).href;
// What the snapshot has imported: every module of the game's first archive that imports without the
// browser (the engine, the bots, the texts and the HTML the page draws), with the standard library
// they use. A module that needs the page (pyscript, js) or a later archive is left to the page.
const SNAPSHOT_IMPORTS = `
import importlib, os
for package in ("hearts", "hearts_web"):
    for folder, _, files in sorted(os.walk(package)):
        for file in sorted(files):
            stem, dot, suffix = file.rpartition(".")
            if suffix != "py" or stem == "__main__":
                continue
            name = folder.replace("/", ".") + ("" if stem == "__init__" else "." + stem)
            try:
                importlib.import_module(name)
            except ModuleNotFoundError:
                pass
`;
const SNAPSHOT_WORKER = "python-snapshot";  // the worker's name
const SNAPSHOT_WAIT = 60000;  // ms: a worker that has not answered by then is given up
const STORE_AFTER = 15000;  // ms after the restore: the page's start takes longer only when it failed

// A task boundary: the page paints and answers input between two steps of Python's start, which
// would otherwise run as one long task (docs/development.md, "Start-up, step by step").
// Without scheduler.yield(), a message to itself: unlike setTimeout, not held back to once a second
// in a tab opened in the background.
const nextTask = () => globalThis.scheduler?.yield ? globalThis.scheduler.yield() : new Promise((resolve) => {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => { channel.port1.close(); resolve(); };
  channel.port2.postMessage(null);
});

// Pyodide's module factory (the default export of pyodide.asm.mjs), as loadPyodide would import it,
// called a task after the module's evaluation: the two each take a phone 100-150 ms.
async function pyodideModule(settings) {
  const factory = (await import(new URL("./pyodide.asm.mjs", INDEX_URL).href)).default;
  await nextTask();
  return factory(settings);
}

// ``factory``, then a task boundary: loadPyodide goes on with the snapshot's restore and
// finalizeBootstrap at once. The module object (the settings) carries the task boundary that
// Pyodide's patched start awaits between its own steps (tools/pyodide_patch.py). Given ``intact``
// (a stored snapshot's check, see storedSnapshot), the restore waits for it, and fails if it does.
const thenYield = (factory, intact = null) => async (settings) => {
  settings.heartsNextTask = nextTask;
  const module = await factory(settings);
  if (intact && !(await intact)) throw new Error("the stored snapshot is spoilt: its SHA-256 differs");
  await nextTask();
  return module;
};

// A zstd frame starts with 28 b5 2f fd; a host that decoded it already sends the zip itself.
function unzstd(bytes) {
  const frame = bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd;
  return frame ? decompress(bytes) : bytes;
}

// The fetch of this module's load, not start()'s, which answers Pyodide's fetch of the stdlib with
// these very bytes. (On a first visit PyScript, and so this module, starts after the first paint:
// web/boot.js.)
const fetchFromNetwork = globalThis.fetch;
async function fetched(url) {
  const response = await fetchFromNetwork(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

async function archive(url) {
  return unzstd(await fetched(url));
}

// Writes the zip's members into Python's file system under HOME. The build stores every member
// (tools/pack_python.py), so each file is a slice of the zip: JavaScript copies it in, where
// Pyodide's unpackArchive (Python's zipfile and shutil) took 130-170 ms of one task on a phone.
function unzip(py, zip) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const text = new TextDecoder();
  let end = zip.length - 22;  // the end of the central directory (no archive comment: search back)
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("not a zip archive");
  let at = view.getUint32(end + 16, true);
  for (let left = view.getUint16(end + 10, true); left > 0; left--) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("a zip archive's directory is damaged");
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = text.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.startsWith("/") || name.split("/").includes("..")) {
      throw new Error(`${name}: outside the archive's folder`);
    }
    if (method !== 0) throw new Error(`${name}: compressed (method ${method}), the build stores every member`);
    const path = `${HOME}/${name}`;
    if (name.endsWith("/")) {
      py.FS.mkdirTree(path);
      continue;
    }
    py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    py.FS.writeFile(path, zip.subarray(data, data + size));
  }
}

// Pyodide's loadPyodide, with the standard library handed over (Pyodide fetches it itself from
// stdLibURL: it gets the decoded archive). Resolves to {py, module}: module is the compiled wasm
// it ran. Pyodide instantiates with WebAssembly.instantiateStreaming (its emscripten-settings.ts),
// which is answered here once: with a task boundary before and after the instantiation, and,
// given ``compiled`` (the snapshot worker's module, on a first start), with that module instead of
// compiling its download again (its fetch of the wasm then gets an empty response); ``intact``:
// see thenYield.
async function start(options, stdlib, compiled = null, intact = null) {
  const fetchAnything = globalThis.fetch;
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  let module = null;
  globalThis.fetch = (input, init) => {
    const url = String(input);
    if (url === STDLIB_URL) return stdlib.then((bytes) => new Response(bytes));
    if (url === WASM_URL && compiled) return Promise.resolve(new Response(null));
    return fetchAnything(input, init);
  };
  WebAssembly.instantiateStreaming = async (source, imports) => {
    WebAssembly.instantiateStreaming = instantiateStreaming;
    await nextTask();  // after Pyodide's module factory has set itself up
    const result = compiled
      ? { module: compiled, instance: await WebAssembly.instantiate(compiled, imports) }
      : await instantiateStreaming.call(WebAssembly, source, imports);
    await nextTask();  // before Emscripten sets the instance up
    module = result.module;
    return result;
  };
  try {
    const py = await load({
      ...options, indexURL: INDEX_URL, stdLibURL: STDLIB_URL, lockFileContents: LOCK,
      createPyodideModule: thenYield(pyodideModule, intact),
    });
    return { py, module };
  } finally {
    globalThis.fetch = fetchAnything;
    WebAssembly.instantiateStreaming = instantiateStreaming;
  }
}

// Snapshot storage: three entries under SNAPSHOT_URL (the memory, and both archives decoded, so
// that a start from a snapshot decodes nothing), each with its length and its SHA-256. A spoilt
// memory of the right length can make Pyodide's restore fail, abort, or never end (seen in
// e2e/test_startup.py), so a stored snapshot is checked before it is restored. The digests run
// off the main thread (WebCrypto), while Pyodide's module is compiled and instantiated.
const PARTS = ["memory", "stdlib", "app"];
const sha256 = async (bytes) => Array.from(
  new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
const partURL = (part) => `${SNAPSHOT_URL}/${part}`;
const RESTORE_WAIT = 30000;  // ms: a restore that has not finished by then is given up

// This build's snapshot ({memory, stdlib, app, intact}), or null. Other builds' snapshots are
// deleted. ``intact``: a promise of whether every part has its stored SHA-256.
async function storedSnapshot() {
  if (!globalThis.caches || !globalThis.crypto?.subtle) return null;
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const request of await cache.keys()) {
      if (!request.url.startsWith(SNAPSHOT_URL + "/")) cache.delete(request);
    }
    const found = {};
    const checks = [];
    for (const part of PARTS) {
      const response = await cache.match(partURL(part));
      if (!response) return null;
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (bytes.length !== Number(response.headers.get("x-length"))) {
        await forgetSnapshot();
        return null;
      }
      found[part] = bytes;
      const digest = response.headers.get("x-sha256");
      checks.push(sha256(bytes).then((hex) => hex === digest));
    }
    found.intact = Promise.all(checks).then((each) => each.every(Boolean), () => false);
    return found;
  } catch (err) {
    return null;
  }
}

async function storeSnapshot(snapshot) {
  if (!globalThis.caches || !globalThis.crypto?.subtle) return;
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    for (const part of ["stdlib", "app", "memory"]) {  // the memory last: without it, no part is used
      const bytes = snapshot[part];
      const headers = { "x-length": String(bytes.length), "x-sha256": await sha256(bytes) };
      await cache.put(partURL(part), new Response(bytes, { headers }));
    }
  } catch (err) {
    // a full storage: the next visit makes one again
  }
}

async function forgetSnapshot() {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    await Promise.all(PARTS.map((part) => cache.delete(partURL(part))));
  } catch (err) {
    // nothing stored, or no storage
  }
}

// A snapshot made by a worker (this module, in a worker named SNAPSHOT_WORKER) from the archives
// the page fetched, so that nothing is downloaded twice; it decodes them too, and sends them back
// with the memory and the compiled wasm. It stores them itself (writing 31 MB into Cache Storage
// cost the page's main thread ~70 ms on a phone), once the page calls the snapshot's
// ``store(true)``: after its start, which the storing would otherwise slow down (the worker's
// thread, the hashing and the disk compete with the page's restore for a phone's few cores);
// ``store(false)`` lets the worker go without storing. null when there is no worker or it fails;
// else the snapshot, with ``store``. The worker is ended once it has stored, or SNAPSHOT_WAIT
// after being asked to.
function snapshotFromWorker(stdlib, app) {
  if (!globalThis.Worker) return Promise.resolve(null);
  // (the archives not named in a closure: ``store`` lives until the page's start is over)
  let archives = { stdlib, app };
  let worker;
  const finish = () => worker?.terminate();
  const store = (yes) => {
    worker.postMessage({ store: yes });
    if (yes) setTimeout(finish, SNAPSHOT_WAIT);
    else finish();
  };
  return new Promise((resolve) => {
    let timer;
    const done = (made) => {
      clearTimeout(timer);
      if (!made) finish();
      resolve(made && { ...made, store });
    };
    try {
      worker = new Worker(import.meta.url, { type: "module", name: SNAPSHOT_WORKER });
    } catch (err) {
      done(null);
      return;
    }
    timer = setTimeout(() => done(null), SNAPSHOT_WAIT);
    worker.onmessage = (event) => {
      if (event.data?.stored) {
        clearTimeout(timer);
        finish();
      } else {
        if (!event.data?.memory) console.warn("Python's snapshot worker failed:", event.data?.failed);
        done(event.data?.memory ? event.data : null);
      }
    };
    worker.onerror = (event) => {
      console.warn("Python's snapshot worker failed:", event.message);
      clearTimeout(timer);
      finish();
      resolve(null);
    };
    worker.postMessage(archives);
    archives = null;
  });
}

// In the snapshot worker: start Python, import the game's modules, send back the snapshot.
async function makeSnapshot(data) {
  try {
    const stdlib = unzstd(data.stdlib);
    const app = unzstd(data.app);
    const { py, module } = await start({ _makeSnapshot: true }, Promise.resolve(stdlib));
    unzip(py, app);
    py.runPython(SNAPSHOT_IMPORTS);
    const memory = py.makeMemorySnapshot();
    // the page gets copies (transferred, so not copied again on its side); the worker stores these
    const sent = { memory: memory.slice(), stdlib: stdlib.slice(), app: app.slice() };
    const told = new Promise((resolve) => { self.onmessage = (event) => resolve(event.data?.store); });
    self.postMessage({ ...sent, module }, [sent.memory.buffer, sent.stdlib.buffer, sent.app.buffer]);
    if (await told) await storeSnapshot({ memory, stdlib, app });
    self.postMessage({ stored: true });
  } catch (err) {
    self.postMessage({ failed: String(err && err.message || err) });
  }
}

// (By its name: the service worker answers the module with the page's, so no query in its URL
// would reach import.meta.url.)
if (globalThis.WorkerGlobalScope && self.name === SNAPSHOT_WORKER) {
  self.onmessage = (event) => makeSnapshot(event.data);
}

// The page's start is over: the game is on screen (web/boot.js's ``heartsReady``) and the page
// has a moment with nothing to do, or STORE_AFTER ms have passed.
function afterStart() {
  const idle = globalThis.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
  return new Promise((resolve) => {
    const go = () => {
      clearTimeout(timer);
      idle(() => resolve(), { timeout: 2000 });
    };
    const timer = setTimeout(go, STORE_AFTER);
    globalThis.heartsReady?.then(go);
  });
}

// globalThis.heartsPythonStart says how Python started: "stored" (from an earlier visit's
// snapshot), "worker" (from a snapshot made just now), "plain" (without a snapshot).
export async function loadPyodide(options = {}) {
  let snapshot = await storedSnapshot();
  let started = "stored";
  let raw = null;  // the archives as fetched, when the page fetched them for the worker
  if (!snapshot && globalThis.document) {  // the page makes it; the bots' worker starts without
    raw = await Promise.all([fetched(STDLIB_URL), fetched(APP_URL)]);
    snapshot = await snapshotFromWorker(...raw);
    started = "worker";
  }
  let py = null;
  if (snapshot) {
    try {
      let timer;
      py = await Promise.race([
        start({ ...options, _loadSnapshot: snapshot.memory }, Promise.resolve(snapshot.stdlib), snapshot.module,
          snapshot.intact)
          .then((result) => result.py),
        new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error("timed out")), RESTORE_WAIT); }),
      ]).finally(() => clearTimeout(timer));
      // the random module was seeded in the worker: every start would draw the same numbers
      py.runPython("import random\\nrandom.seed()");
      // (only ``store`` in the closure: the snapshot's parts must not outlive the restore)
      const { store } = snapshot;
      if (store) afterStart().then(() => store(true));
    } catch (err) {
      console.warn("Python's snapshot did not restore; starting without it:", err);
      if (snapshot.store) snapshot.store(false);  // a snapshot made just now: not stored
      else await forgetSnapshot();
      snapshot = null;
    }
  }
  if (!snapshot) {
    started = "plain";
    py = (await start(options, raw ? Promise.resolve(unzstd(raw[0])) : archive(STDLIB_URL))).py;
  }
  const appBytes = snapshot ? snapshot.app : raw ? unzstd(raw[1]) : await archive(APP_URL);
  globalThis.heartsPythonStart = started;
  await nextTask();
  unzip(py, appBytes);
  const loading = {};
  globalThis.heartsLoadExtras = (name = "extras") => {
    loading[name] ||= archive(LATER[name]).then(
      (bytes) => unzip(py, bytes),
      (err) => { delete loading[name]; throw err; });  // offline and not cached: the next try fetches again
    return loading[name];
  };
  return py;
}
"""


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


def write_runtime_module(root: Path, out: Path, versions: dict[str, str], stdlib_path: str) -> None:
    """runtime.mjs: RUNTIME_TEMPLATE filled in and bundled with the zstd decoder (esbuild, minified;
    Pyodide's module stays an import of its own)."""
    info = _read_json(root / "node_modules/pyodide/pyodide-lock.json")["info"]
    pyodide_dir = f"vendor/pyodide-{versions['pyodide']}"
    # A snapshot restores only into the runtime, standard library and game that made it.
    made_by = [pyodide_dir.encode(), stdlib_path.encode(), (out / APP_ARCHIVE).read_bytes(), RUNTIME_TEMPLATE.encode()]
    snapshot_key = hashlib.sha256(b"\0".join(made_by)).hexdigest()[:16]
    text = (
        RUNTIME_TEMPLATE.replace("__PYODIDE_DIR__", pyodide_dir)
        .replace("__STDLIB__", stdlib_path)
        .replace("__APP__", APP_ARCHIVE)
        .replace("__EXTRAS__", EXTRAS_ARCHIVE)
        .replace("__ONLINE__", ONLINE_ARCHIVE)
        .replace("__FZSTD__", (root / "node_modules/fzstd/esm/index.mjs").as_posix())
        .replace("__LOCK_INFO__", json.dumps(info, sort_keys=True))
        .replace("__SNAPSHOT_KEY__", snapshot_key)
        .replace("__SNAPSHOT_CACHE__", SNAPSHOT_CACHE)
    )
    source = out / "runtime.src.mjs"
    source.write_text(text, encoding="utf-8")
    try:
        esbuild(root, source, out / RUNTIME_MODULE, f"--external:./{pyodide_dir}/*")
    finally:
        source.unlink()


def preload_links(versions: dict[str, str], hashed: dict[str, str]) -> list[str]:
    """<link> tags that start the downloads of the start-up at once, instead of one after the
    other as each script discovers the next (see docs/development.md, "Start-up"); web/boot.js
    adds them after the first paint.

    Not the wasm: Chromium then compiles it again at every start (a preloaded response bypasses
    its wasm code cache, measured with a trace: ~2,700 functions compiled lazily on each warm
    start instead of one cache hit); Pyodide fetches it as soon as the preloaded modules run."""
    pyodide = f"./vendor/pyodide-{versions['pyodide']}"
    fetches = ["./" + hashed["stdlib"], f"./{APP_ARCHIVE}", "./pyscript.toml", f"./web/{WEB_ENTRY}"]
    modules = [
        "./" + hashed["core_chunk"],
        "./" + hashed["chunk_toml"],
        "./" + hashed["chunk_error"],
        f"./{RUNTIME_MODULE}",
        f"{pyodide}/pyodide.mjs",
        f"{pyodide}/pyodide.asm.mjs",
    ]
    # as="fetch" + crossorigin: the same request mode and credentials as the fetch() that uses it
    return [f'<link rel="preload" href="{url}" as="fetch" crossorigin>' for url in fetches] + [
        f'<link rel="modulepreload" href="{url}">' for url in modules
    ]


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
    boot = text.find('<script src="./web/boot.js" data-pyscript="./vendor/pyscript-')
    if boot < 0 or boot < text.index(PRELOAD_MARKER):
        raise BuildError(
            "index.html: the preload marker must come before "
            '<script src="./web/boot.js" data-pyscript="./vendor/pyscript-<version>/core.js"> '
            "(boot.js reads the preloads, then starts PyScript)"
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


SW_TEMPLATE = """\
// GENERATED by tools/build.py: do not edit. Service worker of the Hearts game.
// Precaches every file the page loads; cache-first so the game works offline after one visit.
// Update policy: a new version installs in the background and WAITS (no automatic skipWaiting),
// so a match in progress never runs on a mix of old and new files. It takes over when every tab
// of the game is closed, or when the page asks for it between matches by posting
// {type: "SKIP_WAITING"} to registration.waiting (then reload on "controllerchange").
const VERSION = __VERSION__;
const CACHE = "__PREFIX__" + VERSION;
const URLS = __URLS__;
const VENDOR_PATH = new URL("./vendor/", self.location).pathname;
const INDEX_PATH = new URL("./index.html", self.location).pathname;
const GERMAN_PATH = new URL("./de/index.html", self.location).pathname;

// cache: "no-cache" revalidates each file with the server (a 304 when the page has just loaded
// it, no second download), so a no-cache file can never be precached stale; the version-named
// vendor files are immutable, so they may come from the HTTP cache as they are (a first visit
// downloads the runtime once, not twice).
self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll(URLS.map((url) =>
        new Request(url, { cache: url.startsWith("./vendor/") ? "default" : "no-cache" })))
    )
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key.startsWith("__PREFIX__") && key !== CACHE)
            .map((key) => caches.delete(key))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
  if (event.data && event.data.type === "GET_VERSION" && event.source) {
    event.source.postMessage({ type: "VERSION", version: VERSION });
  }
});

// fetch: cache-first (ignoreSearch, so "/?daily=..." is the cached "./"; "index.html" is "./"
// too, and "de/index.html" the German page "./de/"), network fallback.
// Exception, measured: the immutable vendor files go to fetch() first, which the HTTP cache answers
// without any network (max-age one year, immutable), with this cache as the fallback (offline,
// or HTTP cache evicted). Served from Cache Storage, Chromium recompiles the 9.6 MB wasm at every
// start (no wasm code cache): warm start-up took ~2 s longer (see docs/development.md).
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(VENDOR_PATH)) {
    event.respondWith(
      fetch(request).catch(() =>
        caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true }))
          .then((cached) => cached || Response.error()))
    );
    return;
  }
  const key = url.pathname === INDEX_PATH ? "./" : url.pathname === GERMAN_PATH ? "./de/" : request;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(key, { ignoreSearch: true }))
      .then((cached) => cached || fetch(request))
  );
});
"""


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


def write_service_worker(out: Path, files: list[str], version: str) -> None:
    urls = precache_list(files)
    text = (
        SW_TEMPLATE.replace("__VERSION__", json.dumps(version))
        .replace("__PREFIX__", CACHE_PREFIX)
        .replace("__URLS__", json.dumps(urls, indent=2))
    )
    (out / "sw.js").write_text(text, encoding="utf-8")


def build(root: Path = ROOT, out: Path | None = None) -> dict[str, Any]:
    out = out or root / "dist"
    versions = vendor_versions(root)
    for name in ("index.html", "pyscript.toml"):
        if not (root / name).is_file():
            raise BuildError(f"missing {name}")
    check_vendor_references(root, versions)
    interpreter = read_pyscript_config(root).get("interpreter")
    if interpreter != f"./{RUNTIME_MODULE}":
        raise BuildError(
            f'pyscript.toml: interpreter must be "./{RUNTIME_MODULE}" (generated by the '
            f"build: Pyodide with the trimmed standard library), not {interpreter!r}"
        )
    stdlib, app, extras, online, report = pack_python(root)

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copyfile(root / "pyscript.toml", out / "pyscript.toml")
    copy_web(root, out)
    bundle_scripts(root, out)
    (out / APP_ARCHIVE).write_bytes(app)
    (out / EXTRAS_ARCHIVE).write_bytes(extras)
    (out / ONLINE_ARCHIVE).write_bytes(online)
    hashed = copy_vendor(root, out, versions, stdlib)
    write_runtime_module(root, out, versions, hashed["stdlib"])
    write_index(root, out, preload_links(versions, hashed), site_turn(os.environ, root))
    try:
        write_pages(out, site_url(os.environ))  # the link previews, and the German page
    except ValueError as exc:
        raise BuildError(str(exc)) from None

    files = served_files(out)
    version = content_hash(out, files)
    keys = ("python", "magic", "stdlib_modules", "app_modules", "extras_modules", "online_modules")
    python = {key: report[key] for key in keys}
    write_build_info(out, files, version, versions, python)
    write_service_worker(out, served_files(out), version)
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
