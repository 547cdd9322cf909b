"""The DOM boundary, in the game's worker: the page's document as Python keeps it (:mod:`.vdocument`),
its window as far as Python uses it, the page's events, localStorage, and the line to the page.

Python runs in a Web Worker (``web/runtime/game-worker.mjs``); the page only applies what Python
sends and tells it what happened. ``hearts_page`` is that line, a JavaScript module the worker
registers before Python starts: ``start`` (what the page said when the worker began: its HTML,
address, storage, media and size) and ``post(message)``. Every change Python makes to the
document, to localStorage or to the address becomes an operation; the operations of one turn of
Python's go to the page in one message, in order (a move is saved before the page shows it). The
page answers calls (:func:`call`: the clipboard, sharing, fullscreen, a download, the online
table's transport) and sends the events Python listens for.

A JavaScript object (a worker's API, a promise) reaches Python as a proxy whose attributes are only
known at run time; its type is spelled out here once, as :data:`JsObject`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from itertools import count
from typing import Any, TypeAlias
from urllib.parse import urljoin, urlsplit

import hearts_page  # type: ignore[import-not-found]  # the line to the page (web/runtime/game-worker.mjs)
import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from .page_storage import LocalStorage
from .vdocument import Document
from .vdom import Element as VElement

__all__ = [
    "document",
    "window",
    "by_id",
    "qs",
    "qsa",
    "listen",
    "is_none",
    "closest",
    "LocalStorage",
    "local_storage",
    "JsObject",
    "Element",
    "JsEvent",
    "keep",
    "local_date",
    "css_pixels",
    "call",
    "tell",
    "on_page_message",
    "to_js",
    "flush",
]

JsObject: TypeAlias = Any  # a JavaScript object as Pyodide hands it over
Element: TypeAlias = Any  # an element of the page's document (hearts_web.core.vdom.Element)
JsEvent: TypeAlias = Any  # an event the page sent (Event below), or a worker's own (a message)

_START: dict[str, Any] = hearts_page.start.to_py()
document = Document(str(_START["html"]))
document.fullscreenEnabled = bool(_START.get("fullscreenEnabled"))
_KEEP: list[JsObject] = []  # proxies handed to JavaScript live as long as the worker


def keep(fn: Callable[..., object]) -> JsObject:
    """``fn`` as a JavaScript function that lives as long as the worker."""
    proxy = create_proxy(fn)
    _KEEP.append(proxy)
    return proxy


def is_none(value: object) -> bool:
    """``None``, or JavaScript's ``null``/``undefined`` as a worker API gives it."""
    if value is None:
        return True
    if isinstance(value, (str, int, float, bool, list, dict, tuple)):
        return False  # a Python value (the text "null" is a text)
    return value.__class__.__name__ == "JsNull" or str(value) in ("undefined", "null")


# ---------------------------------------------------------------------- the line to the page
_replies: dict[int, asyncio.Future[Any]] = {}
_numbers = count(1)
_flush_asked = False


def flush() -> None:
    """Send the page the operations of this turn (done by itself after every turn of Python's)."""
    global _flush_asked
    _flush_asked = False
    ops = document.patch.take()
    if ops:
        hearts_page.post(to_js({"ops": ops}, dict_converter=js.Object.fromEntries))


def _want_flush() -> None:
    global _flush_asked
    if not _flush_asked:
        _flush_asked = True
        hearts_page.soon(_flusher)


_flusher = keep(flush)
document.patch.on_first = _want_flush


def call(name: str, *args: object) -> asyncio.Future[Any]:
    """Ask the page to do what only a page does (``name``: a service of web/runtime/page.mjs) after
    this turn's operations; the future holds its answer (or its error as a RuntimeError)."""
    number = next(_numbers)
    future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
    _replies[number] = future
    document.patch.add(["call", number, name, list(args)])
    return future


def tell(name: str, *args: object) -> None:
    """Ask the page for ``name`` (as :func:`call`), with no answer expected."""
    document.patch.add(["call", 0, name, list(args)])


_handlers: dict[str, Callable[[dict[str, Any]], None]] = {}


def on_page_message(kind: str, handler: Callable[[dict[str, Any]], None]) -> None:
    """``handler(message)`` for the page's messages of type ``kind`` (the online table's rooms)."""
    _handlers[kind] = handler


