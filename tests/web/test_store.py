"""hearts_web.data.store: JSON in a key-value storage; unreadable data is kept aside, never deleted."""

from __future__ import annotations

import pytest
from hearts_web.core.page_storage import LocalStorage
from hearts_web.data.store import MemoryStorage, Store, Unreadable


def test_values_round_trip_and_absent_keys_are_none() -> None:
    store = Store(MemoryStorage())
    assert store.get_json("k") is None
    assert store.set_json("k", {"a": [1, 2]}) and store.get_json("k") == {"a": [1, 2]}


def test_unreadable_data_can_be_moved_to_a_backup_key() -> None:
    storage = MemoryStorage({"k": "{not json"})
    store = Store(storage)
    with pytest.raises(Unreadable):
        store.get_json("k")
    assert store.backup("k", "k.backup") == "k.backup"
    assert storage.data == {"k.backup": "{not json"}


def test_a_full_storage_is_reported_and_keeps_the_original() -> None:
    storage = MemoryStorage({"k": "{bad"}, quota=12)
    store = Store(storage)
    assert not store.set_json("other", {"x": "a long value"})
    assert (
        store.backup("k", "k.backup") is None and storage.get("k") == "{bad"
    )  # nothing could be kept: nothing removed


def test_no_storage_at_all_plays_on_without_saving() -> None:
    store = Store(None)
    assert store.get_json("k") is None and not store.set_json("k", 1) and not store.set_many({"k": "1"})


def test_many_writes_are_all_made_or_none() -> None:
    storage = MemoryStorage({"a": "1"}, quota=12)
    store = Store(storage)
    assert not store.set_many({"a": "2", "b": "a value too long"}) and storage.data == {"a": "1"}
    assert store.set_many({"a": "3", "b": "4"}) and storage.data == {"a": "3", "b": "4"}


# ------------------------------------------------------------------ checked reads
import json  # noqa: E402

from hearts_web.data import store as store_module  # noqa: E402
from hearts_web.data.registry import MATCH, SETTINGS  # noqa: E402
from hearts_web.data.store import MAX_DEPTH, json_depth, parse_json  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

# text that looks like JSON syntax inside strings: brackets, quotes, backslashes
tricky_text = st.text(alphabet='[]{}"\\:,ab \u00e9\U0001f600', max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | tricky_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(tricky_text, inner, max_size=4),
    max_leaves=25,
)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None)
@given(value=json_values, ascii_only=st.booleans(), indent=st.sampled_from([None, 1]))
def test_the_depth_is_measured_without_parsing(value: object, ascii_only: bool, indent: int | None) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    assert json_depth(text) == _depth(value)


def test_deep_nesting_never_reaches_the_parser(monkeypatch: pytest.MonkeyPatch) -> None:
    """JSON nested ~10,000 deep overflowed the browser's stack inside Pyodide's parser and killed
    the interpreter at every start: it must be refused before json.loads sees it."""

    def no_parse(_text: str) -> object:
        raise AssertionError("the parser was reached")

    monkeypatch.setattr(store_module.json, "loads", no_parse)
    for text in (
        "[" * 10_000 + "]" * 10_000,
        '{"a":' * 10_000 + "1" + "}" * 10_000,
        "[" * 10_000,
        '{"v": 2, "record": ' + "[" * 40 + "]" * 40 + "}",
    ):
        with pytest.raises(Unreadable, match="nested deeper"):
            parse_json(text)
    store = Store(MemoryStorage({MATCH.key: "[" * 10_000}))
    with pytest.raises(Unreadable):
        store.get_json(MATCH.key, MATCH.limit)


def test_limits_hold_at_the_edge() -> None:
    assert parse_json("[" * MAX_DEPTH + "]" * MAX_DEPTH) is not None
    with pytest.raises(Unreadable):
        parse_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    long_string = json.dumps("x" * SETTINGS.limit)
    with pytest.raises(Unreadable, match="too long"):
        SETTINGS.decode_text(long_string)


@pytest.mark.parametrize("text", ['"\\ud800"', '{"\\udfff": 1}', '["a\\ud800b"]', "{bad", "", "NaN?", '{"a": 1} x'])
def test_lone_surrogates_and_broken_json_are_unreadable(text: str) -> None:
    with pytest.raises(Unreadable):
        parse_json(text)
    assert parse_json('"\\ud83d\\ude00"') == "\U0001f600"  # a real pair is text


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60) | st.text(alphabet='[]{}"\\:,0123456789.eE-+ntrufals', max_size=200))
def test_any_text_parses_or_is_unreadable(text: str) -> None:
    try:
        parse_json(text)
    except Unreadable:
        pass


