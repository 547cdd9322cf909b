"""The bot benchmarks run under PyPy (bench/README.md): ``hearts/`` must stay importable there
(PyPy 7.3 is Python 3.9) and play exactly as on CPython, or a benchmark run under PyPy would
measure another game. Skipped where ``pypy3`` is not installed (and in Pyodide)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPY = shutil.which("pypy3")
pytestmark = pytest.mark.skipif(
    PYPY is None, reason="no pypy3 on the PATH (apt-get install pypy3), or no processes (Pyodide)"
)

# a short Hard arena: both current versions, the pass and the moon machinery, the same seeded streams
ARENA = ["-m", "lab.arena", "--bots", "hard@40/12,hard-v1@40/12", "--sets", "1", "--seed", "11"]


def _report(python: str) -> list[str]:
    proc = subprocess.run([python, *ARENA], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    # every line but the one with this run's wall time and the play times
    return [line for line in proc.stdout.splitlines() if " s this run" not in line]


def test_every_module_compiles_under_pypy() -> None:
    assert PYPY is not None
    proc = subprocess.run(
        [PYPY, "-m", "compileall", "-q", "-f", "-d", "hearts", str(ROOT / "hearts")],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_an_arena_under_pypy_prints_the_same_report_as_cpython() -> None:
    assert PYPY is not None
    pypy, cpython = _report(PYPY), _report(sys.executable)
    assert any("paired differences" in line for line in cpython)
    assert pypy == cpython
