"""Small parts a reader can follow: no function in ``hearts/`` over 60 lines, no module over 450.

A function counts from its ``def`` (decorators included) to its last line, docstring and nested
functions included; a module counts every line of its file.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "hearts"
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 450
MODULES = sorted(PACKAGE.rglob("*.py"))


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


def test_the_package_has_modules() -> None:
    assert len(MODULES) > 20


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_function_is_over_60_lines(path: Path) -> None:
    long = [f"{name} (line {line}): {n} lines" for name, line, n in function_lengths(path.read_text(encoding="utf-8"))
            if n > MAX_FUNCTION_LINES]
    assert not long, f"{path.relative_to(ROOT)}: " + "; ".join(long)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_is_over_450_lines(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_MODULE_LINES, f"{path.relative_to(ROOT)}: {lines} lines"


def test_the_measure_counts_a_long_function_and_its_nested_ones() -> None:
    body = "".join(f"        x{i} = {i}\n" for i in range(60))
    source = f"class A:\n    @staticmethod\n    def f():\n{body}        def g():\n            pass\n"
    lengths = {name: n for name, _, n in function_lengths(source)}
    assert lengths == {"A.f": 64, "A.f.g": 2}
