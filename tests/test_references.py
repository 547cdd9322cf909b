"""Every reference to the project's own code names something that is there.

A dotted name that starts with one of the project's packages (``hearts.table.play``,
``hearts_web.table.loop.TableLoop``, ``tools.build.PYODIDE_FILES``, ``lab.arena``) in code, a
comment, a docstring or the docs, plain, in backticks or in a Sphinx role, and a role's name
relative to its module (``:class:`~.messages.Refusal```, ``:func:`decision_from```, a method of
the class it is written in), must name a module, or a name that a module or a class (its bases
included) defines. Read from the source with ``ast``: nothing is imported, so the browser layer's
modules (which import ``pyscript`` and ``js``) are checked like the others.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {
    "hearts": ROOT / "hearts",
    "hearts_web": ROOT / "web" / "hearts_web",
    "tools": ROOT / "tools",
    "lab": ROOT / "lab",
}
# where references are looked for: the code, its tests, the docs (run outputs and vendored files aside)
FOLDERS = ("hearts", "web", "tools", "lab", "tests", "e2e", "examples", "scripts", "docs")
ROOT_FILES = ("README.md", "index.html", "pyproject.toml", "netlify.toml", "package.json")
SUFFIXES = {".py", ".md", ".js", ".mjs", ".html", ".css", ".toml", ".sh", ""}
# The lab's decision log says what each dated run used then; its commands are checked by the lab's
# own tests (lab/tests/test_results.py)
RESULTS = ROOT / "lab" / "RESULTS.md"
LEFT_OUT = (ROOT / "lab" / "out", ROOT / "tests" / "fixtures")

DOTTED = re.compile(r"(?<![\w./@$#-])(?:hearts_web|hearts|tools|lab)(?:\.[A-Za-z_]\w*)+")
ROLE = re.compile(r":(?:class|func|meth|attr|data|mod|obj|exc|const):`~?(\.*[\w.]+)`")
# Names that look like code and are not: the page's storage keys (``hearts.match.v1``,
# ``hearts.backup.*``, ``hearts.online-host.v1``: data/registry.py), its tabs' lock and channel
# (``hearts.game``), a host name of the tests, the toolbar in the page's JavaScript (``tools``).
NOT_CODE = re.compile(r"hearts\.(backup|game|online|example)\b|hearts\.\w+\.v\d+$|tools\.(scrollWidth|clientWidth)$")
# Names and paths that are wrong on purpose: the tests of checkers that must find them
ON_PURPOSE = {
    "lab/tests/test_results.py": {"lab.bench_search", "lab.nothing", "tools/bench_search.py"},
}
# A path of the repository's (``hearts/table.py``, ``web/hearts_web/data/registry.py``, ``docs/ui.md``)
# or a pattern of them (``e2e/test_online_*.py``)
PATH = re.compile(r"(?<![\w./@$#~-])(?:hearts|web|tools|lab|tests|e2e|docs|scripts|examples)/[\w./*-]*[\w*]")
# Paths of what is made, not kept: the build's bundle in dist/, the ignored run outputs
MADE = re.compile(r"web/online\.js$|lab/out\b|e2e/artifacts\b")


@dataclass(frozen=True)
class Reference:
    path: Path
    line: int
    name: str  # absolute (``hearts.table.play``), relative (``.messages.Refusal``) or bare (``Desk.hurry``)

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.name}"


def scanned_files() -> list[Path]:
    files = [ROOT / name for name in ROOT_FILES]
    for folder in FOLDERS:
        files += [
            p
            for p in sorted((ROOT / folder).rglob("*"))
            if p.is_file() and p.suffix in SUFFIXES and not any(o in p.parents for o in LEFT_OUT)
        ]
    return [p for p in files if "__pycache__" not in p.parts and p not in (RESULTS, Path(__file__))]


def references(path: Path, text: str) -> Iterator[Reference]:
    """The references to the project's code in one file's text, in order."""
    for number, line in enumerate(text.splitlines(), 1):
        roles = set()
        for match in ROLE.finditer(line):
            roles.add(match.group(1))
            yield Reference(path, number, match.group(1))
        for match in DOTTED.finditer(line):
            if match.group(0) not in roles:
                yield Reference(path, number, match.group(0))


# ------------------------------------------------------------------ the project's modules, read with ast
def module_file(name: str) -> Path | None:
    """The file of the project's module ``name`` (a package's ``__init__.py``), or None. A file that
    is no module of a package (a test, a script) goes by its path."""
    if name.startswith("/"):
        return Path(name) if Path(name).is_file() else None
    top, *rest = name.split(".")
    if top not in PACKAGES:
        return None
    base = PACKAGES[top].joinpath(*rest)
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def module_name(path: Path) -> str | None:
    """The dotted name of the project's module in ``path``, or None (a test, a script)."""
    for top, folder in PACKAGES.items():
        if folder in path.parents:
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            return ".".join([top, *parts])
    return None


