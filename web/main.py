"""PyScript entry point: start the Hearts table (see hearts_web.controller).

The engine, the browser layer and the first render each run in a task of their own: in one task,
they kept the page from answering input for longer (docs/development.md, "Start-up, step by
step"). PyScript runs a script with a top-level ``await`` as a coroutine."""

import asyncio

import hearts.table  # noqa: F401  (the engine, and the bots' players)

await asyncio.sleep(0)  # noqa: F704, PLE1142

from hearts_web.controller import Controller  # noqa: E402

await asyncio.sleep(0)  # noqa: F704, PLE1142

Controller().start()
