"""hearts_web.transfer.backup_file: everything stored, as one file; an import checks it first, says what it
replaces, and changes all or nothing."""

from __future__ import annotations

import json

import pytest
from hearts_web.core import i18n
from hearts_web.data.registry import BACKUP_PREFIX, DAILY, MATCH, ONLINE_HOST, SETTINGS, STATS
from hearts_web.data.store import MemoryStorage, Store
from hearts_web.transfer.backup_file import (
    FORMAT,
    ImportError_,
    apply_import,
    export_data,
    export_text,
    file_name,
    plan_import,
    read_file,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from test_saved_data import REAL

DAILY_KEY, MATCH_KEY, SETTINGS_KEY, STATS_KEY, ONLINE_HOST_KEY = (
    DAILY.key,
    MATCH.key,
    SETTINGS.key,
    STATS.key,
    ONLINE_HOST.key,
)

NOW = "2026-11-29T18:03:11Z"


def test_export_then_clear_then_import_restores_everything() -> None:
    original = {**REAL, "hearts.backup.hearts.match.v1.1": "{corrupt", "other.app": "not ours"}
    store = Store(MemoryStorage(original))
    store.unkept["hearts.backup.hearts.stats.v1.2"] = "held in memory only"
    text = export_text(store, NOW)
    assert file_name(NOW) == "hearts-backup-2026-11-29.json"
    data = read_file(text)
    assert "other.app" not in data and data["hearts.backup.hearts.stats.v1.2"] == "held in memory only"
    empty = Store(MemoryStorage())
    plan = plan_import(empty, data, "1")
    assert set(plan.replace) == set(REAL) and plan.set_aside == [] and plan.backups == 2
    assert apply_import(empty, plan)
    assert export_data(empty) == data  # byte for byte
    assert plan_import(empty, data, "2").empty  # importing it again changes nothing


def test_the_plan_says_what_is_replaced_and_keeps_what_the_file_lacks() -> None:
    i18n.set_lang("en")
    here = Store(MemoryStorage({MATCH_KEY: REAL[MATCH_KEY], STATS_KEY: json.dumps({"played": 9})}))
    data = {STATS_KEY: REAL[STATS_KEY], DAILY_KEY: "[" * 50, SETTINGS_KEY: REAL[SETTINGS_KEY]}
    plan = plan_import(here, data, "7")
    assert set(plan.replace) == {STATS_KEY, SETTINGS_KEY}
    assert plan.replace[STATS_KEY] == ("9 matches played", "3 matches played")
    assert plan.replace[SETTINGS_KEY][0] == "nothing stored"
    assert plan.set_aside == [DAILY_KEY] and plan.writes[f"{BACKUP_PREFIX}{DAILY_KEY}.import-7"] == "[" * 50
    assert apply_import(here, plan)
    assert here.get_raw(MATCH_KEY) == REAL[MATCH_KEY]  # not in the file: untouched
    assert here.get_raw(DAILY_KEY) is None  # unreadable in the file: replaces nothing


def test_an_import_that_does_not_fit_changes_nothing() -> None:
    storage = MemoryStorage({STATS_KEY: json.dumps({"played": 9})}, quota=900)
    before = dict(storage.data)
    store = Store(storage)
    plan = plan_import(store, {STATS_KEY: REAL[STATS_KEY], MATCH_KEY: REAL[MATCH_KEY]}, "1")
    assert not apply_import(store, plan)
    assert storage.data == before


@pytest.mark.parametrize(
    "text, code",
    [
        ("not json", "json"),
        ("[" * 5000, "json"),
        ('{"format": "hearts-export", "version": 1, "data": {"a": ' + "[" * 10 + "]" * 10 + "}}", "json"),
        ("[]", "format"),
        ('{"format": "other", "version": 1, "data": {}}', "format"),
        ('{"format": "hearts-export", "version": "1", "data": {}}', "format"),
        ('{"format": "hearts-export", "version": 2, "data": {}}', "version"),
        ('{"format": "hearts-export", "version": 1, "data": {"evil.key": "x"}}', "format"),
        ('{"format": "hearts-export", "version": 1, "data": {"hearts.match.v1": {"v": 2}}}', "format"),
        (" " * 12_000_001, "size"),
    ],
)
def test_files_that_are_not_exports_are_refused_with_a_reason(text: str, code: str) -> None:
    with pytest.raises(ImportError_) as info:
        read_file(text)
    assert info.value.code == code
    for lang in ("en", "de"):
        i18n.set_lang(lang)
        assert "import_bad" not in info.value.text()


def test_damaged_text_in_a_value_survives_the_round_trip() -> None:
    """A value with a lone surrogate (the browser's storage keeps any JavaScript string) is set aside
    as a backup; its export was once refused as "not readable JSON" on import. It is written as an
    escape (valid UTF-8, as JSON.stringify writes it) and imported verbatim."""
    damaged = '{"lang": "\ud800"}'
    store = Store(MemoryStorage({f"{BACKUP_PREFIX}{SETTINGS_KEY}.1": damaged, SETTINGS_KEY: damaged}))
    text = export_text(store, NOW)
    text.encode("utf-8")  # no lone surrogate left in the file itself
    assert "\\ud800" in text
    data = read_file(text)
    assert data[SETTINGS_KEY] == damaged
    fresh = Store(MemoryStorage())
    plan = plan_import(fresh, data, "1")
    assert plan.set_aside == [SETTINGS_KEY] and apply_import(fresh, plan)
    assert fresh.get_raw(f"{BACKUP_PREFIX}{SETTINGS_KEY}.1") == damaged
    assert fresh.get_raw(f"{BACKUP_PREFIX}{SETTINGS_KEY}.import-1") == damaged and fresh.get_raw(SETTINGS_KEY) is None


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(max_size=80)
    | st.builds(
        lambda d: json.dumps({"format": FORMAT, "version": 1, "data": d}),
        st.dictionaries(
            st.sampled_from(list(REAL) + ["hearts.backup.x", "x"]),
            st.text(max_size=30) | st.sampled_from(list(REAL.values())),
        ),
    )
)
def test_any_file_is_imported_or_refused_never_a_crash(text: str) -> None:
    store = Store(MemoryStorage(dict(REAL)))
    try:
        data = read_file(text)
    except ImportError_:
        return
    plan = plan_import(store, data, "1")
    assert apply_import(store, plan)
    for key in REAL:  # whatever was imported loads
        raw = store.get_raw(key)
        assert raw is not None


