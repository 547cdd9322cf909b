"""Compile the Python the site ships, and trim Pyodide's standard library (runs INSIDE Pyodide).

Called by tools/build.py through ``node tools/pyodide_run.mjs tools/pack_python.py WORK job.json``:
it must run on the very CPython the browser runs (3.14 in Pyodide 314), because bytecode is
version-specific and the standard library's own sources use 3.14 syntax.

What it does, with the paths of job.json (relative to the work folder):

1. Finds the modules the game can import, starting from ``entries`` (script files, if any),
   ``extra_modules`` (the game's entry module, and names that C code or JavaScript import, which
   no Python source shows) and the modules Pyodide imports from its archive while it starts
   (``INIT_MODULES``, set by pyodide_run.mjs). Names resolve against ``search`` (the game's
   packages) and the stock ``python_stdlib.zip``.
   - The game's code is followed completely: every ``import`` and
     ``from`` statement, in functions too, plus ``importlib.import_module``/``__import__``
     with a literal name, ``x.strptime(...)`` (C imports ``_strptime``) and codecs named by a
     literal (``s.decode("cp1252")`` imports ``encodings.cp1252``).
   - Standard-library modules are followed at module level (what importing them runs), minus
     what cannot run in Pyodide: ``if`` branches for another platform or ``__name__ ==
     "__main__"``, and the ``except ImportError`` fallback of an import that exists here (e.g.
     ``_pydatetime`` behind the built-in ``_datetime``). Their imports inside functions serve
     features the game does not use (the REPL, subprocesses, source inspection...); the report
     lists them (``lazy_not_shipped``) for review.
   - Built-in and frozen modules (compiled into the wasm: ``os``, ``codecs``, ``site``...)
     are never read from the archive and are not shipped.
2. Writes ``stdlib_out``: only those standard-library modules, as bytecode (``.pyc`` compiled
   here, unchecked hash-based: no source to check against; ``stdlib_optimize`` 2 = like -OO
   except for the packages in ``keep_docstrings``), file names as in the stock archive.
   Pyodide compiles every stock module from source at every start; bytecode skips that.
3. Writes ``app_out``: the game's modules that step 1 reached, as sources (without docstrings and
   comments, every line of code at its own number: ``shipped_source``) plus
   ``__pycache__/*.cpython-314.pyc`` (without docstrings), *checked* hash-based: the import
   system compares each source's hash with the one in its .pyc and recompiles on a mismatch,
   so a stale .pyc can never run; the data files a module reads beside itself (``module_data``)
   go with it. Step 1 does not follow ``lazy_roots`` (the features loaded on demand): those
   and what only they reach go to ``extras_out``, the same way; nor
   ``online_roots`` (the online table): those and what neither the start nor the extras reach go
   to ``online_out``. The report lists any import of a later archive's module that would run
   when a module of an earlier one is imported (``eager_extras``: the build fails).
   Every archive is a stored zip compressed as one zstd frame (``write_zip``).
4. Writes ``report``: the modules shipped, what did not resolve (JavaScript modules such as
   ``js``, other platforms' modules), the lazy imports not shipped, who imported what first,
   and imports by computed name in the game (invisible to step 1: tools/build.py fails on one).

Deterministic: sorted members, fixed timestamps, one fresh interpreter per run.
"""

import sys

STARTUP_MODULES = sorted(INIT_MODULES)  # noqa: F821 (set by pyodide_run.mjs before anything else)

import ast  # noqa: E402
import importlib._bootstrap_external as bootstrap_external  # noqa: E402
import importlib.machinery  # noqa: E402
import importlib.util  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import tokenize  # noqa: E402
import zipfile  # noqa: E402
import zipimport  # noqa: E402

from compression import zstd  # noqa: E402

ZSTD_LEVEL = 19  # the smallest frames that decode as fast (level 22 saves 0.01 %)

ZIP_DATE = (1980, 1, 1, 0, 0, 0)
STOCK_STDLIB_PATH = "/lib/python314.zip"  # where Pyodide puts the stdlib archive (sys.path)


def module_name(relpath):
    """'a/b/__init__.py' -> ('a.b', True); 'a/b.py' -> ('a.b', False)."""
    parts = relpath[:-3].split("/")
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


