"""Where the site relies on a vendor's code, a change of the vendor fails here and in the build,
not in a player's browser: Trystero's error words (web/online/transport.js) and Pyodide's private
snapshot options (web/runtime/python.mjs), pinned in tools/vendor_pins.py. Each check runs on
the installed packages, then on altered copies of their files, where it must fail and say why.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from tools import build, vendor_pins
from tools.vendor_patch import PatchError

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules"
TRYSTERO = (build.TRYSTERO_CORE, build.TRYSTERO_NOSTR)
pytestmark = [
    pytest.mark.skipif(sys.platform == "emscripten", reason="the build's checks, on CPython"),
    pytest.mark.skipif(not (NODE / "pyodide" / "pyodide.mjs").is_file(), reason="no node_modules (npm ci)"),
]


def transport() -> str:
    return (ROOT / vendor_pins.TRANSPORT).read_text(encoding="utf-8")


def copy_trystero(tmp_path: Path) -> dict[str, Path]:
    copies = {}
    for package in TRYSTERO:
        copies[package] = tmp_path / package
        shutil.copytree(NODE / package / "dist", copies[package] / "dist")
    return copies


def alter(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def copy_pyodide(tmp_path: Path) -> Path:
    for name in build.PYODIDE_FILES[:2]:
        shutil.copyfile(NODE / "pyodide" / name, tmp_path / name)
    return tmp_path


# ------------------------------------------------------------------ Trystero's words
def test_trystero_says_each_word_the_transport_acts_on_once() -> None:
    words = vendor_pins.trystero_words(transport())
    assert words == {"noPath": "after exchanging SDP", "halfOpen": "handshake timed out"}
    vendor_pins.check_trystero_words(transport(), {p: NODE / p for p in TRYSTERO})
    # and the transport decides by these words, not by a copy of them
    assert "TRYSTERO_WORDS.noPath" in transport() and "TRYSTERO_WORDS.halfOpen" in transport()
    assert all(transport().count(w) == 1 for w in words.values())


def test_reworded_trystero_fails_the_check(tmp_path: Path) -> None:
    copies = copy_trystero(tmp_path)
    handshake = copies[build.TRYSTERO_CORE] / "dist" / "handshake.mjs"
    alter(handshake, "handshake timed out after", "handshake took longer than")
    with pytest.raises(PatchError, match="says 'handshake timed out' 0 times.*'halfOpen'"):
        vendor_pins.check_trystero_words(transport(), copies)
    alter(handshake, "handshake took longer than", "handshake timed out after")
    vendor_pins.check_trystero_words(transport(), copies)
    signals = copies[build.TRYSTERO_CORE] / "dist" / "signal-handler.mjs"
    alter(signals, "after exchanging SDP;", "after exchanging SDP; (after exchanging SDP)")
    with pytest.raises(PatchError, match="says 'after exchanging SDP' 2 times"):
        vendor_pins.check_trystero_words(transport(), copies)


def test_a_transport_without_its_words_fails_the_check() -> None:
    with pytest.raises(PatchError, match="TRYSTERO_WORDS"):
        vendor_pins.trystero_words(transport().replace("export const TRYSTERO_WORDS", "const WORDS"))


# ------------------------------------------------------------------ Pyodide's snapshot options
def python_runtime() -> str:
    """web/runtime/python.mjs: how the workers start Pyodide."""
    return (ROOT / build.PYTHON_RUNTIME).read_text(encoding="utf-8")


def test_pyodide_reads_the_snapshot_options_the_runtime_passes() -> None:
    vendor_pins.check_pyodide_snapshot(NODE / "pyodide", python_runtime())


@pytest.mark.parametrize(
    "name, old, new, reason",
    [
        ("pyodide.mjs", "._loadSnapshot", "._restoreSnapshot", "_loadSnapshot"),
        ("pyodide.asm.mjs", "API.config._makeSnapshot", "API.config.makeSnapshot", "_makeSnapshot"),
        ("pyodide.asm.mjs", "static makeMemorySnapshot(", "static makeSnapshotOfMemory(", "makeMemorySnapshot"),
    ],
)
def test_a_pyodide_that_renamed_them_fails_the_check(
    tmp_path: Path, name: str, old: str, new: str, reason: str
) -> None:
    folder = copy_pyodide(tmp_path)
    alter(folder / name, old, new)
    with pytest.raises(PatchError, match=f"Pyodide's {name} has no .*{reason}"):
        vendor_pins.check_pyodide_snapshot(folder, python_runtime())


def test_a_runtime_that_stopped_passing_them_fails_the_check() -> None:
    passed = "_loadSnapshot: memory,"
    assert passed in python_runtime()
    runtime = python_runtime().replace(passed, "snapshot: memory,")
    with pytest.raises(PatchError, match="web/runtime/python.mjs: a pinned passage is not there once"):
        vendor_pins.check_pyodide_snapshot(NODE / "pyodide", runtime)
