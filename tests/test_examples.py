"""The sample records in examples/ replay, and examples/make_record.py still writes exactly them."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

from hearts.cli import replay

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_the_sample_records_replay() -> None:
    for name in ("match.json", "hand.json"):
        out = io.StringIO()
        tally = replay((EXAMPLES / name).read_text(encoding="utf-8"), out)
        assert tally.status == 0 and out.getvalue().startswith("record 1: ok"), out.getvalue()


def test_make_record_writes_the_samples(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_record", EXAMPLES / "make_record.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--out", str(tmp_path / "m.json"), "--hand-out", str(tmp_path / "h.json")]) == 0
    assert (tmp_path / "m.json").read_text() == (EXAMPLES / "match.json").read_text()
    assert (tmp_path / "h.json").read_text() == (EXAMPLES / "hand.json").read_text()
