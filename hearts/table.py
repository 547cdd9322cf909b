"""The table loop: who acts next, ask that seat, apply — written once for every kind of seat.

A seat is driven by anything that implements :class:`Player` (a person at this screen, a bot,
a friend far away). :func:`play` runs a :class:`~hearts.Match` (or a single
:class:`~hearts.Hand`) over four such players until it is over; a :class:`Listener` hears every
batch of events (to animate, save or broadcast them) and decides when a finished hand gives way
to the next one. The arena, the benchmarks, the daily par, the tests and the browser all use it.

The loop is a coroutine, so it serves both worlds:

* in the browser (an asyncio event loop), a person's or a remote player's ``choose`` awaits
  input, bots hand the page a turn between slices of their search, and the seats that pass
  are asked at the same time;
* anywhere else, :func:`run_sync` runs it without an event loop as long as no seat really
  waits (bots never do): plain, fast, deterministic code for the arena and the tests.

>>> import random
>>> from hearts import Match, Rules
>>> from hearts.bots import make_bot
>>> from hearts.bots.player import BotPlayer
>>> match = Match(Rules(target=26), seed="doc")
>>> bots = [BotPlayer(make_bot("medium"), seed="doc") for _ in range(4)]
>>> run_sync(play(match, bots)).is_over
True
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Generator, Sequence
from contextvars import ContextVar
from functools import partial
from typing import Any, Protocol, TypeVar

from .actions import Action, NextHand
from .deal import Deal
from .errors import ErrorCode, IllegalAction
from .events import Event
from .hand import Hand
from .match import Match
from .phase import Phase
from .seats import Seat
from .view import SeatView

__all__ = ["Player", "Listener", "Game", "play", "run_sync", "drain", "run_steps", "Pace", "WaitedForInput"]

T = TypeVar("T")
Game = Match | Hand
Pace = Callable[[], Awaitable[None]]


class WaitedForInput(RuntimeError):
    """:func:`run_sync` was asked to run a coroutine that really waits (for a person, a message)."""


class Player(Protocol):
    """Drives one seat. ``choose`` returns the seat's next action for ``view`` (a pass while
    ``view.phase`` is ``PASSING``, else a play, or a :class:`~hearts.actions.Claim` of the rest).
    ``refused`` hears why the table did not accept an action; the table then asks again (a bot's
    refusal is a bug: it should raise)."""

    async def choose(self, view: SeatView) -> Action: ...

    def refused(self, action: Action, error: IllegalAction) -> None: ...


class Listener:
    """Hears the table. The default does nothing and deals the next hand at once."""

    async def on_events(self, game: Game, events: list[Event]) -> None:
        """After every accepted action, with what happened (the game already shows it)."""

    async def on_hand_over(self, game: Match) -> Deal | None:
        """A hand of a match is over and the next one is not dealt yet: return to deal it (with
        the next deal for a match of explicit deals that gets them one by one, else ``None``)."""
        return None


_QUIET = Listener()


async def play(game: Game, players: Sequence[Player], listener: Listener | None = None) -> Game:
    """Run ``game`` until it is over, asking ``players[seat]`` whenever ``seat`` must act."""
    if len(players) != 4:
        raise ValueError("a table needs four players, one per seat")
    hear = listener or _QUIET
    while True:
        if game.is_over:
            return game
        phase = game.phase
        if phase is Phase.HAND_OVER:
            assert isinstance(game, Match)  # a single Hand is over once it is scored
            deal = await hear.on_hand_over(game)
            await hear.on_events(game, game.apply(NextHand(deal)))
            continue
        seats = game.to_act
        if phase is Phase.PASSING:
            await _all_at_once([partial(_ask, game, seat, players[seat], hear) for seat in seats])
        else:
            await _ask(game, seats[0], players[seats[0]], hear)


async def _ask(game: Game, seat: Seat, player: Player, hear: Listener) -> None:
    """Ask ``seat`` until it gives an action the rules accept, apply it and tell the listener."""
    while seat in game.to_act:
        action = await player.choose(game.view(seat))
        if seat not in game.to_act:  # another coroutine changed the table meanwhile
            return
        try:
            if getattr(action, "seat", seat) != seat:
                raise IllegalAction(ErrorCode.NOT_YOUR_TURN, f"{seat.key} cannot act for another seat", seat=seat)
            events = game.apply(action)
        except IllegalAction as error:
            player.refused(action, error)
            continue
        await hear.on_events(game, events)
        return


async def _all_at_once(asks: list[Callable[[], Coroutine[Any, Any, None]]]) -> None:
    """Run the asks concurrently in an event loop; one after the other under :func:`run_sync`."""
    if _SYNC.get():
        for ask in asks:
            await ask()
        return
    await asyncio.gather(*(ask() for ask in asks))


# Set while run_sync drives a coroutine: there is no event loop to run seats concurrently
# (in Pyodide an event loop always exists, so asking asyncio would not tell).
_SYNC: ContextVar[bool] = ContextVar("hearts_table_sync", default=False)


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never really waits (bots only) to its end, without an event loop."""
    token = _SYNC.set(True)
    try:
        coro.send(None)
    except StopIteration as done:
        result: T = done.value
        return result
    finally:
        _SYNC.reset(token)
    coro.close()
    raise WaitedForInput("the table waited for input: run it inside an event loop instead")


async def _no_pause() -> None:
    return None


async def drain(steps: Generator[None, None, T], pace: Pace | None = None) -> T:
    """Run a bot's step generator (it yields between slices of work) to its result, awaiting
    ``pace()`` after every slice: that is where a browser gives the page a turn."""
    pause = pace or _no_pause
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: T = done.value
            return result
        await pause()


def run_steps(steps: Generator[None, None, T]) -> T:
    """Drain a step generator at once (no pauses)."""
    return run_sync(drain(steps))
