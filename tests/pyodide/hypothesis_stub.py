"""Stand-in for hypothesis when it cannot be installed in Pyodide (run.mjs --no-hypothesis).

Every ``@given`` test is reported as SKIPPED (loudly, by run.py), instead of breaking collection.
Only used when the real wheel is unavailable; normally the pinned hypothesis runs in Pyodide.
"""

from __future__ import annotations

import functools
import sys
import types
from typing import Any

REASON = "hypothesis is not available in Pyodide: property test skipped"


class _Anything:
    """Accepts any attribute access, call or operator, so strategy expressions at import time work."""

    def __getattr__(self, name: str) -> _Anything:
        return self

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and callable(args[0]) and not kwargs and isinstance(args[0], types.FunctionType):
            return args[0]  # used as a plain decorator (@settings(...), @example(...), @composite)
        return self

    def __or__(self, other: Any) -> _Anything:
        return self

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(())


def given(*_args: Any, **_kwargs: Any):  # type: ignore[no-untyped-def]
    def decorate(fn):  # type: ignore[no-untyped-def]
        @functools.wraps(fn)
        def skipped(*args: Any, **kwargs: Any) -> None:
            import pytest

            pytest.skip(REASON)

        # pytest must not ask for the @given arguments as fixtures
        skipped.__signature__ = __import__("inspect").Signature()  # type: ignore[attr-defined]
        return skipped

    return decorate


def install() -> None:
    anything = _Anything()
    root = types.ModuleType("hypothesis")
    root.given = given  # type: ignore[attr-defined]
    root.__getattr__ = lambda name: anything  # type: ignore[method-assign]
    sys.modules["hypothesis"] = root
    for sub in ("strategies", "stateful", "extra"):
        module = types.ModuleType(f"hypothesis.{sub}")
        module.__getattr__ = lambda name: anything  # type: ignore[method-assign]
        sys.modules[f"hypothesis.{sub}"] = module
        setattr(root, sub, module)
