"""What the site relies on in vendor code that it does not patch, checked by the build.

A vendor that changes one of these would not break the build by itself, only a player's page
later; so the build looks for each in the files it ships and stops with the reason when one is not
there (tests/test_vendor_couplings.py runs the same checks, and watches them fail on altered
copies of the vendor files):

* **Trystero's error wording** (``TRYSTERO_WORDS`` in ``web/online/transport.js``): the transport
  tells "offer and answer went through, no path" and "the handshake timed out" (the half-open
  rejoin) apart only by the words of Trystero's ``onJoinError``. Each must be in Trystero's code
  exactly once: a reworded message would silently turn the half-open rejoin off.
* **Pyodide's snapshot options** (``_makeSnapshot``, ``_loadSnapshot``: private, undocumented),
  which the runtime passes to ``loadPyodide`` (web/runtime/python.mjs), and the
  ``makeMemorySnapshot`` it calls: the runtime must still pass them, and Pyodide must still read
  them where it did (``PYODIDE_SNAPSHOT``). Renamed options would be ignored: every start would
  then be a plain one, or the restore would fail.

The patches of vendor files (``TRYSTERO_PATCHES`` in tools/build.py) pin their passages themselves
(tools/vendor_patch.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tools.vendor_patch import PatchError, find_once

__all__ = ["PYODIDE_SNAPSHOT", "TRANSPORT", "check_pyodide_snapshot", "check_trystero_words", "trystero_words"]

TRANSPORT = Path("web") / "online" / "transport.js"  # from the repository's root
WORDS = re.compile(r"^export const TRYSTERO_WORDS = (\{[^\n]*\});$", re.M)
# {file of Pyodide's: where it reads what the runtime passes or calls (patterns, each found at least once)}
PYODIDE_SNAPSHOT: dict[str, tuple[str, ...]] = {
    # loadPyodide awaits the snapshot it is given: the runtime hands it a promise, read and checked meanwhile
    "pyodide.mjs": (r"await [\w$]+\._loadSnapshot\b",),
    "pyodide.asm.mjs": (r"\bAPI\.config\._makeSnapshot\b", r"\bstatic makeMemorySnapshot\("),
}
# What the runtime's template passes and calls (each exactly once)
RUNTIME_USES = ("{ _makeSnapshot: true,", "py.makeMemorySnapshot()", "{ _loadSnapshot: memory,")


def trystero_words(transport_js: str) -> dict[str, str]:
    """The words of Trystero's errors that the transport acts on (its ``TRYSTERO_WORDS``)."""
    found = WORDS.findall(transport_js)
    if len(found) != 1:
        raise PatchError(f"{TRANSPORT}: `export const TRYSTERO_WORDS = {{...}};` (JSON, one line) not found once")
    words: dict[str, str] = json.loads(found[0])
    return words


def check_trystero_words(transport_js: str, packages: dict[str, Path]) -> None:
    """Each of the transport's words is in the ``.mjs`` files of Trystero's ``packages`` (name ->
    folder, as bundled) exactly once."""
    code = "".join(p.read_text(encoding="utf-8") for folder in packages.values() for p in sorted(folder.rglob("*.mjs")))
    for use, words in trystero_words(transport_js).items():
        count = code.count(words)
        if count != 1:
            raise PatchError(
                f"Trystero ({', '.join(packages)}) says {words!r} {count} times, where {TRANSPORT} expects it "
                f"once to tell {use!r} (onJoinError): find Trystero's new words, then update TRYSTERO_WORDS"
            )


def check_pyodide_snapshot(folder: Path, runtime: str) -> None:
    """Pyodide in ``folder`` still reads the snapshot options and has ``makeMemorySnapshot``, and
    the runtime's Python start ``runtime`` (web/runtime/python.mjs) still passes and calls them."""
    for name, patterns in PYODIDE_SNAPSHOT.items():
        text = (folder / name).read_text(encoding="utf-8")
        for pattern in patterns:
            if not re.search(pattern, text):
                raise PatchError(
                    f"Pyodide's {name} has no {pattern!r}: the runtime (web/runtime/python.mjs) relies on it for the "
                    "snapshot start; see PYODIDE_SNAPSHOT in tools/vendor_pins.py"
                )
    for use in RUNTIME_USES:
        find_once(runtime, use, where="web/runtime/python.mjs", see="RUNTIME_USES in tools/vendor_pins.py")
