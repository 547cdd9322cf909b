"""Reading what the game stored: every key checked, repaired where it safely can be, backed up
when it is replaced, and a :class:`Notice` that says exactly what happened.

Each key is read through :meth:`Store.get_json` (size and depth limits before parsing), then
through its schema (:class:`Settings`, :class:`Statistics`, :class:`DailyData`, the session's
:func:`decode_save`). Two outcomes besides "fine":

* **repaired**: the value could be read but some fields were bad; they take safe values, the rest
  is kept, the original is copied to a backup key and the repaired value is written;
* **replaced**: nothing usable (not JSON, too long, too deep, a refused match record); the
  original is moved to a backup key and the game starts that part afresh.

When the storage cannot take the backup (full), the notice says so: the copy is then only in
memory (:attr:`Store.unkept`) and the player is offered an export. Pure: no DOM.
"""

from __future__ import annotations

from dataclasses import dataclass

from .daily_data import DailyData
from .i18n import t
from .session import CorruptSave, Mode, Session, decode_save, encode_save
from .settings import Settings
from .stats import Repairs, Statistics
from .store import (CHALLENGE_GAME_KEY, DAILY_GAME_KEY, DAILY_KEY, MATCH_KEY, ONLINE_GUEST_KEY, ONLINE_HOST_KEY, ONLINE_MATCH_KEY, SETTINGS_KEY,
                    STATS_KEY, Store, Unreadable)

__all__ = ["Notice", "WHAT", "MODE_OF_KEY", "check_settings", "check_stats", "check_daily", "check_online", "check_start",
           "load_session"]

# what each key holds, as the stem of its notice texts
WHAT = {SETTINGS_KEY: "settings", MATCH_KEY: "match", DAILY_GAME_KEY: "daily_game", CHALLENGE_GAME_KEY: "challenge_game",
        DAILY_KEY: "daily",
        STATS_KEY: "stats", ONLINE_MATCH_KEY: "online_match", ONLINE_HOST_KEY: "online", ONLINE_GUEST_KEY: "online"}
MODE_OF_KEY = {MATCH_KEY: Mode.MATCH, DAILY_GAME_KEY: Mode.DAILY, CHALLENGE_GAME_KEY: Mode.CHALLENGE,
               ONLINE_MATCH_KEY: Mode.ONLINE}


@dataclass(frozen=True)
class Notice:
    """What happened to one stored key. ``backup`` is where the original is kept (``None``: the
    storage could not take the copy). ``reason`` is for the console, not for the player."""

    key: str
    repaired: bool
    backup: str | None
    reason: str = ""
    practice: bool = False  # a repair made the match practice (its result will not be counted)
    details: tuple[tuple[str, int], ...] = ()  # what exactly was repaired: (text key, number) each


    @property
    def kind(self) -> str:
        return "repaired" if self.repaired else "replaced"

    def text(self, with_backup: bool = True) -> str:
        """What happened, for the player; ``with_backup``: and where the original is."""
        what = WHAT.get(self.key, "data")
        parts = [t(f"n_{what}_{self.kind}")] + [t(key, n=n) for key, n in self.details]
        if self.practice:
            parts.append(t("n_now_practice"))
        if with_backup:
            parts.append(t("n_backup_kept") if self.backup is not None else t("n_backup_failed"))
        return " ".join(parts)


def _set_aside(store: Store, key: str, reason: str) -> Notice:
    return Notice(key, repaired=False, backup=store.backup(key), reason=reason)


def _repaired(store: Store, key: str, value: object, reason: str, practice: bool = False,
              details: tuple[tuple[str, int], ...] = ()) -> Notice:
    backup = store.backup(key, keep_original=True)
    store.set_json(key, value)
    return Notice(key, repaired=True, backup=backup, reason=reason, practice=practice, details=details)


