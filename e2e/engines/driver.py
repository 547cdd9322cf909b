"""What the smoke path asks of a browser, whatever drives it (Playwright, WebDriver).

A :class:`Driver` is one page with its own storage (a profile or a browser context); an
:class:`Engine` opens them. The smoke path (``test_smoke.py``) speaks only this, so it runs the
same in Chromium and Firefox (Playwright; Firefox over WebDriver BiDi) and WebKitGTK (W3C
WebDriver). Scripts are JavaScript functions as text, ``"(a, b) => ..."``; what they return must
be JSON (a promise is awaited).
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any, Protocol

__all__ = ["Driver", "Engine", "Problems", "SmokeFailure", "is_local", "wait", "wait_ready"]

READY_S = 120.0  # a first visit compiles Pyodide's wasm: WebKit under Xvfb on a loaded machine takes a minute


class SmokeFailure(AssertionError):
    """A step of the smoke path did not happen in time, or the page misbehaved."""


def is_local(url: str) -> bool:
    """Whether a request stays on this machine (the site, the relay) or is no network at all."""
    return (
        re.match(r"(https?|wss?)://127\.0\.0\.1[:/]", url) is not None
        or re.match(r"(data|blob|about):", url) is not None
    )


class Problems:
    """What must never happen on a page: console errors, uncaught errors, a request off this machine.
    ``allow(regex)`` lets expected ones through."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self._allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        self._allowed.append(re.compile(pattern))

    def add(self, text: str) -> None:
        if not any(p.search(text) for p in self._allowed):
            self.found.append(text)

    def request(self, url: str) -> None:
        if not is_local(url):
            self.found.append(f"request to a host other than 127.0.0.1: {url}")


class Driver(Protocol):
    """One page of one engine."""

    engine: str
    problems: Problems

    def goto(self, url: str) -> None: ...

    def reload(self) -> None: ...

    def js(self, function: str, *args: Any) -> Any:
        """Call a JavaScript function (source text) in the page with JSON arguments; its JSON result."""
        ...

    def click(self, selector: str) -> None:
        """A real click on the first visible element matching ``selector`` (waits for it)."""
        ...

    def fill(self, selector: str, text: str) -> None: ...

    def viewport(self, width: int, height: int) -> None:
        """The page's viewport (CSS pixels) becomes ``width`` x ``height``."""
        ...

    def screenshot(self, path: Path) -> None: ...

    def collect(self) -> None:
        """Gather console messages the engine reports out of band (WebKit's stdout) into ``problems``."""
        ...

    def close(self) -> None: ...


class Engine(Protocol):
    name: str
    has_webrtc: bool

    def open(self) -> Driver:
        """A new page with empty storage (a first visit)."""
        ...

    def close(self) -> None: ...


def wait(driver: Driver, function: str, what: str, *args: Any, timeout_s: float = 30.0) -> Any:
    """Poll ``function`` until it returns something truthy (that value); fail naming ``what``."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = driver.js(function, *args)
        if value:
            return value
        driver.collect()
        if driver.problems.found:
            raise SmokeFailure(f"{driver.engine}: while waiting for {what}: " + "; ".join(driver.problems.found[:5]))
        if time.monotonic() > deadline:
            raise SmokeFailure(f"{driver.engine}: {what}: not within {timeout_s:.0f} s")
        time.sleep(0.1)


READY = """() => {
  const root = document.documentElement;
  if (document.querySelector('.py-error')) return 'error: ' + document.querySelector('.py-error').textContent;
  return root.classList.contains('ready') ? 'ready' : '';
}"""


def wait_ready(driver: Driver, timeout_s: float = READY_S) -> None:
    """The game is on the screen (``html.ready``); a Python error fails at once."""
    state = wait(driver, READY, "the game ready (html.ready)", timeout_s=timeout_s)
    if state != "ready":
        raise SmokeFailure(f"{driver.engine}: {state}")
