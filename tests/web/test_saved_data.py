"""hearts_web.data.registry: one registry of every stored key; each is checked when read, repaired where
it safely can be, set aside otherwise, and the notice says exactly what happened (backup made or not)."""

from __future__ import annotations

import json
import random

import pytest
from hearts_web.core import i18n
from hearts_web.data import registry as saved_data
from hearts_web.data.registry import (
    BACKUP_PREFIX,
    BY_KEY,
    CHALLENGE_GAME,
    DAILY,
    DAILY_GAME,
    MATCH,
    SETTINGS,
    STATS,
    Notice,
    SavedData,
)
from hearts_web.data.session import Mode, Pending, Session, SessionState, encode_save
from hearts_web.data.settings import Settings
from hearts_web.data.stats import Statistics
from hearts_web.data.store import MemoryStorage, Store
from hearts_web.stats.html import statistics_html
from helpers import played, step
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_paths

from hearts import Phase, Rules
from hearts.challenge import Challenge, challenge_match, encode
from hearts.daily import daily_match

SETTINGS_KEY, MATCH_KEY, DAILY_GAME_KEY, CHALLENGE_GAME_KEY = (
    SETTINGS.key,
    MATCH.key,
    DAILY_GAME.key,
    CHALLENGE_GAME.key,
)
DAILY_KEY, STATS_KEY = DAILY.key, STATS.key
GAME_KEYS = tuple(kind.key for kind in saved_data.KINDS if kind.importable)


def _save(**state: object) -> dict[str, object]:
    return encode_save(Session(played("stored", 30), SessionState(**state)))  # type: ignore[arg-type]


def load_session(store: Store, key: str, level: str) -> tuple[Session | None, list[Notice]]:
    kind = saved_data.GAMES[
        {
            MATCH_KEY: Mode.MATCH,
            DAILY_GAME_KEY: Mode.DAILY,
            CHALLENGE_GAME_KEY: Mode.CHALLENGE,
            saved_data.ONLINE_MATCH.key: Mode.ONLINE,
        }[key]
    ]
    session, notice = kind.check(store, level)
    return session, [notice] if notice else []


def check_settings(store: Store) -> tuple[Settings, list[Notice]]:
    settings, notice = SETTINGS.check(store)
    return settings or Settings(), [notice] if notice else []


def _check(store: Store, key: str) -> list[Notice]:
    notice = BY_KEY[key].check(store, "hard")[1]
    return [notice] if notice else []


def check_start(store: Store) -> tuple[Settings, list[Notice]]:
    told: list[Notice] = []
    settings = SavedData(store, told.extend, lambda: "medium").check_start()
    return settings, told


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
    assert session is not None and session.state.practice and ("n_now_practice", 1) in notice.told
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


@given(
    st.builds(
        Settings,
        lang=st.sampled_from(["", "de", "en"]),
        difficulty=st.sampled_from(["easy", "medium", "hard"]),
        look=st.sampled_from(["modern", "classic"]),
        speed=st.sampled_from(["slow", "normal", "fast", "instant"]),
        rules=st.sampled_from(list(__import__("hearts").PRESETS.values())),
    )
)
def test_saved_settings_load_without_a_notice(s: Settings) -> None:
    """The default language ("" = the browser's) once counted as a bad value: every player who
    changed a setting without picking a language saw a false "could not be read" notice."""
    store = Store(MemoryStorage())
    SavedData(store, print, lambda: "easy").write(SETTINGS, s)
    loaded, notices = check_settings(store)
    assert loaded == s and notices == []


@pytest.mark.parametrize(
    "raw",
    [
        '{"played": Infinity, "won": 1}',
        '{"played": "3"}',
        '{"points": 1e400}',
        '{"played": -1}',
        '{"played": 2, "won": 5}',
        '{"hands": ' + "9" * 4000 + "}",
        '{"moons": true}',
        '{"played": 1, "extra": []}',
    ],
)
def test_statistics_with_bad_values_are_repaired(raw: str) -> None:
    """Statistics with strings or Infinity open the panel, not the error banner."""
    storage = MemoryStorage({STATS_KEY: raw})
    [notice] = _check(Store(storage), STATS_KEY)
    assert notice.kind == "repaired" and storage.data[notice.backup or ""] == raw
    stats = STATS.peek(Store(storage)) or Statistics()
    assert 'data-stats-level="easy"' in statistics_html(stats, {}, "2026-12-03", "2026-12")


