"""The decision log runs: every command in lab/RESULTS.md parses today, or its row says it is historical.

A row's *Command* cell holds commands in code spans (`` `pypy3 -m lab.arena --bots ...` ``). Each
one is taken apart like a shell would (``&&``, ``;``, pipes, redirections, ``for`` loops) and every
program in it is checked without running it: a lab module's arguments with the module's own parser
(``cli()``; the bot specs and switches are checked by its argument types, ``lab.arena.bot_list``),
a test file or a script by its path, ``python3 -c`` by its imports. A row whose cell says
``(historical: ...)`` may name what is gone; one that says ``(historical: version removed)`` must
(or the mark is wrong and the command is runnable: drop the mark).
"""

from __future__ import annotations

import ast
import importlib
import io
import re
import shlex
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "lab" / "RESULTS.md"
PYTHONS = ("python3", "pypy3", ".venv/bin/python", ".venv-lab/bin/python")
TOOLS = ("zstd", "gzip", "wc")  # the system's own tools, on files the row names
PROGRAMS = PYTHONS + TOOLS + ("node", "unshare", "git", "for")
# The log's placeholders ("Reading a row"): a number, builds, files, and bot specs in a triage
WORDS = {"N": "1", "DIR": "dist", "VARIANT": "dist", "F": "lab/out/F.json"}
SPEC = re.compile(r"(?<![\w-])(?:CANDIDATE|[A-D])(?=@)")
OPERATORS = ("&&", "||", ";", "|")
REDIRECTS = (">", ">>", "<")


@dataclass(frozen=True)
class Row:
    line: int  # in RESULTS.md
    decision: str
    cell: str  # the Command cell

    @property
    def historical(self) -> str | None:
        mark = re.search(r"\(historical: ([^)]*)\)", self.cell)
        return mark.group(1) if mark else None

    @property
    def commands(self) -> list[str]:
        spans = [span.replace("\\|", "|") for span in re.findall(r"`([^`]+)`", self.cell)]
        return [span for span in spans if span.split()[0] in PROGRAMS and len(span.split()) > 1]


def rows(text: str | None = None) -> list[Row]:
    """Every row of the log's tables whose last column is the command."""
    out = []
    command_table = False
    lines = (text if text is not None else RESULTS.read_text(encoding="utf-8")).splitlines()
    for number, line in enumerate(lines, 1):
        if not line.startswith("|"):
            command_table = False
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if cells[-1] == "Command":
            command_table = True
        elif command_table and not set(cells[0]) <= {"-"}:
            out.append(Row(number, cells[1], cells[-1]))
    return out


def problems(command: str) -> list[str]:
    """What in ``command`` does not run today (nothing: it runs as written)."""
    lexer = shlex.shlex(SPEC.sub("hard", command), posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    return [p for words in simple_commands(list(lexer)) for p in program_problems(words)]


def simple_commands(tokens: list[str]) -> Iterator[list[str]]:
    """The simple commands of a command line: split at operators, redirections dropped, a ``for``
    loop's body once per value."""
    words: list[str] = []
    while tokens:
        token = tokens.pop(0)
        if token == "for" and not words:
            var, values, body = _for_loop(tokens)
            for value in values:
                yield from simple_commands([t.replace("$" + var, value) for t in body])
        elif token in OPERATORS:
            if words:
                yield words
            words = []
        elif token in REDIRECTS:
            tokens.pop(0)
        else:
            words.append(WORDS.get(token, token))
    if words:
        yield words


def _for_loop(tokens: list[str]) -> tuple[str, list[str], list[str]]:
    """``VAR in VALUES ; do BODY ; done`` (consumed from ``tokens``)."""
    var, _in = tokens.pop(0), tokens.pop(0)
    values = []
    while tokens[0] != ";":
        values.append(tokens.pop(0))
    tokens.pop(0)
    assert tokens.pop(0) == "do", "for ... ; do ... ; done"
    end = tokens.index("done")
    body, tokens[:] = tokens[:end], tokens[end + 1 :]
    return var, values, body


def program_problems(words: list[str]) -> list[str]:
    program, args = words[0], words[1:]
    if program in PYTHONS:
        return python_problems(args)
    if program == "node" and args[:2] == ["lab/pyodide_python.mjs", "-m"]:
        return python_problems(args[1:])
    if program == "unshare" and "-c" in args:  # unshare ... sh -c SCRIPT NAME COMMAND...
        return program_problems(args[args.index("-c") + 3 :])
    if program == "git" and args[:1] == ["checkout"]:
        return [] if re.fullmatch(r"[0-9a-f]{7,40}", args[1]) else [f"git checkout of {args[1]!r}"]
    if program in TOOLS:
        return []
    return [f"unknown program: {' '.join(words)}"]


def python_problems(args: list[str]) -> list[str]:
    if args[0] == "-m" and args[1] == "pytest":
        return pytest_problems(args[2:])
    if args[0] == "-m":
        return module_problems(args[1], args[2:])
    if args[0] == "-c":
        return code_problems(args[1])
    return [] if (ROOT / args[0]).is_file() else [f"no script {args[0]}"]


def module_problems(name: str, args: list[str]) -> list[str]:
    """Parse ``args`` with the lab module's own command line."""
    if not name.startswith("lab."):
        return [f"not a lab module: {name}"]
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        return [f"{name}: {exc}"]
    if not hasattr(module, "cli"):
        return [f"{name} has no cli()"]
    err = io.StringIO()
    try:
        with redirect_stderr(err), redirect_stdout(io.StringIO()):
            module.cli().parse_args(args)
    except SystemExit:
        return [f"{name}: {err.getvalue().strip().splitlines()[-1]}"]
    return []


def pytest_problems(args: list[str]) -> list[str]:
    files = [ROOT / a for a in args if not a.startswith("-") and a.endswith(".py")]
    out = [f"no test file {f.relative_to(ROOT)}" for f in files if not f.is_file()]
    if "-k" in args and not out:
        name = args[args.index("-k") + 1]
        if not any(re.search(rf"def test_\w*{name}", f.read_text(encoding="utf-8")) for f in files):
            out.append(f"no test matches -k {name}")
    return out


def code_problems(code: str) -> list[str]:
    """``python3 -c CODE``: every name it imports exists."""
    out = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.ImportFrom) and node.module:
            module = importlib.import_module(node.module)
            out += [f"{node.module} has no {a.name}" for a in node.names if not hasattr(module, a.name)]
        elif isinstance(node, ast.Import):
            for a in node.names:
                importlib.import_module(a.name)
    return out


