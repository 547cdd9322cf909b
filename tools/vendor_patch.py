"""What the build's patches of vendor files share: each replaces a pinned passage that must occur
exactly once, and stops the build with :class:`PatchError` when it does not (another version of
the package: check whether the patch is still needed, then update its passages).

The patch: ``TRYSTERO_PATCHES`` in ``tools/build.py`` (Trystero); what the site relies on in vendor
code it does not patch is pinned the same way (tools/vendor_pins.py).
"""

from __future__ import annotations

__all__ = ["PatchError", "find_once", "replace_once"]


class PatchError(RuntimeError):
    """A pinned passage of a vendor file is not there exactly once."""


def find_once(text: str, passage: str, *, where: str, see: str, what: str = "a pinned passage") -> None:
    """:class:`PatchError` naming ``where`` (the file) and ``see`` (the pin's home) unless
    ``passage`` occurs exactly once in ``text``."""
    count = text.count(passage)
    if count != 1:
        raise PatchError(
            f"{where}: {what} is not there once (found {count} times; see {see}): {passage.strip()[:60]!r}"
        )


def replace_once(text: str, old: str, new: str, *, where: str, see: str) -> str:
    """``text`` with ``old`` replaced by ``new``; :class:`PatchError` (:func:`find_once`) unless
    ``old`` occurs exactly once."""
    find_once(text, old, where=where, see=see, what="a passage to patch")
    return text.replace(old, new)
