"""The page and the code, checked against each other (no browser: ``index.html`` is parsed and the
Python that writes HTML is read).

* Every ``data-action`` of the page and of the HTML the code writes has a handler registered with
  ``commands.add`` (and every ``data-form`` one registered with ``commands.add_form``); every
  registered action has a control, or is named in :data:`NO_CONTROL` with the reason.
* Every ``data-i18n`` key of the page and every key given to ``t()`` exists in English and German
  (:mod:`hearts_web.core.i18n`): literal keys, the literals a key is chosen from, and the families made
  with an f-string (``t(f"diff_{level}")``), each declared in :data:`FAMILIES` with the values it
  takes, read from the code's own constants.

HTML with a computed ``data-action`` is written by the builders in :data:`BUILDERS` only (the test
reads the actions their callers hand them); a new builder, a new family of keys or a key chosen
from a variable must be taught here, so nothing slips through unseen. At run time an unknown
action or key is a warning in the console (``Commands.warn``, ``i18n.report_missing_with``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path

from hearts_web.core import i18n
from hearts_web.data import registry as saved_data
from hearts_web.data.settings import DECKS, DIFFICULTIES, LOOKS, SPEEDS
from hearts_web.data.stats import PRESET_NAMES
from hearts_web.online.messages import ANSWERS, REACTIONS, SEAT_KINDS
from hearts_web.online.panel_html import TIMER_KEYS

from hearts import PASS_CYCLES, PRESETS, FirstTrick, MoonScoring, PassDirection, TieRule
from hearts.daily import SHARE_MARKERS

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web" / "hearts_web"
PAGE = ROOT / "index.html"

# Registered actions no control carries, and why.
NO_CONTROL = {
    "review-first": "keyboard only: Home in the hand review (dom_input.REVIEW_KEYS)",
    "review-last": "keyboard only: End in the hand review (dom_input.REVIEW_KEYS)",
}
# The functions that write a computed data-action: the test reads what their callers hand them.
BUILDERS = {("transfer/html.py", "_buttons"), ("screen/dialogs.py", "_actions"), ("settings/form.py", "_seg")}
# t() keys made with an f-string: the pattern (each {} one value) and the values it takes.
SEATS = range(4)
FAMILIES: dict[str, Iterable[object]] = {
    "diff_{}": DIFFICULTIES,
    "look_{}": LOOKS,
    "deck_{}": DECKS,
    "speed_{}": SPEEDS,
    "preset_{}": PRESETS,
    "preset_short_{}": PRESET_NAMES,
    "cycle_{}": PASS_CYCLES,
    "ft_{}": [v.value for v in FirstTrick],
    "moon_{}": [v.value for v in MoonScoring],
    "tie_{}": [v.value for v in TieRule],
    "pass_{}": [d.value for d in PassDirection],
    "marker_{}": SHARE_MARKERS,
    "st_place_{}": range(2, 5),  # 1: won
    "seat_{}": SEATS,
    "seat_name_{}": SEATS,
    "compass_{}": SEATS,
    "suit_{}": SEATS,
    "suit1_{}": SEATS,
    "kind_{}": SEAT_KINDS,
    "online_rematch_{}": ANSWERS,
    "react_{}": REACTIONS,
    "import_bad_{}": ("json", "format", "version", "size"),
    "n_{}_{}": [f"{kind.what}_{outcome}" for kind in saved_data.KINDS for outcome in ("repaired", "replaced")],
}
# t() called with a variable: where its keys come from (checked by other tests, or listed here).
VARIABLE_KEYS = {
    ("screen/page.py", "apply_texts"): "the page's data-i18n keys (index.html, checked below)",
    ("screen/page.py", "render_badge"): ("back_to_match", "new_match"),
    ("data/registry.py", "text"): "the sentences a kind's repairs may add (SavedKind.texts, test_saved_data)",
    ("core/refusals.py", "explain_code"): "err_<code> when it exists (`key in i18n.EN`), else err_other",
    ("stats/html.py", "presets_html"): (
        "st_matches",
        "st_won_col",
        "st_per_hand",
        "st_moons_shot",
        "st_moons_allowed",
        "st_queens",
    ),
    ("stats/html.py", "history_html"): ("st_date", "st_game", "st_result", "st_per_hand_short"),
    ("online/guest_side.py", "verified"): (
        "online_verified",
        "online_verify_failed",
        "online_unchecked_late",
        "online_unchecked",
    ),
    ("online/panel.py", "relay_refused"): ("online_ice_refused", "online_relay_refused"),
    ("online/panel_html.py", "timer_label"): tuple(TIMER_KEYS.values()) + ("online_timer_s",),
    ("transfer/html.py", "storage_line_html"): ("storage_kept", "storage_space", "storage_seven_days"),
    ("transfer/html.py", "import_preview_html"): tuple(
        f"imp_{kind.what}" for kind in saved_data.KINDS if kind.importable
    ),
}


# ------------------------------------------------------------------ reading the page and the code
class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: dict[str, list[str]] = {"data-action": [], "data-i18n": [], "data-form": []}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in self.found and value is not None:
                self.found[name].append(value)


def page_attributes(text: str) -> dict[str, list[str]]:
    parser = _Page()
    parser.feed(text)
    return parser.found


def sources() -> dict[str, ast.Module]:
    return {p.relative_to(WEB).as_posix(): ast.parse(p.read_text(encoding="utf-8")) for p in sorted(WEB.rglob("*.py"))}


def functions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Each node with the name of the function it is in ("" at module level)."""

    def walk(node: ast.AST, name: str) -> Iterator[tuple[str, ast.AST]]:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else name
            yield inner, child
            yield from walk(child, inner)

    yield from walk(tree, "")


