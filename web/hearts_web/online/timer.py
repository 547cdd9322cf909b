"""The online table's turn timer: how long a person may take for a move, whose time is up, and the
seats a bot plays for until their person takes them back. Pure: the clock is passed in.

The host picks the limit (:data:`~.messages.TIMER_CHOICES`, seconds; 0: off). When the table asks a
person (the host at its screen or a connected guest), :meth:`TurnTimer.ask` starts that seat's
countdown; the host's heartbeat calls :meth:`TurnTimer.tick`, which finds the seats whose time is
up. Such a seat is played by a bot from then on (``auto``): that move and every later one, until
its person answers first (the next tap) or says they are back (:meth:`TurnTimer.back`). A pass is
one move. A forced card that the person's page plays by itself (``automatic``) is no tap: while a
bot plays for the seat it counts as the bot's move. :class:`TimedSeat` is a person's seat of the
table loop under this rule.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from hearts import SEATS, Action, IllegalAction, Seat, SeatView
from hearts.table import Player

from .messages import Turn

__all__ = ["TurnTimer", "TimedSeat", "LATE", "BACK"]

LATE, BACK = "late", "back"  # what a seat's signal says: its time is up (a bot plays), or its person is back


class TurnTimer:
    """Deadlines of the seats the table waits for, and the seats a bot plays for (``auto``).
    ``on_change()`` is called whenever either changes (the host tells everyone)."""

    def __init__(self, limit: int = 0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.clock = clock
        self.deadlines: dict[Seat, float] = {}
        self.auto: set[Seat] = set()
        self.on_change: Callable[[], None] = lambda: None
        self._signals: dict[Seat, asyncio.Future[str]] = {}

    def _signal(self, seat: Seat) -> asyncio.Future[str]:
        future: asyncio.Future[str] = asyncio.get_event_loop().create_future()
        self._signals[seat] = future
        return future

    def _fire(self, seat: Seat, what: str) -> None:
        future = self._signals.pop(seat, None)
        if future is not None and not future.done():
            future.set_result(what)

    def ask(self, seat: Seat) -> asyncio.Future[str]:
        """The table asks the person at ``seat``: a signal that says :data:`LATE` when the time is
        up (at once while a bot plays for the seat). With the timer off it never does."""
        signal = self._signal(seat)
        if seat in self.auto:
            signal.set_result(LATE)
        elif self.limit:
            self.deadlines[seat] = self.clock() + self.limit
            self.on_change()
        return signal

    def watch(self, seat: Seat) -> asyncio.Future[str]:
        """A signal that says :data:`BACK` when the person takes the seat back (:meth:`back`)."""
        return self._signal(seat)

    def answered(self, seat: Seat, by_person: bool) -> None:
        """The seat's move is made: by its person (who has the seat back), or by the bot."""
        self._signals.pop(seat, None)
        changed = self.deadlines.pop(seat, None) is not None
        if by_person and seat in self.auto:
            self.auto.discard(seat)
            changed = True
        if changed:
            self.on_change()

    def tick(self) -> list[Seat]:
        """The seats whose time is up now: a bot plays for them from now on."""
        now = self.clock()
        late = [s for s, deadline in self.deadlines.items() if now >= deadline]
        for seat in late:
            del self.deadlines[seat]
            self.auto.add(seat)
            self._fire(seat, LATE)
        if late:
            self.on_change()
        return late

    def back(self, seat: Seat) -> bool:
        """The person at ``seat`` takes it back: no bot plays for it any more (a move the bot is
        still thinking about goes back to the person, with a fresh countdown)."""
        if seat not in self.auto:
            return False
        self.auto.discard(seat)
        self._fire(seat, BACK)
        self.on_change()
        return True

    def set_limit(self, seconds: int) -> None:
        """A new limit, for the questions asked from now on."""
        self.limit = seconds
        if not seconds and self.deadlines:
            self.deadlines.clear()
        self.on_change()

    def left(self, seat: Seat) -> float | None:
        """Seconds left for the person at ``seat`` (``None``: the table does not wait for it)."""
        deadline = self.deadlines.get(seat)
        return None if deadline is None else max(0.0, deadline - self.clock())

    def message(self) -> Turn:
        """The timer as every guest sees it."""
        a, b, c, d = (None if (x := self.left(s)) is None else int(1000 * x) for s in SEATS)
        w, x, y, z = (s in self.auto for s in SEATS)
        return Turn(self.limit, (a, b, c, d), (w, x, y, z))


class TimedSeat:
    """A person's seat under the turn timer. Asks ``person``; when the time is up, ``stand_in``
    plays the move while the person may still answer first (the person's answer wins and takes the
    seat back). ``present()``: the person is connected (else ``person`` decides alone: a guest's
    seat plays its own stand-in then). ``on_lost()``: the bot's move was taken, not the person's.
    ``person.automatic`` (when it has one) says that its last answer was made by its page alone."""

    def __init__(
        self,
        person: Player,
        stand_in: Player,
        timer: TurnTimer,
        present: Callable[[], bool] = lambda: True,
        on_lost: Callable[[], None] = lambda: None,
    ) -> None:
        self.person, self.stand_in, self.timer, self.present, self.on_lost = person, stand_in, timer, present, on_lost
        self._by: Player = person

    async def choose(self, view: SeatView) -> Action:
        if not self.present():
            self._by = self.person
            return await self.person.choose(view)
        seat = view.seat
        person = asyncio.ensure_future(self.person.choose(view))
        bot: asyncio.Future[Action] | None = None
        signal = self.timer.ask(seat)
        try:
            while True:
                pending: list[asyncio.Future[Action] | asyncio.Future[str]] = [person, signal]
                if bot is not None:
                    pending.append(bot)
                await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
                if person.done():
                    self._by = self.person
                    if seat in self.timer.auto and getattr(self.person, "automatic", False):
                        self.timer.answered(seat, by_person=False)  # the page's forced card: the bot's move
                        self.on_lost()
                    else:
                        self.timer.answered(seat, by_person=True)
                    return person.result()
                if bot is not None and bot.done():
                    self._by = self.stand_in
                    self.timer.answered(seat, by_person=False)
                    self.on_lost()
                    return bot.result()
                if signal.result() == LATE:
                    bot = asyncio.ensure_future(self.stand_in.choose(view))
                    signal = self.timer.watch(seat)
                else:  # the person is back before the bot moved: their move again
                    if bot is not None:
                        bot.cancel()
                    bot = None
                    signal = self.timer.ask(seat)
        finally:
            for task in (person, bot, signal):
                if task is not None and not task.done():
                    task.cancel()

    def refused(self, action: Action, error: IllegalAction) -> None:
        self._by.refused(action, error)
