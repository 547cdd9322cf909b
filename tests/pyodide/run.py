#!/usr/bin/env python3
"""Run the engine tests inside Pyodide under Node (the game's real runtime, no browser).

    python3 tests/pyodide/run.py [--junitxml FILE] [pytest args...]

Default pytest args: ``/app/tests -m "not slow" -q`` (the repository is mounted at /app).
Downloads the pure-Python wheels of pytest and hypothesis (versions pinned in
requirements-dev.txt) once into .cache/pyodide-wheels/, then starts tests/pyodide/run.mjs.
If hypothesis cannot be had as a pure wheel, property tests are skipped and this is reported
loudly. Exit status = pytest's.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WHEEL_DIR = ROOT / ".cache" / "pyodide-wheels"
RUNNER = ROOT / "tests" / "pyodide" / "run.mjs"
PYTEST_WHEELS = ("pytest", "pluggy", "iniconfig", "packaging", "pygments")
HYPOTHESIS_WHEELS = ("hypothesis", "sortedcontainers")
DEFAULT_ARGS = ["/app/tests", "-m", "not slow", "-q"]
PIP_TARGET = [
    "--only-binary=:all:",
    "--no-deps",
    "--python-version",
    "3.14",
    "--implementation",
    "py",
    "--abi",
    "none",
    "--platform",
    "any",
]


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()


def pinned_versions(requirements: Path = ROOT / "requirements-dev.txt") -> dict[str, str]:
    pins = {}
    for line in requirements.read_text(encoding="utf-8").splitlines():
        match = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s#;]+).*", line)
        if match:
            pins[_norm(match.group(1))] = match.group(2)
    return pins


def _have(name: str, version: str) -> Path | None:
    for wheel in WHEEL_DIR.glob("*.whl"):
        parts = wheel.name.split("-")
        if _norm(parts[0]) == _norm(name) and parts[1] == version:
            return wheel
    return None


def ensure_wheels(names: tuple[str, ...], pins: dict[str, str]) -> bool:
    """Download the pinned pure-Python wheels that are missing; True when all are present."""
    wanted = {n: pins[_norm(n)] for n in names if _norm(n) in pins}
    missing = [n for n in names if _norm(n) not in pins]
    if missing:
        print(f"pyodide: requirements-dev.txt pins no version for {', '.join(missing)}", file=sys.stderr)
        return False
    todo = [f"{n}=={v}" for n, v in wanted.items() if _have(n, v) is None]
    if todo:
        WHEEL_DIR.mkdir(parents=True, exist_ok=True)
        print(f"pyodide: downloading wheels {' '.join(todo)}", flush=True)
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--disable-pip-version-check",
                *PIP_TARGET,
                "-d",
                str(WHEEL_DIR),
                *todo,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        if result.returncode != 0:
            noise = "WARNING: Location"
            print("\n".join(line for line in result.stdout.splitlines() if noise not in line), file=sys.stderr)
    return all(_have(n, v) is not None for n, v in wanted.items())


def main(argv: list[str]) -> int:
    junit: list[str] = []
    if argv[:1] == ["--junitxml"]:
        junit, argv = ["--junitxml", argv[1]], argv[2:]
    node = shutil.which("node")
    if node is None:
        print("pyodide: node is not installed", file=sys.stderr)
        return 2
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        print("pyodide: node_modules/pyodide is missing: run `npm ci`", file=sys.stderr)
        return 2
    pins = pinned_versions()
    if not ensure_wheels(PYTEST_WHEELS, pins):
        print("pyodide: could not get the pytest wheels", file=sys.stderr)
        return 2
    flags = []
    if not ensure_wheels(HYPOTHESIS_WHEELS, pins):
        flags.append("--no-hypothesis")
        print(
            "\n" + "!" * 78 + "\npyodide: WARNING: no pure-Python hypothesis wheel: every property test "
            "(@given) is SKIPPED in Pyodide\n" + "!" * 78 + "\n",
            file=sys.stderr,
            flush=True,
        )
    # Keep exactly the pinned wheels in the folder the runner loads.
    keep = {_have(n, pins[_norm(n)]) for n in PYTEST_WHEELS + HYPOTHESIS_WHEELS if _norm(n) in pins}
    for wheel in WHEEL_DIR.glob("*.whl"):
        if wheel not in keep:
            wheel.unlink()
    cmd = [node, str(RUNNER), "--wheels", str(WHEEL_DIR), *flags, *junit, "--", *(argv or DEFAULT_ARGS)]
    return subprocess.call(cmd, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
