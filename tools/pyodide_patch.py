"""Build-time patch of Pyodide's start, so that a phone's page answers input while Python starts:
task boundaries inside it, and a compile hint (issue 45; measured in docs/development.md,
"Start-up, step by step").

Pyodide 314.0.7 sets its wasm instance up in one synchronous function (Emscripten's
``receiveInstance``: the exports' wrappers, the dynamic linker's symbol table, undefined symbols
resolved into the function table), and restores a memory snapshot and finalizes its bootstrap in
another (``bootstrapPyodide``). On a phone (4x CPU) each was one task of 230-260 and 90-110 ms.
The patch lets both wait for the next task between their steps, where the module object carries
``heartsNextTask`` (runtime.mjs sets it: a task boundary); without it, each ``await`` only waits
for a microtask, and the start runs as before. The order of the steps does not change, and
nothing else runs Python meanwhile (loadPyodide has not returned).

``pyodide.asm.mjs`` also gets V8's explicit compile hint for the whole file (the magic comment
``//# allFunctionsCalledOnLoad``, first in the file; Chromium 136 on, a comment elsewhere): V8
compiles its functions while it streams the file, off the main thread, instead of compiling the
1.25 MB module factory on the main thread when it is called (one task of ~260 ms on a phone).

The build fails when a pinned text is not found exactly once (another Pyodide version: find the
same steps in its files, then update ``PATCHES``), and when a function the patch makes async is
not what the patch takes it for: ``Ae`` is a minified name, which esbuild's naming beside it must
still give as ``bootstrapPyodide``, and each such function must be named as often as the patch
knows (its definition, that naming, the calls it awaits): another call would get a Promise where
it expects a value (``ASYNC_FUNCTIONS``).
"""

from __future__ import annotations

import re
from pathlib import Path

from tools.vendor_patch import PatchError, replace_once

__all__ = ["ASYNC_FUNCTIONS", "COMPILE_HINT", "PATCHES", "PatchError", "check_async_functions", "patch_pyodide"]

NEXT_TASK = "await Module.heartsNextTask?.();"
COMPILE_HINT = "//# allFunctionsCalledOnLoad\n"
FACTORY = "async function _createPyodideModule(moduleArg={}){"

# {file: [(Pyodide's text, the patched text)]}
PATCHES: dict[str, list[tuple[str, str]]] = {
    "pyodide.asm.mjs": [
        (FACTORY, COMPILE_HINT + FACTORY),  # the file's first line (test_platform checks it)
        (
            "function receiveInstance(instance,module){",
            "async function receiveInstance(instance,module){",
        ),
        (
            "assignWasmExports(wasmExports);updateGOT(origExports);LDSO.init();loadDylibs();"
            "updateMemoryViews();return wasmExports}",
            f"assignWasmExports(wasmExports);{NEXT_TASK}updateGOT(origExports);{NEXT_TASK}"
            f"LDSO.init();loadDylibs();updateMemoryViews();{NEXT_TASK}return wasmExports}}",
        ),
    ],
    "pyodide.mjs": [
        (
            "function Ae(e,t,n){let i=e.API,s;return t&&(s=i.restoreSnapshot(t)),",
            "async function Ae(e,t,n){let i=e.API,s;return t&&(s=i.restoreSnapshot(t),await e.heartsNextTask?.()),",
        ),
        ("let a=Ae(r,s,t);", "let a=await Ae(r,s,t);"),
    ],
}


# The functions the patch makes async, by file: {name in the file: (the function's own name, how
# many times the file names it)}.
ASYNC_FUNCTIONS: dict[str, dict[str, tuple[str, int]]] = {
    # definition, esbuild's naming o(Ae,"bootstrapPyodide"), the one call (awaited: "let a=await Ae(")
    "pyodide.mjs": {"Ae": ("bootstrapPyodide", 3)},
    # Emscripten's own name: definition, receiveInstantiationResult's return, instantiateWasm's resolve
    "pyodide.asm.mjs": {"receiveInstance": ("receiveInstance", 3)},
}


def check_async_functions(name: str, text: str) -> None:
    """:class:`PatchError`, with what to look at, unless each of ``ASYNC_FUNCTIONS[name]`` is in
    ``text`` (the file ``name``) what the patch takes it for, named as often as it knows."""
    for short, (real, uses) in ASYNC_FUNCTIONS.get(name, {}).items():
        if short != real:  # a minified name: esbuild keeps the real one beside it
            named = re.findall(rf'[\w$]+\(([\w$]+),"{real}"\)', text)
            if named != [short]:
                raise PatchError(
                    f"{name}: the patch takes {short!r} for Pyodide's {real}, which is minified as "
                    f"{', '.join(map(repr, named)) or 'nothing'} in this file (another Pyodide build): find the "
                    "patch's steps in it, then update PATCHES and ASYNC_FUNCTIONS in tools/pyodide_patch.py"
                )
        found = len(re.findall(rf"(?<![\w$.]){re.escape(short)}(?![\w$])", text))
        if found != uses:
            raise PatchError(
                f"{name}: {short!r} ({real}) is named {found} times, the patch knows {uses}: it makes {real} "
                "async, so a call it does not await would get a Promise; see ASYNC_FUNCTIONS in "
                "tools/pyodide_patch.py"
            )


def patch_pyodide(folder: Path) -> list[Path]:
    """Patch the files of ``PATCHES`` in ``folder`` (a copy of Pyodide's); returns their paths."""
    patched = []
    for name, pairs in PATCHES.items():
        path = folder / name
        text = path.read_text(encoding="utf-8")
        check_async_functions(name, text)
        for old, new in pairs:
            text = replace_once(text, old, new, where=name, see="tools/pyodide_patch.py")
        path.write_text(text, encoding="utf-8")
        patched.append(path)
    return patched
