"""The features a first visit does not use, loaded when one of them is first opened.

Their Python (``LAZY_MODULES`` in ``tools/build.py``: the online table's panel, the hand review,
challenge links, and whatever only they reach) is not in the archive the page
starts with (``app.zst``) but in a second one, ``extras.zst``, which the service worker precaches
with everything else, so they open offline too. :func:`load` fetches and unpacks it once
(``globalThis.heartsLoadExtras``, from ``runtime.mjs``); after it a normal import statement works.

A module of the first archive imports one of these only inside a function that runs after
``await load()`` (the build fails on an import at module level). :func:`later` is the usual way:
the feature's entry actions are registered as placeholders, and the first press loads the
archive, makes the feature (which registers its real handlers) and runs the press again.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable

from ..core.commands import Commands, Press
from ..core.dom import window
from . import page

__all__ = ["load", "later", "loaded"]


class _Archive:
    loaded = False


def loaded() -> bool:
    return _Archive.loaded


async def load() -> None:
    """Fetch and unpack the second archive (once; a failed fetch is tried again next time)."""
    if _Archive.loaded:
        return
    await window.heartsLoadExtras()
    # The import system listed the folders before the unpacking: forget those lists. (Not
    # importlib.invalidate_caches(): it would import importlib.metadata, which is not shipped.)
    for finder in list(sys.path_importer_cache.values()):
        if finder is not None and hasattr(finder, "invalidate_caches"):
            finder.invalidate_caches()
    _Archive.loaded = True


def later(commands: Commands, actions: Iterable[str], make: Callable[[], object]) -> None:
    """``actions`` open a feature of the second archive: the first press of one of them loads the
    archive, calls ``make`` (which imports the feature's module and makes it: its registrations
    replace these placeholders) and runs the press."""

    async def first(press: Press) -> None:
        await load()
        if commands.is_placeholder(press.action):  # (a second press while loading finds it made)
            make()
        commands.run(press)

    for action in actions:
        commands.add(action, lambda press: page.guard(first(press)), placeholder=True)
