"""``asyncio.run`` for the tests inside Pyodide under Node, where Pyodide's own cannot block.

Pyodide's event loop (``pyodide.webloop.WebLoop``) is the browser's: it runs its callbacks from
JavaScript's ``setTimeout``, and it is installed as the running loop for good. Pyodide's
``asyncio.run`` runs a coroutine on it to completion only with JavaScript Promise Integration (stack
switching: Chromium has it, Node 20 does not); otherwise it raises. A synchronous test that calls
``asyncio.run`` (the online protocol, the tab hand-over, the bots' worker client) therefore has no
loop to run on under Node.

:func:`run` gives it one: a plain asyncio loop (``asyncio.BaseEventLoop``, the same scheduling
code CPython's loops use) without any I/O, since these tests talk through in-memory fakes. While
it runs, the WebLoop and the task that runs pytest step aside as the running loop and task, and
come back afterwards. The loop waits
for its timers with ``time.sleep``; a coroutine that waits for something no callback or timer
will ever bring fails at once instead of hanging the run.

:func:`install` makes it ``asyncio.run`` for the test session (``pyodide_plugin`` calls it when
stack switching is missing), so the tests read the same in CPython and in Pyodide.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["run", "install", "IdleLoop"]

T = TypeVar("T")


class _NoIO:
    """The selector of a loop without file descriptors: ``select`` only waits for the next timer."""

    def select(self, timeout: float | None) -> list[Any]:
        if timeout is None:
            raise RuntimeError(
                "the event loop has nothing left to do: a coroutine waits for something that "
                "no callback or timer will bring"
            )
        if timeout > 0:
            time.sleep(timeout)
        return []

    def close(self) -> None:
        pass


class IdleLoop(asyncio.BaseEventLoop):
    """An asyncio loop with timers and callbacks only (no sockets, pipes or signals)."""

    def __init__(self) -> None:
        super().__init__()
        self._selector = _NoIO()

    def _process_events(self, event_list: list[Any]) -> None:
        pass

    def _write_to_self(self) -> None:  # call_soon_threadsafe's wake-up: there is only one thread
        pass


def run(
    main: Coroutine[Any, Any, T],
    *,
    debug: bool | None = None,
    loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None,
) -> T:
    """Run ``main`` to completion on a fresh :class:`IdleLoop`, as ``asyncio.run`` does (leftover
    tasks are cancelled, the loop closed), with the WebLoop set aside meanwhile."""
    outer = asyncio.events._get_running_loop()
    # The task that runs pytest (Pyodide's eval_code_async) is "being executed" on this thread
    # while the test runs: it steps aside too, or the loop may not enter a task of its own.
    outer_task = asyncio.tasks._swap_current_task(outer, None) if outer is not None else None
    asyncio.events._set_running_loop(None)
    try:
        with asyncio.Runner(debug=debug, loop_factory=loop_factory or IdleLoop) as runner:
            return runner.run(main)
    finally:
        asyncio.events._set_running_loop(outer)
        if outer is not None:
            asyncio.tasks._swap_current_task(outer, outer_task)


def install() -> None:
    """Make :func:`run` the ``asyncio.run`` of this interpreter."""
    asyncio.run = run
