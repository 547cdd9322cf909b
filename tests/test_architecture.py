"""The architecture stays easy to see: the engine never imports the browser, and no module of the
engine or of the web layer imports itself through others (no import circles, lazy imports included).

The browser layer keeps its shape: docs/architecture.md lists every web module once, with its layer
and whether it is pure; pure modules never reach the browser; imports go down the layers; only the
controller imports the online table; no module sets another's state; no ``Any`` outside dom.py.
The sizes (no module over 450 lines, no function over 60) are tests/test_size_limits.py's."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"hearts": ROOT / "hearts", "hearts_web": ROOT / "web" / "hearts_web"}
BROWSER = {"js", "pyodide", "pyscript"}


def _module_name(package: str, folder: Path, path: Path) -> str:
    parts = list(path.relative_to(folder).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts])


def imports(package: str) -> dict[str, set[str]]:
    """module -> modules it imports (top-level or inside functions; ``TYPE_CHECKING`` blocks too)."""
    folder = PACKAGES[package]
    graph: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        name = _module_name(package, folder, path)
        is_pkg = path.name == "__init__.py"
        base = name.split(".") if is_pkg else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    anchor = base[: len(base) - node.level + 1]
                    target = ".".join(anchor + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                found.add(target)
                found.update(f"{target}.{alias.name}" for alias in node.names)
        graph[name] = found
    modules = set(graph)
    return {m: {t for t in targets if t in modules and t != m} for m, targets in graph.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle (as a path that comes back to its start)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                found.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_no_import_circles(package: str) -> None:
    assert cycles(imports(package)) == []


def test_the_engine_never_imports_the_browser() -> None:
    folder = PACKAGES["hearts"]
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else ([node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            )
            for name in names:
                assert name.split(".")[0] not in BROWSER | {"hearts_web"}, f"{path}: imports {name}"


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# ------------------------------------------------------------------ the browser layer's shape
WEB = PACKAGES["hearts_web"]
DOCS = ROOT / "docs" / "architecture.md"
DOM_BOUNDARY = {"core/dom.py"}  # the one module that gives JavaScript objects a type (Any)
LAYERS = ("base", "page", "feature", "composition")  # a module imports its own layer or lower ones


def _sources(folder: Path) -> dict[str, ast.Module]:
    return {
        path.relative_to(folder).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(folder.rglob("*.py"))
    }


def uses_any(tree: ast.Module) -> bool:
    return any(
        (isinstance(node, ast.Name) and node.id == "Any")
        or (isinstance(node, ast.Attribute) and node.attr == "Any")
        or (isinstance(node, ast.alias) and node.name == "Any")
        for node in ast.walk(tree)
    )


def test_no_any_outside_the_dom_boundary() -> None:
    """JavaScript objects are typed once, in dom.py (JsObject, Element, JsEvent); JSON data is
    ``object`` until it is checked."""
    assert [name for name, tree in _sources(WEB).items() if name not in DOM_BOUNDARY and uses_any(tree)] == []
    assert uses_any(ast.parse("from typing import Any\nx: Any = 1"))


def module_state_set_from_outside(trees: dict[str, ast.Module]) -> list[str]:
    """``module.name = value`` (or ``+=``, ``del``) where ``module`` is one of our imported modules:
    state that one module sets in another (the standard library's, such as ``sys.stdout``, aside)."""
    found = []
    for name, tree in trees.items():
        modules = {
            alias.asname or alias.name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
            if alias.name.split(".")[0] in PACKAGES
        }
        modules |= {
            alias.asname or alias.name
            for node in ast.walk(tree)  # from . import x, from .. import x
            if isinstance(node, ast.ImportFrom) and node.level and node.module is None
            for alias in node.names
        }
        for node in ast.walk(tree):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            elif isinstance(node, ast.Delete):
                targets = node.targets
            for target in targets:
                for part in ast.walk(target):
                    if (
                        isinstance(part, ast.Attribute)
                        and isinstance(part.value, ast.Name)
                        and part.value.id in modules
                    ):
                        found.append(f"{name}:{node.lineno} sets {part.value.id}.{part.attr}")
    return found


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_no_module_sets_another_modules_state(package: str) -> None:
    assert module_state_set_from_outside(_sources(PACKAGES[package])) == []


def test_the_state_check_sees_a_module_global_set_from_outside() -> None:
    tree = ast.parse(
        "from . import render\nimport hearts.rules as r\nimport sys\nrender.seating = 1\nr.x += 1\n"
        "self.y = 2\nsys.stdout = None\n"
    )
    assert module_state_set_from_outside({"m.py": tree}) == ["m.py:4 sets render.seating", "m.py:5 sets r.x"]


# ------------------------------------------------------------------ docs/architecture.md's module table
ROW = re.compile(r"^\| `([\w/]+\.py)` \| (\w+) \| (pure|browser) \| .+ \|$")


def documented_modules(text: str) -> dict[str, tuple[str, str]]:
    """The browser layer's table: module -> (layer, pure or browser); one module per row."""
    section = text.split("## The browser layer", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, tuple[str, str]] = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            match = ROW.match(line)
            assert match is not None, f"not one module per row (module | layer | pure/browser | job): {line}"
            assert match.group(1) not in rows, f"{match.group(1)} is listed twice"
            assert match.group(2) in LAYERS, f"{match.group(1)}: unknown layer {match.group(2)}"
            rows[match.group(1)] = (match.group(2), match.group(3))
    return rows


def web_modules() -> set[str]:
    return {path.relative_to(WEB).as_posix() for path in WEB.rglob("*.py") if path.name != "__init__.py"}


def test_the_docs_list_every_web_module_once() -> None:
    documented = set(documented_modules(DOCS.read_text(encoding="utf-8")))
    assert sorted(web_modules() - documented) == [], "in the tree, not in docs/architecture.md"
    assert sorted(documented - web_modules()) == [], "in docs/architecture.md, not in the tree"


def _web_name(module: str) -> str:
    return "hearts_web." + module[:-3].replace("/", ".")


def browser_reach(graph: dict[str, set[str]], raw: dict[str, set[str]]) -> set[str]:
    """The web modules that import the browser (pyscript, js) themselves or through others."""
    reach = {m for m, targets in raw.items() if any(t.split(".")[0] in BROWSER for t in targets)}
    changed = True
    while changed:
        changed = False
        for module, targets in graph.items():
            if module not in reach and targets & reach:
                reach.add(module)
                changed = True
    return reach


def runtime_imports(package: str) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """The import graph without ``TYPE_CHECKING`` blocks (what runs), within the package and all of it."""
    folder = PACKAGES[package]
    everything: dict[str, set[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        name = _module_name(package, folder, path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                node.body = []
        base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        found: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                target = (
                    ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
                    if node.level
                    else (node.module or "")
                )
                found.add(target)
                found.update(f"{target}.{alias.name}" for alias in node.names)
        everything[name] = found
    modules = set(everything)
    within = {m: {t for t in targets if t in modules and t != m} for m, targets in everything.items()}
    return within, everything


def test_pure_modules_never_reach_the_browser_and_browser_modules_do() -> None:
    """What the docs call pure imports in CPython (tests/web); what they call browser needs the page."""
    rows = documented_modules(DOCS.read_text(encoding="utf-8"))
    graph, raw = runtime_imports("hearts_web")
    reach = browser_reach(graph, raw)
    wrong = [
        f"{module}: documented {kind}"
        for module, (_, kind) in rows.items()
        if (_web_name(module) in reach) != (kind == "browser")
    ]
    assert wrong == []


def upward_imports(
    graph: dict[str, set[str]], layer: dict[str, str], one_feature: str = "hearts_web.online."
) -> list[str]:
    """Imports that go up the layers, or from one feature to another (the modules under
    ``one_feature``, the online table's parts, use each other: they are one feature)."""
    rank = {name: i for i, name in enumerate(LAYERS)}
    found = []
    for module, targets in graph.items():
        for target in targets:
            if module not in layer or target not in layer:
                continue
            up = rank[layer[target]] > rank[layer[module]]
            across = layer[module] == layer[target] == "feature" and not (
                module.startswith(one_feature) and target.startswith(one_feature)
            )
            if up or across:
                found.append(f"{module} ({layer[module]}) imports {target} ({layer[target]})")
    return sorted(found)


def test_no_web_module_imports_upward() -> None:
    """base (pure values, HTML) < page (the DOM parts every feature uses: the view, the dialogs,
    the table loop) < feature (registers its commands) < composition (the controller)."""
    rows = documented_modules(DOCS.read_text(encoding="utf-8"))
    layer = {_web_name(module): row[0] for module, row in rows.items()}
    assert upward_imports(imports("hearts_web"), layer) == []


def test_the_layer_check_sees_an_upward_import() -> None:
    layer = {"w.a": "base", "w.b": "feature", "w.c": "feature", "w.online.x": "feature", "w.online.y": "feature"}
    graph = {"w.a": {"w.b"}, "w.b": {"w.c"}, "w.c": set(), "w.online.x": {"w.online.y"}, "w.online.y": set()}
    assert upward_imports(graph, layer, "w.online.") == [
        "w.a (base) imports w.b (feature)",
        "w.b (feature) imports w.c (feature)",
    ]


def online_imports_from_outside(graph: dict[str, set[str]]) -> list[str]:
    """Imports of the online table from outside its package, other than the controller's of its
    entry (``online.start``) and its door: anything else would load online code with every page."""
    allowed = {"hearts_web.online.start", "hearts_web.online.door", "hearts_web.online"}
    return sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        if not module.startswith("hearts_web.online")
        for target in targets
        if target.startswith("hearts_web.online") and not (module == "hearts_web.controller" and target in allowed)
    )


def test_only_the_controller_imports_the_online_table() -> None:
    assert online_imports_from_outside(imports("hearts_web")) == []
    assert online_imports_from_outside({"hearts_web.table.hand_controls": {"hearts_web.online.guest"}}) == [
        "hearts_web.table.hand_controls imports hearts_web.online.guest"
    ]


PRODUCT = [ROOT / "hearts", ROOT / "web", ROOT / "tools", ROOT / "index.html"]
LAB_CITATION = re.compile(r"\blab[./]|\bbench/out\b|\btools/bench_\w+")


def _product_files() -> list[Path]:
    return [
        p
        for top in PRODUCT
        for p in ([top] if top.is_file() else sorted(top.rglob("*")))
        if p.is_file() and p.suffix in {".py", ".js", ".mjs", ".html", ".css", ".toml"}
    ]


def test_the_product_neither_imports_nor_cites_the_lab() -> None:
    """The game and its build tools stand alone: no import of ``lab``, no path of the lab's or of its
    run outputs in code or comments (figures that matter are stated, their runs are in lab/RESULTS.md)."""
    found = []
    for path in _product_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if LAB_CITATION.search(line) or re.match(r"\s*(from|import)\s+lab\b", line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert found == [], "\n".join(found[:20])


def test_the_citation_check_sees_a_citation() -> None:
    assert LAB_CITATION.search("# measured: bench/out/browser-worker-v7.txt")
    assert LAB_CITATION.search("see lab/RESULTS.md") and LAB_CITATION.search("python3 -m lab.arena")
    assert not LAB_CITATION.search("the collaboration of a slab.") and not LAB_CITATION.search("label.text")


# ------------------------------------------------------------------ the browser layer's packages
# Each package imports its own modules and the packages below it; a feature package imports no
# other feature but those named here (settings and tabs show the data file's notices and HTML, the
# statistics and challenge links the daily's result and calendar pieces).
PACKAGE_LEVEL = {
    "core": 0,
    "data": 1,
    "screen": 2,
    "table": 3,
    "settings": 4,
    "transfer": 4,
    "tabs": 4,
    "stats": 4,
    "daily": 4,
    "review": 4,
    "learn": 4,
    "challenge": 4,
    "online": 4,
    "controller": 5,
}
FEATURE_USES = {"settings": {"transfer"}, "tabs": {"transfer"}, "stats": {"daily"}, "challenge": {"daily"}}
TOP_LEVEL_MODULES = 6  # at most, __init__ included


def _package(module: str) -> str:
    """hearts_web.data.store -> data; hearts_web.controller -> controller."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def package_violations(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, targets in graph.items():
        mine = _package(module)
        for target in targets:
            theirs = _package(target)
            if not mine or not theirs or mine == theirs:
                continue
            level, other = PACKAGE_LEVEL[mine], PACKAGE_LEVEL[theirs]
            allowed = other < level or (other == level == 4 and theirs in FEATURE_USES.get(mine, set()))
            if not allowed:
                found.append(f"{module} ({mine}) imports {target} ({theirs})")
    return sorted(found)


def test_every_web_module_lives_in_a_package_and_the_top_level_stays_small() -> None:
    top = sorted(p.name for p in WEB.glob("*.py"))
    assert len(top) <= TOP_LEVEL_MODULES, top
    packages = {p.name for p in WEB.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert packages == set(PACKAGE_LEVEL) - {"controller"}, packages ^ (set(PACKAGE_LEVEL) - {"controller"})


def test_no_package_imports_a_higher_one_or_another_feature() -> None:
    assert package_violations(imports("hearts_web")) == []


def test_the_package_check_sees_an_upward_and_a_sideways_import() -> None:
    graph = {
        "hearts_web.core.dom": {"hearts_web.data.store"},
        "hearts_web.review.dialog": {"hearts_web.learn.feature"},
        "hearts_web.stats.dialog": {"hearts_web.daily.html"},
        "hearts_web.table.view": {"hearts_web.core.dom"},
    }
    assert package_violations(graph) == [
        "hearts_web.core.dom (core) imports hearts_web.data.store (data)",
        "hearts_web.review.dialog (review) imports hearts_web.learn.feature (learn)",
    ]
