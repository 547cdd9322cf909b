"""hearts_web.store_checks: every stored key is checked, repaired where it safely can be, set aside
otherwise, and the notice says exactly what happened (backup made or not)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import Match, Phase, Rules
from hearts.challenge import Challenge, challenge_match, encode
from hearts.daily import daily_match
from hearts_web import i18n
from hearts_web.session import Mode, Pending, Session, SessionState, decode_save, encode_save
from hearts_web.settings import Settings
from hearts_web.stats import Statistics
from hearts_web.stats_html import statistics_html
from hearts_web.store import (BACKUP_PREFIX, CHALLENGE_GAME_KEY, DAILY_GAME_KEY, DAILY_KEY, GAME_KEYS, MATCH_KEY, SETTINGS_KEY,
                              STATS_KEY, MemoryStorage, Store)
from hearts_web.store_checks import Notice, check_daily, check_settings, check_start, check_stats, load_session
from helpers import played, step
from strategies import json_paths


def _save(**state: object) -> dict[str, object]:
    return encode_save(Session(played("stored", 30), SessionState(**state)))  # type: ignore[arg-type]


def _check(store: Store, key: str) -> list[Notice]:
    if key == SETTINGS_KEY:
        return check_settings(store)[1]
    if key == STATS_KEY:
        return check_stats(store)
    if key == DAILY_KEY:
        return check_daily(store)
    return load_session(store, key, "hard")[1]


def _backups(storage: MemoryStorage) -> dict[str, str]:
    return {k: v for k, v in storage.data.items() if k.startswith(BACKUP_PREFIX)}


# ------------------------------------------------------------------ stored values seen to break the start
def test_a_bad_difficulty_is_repaired_and_the_match_goes_on() -> None:
    """A difficulty like "godlike" or 123 would crash a bot after the first card, at every reload."""
    for bad in ("godlike", 123, None, ["hard"]):
        data = _save(difficulty="easy")
        data["session"]["difficulty"] = bad  # type: ignore[index]
        raw = json.dumps(data)
        storage = MemoryStorage({MATCH_KEY: raw})
        session, notices = load_session(Store(storage), MATCH_KEY, "hard")
        assert session is not None and session.state.difficulty == "hard"  # the player's setting
        assert session.match.hand.plays  # the same match, not a new one
        [notice] = notices
        assert notice.kind == "repaired" and notice.backup is not None and storage.data[notice.backup] == raw
        assert json.loads(storage.data[MATCH_KEY])["session"]["difficulty"] == "hard"  # written back
        assert load_session(Store(storage), MATCH_KEY, "hard")[1] == []  # and clean from now on


def test_malformed_pending_statistics_are_rebuilt_from_the_match() -> None:
    match = played("pending", 0)
    rng = random.Random(3)
    while len(match.score_sheet) < 2:
        step(match, rng)
    truth = Pending(2, sum(r.points[0] for r in match.score_sheet), sum(1 for r in match.score_sheet if r.moon == 0))
    for bad in ({"hands": "2"}, [], {"hands": 99, "points": 0, "moons": 0}, None):
        data = encode_save(Session(match, SessionState()))
        data["session"]["pending"] = bad
        session, [notice] = load_session(Store(MemoryStorage({MATCH_KEY: json.dumps(data)})), MATCH_KEY, "easy")
        assert session is not None and session.state.pending == truth and notice.kind == "repaired"


def test_a_bad_practice_flag_makes_the_match_practice_and_says_so() -> None:
    data = _save()
    data["session"]["practice"] = "yes"  # type: ignore[index]
    session, [notice] = load_session(Store(MemoryStorage({MATCH_KEY: json.dumps(data)})), MATCH_KEY, "easy")
    assert session is not None and session.state.practice and notice.practice
    i18n.set_lang("en")
    assert "practice" in notice.text()


def test_a_version_1_save_without_its_meta_is_migrated_and_the_notice_says_so() -> None:
    from pathlib import Path

    data = json.loads((Path(__file__).resolve().parent.parent / "fixtures" / "save_v1_summary.json").read_text())
    del data["meta"]
    session, [notice] = load_session(Store(MemoryStorage({MATCH_KEY: json.dumps(data)})), MATCH_KEY, "easy")
    assert session is not None and notice.kind == "repaired" and "meta" in notice.reason


def test_a_save_whose_version_is_true_is_set_aside() -> None:
    data = _save()
    data["v"] = True
    session, [notice] = load_session(Store(MemoryStorage({MATCH_KEY: json.dumps(data)})), MATCH_KEY, "easy")
    assert session is None and notice.kind == "replaced" and "version" in notice.reason


def test_a_daily_game_without_a_valid_date_is_set_aside() -> None:
    data = encode_save(Session(daily_match("2026-11-29"), SessionState(mode=Mode.DAILY, date="2026-11-29")))
    data["session"]["date"] = "2026-02-30"
    raw = json.dumps(data)
    storage = MemoryStorage({DAILY_GAME_KEY: raw})
    session, [notice] = load_session(Store(storage), DAILY_GAME_KEY, "easy")
    assert session is None and notice.kind == "replaced" and DAILY_GAME_KEY not in storage.data
    assert storage.data[notice.backup or ""] == raw


def test_a_match_saved_under_the_daily_key_takes_the_keys_mode_or_is_set_aside() -> None:
    storage = MemoryStorage({MATCH_KEY: json.dumps(_save(mode=Mode.DAILY, date="2026-11-29"))})
    session, [notice] = load_session(Store(storage), MATCH_KEY, "easy")
    assert session is not None and session.state.mode is Mode.MATCH and notice.kind == "repaired"
    storage = MemoryStorage({DAILY_GAME_KEY: json.dumps(_save())})  # a 13-hand match is no daily
    session, [notice] = load_session(Store(storage), DAILY_GAME_KEY, "easy")
    assert session is None and notice.kind == "replaced"


def test_settings_with_dropped_values_are_repaired_with_a_true_notice() -> None:
    """The notice says "kept as a backup" only when a backup exists."""
    raw = json.dumps({"difficulty": "hard", "speed": "warp", "rules": {"target": 50, "bogus": 1}, "extra": 1})
    storage = MemoryStorage({SETTINGS_KEY: raw})
    settings, [notice] = check_settings(Store(storage))
    assert settings.difficulty == "hard" and settings.speed == "normal" and settings.rules.target == 50
    assert notice.kind == "repaired" and storage.data[notice.backup or ""] == raw
    assert json.loads(storage.data[SETTINGS_KEY])["rules"]["target"] == 50
    assert check_settings(Store(storage))[1] == []


@given(st.builds(Settings, lang=st.sampled_from(["", "de", "en"]), difficulty=st.sampled_from(["easy", "medium", "hard"]),
                 look=st.sampled_from(["modern", "classic"]), speed=st.sampled_from(["slow", "normal", "fast", "instant"]),
                 rules=st.sampled_from(list(__import__("hearts").PRESETS.values()))))
def test_saved_settings_load_without_a_notice(s: Settings) -> None:
    """The default language ("" = the browser's) once counted as a bad value: every player who
    changed a setting without picking a language saw a false "could not be read" notice."""
    store = Store(MemoryStorage())
    s.save(store)
    loaded, notices = check_settings(store)
    assert loaded == s and notices == []


@pytest.mark.parametrize("raw", ['{"played": Infinity, "won": 1}', '{"played": "3"}', '{"points": 1e400}',
                                 '{"played": -1}', '{"played": 2, "won": 5}', '{"hands": ' + "9" * 4000 + "}",
                                 '{"moons": true}', '{"played": 1, "extra": []}'])
def test_statistics_with_bad_values_are_repaired(raw: str) -> None:
    """Statistics with strings or Infinity open the panel, not the error banner."""
    storage = MemoryStorage({STATS_KEY: raw})
    [notice] = check_stats(Store(storage))
    assert notice.kind == "repaired" and storage.data[notice.backup or ""] == raw
    stats = Statistics.load(Store(storage))
    assert 'data-stats-level="easy"' in statistics_html(stats, {}, "2026-12-03", "2026-12")


@pytest.mark.parametrize("data", [
    {"results": {"not-a-date": {"date": "not-a-date", "points": 1, "par": 2, "markers": []}}},
    {"results": [{"date": "2026-11-29", "points": 3, "par": 5, "markers": []}]},
    {"results": {"2026-11-29": {"date": "2026-11-28", "points": 3, "par": 5, "markers": []}}},
    {"results": {"2026-11-29": {"date": "2026-11-29", "points": 10**30, "par": 5, "markers": []}}},
    {"results": {}, "attempts": ["2026-11-29"]},
    {"results": {}, "par_ms": {"2026-11-29": "slow"}},
])
def test_daily_data_with_wrong_shapes_is_repaired(data: dict[str, object]) -> None:
    raw = json.dumps(data)
    storage = MemoryStorage({DAILY_KEY: raw})
    [notice] = check_daily(Store(storage))
    assert notice.kind == "repaired" and storage.data[notice.backup or ""] == raw


@pytest.mark.parametrize("key", GAME_KEYS)
@pytest.mark.parametrize("raw", ["[" * 10_000, "{", "[]", "null", '"text"', "42", '{"a": "\\ud800"}', "x" * 3_000_000])
def test_unreadable_values_are_set_aside_under_every_key(key: str, raw: str) -> None:
    storage = MemoryStorage({key: raw})
    notices = _check(Store(storage), key)
    if raw == "null":  # JSON null is "nothing stored"... under a key that must hold an object
        assert [n.kind for n in notices] in ([], ["replaced"])
        return
    [notice] = notices
    assert notice.kind == "replaced" and storage.data[notice.backup or ""] == raw and key not in storage.data


def test_a_full_storage_keeps_the_original_in_memory_and_says_so() -> None:
    """With a corrupt save and a full storage the notice claims no backup."""
    raw = "{corrupt" + " " * 40
    storage = MemoryStorage({MATCH_KEY: raw}, quota=len(MATCH_KEY) + len(raw) + 10)
    store = Store(storage)
    session, [notice] = load_session(store, MATCH_KEY, "easy")
    assert session is None and notice.backup is None and _backups(storage) == {}
    assert list(store.unkept.values()) == [raw]  # an export still has it
    i18n.set_lang("en")
    assert "could not be kept" in notice.text() and "kept as a backup (" not in notice.text()
    i18n.set_lang("de")
    assert "nicht als Sicherung" in notice.text()


def test_the_start_checks_settings_statistics_and_daily_data_together() -> None:
    storage = MemoryStorage({SETTINGS_KEY: "{", STATS_KEY: '{"played": 1}', DAILY_KEY: '{"results": 5}'})
    settings, notices = check_start(Store(storage))
    assert settings == Settings() and [(n.key, n.kind) for n in notices] == [
        (SETTINGS_KEY, "replaced"), (DAILY_KEY, "repaired")]


# ------------------------------------------------------------------ any value, any key
CHALLENGE = Challenge(seed="real", hand=2, rules=Rules(), level="hard", by="Ada", points=5,
                      markers=("none",) * 10 + ("hearts", "queen", "none"))

def _real_values() -> dict[str, str]:
    waiting = played("real", 0)
    rng = random.Random(7)
    while waiting.phase is not Phase.HAND_OVER:
        step(waiting, rng)
    return {
        SETTINGS_KEY: json.dumps(Settings(lang="de", difficulty="hard").to_dict()),
        MATCH_KEY: json.dumps(encode_save(Session(waiting, SessionState(pending=Pending(1, 0, 0))))),
        DAILY_GAME_KEY: json.dumps(encode_save(Session(daily_match("2026-11-29"), SessionState(mode=Mode.DAILY, date="2026-11-29")))),
        CHALLENGE_GAME_KEY: json.dumps(encode_save(Session(challenge_match(CHALLENGE), SessionState(
            mode=Mode.CHALLENGE, difficulty="hard", challenge=encode(CHALLENGE))))),
        DAILY_KEY: json.dumps({"results": {"2026-11-29": {"date": "2026-11-29", "points": 3, "par": 5,
                                                          "markers": ["none"] * 13, "moon": False}},
                               "attempts": {"2026-11-29": "started"}, "par_ms": {"2026-11-29": 900}}),
        STATS_KEY: json.dumps({"played": 3, "won": 1, "hands": 20, "points": 140, "moons": 1}),
    }


REAL = _real_values()
text = st.text(max_size=10) | st.sampled_from(["\ud800", "a\udfff", "2026-11-29", "hard", "hearts-match", "AH"])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=20,
)


@st.composite
def mutated(draw: st.DrawFn, key: str) -> str:
    """A real stored value with one part replaced by any JSON (or the whole thing, or text)."""
    kind = draw(st.sampled_from(["mutate", "mutate", "mutate", "any", "text"]))
    if kind == "text":
        return draw(st.text(max_size=40))
    if kind == "any":
        return json.dumps(draw(json_values))
    value = json.loads(REAL[key])
    path = draw(st.sampled_from(json_paths(value)[1:]))
    target: object = value
    for part in path[:-1]:
        target = target[part]  # type: ignore[index]
    target[path[-1]] = draw(json_values)  # type: ignore[index]
    return json.dumps(value)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), key=st.sampled_from(GAME_KEYS), full=st.booleans())
def test_any_stored_value_gives_a_usable_game_and_a_true_notice(data: st.DataObject, key: str, full: bool) -> None:
    raw = data.draw(mutated(key))
    storage = MemoryStorage({key: raw}, quota=len(key) + len(raw) + 5 if full else None)
    store = Store(storage)
    notices = _check(store, key)
    assert len(notices) <= 1
    for notice in notices:
        if notice.backup is not None:
            assert storage.data[notice.backup] == raw  # "kept as a backup" is true
        else:
            assert raw in store.unkept.values() and not _backups(storage)  # "could not be kept" is true
        if notice.kind == "replaced" and notice.backup is not None:
            assert key not in storage.data
    if not notices:
        assert storage.data.get(key) == raw  # no notice: nothing was touched
    # what is stored now loads cleanly: the next start says nothing
    if not full:
        assert _check(Store(storage), key) == []
    # and the panels can show it
    statistics_html(Statistics.load(Store(storage)), {}, "2026-12-03", "2026-12")


def test_the_online_tables_keys_are_objects_or_set_aside() -> None:
    from hearts_web.store import ONLINE_GUEST_KEY, ONLINE_HOST_KEY, ONLINE_MATCH_KEY

    storage = MemoryStorage({ONLINE_HOST_KEY: "[" * 10_000, ONLINE_GUEST_KEY: "[1]", SETTINGS_KEY: "{}"})
    _, notices = check_start(Store(storage))
    assert sorted((n.key, n.kind) for n in notices) == [(ONLINE_GUEST_KEY, "replaced"), (ONLINE_HOST_KEY, "replaced")]
    assert ONLINE_HOST_KEY not in storage.data and ONLINE_GUEST_KEY not in storage.data
    data = encode_save(Session(played("online", 20), SessionState(mode=Mode.ONLINE, difficulty="easy")))
    data["session"]["difficulty"] = "godlike"
    session, [notice] = load_session(Store(MemoryStorage({ONLINE_MATCH_KEY: json.dumps(data)})), ONLINE_MATCH_KEY, "hard")
    assert session is not None and session.state.mode is Mode.ONLINE and session.state.difficulty == "hard"
    i18n.set_lang("en")
    assert notice.kind == "repaired" and "online table" in notice.text()
