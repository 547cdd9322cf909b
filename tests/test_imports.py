"""One name per module, and the import path set in one place.

Every import of the project's own code (the product, the build tools, the lab, the tests, e2e)
names a file the same way: ``tools.build``, never ``build`` with tools/ put on ``sys.path``;
``hearts_web.core.i18n``, never ``web.hearts_web.core.i18n``. Two names for one file would make two
module objects of it, with two copies of its globals. Where imports come from is said once, in
pyproject.toml (pytest's ``pythonpath``: the root, web/ and tests/; a test's or a script's own
folder comes first, as Python and pytest put it there); only the runners in ``RUNNERS`` change
``sys.path``, each for a reason it states.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("hearts", "web", "tools", "lab", "tests", "e2e", "examples")
# The files that change sys.path, and the folder each puts there
RUNNERS = {
    "tools/build.py": ".",  # python3 tools/build.py: the tools as ``tools.*`` from the root
    "e2e/netsim.py": ".",  # run as a script in a network namespace (the STUN probe): the same
    "examples/make_record.py": ".",  # run from anywhere: the engine without an install
    "lab/browser/hard_hand.py": "web",  # python3 -m lab.browser.hard_hand: the page's own budgets
    "lab/browser/nat_joins.py": "e2e",  # the simulated networks' harness of the e2e tests
    "lab/browser/no_path.py": "e2e",  # the same
    "lab/browser/screens.py": "e2e",  # the engines' drivers of the e2e smoke path
    "lab/browser/page/bench_page.py": ".",  # inside Pyodide on the bench page: the lab's files
}


@cache
def python_files() -> list[Path]:
    return sorted(
        p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py") if not {"out", "__pycache__"} & set(p.parts)
    )


@cache
def file_names() -> frozenset[str]:
    return frozenset(map(str, python_files()))


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


@cache
def configured_path() -> list[Path]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [(ROOT / entry).resolve() for entry in config["tool"]["pytest"]["ini_options"]["pythonpath"]]


def search_path(path: Path) -> list[Path]:
    """Where an import in ``path`` is looked for: its own folder unless that is a package's (then
    the folder above the package, where pytest's rootdir-less "prepend" import puts it), the
    configured path, and what a runner adds."""
    own = [path.parent]
    while (own[0] / "__init__.py").exists():
        own = [own[0].parent]
    runner = RUNNERS.get(path.relative_to(ROOT).as_posix())
    return own + configured_path() + ([(ROOT / runner).resolve()] if runner else [])


def module_file(name: str, where: list[Path]) -> Path | None:
    """The file ``name`` imports from the first folder of ``where`` that has it, or None (the
    standard library's modules are found before any folder)."""
    if name.split(".")[0] in sys.stdlib_module_names:
        return None
    tail = name.replace(".", "/")
    for folder in where:
        for candidate in (f"{folder}/{tail}/__init__.py", f"{folder}/{tail}.py"):
            if candidate in file_names():
                return Path(candidate)
    return None


def imported_names(path: Path, source: ast.Module) -> set[str]:
    """The absolute module names an import in ``source`` may load (``from a import b``: ``a`` and,
    if it is a module, ``a.b``); relative imports as the package's names."""
    names: set[str] = set()
    package: list[str] = []
    if (path.parent / "__init__.py").exists():
        folder = path.parent
        while (folder / "__init__.py").exists():
            package.insert(0, folder.name)
            folder = folder.parent
    for node in ast.walk(source):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in names if name}


def names_per_file() -> dict[Path, set[str]]:
    """Each project file that some import reaches, with every name it is imported under."""
    found: dict[Path, set[str]] = {}
    for path in python_files():
        where = search_path(path)
        for name in imported_names(path, tree(path)):
            target = module_file(name, where)
            if target is not None:
                found.setdefault(target, set()).add(name)
    return found


def unreachable_imports() -> list[str]:
    """Imports of a project file that its importer's search path does not reach (one that works
    only because some other code put a folder on sys.path)."""
    everywhere = sorted({p.parent for p in python_files()})
    found = []
    for path in python_files():
        where = search_path(path)
        for name in imported_names(path, tree(path)):
            if module_file(name, where) is None and (elsewhere := module_file(name, everywhere)) is not None:
                found.append(f"{path.relative_to(ROOT)} imports {name} ({elsewhere.relative_to(ROOT)})")
    return found


def sys_path_changes(source: ast.Module) -> int:
    """How many statements change ``sys.path`` (insert, append, extend, or an assignment)."""
    count = 0
    for node in ast.walk(source):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if ast.unparse(node.func.value) == "sys.path" and node.func.attr in {"insert", "append", "extend"}:
                count += 1
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            count += sum(ast.unparse(t).split("[")[0] == "sys.path" for t in targets)
    return count


def test_every_module_of_the_project_is_imported_under_one_name() -> None:
    names = names_per_file()
    assert len(names) > 150  # the scan sees the imports
    twice = {str(path.relative_to(ROOT)): sorted(n) for path, n in names.items() if len(n) > 1}
    assert twice == {}


def test_every_import_of_the_projects_code_is_on_the_configured_path() -> None:
    assert unreachable_imports() == []


def test_only_the_runners_change_sys_path() -> None:
    changes = {path.relative_to(ROOT).as_posix(): n for path in python_files() if (n := sys_path_changes(tree(path)))}
    assert changes == dict.fromkeys(RUNNERS, 1)


def test_the_checks_see_a_second_name_and_a_folder_put_on_the_path() -> None:
    source = ast.parse("import sys\nsys.path.insert(0, 'tools')\nsys.path[:0] = ['web']\nimport build\n")
    assert sys_path_changes(source) == 2
    where = [ROOT / "tools", ROOT]
    assert module_file("build", where) == module_file("tools.build", where) == ROOT / "tools" / "build.py"
    assert module_file("build", configured_path()) is None


def test_the_build_tools_import_nothing_of_the_page() -> None:
    """tools/ reads what it needs of web/ as data (the online network: network.json), never its code."""
    found = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in python_files()
        if path.parent == ROOT / "tools"
        for name in imported_names(path, tree(path))
        if name.split(".")[0] in {"hearts_web", "web", "main"}
    ]
    assert found == []
