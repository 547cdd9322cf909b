"""The small parts of the worker's document (:mod:`.vdom`): text nodes, an element's class list,
dataset and style, and the patch of operations for the page. Pure."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape
from typing import Protocol

__all__ = ["Patch", "Text", "ClassList", "Dataset", "Style", "Op", "RAW_TEXT", "VOID"]

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})
RAW_TEXT = frozenset({"script", "style"})
Op = list[object]


class Owner(Protocol):
    """The element a part belongs to."""

    localName: str
    attrs: dict[str, str]

    def _op(self, kind: str, *args: object) -> None: ...

    def getAttribute(self, name: str) -> str | None: ...

    def setAttribute(self, name: str, value: object) -> None: ...

    def removeAttribute(self, name: str) -> None: ...


class Patch:
    """The operations not yet sent to the page, and the elements the page knows by number.
    ``on_first`` is told when an operation comes to an empty patch (the page is due a message)."""

    def __init__(self) -> None:
        self.ops: list[Op] = []
        self.known: set[int] = set()
        self.forgotten: list[int] = []
        self.on_first: Callable[[], None] = lambda: None

    def add(self, op: Op) -> None:
        if not self.ops and not self.forgotten:
            self.on_first()
        self.ops.append(op)

    def take(self) -> list[Op]:
        """The operations to send now (in order), and forget them here."""
        if self.forgotten:
            self.ops.append(["f", self.forgotten])
            self.forgotten = []
        ops, self.ops = self.ops, []
        return ops


class Text:
    __slots__ = ("data", "parent")

    def __init__(self, data: str) -> None:
        self.data = data
        self.parent: Owner | None = None

    def html(self) -> str:
        if self.parent is not None and self.parent.localName in RAW_TEXT:
            return self.data
        return escape(self.data, quote=False)


class ClassList:
    def __init__(self, el: Owner) -> None:
        self.el = el

    def _names(self) -> list[str]:
        return (self.el.attrs.get("class") or "").split()

    def contains(self, name: str) -> bool:
        return name in self._names()

    def add(self, *names: str) -> None:
        have = self._names()
        new = [n for n in names if n not in have]
        if new:
            self.el.attrs["class"] = " ".join(have + new)
            for n in new:
                self.el._op("c", n, 1)

    def remove(self, *names: str) -> None:
        have = self._names()
        gone = [n for n in names if n in have]
        if gone:
            self.el.attrs["class"] = " ".join(n for n in have if n not in gone)
            for n in gone:
                self.el._op("c", n, 0)

    def toggle(self, name: str, force: bool | None = None) -> bool:
        on = not self.contains(name) if force is None else bool(force)
        (self.add if on else self.remove)(name)
        return on


def _kebab(name: str) -> str:
    return "data-" + re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), name)


class Dataset:
    """``el.dataset.dealVerified`` is the attribute ``data-deal-verified``."""

    _el: Owner

    def __init__(self, el: Owner) -> None:
        object.__setattr__(self, "_el", el)

    def __getattr__(self, name: str) -> str | None:
        return self._el.getAttribute(_kebab(name))

    def __setattr__(self, name: str, value: object) -> None:
        self._el.setAttribute(_kebab(name), str(value))

    def __delattr__(self, name: str) -> None:
        self._el.removeAttribute(_kebab(name))


class Style:
    def __init__(self, el: Owner) -> None:
        self.el = el
        self.props: dict[str, str] = {}

    def setProperty(self, name: str, value: str) -> None:
        self.props[name] = value
        self.el._op("s", name, value)
