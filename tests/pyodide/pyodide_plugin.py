"""pytest plugin loaded by run.mjs for the test run inside Pyodide.

* ``@pytest.mark.no_pyodide("why")`` skips a test in Pyodide only (it still runs on CPython).
* A test that fails only because the platform cannot do it (``OSError(ENOTSUP)``, e.g.
  "emscripten does not support processes" from ``subprocess``) is reported as SKIPPED with that
  reason instead of FAILED, and listed in the summary: the browser cannot start processes, so
  such a test (say, of the command-line interface) has nothing to say about the engine there.
* ``asyncio.run`` works as in CPython: without stack switching (Node 20) Pyodide's own cannot run
  a coroutine to completion, so :mod:`asyncio_run` gives it a loop of its own for the session.
"""

from __future__ import annotations

import asyncio
import errno
from typing import Any

import asyncio_run
import pytest

_platform_skips: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "no_pyodide(reason): skip this test inside Pyodide")
    from pyodide.ffi import can_run_sync

    if not can_run_sync():
        asyncio_run.install()


def pytest_report_header() -> str:
    from pyodide.ffi import can_run_sync

    how = "the WebLoop (stack switching)" if asyncio.run is not asyncio_run.run else "asyncio_run.IdleLoop"
    return f"asyncio.run runs on {how}; can_run_sync: {can_run_sync()}"


def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker("no_pyodide")
    if marker is not None:
        pytest.skip("no_pyodide: " + (marker.args[0] if marker.args else "not for Pyodide"))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Any:
    report = yield
    excinfo = call.excinfo
    if (
        report.failed
        and excinfo is not None
        and isinstance(excinfo.value, OSError)
        and excinfo.value.errno == errno.ENOTSUP
    ):
        reason = f"not possible in Pyodide: {excinfo.value}"
        report.outcome = "skipped"
        report.longrepr = (str(item.path), item.location[1] or 0, reason)
        _platform_skips.append(f"{item.nodeid}: {excinfo.value}")
    return report


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _platform_skips:
        terminalreporter.section("skipped: needs what Pyodide cannot do", sep="!")
        for line in _platform_skips:
            terminalreporter.line(line)