def _name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


ATTR = re.compile(r'data-(action|form|i18n)="([^"{}]*)"')


def written(trees: dict[str, ast.Module]) -> tuple[dict[str, set[str]], set[tuple[str, str]]]:
    """The data-action/-form/-i18n values the code writes literally (f-string parts included), and
    the functions that write a computed data-action."""
    found: dict[str, set[str]] = {"action": set(), "form": set(), "i18n": set()}
    computed: set[tuple[str, str]] = set()
    for module, tree in trees.items():
        for function, node in functions(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                for kind, value in ATTR.findall(node.value):
                    found[kind].add(value)
            elif isinstance(node, ast.JoinedStr) and "<" in "".join(_strings(node)):  # HTML (not a CSS selector)
                parts = node.values
                for before, after in zip(parts, parts[1:]):
                    if (
                        isinstance(before, ast.Constant)
                        and str(before.value).endswith('data-action="')
                        and isinstance(after, ast.FormattedValue)
                    ):
                        computed.add((module, function))
    return found, computed


def handed_to_builders(trees: dict[str, ast.Module]) -> set[str]:
    """The actions given to the builders: ``(class, action, label)`` button tuples (dialogs), the
    ``(action, label)`` pairs of ``_buttons``, ``notice_html`` and ``notice``, ``_seg``'s first argument."""
    actions: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Tuple) and len(node.elts) == 3:
                cls, action = node.elts[0], node.elts[1]
                if (
                    isinstance(cls, ast.Constant)
                    and cls.value in ("primary", "secondary")
                    and isinstance(action, ast.Constant)
                ):
                    actions.add(str(action.value))
            if isinstance(node, ast.Call) and _name(node.func) in ("_buttons", "notice_html", "notice"):
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    for pair in ast.walk(arg):
                        if (
                            isinstance(pair, ast.Tuple)
                            and len(pair.elts) == 2
                            and isinstance(pair.elts[0], ast.Constant)
                            and isinstance(pair.elts[1], ast.Call)
                            and _name(pair.elts[1].func) == "t"
                        ):
                            actions.add(str(pair.elts[0].value))
            if isinstance(node, ast.Call) and _name(node.func) == "_seg" and isinstance(node.args[0], ast.Constant):
                actions.add(str(node.args[0].value))
    return actions


