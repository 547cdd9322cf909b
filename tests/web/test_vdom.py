"""hearts_web.core.vdom, vdocument, selectors: the page's document as the game's worker keeps it,
the operations it sends the page, and the selectors the browser layer writes."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hearts_web.core.selectors import SelectorError, compile_selector
from hearts_web.core.vdocument import Document
from hearts_web.core.vdom import Element, parse_html
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
PAGE = """<!doctype html><html lang="en" class="booting"><head><title>Hearts</title>
<meta name="hearts-turn" content="[]"></head><body><main id="app" hidden>
<header class="topbar"><nav class="tools"><button class="tool" data-action="hint" aria-label="Hint">?</button>
<button class="tool" data-action="undo" disabled>U</button></nav></header>
<section id="table"><div class="seat" data-seat="1"><span class="name">Pip</span><ol class="markers"></ol></div>
<div id="hand"><button data-card="QS" aria-disabled="true">Q</button><button data-card="2C">2</button></div></section>
<dialog id="dlg"><h2 id="dlg-title"></h2><div id="dlg-body"></div></dialog>
<div id="toast" hidden></div></main></body></html>"""


def doc() -> Document:
    return Document(PAGE)


def test_the_page_is_read_as_the_browser_makes_it() -> None:
    d = doc()
    assert d.documentElement.getAttribute("class") == "booting"
    assert d.getElementById("app").hidden  # type: ignore[union-attr]
    assert [b.getAttribute("data-card") for b in d.querySelectorAll("#hand button[data-card]")] == ["QS", "2C"]
    assert d.title == "Hearts" and d.querySelector('meta[name="hearts-turn"]') is not None
    assert d.patch.take() == []  # nothing to tell the page yet


def test_an_element_is_named_to_the_page_once_by_its_path_from_an_id() -> None:
    d = doc()
    name = d.querySelector(".seat[data-seat='1'] .name")
    assert name is not None
    name.textContent = "Hops"
    name.classList.add("thinking")
    ops = d.patch.take()
    seat = d.querySelector(".seat")
    assert ops == [["b", name.vid, "table", [0, 0], "span"], ["t", name.vid, "Hops"], ["c", name.vid, "thinking", 1]]
    assert seat is not None and seat.querySelector(".name") is name
    d.getElementById("hand").innerHTML = '<button data-card="AH">A</button>'  # type: ignore[union-attr]
    ops = d.patch.take()
    assert ops[0][0] == "b" and ops[0][2] == "hand" and ops[0][3] == [] and ops[1][0] == "h"


def test_replaced_elements_are_forgotten_on_both_sides() -> None:
    d = doc()
    card = d.querySelector('#hand button[data-card="2C"]')
    assert card is not None
    card.classList.add("chosen")
    d.getElementById("hand").innerHTML = ""  # type: ignore[union-attr]
    ops = d.patch.take()
    assert ops[-1] == ["f", [card.vid]]
    card.classList.add("ghost")  # off the page now: nothing to send
    assert d.patch.take() == [] and not card.isConnected


def test_contents_drawn_again_as_they_are_send_nothing() -> None:
    d = doc()
    hand = d.getElementById("hand")
    assert hand is not None
    same = '<button data-card="QS" aria-disabled="true">Q</button><button data-card="2C">2</button>'
    card = hand.querySelector('[data-card="QS"]')
    hand.innerHTML = same
    hand.querySelector(".seat")  # (a look changes nothing)
    name = d.querySelector(".seat .name")
    assert name is not None
    name.textContent = "Pip"
    assert d.patch.take() == [] and hand.querySelector('[data-card="QS"]') is card  # the same elements
    hand.innerHTML = same.replace("Q</button>", "Q!</button>")
    name.textContent = "Hops"
    assert [op[0] for op in d.patch.take() if op[0] in ("h", "t")] == ["h", "t"]
    again = hand.innerHTML
    listened = hand.querySelector("button")
    assert listened is not None
    listened.addEventListener("click", lambda event: None)
    hand.innerHTML = again  # a listener below would stay where new contents would drop it: drawn anew
    assert [op[0] for op in d.patch.take() if op[0] in ("h", "t")] == ["h"]


def test_contents_written_otherwise_and_drawn_again_as_they_are_send_nothing() -> None:
    d = doc()
    slot = d.createElement("div")
    d.body.appendChild(slot)
    d.patch.take()
    written = "<div class=\"card s0 \" data-card='3C' role=img >3</div>"  # not as the tree writes it back
    slot.innerHTML = written
    assert [op[0] for op in d.patch.take() if op[0] == "h"] == ["h"]
    slot.innerHTML = written
    assert d.patch.take() == []
    card = slot.querySelector("div")
    assert card is not None
    card.setAttribute("class", "card s0 gone")  # changed below since: the markup's class comes back
    d.patch.take()
    slot.innerHTML = written
    assert d.patch.take() == [["a", card.vid, "class", "card s0 "]]
    slot.innerHTML = "<b>x</b>"
    slot.innerHTML = written  # set to something else in between: drawn anew
    assert [op[0] for op in d.patch.take() if op[0] == "h"] == ["h", "h"]


def test_the_same_cards_in_a_new_state_change_their_attributes_only() -> None:
    d = doc()
    hand = d.getElementById("hand")
    assert hand is not None

    def cards(states: dict[str, str], why: str = "Follow suit") -> str:
        return (
            "".join(
                f'<button class="card {cls}" data-card="{card}" tabindex="-1"><b>{card[0]}</b></button>'
                for card, cls in states.items()
            )
            + f'<span id="hand-why-0" hidden>{why}</span>'
        )

    hand.innerHTML = cards({"QS": "", "2C": "", "AH": ""})
    d.patch.take()
    first = hand.querySelector('[data-card="2C"]')
    d.active = first
    hand.innerHTML = cards({"QS": "selected", "2C": "", "AH": "hinted"}).replace(
        'data-card="2C" tabindex="-1"', 'data-card="2C" tabindex="0" aria-disabled="true"'
    )
    ops = d.patch.take()
    assert {op[0] for op in ops} == {"b", "a"}, ops  # no new markup: attributes of the elements the page has
    assert [op[2:] for op in ops if op[0] == "a"] == [
        ["class", "card selected"],
        ["tabindex", "0"],
        ["aria-disabled", "true"],
        ["class", "card hinted"],
    ]
    assert hand.querySelector('[data-card="2C"]') is first and d.active is first  # the same element, focused
    hand.innerHTML = cards({"QS": "selected", "2C": "", "AH": "hinted"})  # an attribute gone
    assert [op[2:] for op in d.patch.take() if op[0] == "a"] == [["aria-disabled", None], ["tabindex", "-1"]]
    for other in (
        cards({"QS": "", "2C": "", "AD": ""}),  # another card in its place (the same text)
        cards({"QS": "", "2C": ""}),  # a card fewer
        cards({"QS": "", "2C": "", "AH": ""}, why="Hearts are not broken"),  # other text
    ):
        hand.innerHTML = other
        assert [op[0] for op in d.patch.take() if op[0] in ("h", "a")] == ["h"], other
    listened = hand.querySelector("button")
    assert listened is not None
    listened.addEventListener("click", lambda event: None)
    hand.innerHTML = cards({"QS": "selected", "2C": "", "AH": ""})  # a listener below: drawn anew
    assert [op[0] for op in d.patch.take() if op[0] in ("h", "a")] == ["h"]


def test_a_new_element_goes_to_the_page_as_html_when_it_is_appended() -> None:
    d = doc()
    bar = d.createElement("div")
    bar.id = "online-bar"  # (an attribute like any other)
    bar.setAttribute("id", "online-bar")
    bar.innerHTML = "<button data-action='online-mute'>Mute</button>"
    assert d.patch.take() == []
    d.getElementById("table").appendChild(bar)  # type: ignore[union-attr]
    [bind, add] = d.patch.take()
    assert add[0] == "i" and add[2] == "beforeend" and 'id="online-bar"' in str(add[3])
    assert d.getElementById("online-bar") is bar
    bar.querySelector("button").textContent = "Unmute"  # type: ignore[union-attr]
    assert d.patch.take()[0] == ["b", bar.querySelector("button").vid, "online-bar", [0], "button"]  # type: ignore[union-attr]


def test_dialogs_fields_and_attributes() -> None:
    d = doc()
    dlg = d.getElementById("dlg")
    assert dlg is not None and not dlg.open
    closed: list[object] = []
    dlg.addEventListener("close", closed.append)
    dlg.showModal()
    assert dlg.open
    d.getElementById("dlg-body").innerHTML = (  # type: ignore[union-attr]
        '<input id="online-name" value="Ben"><select name="x"><option value="a">A</option>'
        '<option value="b" selected>B</option></select><input type="checkbox" name="c" checked>'
    )
    name = d.getElementById("online-name")
    assert name is not None and name.value == "Ben"
    name.synced("Cleo", None)  # the player typed
    assert name.value == "Cleo" and d.querySelector("select").value == "b"  # type: ignore[union-attr]
    assert d.querySelector("input[type='checkbox']").checked  # type: ignore[union-attr]
    dlg.closed_by_player()
    assert not dlg.open and closed == [None]
    ops = d.patch.take()
    assert ["m", dlg.vid, "showModal"] in ops and not any(op[:2] == ["p", name.vid] for op in ops)
    d.documentElement.dataset.dealVerified = "true"
    assert d.documentElement.getAttribute("data-deal-verified") == "true"
    root = d.documentElement.vid
    assert d.patch.take() == [["b", root, ":root", [], "html"], ["a", root, "data-deal-verified", "true"]]


def test_the_page_names_an_element_by_an_anchor_and_a_path() -> None:
    d = doc()
    assert d.at("hand", [1]) is d.querySelector('[data-card="2C"]')
    assert d.at(":root", [1, 0]) is d.getElementById("app")
    assert d.at("hand", [7]) is None and d.at("nowhere", []) is None


def test_selectors() -> None:
    d = doc()
    card = d.querySelector("[data-card='QS']")
    assert card is not None
    assert card.matches("#hand button[data-card]:not([aria-disabled='false'])")
    assert not card.matches("#hand button[data-card]:not([aria-disabled='true'])")
    assert card.closest("#table") is d.getElementById("table")
    assert card.matches("section > #hand > button") and not card.matches("main > #hand button")
    assert len(d.querySelectorAll(".tool[data-action], #toast")) == 3
    assert d.querySelector("[data-action^='hi']") is d.querySelector(".tool")
    for bad in ("a::before", "a ~ b", ",a", "[x=="):
        with pytest.raises(SelectorError):
            compile_selector(bad)


def _selectors_in_the_web_layer() -> set[str]:
    """Every string literal given to querySelector, qs, qsa, closest or matches in web/hearts_web
    (an f-string's literal parts with its fields as a word)."""
    found: set[str] = set()
    calls = {"qs", "qsa", "closest", "matches", "querySelector", "querySelectorAll"}
    for path in (ROOT / "web" / "hearts_web").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            arg = node.args[0] if name != "closest" or len(node.args) == 1 else node.args[1]
            if name not in calls:
                continue
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                found.add(arg.value)
            elif isinstance(arg, ast.JoinedStr):
                found.add("".join(v.value if isinstance(v, ast.Constant) else "x" for v in arg.values))
    return found


def test_every_selector_the_web_layer_writes_is_read() -> None:
    found = _selectors_in_the_web_layer()
    assert len(found) > 40
    for selector in sorted(found):
        compile_selector(selector)  # raises SelectorError for anything it does not read


TAGS = st.sampled_from(["div", "p", "span", "button", "ul", "li", "section"])
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=8)
ATTRS = st.dictionaries(st.sampled_from(["class", "data-x", "aria-label", "title"]), TEXT, max_size=3)


