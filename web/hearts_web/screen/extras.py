"""The features a first visit does not use, loaded when one of them is first opened.

Their Python is not in the archive the page starts with (``app.zst``) but in two others
(``tools/build.py``): ``extras.zst`` (``LAZY_MODULES``: the hand review, challenge links, and what
only they reach), which the service worker precaches with everything else, so they open offline
too; and ``online.zst`` (``ONLINE_MODULES``: the online table's panel, the protocol, and what only
they reach), which, like the online table's JavaScript, is fetched only when a player goes online
and is not precached (it is useless offline). :func:`load` fetches and unpacks one once
(``globalThis.heartsLoadExtras``, from ``runtime.mjs``; the online archive after the extras,
whose modules it may use); after it a normal import statement works.

A module of an earlier archive imports one of a later one only inside a function that runs after
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


EXTRAS, ONLINE = "extras", "online"  # the archives' names in runtime.mjs
_BEFORE = {ONLINE: (EXTRAS,)}  # what an archive's modules may import from besides the first one
_loaded: set[str] = set()


def loaded(archive: str = EXTRAS) -> bool:
    return archive in _loaded


async def load(archive: str = EXTRAS) -> None:
    """Fetch and unpack ``archive`` and the ones it needs (each once; a failed fetch raises and
    is tried again next time: offline, the online archive is not at hand)."""
    for name in (*_BEFORE.get(archive, ()), archive):
        if name in _loaded:
            continue
        await window.heartsLoadExtras(name)
        # The import system listed the folders before the unpacking: forget those lists. (Not
        # importlib.invalidate_caches(): it would import importlib.metadata, which is not shipped.)
        for finder in list(sys.path_importer_cache.values()):
            if finder is not None and hasattr(finder, "invalidate_caches"):
                finder.invalidate_caches()
        _loaded.add(name)


def later(commands: Commands, actions: Iterable[str], make: Callable[[], object]) -> None:
    """``actions`` open a feature of the extras archive: the first press of one of them loads the
    archive, calls ``make`` (which imports the feature's module and makes it: its registrations
    replace these placeholders) and runs the press."""

    async def first(press: Press) -> None:
        await load()
        if commands.is_placeholder(press.action):  # (a second press while loading finds it made)
            make()
        commands.run(press)

    for action in actions:
        commands.add(action, lambda press: page.guard(first(press)), placeholder=True)
