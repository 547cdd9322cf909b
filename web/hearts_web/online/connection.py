"""How this page's connection to the table is doing, in words a player can act on. Pure: no DOM.

Three things can keep players apart, and each has its own remedy:

- **No relay answers** (:attr:`Trouble.NO_RELAY`): the browsers cannot find each other at all. Said
  at once when every relay has refused, else after :data:`RELAY_WAIT` seconds without one.
- **No path** (:attr:`Trouble.NO_PATH`): the browsers found each other (offer and answer went
  through) but no network path joins them: a NAT or firewall on the way, and no TURN server that
  gets around it.
- Nobody answers although relays work: the host is not (yet) at the table; a guest waits for it
  (:mod:`.guest_side` says so).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from ..core.html import esc
from ..core.i18n import t

__all__ = ["RelayState", "Trouble", "ConnectionWatch", "RELAY_WAIT", "status_html", "trouble_html"]

RELAY_WAIT = 15.0  # seconds without any relay before the page says so


@dataclass(frozen=True)
class RelayState:
    """The signalling relays as the page last saw them: ``open`` of ``total`` connected;
    ``all_failed``: every one has failed since any last worked (nobody can be introduced)."""

    open: int
    total: int
    all_failed: bool = False


class Trouble(Enum):
    NONE = "none"
    NO_RELAY = "relays"
    NO_PATH = "no-path"


@dataclass
class ConnectionWatch:
    """Follows the relays' state and failed connections; :meth:`trouble` says what is wrong now."""

    clock: Callable[[], float] = time.monotonic
    relays: RelayState | None = None
    since: float = field(default=-1.0)  # when the relays were last all closed (or the watch began)
    no_path: bool = False

    def __post_init__(self) -> None:
        self.since = self.clock()

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
        none_open = state is None or state.open == 0
        if none_open and ((state is not None and state.all_failed) or self.clock() - self.since >= RELAY_WAIT):
            return Trouble.NO_RELAY
        return Trouble.NO_PATH if self.no_path else Trouble.NONE


def status_html(state: RelayState | None) -> str:
    """ "Connected to 5 of 8 relays" (updated in place as relays come and go)."""
    if state is None:
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