def _replied(number: int, value: object, error: str | None) -> None:
    future = _replies.pop(number, None)
    if future is None or future.done():
        return
    if error is not None:
        future.set_exception(RuntimeError(error))
    else:
        future.set_result(value)


# ---------------------------------------------------------------------- the page's events
class Event:
    """An event the page sent: its type, its target in the document, the key and modifiers."""

    def __init__(self, kind: str, target: VElement | None, data: dict[str, Any]) -> None:
        self.type, self.target = kind, target
        self.key = str(data.get("key", ""))
        self.ctrlKey, self.metaKey = bool(data.get("ctrl")), bool(data.get("meta"))
        self.altKey, self.shiftKey = bool(data.get("alt")), bool(data.get("shift"))
        self.stopped = False

    def preventDefault(self) -> None:  # the page decided already (web/runtime/input.mjs)
        pass

    def stopPropagation(self) -> None:
        self.stopped = True


class _Listeners:
    def __init__(self) -> None:
        self.by_kind: dict[str, list[Callable[[Any], object]]] = {}

    def addEventListener(self, kind: str, handler: Callable[[Any], object], options: object = None) -> None:
        self.by_kind.setdefault(kind, []).append(handler)

    def dispatch(self, kind: str, event: object) -> None:
        for handler in list(self.by_kind.get(kind, ())):
            handler(event)


def _event(message: dict[str, Any]) -> None:
    kind = str(message["type"])
    if "href" in message:  # the page's address changed without the worker (history, a script)
        window.location.href = str(message["href"])
    at = message.get("at")
    target = document.at(str(at[0]), [int(i) for i in at[1]]) if at else None
    if target is not None and ("value" in message or "checked" in message):
        target.synced(message.get("value"), message.get("checked"))
    if kind == "close" and target is not None:
        target.closed_by_player()
        return
    if kind == "focusin":
        document.active = target
    elif kind == "focusout":  # the focus left for nowhere (the page's body): no listener hears it
        if document.active is target:
            document.active = None
        return
    event = Event(kind, target, message)
    el = target
    while el is not None and not event.stopped:  # bubbling, as the page's event did
        el.dispatch(kind, event)
        el = el.parent
    if not event.stopped:
        _document_events.dispatch(kind, event)


_document_events = _Listeners()


# ---------------------------------------------------------------------- the window, as Python uses it
class Location:
    """The page's address (the worker's own is its script's)."""

    def __init__(self, href: str) -> None:
        self.href = href

    def __getattr__(self, name: str) -> str:
        parts = urlsplit(self.href)
        values = {
            "origin": f"{parts.scheme}://{parts.netloc}",
            "protocol": f"{parts.scheme}:",
            "hostname": parts.hostname or "",
            "host": parts.netloc,
            "pathname": parts.path or "/",
            "search": f"?{parts.query}" if parts.query else "",
            "hash": f"#{parts.fragment}" if parts.fragment else "",
        }
        if name not in values:
            raise AttributeError(name)
        return values[name]


class History:
    def replaceState(self, state: object, title: str, url: str) -> None:
        window.location.href = urljoin(window.location.href, str(url))
        document.patch.add(["hist", window.location.href])


class MediaQuery:
    def __init__(self, query: str) -> None:
        self.matches = bool(_START.get("media", {}).get(query, False))


class Console:
    """The page's console (where the tests and the developer tools read it): each line an operation."""

    def __getattr__(self, level: str) -> Callable[..., None]:
        if level not in ("debug", "log", "info", "warn", "error"):
            raise AttributeError(level)
        return lambda *parts: document.patch.add(["log", level, " ".join(str(p) for p in parts)])


class Window(_Listeners):
    """The page's window as far as Python uses it; the worker's own objects where a worker has them."""

    def __init__(self) -> None:
        super().__init__()
        self.location = Location(str(_START["href"]))
        self.history = History()
        self.navigator = hearts_page.navigator
        self.console, self.Object, self.Date, self.URL = Console(), js.Object, js.Date, js.URL
        self.performance, self.Promise, self.Blob = hearts_page.performance, js.Promise, js.Blob
        self.Worker, self.BroadcastChannel = js.Worker, js.BroadcastChannel
        self.heartsLoadExtras = js.heartsLoadExtras
        self.size: dict[str, float] = dict(_START.get("size", {}))
        self.facts: dict[str, bool] = dict(_START.get("facts", {}))  # what the browser can (page.mjs)

    @property
    def innerHeight(self) -> float:
        return float(self.size.get("height", 0.0))

    def matchMedia(self, query: str) -> MediaQuery:
        return MediaQuery(query)


