#!/usr/bin/env python3
"""Build the deployable folder ``dist/`` (stdlib only).

``dist/`` holds exactly what the game serves and nothing else:

* ``index.html``, ``pyscript.toml``            copied from the repository root
* ``web/**``                                    static files of ``web/`` (no Python sources,
                                                except ``web/main.py``, the PyScript entry point)
* ``app.zip``                                   the Python packages ``hearts`` and ``hearts_web``
* ``vendor/pyodide-<version>/``                 the Pyodide runtime files the browser fetches
* ``vendor/pyscript-<version>/``                ``@pyscript/core/dist`` without source maps, with the
                                                 CSP patch of ``tools/csp_patch.py`` (no 'unsafe-eval')
* ``build-info.json``                           version hash, file list with sizes
* ``web/online.js``                             the online table's transport (``web/online/transport.js``
                                                bundled by esbuild with Trystero and a QR encoder); loaded only
                                                when a player goes online, so it is not precached
* ``sw.js``                                     generated service worker (precaches everything above)

Versions come from ``package.json`` and are checked against ``node_modules``; the build fails
with a clear message when ``index.html`` or ``pyscript.toml`` refer to another vendor version.
The output is deterministic: the same sources give byte-identical files and the same hash.

Usage: ``python3 tools/build.py [--out DIR]``
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# What the browser fetches from the pyodide npm package (checked in e2e/test_platform.py).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# Python packages shipped inside app.zip: (source folder, name inside the archive).
ARCHIVE_PACKAGES = (
    ("hearts", "hearts"),
    ("web/hearts_web", "hearts_web"),
)
# The only Python file served as a plain file (index.html loads it as the PyScript entry).
WEB_ENTRY = "main.py"
# JavaScript sources bundled into one file each (not served as they are): source -> served path.
BUNDLES = {"web/online/transport.js": "web/online.js"}
# Served but not precached by the service worker: loaded on demand, and useless offline.
NOT_PRECACHED = ("web/online.js",)
SKIP_DIRS = {"__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis"}
SKIP_SUFFIXES = {".pyc", ".pyo"}
SKIP_NAMES = {".DS_Store", "Thumbs.db"}
# Fixed timestamp for zip members so that app.zip (and the hash) depends on content only.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
CACHE_PREFIX = "hearts-"
VENDOR_REF = re.compile(r"vendor/(pyodide|pyscript)-([0-9A-Za-z.+_-]+?)/")


class BuildError(Exception):
    """A problem the developer must fix; printed without a traceback."""


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
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
            raise BuildError(
                f"{installed_dirs[name]} is version {have} but package.json pins {version}: run `npm ci`"
            )
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
    for kind in ("pyodide", "pyscript"):
        if kind not in seen:
            print(f"build: warning: neither index.html nor pyscript.toml references vendor/{kind}-*/",
                  file=sys.stderr)


def _walk(folder: Path):
    """Files under folder, sorted, skipping caches and editor junk."""
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if any(part in SKIP_DIRS for part in rel.parts):
            continue
        if path.is_file() and path.suffix not in SKIP_SUFFIXES and path.name not in SKIP_NAMES:
            yield path, rel


def copy_web(root: Path, out: Path) -> None:
    web = root / "web"
    if not web.is_dir():
        raise BuildError("missing web/ folder")
    if not (web / WEB_ENTRY).is_file():
        raise BuildError(f"missing web/{WEB_ENTRY} (the PyScript entry point)")
    for path, rel in _walk(web):
        if rel.parts[0] in ("hearts_web", "online"):
            continue  # shipped inside app.zip / bundled by esbuild
        if path.suffix == ".py" and rel.as_posix() != WEB_ENTRY:
            continue  # Python sources travel in app.zip
        dest = out / "web" / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)


def write_archive(root: Path, out: Path) -> None:
    target = out / "app.zip"
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for src, name in ARCHIVE_PACKAGES:
            folder = root / src
            if not (folder / "__init__.py").is_file():
                raise BuildError(f"{src}/__init__.py is missing: {src} must be a package")
            for path, rel in _walk(folder):
                info = zipfile.ZipInfo(f"{name}/{rel.as_posix()}", date_time=ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, path.read_bytes())


def copy_vendor(root: Path, out: Path, versions: dict[str, str]) -> None:
    pyodide_src = root / "node_modules/pyodide"
    pyodide_dst = out / "vendor" / f"pyodide-{versions['pyodide']}"
    pyodide_dst.mkdir(parents=True)
    for name in PYODIDE_FILES:
        if not (pyodide_src / name).is_file():
            raise BuildError(f"node_modules/pyodide/{name} is missing: run `npm ci`")
        shutil.copyfile(pyodide_src / name, pyodide_dst / name)

    pyscript_src = root / "node_modules/@pyscript/core/dist"
    pyscript_dst = out / "vendor" / f"pyscript-{versions['pyscript']}"
    if not (pyscript_src / "core.js").is_file():
        raise BuildError("node_modules/@pyscript/core/dist/core.js is missing: run `npm ci`")
    for path, rel in _walk(pyscript_src):
        if path.suffix == ".map":
            continue
        dest = pyscript_dst / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
    from csp_patch import PatchError, patch_pyscript  # tools/csp_patch.py: no 'unsafe-eval' needed

    try:
        patch_pyscript(pyscript_dst)
    except PatchError as exc:
        raise BuildError(str(exc)) from None


def bundle_scripts(root: Path, out: Path) -> None:
    """Bundle each of ``BUNDLES`` with esbuild (pinned in package.json) into one minified ES module."""
    esbuild = root / "node_modules" / ".bin" / "esbuild"
    if not esbuild.exists():
        raise BuildError("node_modules/.bin/esbuild is missing: run `npm ci --ignore-scripts`")
    for src, dest in BUNDLES.items():
        target = out / dest
        target.parent.mkdir(parents=True, exist_ok=True)
        result = subprocess.run([str(esbuild), str(root / src), "--bundle", "--format=esm", "--minify",
                                 "--target=es2020", "--legal-comments=none", "--log-level=warning",
                                 f"--outfile={target}"], cwd=root, capture_output=True, text=True)
        if result.returncode != 0:
            raise BuildError(f"esbuild failed for {src}:\n{result.stderr.strip()}")


def served_files(out: Path) -> list[str]:
    """Every file in out as a POSIX path relative to it, sorted."""
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def content_hash(out: Path, files: list[str]) -> str:
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0")
        digest.update(hashlib.sha256((out / rel).read_bytes()).digest())
    return digest.hexdigest()[:16]


def write_build_info(out: Path, files: list[str], version: str, versions: dict[str, str]) -> None:
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
        "note": "sizes of the files listed (sw.js and this file excluded); gzip_bytes estimates "
                "what a host that compresses responses sends",
    }
    (out / "build-info.json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")


SW_TEMPLATE = """\
// GENERATED by tools/build.py: do not edit. Service worker of the Hearts game.
// Precaches every file of the build; cache-first so the game works offline after one visit.
// Update policy: a new version installs in the background and WAITS (no automatic skipWaiting),
// so a match in progress never runs on a mix of old and new files. It takes over when every tab
// of the game is closed, or when the page asks for it between matches by posting
// {type: "SKIP_WAITING"} to registration.waiting (then reload on "controllerchange").
const VERSION = __VERSION__;
const CACHE = "__PREFIX__" + VERSION;
const URLS = __URLS__;
const VENDOR_PATH = new URL("./vendor/", self.location).pathname;

