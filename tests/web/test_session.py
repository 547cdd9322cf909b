"""hearts_web.data.session: the typed session, its save format, the migration of version-1 saves,
and the line between corrupt data (kept aside) and bugs (raised)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hearts_web.data import session as session_module
from hearts_web.data.registry import CHALLENGE_GAME, GAMES
from hearts_web.data.session import Mode, Pending, Session, SessionState, decode_game, encode_save
from hearts_web.data.store import Unreadable
from helpers import played, step
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import Match, Phase, Rules, Seat, match_to_record
from hearts.daily import daily_match

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def decode_save(data: object, mode: Mode = Mode.MATCH) -> Session:
    """The save decoded with nothing to repair (a test of a clean save)."""
    decoded = decode_game(data, mode)
    assert not decoded.repairs, decoded.repairs
    return decoded.value


def refused(data: object, mode: Mode = Mode.MATCH) -> bool:
    """Whether the save cannot be used as it is: unreadable, or usable only repaired."""
    try:
        return bool(decode_game(data, mode).repairs)
    except Unreadable:
        return True


def test_a_session_round_trips_mid_trick_between_hands_and_as_a_daily() -> None:
    mid = Session(played("mid", 30), SessionState(practice=True, difficulty="hard"))
    waiting = played("wait", 0)
    while waiting.phase is not Phase.HAND_OVER:
        step(waiting, random.Random(len(waiting.hand.plays)))
    daily = Session(daily_match("2026-11-29"), SessionState(mode=Mode.DAILY, date="2026-11-29", counted=True))
    at_summary = Session(
        waiting, SessionState(pending=session_module._pending_from(waiting))
    )  # pending: from the sheet
    assert at_summary.state.pending.hands == 1
    for original in (mid, at_summary, daily):
        data = json.loads(json.dumps(encode_save(original)))
        again = decode_save(data, original.state.mode)
        assert again.state == original.state and match_to_record(again.match) == match_to_record(original.match)
        assert again.match.phase is original.match.phase


def test_a_version_1_save_made_on_the_hand_summary_reopens_the_summary() -> None:
    """A real save of the previous version, taken in the browser while the summary was open: it
    already held the next hand's empty body; the migration returns the match to the end of hand 1."""
    data = json.loads((FIXTURES / "save_v1_summary.json").read_text())
    assert data["meta"]["summary"] == 0 and len(data["record"]["hands"]) == 2
    s = decode_save(data)
    assert s.match.phase is Phase.HAND_OVER and s.match.hand_number == 0 and len(s.match.score_sheet) == 1
    assert s.state == SessionState(mode=Mode.MATCH, difficulty="easy", pending=Pending(1, 0, 1))
    assert encode_save(s)["v"] == 2 and "meta" not in encode_save(s)


def test_a_version_1_save_mid_trick_resumes_the_same_position() -> None:
    fixture = json.loads((FIXTURES / "save_v1_mid_trick.json").read_text())
    s = decode_save(fixture["save"])
    assert [c.text for c in s.match.cards(Seat.SOUTH)] == fixture["south_hand"]
    assert s.match.hand_number == 1 and s.match.turn == Seat.SOUTH and s.match.current_trick
    assert s.state.pending == Pending(1, 0, 1) and not s.state.practice


@pytest.mark.parametrize("version", [True, 1.0, 2.0, "2", [2]])
def test_a_version_must_be_the_number_itself(version: object) -> None:
    """``true`` equals 1 and ``2.0`` equals 2 in Python, but neither is a save version."""
    v1 = json.loads((FIXTURES / "save_v1_summary.json").read_text())
    v2 = encode_save(Session(played("exact", 12), SessionState()))
    for data in (v1, v2):
        data["v"] = version
        with pytest.raises(Unreadable, match="unknown save version"):
            decode_game(data, Mode.MATCH)


@pytest.mark.parametrize("meta", [None, "easy", [], 7])
def test_a_version_1_save_without_its_meta_object_says_so(meta: object) -> None:
    data = json.loads((FIXTURES / "save_v1_summary.json").read_text())
    if meta is None:
        del data["meta"]
    else:
        data["meta"] = meta
    decoded = decode_game(data, Mode.MATCH)
    s = decoded.value
    assert decoded.repairs.made == {"meta": 1} and len(s.match.score_sheet) == 1  # without meta.summary: the next hand
    assert s.state.pending == Pending(1, 0, 1) and s.state.counted is False  # from the match itself


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(v=3),
        lambda d: d.update(v=None),
        lambda d: d["session"].update(difficulty="godlike"),
        lambda d: d["session"].update(difficulty=123),
        lambda d: d["session"].update(mode="tournament"),
        lambda d: d["session"].update(mode="daily"),  # a daily needs its date
        lambda d: d["session"].update(practice="yes"),
        lambda d: d["session"].update(pending={"hands": "2"}),
        lambda d: d["session"].update(date="2026-02-30"),
        lambda d: d["record"]["hands"][0].update(plays=["AH", "AH"]),
        lambda d: d.pop("record"),
        lambda d: d.update(session=[]),
    ],
)
def test_corrupt_saves_are_refused_or_repaired(change) -> None:  # type: ignore[no-untyped-def]
    data = encode_save(Session(played("bad", 12), SessionState()))
    change(data)
    assert refused(data)


def test_a_bug_while_loading_is_not_mistaken_for_a_corrupt_save(monkeypatch: pytest.MonkeyPatch) -> None:
    data = encode_save(Session(played("bug", 5), SessionState()))

    def broken(_record: object) -> Match:
        raise AttributeError("a programming error")

    monkeypatch.setattr(session_module, "match_from_record", broken)
    with pytest.raises(AttributeError):
        decode_game(data, Mode.MATCH)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(v=st.sampled_from([1, 2, 0, None]), record=json_values, extra=json_values)
def test_any_json_loads_or_is_refused_as_corrupt(v, record, extra) -> None:  # type: ignore[no-untyped-def]
    for data in ({"v": v, "record": record, "session": extra}, {"v": v, "record": record, "meta": extra}, extra):
        for mode in GAMES:
            try:
                decode_game(data, mode)
            except Unreadable:
                pass


def test_a_challenge_game_round_trips_and_a_bad_token_is_corrupt() -> None:
    from hearts.challenge import Challenge, challenge_match, encode

    ch = Challenge(seed="friend", hand=3, rules=Rules(), level="medium", by="Ada", points=4, markers=())
    original = Session(
        challenge_match(ch), SessionState(mode=Mode.CHALLENGE, difficulty="medium", challenge=encode(ch))
    )
    data = json.loads(json.dumps(encode_save(original)))
    again = decode_save(data, mode=Mode.CHALLENGE)
    assert again.state == original.state and GAMES[again.state.mode] is CHALLENGE_GAME
    token = data["session"]["challenge"]
    for bad in (token[:-2], token.replace(".", "", 1), 123, None):
        broken = json.loads(json.dumps(data))
        broken["session"]["challenge"] = bad
        with pytest.raises(Unreadable):
            decode_game(broken, Mode.CHALLENGE)
    longer = Session(played("long", 0), SessionState(mode=Mode.CHALLENGE, challenge=encode(ch)))
    with pytest.raises(Unreadable):  # a challenge is one hand
        decode_game(json.loads(json.dumps(encode_save(longer))), Mode.CHALLENGE)
