"""The toolbar's plain commands: the last trick, the score sheet, fullscreen.

Each is one registration here and one button in index.html (the other toolbar buttons belong to
their features: hint, undo, daily, online, statistics, settings, new match).
"""

from __future__ import annotations

from ..core.commands import Commands
from ..core.dom import tell
from ..screen.dialogs import Dialogs
from .door import SessionDoor

__all__ = ["Toolbar"]


class Toolbar:
    def __init__(self, commands: Commands, table: SessionDoor, dialogs: Dialogs) -> None:
        self.table, self.dialogs = table, dialogs
        commands.add("last-trick", lambda _: self.last_trick())
        commands.add("scores", lambda _: self.scores())
        commands.add("fullscreen", lambda _: self.fullscreen())

    def last_trick(self) -> None:
        session = self.table.session
        if session is not None:
            self.dialogs.last_trick(session.match.last_trick)

    def scores(self) -> None:
        session = self.table.session
        if session is not None:
            self.dialogs.scores(session.match.rules.target, session.match.score_sheet)

    def fullscreen(self) -> None:
        """Fullscreen on or off (the page does it: it alone has the screen)."""
        tell("fullscreen")
