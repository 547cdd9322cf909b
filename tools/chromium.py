"""How the tests and the lab's browser benchmarks launch Chromium: the system browser, quiet and local."""

from __future__ import annotations

import os
import shutil
from typing import Any

__all__ = ["CHROMIUM_ARGS", "chromium_executable", "launch_options"]

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",  # shared memory in /tmp: a small /dev/shm (containers) crashes renderers
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost",
]


def chromium_executable() -> str | None:
    """System chromium (HEARTS_CHROMIUM or PATH); None = Playwright's own (`playwright install chromium`)."""
    if "HEARTS_CHROMIUM" in os.environ:
        return os.environ["HEARTS_CHROMIUM"] or None
    return shutil.which("chromium") or shutil.which("chromium-browser")


def launch_options() -> dict[str, Any]:
    """Keyword arguments for Playwright's ``chromium.launch``."""
    options: dict[str, Any] = {"args": CHROMIUM_ARGS}
    exe = chromium_executable()
    if exe:
        options["executable_path"] = exe
    return options
