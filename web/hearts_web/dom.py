"""Small DOM helpers: element lookup, delegated listeners and HTML escaping."""

from __future__ import annotations

from html import escape
from typing import Any, Callable

from pyscript import document, window  # type: ignore[import-not-found]
from pyscript.ffi import create_proxy, is_none  # type: ignore[import-not-found]

__all__ = ["document", "window", "by_id", "qs", "qsa", "listen", "esc", "is_none", "closest"]

# Proxies handed to addEventListener must stay alive for the page's lifetime.
_KEEP: list[Any] = []


def by_id(element_id: str) -> Any:
    return document.getElementById(element_id)


def qs(selector: str, root: Any = None) -> Any:
    found = (root or document).querySelector(selector)
    return None if is_none(found) else found


def qsa(selector: str, root: Any = None) -> list[Any]:
    return list((root or document).querySelectorAll(selector))


def listen(target: Any, event: str, handler: Callable[[Any], Any], options: Any = None) -> None:
    proxy = create_proxy(handler)
    _KEEP.append(proxy)
    if options is None:
        target.addEventListener(event, proxy)
    else:
        target.addEventListener(event, proxy, options)


def closest(event: Any, selector: str) -> Any:
    target = event.target
    if is_none(target) or not hasattr(target, "closest"):
        return None
    found = target.closest(selector)
    return None if is_none(found) else found


def esc(text: object) -> str:
    return escape(str(text), quote=True)
