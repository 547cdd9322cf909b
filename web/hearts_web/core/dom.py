"""The DOM boundary: element lookup, delegated listeners, localStorage behind the store's interface,
and the names the rest of the browser layer gives to JavaScript objects.

A JavaScript object (an element, an event, a promise, a JS module) reaches Python as a proxy whose
attributes are only known at run time. Its type is spelled out here once, as :data:`JsObject`
(with :data:`Element` and :data:`JsEvent` for readability); no other web module uses ``Any``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

from pyscript import document, window  # type: ignore[import-not-found]
from pyscript.ffi import create_proxy, is_none, to_js  # type: ignore[import-not-found]

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
    "js_object",
    "local_date",
    "css_pixels",
]

JsObject: TypeAlias = Any  # a JavaScript object as PyScript hands it over
Element: TypeAlias = Any  # a DOM element (a JsObject)
JsEvent: TypeAlias = Any  # a DOM event (a JsObject)

# Proxies handed to JavaScript (listeners, callbacks) must stay alive for the page's lifetime.
_KEEP: list[JsObject] = []


def keep(fn: Callable[..., object]) -> JsObject:
    """``fn`` as a JavaScript function that lives as long as the page."""
    proxy = create_proxy(fn)
    _KEEP.append(proxy)
    return proxy


def js_object(**fields: object) -> JsObject:
    """A plain JavaScript object, such as the options of ``focus`` (``js_object(preventScroll=True)``)."""
    return to_js(fields, dict_converter=window.Object.fromEntries)


def by_id(element_id: str) -> Element:
    return document.getElementById(element_id)


def qs(selector: str, root: Element = None) -> Element:
    found = (root or document).querySelector(selector)
    return None if is_none(found) else found


def qsa(selector: str, root: Element = None) -> list[Element]:
    return list((root or document).querySelectorAll(selector))


def listen(target: JsObject, event: str, handler: Callable[[JsEvent], object], options: JsObject = None) -> None:
    proxy = keep(handler)
    if options is None:
        target.addEventListener(event, proxy)
    else:
        target.addEventListener(event, proxy, options)


def closest(event: JsEvent, selector: str) -> Element:
    target = event.target
    if is_none(target) or not hasattr(target, "closest"):
        return None
    found = target.closest(selector)
    return None if is_none(found) else found


class LocalStorage:
    """The browser's ``localStorage`` behind :class:`hearts_web.data.store.Storage` (a full storage
    raises ``OSError``). ``None`` from :func:`local_storage` when the browser forbids storage."""

    def __init__(self, storage: JsObject) -> None:
        self.storage = storage

    def get(self, key: str) -> str | None:
        value = self.storage.getItem(key)
        return None if is_none(value) else str(value)

    def set(self, key: str, value: str) -> None:
        try:
            self.storage.setItem(key, value)
        except Exception as exc:  # a JsException: QuotaExceededError
            raise OSError(str(exc)) from None

    def remove(self, key: str) -> None:
        self.storage.removeItem(key)

    def keys(self) -> list[str]:
        return [str(k) for k in window.Object.keys(self.storage)]


def local_storage() -> LocalStorage | None:
    try:
        storage = window.localStorage
    except Exception:  # storage disabled (privacy mode): play on without saving
        return None
    return None if is_none(storage) else LocalStorage(storage)


def local_date() -> str:
    """Today in the player's time zone, ``YYYY-MM-DD``."""
    d = window.Date.new()
    return f"{int(d.getFullYear()):04d}-{int(d.getMonth()) + 1:02d}-{int(d.getDate()):02d}"


def css_pixels(name: str, fallback: float) -> float:
    """The page's CSS variable ``name`` (say ``--chart-font: 12px``) in pixels; ``fallback`` when unset."""
    raw = str(window.getComputedStyle(document.documentElement).getPropertyValue(name)).strip()
    try:
        return float(raw.removesuffix("px")) if raw else fallback
    except ValueError:
        return fallback