def test_no_import_into_a_read_only_store() -> None:
    store = Store(MemoryStorage())
    plan = plan_import(store, {STATS_KEY: REAL[STATS_KEY]}, "1")
    store.readonly = True
    assert not apply_import(store, plan) and store.get_raw(STATS_KEY) is None


def test_the_online_tables_keys_are_exported_but_not_imported_and_the_preview_says_so() -> None:
    from hearts_web.transfer.html import import_preview_html

    store = Store(MemoryStorage({ONLINE_HOST_KEY: '{"room": "r"}', STATS_KEY: REAL[STATS_KEY]}))
    data = read_file(export_text(store, NOW))
    assert data[ONLINE_HOST_KEY] == '{"room": "r"}'
    plan = plan_import(Store(MemoryStorage()), data, "1")
    assert plan.skipped == [ONLINE_HOST_KEY] and ONLINE_HOST_KEY not in plan.writes
    i18n.set_lang("en")
    html = import_preview_html(plan)
    assert 'data-import-skipped="1"' in html and "Statistics" in html
    assert "Not imported" in import_preview_html(plan_import(Store(MemoryStorage()), {ONLINE_HOST_KEY: "{}"}, "2"))


# ------------------------------------------------------------------ the round trip, byte for byte
from hearts_web.data.registry import KINDS, ONLINE_GUEST, ONLINE_MATCH  # noqa: E402
from hearts_web.data.settings import Settings  # noqa: E402

from hearts import PRESETS  # noqa: E402

damaged_text = st.text(max_size=20) | st.sampled_from(["\ud800", "a\udfffb", '{"v": 2', "[" * 40, 'ä♥ \\" \n', "null"])
settings_text = st.builds(
    lambda lang, level, rules: json.dumps(Settings(lang=lang, difficulty=level, rules=rules).to_dict()),
    st.sampled_from(["", "de", "en"]),
    st.sampled_from(["easy", "medium", "hard"]),
    st.sampled_from(list(PRESETS.values())),
)
backups = st.dictionaries(
    st.builds(lambda kind, n: f"{BACKUP_PREFIX}{kind.key}.{n}", st.sampled_from(KINDS), st.integers(1, 10**13)),
    damaged_text,
    max_size=4,
)


@st.composite
def stores(draw: st.DrawFn, valid_only: bool) -> Store:
    """What a player's storage can hold: each importable key absent, real or (unless ``valid_only``)
    damaged; backups of anything; the online table's keys (unless ``valid_only``: they stay in the
    browser that opened them); another site's key; backups only held in memory."""
    data: dict[str, str] = {"other.app": "not ours"}
    for kind in KINDS:
        if kind.importable:
            choices = [st.none(), st.just(REAL[kind.key])] + ([settings_text] if kind is SETTINGS else [])
            value = draw(st.one_of(*choices, *([] if valid_only else [damaged_text])))
        else:
            value = None if valid_only else draw(st.none() | damaged_text)
        if value is not None:
            data[kind.key] = value
    data.update(draw(backups))
    store = Store(MemoryStorage(data))
    store.unkept.update({f"{key}-held": raw for key, raw in draw(backups).items()})
    return store


def _import(text: str, into: Store, stamp: str = "1") -> Store:
    plan = plan_import(into, read_file(text), stamp)
    assert apply_import(into, plan)
    return into


@settings(max_examples=150, deadline=None)
@given(store=stores(valid_only=False))
def test_export_import_into_the_same_browser_then_export_gives_the_same_bytes(store: Store) -> None:
    first = export_text(store, NOW)
    first.encode("utf-8")  # a file any browser writes as it is
    assert export_text(_import(first, store), NOW) == first


@settings(max_examples=150, deadline=None)
@given(store=stores(valid_only=True))
def test_export_import_elsewhere_then_export_gives_the_same_bytes(store: Store) -> None:
    first = export_text(store, NOW)
    assert export_text(_import(first, Store(MemoryStorage())), NOW) == first


@settings(max_examples=150, deadline=None)
@given(store=stores(valid_only=False))
def test_any_export_is_kept_whole_elsewhere_and_a_second_round_changes_nothing(store: Store) -> None:
    """Damaged values arrive as backups, the online table's keys are left out (and said so); from
    then on the file is a fixed point."""
    first = export_text(store, NOW)
    data = read_file(first)
    plan = plan_import(Store(MemoryStorage()), data, "1")
    second = export_text(_import(first, Store(MemoryStorage())), NOW)
    arrived = read_file(second)
    online = {ONLINE_HOST.key, ONLINE_GUEST.key, ONLINE_MATCH.key}
    assert sorted(plan.skipped) == sorted(key for key in data if key in online)
    for key, raw in data.items():
        if key not in online:
            assert arrived.get(key) == raw or arrived.get(f"{BACKUP_PREFIX}{key}.import-1") == raw, key
    assert export_text(_import(second, Store(MemoryStorage()), "2"), NOW) == second
