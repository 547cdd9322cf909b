"""Harness of the online table's browser tests (e2e/test_online_*.py): WebRTC between pages on this
machine only.

These tests run ONLY inside a fresh network namespace with loopback alone: ``./scripts/test online``
starts them with ``unshare --net`` and sets HEARTS_NETNS=1. Outside one, Chromium would connect the
peers over the machine's real network address, so there they are skipped.

Fixtures (import them into the test module)
  relay             a local signalling relay (``node tools/relay.mjs``) on 127.0.0.1
  online_base_url   dist/ served with that relay added to the CSP's connect-src
  online_browser    Chromium with ``--allow-loopback-in-peer-connection`` (a new one per test)
  player            factory: ``page = player("Ada")`` opens a new browser context (its own storage,
                    like another person's browser) with the permissions WebRTC needs on loopback,
                    playing at the instant speed unless ``speed="normal"`` (say), or a first
                    visit with nothing saved (``first_visit=True``: the game's own defaults),
                    guarded like every page of the e2e suite (online code allowed); every message
                    the page receives is kept in ``window.__heartsOnlineLog``, and everything
                    it tells its player in ``window.__heartsShown`` (e2e/shown.py)
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import DIST, Guard, _screenshot_on_failure, goto_ready, launch_options, online_player_script
from playwright.sync_api import Browser, Page, Playwright, expect
from shown import SHOWN_SCRIPT

from tools.relay import local_relay
from tools.serve import start_server

IN_NETNS = os.environ.get("HEARTS_NETNS") == "1"
needs_netns = pytest.mark.skipif(
    not IN_NETNS, reason="WebRTC tests run only in a network namespace: ./scripts/test online"
)
CONNECT_MS = 120_000  # WebRTC set-up through the relay: seconds usually, much longer on a loaded machine


@pytest.fixture(scope="module")
def relay() -> Iterator[str]:
    try:
        with local_relay() as url:
            yield url
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture(scope="module")
def online_base_url(relay: str) -> Iterator[str]:
    srv = start_server(DIST, connect=(relay,))
    yield srv.url.rstrip("/")
    srv.stop()


@pytest.fixture  # one per test: a renderer crash (rare, seen at a page's start) can break the whole
# browser, so that a rerun in a fresh context of the same browser crashes again
def online_browser(playwright: Playwright) -> Iterator[Browser]:
    options = launch_options()
    browser = playwright.chromium.launch(
        **{**options, "args": options["args"] + ["--allow-loopback-in-peer-connection"]}
    )
    yield browser
    browser.close()


@pytest.fixture
def player(
    online_browser: Browser, online_base_url: str, relay: str, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Page]]:
    pages: list[Page] = []
    contexts = []

    def open_player(
        name: str, locale: str = "en-US", speed: str = "instant", first_visit: bool = False, **options: Any
    ) -> Page:
        ctx = online_browser.new_context(
            base_url=online_base_url, locale=locale, **{"viewport": {"width": 1100, "height": 760}, **options}
        )
        # No camera is used: Chromium gathers loopback ICE candidates only with these granted.
        ctx.grant_permissions(["camera", "microphone"], origin=online_base_url)
        guard = Guard()
        guard.online = True
        # Trystero logs a failed step of a peer connection as an error: a peer's closed connection
        # (a reload, a closed tab: "User-Initiated Abort"), or a negotiation that lost a race when
        # several people join at once (a bare OperationError; seen once, four people were seated all
        # the same): each test checks the table's outcome
        guard.allow(r"Trystero peer error: OperationError( |$|: User-Initiated Abort)")
        guard.watch(ctx)
        lines: list[str] = []
        ctx._hearts_console = lines  # type: ignore[attr-defined]
        ctx.on(
            "console",
            lambda m: lines.append(f"{time.strftime('%H:%M:%S')} {m.text}") if m.text.startswith("online:") else None,
        )
        request.node._hearts_guards = [*getattr(request.node, "_hearts_guards", []), guard]
        ctx.add_init_script("window.__heartsOnlineLog = [];" if first_visit else online_player_script(speed))
        ctx.add_init_script(SHOWN_SCRIPT)
        contexts.append(ctx)
        page = ctx.new_page()
        page._hearts_relay = relay  # type: ignore[attr-defined]
        pages.append(page)
        return page

    yield open_player
    _screenshot_on_failure(request, pages)
    if getattr(request.node, "_hearts_failed", False):  # what each page's online table logged
        for i, ctx in enumerate(contexts):
            print(f"--- player {i + 1}: online log ---\n" + "\n".join(getattr(ctx, "_hearts_console", [])[-60:]))
            for page in ctx.pages:
                try:
                    peers = page.evaluate("window.__heartsOnlinePeers || []")
                except Exception as exc:  # a crashed page: its log above is what is left
                    peers = f"unreadable ({str(exc).splitlines()[0]})"
                print("    peers met in the current room:", peers)
    for ctx in contexts:
        ctx.close()


# ------------------------------------------------------------------ actions of the players
def host_table(page: Page, name: str, preset: str = "standard", query: str = "") -> str:
    """Open the game, create a table, return the invitation link (``query``: more of the address,
    e.g. ``&timer-speed=10``)."""
    goto_ready(page, f"/?speed=instant&relay={page._hearts_relay}{query}")  # type: ignore[attr-defined]
    page.click("[data-action='online']")
    page.fill("#online-name", name)
    page.select_option("#online-preset", preset)
    page.click("[data-action='online-host']")
    link = page.wait_for_selector("[data-table-link]", timeout=CONNECT_MS).get_attribute("href")
    assert link and "#online=" in link
    return link


def join_table(page: Page, link: str, name: str, seat: str) -> None:
    """Open the invitation, read the notice, join, and sit down."""
    page.goto(link)
    page.wait_for_selector("html.ready", state="attached", timeout=CONNECT_MS)
    assert "IP address" in page.inner_text("#dlg-body") or "IP-Adresse" in page.inner_text("#dlg-body")
    page.fill("#online-name", name)
    page.click("[data-action='online-join']")
    try:
        page.click(f"[data-action='online-sit'][data-seat='{seat}']", timeout=CONNECT_MS)
    except Exception:
        print("peers seen by the guest:", page.evaluate("window.__heartsOnlinePeers"))
        raise


def host_sees_seated(host: Page, seat: str, *guests: Page) -> None:
    """The host's lobby shows a person at ``seat``. If not in time, print who met whom and the
    message types each page received, to tell a lost connection from a lost message."""
    try:
        expect(host.locator(f"[data-lobby-seat='{seat}'][data-kind='remote']")).to_be_visible(timeout=CONNECT_MS)
    except AssertionError:
        for name, page in (("host", host), *((f"guest {i + 1}", g) for i, g in enumerate(guests))):
            types = [m.get("t") for m in received(page)]
            print(f"{name}: peers {page.evaluate('window.__heartsOnlinePeers')}; received {types[-40:]}")
        raise


def received(page: Page) -> list[dict[str, Any]]:
    return [json.loads(m) for m in page.evaluate("window.__heartsOnlineLog || []")]
