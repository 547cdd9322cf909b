"""The page's document as the game's worker keeps it: made from the page's own HTML at start,
changed only through its elements (:mod:`.vdom`), which record each change for the page. Pure."""

from __future__ import annotations

from .vdom import Element, parse_html
from .vdom_parts import Patch

__all__ = ["Document"]


class Document:
    """The page's document as the worker keeps it (made from the page's HTML at start)."""

    def __init__(self, html: str) -> None:
        self.patch = Patch()
        nodes = parse_html(html, self)
        root = next((n for n in nodes if isinstance(n, Element) and n.localName == "html"), None)
        if root is None:
            root = Element("html", doc=self)
            for n in nodes:
                root._adopt([n])
        self.documentElement = root
        self.patch.take()  # (the page has all of it)
        self.active: Element | None = None  # the element with the focus, as the page last said
        self.fullscreenEnabled = False  # what the page can do and is doing (it says so)
        self.fullscreen = False

    @property
    def activeElement(self) -> Element:
        """The element with the focus; the body when none has it, or when the one the page last
        named has gone, or is hidden or disabled now (the page's focus left it then)."""
        el = self.active
        if el is None or not el.isConnected or "disabled" in el.attrs:
            return self.body
        node: Element | None = el
        while node is not None:
            if "hidden" in node.attrs:
                return self.body
            node = node.parent
        return el

    @property
    def body(self) -> Element:
        body = next((el for el in self.documentElement.children if el.localName == "body"), None)
        assert body is not None, "the page's HTML has a body"
        return body

    @property
    def head(self) -> Element | None:
        return next((el for el in self.documentElement.children if el.localName == "head"), None)

    @property
    def title(self) -> str:
        el = self.querySelector("title")
        return "" if el is None else el.textContent

    @title.setter
    def title(self, text: str) -> None:
        el = self.querySelector("title")
        if el is not None:
            el.textContent = text

    def getElementById(self, element_id: str) -> Element | None:
        return next((el for el in self.documentElement.iter() if el.attrs.get("id") == element_id), None)

    def querySelector(self, selector: str) -> Element | None:
        root = self.documentElement
        return root if root.matches(selector) else root.querySelector(selector)

    def querySelectorAll(self, selector: str) -> list[Element]:
        root = self.documentElement
        return ([root] if root.matches(selector) else []) + root.querySelectorAll(selector)

    def createElement(self, tag: str) -> Element:
        return Element(tag, doc=self)

    def at(self, anchor: str, path: list[int]) -> Element | None:
        """The element the page names by an anchor (``:root`` or an id) and a path of element
        children (what the page says the player typed into, say)."""
        el = self.documentElement if anchor == ":root" else self.getElementById(anchor)
        for i in path:
            if el is None:
                return None
            kids = el.children
            el = kids[i] if 0 <= i < len(kids) else None
        return el

    def name(self, el: Element) -> None:
        """Name ``el`` to the page, if it does not know it yet: by its path of element children from
        the nearest ancestor it knows, or that has an id, or the root (``:root``)."""
        known = self.patch.known
        if el.vid in known:
            return
        root = self.documentElement
        path: list[int] = []
        node = el
        while node.vid not in known and not node.attrs.get("id") and node is not root:
            parent = node.parent
            assert parent is not None, "an element off the page has no name"
            path.append(parent.children.index(node))
            node = parent
        anchor: object = node.vid if node.vid in known else node.attrs.get("id") or ":root"
        known.add(el.vid)
        self.patch.add(["b", el.vid, anchor, path[::-1], el.localName])
