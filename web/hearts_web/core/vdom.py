"""The page's elements as the game's worker keeps them (the document: :mod:`.vdocument`): a tree
that the browser layer reads and changes with the DOM's own names (``querySelector``,
``innerHTML``, ``classList``...), and that records every change as an operation for the page
(:class:`~.vdom_parts.Patch`), which applies them to its real document. Pure: no browser; the
page's side is ``web/runtime/page.mjs``.

The tree starts from the page's own document (its HTML, sent once at start) and changes only
here; the page applies the operations in order and tells Python what only it knows (what the
player typed into a field, a dialog the player closed). An element is named to the page once, the
first time an operation needs it: by its path of element children from the nearest ancestor with
an ``id`` (or one named before), with its tag, which the page checks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from html import escape
from itertools import count
from typing import Protocol, Union

from .selectors import compile_selector
from .vdom_parts import VOID, Branch, ClassList, Dataset, Field, Patch, Style, Tag, Text, parse_markup, same_elements

__all__ = ["Element", "Text", "Patch", "Owner", "parse_html"]

Node = Union["Element", "Text"]


class Owner(Protocol):
    """The document an element belongs to (:class:`~.vdocument.Document`)."""

    patch: Patch
    active: Element | None  # the element with the focus, as the page last said

    @property
    def documentElement(self) -> Element: ...

    def name(self, el: Element) -> None: ...


Listener = Callable[[object], object]


class Element(Field):
    """An element of the tree, with the DOM's names for what the browser layer uses."""

    _ids = count(1)
    # only these: a name the DOM has and this tree does not is an error, not a silent no-op
    __slots__ = ("localName", "attrs", "nodes", "parent", "doc", "vid", "props", "listeners", "_style")

    def __init__(self, tag: str, attrs: dict[str, str] | None = None, doc: Owner | None = None) -> None:
        self.localName = tag.lower()
        self.attrs: dict[str, str] = dict(attrs or {})
        self.nodes: list[Node] = []
        self.parent: Element | None = None
        self.doc = doc
        self.vid = next(Element._ids)
        self.props: dict[str, object] = {}
        self.listeners: dict[str, list[Listener]] = {}
        self._style: Style | None = None

    # ------------------------------------------------------------------ identity and tree
    @property
    def tagName(self) -> str:
        return self.localName.upper()

    @property
    def id(self) -> str:
        return self.attrs.get("id", "")

    @id.setter
    def id(self, value: str) -> None:
        self.setAttribute("id", value)

    @property
    def parentElement(self) -> Element | None:
        return self.parent

    @property
    def children(self) -> list[Element]:
        return [n for n in self.nodes if isinstance(n, Element)]

    @property
    def childElementCount(self) -> int:
        return len(self.children)

    @property
    def parentNode(self) -> Element | None:
        return self.parent

    @property
    def firstElementChild(self) -> Element | None:
        return next(iter(self.children), None)

    @property
    def isConnected(self) -> bool:
        el: Element | None = self
        while el is not None:
            if el.doc is not None and el is el.doc.documentElement:
                return True
            el = el.parent
        return False

    def contains(self, other: Element | None) -> bool:
        while other is not None:
            if other is self:
                return True
            other = other.parent
        return False

    def iter(self) -> Iterator[Element]:
        """This element's descendants, in document order (not itself)."""
        for n in self.nodes:
            if isinstance(n, Element):
                yield n
                yield from n.iter()

    # ------------------------------------------------------------------ attributes
    def getAttribute(self, name: str) -> str | None:
        return self.attrs.get(name)

    def hasAttribute(self, name: str) -> bool:
        return name in self.attrs

    def getAttributeNames(self) -> list[str]:
        return list(self.attrs)

    def setAttribute(self, name: str, value: object) -> None:
        text = str(value)
        if self.attrs.get(name) != text:
            self.attrs[name] = text
            self._op("a", name, text)

    def removeAttribute(self, name: str) -> None:
        if name in self.attrs:
            del self.attrs[name]
            self._op("a", name, None)

    def toggleAttribute(self, name: str, force: bool | None = None) -> bool:
        on = name not in self.attrs if force is None else bool(force)
        if on:
            self.setAttribute(name, "")
        else:
            self.removeAttribute(name)
        return on

    @property
    def classList(self) -> ClassList:
        return ClassList(self)

    @property
    def className(self) -> str:
        return self.attrs.get("class", "")

    @className.setter
    def className(self, value: str) -> None:
        self.setAttribute("class", value)

    @property
    def lang(self) -> str:
        return self.attrs.get("lang", "")

    @lang.setter
    def lang(self, value: str) -> None:
        self.setAttribute("lang", value)

    @property
    def dataset(self) -> Dataset:
        return Dataset(self)

    @property
    def style(self) -> Style:
        if self._style is None:
            self._style = Style(self)
        return self._style

    def _flag(self, name: str) -> bool:
        return name in self.attrs

    def _set_flag(self, name: str, on: object) -> None:
        self.toggleAttribute(name, bool(on))

    hidden = property(lambda self: self._flag("hidden"), lambda self, on: self._set_flag("hidden", on))
    disabled = property(lambda self: self._flag("disabled"), lambda self, on: self._set_flag("disabled", on))
    inert = property(lambda self: self._flag("inert"), lambda self, on: self._set_flag("inert", on))
    open = property(lambda self: self._flag("open"))

    # ------------------------------------------------------------------ contents
    @property
    def textContent(self) -> str:
        return "".join(n.data if isinstance(n, Text) else n.textContent for n in self.nodes)

    @textContent.setter
    def textContent(self, text: object) -> None:
        data = str(text)
        now = [n.data if isinstance(n, Text) else None for n in self.nodes]
        if now == ([data] if data else []):
            return  # the same text already: nothing for the page to do
        self._forget_below()
        node = Text(data)
        node.parent = self
        self.nodes = [node] if node.data else []
        self._op("t", data)

    @property
    def innerHTML(self) -> str:
        return "".join(n.html() for n in self.nodes)

    @innerHTML.setter
    def innerHTML(self, html: str) -> None:
        if self._holds(html):
            return  # drawn again as it is: nothing for the page to do
        new = parse_markup(html)
        if self._restyle(new):
            return
        kept = self._focus_key()
        self._forget_below()
        self.nodes = []
        self._adopt(_made(new, self.doc))
        self._op("h", html)
        if kept is not None and self.doc is not None:  # the page keeps the focus alike (web/runtime/ops.mjs)
            self.doc.active = self.querySelector(kept)

    def _holds(self, html: str) -> bool:
        """This element holds ``html`` already, as the page does: its contents write the same
        markup and hold nothing new contents would reset (:meth:`_markup_only`). Markup written
        otherwise (spaces, quotes) is left to ``_restyle``, which finds nothing to change."""
        return html == self.innerHTML and self._markup_only()

    def _markup_only(self) -> bool:
        """Nothing below this element is more than markup (a listener, a field's value, a style
        set by name): contents or attributes laid over it from markup lose nothing."""
        return all(not el.listeners and not el.props and el._style is None for el in self.iter())

    def _restyle(self, new: list[Tag | str]) -> bool:
        """Bring the contents to ``new`` by attributes alone when it has the same elements (tags,
        ``id`` and ``data-card``: a card stays the card it was) and text, and nothing below is more
        than markup: the page sets attributes on the elements it has (the hand when the turn comes)
        instead of laying out new ones, and the focus stays. False: nothing done."""
        pairs: list[tuple[Branch, Tag]] = []
        if not same_elements(self.nodes, new, pairs) or not self._markup_only():
            return False
        for old, fresh in pairs:
            for name in [name for name in old.attrs if name not in fresh.attrs]:
                old.removeAttribute(name)
            for name, value in fresh.attrs.items():
                old.setAttribute(name, value)
        return True

    def _focus_key(self) -> str | None:
        """The selector that finds the focused element again among new content of this one: its
        ``data-card`` or its id (None: the focus is not inside, or has no such key)."""
        active = self.doc.active if self.doc is not None else None
        if active is None or active is self or not self.contains(active):
            return None
        if "data-card" in active.attrs:
            return f'[data-card="{active.attrs["data-card"]}"]'
        return f"#{active.attrs['id']}" if active.attrs.get("id") else None

    def html(self) -> str:
        attrs = "".join(f' {k}="{escape(v)}"' if v != "" else f" {k}" for k, v in self.attrs.items())
        if self.localName in VOID:
            return f"<{self.localName}{attrs}>"
        return f"<{self.localName}{attrs}>{self.innerHTML}</{self.localName}>"

    @property
    def outerHTML(self) -> str:
        return self.html()

    @outerHTML.setter
    def outerHTML(self, html: str) -> None:
        parent = self.parent
        if parent is None:
            return
        self._op("o", html)
        self._forget(self)
        at = parent.nodes.index(self)
        new = parse_html(html, self.doc)
        for n in new:
            n.parent = parent
        parent.nodes[at : at + 1] = new
        self.parent = None

    def _adopt(self, nodes: list[Node]) -> None:
        for n in nodes:
            n.parent = self
            self.nodes.append(n)

    def insertAdjacentHTML(self, where: str, html: str) -> None:
        new = parse_html(html, self.doc)
        if where == "beforeend":
            self._adopt(new)
        elif where == "afterbegin":
            for n in new:
                n.parent = self
            self.nodes[0:0] = new
        else:
            raise ValueError(f"insertAdjacentHTML({where!r}): only beforeend and afterbegin")
        self._op("i", where, html)

    def append(self, *items: Element | str) -> None:
        for item in items:
            if isinstance(item, str):
                self.insertAdjacentHTML("beforeend", escape(item, quote=False))
            else:
                self.appendChild(item)

    def appendChild(self, child: Element) -> Element:
        if child.parent is not None:
            child.remove()
        child.parent = self
        self.nodes.append(child)
        if self.isConnected:
            self._op("i", "beforeend", child.html())
        return child

    def insertBefore(self, new: Element, before: Element) -> Element:
        """``new`` as the child just before ``before`` (a child of this element)."""
        if new.parent is not None:
            new.remove()
        at = self.nodes.index(before)
        new.parent = self
        self.nodes.insert(at, new)
        before._op("i", "beforebegin", new.html())
        return new

    def replaceChild(self, new: Element, old: Element) -> Element:
        """``new`` in the place of ``old`` (a child of this element); returns ``old``."""
        if new.parent is not None:
            new.remove()
        old._op("o", new.html())
        self._forget(old)
        at = self.nodes.index(old)
        new.parent, old.parent = self, None
        self.nodes[at] = new
        return old

    def remove(self) -> None:
        parent = self.parent
        if parent is None:
            return
        self._op("r")
        self._forget(self)
        parent.nodes.remove(self)
        self.parent = None

    # ------------------------------------------------------------------ selectors
    def matches(self, selector: str) -> bool:
        return compile_selector(selector)(self)

    def closest(self, selector: str) -> Element | None:
        test = compile_selector(selector)
        el: Element | None = self
        while el is not None:
            if test(el):
                return el
            el = el.parent
        return None

    def querySelector(self, selector: str) -> Element | None:
        test = compile_selector(selector)
        return next((el for el in self.iter() if test(el)), None)

    def querySelectorAll(self, selector: str) -> list[Element]:
        test = compile_selector(selector)
        return [el for el in self.iter() if test(el)]

    # ------------------------------------------------------------------ what only the page does
    def focus(self, options: object = None) -> None:
        self._op("m", "focus")

    def blur(self) -> None:
        self._op("m", "blur")

    def showModal(self) -> None:
        self.attrs["open"] = ""
        self._op("m", "showModal")

    def close(self) -> None:
        if "open" in self.attrs:
            del self.attrs["open"]
            self._op("m", "close")
            self.dispatch("close", None)

    def closed_by_player(self) -> None:
        """The player closed this dialog on the page (Escape, its own form): no operation back."""
        if "open" in self.attrs:
            del self.attrs["open"]
            self.dispatch("close", None)

    def addEventListener(self, kind: str, handler: Listener, options: object = None) -> None:
        self.listeners.setdefault(kind, []).append(handler)

    def dispatch(self, kind: str, event: object) -> None:
        for handler in list(self.listeners.get(kind, ())):
            handler(event)

    # ------------------------------------------------------------------ operations for the page
    def _op(self, kind: str, *args: object) -> None:
        doc = self.doc
        if doc is None or not self.isConnected:
            return  # not on the page (yet): its HTML carries what it is when it gets there
        doc.name(self)
        doc.patch.add([kind, self.vid, *args])

    def _forget_below(self) -> None:
        """This element's contents are replaced: they leave the page (and the tree)."""
        for el in self.iter():
            self._forget(el)
        for n in self.nodes:
            n.parent = None

    def _forget(self, root: Element) -> None:
        doc = self.doc
        if doc is None:
            return
        for el in [root, *root.iter()]:
            doc.patch.forget(el.vid)


def _made(parsed: list[Tag | str], doc: Owner | None) -> list[Node]:
    nodes: list[Node] = []
    for p in parsed:
        if isinstance(p, str):
            nodes.append(Text(p))
        else:
            el = Element(p.name, p.attrs, doc)
            el._adopt(_made(p.nodes, doc))
            nodes.append(el)
    return nodes


def parse_html(html: str, doc: Owner | None = None) -> list[Node]:
    """The nodes of an HTML fragment (the web layer writes well-formed HTML: every element closed,
    tables with their ``tbody``; the page checks that it made the same elements)."""
    return _made(parse_markup(html), doc)