def registered(trees: dict[str, ast.Module]) -> tuple[set[str], set[str], list[str]]:
    """Actions and forms registered (``commands.add``, ``add_form``, ``extras.later``); and the
    registrations whose action the test cannot read."""
    actions: set[str] = set()
    forms: set[str] = set()
    unread: list[str] = []
    for module, tree in trees.items():
        constants = {
            t.id: _strings(n.value)
            for n in tree.body
            if isinstance(n, ast.Assign)
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        loops = {
            n.target.id: _strings(n.iter) if not isinstance(n.iter, ast.Name) else constants.get(n.iter.id, [])
            for n in ast.walk(tree)
            if isinstance(n, ast.For) and isinstance(n.target, ast.Name)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args):
                continue
            receiver, method, first = ast.unparse(node.func.value), node.func.attr, node.args[0]
            if method == "later" and receiver == "extras":
                actions.update(_strings(node.args[1]))
            elif method in ("add", "add_form") and receiver.endswith("commands"):
                if isinstance(first, ast.Constant):
                    names = [str(first.value)]
                elif isinstance(first, ast.Name) and first.id in loops and module != "screen/extras.py":
                    names = loops[first.id]
                else:
                    if (
                        module != "screen/extras.py"
                    ):  # extras.later registers the placeholders of the actions it is given
                        unread.append(f"{module}:{node.lineno}")
                    continue
                (forms if method == "add_form" else actions).update(names)
    return actions, forms, unread


def keyboard_actions() -> set[str]:
    """What the keys run (dom_input: its key maps' values and the presses it makes itself)."""
    tree = sources()["core/dom_input.py"]
    maps = [
        n.value
        for n in tree.body
        if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) in ("TABLE_KEYS", "REVIEW_KEYS")
    ]
    presses = [
        n.args[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and _name(n.func) == "Press" and n.args and isinstance(n.args[0], ast.Constant)
    ]
    return {str(v.value) for m in maps if isinstance(m, ast.Dict) for v in m.values if isinstance(v, ast.Constant)} | {
        str(p.value) for p in presses if isinstance(p, ast.Constant)
    }


# ------------------------------------------------------------------ actions
def test_every_action_of_the_page_and_of_the_code_has_a_handler() -> None:
    trees = sources()
    page = page_attributes(PAGE.read_text(encoding="utf-8"))
    literal, _ = written(trees)
    controls = set(page["data-action"]) | literal["action"] | handed_to_builders(trees)
    actions, forms, unread = registered(trees)
    assert unread == [], "registrations whose action cannot be read: name it as a literal or loop over a literal tuple"
    assert sorted(controls - actions) == [], "data-action without a registered handler"
    assert sorted((set(page["data-form"]) | literal["form"]) - forms) == [], "data-form without a registered handler"
    assert sorted(forms - set(page["data-form"]) - literal["form"]) == [], "a form registered that no HTML carries"


def test_every_registered_action_has_a_control_or_a_stated_reason() -> None:
    trees = sources()
    literal, _ = written(trees)
    controls = (
        set(page_attributes(PAGE.read_text(encoding="utf-8"))["data-action"])
        | literal["action"]
        | handed_to_builders(trees)
    )
    actions = registered(trees)[0]
    assert sorted(actions - controls - set(NO_CONTROL)) == [], (
        "registered, but no control runs it (or say why in NO_CONTROL)"
    )
    assert sorted(set(NO_CONTROL) - actions) == [], "NO_CONTROL names an action nobody registers"
    assert sorted(set(NO_CONTROL) - keyboard_actions()) == [], "NO_CONTROL's actions are the keyboard's"
    assert keyboard_actions() <= actions


def test_computed_actions_are_written_by_the_known_builders_only() -> None:
    assert written(sources())[1] == BUILDERS


# ------------------------------------------------------------------ texts
def used_keys(trees: dict[str, ast.Module]) -> tuple[set[str], set[str], set[tuple[str, str]]]:
    """Keys given to ``t()``: the literals (in the argument, e.g. both sides of an ``if``), the f-string
    patterns (``"diff_{}"``), and the functions that give it a variable."""
    literals: set[str] = set()
    patterns: set[str] = set()
    variables: set[tuple[str, str]] = set()
    for module, tree in trees.items():
        for function, node in functions(tree):
            if not (
                isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "t" and node.args
            ):
                continue
            arg = node.args[0]
            if isinstance(arg, ast.JoinedStr):
                patterns.add("".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in arg.values))
            elif isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript, ast.Call, ast.BinOp)):  # "imp_" + kind.what
                variables.add((module, function))
            else:
                literals.update(_strings(arg))
    return literals, patterns, variables


def _missing(keys: Iterable[str]) -> list[str]:
    return sorted(k for k in keys if k not in i18n.EN or k not in i18n.DE)


def test_every_text_of_the_page_exists_in_english_and_german() -> None:
    page = page_attributes(PAGE.read_text(encoding="utf-8"))["data-i18n"]
    assert page and _missing(page) == []
    assert _missing(written(sources())[0]["i18n"]) == []


def test_every_literal_key_given_to_t_exists_in_english_and_german() -> None:
    literals = used_keys(sources())[0]
    assert len(literals) > 250 and _missing(literals) == []