@cache
def tree(name: str) -> ast.Module:
    path = module_file(name)
    assert path is not None, name
    return ast.parse(path.read_text(encoding="utf-8"))


Binding = ast.AST | tuple[str, str | None]  # a definition, or an import: (module, name in it or None)


def _package_of(module: str) -> list[str]:
    if module.startswith("/"):
        return []
    path = module_file(module)
    return module.split(".") if path is not None and path.name == "__init__.py" else module.split(".")[:-1]


def _bind(body: list[ast.stmt], module: str, out: dict[str, Binding]) -> None:
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Name):
                        out[part.id] = node
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out[alias.asname] = (alias.name, None)
                else:
                    out[alias.name.split(".")[0]] = (alias.name.split(".")[0], None)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = _package_of(module)
                anchor = package[: len(package) - node.level + 1]
                source = ".".join(anchor + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                out[alias.asname or alias.name] = (source, alias.name)
        else:  # if / try / with at the top level: their bodies bind names too
            for field in ("body", "orelse", "finalbody", "handlers"):
                for child in getattr(node, field, []):
                    _bind([child] if isinstance(child, ast.stmt) else child.body, module, out)


@cache
def bindings(module: str) -> dict[str, Binding]:
    """The names that the project's ``module`` defines or imports at its top level."""
    out: dict[str, Binding] = {}
    _bind(tree(module).body, module, out)
    return out


def class_members(cls: ast.ClassDef) -> dict[str, ast.AST]:
    """What a class defines: methods, class attributes and fields, nested classes, and the
    attributes its methods set on ``self``."""
    members: dict[str, ast.AST] = {}
    for node in cls.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            members[node.name] = node
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                if isinstance(target, ast.Name):
                    members[target.id] = node
    for method in cls.body:
        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(method):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                    if isinstance(node.ctx, ast.Store):
                        members.setdefault(node.attr, node)
    return members


def _external(dotted: str) -> object | None:
    """A name of Python or an installed package (``random.Random``, ``ValueError``), or None."""
    parts = dotted.split(".")
    if not all(parts):
        return None
    if len(parts) == 1 and hasattr(builtins, dotted):
        return getattr(builtins, dotted)
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(found, attr):
                return None
            found = getattr(found, attr)
        return found
    return None


MODULE_ATTRIBUTES = {"__file__", "__name__", "__path__", "__doc__", "__all__"}


def resolve_in_module(module: str, names: list[str]) -> bool:
    if not names:
        return True
    first, rest = names[0], names[1:]
    if module_file(f"{module}.{first}") is not None:
        return resolve_in_module(f"{module}.{first}", rest)
    if first in MODULE_ATTRIBUTES and not rest:
        return True
    binding = bindings(module).get(first)
    return binding is not None and resolve_binding(module, binding, rest)


def resolve_binding(module: str, binding: Binding, rest: list[str]) -> bool:
    if isinstance(binding, tuple):  # imported
        source, name = binding
        target = [name] + rest if name else rest
        if module_file(source) is not None:
            return resolve_in_module(source, target)
        return _external(".".join([source, *target])) is not None
    if isinstance(binding, ast.ClassDef):
        return resolve_in_class(module, binding, rest)
    if rest and isinstance(binding, (ast.Assign, ast.AnnAssign)) and isinstance(binding.value, ast.Call):
        made_by = ast.unparse(binding.value.func).split(".")  # an instance: what its class defines
        found = bindings(module).get(made_by[0])
        return found is not None and resolve_binding(module, found, made_by[1:] + rest)
    return not rest  # a function or a value: what it holds is not read here


def resolve_in_class(module: str, cls: ast.ClassDef, rest: list[str]) -> bool:
    if not rest:
        return True
    member = class_members(cls).get(rest[0])
    if member is not None:
        return resolve_in_class(module, member, rest[1:]) if isinstance(member, ast.ClassDef) else len(rest) == 1
    for base in cls.bases:
        base_name = ast.unparse(base).split("[")[0].split(".")
        binding = bindings(module).get(base_name[0])
        if binding is not None and resolve_binding(module, binding, base_name[1:] + rest):
            return True
        if binding is None and _external(".".join(base_name + rest)) is not None:
            return True
    return False


def enclosing_classes(module: str) -> list[tuple[int, int, ast.ClassDef]]:
    return [
        (node.lineno, node.end_lineno or node.lineno, node)
        for node in ast.walk(tree(module))
        if isinstance(node, ast.ClassDef)
    ]


def resolves(ref: Reference) -> bool:
    """Whether ``ref`` names a module of the project or something one of them defines."""
    parts = ref.name.lstrip(".").split(".")
    if parts[0] in PACKAGES and not ref.name.startswith("."):
        return resolve_in_module(parts[0], parts[1:])
    if ref.path.suffix != ".py":
        return False
    here = module_name(ref.path) or str(ref.path)
    package = _package_of(here)
    if ref.name.startswith("."):  # relative to the module's package: ``.messages.Refusal``
        levels = len(ref.name) - len(ref.name.lstrip("."))
        anchor = package[: len(package) - levels + 1]
        return bool(anchor) and resolve_in_module(anchor[0], anchor[1:] + parts)
    for first, last, cls in enclosing_classes(here):  # a member of the class it is written in
        if first <= ref.line <= last and resolve_in_class(here, cls, parts):
            return True
    if package and module_file(".".join([*package, parts[0]])) is not None:  # a module beside it
        return resolve_in_module(".".join(package), parts)
    beside = ref.path.with_name(f"{parts[0]}.py")  # a test's or a script's neighbour
    if not package and beside.is_file():
        return resolve_in_module(str(beside), parts[1:])
    return resolve_in_module(here, parts) or _external(ref.name) is not None


def all_references() -> list[Reference]:
    found = [ref for path in scanned_files() for ref in references(path, path.read_text(encoding="utf-8"))]
    return [
        ref
        for ref in found
        if not NOT_CODE.match(ref.name) and ref.name not in ON_PURPOSE.get(ref.path.relative_to(ROOT).as_posix(), ())
    ]


def path_references() -> list[Reference]:
    return [
        Reference(path, number, match.group(0))
        for path in scanned_files()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in PATH.finditer(line)
        if not MADE.search(match.group(0))
        and match.group(0) not in ON_PURPOSE.get(path.relative_to(ROOT).as_posix(), ())
    ]


def test_every_reference_to_the_projects_code_resolves() -> None:
    found = all_references()
    assert len(found) > 700  # the scan reads what it should
    unresolved = [str(ref) for ref in found if not resolves(ref)]
    assert unresolved == [], f"{len(unresolved)} of {len(found)} references name nothing:\n" + "\n".join(unresolved)


def test_every_path_of_the_repository_named_exists() -> None:
    found = path_references()
    assert len(found) > 300
    missing = [str(ref) for ref in found if not any(ROOT.glob(ref.name))]
    assert missing == [], f"{len(missing)} of {len(found)} paths name nothing:\n" + "\n".join(missing)


def test_the_check_tells_a_name_that_is_there_from_one_that_is_gone() -> None:
    decoder = ROOT / "web" / "hearts_web" / "online" / "decoder.py"
    text = (
        ":class:`~hearts_web.table_loop.TableLoop` and hearts.table.play, ``tools.build.PYODIDE_FILES``\n"
        ":func:`~.messages.chain_to_data`, :class:`~.messages.Nope`, :func:`decode`, :func:`nope`\n"
        "hearts.bots.config.REVIEW.loop, hearts.Match.apply, hearts.daily.v1, lab.arena.main, tools.serve.Nope\n"
    )
    found = {ref.name: resolves(ref) for ref in references(decoder, text) if not NOT_CODE.match(ref.name)}
    assert found == {
        "hearts_web.table_loop.TableLoop": False,
        "hearts.table.play": True,
        "tools.build.PYODIDE_FILES": True,
        ".messages.chain_to_data": True,
        ".messages.Nope": False,
        "decode": True,
        "nope": False,
        "hearts.bots.config.REVIEW.loop": True,
        "hearts.Match.apply": True,
        "lab.arena.main": True,
        "tools.serve.Nope": False,
    }
