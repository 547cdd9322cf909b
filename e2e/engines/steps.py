"""Named steps of a smoke test: each is timed, and a failure says which step of which engine failed
and leaves a screenshot of the page as it was (``e2e/artifacts/engines/<engine>-<step>.png``)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .driver import Driver, SmokeFailure

__all__ = ["Steps"]


class Steps:
    def __init__(self, driver: Driver, artifacts: Path) -> None:
        self.driver, self.artifacts = driver, artifacts
        self.times: list[tuple[str, float]] = []

    def shot(self, name: str) -> Path:
        path = self.artifacts / f"{self.driver.engine}-{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')}.png"
        self.driver.screenshot(path)
        return path

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        start = time.monotonic()
        try:
            yield
            self.driver.collect()
            if self.driver.problems.found:
                raise SmokeFailure("the page misbehaved: " + "; ".join(self.driver.problems.found[:10]))
        except Exception as exc:
            try:
                where = f" (screenshot: {self.shot(name + '-failed')})"
            except Exception:  # noqa: BLE001 - a screenshot must never hide the failure
                where = ""
            raise SmokeFailure(f"{self.driver.engine}: step '{name}' failed{where}: {exc}") from exc
        finally:
            self.times.append((name, time.monotonic() - start))

    def report(self) -> str:
        return f"{self.driver.engine}: " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in self.times)