def test_every_family_of_keys_exists_in_english_and_german_for_every_value() -> None:
    patterns = used_keys(sources())[1]
    assert sorted(patterns - set(FAMILIES)) == [], "a t(f'...') family the test does not know: add it to FAMILIES"
    for pattern in patterns:
        values = list(FAMILIES[pattern])
        keys = [
            pattern.replace("{}_{}", str(v)) if "{}_{}" in pattern else pattern.replace("{}", str(v)) for v in values
        ]
        assert values and _missing(keys) == [], pattern


def test_every_key_chosen_from_a_variable_is_accounted_for() -> None:
    variables = used_keys(sources())[2]
    assert sorted(variables - set(VARIABLE_KEYS)) == [], (
        "t() of a variable the test does not know: add it to VARIABLE_KEYS"
    )
    assert sorted(set(VARIABLE_KEYS) - variables) == [], (
        "VARIABLE_KEYS names a place that no longer calls t() of a variable"
    )
    for place, keys in VARIABLE_KEYS.items():
        if not isinstance(keys, str):
            assert keys and _missing(keys) == [], place


# ------------------------------------------------------------------ the checks themselves
def test_the_checks_see_a_missing_handler_a_missing_text_and_a_new_family() -> None:
    tree = ast.parse(
        'def build():\n    return f\'<button data-action="ghost" data-i18n="no_such_key">{t("nor_this")}</button>\'\n'
        'def keys(level):\n    return t(f"level_{level}") + t(level)\n'
        'def register(commands):\n    commands.add("ghost-2", print)\n    commands.add(name(), print)\n'
    )
    literal, _ = written({"m.py": tree})
    assert literal["action"] == {"ghost"} and literal["i18n"] == {"no_such_key"}
    literals, patterns, variables = used_keys({"m.py": tree})
    assert _missing(literals) == ["nor_this"] and patterns == {"level_{}"} and variables == {("m.py", "keys")}
    assert registered({"m.py": tree}) == ({"ghost-2"}, set(), ["m.py:7"])
    assert page_attributes('<a data-action="x" data-i18n="y"></a>') == {
        "data-action": ["x"],
        "data-i18n": ["y"],
        "data-form": [],
    }


# ------------------------------------------------------------------ what index.html draws before Python
class _Notice(HTMLParser):
    """A notice card's paragraph and its buttons (what each does, its accessible name), as a
    player of ``lang`` sees and hears it: index.html's texts of the other language and what is
    hidden from assistive technology are skipped."""

    def __init__(self, notice_id: str, lang: str) -> None:
        super().__init__()
        self.notice_id, self.other = notice_id, f"lang-{'en' if lang == 'de' else 'de'}"
        self.depth = 0  # inside the notice: how deep
        self.skip = 0  # inside a skipped element: how deep
        self.text: list[str] = []
        self.buttons: list[tuple[str, str]] = []
        self.button: list[str] | None = None
        self.label: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if not self.depth:
            if a.get("data-notice") == self.notice_id:
                self.depth = 1
            return
        self.depth += 1
        if self.skip or self.other in a.get("class", "").split() or a.get("aria-hidden") == "true":
            self.skip += 1
        elif tag == "button":
            self.button, self.label = [], a.get("aria-label")
            self.what = a.get("data-action") or "close " + a.get("data-close-notice", "")

    def handle_endtag(self, tag: str) -> None:
        if not self.depth:
            return
        self.depth -= 1
        if self.skip:
            self.skip -= 1
        elif tag == "button" and self.button is not None:
            self.buttons.append((self.what, self.label or "".join(self.button).strip()))
            self.button = None

    def handle_data(self, data: str) -> None:
        if self.depth and not self.skip:
            (self.text if self.button is None else self.button).append(data)


def notice_seen(html: str, notice_id: str, lang: str) -> tuple[str, list[tuple[str, str]]]:
    parser = _Notice(notice_id, lang)
    parser.feed(html)
    return " ".join("".join(parser.text).split()), parser.buttons


def test_the_first_visits_welcome_in_the_page_is_pythons_in_both_languages() -> None:
    """index.html draws the welcome before Python runs (a first visit's largest element, there at
    the first paint); Python then puts its own in its place: the same words and buttons."""
    from hearts_web.learn.guide_html import welcome_html

    page = PAGE.read_text(encoding="utf-8")
    try:
        for lang in i18n.LANGS:
            i18n.set_lang(lang)
            static, python = notice_seen(page, "welcome", lang), notice_seen(welcome_html(), "welcome", lang)
            assert static[0], f"no welcome in index.html ({lang})"
            assert static == python, lang
    finally:
        i18n.set_lang("en")
