"""The architecture stays easy to see: the engine never imports the browser, and no module of the
engine or of the web layer imports itself through others (no import circles, lazy imports included)."""

from __future__ import annotations

import ast
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
                found.append(stack[stack.index(nxt):] + [nxt])
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
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            for name in names:
                assert name.split(".")[0] not in BROWSER | {"hearts_web"}, f"{path}: imports {name}"


def test_the_cycle_finder_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
