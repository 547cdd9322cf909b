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
    proc = subprocess.run(
        [sys.executable, "-m", "hearts", "replay", "-"], input=lines, capture_output=True, text=True, cwd=ROOT
    )
    assert proc.returncode == 1
    out = proc.stdout.splitlines()
    assert out[0].startswith("line 1: ok")
    assert out[1].startswith("line 2: INVALID at hands[0].plays[0]: ")
    assert out[2].startswith("line 3: INVALID not_json")


def test_replay_unreadable_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    empty = io.StringIO()
    assert replay_lines("", empty) == 1 and "no records" in empty.getvalue()


# ------------------------------------------------------------------ never a traceback
import random  # noqa: E402

import pytest  # noqa: E402
from helpers import step  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from hearts import Match, Phase, Rules, match_to_record  # noqa: E402
from hearts.cli import replay  # noqa: E402
from hearts.deal import deal_from_seed  # noqa: E402


def _explicit_deal_match(hands: int) -> dict:
    """A finished first hand dealt explicitly, recorded without a seed (the deals run out after it)."""
    match = Match(Rules(), deals=[deal_from_seed("explicit")])
    rng = random.Random(1)
    while match.phase is not Phase.HAND_OVER:
        step(match, rng)
    record = match_to_record(match)
    assert "seed" not in record and len(record["hands"]) == 1
    if hands == 2:
        record["hands"].append({"deal": record["hands"][0]["deal"], "passes": {}, "plays": []})
    return record


def test_a_match_whose_explicit_deals_run_out_is_reported_not_crashed() -> None:
    out = io.StringIO()
    tally = replay(json.dumps(_explicit_deal_match(1)), out)
    assert tally.status == 0 and "in progress (hand_over)" in out.getvalue()
    out = io.StringIO()
    assert replay(json.dumps(_explicit_deal_match(2)), out).status in (0, 1)
    assert "Traceback" not in out.getvalue()


@pytest.mark.parametrize(
    "text, status, expect",
    [
        ("[" * 1000 + "]" * 1000, 1, "INVALID not_json: nested too deeply"),
        ("[" * 100_000, 1, "INVALID not_json"),
        ('{"format":"hearts-match","version":1,"rules":{},"hands":[{"deal":{"\\ud800":[]}}]}', 1, "\\ud800"),
        ('{"format":"hearts-match","version":1,"rules":{},"seed":"\\ud800","hands":[{}]}', 1, "lone surrogate"),
        ('{"format":"hearts-hand","version":1,"rules":{},"seed":"\\udfff"}', 1, "lone surrogate"),
        ("", 1, "no records"),
    ],
)
def test_hostile_input_gets_a_line_not_a_traceback(text: str, status: int, expect: str) -> None:
    out = io.StringIO()
    assert replay(text, out).status == status
    assert expect in out.getvalue()
    out.getvalue().encode("utf-8")  # printable: no lone surrogates left


def test_a_bug_in_one_record_is_status_3_and_the_batch_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import hearts.cli as cli

    good = (FIXTURES / "match_standard.json").read_text()
    calls = []

    def flaky(data: object) -> object:
        calls.append(data)
        if len(calls) == 1:
            raise KeyError("a programming error")
        return real(data)

    real = cli.load_record
    monkeypatch.setattr(cli, "load_record", flaky)
    out = io.StringIO()
    lines = "\n".join(json.dumps(json.loads(good)) for _ in range(2))
    tally = replay(lines, out)
    assert tally.status == 3 and tally.valid == 1
    assert out.getvalue().splitlines()[0].startswith("line 1: ERROR internal: KeyError")


def _run(args: list[str], stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "hearts", *args],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "ascii", "LC_ALL": "C"},
        timeout=60,
    )


def test_exit_statuses_from_the_command_line(tmp_path: pathlib.Path) -> None:
    good = (FIXTURES / "match_standard.json").read_bytes()
    assert _run(["replay", "-"], json.dumps(json.loads(good)).encode()).returncode == 0
    surrogate = b'{"format":"hearts-match","version":1,"rules":{},"hands":[{"deal":{"\\ud800":[]}}]}'
    proc = _run(["replay", "-"], surrogate)  # printed on an ASCII terminal
    assert proc.returncode == 1 and b"\\ud800" in proc.stdout and not proc.stderr
    proc = _run(["replay", "-"], b"\xff\xfe not utf-8")
    assert proc.returncode == 2 and b"cannot read" in proc.stderr and b"Traceback" not in proc.stderr
    assert _run(["replay", str(tmp_path)]).returncode == 2  # a folder
    assert _run(["replay"]).returncode == 2  # usage
    assert _run(["nonsense"]).returncode == 2


def test_a_closed_output_pipe_ends_quietly(tmp_path: pathlib.Path) -> None:
    line = json.dumps(json.loads((FIXTURES / "match_standard.json").read_text()))
    big = tmp_path / "many.jsonl"
    big.write_text("\n".join([line] * 300))
    proc = subprocess.run(
        f"{sys.executable} -m hearts replay {big} | head -1", shell=True, capture_output=True, cwd=ROOT, timeout=120
    )
    assert proc.stdout.count(b"\n") == 1 and b"Traceback" not in proc.stderr and b"Error" not in proc.stderr


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    raw=st.binary(max_size=300)
    | st.builds(lambda n, c: (c * n).encode(), st.integers(0, 3000), st.sampled_from(["[", '{"a":', "[1,"]))
    | st.text(alphabet='[]{}":,0123456789.-eEtrufalsn \n\\u', max_size=300).map(str.encode)
    | st.builds(
        lambda v: json.dumps(v).encode(),
        st.recursive(
            st.none()
            | st.booleans()
            | st.integers()
            | st.text(max_size=5)
            | st.sampled_from(["hearts-match", "hearts-hand", "\ud800"]),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(
                    st.sampled_from(
                        ["format", "version", "rules", "seed", "hands", "deal", "plays", "passes", "south", "\udfff"]
                    ),
                    inner,
                    max_size=4,
                )
            ),
            max_leaves=20,
        ),
    )
)
def test_any_bytes_in_a_clean_answer_out(raw: bytes, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("any") / "in.json"
    path.write_bytes(raw)
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")  # strict, like a real terminal
    old = sys.stdout
    sys.stdout = out
    try:
        status = main(["replay", str(path)])
        out.flush()
    finally:
        sys.stdout = old
    assert status in (0, 1, 2)  # 3 would be a bug in the engine
