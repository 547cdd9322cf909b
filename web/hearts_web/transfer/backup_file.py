"""Export and import of everything the game stores, as one JSON file.

The file keeps every stored value verbatim, as the text it is stored as (so unreadable data and
backups survive a round trip, and ``web/boot-guard.js`` can write the same file without Python)::

    {"format": "hearts-export", "version": 1, "exported": "2026-11-29T18:03:11Z",
     "data": {"<key>": "<the text stored under it>", ...}}

with every key of the game's (:data:`hearts_web.data.registry.PREFIX`), sorted. Lone surrogates in a
damaged value are written as ``\\udXXX`` escapes (as ``JSON.stringify`` does), so the file is
valid UTF-8 and export, import, export gives the same bytes.

Importing checks the file before anything changes: its size and nesting before parsing, then the
envelope, then each value with the same decoder the game uses when it loads (its kind in
:mod:`hearts_web.data.registry`). :func:`plan_import` says what will be replaced; :func:`apply_import`
does it, all or nothing. A key the file does not have stays as it is; a value that cannot be
read is kept as a backup and replaces nothing; kinds that are never imported (the online table's)
are left out. Pure: no DOM.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..core.i18n import t
from ..data.registry import BACKUP_PREFIX, KINDS, PREFIX
from ..data.store import Store, Unreadable, parse_json

__all__ = [
    "FORMAT",
    "VERSION",
    "MAX_FILE_CHARS",
    "ImportError_",
    "ImportPlan",
    "export_data",
    "export_text",
    "file_name",
    "read_file",
    "plan_import",
    "apply_import",
]

FORMAT = "hearts-export"
VERSION = 1
MAX_FILE_CHARS = 12_000_000
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


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
    text = json.dumps(
        {"format": FORMAT, "version": VERSION, "exported": exported, "data": export_data(store)},
        indent=1,
        ensure_ascii=False,
    )
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)  # only ever inside a JSON string


def file_name(exported: str) -> str:
    return f"hearts-backup-{exported[:10]}.json"


def read_file(text: str) -> dict[str, str]:
    """The stored values in an export file; :class:`ImportError_` when it is not one."""
    if len(text) > MAX_FILE_CHARS:
        raise ImportError_("size")
    try:
        envelope = parse_json(text, MAX_FILE_CHARS, max_depth=4, lone_surrogates=True)  # damaged values, verbatim
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


def plan_import(store: Store, data: dict[str, str], stamp: str) -> ImportPlan:
    """What importing ``data`` into ``store`` will change. ``stamp`` makes backup keys unique."""
    plan = ImportPlan()
    importable = [kind for kind in KINDS if kind.importable]
    for kind in importable:
        raw, now = data.get(kind.key), store.get_raw(kind.key)
        if raw is None or raw == now:
            continue  # not in the file, or already stored as it is
        try:
            kind.decode_text(raw)  # fine or repairable: it replaces what is stored
        except Unreadable:
            plan.set_aside.append(kind.key)
            plan.writes[store.free_key(f"{BACKUP_PREFIX}{kind.key}.import-{stamp}")] = raw
            continue
        plan.replace[kind.key] = (kind.describe_text(now), kind.describe_text(raw))
        plan.writes[kind.key] = raw
    keys = {kind.key for kind in importable}
    for key, raw in data.items():
        if key.startswith(BACKUP_PREFIX):
            if store.get_raw(key) is None:
                plan.backups += 1
                plan.writes[key] = raw
        elif key not in keys:
            plan.skipped.append(key)
    return plan


def apply_import(store: Store, plan: ImportPlan) -> bool:
    """Write the plan: all of it, or (storage full) nothing at all. True when written."""
    return store.set_many(plan.writes)
