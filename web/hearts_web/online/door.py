"""What the online table uses of the page: a few operations and services, handed over when a
player first goes online (:mod:`.start`). The online modules know the page only through
:class:`Door`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from hearts import SeatView
from hearts.table import Listener, Player

from ..data.registry import SavedData
from ..data.session import Mode, Session, Snapshot
from ..data.settings import Settings
from ..screen.dialogs import Dialogs
from ..table.players import AskedSeat, HumanPlayer
from ..table.view import TableView

__all__ = ["Door", "OnlineTable"]


class OnlineTable(Protocol):
    """The table of this screen (:class:`~hearts_web.table.loop.TableLoop`), as the online table uses it."""

    @property
    def human(self) -> HumanPlayer: ...

    def enter(self, session: Session, players: list[Player] | None = None, extra: Listener | None = None) -> None: ...

    def enter_guest(self, seat: AskedSeat) -> None: ...

    def show_guest(self, snap: Snapshot, asked: SeatView | None) -> None: ...

    def ending(self, mode: Mode, end: Callable[[Session, bool], Awaitable[None]]) -> None: ...

    async def hand_summary(self, session: Session) -> None: ...


@dataclass(frozen=True)
class Door:
    """``stand_in(level)``: a bot for an empty seat or an absent guest; ``settings()``: the player's
    settings (the panel's defaults); ``params``: the page's address (``?relay=``, a test relay on
    this machine); ``left()``: back to this player's own match after closing or leaving a table."""

    dialogs: Dialogs
    view: TableView
    table: OnlineTable
    saved: SavedData  # every stored key of the online table's goes through it
    stand_in: Callable[[str], Player]
    settings: Callable[[], Settings]
    params: Mapping[str, str]
    left: Callable[[], None]
