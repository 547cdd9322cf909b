"""The bots' Web Worker: :func:`start` makes ``web/runtime/bot-worker.mjs`` (a module worker with its
own Pyodide, started from the game's worker) and connects it to a
:class:`~hearts_web.table.bot_worker.BotWorker`; each answer's round trip becomes a performance
measure ``hearts-bot-worker`` on the page, and ``<html data-bot-worker>`` shows the worker's state
(tests and benchmarks read both).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..core.dom import JsEvent, JsObject, document, is_none, keep, to_js, window
from .bot_worker import WORKER_URL, BotWorker, measure_detail

__all__ = ["start"]


def start() -> BotWorker | None:
    """Start ``web/runtime/bot-worker.mjs`` (a module worker); None when this browser has no module workers."""
    worker = _make_worker()
    if worker is None:
        return None
    sent: dict[int, float] = {}  # id -> when it was sent

    def post(ident: int, text: str) -> None:
        sent[ident] = float(window.performance.now())
        worker.postMessage(_js({"id": ident, "request": text}))

    def signal(kind: str, ident: int) -> None:
        if kind == "drop":
            sent.pop(ident, None)  # its answer, if one still comes, is not measured
        worker.postMessage(_js({kind: ident}))

    def measure(ident: int, request: Mapping[str, object], answer: object) -> None:
        """Each answer's round trip as a performance measure "hearts-bot-worker", with the worlds
        the search sampled, the number of cards (3: a pass) and the cards the bot held as its
        detail (benchmarks read it)."""
        began = sent.pop(ident, None)
        if began is None or not isinstance(answer, dict):
            return  # not an answer to measure (WebBot refuses a malformed one)
        took = float(window.performance.now()) - began
        document.patch.add(["perf", "hearts-bot-worker", took, measure_detail(request, answer)])

    bots = BotWorker(post, signal, measure)
    _listen(worker, bots)
    return bots


def js_location() -> str:
    """The address of the game worker's own script."""
    import hearts_page  # type: ignore[import-not-found]

    return str(hearts_page.location.href)


def _js(value: object) -> JsObject:
    return to_js(value, dict_converter=window.Object.fromEntries)


def _make_worker() -> JsObject:
    """The module worker, or None when this browser cannot make one (no module workers, a CSP)."""
    if not hasattr(window, "Worker") or is_none(window.Worker):
        return None
    try:
        url = window.URL.new(WORKER_URL, js_location())  # beside this worker's own script
        return window.Worker.new(url, _js({"type": "module", "name": "hearts-bots"}))
    except Exception as exc:  # a JsException: a CSP or an old browser refused it
        window.console.warn(f"hearts: no bot worker ({exc}); the bots think on the page")
        return None


def _listen(worker: JsObject, bots: BotWorker) -> None:
    """The worker's messages and errors reach ``bots``; ``<html data-bot-worker>`` shows its state."""
    mark = document.documentElement.dataset  # <html data-bot-worker="ready" ...>: for tests and benchmarks

    def show() -> None:
        mark.botWorker, mark.botWorkerAnswers = bots.state, str(bots.answered)

    def on_message(event: JsEvent) -> None:
        data = event.data
        if not is_none(data) and hasattr(data, "to_py"):
            bots.on_message(data.to_py())
        if bots.state == "failed":
            window.console.warn(f"hearts: bot worker {bots.reason}; the bots think on the page")
        show()

    def on_error(event: JsEvent) -> None:
        message = getattr(event, "message", None)
        bots.fail(f"error: {message if message and not is_none(message) else 'the script did not load'}")
        window.console.warn(f"hearts: bot worker {bots.reason}; the bots think on the page")
        show()

    for name, handler in (("message", on_message), ("error", on_error), ("messageerror", on_error)):
        worker.addEventListener(name, keep(handler))
    show()
