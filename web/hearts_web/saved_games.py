"""The saved games: a session loaded from its key through every check (:mod:`store_checks`), with a
notice when something had to be repaired or set aside, and a session written back after each action.
Pure: no DOM."""

from __future__ import annotations

from collections.abc import Callable

from . import store_checks
from .session import Session, encode_save
from .store import Store
from .store_checks import Notice

__all__ = ["SavedGames"]


class SavedGames:
    """``difficulty()`` is the bots' level a repaired save falls back to; ``notify`` tells the
    player what happened to stored data."""

    def __init__(self, store: Store, difficulty: Callable[[], str], notify: Callable[[list[Notice]], None]) -> None:
        self.store = store
        self.difficulty = difficulty
        self.notify = notify

    def load(self, key: str) -> Session | None:
        """The session saved under ``key``, repaired if need be; data that cannot be used is kept
        under a backup key, and the notice says what happened."""
        session, notices = store_checks.load_session(self.store, key, self.difficulty())
        self.notify(notices)
        return session

    def save(self, session: Session) -> None:
        """Write ``session`` under its key (the guided hand is never saved: it has no key)."""
        if not session.save_key:
            return
        self.store.set_json(session.save_key, encode_save(session))
