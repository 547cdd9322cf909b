"""Undo in the toolbar: take back the player's last card or pass, and the bots' replies after it.
A forced card (the only legal one) is no decision: Undo goes back past it to the player's last
real one (:func:`hearts.undo.undo_decision`), and a forced card then waits for the player's move
instead of playing itself again (``on_undone``).

The engine rebuilds the record without that decision (:func:`hearts.undo.undo_decision`); the game
then counts as practice, so a game that still counts asks first, and a result that has been
counted is never taken back. Not offered at an online table. Registers ``undo`` and ``undo-now``
and keeps the toolbar button enabled only when there is something to take back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from hearts import Seat, match_from_record, match_to_record

from ..core.commands import Commands
from ..core.html import esc
from ..core.i18n import t
from ..data.session import Mode, Session
from ..screen import page
from ..screen.dialogs import Dialogs
from .door import SessionDoor
from .loop import Moment
from .view import TableView

__all__ = ["TakeBack", "TableDoor"]

ME = Seat.SOUTH


class TableDoor(SessionDoor, Protocol):
    """What Undo needs of the table (:class:`~hearts_web.table.loop.TableLoop`)."""

    def enter(self, session: Session) -> None: ...

    def save(self) -> None: ...

    def watch(self, callback: Callable[[Moment], None]) -> None: ...


class TakeBack:
    def __init__(
        self,
        commands: Commands,
        table: TableDoor,
        view: TableView,
        dialogs: Dialogs,
        on_undone: Callable[[], None] = lambda: None,
    ) -> None:
        self.table, self.view, self.dialogs, self.on_undone = table, view, dialogs, on_undone
        commands.add("undo", lambda _: self.undo())
        commands.add("undo-now", lambda _: self.undo_now())
        table.watch(self._offer)

    def _offer(self, moment: Moment) -> None:
        """The button works when the player has something to take back (not while a game comes
        to the table: only once the player is asked, or after a move)."""
        page.offer_undo(moment is not Moment.ENTERED and self.can_undo())

    def local(self) -> Session | None:
        """The session on this screen's own table (not a guest's seat at someone else's)."""
        session = self.table.session
        return session if session is not None and session.state.mode is not Mode.ONLINE else None

    def can_undo(self) -> bool:
        from hearts.undo import undo_last  # the same answer as undo_decision, without replaying

        session = self.local()
        return (
            session is not None
            and not session.state.counted
            and undo_last(match_to_record(session.match), ME) is not None
        )

    def undo_now(self) -> None:
        self.dialogs.close()
        self.undo(confirmed=True)

    def undo(self, confirmed: bool = False) -> None:
        """Take back the player's last card or pass, and the bots' replies after it. A game that
        still counts asks first: it becomes practice (not counted, a challenge result not sent)."""
        from hearts.undo import undo_decision

        if self.table.session is not None and self.table.session.state.mode is Mode.ONLINE:
            self.view.show_error(t("undo_online"))
            return
        session = self.local()
        if session is not None and session.state.counted:
            self.view.show_error(t("undo_counted"))  # a counted result is never taken back
            return
        record = undo_decision(match_to_record(session.match), ME) if session is not None else None
        if session is None or record is None:
            self.view.show_error(t("undo_nothing"))
            return
        if not session.state.practice and not confirmed:
            self.dialogs.open(
                t("undo"),
                f'<p>{esc(t("undo_confirm"))}</p><div class="dlg-actions">'
                '<button type="button" class="secondary" data-action="close-dialog" '
                f"autofocus>{esc(t('undo_keep'))}</button>"
                f'<button type="button" class="primary" data-action="undo-now">{esc(t("undo"))}</button></div>',
            )
            return
        session.match = match_from_record(record)
        if not session.state.practice:
            session.state.practice = True
            self.view.toast(t("undo_practice"), seconds=4)
        self.table.save()
        self.on_undone()  # no card plays itself at the decision given back
        self.table.enter(session)  # a challenge game's bots keep the original match's seeds