def _read_object(store: Store, key: str) -> tuple[dict[str, object] | None, Notice | None]:
    """The stored object (``None`` when absent), or the notice of setting it aside."""
    try:
        value = store.get_json(key)
    except Unreadable as exc:
        return None, _set_aside(store, key, str(exc))
    if value is not None and not isinstance(value, dict):
        return None, _set_aside(store, key, f"{key}: not an object")
    return value, None


def check_settings(store: Store) -> tuple[Settings, list[Notice]]:
    data, notice = _read_object(store, SETTINGS_KEY)
    if notice is not None:
        return Settings(), [notice]
    settings, dropped = Settings.from_dict(data or {})
    if dropped:
        return settings, [_repaired(store, SETTINGS_KEY, settings.to_dict(), "settings: values dropped")]
    return settings, []


def check_stats(store: Store) -> list[Notice]:
    """The statistics: version 1's counters are read as they are (written anew with the next
    recorded match); another version is set aside; bad parts are repaired and the notice says which."""
    data, notice = _read_object(store, STATS_KEY)
    if notice is not None or data is None:
        return [notice] if notice is not None else []
    try:
        stats, repairs = Statistics.read(data)
    except ValueError as exc:
        return [_set_aside(store, STATS_KEY, f"statistics: {exc}")]
    if not repairs.any:
        return []
    return [_repaired(store, STATS_KEY, stats.to_dict(), f"statistics: {repairs}", details=_stats_details(repairs))]


def _stats_details(repairs: Repairs) -> tuple[tuple[str, int], ...]:
    out = []
    if repairs.history_unreadable:
        out.append(("n_stats_history_unreadable", 1))
    if repairs.history_dropped:
        out.append(("n_stats_history", repairs.history_dropped))
    if repairs.totals_fixed:
        out.append(("n_stats_totals_fixed", repairs.totals_fixed))
    if repairs.history_disagrees:
        out.append(("n_stats_history_disagrees", repairs.history_disagrees))
    if repairs.unknown_dropped:
        out.append(("n_stats_unknown_dropped", repairs.unknown_dropped))
    return tuple(out)


def check_daily(store: Store) -> list[Notice]:
    data, notice = _read_object(store, DAILY_KEY)
    if notice is not None or data is None:
        return [notice] if notice is not None else []
    daily = DailyData.from_dict(data)
    if daily.dropped:
        return [_repaired(store, DAILY_KEY, daily.to_dict(), f"daily: {daily.dropped} entries dropped")]
    return []


def check_online(store: Store) -> list[Notice]:
    """The online table's own keys (its room, the seats joined as a guest): readable JSON objects,
    or set aside (their fields are checked by :mod:`hearts_web.online` where they are used)."""
    notices = []
    for key in (ONLINE_HOST_KEY, ONLINE_GUEST_KEY):
        notice = _read_object(store, key)[1]
        if notice is not None:
            notices.append(notice)
    return notices


def check_start(store: Store) -> tuple[Settings, list[Notice]]:
    """The settings, with the statistics, the daily data and the online keys checked too (so that
    their panels only ever see clean data). The saved games are checked when they are loaded."""
    settings, notices = check_settings(store)
    return settings, notices + check_stats(store) + check_daily(store) + check_online(store)


def load_session(store: Store, key: str, difficulty: str) -> tuple[Session | None, list[Notice]]:
    """The session saved under ``key`` (``None`` if there is none or it had to be set aside).
    Bad session fields are repaired (the bots' level then follows ``difficulty``); a match
    record the engine refuses sets the whole save aside. A bug while loading is raised."""
    try:
        data = store.get_json(key)
    except Unreadable as exc:
        return None, [_set_aside(store, key, str(exc))]
    if data is None:
        return None, []
    repairs: list[str] = []
    try:
        session = decode_save(data, repairs, mode=MODE_OF_KEY[key], difficulty=difficulty)
    except CorruptSave as exc:
        return None, [_set_aside(store, key, f"{key}: {exc}")]
    if not repairs:
        return session, []
    practice = "practice" in repairs and session.state.practice
    return session, [_repaired(store, key, encode_save(session), f"{key}: repaired {', '.join(repairs)}", practice)]
