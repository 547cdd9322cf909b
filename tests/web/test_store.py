"""hearts_web.store: JSON in a key-value storage; unreadable data is kept aside, never deleted."""

from __future__ import annotations

from hearts_web.store import BACKUP_PREFIX, MemoryStorage, Store, Unreadable

import pytest


def test_values_round_trip_and_absent_keys_are_none() -> None:
    store = Store(MemoryStorage())
    assert store.get_json("k") is None
    assert store.set_json("k", {"a": [1, 2]}) and store.get_json("k") == {"a": [1, 2]}


def test_unreadable_data_is_backed_up_under_its_own_key() -> None:
    storage = MemoryStorage({"k": "{not json"})
    store = Store(storage)
    with pytest.raises(Unreadable):
        store.get_json("k")
    assert store.load_dict("k") == ({}, True)
    backups = [k for k in storage.keys() if k.startswith(BACKUP_PREFIX)]
    assert len(backups) == 1 and storage.get(backups[0]) == "{not json" and storage.get("k") is None


def test_a_value_that_is_not_an_object_is_kept_aside_too() -> None:
    storage = MemoryStorage({"k": "[1, 2]"})
    assert Store(storage).load_dict("k") == ({}, True)
    assert "[1, 2]" in storage.data.values() and "k" not in storage.data


def test_a_full_storage_is_reported_and_keeps_the_original() -> None:
    storage = MemoryStorage({"k": "{bad"}, quota=12)
    store = Store(storage)
    assert not store.set_json("other", {"x": "a long value"})
    assert store.backup("k") is None and storage.get("k") == "{bad"  # nothing could be kept: nothing removed


def test_no_storage_at_all_plays_on_without_saving() -> None:
    store = Store(None)
    assert store.get_json("k") is None and not store.set_json("k", 1) and store.load_dict("k") == ({}, False)
