"""Export and import of everything the game stores, as one JSON file.

The file keeps every stored value verbatim, as the text it is stored as (so unreadable data and
backups survive a round trip, and ``web/boot-guard.js`` can write the same file without Python)::

    {"format": "hearts-export", "version": 1, "exported": "2026-11-29T18:03:11Z",
     "data": {"hearts.settings.v1": "{...}", "hearts.match.v1": "{...}", "hearts.backup....": "..."}}

Importing checks the file before anything changes: its size and nesting before parsing, then the
envelope, then each value with the same checks the game uses when it loads (:mod:`store_checks`, run on
a scratch copy). :func:`plan_import` says what will be replaced; :func:`apply_import` does it, all
or nothing. A key the file does not have stays as it is; a value that cannot be read is kept as a
backup and replaces nothing. Pure: no DOM.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from . import store_checks
from .daily_data import DailyData
from .i18n import t
from .session import decode_save
from .stats import Statistics
from .store import (BACKUP_PREFIX, CHALLENGE_GAME_KEY, DAILY_GAME_KEY, DAILY_KEY, GAME_KEYS, MATCH_KEY, SETTINGS_KEY, STATS_KEY,
                    MemoryStorage, Store, Unreadable, parse_json)

__all__ = ["FORMAT", "VERSION", "MAX_FILE_CHARS", "ImportError_", "ImportPlan", "export_data", "export_text",
           "file_name", "read_file", "plan_import", "apply_import", "describe"]

FORMAT = "hearts-export"
VERSION = 1
MAX_FILE_CHARS = 12_000_000
PREFIX = "hearts."


class ImportError_(ValueError):
    """A file that cannot be imported; ``code`` names the reason (``import_bad_<code>`` is its text)."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code = code

    def text(self) -> str:
        return t("import_bad", reason=t(f"import_bad_{self.code}"))


def export_data(store: Store) -> dict[str, str]:
    """Every value the game stores (``hearts.*``), plus the backups that only exist in memory."""
    data = {key: raw for key in store.keys() if key.startswith(PREFIX) and (raw := store.get_raw(key)) is not None}
    data.update(store.unkept)
    return dict(sorted(data.items()))


def export_text(store: Store, exported: str) -> str:
    """The export file's text; ``exported`` is the time (ISO 8601, UTC)."""
    return json.dumps({"format": FORMAT, "version": VERSION, "exported": exported, "data": export_data(store)},
                      indent=1, ensure_ascii=False)


def file_name(exported: str) -> str:
    return f"hearts-backup-{exported[:10]}.json"


def read_file(text: str) -> dict[str, str]:
    """The stored values in an export file; :class:`ImportError_` when it is not one."""
    if len(text) > MAX_FILE_CHARS:
        raise ImportError_("size")
    try:
        envelope = parse_json(text, MAX_FILE_CHARS, max_depth=4)
    except Unreadable as exc:
        raise ImportError_("json", str(exc)) from None
    if not isinstance(envelope, dict) or envelope.get("format") != FORMAT or not isinstance(envelope.get("data"), dict):
        raise ImportError_("format")
    version = envelope.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ImportError_("format")
    if version > VERSION:
        raise ImportError_("version")
    data: dict[str, str] = envelope["data"]
    if not all(isinstance(k, str) and k.startswith(PREFIX) and isinstance(v, str) for k, v in data.items()):
        raise ImportError_("format", "data must map hearts.* keys to text")
    return data


@dataclass
class ImportPlan:
    """What an import will do. ``replace``: game key -> (what is stored now, what comes);
    ``set_aside``: game keys whose value in the file cannot be read (kept as a backup only);
    ``backups``: backup entries of the file. ``writes`` are the storage changes."""

    replace: dict[str, tuple[str, str]] = field(default_factory=dict)
    set_aside: list[str] = field(default_factory=list)
    backups: int = 0
    skipped: list[str] = field(default_factory=list)  # other keys of the file (online tables): not imported
    writes: dict[str, str] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.writes


def _check(key: str, raw: str) -> bool:
    """Whether ``raw`` loads under ``key`` (fine or repairable), checked on a scratch storage."""
    scratch = Store(MemoryStorage({key: raw}))
    if key == SETTINGS_KEY:
        _, notices = store_checks.check_settings(scratch)
    elif key == STATS_KEY:
        notices = store_checks.check_stats(scratch)
    elif key == DAILY_KEY:
        notices = store_checks.check_daily(scratch)
    else:
        session, notices = store_checks.load_session(scratch, key, "medium")
        return session is not None
    return all(n.repaired for n in notices)


def describe(key: str, raw: str | None) -> str:
    """A short description of a stored value for the import preview ("hand 3, 12 points for you")."""
    if raw is None:
        return t("imp_none")
    try:
        value = parse_json(raw)
        if key in (MATCH_KEY, DAILY_GAME_KEY, CHALLENGE_GAME_KEY):
            session = decode_save(value, [], mode=store_checks.MODE_OF_KEY[key])
            if key == DAILY_GAME_KEY:
                return t("imp_daily_game_desc", date=session.state.date)
            m = session.match
            if m.is_over:
                return t("imp_match_over")
            return t("imp_match_desc", hand=len(m.hands), trick=min(m.hand.trick_number + 1, 13), pts=m.scores[0])
        if key in (DAILY_KEY, STATS_KEY):
            if not isinstance(value, dict):
                raise TypeError("not an object")
            if key == DAILY_KEY:
                return t("imp_daily_desc", days=len(DailyData.from_dict(value).results))
            stats = Statistics.read(value)[0]
            return t("imp_stats_desc", n=stats.overall.matches + stats.online.matches)
        if key == SETTINGS_KEY:
            return t("imp_settings_desc")
    except (ValueError, TypeError, AttributeError):  # Unreadable, CorruptSave: not describable
        pass
    return t("imp_invalid")


def plan_import(store: Store, data: dict[str, str], stamp: str) -> ImportPlan:
    """What importing ``data`` into ``store`` will change. ``stamp`` makes backup keys unique."""
    plan = ImportPlan()
    for key in GAME_KEYS:
        if key not in data:
            continue
        raw = data[key]
        if _check(key, raw):
            if store.get_raw(key) != raw:
                plan.replace[key] = (describe(key, store.get_raw(key)), describe(key, raw))
                plan.writes[key] = raw
        else:
            plan.set_aside.append(key)
            plan.writes[f"{BACKUP_PREFIX}{key}.import-{stamp}"] = raw
    for key, raw in data.items():
        if key.startswith(BACKUP_PREFIX):
            if store.get_raw(key) is None:
                plan.backups += 1
                plan.writes[key] = raw
        elif key not in GAME_KEYS:
            plan.skipped.append(key)
    return plan


def apply_import(store: Store, plan: ImportPlan) -> bool:
    """Write the plan: all of it, or (storage full) nothing at all. True when written."""
    if store.storage is None or store.readonly:
        return False
    before = {key: store.get_raw(key) for key in plan.writes}
    done: list[str] = []
    for key, raw in plan.writes.items():
        try:
            store.storage.set(key, raw)
        except OSError:
            for undo in reversed(done):  # newest first: each old value fits where it was before
                old = before[undo]
                if old is None:
                    store.storage.remove(undo)
                else:
                    store.storage.set(undo, old)
            return False
        done.append(key)
        store.unsaved.pop(key, None)
    return True
