"""A small W3C WebDriver (classic, HTTP) client: what the smoke path needs of WebKitWebDriver.

Only the standard endpoints (https://www.w3.org/TR/webdriver2/), stdlib only:

    session = Session.start("http://127.0.0.1:4444", {"webkitgtk:browserOptions": {...}})
    session.navigate("http://127.0.0.1:8000/")
    session.execute("return document.title")          # a promise returned is awaited (the spec's rule)
    session.click(session.find("#pass-btn"))
    session.close()
"""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

__all__ = ["ELEMENT_KEY", "Session", "WebDriverError"]

ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"  # the spec's key of a web element reference
HTTP_TIMEOUT_S = 120.0  # a navigation waits for the page's load event: minutes on a loaded machine


class WebDriverError(Exception):
    """An error the driver answered with: ``error`` is the spec's code ("no such element", ...)."""

    def __init__(self, error: str, message: str) -> None:
        super().__init__(f"{error}: {message}")
        self.error = error


def _request(method: str, url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as response:
            return json.loads(response.read() or b"{}").get("value")
    except urllib.error.HTTPError as exc:
        try:
            value = json.loads(exc.read()).get("value", {})
        except ValueError:
            value = {}
        raise WebDriverError(str(value.get("error", exc.code)), str(value.get("message", exc.reason))) from None


@dataclass
class Session:
    """One WebDriver session: a browser the driver started."""

    driver_url: str
    session_id: str
    capabilities: dict[str, Any]

    @classmethod
    def start(cls, driver_url: str, always_match: dict[str, Any]) -> Session:
        value = _request("POST", f"{driver_url}/session", {"capabilities": {"alwaysMatch": always_match}})
        return cls(driver_url, str(value["sessionId"]), dict(value.get("capabilities", {})))

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return _request(method, f"{self.driver_url}/session/{self.session_id}{path}", body)

    def navigate(self, url: str) -> None:
        self._call("POST", "/url", {"url": url})

    def refresh(self) -> None:
        self._call("POST", "/refresh", {})

    def execute(self, body: str, *args: Any) -> Any:
        """Run ``body`` as a function body with ``arguments``; a promise it returns is awaited."""
        return self._call("POST", "/execute/sync", {"script": body, "args": list(args)})

    def find(self, css: str) -> dict[str, str]:
        """The first element matching ``css`` (raises ``no such element``)."""
        found: dict[str, str] = self._call("POST", "/element", {"using": "css selector", "value": css})
        return found

    def click(self, element: dict[str, str]) -> None:
        """The spec's element click: scrolled into view, refused when another element covers it."""
        self._call("POST", f"/element/{element[ELEMENT_KEY]}/click", {})

    def clear(self, element: dict[str, str]) -> None:
        self._call("POST", f"/element/{element[ELEMENT_KEY]}/clear", {})

    def send_keys(self, element: dict[str, str], text: str) -> None:
        self._call("POST", f"/element/{element[ELEMENT_KEY]}/value", {"text": text})

    def set_window_size(self, width: int, height: int) -> dict[str, int]:
        rect: dict[str, int] = self._call("POST", "/window/rect", {"width": width, "height": height})
        return rect

    def screenshot(self) -> bytes:
        """The viewport as PNG."""
        return base64.b64decode(self._call("GET", "/screenshot"))

    def close(self) -> None:
        try:
            self._call("DELETE", "")
        except (WebDriverError, OSError):
            pass  # the browser is gone already
