"""Build-time patches of PyScript 0.7.31: a start without ``'unsafe-eval'``, and task boundaries
around PyScript's own package in the page's start.

**No 'unsafe-eval'.** PyScript's core (polyscript) keeps the hooks meant for *workers* on every
interpreter it creates, on the main thread too. Its constructor reads them eagerly
(``this[e]=r?.[e]`` for each hook name), and reading one runs a getter that compiles the worker
hook with ``Function(...)`` (so that its source can later be sent to a worker). The game never
starts a worker, but the eager read alone makes ``'unsafe-eval'`` necessary: without it PyScript
throws an ``EvalError`` and never starts. ``EAGER`` → ``LAZY`` turns the eager reads into lazy
getters with the same names and values: the worker hooks are compiled only if a worker is ever
created (and then that worker would need ``'unsafe-eval'``, as before). Measured in
docs/development.md (CSP).

**Task boundaries.** Before the page's first ``async`` script (``web/main.py``) PyScript runs the
Python of its ``codeBeforeRunAsync`` hook: it writes its ``pyscript`` package into the file system
and imports it, and ``main.py``'s first statements follow in the same task (on a phone, 4x CPU:
one task of 100-180 ms). ``IMPORT`` → ``IMPORT_IN_A_TASK`` makes that hook, and only that one
(the synchronous ``codeBeforeRun`` cannot ``await``), wait for the next task before and after
``import pyscript`` (``asyncio.sleep(0)``: Pyodide's event loop resumes it in a new task). Nothing
else runs Python meanwhile: ``main.py`` waits for the hook.

The build fails when a pinned text is not found exactly once (another PyScript version: check
whether each patch is still needed, then update ``PATCHES``).
"""

from __future__ import annotations

from pathlib import Path

from tools.vendor_patch import PatchError, replace_once

__all__ = ["EAGER", "IMPORT", "IMPORT_IN_A_TASK", "LAZY", "PATCHES", "PatchError", "patch_pyscript"]

EAGER = "for(const e of ns.slice(1))this[e]=r?.[e];"
LAZY = "for(const e of ns.slice(1))Object.defineProperty(this,e,{get:()=>r?.[e],enumerable:!0,configurable:!0});"

IMPORT = 'ko(r,e,"codeBeforeRunAsync",n)'
IMPORT_IN_A_TASK = (
    'ko(r,e,"codeBeforeRunAsync",n.replace("import pyscript as _pyscript",'
    '"import asyncio as _asyncio\\nawait _asyncio.sleep(0)\\nimport pyscript as _pyscript\\n'
    'await _asyncio.sleep(0)\\ndel _asyncio"))'
)

PATCHES = [(EAGER, LAZY), (IMPORT, IMPORT_IN_A_TASK)]


def patch_pyscript(folder: Path) -> Path:
    """Patch the core chunk in ``folder`` (a copy of ``@pyscript/core/dist``); returns its path."""
    chunks = [p for p in sorted(folder.glob("core-*.js")) if EAGER in p.read_text(encoding="utf-8")]
    if len(chunks) != 1:
        raise PatchError(
            f"the PyScript patches expect their pinned text in exactly one core-*.js of {folder}, "
            f"found {len(chunks)}: see tools/pyscript_patch.py"
        )
    chunk = chunks[0]
    text = chunk.read_text(encoding="utf-8")
    for old, new in PATCHES:
        text = replace_once(text, old, new, where=chunk.name, see="tools/pyscript_patch.py")
    chunk.write_text(text, encoding="utf-8")
    return chunk
