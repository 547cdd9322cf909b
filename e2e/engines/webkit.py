"""WebKitGTK (the engine under Safari) through WebKitWebDriver, under Xvfb.

Debian's packages: ``webkit2gtk-driver`` (WebKitWebDriver), ``xvfb``, and for the browser itself
(``webkit_browser.py``) ``python3-gi gir1.2-webkit2-4.1 gir1.2-gtk-3.0``. One X server and one
driver per engine; each :meth:`WebKitEngine.open` is a new WebDriver session, so a new browser
process with an empty profile. The browser writes the pages' console to its stdout, which the
driver passes on into a log file: :meth:`WebKitDriver.collect` reads the errors from it.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO, Any

from .driver import Problems
from .webdriver import Session, WebDriverError

__all__ = ["WebKitDriver", "WebKitEngine", "webkit_available"]

BROWSER = Path(__file__).with_name("webkit_browser.py")
SYSTEM_PYTHON = "/usr/bin/python3"  # PyGObject is Debian's, not the virtual environment's
CLICK_S = 30.0
# What the browser writes for a console message: "CONSOLE <source> <level> <text>"
CONSOLE_ERROR = re.compile(r"CONSOLE (\w+) ERROR (.*)")
# Retried while a click target is not there yet, hidden, covered or redrawn
NOT_YET = {"no such element", "element not interactable", "element click intercepted", "stale element reference"}


def webkit_available() -> str | None:
    """Why WebKit cannot run here (None: it can)."""
    missing = [tool for tool in ("WebKitWebDriver", "Xvfb") if shutil.which(tool) is None]
    if missing:
        return "missing " + ", ".join(missing) + " (apt: webkit2gtk-driver xvfb)"
    probe = "import gi; gi.require_version('WebKit2', '4.1'); gi.require_version('Gtk', '3.0')"
    if subprocess.run([SYSTEM_PYTHON, "-c", probe], capture_output=True).returncode != 0:
        return "no PyGObject WebKit2 4.1 (apt: python3-gi gir1.2-webkit2-4.1 gir1.2-gtk-3.0)"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1200x24", "-nolisten", "tcp"],
        pass_fds=(write,),
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as display:
        number = display.readline().strip()
    if not number:
        xvfb.kill()
        raise RuntimeError("Xvfb did not start")
    return xvfb, f":{number}"


class WebKitDriver:
    """One WebDriver session: its own browser process and profile."""

    engine = "webkit"

    def __init__(self, session: Session, log: Path, profile: tempfile.TemporaryDirectory[str]) -> None:
        self.session, self.log, self.profile = session, log, profile
        self.problems = Problems()
        # WebKit does not know the CSP directive manifest-src (Chromium and Firefox do): a warning
        self.problems.allow(r"Unrecognized Content-Security-Policy directive 'manifest-src'")
        self._read = log.stat().st_size  # what earlier sessions wrote is theirs

    def goto(self, url: str) -> None:
        self.session.navigate(url)

    def reload(self) -> None:
        self.session.refresh()

    def js(self, function: str, *args: Any) -> Any:
        return self.session.execute(f"return ({function}).apply(null, arguments);", *args)

    def _element(self, selector: str) -> dict[str, str]:
        """The first visible element matching ``selector``, waiting for it."""
        deadline = time.monotonic() + CLICK_S
        while True:
            try:
                index = self.js(
                    "(css) => [...document.querySelectorAll(css)].findIndex(e => e.getClientRects().length > 0)",
                    selector,
                )
                if index >= 0:
                    found: dict[str, str] = self.session.execute(
                        "return [...document.querySelectorAll(arguments[0])][arguments[1]];", selector, index
                    )
                    return found
            except WebDriverError as exc:
                if exc.error not in NOT_YET:
                    raise
            if time.monotonic() > deadline:
                raise WebDriverError("no such element", f"nothing visible matches {selector} in {CLICK_S:.0f} s")
            time.sleep(0.1)

    def click(self, selector: str) -> None:
        deadline = time.monotonic() + CLICK_S
        while True:
            try:
                return self.session.click(self._element(selector))
            except WebDriverError as exc:
                if exc.error not in NOT_YET or time.monotonic() > deadline:
                    raise
            time.sleep(0.1)

    def fill(self, selector: str, text: str) -> None:
        element = self._element(selector)
        self.session.clear(element)
        self.session.send_keys(element, text)

    def viewport(self, width: int, height: int) -> None:
        """The window holds nothing but the web view: its size is the viewport's, give or take what
        the X server rounds; one correction settles it. (The view takes the window's new size a
        moment after the driver answers: its size is read once it has stopped changing.)"""
        want_w, want_h = width, height
        inner = [0, 0]
        for _ in range(3):
            before = self.js("() => [innerWidth, innerHeight]")
            self.session.set_window_size(want_w, want_h)
            inner = self._settled_size(before, [width, height])
            if inner == [width, height]:
                return
            want_w, want_h = max(200, want_w + width - inner[0]), max(200, want_h + height - inner[1])
        raise RuntimeError(f"webkit: viewport {inner}, not {width}x{height}")

    def _settled_size(self, before: list[int], target: list[int], timeout_s: float = 2.0) -> list[int]:
        """The viewport's size once it is the target, or has changed and stopped changing."""
        deadline, last = time.monotonic() + timeout_s, None
        while True:
            now = list(self.js("() => [innerWidth, innerHeight]"))
            if now == target or (now != before and now == last) or time.monotonic() > deadline:
                return now
            last = now
            time.sleep(0.05)

    def screenshot(self, path: Path) -> None:
        # the driver shoots what was last painted: let what just changed reach the screen first
        self.js("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))")
        path.write_bytes(self.session.screenshot())

    def collect(self) -> None:
        with self.log.open("rb") as log:
            log.seek(self._read)
            text = log.read().decode(errors="replace")
        complete = text.rfind("\n") + 1
        self._read += len(text[:complete].encode())
        for line in text[:complete].splitlines():
            found = CONSOLE_ERROR.search(line)
            if found:
                self.problems.add(f"console {found.group(1).lower()} error: {found.group(2)}")

    def close(self) -> None:
        self.collect()
        self.session.close()
        self.profile.cleanup()


class WebKitEngine:
    """Xvfb and WebKitWebDriver, started once; :meth:`open` starts a browser."""

    name = "webkit"
    has_webrtc = False  # Debian builds WebKitGTK without WebRTC (Safari has it)

    def __init__(self, log: Path) -> None:
        self.log = log
        self.xvfb, display = _start_xvfb()
        port = _free_port()
        self._log_file: IO[bytes] = log.open("wb")
        self.driver = subprocess.Popen(
            ["WebKitWebDriver", f"--port={port}"],
            env={**os.environ, "DISPLAY": display},
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
        )
        self.url = f"http://127.0.0.1:{port}"
        self._wait_for_driver()
        self.version = ""

    def _wait_for_driver(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", int(self.url.rsplit(":", 1)[1])), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        self.close()
        raise RuntimeError("WebKitWebDriver did not start")

    def open(self) -> WebKitDriver:
        profile = tempfile.TemporaryDirectory(prefix="hearts-webkit-")
        options = {"binary": str(BROWSER), "args": [f"--profile={profile.name}"]}
        session = Session.start(self.url, {"webkitgtk:browserOptions": options})
        self.version = str(session.capabilities.get("browserVersion", ""))
        return WebKitDriver(session, self.log, profile)

    def close(self) -> None:
        for process in (self.driver, self.xvfb):
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        self._log_file.close()
