"""Small parts a reader can follow: no function in ``hearts/`` or ``web/hearts_web/`` over 60 lines,
no module over 450 lines (the DE/EN translation tables aside), as `ruff format` writes them.

A function counts from its ``def`` (decorators included) to its last line, docstring and nested
functions included; a module counts every line of its file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = {ROOT / "hearts": 450, ROOT / "web" / "hearts_web": 450}
TRANSLATION_TABLES = {ROOT / "web" / "hearts_web" / "core/i18n.py"}
MODULES = sorted(path for package in MAX_MODULE_LINES for path in package.rglob("*.py"))


def module_limit(path: Path) -> int | None:
    """The most lines ``path`` may have (None: no limit)."""
    if path in TRANSLATION_TABLES:
        return None
    return next(limit for package, limit in MAX_MODULE_LINES.items() if package in path.parents)


def function_lengths(source: str) -> list[tuple[str, int, int]]:
    """(qualified name, first line, lines) of every function and method in ``source``."""
    out: list[tuple[str, int, int]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                assert child.end_lineno is not None
                out.append((prefix + child.name, first, child.end_lineno - first + 1))
                walk(child, prefix + child.name + ".")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(source), "")
    return out


def test_both_packages_have_modules() -> None:
    assert all(len(list(package.rglob("*.py"))) > 20 for package in MAX_MODULE_LINES)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_function_is_over_60_lines(path: Path) -> None:
    long = [
        f"{name} (line {line}): {n} lines"
        for name, line, n in function_lengths(path.read_text(encoding="utf-8"))
        if n > MAX_FUNCTION_LINES
    ]
    assert not long, f"{path.relative_to(ROOT)}: " + "; ".join(long)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_its_limit(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    limit = module_limit(path)
    assert limit is None or lines <= limit, f"{path.relative_to(ROOT)}: {lines} lines (at most {limit})"


def test_the_measure_counts_a_long_function_and_its_nested_ones() -> None:
    body = "".join(f"        x{i} = {i}\n" for i in range(60))
    source = f"class A:\n    @staticmethod\n    def f():\n{body}        def g():\n            pass\n"
    lengths = {name: n for name, _, n in function_lengths(source)}
    assert lengths == {"A.f": 64, "A.f.g": 2}