class Universe:
    """Every importable module: name -> (kind, location, is_package)."""

    def __init__(self, stock, search):
        self.modules = {}
        for name in stock.namelist():
            if name.endswith(".py"):
                mod, pkg = module_name(name)
                self.modules[mod] = ("stdlib", name, pkg)
        for top in search:  # local trees shadow the stdlib, like '' first on sys.path
            for dirpath, dirnames, filenames in os.walk(top):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                for filename in sorted(filenames):
                    if filename.endswith(".py"):
                        path = os.path.join(dirpath, filename)
                        mod, pkg = module_name(os.path.relpath(path, top).replace(os.sep, "/"))
                        self.modules[mod] = ("local", path, pkg)
        # Built into the wasm binary: C modules, and the frozen (pre-compiled) startup modules
        # (os, codecs, io, site...), which are never read from the archive.
        self.builtins = set(sys.builtin_module_names)
        self.builtins.update(
            name for name in self.modules if importlib.machinery.FrozenImporter.find_spec(name) is not None
        )
        # importlib's bootstrap runs frozen under these names (importlib/__init__.py aliases them)
        self.builtins.update(
            ["_frozen_importlib", "_frozen_importlib_external", "importlib._bootstrap", "importlib._bootstrap_external"]
        )

    def known(self, name):
        return name in self.modules or name in self.builtins

    def shipped(self, name):
        """A module read from the stdlib archive (known, not built in)."""
        return name not in self.builtins and self.modules.get(name, ("",))[0] == "stdlib"


# What a few module-level tests are in Pyodide: branches for another platform, and the
# ``if __name__ == "__main__":`` demo/test blocks of stdlib modules, never run in the browser.
STATIC_NAMES = {"sys.platform": "emscripten", "_sys.platform": "emscripten", "os.name": "posix", "_os.name": "posix"}


def _static_value(node):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id == "__name__":
        return "(imported)"  # a module being imported is never __main__
    if isinstance(node, ast.Name) and node.id == "TYPE_CHECKING":
        return False  # typing.TYPE_CHECKING: imports for the type checker only never run
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        if node.attr == "TYPE_CHECKING":
            return False
        dotted = f"{node.value.id}.{node.attr}"
        if dotted in STATIC_NAMES:
            return STATIC_NAMES[dotted]
    if isinstance(node, ast.Tuple):
        values = [_static_value(e) for e in node.elts]
        return None if None in values else tuple(values)
    return None


def static_truth(test):
    """True/False when an ``if`` test is known in Pyodide at import time, else None."""
    value = _static_value(test)
    if value is False:
        return False
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, right = _static_value(test.left), _static_value(test.comparators[0])
        if left is None or right is None:
            return None
        op = test.ops[0]
        if isinstance(op, ast.Eq):
            return left == right
        if isinstance(op, ast.NotEq):
            return left != right
        if isinstance(op, ast.In) and isinstance(right, tuple):
            return left in right
        if isinstance(op, ast.NotIn) and isinstance(right, tuple):
            return left not in right
        return None
    if (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Attribute)
        and test.func.attr == "startswith"
        and len(test.args) == 1
    ):
        subject, prefix = _static_value(test.func.value), _static_value(test.args[0])
        if isinstance(subject, str) and isinstance(prefix, (str, tuple)):
            return subject.startswith(prefix)
    return None


IMPORT_ERRORS = {"ImportError", "ModuleNotFoundError"}


def imports_only(body, available):
    """True when a try body only imports modules that exist here: its ImportError handler
    (``from _datetime import *`` / ``except ImportError: from _pydatetime import *``) never runs."""
    for stmt in body:
        if isinstance(stmt, ast.Import):
            if not all(available(a.name) for a in stmt.names):
                return False
        elif isinstance(stmt, ast.ImportFrom):
            if stmt.level or not available(stmt.module):
                return False
        else:
            return False
    return True


def catches_only_import_errors(handler):
    names = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return all(isinstance(n, ast.Name) and n.id in IMPORT_ERRORS for n in names)


