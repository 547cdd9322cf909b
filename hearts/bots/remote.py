"""A bot decision as plain JSON in and out, for a bot that thinks in another interpreter.

The browser runs Hard's search in a Web Worker with its own Pyodide (``web/runtime/bot-worker.mjs``), so
the page never waits for it. The page sends a :func:`request`: the seat's view (what that seat
may know, in the online table's wire form), the bot's level and options, and the exact state of
the decision's RNG. The worker answers with :func:`answer_json`; the page reads the answer with
:func:`decision_from`. With the same RNG state a bot that searches a fixed number of worlds
decides exactly what it would have decided on the page (``tests/test_remote.py``). The worker
itself answers through a :class:`Desk`: the same answers, and a pass that thinks while the person
chooses theirs stops when told the person has passed (:meth:`Desk.hurry`).

>>> import json, random
>>> from hearts import Match, Seat
>>> view = Match(seed="remote").view(Seat.WEST)
>>> text = json.dumps(request(view, "medium", random.Random(7)))
>>> decision_from(json.loads(answer_json(text)), view).cards == make_bot("medium").decide(view, random.Random(7)).cards
True

Every reader checks what it gets and raises :class:`RemoteError` (a ``ValueError``) with the
reason; :func:`answer_json` turns a bad request into ``{"error": reason}`` instead of raising.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ..cards import Card
from ..phase import Phase
from ..view import SeatView
from ..wire import WireError, view_from_dict, view_to_dict
from . import LEVELS, make_bot
from .base import Bot, Decision
from .hard import HardBot

__all__ = ["PROTOCOL", "RemoteError", "request", "answer", "answer_json", "decision_from", "Desk"]

# Bumped when the shape of a request or an answer changes (the page and the worker come from
# the same build, so this guards against a stale worker script served from a cache).
PROTOCOL = 1
_OPTIONS = ("budget_ms", "iterations", "version", "pass_iterations", "pass_budget_ms", "hurry_ms")
# A worker's search stops for messages (a hurry) at least this often, in seconds of search.
PAUSE_EVERY = 0.05


class RemoteError(ValueError):
    """A malformed request or answer, with the reason."""


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from(state: Any) -> random.Random:
    try:
        version, internal, gauss = state
        rng = random.Random()
        rng.setstate((version, tuple(int(x) for x in internal), gauss))
    except (TypeError, ValueError, OverflowError) as exc:
        raise RemoteError(f"bad rng state: {exc}") from None
    return rng


def request(view: SeatView, level: str, rng: random.Random, **options: float | int | None) -> dict[str, Any]:
    """What the page sends: ``options`` are :func:`~hearts.bots.make_bot`'s (budget, iterations...)."""
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise TypeError(f"unknown bot options: {sorted(unknown)}")
    return {
        "protocol": PROTOCOL,
        "level": level,
        "options": {k: v for k, v in options.items() if v is not None},
        "view": view_to_dict(view),
        "rng": _rng_state(rng),
    }


def _passing(view: SeatView) -> bool:
    return view.phase is Phase.PASSING and view.passed is None


def _number(value: Any, name: str) -> float | int:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value or value < 0:
        raise RemoteError(f"option {name} must be a number >= 0, not {value!r}")
    return value


def answer(data: Any) -> dict[str, Any]:
    """Decide what a :func:`request` asks: ``{"cards", "reason", "params", "stats"}``."""
    bot, view, rng, _ = _read(data)
    try:
        decision = bot.decide(view, rng)
    except ValueError as exc:  # the bot found the view impossible
        raise RemoteError(f"the bot cannot decide here: {exc}") from None
    return _answer(decision)


def _read(data: Any) -> tuple[Bot, SeatView, random.Random, float | None]:
    """The bot, the view and the RNG a request asks for, and its ``hurry_ms`` (None: not given)."""
    if not isinstance(data, Mapping):
        raise RemoteError("a request is a JSON object")
    if data.get("protocol") != PROTOCOL:
        raise RemoteError(f"protocol {data.get('protocol')!r} is not {PROTOCOL} (a page and worker of two builds?)")
    level = data.get("level")
    if level not in LEVELS:
        raise RemoteError(f"unknown level {level!r}")
    options = data.get("options", {})
    if not isinstance(options, Mapping) or set(options) - set(_OPTIONS):
        raise RemoteError(f"bad options {options!r}")
    kwargs: dict[str, Any] = {k: _number(v, k) for k, v in options.items()}
    for name in ("iterations", "version", "pass_iterations"):
        if name in kwargs and not isinstance(kwargs[name], int):
            raise RemoteError(f"option {name} must be a whole number")
    hurry = kwargs.pop("hurry_ms", None)
    try:
        view = view_from_dict(data.get("view"))
    except WireError as exc:
        raise RemoteError(f"bad view: {exc}") from None
    if not (_passing(view) or (view.phase is Phase.PLAYING and view.turn == view.seat)):
        raise RemoteError("the view's seat has nothing to decide")
    if len(view.hand) != view.hand_sizes[view.seat] or (
        view.phase is Phase.PLAYING and (not view.legal or not set(view.legal) <= set(view.hand))
    ):
        raise RemoteError("the view does not hold together (hand, hand sizes and legal cards disagree)")
    rng = _rng_from(data.get("rng"))
    try:
        bot = make_bot(level, **kwargs)
    except ValueError as exc:
        raise RemoteError(str(exc)) from None
    return bot, view, rng, hurry


