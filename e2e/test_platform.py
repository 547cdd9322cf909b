"""Platform tests: the built site, its headers, offline support and what dist/ contains.

These test the infrastructure (build, server, service worker, CSP), not the game's UI.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import socket
import struct
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import DIST, ROOT, Guard, goto_ready, wait_ready
from hearts_web.online.config import RELAYS
from playwright.sync_api import BrowserContext, Page, expect

from tools import build
from tools.serve import headers_for, load_header_rules, start_server

VERSIONS = build.vendor_versions(ROOT)
PYODIDE_DIR = f"vendor/pyodide-{VERSIONS['pyodide']}"
# The trimmed standard library: its name carries a hash of its content.
STDLIB = sorted(p.name for p in (DIST / PYODIDE_DIR).glob("stdlib-*.zst"))


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    """GET without a browser: status, headers (lower-case names), body."""
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read()


def precache_urls(dist: Path = DIST) -> list[str]:
    text = (dist / "sw.js").read_text(encoding="utf-8")
    match = re.search(r"URLS = (\[.*?\]);", text, re.S)
    assert match, "sw.js has no URLS list"
    return json.loads(match.group(1))


def same_origin_paths(urls: list[str], base_url: str) -> set[str]:
    return {u[len(base_url) :].split("?")[0].split("#")[0] for u in urls if u.startswith(base_url)}


# ------------------------------------------------------------------ loading
# What the page and the game's worker fetched (their resource timing: not the service worker's
# precaching, which fetches every file)
WORKER_RESOURCES = """
import hearts_page
"\\n".join(e.name for e in hearts_page.performance.getEntriesByType("resource"))
"""


def loaded_paths(page: Page) -> set[str]:
    own = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
    worker = str(page.evaluate("(code) => window.heartsGame.run(code)", WORKER_RESOURCES)).split("\n")
    return {urllib.parse.urlsplit(url).path for url in own + worker if url}


def test_page_becomes_ready_without_errors(page: Page, page_guard: Guard, base_url: str) -> None:
    """Loads with no console error, page error or CSP violation, and only from 127.0.0.1."""
    goto_ready(page)
    assert page.locator("html.ready").count() == 1
    assert page_guard.foreign_requests == []
    loaded = loaded_paths(page)
    # The Pyodide files the build ships are exactly the ones the game's worker needs.
    pyodide_loaded = {p.rsplit("/", 1)[1] for p in loaded if p.startswith("/" + PYODIDE_DIR + "/")}
    assert pyodide_loaded == set(build.PYODIDE_FILES) | set(STDLIB)
    # ...and so is the runtime: the page's side, the game's worker, their shared chunk (the bots'
    # worker starts when Hard first thinks)
    runtime = {p.rsplit("/", 1)[1] for p in loaded if p.startswith("/runtime/")}
    assert runtime == {p.name for p in (DIST / "runtime").iterdir()} - {"bot-worker.mjs"}
    assert "/app.zst" in loaded
    # the features a first visit does not use come on demand (the service worker precaches them)
    assert "/extras.zst" not in loaded and "/online.zst" not in loaded


def test_start_url_with_query_string(page: Page) -> None:
    goto_ready(page, "/?daily=2026-11-29")


def test_everything_fetched_is_precached(page: Page, page_guard: Guard, base_url: str) -> None:
    """Offline works only if the service worker precaches every file a start fetches."""
    goto_ready(page)
    page.wait_for_timeout(500)  # lazily imported chunks
    fetched = same_origin_paths(page_guard.requests, base_url)
    precached = {u[1:] for u in precache_urls()}  # "./x" -> "/x"
    missing = sorted(fetched - precached - {"/sw.js"})  # the worker script itself is never cached
    assert missing == [], f"fetched but not precached by sw.js: {missing}"


# ------------------------------------------------------------------ headers
HEADER_PATHS = [
    "/",
    "/index.html",
    "/?daily=2026-11-29",
    "/de/",
    "/app.zst",
    "/extras.zst",
    "/online.zst",
    "/sw.js",
    "/build-info.json",
    "/runtime/page.mjs",
    "/runtime/game-worker.mjs",
    f"/{PYODIDE_DIR}/pyodide.asm.wasm",
    f"/{PYODIDE_DIR}/pyodide.mjs",
    *(f"/{PYODIDE_DIR}/{name}" for name in STDLIB),
]


@pytest.mark.parametrize("path", HEADER_PATHS)
def test_headers_match_netlify_toml(base_url: str, path: str) -> None:
    status, headers, _ = fetch(base_url + path)
    assert status == 200
    expected = headers_for(path.split("?")[0], load_header_rules(ROOT / "netlify.toml"))
    for name, value in expected.items():
        assert headers.get(name.lower()) == value, name
    # The intent, spelled out (so a bad edit of netlify.toml is caught too):
    csp = dict((d.split(" ", 1) + [""])[:2] for d in headers["content-security-policy"].split("; "))
    assert csp["default-src"] == "'self'"
    # no 'unsafe-eval' (Python runs in the game's own module workers); never inline scripts or
    # other hosts
    assert csp["script-src"] == "'self' 'wasm-unsafe-eval'"
    # connect-src: the page itself, and exactly the online table's signalling relays (one list: config.py)
    assert csp["connect-src"] == " ".join(("'self'",) + RELAYS) and csp["object-src"] == "'none'"
    assert headers["x-content-type-options"] == "nosniff"
    if path.startswith("/vendor/"):
        assert headers["cache-control"] == "public, max-age=31536000, immutable"
    else:
        assert headers["cache-control"] == "no-cache"
    content_types = {
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".zst": "application/zstd",
        ".json": "application/json",
        ".css": "text/css",
    }
    for suffix, ctype in content_types.items():
        if path.endswith(suffix):
            assert headers["content-type"].split(";")[0] == ctype


def test_netlify_toml_build_settings() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))
    assert config["build"]["publish"] == "dist"
    assert "tools/build.py" in config["build"]["command"]
    assert "redirects" not in config, "no SPA catch-all: a missing .wasm must stay a 404"


@pytest.mark.parametrize(
    "path",
    [
        "/missing.wasm",
        "/vendor/",
        "/web/",
        "/tests/",
        "/node_modules/",
        "/vendor/pyodide-0.0.1/pyodide.mjs",
        f"/{PYODIDE_DIR}/missing.mjs",
    ],
)
def test_missing_files_are_404(base_url: str, path: str) -> None:
    status, headers, _ = fetch(base_url + path)
    assert status == 404
    assert "content-security-policy" in headers
    assert "immutable" not in headers.get("cache-control", "") and "max-age=3" not in headers.get("cache-control", "")


def test_a_browser_that_drops_its_connection_gets_no_traceback(capfd: pytest.CaptureFixture[str]) -> None:
    """A keep-alive connection reset by the browser (a tab or a context closed) while the server
    waits for its next request is the browser's doing: the server says nothing."""
    server = start_server(DIST, quiet=True)
    try:
        host, port = server.server_address[:2]
        conn = socket.create_connection((str(host), int(port)))
        conn.sendall(b"GET /build-info.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert conn.recv(12) == b"HTTP/1.1 200"
        time.sleep(0.2)  # the rest of the answer arrives; the server reads the next request line
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
        conn.close()
        time.sleep(0.3)
    finally:
        server.stop()
    assert "Traceback" not in capfd.readouterr().err


def test_only_the_current_runtime_folders_are_cached_for_a_year() -> None:
    rules = load_header_rules(ROOT / "netlify.toml")
    year = [r.pattern for r in rules if "immutable" in r.values.get("Cache-Control", "")]
    assert year == [f"/{PYODIDE_DIR}/*"], "update netlify.toml with package.json"
    assert headers_for("/vendor/", rules)["Cache-Control"] == "no-cache"


# ------------------------------------------------------------------ dist contents
def test_dist_contains_only_served_files() -> None:
    files = sorted(p.relative_to(DIST).as_posix() for p in DIST.rglob("*") if p.is_file())
    top = {f.split("/")[0] for f in files}
    served = {"index.html", "runtime", "sw.js", "build-info.json", "web", "de"}
    served |= {"app.zst", "extras.zst", "online.zst"}
    assert top <= served | {"vendor"}
    assert served <= top
    python = [f for f in files if f.endswith((".py", ".pyc"))]
    assert python == []
    banned = [f for f in files if re.search(r"(^|/)(tests?|e2e|node_modules|__pycache__|\.git)(/|$)|\.map$", f)]
    assert banned == []
    vendor_dirs = {"/".join(f.split("/")[:2]) for f in files if f.startswith("vendor/")}
    assert vendor_dirs == {PYODIDE_DIR}
    assert len(STDLIB) == 1
    assert sorted(f.split("/")[-1] for f in files if f.startswith(PYODIDE_DIR)) == sorted(
        build.PYODIDE_FILES + tuple(STDLIB)
    )


def test_precache_and_build_info_list_every_file() -> None:
    files = {p.relative_to(DIST).as_posix() for p in DIST.rglob("*") if p.is_file()}
    precached = {u[2:] for u in precache_urls() if u not in ("./", "./de/")}  # the two pages' addresses
    assert precached == files - set(build.NOT_PRECACHED)
    info = json.loads((DIST / "build-info.json").read_text(encoding="utf-8"))
    assert {f["path"] for f in info["files"]} == files - {"sw.js", "build-info.json"}
    assert info["total_bytes"] == sum(f["bytes"] for f in info["files"])
    worker = (DIST / "sw.js").read_text(encoding="utf-8")
    assert worker.startswith(f'const VERSION = "{info["version"]}", PREFIX = "hearts-", URLS = ')
    assert "const CACHE = PREFIX + VERSION;" in worker
    assert info["cache_name"] == "hearts-" + info["version"]


def assert_shipped_from(shipped: str, source: str, name: str) -> None:
    """``shipped`` is ``source`` without its docstrings and comments: line for line, each line is
    blank, a ``pass`` for a body that was only a docstring, or the source's line up to its comment."""
    ours, theirs = shipped.splitlines(), source.splitlines()
    assert len(ours) == len(theirs), f"{name}: {len(ours)} lines shipped, {len(theirs)} in the source: rebuild dist/"
    for number, (line, original) in enumerate(zip(ours, theirs), 1):
        assert not line.strip() or line.strip() == "pass" or original.startswith(line), (
            f"{name}:{number} is stale: rebuild dist/ ({line!r} / {original!r})"
        )
    compile(shipped, name, "exec")


PACKAGE_FOLDERS = (("hearts", ROOT / "hearts"), ("hearts_web", ROOT / "web" / "hearts_web"))


def test_the_archives_hold_both_packages_and_are_current() -> None:
    """app.zst (what the game starts with, reached from hearts_web.controller), extras.zst (the features
    loaded on demand) and online.zst (the online table): each a zip in one zstd frame, every
    module as its current source (without docstrings and comments, each line of code at its
    number) and as bytecode that the import system checks against that source, and the data files
    a module reads beside itself (MODULE_DATA) as they are; no module in two."""
    info = json.loads((DIST / "build-info.json").read_text(encoding="utf-8"))
    first, later = info["python"]["app_modules"], info["python"]["extras_modules"]
    online = info["python"]["online_modules"]
    assert {
        "hearts",
        "hearts.match",
        "hearts.bots",
        "hearts.table",
        "hearts_web",
        "hearts_web.controller",
        "hearts_web.screen.extras",
        "hearts_web.online.start",
    } <= set(first)
    assert {"hearts_web.review.dialog", "hearts_web.challenge.links"} <= set(later)
    assert {"hearts_web.online.panel", "hearts_web.online.host", "hearts_web.online.guest"} <= set(online)
    assert "hearts_web.transfer.dialog" in first  # export and import never wait for a download
    assert not set(first) & set(later) and not set(first) & set(online) and not set(later) & set(online)
    for archive, modules in (("app.zst", first), ("extras.zst", later), ("online.zst", online)):
        with zipfile.ZipFile(io.BytesIO(build.read_archive(DIST / archive))) as zf:
            assert all(i.compress_type == zipfile.ZIP_STORED for i in zf.infolist())  # one frame compresses them
            names = set(zf.namelist())
            assert {n.split("/")[0] for n in names} == {"hearts", "hearts_web"}
            sources = {n for n in names if n.endswith(".py")}
            assert len(sources) == len(modules)
            for package, source in PACKAGE_FOLDERS:
                for path in source.rglob("*.py"):
                    name = f"{package}/{path.relative_to(source).as_posix()}"
                    if name in sources:
                        assert_shipped_from(zf.read(name).decode(), path.read_text(encoding="utf-8"), name)
            for name in sources:
                folder, _, file = name.rpartition("/")
                pyc = zf.read(f"{folder}/__pycache__/{file[:-3]}.cpython-314.pyc")
                assert pyc[:4].hex() == info["python"]["magic"]
                assert int.from_bytes(pyc[4:8], "little") == 0b11, "checked hash-based .pyc"
            data = {  # the files a module reads beside itself, as in the repository
                "/".join([*module.split(".")[:-1], file])
                for module, files in build.MODULE_DATA.items()
                if module in modules
                for file in files
            }
            for name in data:
                package, _, rest = name.partition("/")
                assert zf.read(name) == (dict(PACKAGE_FOLDERS)[package] / rest).read_bytes(), name
            assert names == sources | data | {
                f"{n.rpartition('/')[0]}/__pycache__/{n.rpartition('/')[2][:-3]}.cpython-314.pyc" for n in sources
            }


def test_build_is_deterministic_and_checks_versions(tmp_path: Path) -> None:
    out1, out2 = tmp_path / "a", tmp_path / "b"
    assert build.build(ROOT, out1)["version"] == build.build(ROOT, out2)["version"]
    assert (out1 / "sw.js").read_bytes() == (out2 / "sw.js").read_bytes()
    # package.json pinning another Pyodide than npm installed must fail the build with a clear message
    fake = tmp_path / "fake"
    fake.mkdir()
    for name in ("index.html", "node_modules", "web", "hearts"):
        (fake / name).symlink_to(ROOT / name)
    (fake / "package.json").write_text(
        (ROOT / "package.json").read_text(encoding="utf-8").replace(f'"{VERSIONS["pyodide"]}"', '"0.0.1"'),
        encoding="utf-8",
    )
    with pytest.raises(build.BuildError, match="package.json pins 0.0.1"):
        build.build(fake, fake / "dist")


@pytest.mark.parametrize("patch", range(len(build.TRYSTERO_PATCHES)))
def test_the_online_bundle_carries_trystero_patches_and_a_changed_trystero_fails_the_build(
    tmp_path: Path, patch: int
) -> None:
    """Trystero is patched at build time (tools/build.py, TRYSTERO_PATCHES: the glare, relays
    retried for as long as the room is open, two offers ready instead of twenty, a rejoined room
    that keeps its subscription); a Trystero without one of the patched passages stops the build
    instead of shipping without the patch."""
    bundle = (DIST / "web" / "online.js").read_text(encoding="utf-8")
    assert "lastGlareAnnounce" in bundle and "15e3" in bundle and "topics.get(" in bundle
    fake = tmp_path / "fake"
    for package in (build.TRYSTERO_CORE, build.TRYSTERO_NOSTR):
        shutil.copytree(ROOT / "node_modules" / package, fake / "node_modules" / package)
    package, name, old, _new = build.TRYSTERO_PATCHES[patch]
    path = fake / "node_modules" / package / name
    path.write_text(path.read_text(encoding="utf-8").replace(old, ""), encoding="utf-8")
    with pytest.raises(build.BuildError, match="a passage to patch is not there once"):
        build.patched_trystero(fake)


# ------------------------------------------------------------------ offline / service worker
REGISTER_IF_NEEDED = """async () => {
  let reg = await navigator.serviceWorker.getRegistration();
  const byPage = !!reg;
  if (!reg) reg = await navigator.serviceWorker.register("./sw.js", { scope: "./" });
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => {
      navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true });
    });
  }
  return { byPage, script: navigator.serviceWorker.controller.scriptURL };
}"""


def _first_visit_with_service_worker(page: Page) -> dict[str, Any]:
    goto_ready(page)
    page.wait_for_timeout(1500)  # give the page's own registration a chance
    return page.evaluate(REGISTER_IF_NEEDED)


def test_page_registers_service_worker(page: Page, base_url: str) -> None:
    """The UI layer (web/) registers ./sw.js with scope ./ (skipped until it does)."""
    served_js = "".join(
        p.read_text(encoding="utf-8", errors="ignore") for p in (DIST / "web").rglob("*") if p.suffix in (".js", ".py")
    )
    if "sw.js" not in served_js:
        pytest.skip("web/ does not register sw.js yet")
    goto_ready(page)
    reg = page.evaluate("""async () => {
        const reg = await navigator.serviceWorker.ready;
        return { scope: reg.scope, script: (reg.active || reg.installing || reg.waiting).scriptURL };
    }""")
    assert reg["script"].endswith("/sw.js")
    assert reg["scope"] == base_url + "/"


def test_offline_reload_and_browser_restart(persistent_context: Callable[..., BrowserContext]) -> None:
    ctx = persistent_context()
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    info = _first_visit_with_service_worker(page)
    assert info["script"].endswith("/sw.js")

    ctx.set_offline(True)
    page.reload(wait_until="commit")
    wait_ready(page)
    goto_ready(page, "/?daily=2026-11-29")  # query strings hit the cached start page
    # Vendor files normally come from the HTTP cache (see sw.js); with it gone, the worker's
    # own cache must serve them.
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.clearBrowserCache")
    page.reload(wait_until="commit")
    wait_ready(page)
    ctx.close()

    # "Browser restart" while offline: a new process, same profile.
    ctx = persistent_context(offline=True)
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    goto_ready(page)
    assert page.evaluate("navigator.serviceWorker.controller !== null")


def test_features_of_the_second_archive_open_offline(persistent_context: Callable[..., BrowserContext]) -> None:
    """After a first visit, offline: the review and a challenge link open (their Python comes
    from extras.zst, precached, fetched on demand); export and import too. The online table
    (online.zst, not precached) says it could not be loaded, and opens once the network is back."""
    from ui_helpers import play_until_dialog, use_settings

    ctx = persistent_context()
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    use_settings(page)
    _first_visit_with_service_worker(page)
    ctx._hearts_guard.allow(r"Failed to load resource: net::ERR_FAILED \(http://127\.0\.0\.1:\d+/online\.zst\)")
    ctx.set_offline(True)
    goto_ready(page, "/?speed=instant&seed=offline-extras")
    page.click(".tools [data-action='online']")
    expect(page.locator("dialog[open]")).to_contain_text("The online table could not be loaded. Are you offline?")
    page.keyboard.press("Escape")
    ctx.set_offline(False)
    page.click(".tools [data-action='online']")  # tried again: fetched now
    page.wait_for_selector("dialog[open] [data-action='online-host']")
    page.keyboard.press("Escape")
    ctx.set_offline(True)
    goto_ready(page, "/?speed=instant&seed=offline-link#online=abcdefghjk")  # an invitation, offline
    expect(page.locator("dialog[open]")).to_contain_text("The online table could not be loaded. Are you offline?")
    expect(page.locator("#hand [data-card]")).to_have_count(13)  # the player's own match, under the message
    page.keyboard.press("Escape")
    goto_ready(page, "/?speed=instant&seed=offline-extras")
    page.click(".tools [data-action='settings']")
    with page.expect_file_chooser():
        page.click("dialog[open] [data-action='data-import']")
    with page.expect_download():
        page.click("dialog[open] [data-action='data-export']")
    page.keyboard.press("Escape")
    play_until_dialog(page)
    page.click("dialog[open] [data-action='review']")
    page.wait_for_selector("#review-stage")
    page.click("dialog[open] [data-action='review-back']")  # back to the hand summary
    page.click("dialog[open] [data-action='challenge']")
    link = page.get_attribute("#challenge-link", "href")
    assert link and "challenge=" in link
    goto_ready(page, link)  # the friend's start with that link: a fresh page, still offline
    expect(page.locator("#mode-badge")).to_contain_text("Challenge")


def test_service_worker_update_waits(persistent_context: Callable[..., BrowserContext], tmp_path: Path) -> None:
    """A new deploy installs in the background but never takes over a running game by itself."""
    site = tmp_path / "site"
    shutil.copytree(DIST, site)
    server = start_server(site)
    try:
        ctx = persistent_context(base_url=server.url.rstrip("/"))
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        _first_visit_with_service_worker(page)
        old_version = page.evaluate("""() => new Promise((resolve) => {
            navigator.serviceWorker.addEventListener("message", (e) => resolve(e.data.version), { once: true });
            navigator.serviceWorker.controller.postMessage({ type: "GET_VERSION" });
        })""")
        # Deploy a new version: same files, new hash.
        sw = (site / "sw.js").read_text(encoding="utf-8")
        (site / "sw.js").write_text(sw.replace(json.dumps(old_version), '"newversion000000"'), encoding="utf-8")
        state = page.evaluate("""async () => {
            const reg = await navigator.serviceWorker.getRegistration();
            await reg.update();
            const sw = reg.installing || reg.waiting;
            if (sw && sw.state !== "installed") {
                await new Promise((resolve) => sw.addEventListener("statechange", () => {
                    if (sw.state === "installed" || sw.state === "redundant") resolve();
                }));
            }
            return { waiting: !!reg.waiting, keys: await caches.keys() };
        }""")
        assert state["waiting"], "the new service worker should wait"
        assert f"hearts-{old_version}" in state["keys"], "the running version's cache must survive"
        assert page.locator("html.ready").count() == 1
        # The page may opt in between matches: SKIP_WAITING -> controllerchange -> new version.
        new_version = page.evaluate("""async () => {
            const reg = await navigator.serviceWorker.getRegistration();
            const changed = new Promise((r) => navigator.serviceWorker.addEventListener("controllerchange", r, { once: true }));
            const next = reg.waiting;
            next.postMessage({ type: "SKIP_WAITING" });
            await changed;
            if (next.state !== "activated") {
                await new Promise((r) => next.addEventListener("statechange", () => {
                    if (next.state === "activated") r();
                }));
            }
            return await new Promise((resolve) => {
                navigator.serviceWorker.addEventListener("message", (e) => resolve(e.data.version), { once: true });
                navigator.serviceWorker.controller.postMessage({ type: "GET_VERSION" });
            });
        }""")
        assert new_version == "newversion000000"
        keys = page.evaluate("caches.keys()")
        assert [k for k in keys if k.startswith("hearts-")] == ["hearts-newversion000000"]
    finally:
        server.stop()