def walk(tree, available):
    """(node, lazy) for every node that can run; lazy = inside a function body (runs only when
    called). Skipped: branches of an ``if`` that is statically false in Pyodide, and ImportError
    handlers of a ``try`` whose imports all exist here."""
    todo = [(tree, False)]
    while todo:
        node, lazy = todo.pop()
        yield node, lazy
        if isinstance(node, ast.If):
            truth = static_truth(node.test)
            if truth is not None:
                todo.extend((child, lazy) for child in (node.body if truth else node.orelse))
                continue
        if isinstance(node, ast.Try) and imports_only(node.body, available):
            kept = [h for h in node.handlers if not catches_only_import_errors(h)]
            todo.extend((child, lazy) for child in node.body + kept + node.orelse + node.finalbody)
            continue
        inner = lazy or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        todo.extend((child, inner) for child in ast.iter_child_nodes(node))


def codec_module(name):
    """'UTF-8' -> 'encodings.utf_8': the module a codec lookup by this name imports."""
    import encodings
    import encodings.aliases

    normal = encodings.normalize_encoding(name).lower()
    return "encodings." + encodings.aliases.aliases.get(normal, normal)


CODEC_CALLS = {"encode", "decode", "lookup", "getencoder", "getdecoder", "getreader", "getwriter"}


def imports_in(tree, name, is_package, available=lambda name: False):
    """(module, from-names, lazy, computed-line) for every import the source can run; module is
    None for a computed name (importlib.import_module(variable)), with its line number.
    Two imports that C code makes are derived from calls: ``x.strptime(...)`` imports
    ``_strptime``, and a codec named by a literal (``s.encode("cp1252")``, ``open(f,
    encoding="latin-1")``) imports its ``encodings`` module."""
    package = name if is_package else name.rpartition(".")[0]
    for node, lazy in walk(tree, available):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, (), lazy, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module
            yield base, tuple(a.name for a in node.names), lazy, None
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if called in ("import_module", "__import__") and node.args:
                arg = node.args[0]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    if not arg.value.startswith("."):
                        yield arg.value, (), lazy, None
                else:
                    yield None, (), lazy, node.lineno
            if called == "strptime":
                yield "_strptime", (), lazy, None
            on_codecs = isinstance(func, ast.Attribute) and getattr(func.value, "id", None) == "codecs"
            position = 1 if on_codecs and called in ("encode", "decode") else 0
            if called in CODEC_CALLS and len(node.args) > position:
                arg = node.args[position]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield codec_module(arg.value), (), lazy, None
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg == "encoding" and isinstance(value, ast.Constant) and isinstance(value.value, str):
                    yield codec_module(value.value), (), lazy, None


def closure(universe, stock, entries, roots, stop=()):
    """Modules reachable from the entry files and the root names.

    The game's own code is followed completely, imports inside
    functions included: the game may call any of its functions. Standard-library modules are
    followed at module level only (what importing them runs): their imports inside functions
    serve features the game does not use (site's REPL, asyncio's subprocesses, inspect's
    source tools...). Those are listed in the report ("lazy_not_shipped") for review; a
    function the game does call that needs one fails the e2e suite, and the module then
    belongs in EXTRA_MODULES (tools/build.py).
    ``stop``: modules not followed (the features loaded on demand, for the first archive).
    Returns (wanted, unresolved {name: importer}, computed ["file:line"], lazy {name: [importers]}).
    """
    wanted = set()
    why = {}
    unresolved = {}
    computed = []
    lazy_seen = {}
    queue = []

    def want(name, importer):
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            sub = ".".join(parts[:i])
            if sub in wanted or sub in stop:
                continue
            if not universe.known(sub):
                unresolved.setdefault(sub, importer)
                return
            wanted.add(sub)
            why[sub] = importer
            queue.append(sub)

    def scan(source, filename, name, is_package, kind):
        tree = ast.parse(source, filename)
        for target, names, lazy, lineno in imports_in(tree, name, is_package, universe.known):
            if target is None:
                if kind == "local":
                    computed.append(f"{filename}:{lineno}")
                continue
            targets = [target] + [f"{target}.{sub}" for sub in names if f"{target}.{sub}" in universe.modules]
            for t in targets:
                if lazy and kind == "stdlib":
                    lazy_seen.setdefault(t, set()).add(name)
                else:
                    want(t, name)

    for path in entries:
        with open(path, "rb") as f:
            scan(f.read(), path, "__main__", False, "local")
    for name in roots:
        want(name, "(root)")
    while queue:
        name = queue.pop()
        if name not in universe.modules:
            continue  # a builtin (C) module
        kind, where, is_package = universe.modules[name]
        if kind == "stdlib":
            scan(stock.read(where), where, name, is_package, kind)
        else:
            with open(where, "rb") as f:
                scan(f.read(), where, name, is_package, kind)
    lazy = {t: sorted(by) for t, by in sorted(lazy_seen.items()) if t not in wanted and universe.shipped(t)}
    return wanted, unresolved, computed, lazy, why


