"""The engine as a Python project (``pyproject.toml``): its wheel installs into a fresh virtual
environment, and there ``python -m hearts`` and the ``hearts`` command work without the repository.

Offline: the wheel is built with the test environment's own setuptools (``--no-build-isolation``)
and installed with ``--no-index``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(sys.platform == "emscripten", reason="starts processes (CPython only)")


def _copy_sources(target: Path) -> Path:
    """The files the build reads, copied, so the build leaves nothing in the working tree."""
    target.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, target / name)
    shutil.copytree(ROOT / "hearts", target / "hearts", ignore=shutil.ignore_patterns("__pycache__"))
    return target


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = _copy_sources(work / "src")
    built = work / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps", "-w", str(built), "."],
        check=True,
        cwd=source,
    )
    (found,) = built.glob("hearts_engine-*.whl")
    return found


def test_the_wheel_holds_the_engine_and_bots_typed_and_nothing_else(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    packages = {name.split("/")[0] for name in names if not name.startswith("hearts_engine-")}
    assert packages == {"hearts"}
    assert "hearts/py.typed" in names
    assert "hearts/bots/hard.py" in names and "hearts/cli.py" in names
    assert not [name for name in names if name.endswith(".pyc") or name.startswith(("web/", "tests/", "lab/"))]


def test_installed_wheel_replays_a_record_from_anywhere(wheel: Path, tmp_path: Path) -> None:
    env = tmp_path / "venv"
    import venv  # (Pyodide has none: the module is skipped there)

    venv.EnvBuilder(with_pip=True).create(env)
    python = env / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-index", "--disable-pip-version-check", str(wheel)],
        check=True,
    )
    record = (ROOT / "examples" / "match.json").read_text(encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*command: str) -> str:
        done = subprocess.run(command, input=record, capture_output=True, text=True, cwd=elsewhere)
        assert done.returncode == 0, done.stderr
        return done.stdout

    where = run(str(python), "-c", "import hearts; print(hearts.__file__)")
    assert where.startswith(str(env)), where  # the installed package, not the repository's
    module = run(str(python), "-m", "hearts", "replay", "-")
    command = run(str(env / "bin" / "hearts"), "replay", "-")
    assert module == command
    assert module.startswith("record 1: ok  match"), module
