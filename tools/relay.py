"""The local Nostr relay of the online tests and the lab (``tools/relay.mjs``, run by node)."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

__all__ = ["local_relay"]


@contextmanager
def local_relay() -> Iterator[str]:
    """A relay on a free port of 127.0.0.1: yields its address (``ws://127.0.0.1:PORT``) and
    stops it on leaving. RuntimeError when it does not start."""
    proc = subprocess.Popen(
        ["node", str(ROOT / "tools" / "relay.mjs"), "--port", "0"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None  # stdout=PIPE
    line = proc.stdout.readline().split()
    if len(line) != 2 or line[0] != "relay":
        proc.kill()
        raise RuntimeError(f"the local relay did not start: {line}")
    try:
        yield line[1]
    finally:
        proc.terminate()
        proc.wait(timeout=10)