def write_zip(path, members):
    """members: (archive name, bytes), written sorted with fixed timestamps, stored (not
    compressed one by one), and the whole zip compressed as one zstd frame: the files share
    names and words, so one frame is about 30 % smaller than deflating each member. The page
    decodes it (runtime.mjs); zipimport then reads the stored members without inflating them."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for arcname, data in sorted(members):
            info = zipfile.ZipInfo(arcname, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_STORED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    with open(path, "wb") as f:
        f.write(zstd.compress(buffer.getvalue(), level=ZSTD_LEVEL))


def without_docstrings(source, filename):
    """The module's syntax tree minus docstrings (module, class and function): the game's
    bytecode keeps its asserts (unlike -OO), and its docstrings (examples for people and
    doctests) stay in the .py next to it."""
    tree = ast.parse(source, filename)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                node.body = body[1:] or [ast.copy_location(ast.Pass(), body[0])]
    return tree


def shipped_source(source, filename):
    """The source the game ships: its docstrings and comments become blank lines (a body that was
    only a docstring becomes ``pass`` on that line), so every line of code keeps its number and
    its text, and a traceback shows the real line; the words for people stay in the repository."""
    text = source.decode("utf-8")
    lines = text.splitlines(keepends=True)
    for node in ast.walk(ast.parse(text, filename)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                for number in range(first.lineno, first.end_lineno + 1):
                    lines[number - 1] = "\n"
                if len(node.body) == 1:
                    lines[first.lineno - 1] = " " * first.col_offset + "pass\n"
    tokens = tokenize.generate_tokens(io.StringIO("".join(lines)).readline)
    for token in tokens:
        if token.type == tokenize.COMMENT:
            row, col = token.start
            lines[row - 1] = lines[row - 1][:col].rstrip() + "\n"
    return "".join(line if line.strip() else "\n" for line in lines).encode("utf-8")


def bytecode(source, filename, checked, optimize=0, docstrings=True):
    code = compile(
        source if docstrings else without_docstrings(source, filename),
        filename,
        "exec",
        dont_inherit=True,
        optimize=optimize,
    )
    source_hash = importlib.util.source_hash(source)
    return bytes(bootstrap_external._code_to_hash_pyc(code, source_hash, checked=checked))


def eager_imports(universe, modules, extras):
    """["module imports extra"] for each import of one of ``extras`` (a later archive's modules)
    that runs when one of ``modules`` is imported (outside a function): it would fail there."""
    found = []
    for name in modules:
        _, where, is_package = universe.modules[name]
        with open(where, "rb") as f:
            tree = ast.parse(f.read(), where)
        for target, names, lazy, _ in imports_in(tree, name, is_package, universe.known):
            hit = [t for t in [target] + [f"{target}.{n}" for n in names] if t in extras]
            if hit and not lazy:
                found.append(f"{name} imports {hit[0]}")
    return sorted(set(found))


def game_modules(universe, packages, names):
    """The game's own modules among ``names`` (sorted)."""
    return sorted(
        n
        for n in names
        if universe.modules.get(n, ("", ""))[0] == "local"
        and any(universe.modules[n][1].startswith(top + "/") for top in packages)
    )


def game_members(universe, packages, modules, data_files):
    """Each module as its source plus its checked bytecode in ``__pycache__``, and the data files
    it reads beside itself (``data_files``: module name -> file names)."""
    members = []
    tag = sys.implementation.cache_tag
    for name in modules:
        _, where, _ = universe.modules[name]
        top = next(t for t in packages if where.startswith(t + "/"))
        rel = os.path.relpath(where, os.path.dirname(top)).replace(os.sep, "/")
        with open(where, "rb") as f:
            data = shipped_source(f.read(), rel)
        folder, _, filename = rel.rpartition("/")
        members.append((rel, data))
        members.append(
            (f"{folder}/__pycache__/{filename[:-3]}.{tag}.pyc", bytecode(data, rel, checked=True, docstrings=False))
        )
        for extra in data_files.get(name, ()):
            with open(os.path.join(os.path.dirname(where), extra), "rb") as f:
                members.append((f"{folder}/{extra}", f.read()))
    return members


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        job = json.load(f)
    stock = zipfile.ZipFile(STOCK_STDLIB_PATH)
    universe = Universe(stock, job["search"])
    # Pyodide's start-up imports: the ones read from the archive (not frozen, not built in)
    from_archive = [
        name
        for name in STARTUP_MODULES
        if isinstance(getattr(getattr(sys.modules.get(name), "__spec__", None), "loader", None), zipimport.zipimporter)
    ]
    roots = from_archive + job["extra_modules"]
    lazy_roots = job.get("lazy_roots", [])
    online_roots = job.get("online_roots", [])
    wanted, unresolved, computed, lazy, imported_by = closure(
        universe, stock, job["entries"], roots, stop=set(lazy_roots) | set(online_roots)
    )
    extras, unresolved_x, computed_x, _, imported_by_x = closure(
        universe, stock, [], lazy_roots, stop=set(online_roots)
    )
    online, unresolved_o, computed_o, _, imported_by_o = closure(universe, stock, [], online_roots)
    unresolved = {**unresolved_o, **unresolved_x, **unresolved}
    imported_by = {**imported_by_o, **imported_by_x, **imported_by}
    game_files = tuple(top + "/" for top in job["app_packages"]) + tuple(job["entries"][:1])
    computed = [where for where in computed + computed_x + computed_o if where.startswith(game_files)]

    stdlib_members = []
    for name in sorted(wanted | extras | online):
        if not universe.shipped(name):
            continue
        kind, where, _ = universe.modules[name]
        source = stock.read(where)
        optimize = 0 if name.split(".")[0] in job["keep_docstrings"] else job["stdlib_optimize"]
        code = bytecode(source, f"{STOCK_STDLIB_PATH}/{where}", checked=False, optimize=optimize)
        stdlib_members.append((where[:-3] + ".pyc", code))
    write_zip(job["stdlib_out"], stdlib_members)

    # The app: the modules the game reaches (not, e.g., the engine's command line), each as
    # source plus checked bytecode; the features loaded on demand in the second archive.
    app_modules = game_modules(universe, job["app_packages"], wanted)
    extras_modules = game_modules(universe, job["app_packages"], extras - wanted)
    online_modules = game_modules(universe, job["app_packages"], online - wanted - extras)
    data = job["module_data"]
    write_zip(job["app_out"], game_members(universe, job["app_packages"], app_modules, data))
    write_zip(job["extras_out"], game_members(universe, job["app_packages"], extras_modules, data))
    write_zip(job["online_out"], game_members(universe, job["app_packages"], online_modules, data))
    eager = eager_imports(universe, app_modules, set(extras_modules) | set(online_modules))
    eager += eager_imports(universe, extras_modules, set(online_modules))
    wanted = wanted | extras | online

    tag = sys.implementation.cache_tag
    report = {
        "python": sys.version.split()[0],
        "cache_tag": tag,
        "magic": importlib.util.MAGIC_NUMBER.hex(),
        "stdlib_modules": sorted(n for n in wanted if universe.shipped(n)),
        "app_modules": app_modules,
        "extras_modules": extras_modules,
        "online_modules": online_modules,
        "eager_extras": sorted(eager),
        "startup_modules": STARTUP_MODULES,
        "unresolved": dict(sorted(unresolved.items())),
        "computed_imports": computed,
        "lazy_not_shipped": lazy,
        "imported_by": dict(sorted(imported_by.items())),
    }
    with open(job["report"], "w", encoding="utf-8") as f:
        json.dump(report, f, indent=1)


main()
