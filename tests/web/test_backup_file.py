"""hearts_web.backup_file: everything stored, as one file; an import checks it first, says what it
replaces, and changes all or nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts_web import i18n
from hearts_web.backup_file import (FORMAT, ImportError_, apply_import, export_data, export_text, file_name,
                                    plan_import, read_file)
from hearts_web.store import BACKUP_PREFIX, DAILY_KEY, MATCH_KEY, SETTINGS_KEY, STATS_KEY, MemoryStorage, Store
from test_store_checks import REAL

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


@pytest.mark.parametrize("text, code", [
    ("not json", "json"),
    ("[" * 5000, "json"),
    ('{"format": "hearts-export", "version": 1, "data": {"a": ' + "[" * 10 + "]" * 10 + "}}", "json"),
    ("[]", "format"),
    ('{"format": "other", "version": 1, "data": {}}', "format"),
    ('{"format": "hearts-export", "version": "1", "data": {}}', "format"),
    ('{"format": "hearts-export", "version": 2, "data": {}}', "version"),
    ('{"format": "hearts-export", "version": 1, "data": {"evil.key": "x"}}', "format"),
    ('{"format": "hearts-export", "version": 1, "data": {"hearts.match.v1": {"v": 2}}}', "format"),
    ('{"format": "hearts-export", "version": 1, "data": {"hearts.x": "\\ud800"}}', "json"),
    (" " * 12_000_001, "size"),
])
def test_files_that_are_not_exports_are_refused_with_a_reason(text: str, code: str) -> None:
    with pytest.raises(ImportError_) as info:
        read_file(text)
    assert info.value.code == code
    for lang in ("en", "de"):
        i18n.set_lang(lang)
        assert "import_bad" not in info.value.text()


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=80) | st.builds(lambda d: json.dumps({"format": FORMAT, "version": 1, "data": d}),
                                              st.dictionaries(st.sampled_from(list(REAL) + ["hearts.backup.x", "x"]),
                                                              st.text(max_size=30) | st.sampled_from(list(REAL.values())))))
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
    from hearts_web.data_html import import_preview_html
    from hearts_web.store import ONLINE_HOST_KEY

    store = Store(MemoryStorage({ONLINE_HOST_KEY: '{"room": "r"}', STATS_KEY: REAL[STATS_KEY]}))
    data = read_file(export_text(store, NOW))
    assert data[ONLINE_HOST_KEY] == '{"room": "r"}'
    plan = plan_import(Store(MemoryStorage()), data, "1")
    assert plan.skipped == [ONLINE_HOST_KEY] and ONLINE_HOST_KEY not in plan.writes
    i18n.set_lang("en")
    html = import_preview_html(plan)
    assert 'data-import-skipped="1"' in html and "Statistics" in html
    assert "Not imported" in import_preview_html(plan_import(Store(MemoryStorage()), {ONLINE_HOST_KEY: "{}"}, "2"))
