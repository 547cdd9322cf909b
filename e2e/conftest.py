"""End-to-end test harness: the built game (dist/) in headless Chromium via Playwright.

Nothing is built here: ``./scripts/test`` (or ``python3 tools/build.py``) builds dist/ first.

Fixtures
  server / base_url       dist/ served by tools/serve.py (same headers as netlify.toml) on
                          127.0.0.1, a free port, once per session
  page                    a fresh browser context + page per test (one browser per session).
                          Locale: ``@pytest.mark.locale("de-DE")`` (default en-US); other context
                          options: ``@pytest.mark.context(viewport={...}, ...)``
  page_guard              the Guard watching ``page``: ``page_guard.allow(r"regex")`` lets an
                          expected console error through
  persistent_context      factory for a real on-disk profile (service worker, HTTP cache,
                          offline, "browser restart"): ``ctx = persistent_context(offline=False)``;
                          calling it again after ``ctx.close()`` relaunches with the same profile
  goto_ready / shot       the helpers below, as fixtures (also importable: ``from conftest import ...``)

Every context is guarded: a request to a host other than 127.0.0.1, a console error, an uncaught
page error, a CSP ``securitypolicyviolation`` or the page's warning of an action nobody registered
or a text missing from the language FAILS the test. ``page`` contexts also abort such
requests with ``context.route``; persistent contexts do not route (routing disables the HTTP cache)
and rely on chromium's --host-resolver-rules plus the request log instead.
On failure a full-page screenshot of each open page is saved under e2e/artifacts/.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, ConsoleMessage, Page, Playwright, Request, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tools.chromium import launch_options
from tools.serve import Server, start_server

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
ARTIFACTS = ROOT / "e2e" / "artifacts"

LOCAL_HOST = "127.0.0.1"
DEFAULT_LOCALE = "en-US"
READY_TIMEOUT_MS = 60_000
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (e) => {
  if (window.__heartsReportCsp) window.__heartsReportCsp({
    directive: e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile,
    line: e.lineNumber, sample: e.sample });
});
"""


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about", "chrome", "chrome-extension", "devtools"):
        return True
    return parts.hostname == LOCAL_HOST


# ------------------------------------------------------------------ guard
# An action nobody registered, a text missing from the language (hearts_web.core.commands, i18n): the
# page warns in the console and plays on; a test fails on it.
UNKNOWN_NAME = re.compile(r"hearts: no (command is registered for|[A-Z]{2} text for) ")


class Guard:
    """Collects what must never happen on a page of the game."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.crashes: list[str] = []  # the pages whose renderer died (in problems too)
        self.foreign_requests: list[str] = []
        self.requests: list[str] = []
        self._allowed: list[re.Pattern[str]] = []
        self.online = False  # only the online table's tests may load its code (web/online.js)

    def allow(self, pattern: str) -> None:
        """Let console errors / page errors matching this regex through (for tests that expect them)."""
        self._allowed.append(re.compile(pattern))

    def _add(self, text: str) -> None:
        if not any(p.search(text) for p in self._allowed):
            self.problems.append(text)

    def watch(self, context: BrowserContext, route: bool = True) -> None:
        context.expose_binding("__heartsReportCsp", lambda _source, v: self._add(f"CSP violation: {v}"))
        context.add_init_script(CSP_LISTENER)
        if route:
            context.route(lambda url: not is_local(url), self._abort)
        context.on("request", self._on_request)
        context.on("page", self.watch_page)
        for page in context.pages:
            self.watch_page(page)

    def watch_page(self, page: Page) -> None:
        page._hearts_guard = self  # type: ignore[attr-defined]  (wait_ready reports its findings)
        page.on("console", self._on_console)
        page.on("pageerror", lambda exc: self._add(f"page error: {exc}"))
        page.on("crash", self._on_crash)

    def _on_crash(self, page: Page) -> None:
        self.crashes.append(page.url)
        self.problems.append(f"renderer crashed at {page.url}")

    def _abort(self, route: Route) -> None:
        route.abort("blockedbyclient")

    def _on_request(self, request: Request) -> None:
        self.requests.append(request.url)
        if urlsplit(request.url).path.endswith("/web/online.js") and not self.online:
            self.problems.append("the online table's code was loaded although nobody went online")
        if not is_local(request.url):
            self.foreign_requests.append(request.url)
            self.problems.append(f"request to a host other than {LOCAL_HOST}: {request.url}")

    def _on_console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            where = msg.location.get("url", "") if msg.location else ""
            self._add(f"console error: {msg.text}" + (f" ({where})" if where else ""))
        elif msg.type == "warning" and UNKNOWN_NAME.match(msg.text):  # the page and the code disagree
            self._add(f"console warning: {msg.text}")

    def check(self) -> None:
        if self.problems:
            unique = list(dict.fromkeys(self.problems))
            pytest.fail("the page misbehaved:\n  " + "\n  ".join(unique[:20]), pytrace=False)


# ------------------------------------------------------------------ helpers
def goto_ready(page: Page, path: str = "/", timeout: float = READY_TIMEOUT_MS) -> None:
    """Open path and wait for ``html.ready``; fail fast when the boot guard says the game could not start."""
    page.goto(path, wait_until="commit", timeout=timeout)
    wait_ready(page, timeout)


def wait_ready(page: Page, timeout: float = READY_TIMEOUT_MS) -> None:
    """Wait (after a goto or reload) for ``html.ready``; fail fast on the boot guard's banner (the
    game's worker failed: web/boot-guard.js) or a page error."""
    guard: Guard | None = getattr(page, "_hearts_guard", None)
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            page.wait_for_selector("html.ready, #boot-guard", state="attached", timeout=500)
            break
        except PlaywrightTimeoutError:
            fatal = [p for p in (guard.problems if guard else []) if p.startswith("page error")]
            if fatal or time.monotonic() > deadline:
                problems = "\n  ".join(guard.problems if guard else []) or "(no console errors)"
                pytest.fail(
                    f"page not ready after {time.monotonic() - deadline + timeout / 1000:.1f}s "
                    f"at {page.url}:\n  {problems}",
                    pytrace=False,
                )
    if page.query_selector("html.ready") is None:
        problems = "\n  ".join(guard.problems if guard else [])
        text = (page.text_content("#boot-guard") or "").strip()
        pytest.fail(f"the game did not start: {text}\n  {problems}", pytrace=False)


