"""Fixtures of the smoke path in three engines (``./scripts/test engines``; see ``__init__.py``).

  engine      Chromium, Firefox ESR or WebKitGTK, started once per session each (parametrized)
  relay       a local signalling relay (``node tools/relay.mjs``) on 127.0.0.1
  site        dist/ served on 127.0.0.1 with the relay in the CSP's connect-src, one per test (the
              offline step stops it)
  artifacts   e2e/artifacts/engines/, where the screenshots go

An engine that is not installed is skipped, or fails the test with HEARTS_ENGINES=1 (the test
command sets it: its set-up installs them as root).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Playwright

from tools.relay import local_relay
from tools.serve import start_server

from .cut import Forwarder
from .driver import Engine

ROOT = Path(__file__).resolve().parents[2]
from .playwright_engines import chromium, firefox, firefox_executable  # noqa: E402
from .webkit import WebKitEngine, webkit_available  # noqa: E402

DIST = ROOT / "dist"
ARTIFACTS = ROOT / "e2e" / "artifacts" / "engines"
REPORTS = ROOT / ".cache" / "test-reports"

ENGINES = ("chromium", "firefox", "webkit")
REQUIRED = os.environ.get("HEARTS_ENGINES") == "1"


def _missing(name: str) -> str | None:
    """Why an engine cannot run here (None: it can)."""
    if name == "firefox" and firefox_executable() is None:
        return "no firefox-esr (apt: firefox-esr)"
    if name == "webkit":
        return webkit_available()
    return None


@pytest.fixture(scope="session", params=ENGINES)
def engine(request: pytest.FixtureRequest, playwright: Playwright) -> Iterator[Engine]:
    name = str(request.param)
    missing = _missing(name)
    if missing:
        if REQUIRED:
            pytest.fail(f"{name}: {missing}", pytrace=False)
        pytest.skip(f"{name}: {missing}")
    started: Engine
    if name == "chromium":
        started = chromium(playwright)
    elif name == "firefox":
        started = firefox(playwright)
    else:
        REPORTS.mkdir(parents=True, exist_ok=True)
        started = WebKitEngine(REPORTS / "webkit-console.log")
    yield started
    started.close()


@pytest.fixture(scope="session")
def relay() -> Iterator[str]:
    try:
        with local_relay() as url:
            yield url
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture
def site(relay: str) -> Iterator[Forwarder]:
    """The site's address (``site.url``); ``site.cut()`` takes it offline."""
    if not (DIST / "index.html").is_file():
        pytest.exit("dist/ is missing: run `python3 tools/build.py` (./scripts/test does it)", returncode=3)
    server = start_server(DIST, connect=(relay,))
    forwarder = Forwarder(server.server_address[1])
    yield forwarder
    forwarder.cut()
    server.stop()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
