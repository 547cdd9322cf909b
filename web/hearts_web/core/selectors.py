"""CSS selectors over the page's document as the game's worker keeps it (:mod:`.vdom`): the ones the
browser layer writes. Pure."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

__all__ = ["SelectorError", "compile_selector", "Matchable", "Test"]


class Matchable(Protocol):
    """What a selector looks at of an element."""

    localName: str
    attrs: dict[str, str]

    @property
    def parent(self) -> Matchable | None: ...

    @property
    def children(self) -> Sequence[Matchable]: ...

    @property
    def checked(self) -> bool: ...


class SelectorError(ValueError):
    """A selector this module does not read (it reads what the web layer writes)."""


Test = Callable[[Matchable], bool]
_TOKEN = re.compile(
    r"""\s*(?:
      (?P<child>>)
    | (?P<tag>[a-zA-Z][a-zA-Z0-9-]*|\*)
    | \#(?P<id>[\w-]+)
    | \.(?P<cls>[\w-]+)
    | \[(?P<attr>[\w-]+)(?:(?P<op>[~^$*|]?=)(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[\w-]+)))?\]
    | :not\((?P<not>[^()]*)\)
    | :(?P<pseudo>[\w-]+)
    )""",
    re.X,
)
_CACHE: dict[str, Test] = {}


def _attr_test(name: str, op: str | None, value: str) -> Test:
    if op is None:
        return lambda el: name in el.attrs
    tests: dict[str, Callable[[str], bool]] = {
        "=": lambda v: v == value,
        "~=": lambda v: value in v.split(),
        "^=": lambda v: v.startswith(value),
        "$=": lambda v: v.endswith(value),
        "*=": lambda v: value in v,
        "|=": lambda v: v == value or v.startswith(value + "-"),
    }
    check = tests[op]
    return lambda el: name in el.attrs and check(el.attrs[name])


def _pseudo(name: str) -> Test:
    if name == "checked":
        return lambda el: el.checked
    if name == "disabled":
        return lambda el: "disabled" in el.attrs
    if name == "first-child":
        return lambda el: el.parent is not None and el.parent.children[0] is el
    if name == "last-child":
        return lambda el: el.parent is not None and el.parent.children[-1] is el
    raise SelectorError(f"unknown pseudo-class :{name}")


def _tag(tag: str) -> Test:
    return lambda el: el.localName == tag


def _id(value: str) -> Test:
    return lambda el: el.attrs.get("id") == value


def _class(value: str) -> Test:
    return lambda el: value in (el.attrs.get("class") or "").split()


def _negated(inner: Test) -> Test:
    return lambda el: not inner(el)


def _simple(m: re.Match[str]) -> Test | None:
    """The test of one simple selector (``None``: ``*``, any element)."""
    if m.group("tag"):
        return None if m.group("tag") == "*" else _tag(m.group("tag").lower())
    if m.group("id"):
        return _id(m.group("id"))
    if m.group("cls"):
        return _class(m.group("cls"))
    if m.group("attr"):
        value = m.group("dq") if m.group("dq") is not None else m.group("sq") or m.group("bare") or ""
        return _attr_test(m.group("attr"), m.group("op"), value)
    if m.group("not") is not None:
        return _negated(compile_selector(m.group("not")))
    return _pseudo(m.group("pseudo"))


def _compound(tokens: list[re.Match[str]]) -> Test:
    tests = [test for test in map(_simple, tokens) if test is not None]
    return lambda el: all(test(el) for test in tests)


def _complex(text: str) -> Test:
    """One selector of a list: compounds joined by descendant (space) or child (``>``) combinators."""
    parts: list[tuple[str, Test]] = []  # (combinator before it, its test)
    pos, combinator = 0, " "
    compound: list[re.Match[str]] = []
    text = text.strip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise SelectorError(f"cannot read {text!r} at {text[pos:]!r}")
        spaced = m.group(0)[:1].isspace() and compound
        if m.group("child") or spaced:
            if compound:
                parts.append((combinator, _compound(compound)))
            compound, combinator = [], ">" if m.group("child") else " "
            if m.group("child"):
                pos = m.end()
                continue
        compound.append(m)
        pos = m.end()
    if not compound:
        raise SelectorError(f"{text!r} ends without a compound selector")
    parts.append((combinator, _compound(compound)))

    def test(el: Matchable, i: int = len(parts) - 1) -> bool:
        combinator, own = parts[i]
        if not own(el):
            return False
        if i == 0:
            return True
        parent = el.parent
        if combinator == ">":
            return parent is not None and test(parent, i - 1)
        while parent is not None:
            if test(parent, i - 1):
                return True
            parent = parent.parent
        return False

    return test


def compile_selector(selector: str) -> Test:
    """A test for ``selector``: tags, ids, classes, attributes (``[a]``, ``[a="v"]``, ``~= ^= $= *=
    |=``), ``:not(...)``, ``:checked``, ``:disabled``, ``:first-child``, ``:last-child``, the
    descendant and child combinators and lists; anything else raises :class:`SelectorError`."""
    found = _CACHE.get(selector)
    if found is None:
        alternatives = [_complex(part) for part in _split(selector)]
        found = _CACHE[selector] = lambda el: any(alt(el) for alt in alternatives)
    return found


def _split(selector: str) -> list[str]:
    """The selectors of a list (commas inside ``:not(...)`` or quotes do not split it)."""
    out, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(selector):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(selector[start:i])
            start = i + 1
    out.append(selector[start:])
    if any(not part.strip() for part in out):
        raise SelectorError(f"an empty selector in {selector!r}")
    return out
