"""The small parts of the worker's document (:mod:`.vdom`): text nodes, an element's class list,
dataset and style, the patch of operations for the page, and markup read into a tree and
compared with one. Pure."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from html import escape
from html.parser import HTMLParser
from typing import NamedTuple, Protocol

__all__ = [
    "Patch",
    "Text",
    "ClassList",
    "Dataset",
    "Style",
    "Field",
    "Op",
    "RAW_TEXT",
    "VOID",
    "Tag",
    "Branch",
    "parse_markup",
    "same_elements",
]

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
    ``on_first`` is told when the first change since the last :meth:`take` comes (the page is due
    a message)."""

    def __init__(self) -> None:
        self.ops: list[Op] = []
        self.known: set[int] = set()
        self.forgotten: list[int] = []
        self.on_first: Callable[[], None] = lambda: None
        self._due = False

    def _note(self) -> None:
        if not self._due:
            self._due = True
            self.on_first()

    def add(self, op: Op) -> None:
        self._note()
        self.ops.append(op)

    def forget(self, vid: int) -> None:
        """The page may drop element ``vid`` (it left the page)."""
        if vid in self.known:
            self._note()
            self.known.discard(vid)
            self.forgotten.append(vid)

    def take(self) -> list[Op]:
        """The operations to send now (in order), and forget them here."""
        self._due = False
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


class FieldHost(Protocol):
    """What a field is made of (:class:`~.vdom.Element`)."""

    localName: str
    attrs: dict[str, str]
    props: dict[str, object]

    def _op(self, kind: str, *args: object) -> None: ...

    def iter(self) -> Iterator[FieldHost]: ...

    @property
    def textContent(self) -> str: ...

    def hasAttribute(self, name: str) -> bool: ...


class Field:
    """What a form's field is besides an element: its value and checked state, properties first
    read from its attributes, then set by Python or by the player (what the page says)."""

    __slots__ = ()

    @property
    def value(self: FieldHost) -> str:
        if "value" in self.props:
            return str(self.props["value"])
        if self.localName == "select":
            chosen = [o for o in self.iter() if o.localName == "option"]
            picked = next((o for o in chosen if o.hasAttribute("selected")), chosen[0] if chosen else None)
            return "" if picked is None else picked.attrs.get("value", picked.textContent)
        if self.localName == "textarea":
            return self.textContent
        return self.attrs.get("value", "on" if self.attrs.get("type") in ("checkbox", "radio") else "")

    @value.setter
    def value(self: FieldHost, value: object) -> None:
        self.props["value"] = str(value)
        self._op("p", "value", str(value))

    @property
    def checked(self: FieldHost) -> bool:
        return bool(self.props["checked"]) if "checked" in self.props else "checked" in self.attrs

    @checked.setter
    def checked(self: FieldHost, on: object) -> None:
        self.props["checked"] = bool(on)
        self._op("p", "checked", bool(on))

    @property
    def type(self: FieldHost) -> str:
        return self.attrs.get("type", "text" if self.localName == "input" else "")

    @property
    def scrollTop(self: FieldHost) -> int:  # where the page scrolled to is the page's alone
        return 0

    @scrollTop.setter
    def scrollTop(self: FieldHost, value: int) -> None:
        self._op("p", "scrollTop", value)

    def synced(self: FieldHost, value: str | None, checked: bool | None) -> None:
        """What the player typed or ticked on the page (no operation back: the page has it)."""
        if value is not None:
            self.props["value"] = value
        if checked is not None:
            self.props["checked"] = checked


class Tag(NamedTuple):
    """An element of markup as read: its tag, attributes and contents (text as ``str``)."""

    name: str
    attrs: dict[str, str]
    nodes: list[Tag | str]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.top: list[Tag | str] = []
        self.stack: list[Tag] = []

    def _add(self, node: Tag | str) -> None:
        (self.stack[-1].nodes if self.stack else self.top).append(node)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Tag(tag.lower(), {k: "" if v is None else v for k, v in attrs}, [])
        self._add(el)
        if el.name not in VOID:
            self.stack.append(el)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._add(Tag(tag.lower(), {k: "" if v is None else v for k, v in attrs}, []))

    def handle_endtag(self, tag: str) -> None:
        tag = tag.lower()
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].name == tag:
                del self.stack[i:]
                return

    def handle_data(self, data: str) -> None:
        if data:
            self._add(data)


def parse_markup(html: str) -> list[Tag | str]:
    """The elements and text of an HTML fragment, as read."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.top


class Branch(Protocol):
    """An element of the tree as markup is compared with it."""

    @property
    def localName(self) -> str: ...

    @property
    def attrs(self) -> Mapping[str, str]: ...

    @property
    def nodes(self) -> Sequence[Branch | Text]: ...

    def setAttribute(self, name: str, value: object) -> None: ...

    def removeAttribute(self, name: str) -> None: ...


def same_elements(old: Sequence[Branch | Text], new: list[Tag | str], pairs: list[tuple[Branch, Tag]]) -> bool:
    """``old`` and ``new`` are the same elements and text but for the elements' attributes other
    than their keys (``id``, ``data-card``); ``pairs``: each old element with its new one."""
    if len(old) != len(new):
        return False
    for a, b in zip(old, new, strict=True):
        if isinstance(a, Text) or isinstance(b, str):
            if not (isinstance(a, Text) and isinstance(b, str) and a.data == b):
                return False
            continue
        if a.localName != b.name or any(a.attrs.get(key) != b.attrs.get(key) for key in ("id", "data-card")):
            return False
        pairs.append((a, b))
        if not same_elements(a.nodes, b.nodes, pairs):
            return False
    return True