@pytest.mark.parametrize(
    "data",
    [
        {"results": {"not-a-date": {"date": "not-a-date", "points": 1, "par": 2, "markers": []}}},
        {"results": [{"date": "2026-11-29", "points": 3, "par": 5, "markers": []}]},
        {"results": {"2026-11-29": {"date": "2026-11-28", "points": 3, "par": 5, "markers": []}}},
        {"results": {"2026-11-29": {"date": "2026-11-29", "points": 10**30, "par": 5, "markers": []}}},
        {"results": {}, "attempts": ["2026-11-29"]},
        {"results": {}, "par_ms": {"2026-11-29": "slow"}},
    ],
)
def test_daily_data_with_wrong_shapes_is_repaired(data: dict[str, object]) -> None:
    raw = json.dumps(data)
    storage = MemoryStorage({DAILY_KEY: raw})
    [notice] = _check(Store(storage), DAILY_KEY)
    assert notice.kind == "repaired" and storage.data[notice.backup or ""] == raw


@pytest.mark.parametrize("key", GAME_KEYS)
@pytest.mark.parametrize("raw", ["[" * 10_000, "{", "[]", "null", '"text"', "42", '{"a": "\\ud800"}', "x" * 3_000_000])
def test_unreadable_values_are_set_aside_under_every_key(key: str, raw: str) -> None:
    storage = MemoryStorage({key: raw})
    notices = _check(Store(storage), key)
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
        (SETTINGS_KEY, "replaced"),
        (DAILY_KEY, "repaired"),
    ]


# ------------------------------------------------------------------ any value, any key
CHALLENGE = Challenge(
    seed="real",
    hand=2,
    rules=Rules(),
    level="hard",
    by="Ada",
    points=5,
    markers=("none",) * 10 + ("hearts", "queen", "none"),
)