def online_player_script(speed: str = "instant") -> str:
    """The init script of every page of an online test: the messages it receives are kept in
    ``window.__heartsOnlineLog``, and a first visit plays at Easy without autoplay, at ``speed``
    (a guest opens the host's link, which has no ``?speed=``: at the normal speed each hand costs the
    tests half a minute, so one guest of the suite keeps it to cover drawing while states arrive)."""
    settings = json.dumps({"difficulty": "easy", "autoplay": False, "speed": speed})
    return (
        "window.__heartsOnlineLog = [];"
        "if (location.protocol === 'http:' && !localStorage.getItem('hearts.settings.v1'))"
        f" localStorage.setItem('hearts.settings.v1', {json.dumps(settings)});"
    )


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_")[:150]


def shot(page: Page, name: str) -> Path:
    """Save a full-page screenshot as e2e/artifacts/<name>.png and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{_safe(name)}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


# ------------------------------------------------------------------ pytest plumbing
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "locale(name): browser locale of the page fixture (default en-US)")
    config.addinivalue_line("markers", "context(**options): extra options for browser.new_context")


# A renderer process that dies under the test ("Target crashed") is a browser failure, not a
# verdict on the game: such a test runs again, at most twice, in a fresh context (also when the
# crashed page is not the one the test was waiting on). Every other failure fails at once.
# Reruns are listed in pytest's summary ("N rerun") and in scripts/test's.
CRASH_PATTERNS = ["Target crashed", "Page crashed", "renderer crashed"]
CRASH_RERUNS = 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("flaky") is None:
            item.add_marker(pytest.mark.flaky(reruns=CRASH_RERUNS, only_rerun=CRASH_PATTERNS))


@pytest.hookimpl(tryfirst=True)  # before the fixtures: page_guard registers the new guards
def pytest_runtest_setup(item: pytest.Item) -> None:
    # A rerun starts clean: no guards or failure marks left over from the crashed attempt.
    item._hearts_guards = []  # type: ignore[attr-defined]
    item._hearts_failed = False  # type: ignore[attr-defined]


class RendererCrashed(Exception):
    """A test failed after one of its pages' renderer died: the failure is the crash's, so it reruns."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    guards: list[Guard] = getattr(item, "_hearts_guards", [])
    try:
        result = yield
    except Exception as exc:
        # A page that crashed fails the test later and elsewhere: the host waits for a guest that
        # is gone, and the failure names the wait. Name the crash, so the test reruns.
        crashed = [url for guard in guards for url in guard.crashes]
        if crashed:
            raise RendererCrashed("renderer crashed at " + ", ".join(dict.fromkeys(crashed))) from exc
        raise
    for guard in guards:
        guard.check()
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    report = yield
    if report.when == "call" or report.failed:
        item._hearts_failed = getattr(item, "_hearts_failed", False) or report.failed  # type: ignore[attr-defined]
    return report


def _screenshot_on_failure(request: pytest.FixtureRequest, pages: list[Page]) -> None:
    if not getattr(request.node, "_hearts_failed", False):
        return
    for i, page in enumerate(pages):
        try:
            if not page.is_closed():
                path = shot(page, f"{request.node.nodeid}-failed{'-' + str(i) if i else ''}")
                print(f"\nscreenshot: {path}")
        except Exception as exc:  # a screenshot must never hide the real failure
            print(f"\nscreenshot failed: {exc}")


