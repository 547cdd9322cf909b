import io
import json
import pathlib
import subprocess
import sys

from hearts.cli import main, replay_lines

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
ROOT = pathlib.Path(__file__).parent.parent


def test_replay_file_prints_the_result(capsys):
    assert main(["replay", str(FIXTURES / "match_standard.json")]) == 0
    out = capsys.readouterr().out
    assert "record 1: ok  match, 13 hand(s), totals south=75 west=101 north=71 east=91; over, winners north" in out


def test_replay_hand_prints_points(capsys):
    assert main(["replay", str(FIXTURES / "hand_omnibus.json")]) == 0
    assert "points south=2 west=7 north=-9 east=16" in capsys.readouterr().out


def test_replay_json_lines_from_stdin_flags_the_invalid_one():
    good = json.dumps(json.loads((FIXTURES / "match_standard.json").read_text()))
    bad = json.loads(good)
    bad["hands"][0]["plays"][0] = "AS"
    lines = "\n".join([good, json.dumps(bad), "{oops", ""])
    proc = subprocess.run([sys.executable, "-m", "hearts", "replay", "-"], input=lines, capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    out = proc.stdout.splitlines()
    assert out[0].startswith("line 1: ok")
    assert out[1].startswith("line 2: INVALID at hands[0].plays[0]: ")
    assert out[2].startswith("line 3: INVALID not_json")


def test_replay_unreadable_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    empty = io.StringIO()
    assert replay_lines("", empty) == 1 and "no records" in empty.getvalue()