def _answer(decision: Decision) -> dict[str, Any]:
    return {
        "cards": [c.text for c in decision.cards],
        "reason": decision.reason,
        "params": _plain(decision.params),
        "stats": _plain(decision.stats),
    }


def _plain(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` as JSON can carry them (cards and other objects as their text)."""
    result: dict[str, Any] = json.loads(json.dumps(dict(values), default=str))
    return result


def answer_json(text: str) -> str:
    """The worker's entry: a JSON request in, a JSON answer (or ``{"error": reason}``) out."""
    try:
        return json.dumps(answer(json.loads(text)))
    except (RemoteError, json.JSONDecodeError) as exc:
        return json.dumps({"error": str(exc)})


class _HurryClock:
    """Hard's clock for a pass that may be hurried: the real time until :meth:`Desk.hurry`, then
    time running ``shift`` seconds ahead, so the search ends ``hurry_ms`` after its start (at
    once if that has passed). The search's first reading is its start (``HardBot._run_worlds``)."""

    def __init__(self, now: Callable[[], float], hurried: Callable[[], bool], shift: float) -> None:
        self.now, self.hurried, self.shift = now, hurried, shift
        self.start: float | None = None

    def __call__(self) -> float:
        t = self.now()
        if self.start is None:
            self.start = t
        elif self.hurried():
            t += self.shift
        return t


class Desk:
    """The worker's side of the requests: one at a time, and a pass may think long while the
    person at the page chooses theirs.

    A pass request with ``pass_budget_ms`` (long) and ``hurry_ms`` (short) searches for the long
    budget, unless :meth:`hurry` comes (the person has passed): from then on, until the next play
    request, every pass ends ``hurry_ms`` after its start, or at once if that has passed. Such a
    search stops for ``pause()`` (default ``asyncio.sleep(0)``: a worker hears its messages then)
    every ``every`` seconds; any other request (a play: 300 ms) runs without stopping.
    ``now``: the clock (seconds; a test passes a fake one).
    """

    def __init__(
        self,
        pause: Callable[[], Awaitable[None]] | None = None,
        now: Callable[[], float] = time.perf_counter,
        every: float = PAUSE_EVERY,
    ) -> None:
        self.pause = pause if pause is not None else _yield
        self.now = now
        self.every = every
        self.hurried = False

    def hurry(self) -> None:
        self.hurried = True

    async def answer(self, data: Any) -> dict[str, Any]:
        """:func:`answer`, hearing :meth:`hurry` while it searches."""
        bot, view, rng, hurry_ms = _read(data)
        hears = False  # only a pass that may be hurried stops for messages; a play runs straight through
        if not _passing(view):
            self.hurried = False  # the passes are over
        elif hurry_ms is not None and isinstance(bot, HardBot) and bot.iterations is None:
            shift = max(0.0, bot.pass_budget_ms - hurry_ms) / 1000.0
            bot.clock = _HurryClock(self.now, lambda: self.hurried, shift)
            hears = True
        steps = bot.decide_steps(view, rng)
        paused = self.now()
        try:
            while True:
                next(steps)
                if hears and self.now() - paused >= self.every:
                    await self.pause()
                    paused = self.now()
        except StopIteration as stop:
            return _answer(stop.value)
        except ValueError as exc:  # the bot found the view impossible
            raise RemoteError(f"the bot cannot decide here: {exc}") from None

    async def answer_json(self, text: str) -> str:
        """The worker's entry: :func:`answer_json`, as a coroutine that hears :meth:`hurry`."""
        try:
            return json.dumps(await self.answer(json.loads(text)))
        except (RemoteError, json.JSONDecodeError) as exc:
            return json.dumps({"error": str(exc)})


async def _yield() -> None:
    await asyncio.sleep(0)


def decision_from(data: Any, view: SeatView) -> Decision:
    """Read an :func:`answer` for ``view``: a pass of three of the seat's cards, or a legal play
    (the table judges the move again)."""
    if not isinstance(data, Mapping):
        raise RemoteError("an answer is a JSON object")
    if "error" in data:
        raise RemoteError(f"the worker refused the request: {data['error']}")
    raw = data.get("cards")
    want = 3 if _passing(view) else 1
    if not isinstance(raw, list) or len(raw) != want:
        raise RemoteError(f"an answer holds {want} card(s), not {raw!r}")
    try:
        cards = tuple(Card.parse(c) for c in raw)
    except (TypeError, ValueError) as exc:
        raise RemoteError(f"bad card in the answer: {exc}") from None
    if not set(cards) <= set(view.hand):
        raise RemoteError(f"the answer gives cards the seat does not hold: {raw}")
    if len(set(cards)) != len(cards) or (not _passing(view) and cards[0] not in view.legal):
        raise RemoteError(f"the answer is not a legal {'pass' if _passing(view) else 'play'} here: {raw}")
    reason, params, stats = data.get("reason"), data.get("params", {}), data.get("stats", {})
    if not isinstance(reason, str) or not isinstance(params, dict) or not isinstance(stats, dict):
        raise RemoteError("an answer's reason is text, its params and stats are objects")
    return Decision(cards, reason, params, stats)