window = Window()


# ---------------------------------------------------------------------- messages from the page
def _receive(raw: JsObject) -> None:
    message: dict[str, Any] = raw.to_py()
    kind = message.get("t")
    if kind == "reply":
        _replied(int(message["id"]), message.get("value"), message.get("error"))
    elif kind == "event":
        _event(message)
    elif kind == "storage":  # another tab wrote (the page's storage event); no key: it cleared
        key, value = message.get("key"), message.get("value")
        if is_none(key):
            _STORAGE.cleared(dict(message.get("items") or {}))
        else:
            _STORAGE.outside(str(key), None if is_none(value) else str(value))
    elif kind == "size":
        window.size = dict(message["size"])
        window.dispatch("resize", None)
    elif kind == "fullscreen":
        document.fullscreen = bool(message.get("on"))
    elif kind == "storage-failed":
        kept, now = message.get("kept"), message.get("now")  # (JavaScript's null: JsNull)
        _STORAGE.failed(
            str(message["key"]),
            str(message.get("error", "")),
            None if is_none(now) else str(now),
            None if kept is None or is_none(kept) else (str(kept[0]), None if is_none(kept[1]) else str(kept[1])),
        )
    elif kind == "storage-probed":
        _STORAGE.probed(bool(message.get("fits")))
    elif isinstance(kind, str) and kind in _handlers:
        _handlers[kind](message)
    flush()


hearts_page.listen(keep(_receive))


# ---------------------------------------------------------------------- the document's helpers
def by_id(element_id: str) -> Element:
    return document.getElementById(element_id)


def qs(selector: str, root: Element = None) -> Element:
    return (root or document).querySelector(selector)


def qsa(selector: str, root: Element = None) -> list[Element]:
    return list((root or document).querySelectorAll(selector))


def listen(target: Any, event: str, handler: Callable[[JsEvent], object], options: JsObject = None) -> None:
    """``handler`` for ``event`` on an element, the document or the window (events the page
    sends), or on a worker's own object (a BroadcastChannel, a Worker)."""
    if target is document:
        _document_events.addEventListener(event, handler)
    elif isinstance(target, (VElement, Window)):
        target.addEventListener(event, handler)
    else:
        target.addEventListener(event, keep(handler))


def closest(event: JsEvent, selector: str) -> Element:
    target = event.target
    return None if target is None else target.closest(selector)


# ---------------------------------------------------------------------- localStorage
class _StorageEvent:
    def __init__(self, key: str | None, value: object) -> None:
        self.key, self.newValue = key, value


async def _storage_items() -> dict[str, str] | None:
    items = await call("storageItems")
    if items is None or is_none(items):
        return None
    return {str(k): str(v) for k, v in (items.to_py() if hasattr(items, "to_py") else items).items()}


_STORAGE = LocalStorage(
    dict(_START.get("storage") or {}),
    send=lambda op: document.patch.add(op),
    told=lambda key, value: window.dispatch("storage", _StorageEvent(key, value)),
    warn=lambda text: window.console.warn(text),
    read=_storage_items,
)


def local_storage() -> LocalStorage | None:
    """``None`` when the page may not use storage (privacy mode)."""
    return None if _START.get("storage") is None else _STORAGE


def local_date() -> str:
    """Today in the player's time zone, ``YYYY-MM-DD``."""
    d = js.Date.new()
    return f"{int(d.getFullYear()):04d}-{int(d.getMonth()) + 1:02d}-{int(d.getDate()):02d}"


def css_pixels(name: str, fallback: float) -> float:
    """The page's CSS variable ``name`` in pixels (as the page measured it at start); ``fallback``."""
    raw = str(_START.get("css", {}).get(name, "")).strip()
    try:
        return float(raw.removesuffix("px")) if raw else fallback
    except ValueError:
        return fallback
