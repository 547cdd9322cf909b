"""Small DOM helpers: element lookup, delegated listeners, and localStorage behind the store's interface."""

from __future__ import annotations

from typing import Any, Callable

from pyscript import document, window  # type: ignore[import-not-found]
from pyscript.ffi import create_proxy, is_none  # type: ignore[import-not-found]

__all__ = ["document", "window", "by_id", "qs", "qsa", "listen", "is_none", "closest", "LocalStorage", "local_storage"]

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


class LocalStorage:
    """The browser's ``localStorage`` behind :class:`hearts_web.store.Storage` (a full storage
    raises ``OSError``). ``None`` from :func:`local_storage` when the browser forbids storage."""

    def __init__(self, storage: Any) -> None:
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
