"""lab.seat_bench: the seat-swap screen reports what it played, splits off the moon hands and
resumes a stopped run from its --out file (cheap bots, a few deals). In Pyodide the process test is
skipped by tests/pyodide/pyodide_plugin.py (no processes there)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from lab import seat_bench

ROOT = Path(__file__).resolve().parents[2]


def _bench(tmp_path: Path, *args: str) -> str:
    cmd = [
        sys.executable,
        "-m",
        "lab.seat_bench",
        "--field",
        "easy",
        "--bots",
        "random,medium",
        "--seat",
        "all",
        "--cache",
        str(tmp_path / "cache"),
        "--out",
        str(tmp_path / "out.jsonl"),
        *args,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=True)
    return proc.stdout


def test_interval_is_a_paired_mean_with_its_95_percent_interval() -> None:
    assert seat_bench.interval([]) == "no hands"
    # mean 1, sd 1, n 4: se 0.5, interval 0.98, p = erfc(2 / sqrt 2)
    assert seat_bench.interval([0.0, 0.0, 2.0, 2.0]).startswith("+1.000 ± 1.132 (p=0.0")
    assert seat_bench.interval([-1.0, -3.0]).endswith("n=2)")


def test_the_report_splits_off_moon_hands_and_a_stopped_run_resumes(tmp_path: Path) -> None:
    first = _bench(tmp_path, "--deals", "4")
    assert "(4 baseline and 32 candidate hands played, 0 candidate hands from --out)" in first
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert len(rows) == 32 and {r["cand"] for r in rows} == {"random", "medium"}
    # the calm split counts exactly the hands in which neither game had a moon
    base = {
        json.loads(line)["n"]: json.loads(line)
        for line in next((tmp_path / "cache").iterdir()).read_text().splitlines()
    }
    assert base[3]["moon"] >= 0  # the Easy field shoots the moon on deal 3: those four hands are not calm
    calm = sum(1 for r in rows if r["cand"] == "random" and r["moon"] == -1 and base[r["n"]]["moon"] == -1)
    assert calm <= 12
    lines = first.splitlines()
    split = lines[next(i for i, line in enumerate(lines) if line.startswith("  random:")) + 1]
    assert split.startswith("    in hands without a moon (either game): ") and split.endswith(f"n={calm})")

    # the same command over more deals plays only what is new and reports the same hands alike
    again = _bench(tmp_path, "--deals", "6")
    assert "(2 baseline and 16 candidate hands played, 32 candidate hands from --out)" in again
    replay = _bench(tmp_path, "--deals", "6")
    assert "(0 baseline and 0 candidate hands played, 48 candidate hands from --out)" in replay

    def body(text: str) -> str:
        """Everything after the timing line."""
        return text.split("\n", 1)[1]

    assert body(again) == body(replay)


def test_a_candidate_hand_keeps_the_thinking_of_its_searched_plays() -> None:
    row = seat_bench.play_deal((5, "medium", "hard@12/4", 2, "standard"))
    think = row["think"]
    assert think["worlds"] >= 12 and think["ms"] > 0  # at least one searched play, 12 worlds each
    assert think["worlds"] % 12 == 0 and 0 <= think["runner_worlds"] <= think["worlds"]
    assert "think" not in seat_bench.play_deal((5, "medium", "medium", -1, "standard"))  # the baseline: nobody
