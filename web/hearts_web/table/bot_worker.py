"""The page's end of the bots' Web Worker (``web/runtime/bot-worker.mjs``): Hard thinks there, so no task
on the page waits for its search (a sliced search on the page still blocked it for up to 450 ms
at a time).

:class:`BotWorker` is the protocol, without the browser: requests go out through ``post`` with
an id, answers come back to :meth:`BotWorker.on_message`. Pure:
:func:`hearts_web.table.bot_worker_browser.start` makes the real worker.
While the worker starts (a second Pyodide: a few seconds, mostly while the player chooses the
pass) a bot waits for it, up to :data:`hearts_web.table.players.WORKER_START_WAIT`; after that,
or if the worker cannot start or breaks, the bots think on the page
(:class:`hearts_web.table.players.WebBot` falls back), so the game never depends on the worker.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping

__all__ = ["BotWorker", "WorkerUnavailable", "measure_detail", "WORKER_URL", "ANSWER_TIMEOUT"]

WORKER_URL = "./bot-worker.mjs"  # beside the game's worker (web/runtime/, bundled into dist/runtime/)
# A search takes at most a few seconds (a pass while the person chooses theirs, and the three
# bots' passes one after another: hearts_web.table.players.WORKER_BUDGET); an answer that has not come
# after this many seconds never will (a worker stuck or killed by the browser): it counts as failed.
ANSWER_TIMEOUT = 20.0


class WorkerUnavailable(Exception):
    """The worker cannot answer (not started yet, failed to start, or broke): decide on the page."""


class BotWorker:
    """Requests to a worker and their answers. ``state`` is "starting", "ready" or "failed"
    (``reason`` says why); a failed worker stays failed: the page decides from then on."""

    def __init__(
        self,
        post: Callable[[int, str], None],
        signal: Callable[[str, int], None] | None = None,
        observe: Callable[[int, Mapping[str, object], object], None] | None = None,
    ) -> None:
        """``post(id, request)`` sends a request; ``signal(kind, id)`` a note about requests:
        ``("hurry", last id)`` the person has passed, ``("drop", id)`` nobody waits for that one.
        ``observe(id, request, answer)`` sees each answer as it arrives, read once, with the
        request it answers (the page's performance measure)."""
        self._post = post
        self._signal = signal
        self._observe = observe
        self.state = "starting"
        self.reason = ""
        self.start_ms: float | None = None
        self._pending: dict[int, tuple[asyncio.Future[object], Mapping[str, object]]] = {}
        self._next = 0
        self.answered = 0
        self._settled: asyncio.Event | None = None  # set once ready or failed (made in the running loop)
        self._hurry_when_ready = False

    @property
    def ready(self) -> bool:
        return self.state == "ready"

    async def started(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the worker to start; True when it is ready."""
        if self.state == "starting":
            if self._settled is None:
                self._settled = asyncio.Event()
            try:
                await asyncio.wait_for(self._settled.wait(), timeout)
            except TimeoutError:
                pass
        return self.ready

    def _settle(self) -> None:
        if self._settled is not None:
            self._settled.set()

    def on_message(self, data: Mapping[str, object]) -> None:
        kind = data.get("kind")
        if kind == "ready" and self.state == "starting":
            self.state = "ready"
            ms = data.get("ms")
            self.start_ms = float(ms) if isinstance(ms, (int, float)) else None
            if self._hurry_when_ready:
                self.hurry()
            self._settle()
        elif kind == "failed":
            self.fail(f"could not start: {data.get('reason')}")
        elif kind in ("answer", "crash"):
            ident = data.get("id")
            if not isinstance(ident, int):
                return  # answers no request of ours
            waiting = self._pending.pop(ident, None)
            if waiting is None or waiting[0].done():
                return  # nobody waits any more (the table moved on)
            future, request = waiting
            if kind == "crash":
                future.set_exception(WorkerUnavailable(f"the worker's Python failed: {data.get('reason')}"))
                self.fail(f"crashed: {data.get('reason')}")
                return
            try:
                answer = json.loads(str(data.get("answer")))
            except json.JSONDecodeError as exc:
                future.set_exception(WorkerUnavailable(f"unreadable answer: {exc}"))
                return
            self.answered += 1
            future.set_result(answer)  # first: whatever the observer does, the bot gets its answer
            if self._observe is not None:
                self._observe(ident, request, answer)

    def fail(self, reason: str) -> None:
        """The worker is gone (an error event, or it said so): every waiting request fails."""
        if self.state != "failed":
            self.state, self.reason = "failed", reason
        self._settle()
        pending, self._pending = self._pending, {}
        for future, _request in pending.values():
            if not future.done():
                future.set_exception(WorkerUnavailable(reason))

    def hurry(self) -> None:
        """The person has passed: the bots' passes end at their short budget (``hurry_ms``; the
        worker's :class:`hearts.bots.remote.Desk`), the one searching now and those still to come."""
        if self.state == "starting":
            self._hurry_when_ready = True  # the bots' passes will be asked once it is up
        elif self.ready and self._signal is not None:
            self._signal("hurry", self._next)

    async def decide(self, request: Mapping[str, object]) -> object:
        """Send ``request`` (:func:`hearts.bots.remote.request`) and await the worker's answer."""
        if not self.ready:
            raise WorkerUnavailable(self.reason or "the worker is still starting")
        self._next += 1
        ident = self._next
        future: asyncio.Future[object] = asyncio.get_event_loop().create_future()
        self._pending[ident] = (future, request)
        try:
            self._post(ident, json.dumps(request))
            return await asyncio.wait_for(future, ANSWER_TIMEOUT)
        except TimeoutError:
            self.fail(f"no answer in {ANSWER_TIMEOUT:g} s")
            raise WorkerUnavailable(self.reason) from None
        except asyncio.CancelledError:
            # the table moved on (a new match, an undo): the worker skips it if it has not begun
            if self._signal is not None and self.state != "failed":
                self._signal("drop", ident)
            raise
        finally:
            self._pending.pop(ident, None)


def measure_detail(request: Mapping[str, object], answer: Mapping[str, object]) -> dict[str, object]:
    """What a round trip's measure carries: the cards the bot held, the worlds its search sampled
    and the cards it chose (3: a pass)."""
    view = request.get("view")  # hearts.bots.remote.request made it
    hand = view.get("hand") if isinstance(view, dict) else None
    stats, cards = answer.get("stats"), answer.get("cards")
    return {
        "held": len(hand) if isinstance(hand, list) else None,
        "worlds": stats.get("worlds") if isinstance(stats, dict) else None,
        "cards": len(cards) if isinstance(cards, list) else None,
    }