// cache: "reload" bypasses the HTTP cache so a no-cache file can never be precached stale; the
// version-named vendor files are immutable, so they may come from the HTTP cache (a first visit
// then downloads the 14 MB runtime once, not twice).
self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll(URLS.map((url) =>
        new Request(url, { cache: url.startsWith("./vendor/") ? "default" : "reload" })))
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

// fetch: cache-first (ignoreSearch, so "/?daily=..." is the cached "./"), network fallback.
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
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(request, { ignoreSearch: true }))
      .then((cached) => cached || fetch(request))
  );
});
"""


def write_service_worker(out: Path, files: list[str], version: str) -> None:
    # "./" first: the start URL (with or without ?query, thanks to ignoreSearch).
    urls = ["./"] + ["./" + rel for rel in files if rel not in NOT_PRECACHED]
    text = (SW_TEMPLATE
            .replace("__VERSION__", json.dumps(version))
            .replace("__PREFIX__", CACHE_PREFIX)
            .replace("__URLS__", json.dumps(urls, indent=2)))
    (out / "sw.js").write_text(text, encoding="utf-8")


def build(root: Path = ROOT, out: Path | None = None) -> dict:
    out = out or root / "dist"
    versions = vendor_versions(root)
    for name in ("index.html", "pyscript.toml"):
        if not (root / name).is_file():
            raise BuildError(f"missing {name}")
    check_vendor_references(root, versions)

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copyfile(root / "index.html", out / "index.html")
    shutil.copyfile(root / "pyscript.toml", out / "pyscript.toml")
    copy_web(root, out)
    bundle_scripts(root, out)
    write_archive(root, out)
    copy_vendor(root, out, versions)

    files = served_files(out)
    version = content_hash(out, files)
    write_build_info(out, files, version, versions)
    write_service_worker(out, served_files(out), version)
    return json.loads((out / "build-info.json").read_text(encoding="utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default: dist)")
    args = parser.parse_args(argv)
    try:
        info = build(ROOT, args.out.resolve())
    except BuildError as exc:
        print(f"build: ERROR: {exc}", file=sys.stderr)
        return 1
    print(f"build: {args.out} version {info['version']}: {len(info['files']) + 2} files, "
          f"{info['total_bytes'] / 1e6:.1f} MB ({info['total_gzip_bytes'] / 1e6:.1f} MB gzipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
