"""Chromium and Firefox through Playwright: Chromium over the DevTools protocol as in the rest of
the e2e suite, Debian's Firefox ESR over WebDriver BiDi (Playwright's ``moz-firefox`` channel,
through ``firefox_shim.mjs``: no geckodriver, no Playwright build of Firefox)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright

from tools.chromium import launch_options

from .driver import Problems

__all__ = ["FIREFOX_PREFS", "PlaywrightDriver", "PlaywrightEngine", "chromium", "firefox", "firefox_executable"]

SHIM = Path(__file__).with_name("firefox_shim.mjs")
CLICK_MS = 30_000

# Firefox stays quiet and local (Playwright's own profile already turns off updates, telemetry and
# the like), and makes WebRTC connections over loopback as the online table's tests need (inside a
# network namespace that has nothing else): loopback candidates, no mDNS names for them.
FIREFOX_PREFS: dict[str, Any] = {
    "network.proxy.type": 0,
    "network.dns.disableIPv6": True,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "browser.safebrowsing.malware.enabled": False,
    "browser.safebrowsing.phishing.enabled": False,
    "network.manage-offline-status": False,
    "media.peerconnection.ice.loopback": True,
    "media.peerconnection.ice.obfuscate_host_addresses": False,
}


def firefox_executable() -> str | None:
    """Debian's Firefox ESR (HEARTS_FIREFOX, or ``firefox-esr``/``firefox`` on the PATH)."""
    return os.environ.get("HEARTS_FIREFOX") or shutil.which("firefox-esr") or shutil.which("firefox")


class PlaywrightDriver:
    """One page in its own browser context."""

    def __init__(self, engine: str, context: BrowserContext) -> None:
        self.engine = engine
        self.problems = Problems()
        self.context = context
        context.on("request", lambda request: self.problems.request(request.url))
        self.page: Page = context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.add(f"page error: {error}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self.problems.add(f"console error: {message.text}")

    def goto(self, url: str) -> None:
        self.page.goto(url, wait_until="commit")

    def reload(self) -> None:
        self.page.reload(wait_until="commit")

    def js(self, function: str, *args: Any) -> Any:
        return self.page.evaluate(f"(args) => ({function})(...args)", list(args))

    def click(self, selector: str) -> None:
        self.page.locator(selector).first.click(timeout=CLICK_MS)

    def fill(self, selector: str, text: str) -> None:
        self.page.locator(selector).first.fill(text, timeout=CLICK_MS)

    def viewport(self, width: int, height: int) -> None:
        self.page.set_viewport_size({"width": width, "height": height})

    def screenshot(self, path: Path) -> None:
        self.page.screenshot(path=str(path))

    def collect(self) -> None:
        """Playwright reports every console message as an event: nothing to gather."""

    def close(self) -> None:
        self.context.close()


class PlaywrightEngine:
    """A browser Playwright drives; ``open()`` gives a fresh context (empty storage) with one page."""

    def __init__(self, name: str, browser: Browser, has_webrtc: bool, context_options: dict[str, Any]) -> None:
        self.name, self.browser, self.has_webrtc = name, browser, has_webrtc
        self.context_options = context_options

    def open(self) -> PlaywrightDriver:
        options = {"viewport": {"width": 1280, "height": 720}, "locale": "en-US", **self.context_options}
        return PlaywrightDriver(self.name, self.browser.new_context(**options))

    def close(self) -> None:
        self.browser.close()


def chromium(playwright: Playwright) -> PlaywrightEngine:
    """Chromium as the online tests launch it: loopback peer connections allowed."""
    options = launch_options()
    browser = playwright.chromium.launch(
        **{**options, "args": [*options["args"], "--allow-loopback-in-peer-connection"]}
    )
    # Chromium gathers loopback ICE candidates only for a page with camera and microphone granted
    return PlaywrightEngine("chromium", browser, True, {"permissions": ["camera", "microphone"]})


def firefox(playwright: Playwright) -> PlaywrightEngine:
    executable = firefox_executable()
    if executable is None:
        raise FileNotFoundError("no Firefox: install Debian's firefox-esr (./scripts/test does it as root)")
    browser = playwright.firefox.launch(
        channel="moz-firefox",
        executable_path=str(SHIM),
        env={**os.environ, "HEARTS_FIREFOX": executable},
        firefox_user_prefs=FIREFOX_PREFS,
        headless=True,
    )
    return PlaywrightEngine("firefox", browser, True, {})