def trees(depth: int = 3) -> st.SearchStrategy[str]:
    leaf = TEXT.map(lambda s: re.sub(r"[<>&]", "", s))
    if depth == 0:
        return leaf
    element = st.builds(
        lambda tag, attrs, inner: Element(tag, attrs).html().replace("></", f">{''.join(inner)}</", 1),
        TAGS,
        ATTRS,
        st.lists(trees(depth - 1), max_size=3),
    )
    return st.one_of(leaf, element)


@given(st.lists(trees(), max_size=4))
def test_html_read_and_written_again_is_the_same(parts: list[str]) -> None:
    html = "".join(parts)
    once = "".join(n.html() for n in parse_html(html))
    twice = "".join(n.html() for n in parse_html(once))
    assert once == twice


def test_the_page_is_told_of_every_change_once_per_turn_whatever_its_first_change() -> None:
    """The first change after a message to the page asks for the next one (``on_first``), also
    when that change drops elements the page knew before writing anything."""
    d = doc()
    asked: list[int] = []
    d.patch.on_first = lambda: asked.append(1)
    d.querySelector('[data-card="2C"]').classList.add("chosen")  # type: ignore[union-attr]
    d.patch.take()
    d.getElementById("hand").innerHTML = "<span>new</span>"  # drops the card the page knew, then writes  # type: ignore[union-attr]
    d.getElementById("toast").textContent = "hi"  # type: ignore[union-attr]
    assert asked == [1, 1]  # once for each turn
    assert [op[0] for op in d.patch.take()][-1] == "f"