# ------------------------------------------------------------------ writes that fail
def test_a_refused_write_is_held_shown_and_caught_up_later() -> None:
    storage = MemoryStorage(quota=70)
    status: list[bool] = []
    store = Store(storage, on_status=status.append)
    assert store.set_json("a", "x" * 10)
    assert not store.set_json("b", "y" * 60)  # does not fit
    assert status == [False] and store.failing
    assert store.get_json("b") == "y" * 60  # the game reads what it wrote
    assert not store.set_json("b", "z" * 61)  # still full: the newest value is held
    assert status == [False, False]
    store.remove("a")  # room again
    assert store.set_json("c", 1)  # the next write that gets through...
    assert storage.get("b") == json.dumps("z" * 61) and not store.failing  # ...catches up
    assert status[-1] is True


def test_a_backup_that_does_not_fit_stays_in_memory_and_the_original_stays() -> None:
    raw = "{broken" + "x" * 30
    storage = MemoryStorage({MATCH.key: raw}, quota=70)
    store = Store(storage)
    assert store.backup(MATCH.key, "b") is None
    assert storage.get(MATCH.key) == raw and list(store.unkept.values()) == [raw]


def test_backup_keys_never_collide() -> None:
    store = Store(MemoryStorage({"k": "1"}))
    first = store.backup("k", store.free_key("k.b"), keep_original=True)
    second = store.backup("k", store.free_key("k.b"), keep_original=True)
    assert first == "k.b" and second == "k.b-2"


def test_a_read_only_store_writes_nothing() -> None:
    storage = MemoryStorage({"k": "{bad"})
    store = Store(storage)
    store.readonly = True
    assert not store.set_json("k", 1) and store.backup("k", "b") is None
    store.remove("k")
    assert storage.data == {"k": "{bad"} and not store.failing


# ------------------------------------------------------------------ a storage that answers late
class Page:
    """The page seen from the game's worker: the worker's :class:`LocalStorage` sends its writes as
    operations, and ``answer()`` applies them to the page's storage (``real``, with a quota) the way
    web/runtime/ops.mjs does, telling the worker of a refusal and of a probe's result."""

    def __init__(self, quota: int) -> None:
        self.real = MemoryStorage(quota=quota)
        self.ops: list[list[object]] = []
        self.told: list[tuple[str | None, object]] = []
        self.storage = LocalStorage(
            {},
            send=self.ops.append,
            told=lambda key, value: self.told.append((key, value)),
            warn=lambda text: None,
            read=self._read,
        )

    async def _read(self) -> dict[str, str] | None:
        return dict(self.real.data)

    def answer(self) -> None:
        ops, self.ops[:] = list(self.ops), []
        for op in ops:
            if op[0] == "probe":
                try:
                    self.real.set("hearts-probe", "x" * max(0, int(str(op[1])) - len("hearts-probe")))
                    fits = True
                except OSError:
                    fits = False
                self.real.remove("hearts-probe")
                self.storage.probed(fits)
                continue
            key, value = str(op[1]), op[2]
            source = op[3] if len(op) > 3 else None
            try:
                if value is None:
                    self.real.remove(key)
                else:
                    self.real.set(key, str(value))
            except OSError as err:
                kept = (str(source), self.real.get(str(source))) if source else None
                self.storage.failed(key, str(err), self.real.get(key), kept)
                continue
            if source:
                self.real.remove(str(source))


def test_a_write_refused_late_is_held_and_written_when_there_is_room() -> None:
    page = Page(quota=40)
    status: list[bool] = []
    store = Store(page.storage, on_status=status.append)
    page.storage.store = store
    assert store.set_raw("a", "x" * 10)
    assert store.set_raw("b", "y" * 40)  # taken at once, refused when the page answers
    page.answer()
    assert store.unsaved == {"b": "y" * 40} and status == [False] and "b" not in page.real.data
    assert store.get_raw("b") == "y" * 40  # what the game reads is what it meant to keep
    assert not store.set_raw("c", "z" * 30)  # while full nothing is sent: a probe asks first
    assert [op[0] for op in page.ops] == ["probe"] and "c" not in page.real.data
    assert not store.set_raw("d", "z" * 5) and len(page.ops) == 1  # one probe at a time
    page.answer()  # the probe does not fit: still full
    assert page.storage.full and True not in status
    page.real.quota = 200
    assert not store.set_raw("e", "w" * 5)  # the next write asks again
    page.answer()  # it fits: the held writes go out
    page.answer()
    assert store.unsaved == {} and status[-1] is True and status.count(True) == 1
    assert page.real.data == {"a": "x" * 10, "b": "y" * 40, "c": "z" * 30, "d": "z" * 5, "e": "w" * 5}


def test_a_backup_refused_late_is_held_in_memory_and_its_original_stays() -> None:
    page = Page(quota=60)
    lost: list[str] = []
    store = Store(page.storage, on_backup_lost=lost.append)
    page.storage.store = store
    store.set_raw("hearts.match.v1", "z" * 30)
    page.answer()
    assert store.backup("hearts.match.v1", "hearts.backup.x") == "hearts.backup.x"  # as far as it knows
    page.answer()
    assert lost == ["hearts.backup.x"] and store.unkept == {"hearts.backup.x": "z" * 30}
    assert page.real.data == {"hearts.match.v1": "z" * 30}  # the original was not removed
    assert store.get_raw("hearts.match.v1") == "z" * 30