# ------------------------------------------------------------------ fixtures
@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    if not (DIST / "index.html").is_file():
        pytest.exit("dist/ is missing: run `python3 tools/build.py` (./scripts/test does it)", returncode=3)
    srv = start_server(DIST)
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def base_url(server: Server) -> str:
    return server.url.rstrip("/")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright hook: use the system chromium and keep it local and quiet."""
    return {**browser_type_launch_args, **launch_options()}


@pytest.fixture
def locale(request: pytest.FixtureRequest) -> str:
    marker = request.node.get_closest_marker("locale")
    return str(marker.args[0]) if marker else DEFAULT_LOCALE


def _context_options(request: pytest.FixtureRequest, base_url: str, locale: str) -> dict[str, Any]:
    options: dict[str, Any] = {"base_url": base_url, "locale": locale}
    marker = request.node.get_closest_marker("context")
    if marker:
        options.update(marker.kwargs)
    return options


@pytest.fixture
def altered_site(tmp_path: Path) -> Iterator[Callable[[Callable[[Path], None]], str]]:
    """A copy of dist/ that ``alter(folder)`` changes (a file spoilt or missing), served on a port
    of its own; returns its address. What the game's workers fetch is changed at the source:
    Playwright's routes do not see a worker's requests."""
    servers: list[Server] = []

    def make(alter: Callable[[Path], None]) -> str:
        site = tmp_path / f"site-{len(servers)}"
        shutil.copytree(DIST, site)
        alter(site)
        servers.append(start_server(site, quiet=True))
        return servers[-1].url.rstrip("/")

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def held_site() -> Iterator[Callable[[str], tuple[str, threading.Event]]]:
    """dist/ served on a port of its own where each request whose path matches ``pattern`` waits
    until the returned event is set (a download that does not finish, then comes through): for the
    game's workers too, whose requests Playwright's routes do not see."""
    servers: list[Server] = []
    gates: list[threading.Event] = []

    def make(pattern: str) -> tuple[str, threading.Event]:
        gate = threading.Event()
        server = start_server(DIST, quiet=True)
        served = server.RequestHandlerClass
        assert isinstance(served, functools.partial)

        class Held(served.func):  # type: ignore[name-defined,misc]
            def do_GET(self) -> None:
                if re.search(pattern, self.path):
                    gate.wait(timeout=300)
                super().do_GET()

        server.RequestHandlerClass = functools.partial(Held, *served.args, **served.keywords)
        servers.append(server)
        gates.append(gate)
        return server.url.rstrip("/"), gate

    yield make
    for gate in gates:
        gate.set()
    for server in servers:
        server.stop()


@pytest.fixture
def page_guard(request: pytest.FixtureRequest) -> Guard:
    guard = Guard()
    request.node._hearts_guards = [*getattr(request.node, "_hearts_guards", []), guard]
    return guard


@pytest.fixture
def context(
    browser: Any, request: pytest.FixtureRequest, base_url: str, locale: str, page_guard: Guard
) -> Iterator[BrowserContext]:
    """A fresh, guarded browser context per test (overrides pytest-playwright's)."""
    ctx = browser.new_context(**_context_options(request, base_url, locale))
    page_guard.watch(ctx, route=True)
    yield ctx
    _screenshot_on_failure(request, ctx.pages)
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Page:
    """A page in a fresh guarded context (overrides pytest-playwright's)."""
    return context.new_page()


@pytest.fixture
def persistent_context(
    playwright: Playwright, request: pytest.FixtureRequest, base_url: str, locale: str, tmp_path: Path
) -> Iterator[Callable[..., BrowserContext]]:
    """Factory: ``persistent_context(offline=False, user_data_dir=None, **options)``.

    The default profile folder is the same for every call within a test, so closing the context
    and calling the factory again is a browser restart with the same caches and service worker.
    """
    opened: list[BrowserContext] = []
    profile = tmp_path / "profile"

    def launch(offline: bool = False, user_data_dir: Path | None = None, **options: Any) -> BrowserContext:
        guard = Guard()
        request.node._hearts_guards = [*getattr(request.node, "_hearts_guards", []), guard]
        ctx = playwright.chromium.launch_persistent_context(
            str(user_data_dir or profile),
            headless=True,
            offline=offline,
            **{**launch_options(), **_context_options(request, base_url, locale), **options},
        )
        guard.watch(ctx, route=False)
        ctx._hearts_guard = guard  # type: ignore[attr-defined]
        opened.append(ctx)
        return ctx

    yield launch
    pages = [p for ctx in opened for p in ctx.pages]
    _screenshot_on_failure(request, pages)
    for ctx in opened:
        try:
            ctx.close()
        except Exception:
            pass


@pytest.fixture(name="goto_ready")
def goto_ready_fixture() -> Callable[..., None]:
    return goto_ready


@pytest.fixture(name="shot")
def shot_fixture() -> Callable[[Page, str], Path]:
    return shot
