"""What the build's patches of vendor files share: each replaces a pinned passage that must occur
exactly once, and stops the build with :class:`PatchError` when it does not (another version of
the package: check whether the patch is still needed, then update its passages).

The patches: ``tools/csp_patch.py`` (PyScript), ``tools/pyodide_patch.py`` (Pyodide) and
``TRYSTERO_PATCHES`` in ``tools/build.py`` (Trystero).
"""

from __future__ import annotations

__all__ = ["PatchError", "replace_once"]


class PatchError(RuntimeError):
    """A pinned passage of a vendor file is not there exactly once."""


def replace_once(text: str, old: str, new: str, *, where: str, see: str) -> str:
    """``text`` with ``old`` replaced by ``new``; :class:`PatchError` naming ``where`` (the file)
    and ``see`` (the patch's home) unless ``old`` occurs exactly once."""
    count = text.count(old)
    if count != 1:
        raise PatchError(
            f"{where}: a passage to patch is not there once (found {count} times; see {see}): {old.strip()[:60]!r}"
        )
    return text.replace(old, new)
