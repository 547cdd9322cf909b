"""How this page's connection to the table is doing, in words a player can act on. Pure: no DOM.

Three things can keep players apart, and each has its own remedy:

- **No relay answers** (:attr:`Trouble.NO_RELAY`): the browsers cannot find each other at all. Said
  at once when every relay has refused, else after :data:`RELAY_WAIT` seconds without one.
- **No path** (:attr:`Trouble.NO_PATH`): the browsers found each other (offer and answer went
  through) but no network path joins them: a NAT or firewall on the way, and no TURN server that
  gets around it.
- Nobody answers although relays work: the host is not (yet) at the table; a guest waits for it.

Each is named only once it is known. Until then a guest reads what is being tried
(:class:`Search`, :func:`search_phase`): the relays, the room, a connection to a browser that
answered.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from ..core.html import esc
from ..core.i18n import t

__all__ = [
    "RelayState",
    "Trouble",
    "Search",
    "ConnectionWatch",
    "RELAY_WAIT",
    "SILENT_AFTER",
    "search_phase",
    "status_html",
    "trouble_html",
    "search_html",
]

RELAY_WAIT = 15.0  # seconds without any relay before the page says so
SILENT_AFTER = 20.0  # seconds in a room that nobody answered before a guest reads that the host is silent


@dataclass(frozen=True)
class RelayState:
    """The signalling relays as the page last saw them: ``open`` of ``total`` connected, ``trying``
    of them still on their first try (nothing known of them yet); ``all_failed``: every one has
    failed since any last worked (nobody can be introduced)."""

    open: int
    total: int
    trying: int = 0
    all_failed: bool = False

    @property
    def connecting(self) -> bool:
        """None is connected yet and some are still on their first try."""
        return self.open == 0 and self.trying > 0


class Trouble(Enum):
    NONE = "none"
    NO_RELAY = "relays"
    NO_PATH = "no-path"


class Search(Enum):
    """What a guest looking for its table is doing, while nothing is known to be wrong."""

    RELAYS = "relays"  # connecting to the relays
    LOOKING = "looking"  # a relay works: asking the room for the table
    CONNECTING = "connecting"  # a browser answered (offer and answer went through): a path is being tried
    SILENT = "silent"  # relays work and nobody answered for SILENT_AFTER seconds


@dataclass
class ConnectionWatch:
    """Follows the relays' state and failed connections; :meth:`trouble` says what is known to be
    wrong now (nothing before the relays' first report: the page has not tried them yet)."""

    clock: Callable[[], float] = time.monotonic
    relays: RelayState | None = None
    since: float = field(default=-1.0)  # when the relays were last all closed (or first reported)
    no_path: bool = False

    def relays_changed(self, state: RelayState) -> None:
        if state.open == 0 and (self.relays is None or self.relays.open > 0):
            self.since = self.clock()
        self.relays = state

    def path_failed(self) -> None:
        """Offer and answer went through with a peer, and no network path was found."""
        self.no_path = True

    def connected(self) -> None:
        """A peer this page was looking for is connected: any path trouble is over."""
        self.no_path = False

    def trouble(self) -> Trouble:
        state = self.relays
        if state is not None and state.open == 0 and (state.all_failed or self.clock() - self.since >= RELAY_WAIT):
            return Trouble.NO_RELAY
        return Trouble.NO_PATH if self.no_path else Trouble.NONE


def search_phase(relays: RelayState | None, answered: bool, looked_for: float) -> Search:
    """Where a guest's search stands: ``answered``: a browser in the room answered this search
    (offer and answer went through); ``looked_for``: seconds since a relay first worked for it
    (negative: none has yet). Once a relay has worked, a moment without one (a fresh join) does not
    take the search back to the relays: the relays' line says how many are connected, and a
    lasting loss is :attr:`Trouble.NO_RELAY`."""
    if answered:
        return Search.CONNECTING
    if looked_for < 0:
        return Search.RELAYS
    return Search.SILENT if looked_for >= SILENT_AFTER else Search.LOOKING


def status_html(state: RelayState | None) -> str:
    """ "Connected to 5 of 8 relays" (updated in place as relays come and go); "Connecting to the
    relays…" while none is connected and some are still on their first try."""
    if state is None or state.connecting:
        text = t("online_relays_wait")
    else:
        text = t("online_relays", n=state.open, total=state.total)
    count = "" if state is None else f' data-relays-open="{state.open}" data-relays-total="{state.total}"'
    return f'<p class="note relay-status" data-relay-status{count} aria-live="polite">{esc(text)}</p>'


def trouble_html(trouble: Trouble, has_turn: bool, host: bool) -> str:
    """What failed and what to try, for a guest searching the table or for its host."""
    if trouble is Trouble.NONE:
        return ""
    if trouble is Trouble.NO_RELAY:
        lines = [t("online_no_relay_host" if host else "online_no_relay"), t("online_no_relay_try")]
    else:
        lines = [
            t("online_no_path_host" if host else "online_no_path"),
            t("online_no_path_turn" if has_turn else "online_no_path_no_turn"),
        ]
    body = "".join(f"<p>{esc(line)}</p>" for line in lines)
    return f'<div class="online-trouble" role="alert" data-online-trouble="{trouble.value}">{body}</div>'


def search_html(phase: Search, trouble: Trouble, has_turn: bool) -> str:
    """What a guest's search is doing now, or what keeps it from the table once that is known."""
    if trouble is not Trouble.NONE:
        return trouble_html(trouble, has_turn, host=False)
    if phase is Search.RELAYS:
        return ""  # the relays' line says it
    if phase is Search.LOOKING:
        text = t("online_looking")
    elif phase is Search.CONNECTING:
        text = t("online_found")
    else:
        text = t("online_searching_host")
    return f'<p class="note" data-online-search="{phase.value}" aria-live="polite">{esc(text)}</p>'