# ----------------------------------------------------------------------------- the log
def test_every_command_runs_as_written_or_its_row_is_marked_historical() -> None:
    found = [f"line {r.line}: {p}" for r in rows() if r.historical is None for c in r.commands for p in problems(c)]
    assert not found, "\n".join(found)


def test_a_row_marked_version_removed_names_what_is_gone() -> None:
    runnable = [
        f"line {r.line}: {r.decision[:60]}"
        for r in rows()
        if r.historical == "version removed" and r.commands and not any(problems(c) for c in r.commands)
    ]
    assert not runnable, "these run today: drop their mark\n" + "\n".join(runnable)


def test_the_log_has_commands() -> None:
    log = rows()
    assert len(log) > 90 and sum(len(r.commands) for r in log) > 100


# ----------------------------------------------------------------------------- the checker itself
@pytest.mark.parametrize(
    "command",
    [
        "python3 -m lab.arena --bots hard~trust=0.9,medium --sets 6",  # a switch that is gone
        "pypy3 -m lab.arena --bots hard-v6,medium --sets 6",  # a version that is gone
        "pypy3 -m lab.seat_bench --field medium --bots hard~runner_seen_at=27@1150/270",  # a value a switch cannot take
        "python3 -m lab.arena --bots hard,medium --hands-per-set 4",  # an option that is gone
        "python3 -m lab.bench_search --version 7",  # a module that is gone
        "python3 -m lab.search_bench --version 5 --set gate_k=1.5",
        "python3 -m hearts.bots.evaluate",  # not a lab module
        "for v in 7 6; do python3 -m lab.botbench --version $v; done > lab/out/x.txt",  # in a loop's body
        "python3 tools/bench_search.py",
        ".venv/bin/python -m pytest e2e/test_startup.py -k no_such_test",
        "python3 -c 'from hearts.bots.evaluate import PARAMS'",
    ],
)
def test_the_checker_finds_what_is_gone(command: str) -> None:
    assert problems(command)


def test_the_checker_passes_what_runs() -> None:
    for command in (
        "pypy3 -m lab.arena --bots 'hard-v7,hard-v1~runner_seen_at=never@850/85,medium' --sets 6 --seed 3 --jobs 2 "
        "> lab/out/x.txt",
        "unshare --net --map-root-user sh -c 'ip link set lo up && exec \"$@\"' netns .venv/bin/python -m "
        "lab.browser.online --runs 3",
        "python3 tools/build.py && node lab/pyodide_python.mjs -m lab.review_bench --hands 8",
        "for v in 7 1; do python3 -m lab.search_bench --version $v --set keep_stopper=0.5; done",
        "zstd -19 -c stored.zip | wc -c",
        ".venv-lab/bin/python -m lab.openspiel_bench --deals 40 --bots ismcts@2,hard@600/60 --uct-c 25",
        "pypy3 -m lab.arena --bots 'A@300/80,B@300/80' --sets N --seed N",
    ):
        assert problems(command) == [], command


def test_rows_are_read_from_command_tables_only() -> None:
    text = (
        "| a | b |\n|---|---|\n| `python3 -m lab.nothing` | x |\n\n| Date | Decision | Command |\n|---|---|---|\n"
        "| d | ok | `python3 -m lab.golden_hard` and `lab/out/x` (historical: code of d) |\n"
    )
    [row] = rows(text)
    assert row.line == 7 and row.commands == ["python3 -m lab.golden_hard"] and row.historical == "code of d"
