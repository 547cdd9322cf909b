"""The table's session as the features see it: one door they all share, and each feature's own
door adds the few other operations of the table loop it uses (:class:`~.loop.TableLoop`)."""

from __future__ import annotations

from typing import Protocol

from ..data.session import Session

__all__ = ["SessionDoor"]


class SessionDoor(Protocol):
    """The session on the table (``None`` while there is none: a guest's screen, the start)."""

    @property
    def session(self) -> Session | None: ...
