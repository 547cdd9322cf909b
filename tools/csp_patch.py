"""Build-time patch that lets PyScript 0.7.31 start under a CSP without ``'unsafe-eval'``.

PyScript's core (polyscript) keeps the hooks meant for *workers* on every interpreter it creates,
on the main thread too. Its constructor reads them eagerly (``this[e]=r?.[e]`` for each hook name),
and reading one runs a getter that compiles the worker hook with ``Function(...)`` (so that its
source can later be sent to a worker). The game never starts a worker, but the eager read alone
makes ``'unsafe-eval'`` necessary: without it PyScript throws an ``EvalError`` and never starts.

The patch turns the eager reads into lazy getters with the same names and values: the worker hooks
are compiled only if a worker is ever created (and then that worker would need ``'unsafe-eval'``,
as before). Nothing else changes. The build fails when the pinned text is not found exactly once
(another PyScript version: check whether the patch is still needed, then update ``EAGER``/``LAZY``).
Measured in docs/development.md (CSP).
"""

from __future__ import annotations

from pathlib import Path

from tools.vendor_patch import PatchError, replace_once

__all__ = ["EAGER", "LAZY", "PatchError", "patch_pyscript"]

EAGER = "for(const e of ns.slice(1))this[e]=r?.[e];"
LAZY = "for(const e of ns.slice(1))Object.defineProperty(this,e,{get:()=>r?.[e],enumerable:!0,configurable:!0});"


def patch_pyscript(folder: Path) -> Path:
    """Patch the core chunk in ``folder`` (a copy of ``@pyscript/core/dist``); returns its path."""
    chunks = [p for p in sorted(folder.glob("core-*.js")) if EAGER in p.read_text(encoding="utf-8")]
    if len(chunks) != 1:
        raise PatchError(
            f"the PyScript CSP patch expects its pinned text in exactly one core-*.js of {folder}, "
            f"found {len(chunks)}: see tools/csp_patch.py"
        )
    chunk = chunks[0]
    text = chunk.read_text(encoding="utf-8")
    chunk.write_text(replace_once(text, EAGER, LAZY, where=chunk.name, see="tools/csp_patch.py"), encoding="utf-8")
    return chunk
