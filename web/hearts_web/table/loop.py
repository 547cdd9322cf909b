"""The table on this screen: the session on it, the one table loop that plays it, and what the page
does after every action.

:class:`TableLoop` runs :func:`hearts.table.play` over four seats (this screen's person and three
bots, or the seats an online host hands over) and hears the table as its
:class:`~hearts.table.Listener`: it saves after every action, keeps the statistics, has the
:class:`~hearts_web.table.view.TableView` animate the events, and shows the hand summary before
the next hand is dealt. Features reach it through the few operations they need (``session``,
``enter``, ``save``...); they learn what happens through :meth:`TableLoop.watch`,
:meth:`TableLoop.on_asked` and the ending they register for their mode (:meth:`TableLoop.ending`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from enum import Enum

from hearts import Deal, Event, IllegalAction, Match, PassDirection, Phase, Seat, SeatView
from hearts.table import Game, Listener, Player, play

from ..core.dom import local_date
from ..core.refusals import explain
from ..data.registry import STATS, SavedData
from ..data.session import Mode, Session, Snapshot
from ..data.stats import note_events
from ..screen import page
from ..screen.dialogs import Dialogs
from .bot_seats import BotSeats
from .players import AskedSeat, HumanPlayer
from .view import TableView

__all__ = ["TableLoop", "Moment", "Ending", "ME"]

ME = Seat.SOUTH
Ending = Callable[[Session, bool], Awaitable[None]]  # (the game, whether it was already over when loaded)


class Moment(Enum):
    """What just happened at the table (for :meth:`TableLoop.watch`)."""

    ENTERED = "entered"  # a game came to the table
    ASKED = "asked"  # the table asks this screen's person
    PLAYED = "played"  # actions were drawn, or a game ended


class TableLoop(Listener):
    """``par(date)`` is the daily's par once known (for the mode badge)."""

    def __init__(
        self, view: TableView, dialogs: Dialogs, saved: SavedData, bots: BotSeats, par: Callable[[str], int | None]
    ) -> None:
        self.view, self.dialogs, self.saved, self.bots, self.par = view, dialogs, saved, bots, par
        self.human = HumanPlayer(self._asked, self._refused, on_passed=bots.hurry)
        self._answering: AskedSeat = self.human
        self._session: Session | None = None
        self._extra: Listener | None = None  # an online host's table hears every action too
        self._task: asyncio.Task[None] | None = None
        self._watchers: list[Callable[[Moment], None]] = []
        self._asked_hooks: list[Callable[[SeatView], None]] = []
        self._endings: dict[Mode, Ending] = {}

    @property
    def session(self) -> Session | None:
        """The game on this table (``None`` at someone else's online table)."""
        return self._session

    @property
    def answering(self) -> AskedSeat:
        """Whom this screen's taps answer: the person's seat here, or a guest's seat elsewhere."""
        return self._answering

    def watch(self, callback: Callable[[Moment], None]) -> None:
        self._watchers.append(callback)

    def on_asked(self, callback: Callable[[SeatView], None]) -> None:
        """``callback(view)`` whenever the table asks this screen's player (here or as a guest)."""
        self._asked_hooks.append(callback)

    def ending(self, mode: Mode, end: Ending) -> None:
        """What ends a game of ``mode`` (a match ends with its summary and result)."""
        self._endings[mode] = end

    def _tell(self, moment: Moment) -> None:
        for callback in self._watchers:
            callback(moment)

    # ------------------------------------------------------------------ entering and leaving
    def enter(self, session: Session, players: list[Player] | None = None, extra: Listener | None = None) -> None:
        """Put ``session`` on the table and (re)start the table loop for it with ``players`` (this
        screen's person and bots by default); ``extra`` hears every action as well. A hold hand
        that has not begun says that nobody passes (whatever brought it: a new match, a daily or a
        challenge on a hold day, a reload, an undo)."""
        self._cancel()
        self._session, self._extra, self._answering = session, extra, self.human
        self.view.clear()  # a claim is offered again when the engine says so, on the player's turn
        self._tell(Moment.ENTERED)
        self.view.show(session.snapshot())
        self.show_badge()
        self.view.focus_first_card()
        if session.match.pass_direction is PassDirection.HOLD and not session.match.hand.plays:
            self.view.hold_notice()
        seats = players if players is not None else self.bots.seats_for(session, self.human)
        self._task = asyncio.ensure_future(self._run(session, seats))

    def enter_guest(self, seat: AskedSeat) -> None:
        """A guest at someone else's online table: no game here; the host's states are drawn as
        they come (:meth:`show_guest`) and the taps answer ``seat``."""
        self._cancel()
        self._session, self._extra, self._answering = None, None, seat
        self.view.clear()  # a guest's moves are the host's to judge: no claim, no undo
        self._tell(Moment.ENTERED)
        self.show_badge()

    def show_guest(self, snap: Snapshot, asked: SeatView | None) -> None:
        """A state the host sent this guest; ``asked``: the view it must answer, if any."""
        self.view.show(snap, asked)
        if asked is not None:
            for hook in self._asked_hooks:
                hook(asked)

    def stop(self) -> None:
        """Another tab owns the game now: no more table."""
        self._cancel()
        self._session = None

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._task = None

    # ------------------------------------------------------------------ the session
    def save(self) -> None:
        if self._session is not None:
            self.saved.save_game(self._session)

    def mark_practice(self) -> None:
        """The game counts as practice from now on (a hint was used)."""
        session = self._session
        if session is not None and not session.state.practice:
            session.state.practice = True
            self.save()
            self.show_badge()

    def show_badge(self) -> None:
        state = self._session.state if self._session is not None else None
        date = state.date if state is not None else None
        page.render_badge(state, self.par(date) if date is not None else None)

    def claimable(self) -> bool:
        """The person may claim the rest of the hand here: the engine says no trick can change it
        (not online, nor in the guided hand, where the player plays every card)."""
        session = self._session
        return (
            session is not None
            and session.state.mode not in (Mode.ONLINE, Mode.GUIDED)
            and self.human.waiting
            and session.match.can_claim(ME)
        )

    # ------------------------------------------------------------------ the loop
    async def _run(self, session: Session, players: list[Player]) -> None:
        try:
            resumed_over = session.match.is_over
            await play(session.match, players, self)
            if session is self._session:
                end = self._endings.get(session.state.mode)
                await (end(session, resumed_over) if end is not None else self._match_over(session, resumed_over))
                if session is self._session:
                    self._tell(Moment.PLAYED)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a friendly message, keep the page alive
            page.show_failure(exc)

    async def _match_over(self, session: Session, resumed: bool) -> None:
        if not resumed:
            await self.hand_summary(session)  # the last hand's summary, then the result
        self.view.show(session.snapshot())
        m = session.match
        self.dialogs.match_over(m.winners, m.scores, m.score_sheet, session.state.practice, m.rules.target)

    def _asked(self, view: SeatView) -> None:
        if self._session is None:
            return
        self.view.show(self._session.snapshot(), view, claimable=self.claimable())
        self._tell(Moment.ASKED)
        if view.phase is Phase.PLAYING:
            self.view.maybe_focus_hand()
        for hook in self._asked_hooks:
            hook(view)

    def _refused(self, error: IllegalAction) -> None:
        self.view.show_error(explain(error))

    async def on_events(self, game: Game, events: list[Event]) -> None:
        session = self._session
        if session is None or game is not session.match:
            return
        counted = note_events(session, events, local_date())
        if counted is not None:
            self.saved.update(STATS, counted.add_to)
        self.save()
        await asyncio.sleep(0)  # a new browser task for the drawing: no task over 50 ms on a slow phone
        if session is not self._session:
            return
        if self._extra is not None:
            await self._extra.on_events(game, events)  # the guests see it at once
        await self.view.animate(events, session.snapshot())
        if session is self._session:
            self._tell(Moment.PLAYED)  # e.g. nothing to take back once a result is counted

    async def on_hand_over(self, game: Match) -> Deal | None:
        session = self._session
        if session is not None and game is session.match:
            await self.hand_summary(session)
        return await self._extra.on_hand_over(game) if self._extra is not None else None

    async def hand_summary(self, session: Session) -> None:
        """The hand summary; it stays open until dismissed (a reload shows it again: the match
        waits at the end of the hand until then)."""
        m = session.match
        row = m.score_sheet[-1]
        hand = m.hand_at(row.hand_number)
        self.view.show(session.snapshot())
        await asyncio.sleep(0)  # the table and then the dialog: two browser tasks on a slow phone
        if session is not self._session:
            return
        self.dialogs.hand_summary(
            row,
            [hand.trick_markers(s) for s in Seat],
            m.score_sheet,
            session.state.practice,
            last=m.is_over,
            challenge=session.deal_can_be_shared,
        )
        await self.dialogs.wait_closed()