def _real_values() -> dict[str, str]:
    waiting = played("real", 0)
    rng = random.Random(7)
    while waiting.phase is not Phase.HAND_OVER:
        step(waiting, rng)
    return {
        SETTINGS_KEY: json.dumps(Settings(lang="de", difficulty="hard").to_dict()),
        MATCH_KEY: json.dumps(encode_save(Session(waiting, SessionState(pending=Pending(1, 0, 0))))),
        DAILY_GAME_KEY: json.dumps(
            encode_save(Session(daily_match("2026-11-29"), SessionState(mode=Mode.DAILY, date="2026-11-29")))
        ),
        CHALLENGE_GAME_KEY: json.dumps(
            encode_save(
                Session(
                    challenge_match(CHALLENGE),
                    SessionState(mode=Mode.CHALLENGE, difficulty="hard", challenge=encode(CHALLENGE)),
                )
            )
        ),
        DAILY_KEY: json.dumps(
            {
                "results": {
                    "2026-11-29": {"date": "2026-11-29", "points": 3, "par": 5, "markers": ["none"] * 13, "moon": False}
                },
                "attempts": {"2026-11-29": "started"},
                "par_ms": {"2026-11-29": 900},
            }
        ),
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
        assert {text for text, _ in notice.told} <= set(BY_KEY[key].texts)  # what it may say, declared
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
    statistics_html(STATS.peek(Store(storage)) or Statistics(), {}, "2026-12-03", "2026-12")


def test_the_online_tables_keys_are_objects_or_set_aside() -> None:
    ONLINE_GUEST_KEY, ONLINE_HOST_KEY, ONLINE_MATCH_KEY = (
        saved_data.ONLINE_GUEST.key,
        saved_data.ONLINE_HOST.key,
        saved_data.ONLINE_MATCH.key,
    )

    storage = MemoryStorage({ONLINE_HOST_KEY: "[" * 10_000, ONLINE_GUEST_KEY: "[1]", SETTINGS_KEY: "{}"})
    _, notices = check_start(Store(storage))
    assert sorted((n.key, n.kind) for n in notices) == [(ONLINE_GUEST_KEY, "replaced"), (ONLINE_HOST_KEY, "replaced")]
    assert ONLINE_HOST_KEY not in storage.data and ONLINE_GUEST_KEY not in storage.data
    data = encode_save(Session(played("online", 20), SessionState(mode=Mode.ONLINE, difficulty="easy")))
    data["session"]["difficulty"] = "godlike"
    session, [notice] = load_session(
        Store(MemoryStorage({ONLINE_MATCH_KEY: json.dumps(data)})), ONLINE_MATCH_KEY, "hard"
    )
    assert session is not None and session.state.mode is Mode.ONLINE and session.state.difficulty == "hard"
    i18n.set_lang("en")
    assert notice.kind == "repaired" and "online table" in notice.text()


# ------------------------------------------------------------------ the registry itself
import ast  # noqa: E402
import re  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KEY_TEXT = re.compile(r"hearts\.(?:backup\.|[a-z-]+\.v\d+)")  # a storage key (or the backups' prefix)


def key_literals(folder: Path) -> dict[str, list[str]]:
    """module -> the storage keys its string constants (docstrings, f-string parts) spell out."""
    found: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if KEY_TEXT.search(node.value) or node.value == saved_data.PREFIX:
                    found.setdefault(path.relative_to(folder).as_posix(), []).append(node.value[:60])
    return found


def test_the_storage_keys_are_named_in_one_module_only() -> None:
    """No module but the registry spells a key: every other reaches a key through its kind. (The
    Web Lock and BroadcastChannel of the tabs, ``hearts.game``, are no storage keys.)"""
    assert list(key_literals(ROOT / "web" / "hearts_web")) == ["data/registry.py"]
    assert all(KEY_TEXT.fullmatch(kind.key) for kind in saved_data.KINDS)  # so the check sees every key


def test_the_key_check_sees_a_key_spelled_elsewhere(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text('X = "hearts.match.v1"\nY = f"{1}hearts.backup.{2}"\n"""hearts.game is a lock"""\n')
    assert key_literals(tmp_path) == {"a.py": ["hearts.match.v1", "hearts.backup."]}


def test_the_pages_scripts_use_only_declared_keys() -> None:
    """boot.js and boot-guard.js read the settings before Python runs: the key they spell is the registry's."""
    for path in [ROOT / "index.html", *sorted((ROOT / "web").glob("*.js"))]:
        for key in re.findall(r"hearts\.[a-z-]+\.v\d+", path.read_text(encoding="utf-8")):
            assert key in BY_KEY, f"{path.name}: {key} is not declared in saved_data"


def test_every_kind_is_declared_once_and_every_saved_mode_has_its_key() -> None:
    keys = [kind.key for kind in saved_data.KINDS]
    assert len(set(keys)) == len(keys) and all(k.startswith(saved_data.PREFIX) for k in keys)
    assert not any(k.startswith(saved_data.BACKUP_PREFIX) for k in keys)
    assert set(saved_data.GAMES) == set(Mode) - {Mode.GUIDED}  # the guided hand is never saved
    assert all(kind.mode is mode for mode, kind in saved_data.GAMES.items())
    assert [k.key for k in saved_data.KINDS if k.at_start] == [
        SETTINGS_KEY,
        DAILY_KEY,
        STATS_KEY,
        saved_data.ONLINE_HOST.key,
        saved_data.ONLINE_GUEST.key,
    ]
    assert not any(
        kind.importable for kind in (saved_data.ONLINE_MATCH, saved_data.ONLINE_HOST, saved_data.ONLINE_GUEST)
    )


def test_every_text_a_kind_may_show_exists_in_both_languages() -> None:
    for kind in saved_data.KINDS:
        for key in kind.texts:
            assert key in i18n.EN and key in i18n.DE, f"{kind.key}: {key}"


@pytest.mark.parametrize(
    "value, kind, said",
    [
        ({"room": "r", "hide_ip": "yes", "key": "k", "extra": 1}, "repaired", {"room": "r", "key": "k"}),
        ({"room": "r", "net": "", "hide_ip": True, "key": "k", "link_key": None, "table": {}}, None, None),
        ({"net": ""}, "replaced", None),
        ([1], "replaced", None),
    ],
)
def test_the_online_host_key_keeps_its_fields_of_the_right_type(value: object, kind: str | None, said: object) -> None:
    raw = json.dumps(value)
    storage = MemoryStorage({saved_data.ONLINE_HOST.key: raw})
    kept, notice = saved_data.ONLINE_HOST.check(Store(storage))
    assert (notice.kind if notice else None) == kind
    if kind == "repaired":
        assert kept == said and notice is not None and storage.data[notice.backup or ""] == raw
        assert json.loads(storage.data[saved_data.ONLINE_HOST.key]) == said


def test_repairs_made_where_a_value_is_used_keep_the_original_and_say_so() -> None:
    """The online table's own entries are checked when it resumes (online.host_save): what it
    leaves out is reported through the same notice, with a backup of the original."""
    from hearts_web.online.host import HostTable
    from hearts_web.online.host_save import restore_table

    raw = json.dumps(
        {
            "room": "r",
            "table": {
                "seats": [{}, {"kind": "ghost"}, {"kind": "bot"}, {"kind": "remote", "token": 5}],
                "timer": 45,
                "fair": {"1": {"commit": "c"}},
            },
        }
    )
    storage = MemoryStorage({saved_data.ONLINE_HOST.key: raw})
    told: list[Notice] = []
    saved = SavedData(Store(storage), told.extend, lambda: "easy")
    kept = saved.load(saved_data.ONLINE_HOST)
    assert kept is not None and not told
    table = HostTable(
        lambda peer, text: None,
        host_name="Ada",
        bot_names=["A", "B", "C"],
        stand_in=lambda seat: None,  # type: ignore[arg-type, return-value]
        preset="standard",
        level="easy",
    )
    repairs = restore_table(table, kept["table"])  # type: ignore[arg-type]
    assert repairs.made == {"seat": 2, "timer": 1, "fair": 1}
    saved.repaired(saved_data.ONLINE_HOST, repairs)
    [notice] = told
    assert notice.kind == "repaired" and storage.data[notice.backup or ""] == raw
    saved.repaired(saved_data.ONLINE_HOST, restore_table(table, {}))  # nothing left out: nothing said
    assert len(told) == 1
