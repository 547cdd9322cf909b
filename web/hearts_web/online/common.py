"""What the online table's browser parts share: the page they talk to, the stored keys, HTML helpers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from hearts import Seat
from hearts.table import Listener, Player

from ..dialogs import Dialogs
from ..i18n import t
from ..players import HumanPlayer
from ..table_html import esc
from ..session import Session
from ..settings import Settings
from ..store import ONLINE_GUEST_KEY, ONLINE_HOST_KEY, ONLINE_MATCH_KEY, Store
from ..hand_controls import TableInput
from ..table_view import TableView
from .guest import GuestTable
from .messages import LobbySeat

__all__ = ["OnlinePage", "HOST_KEY", "GUEST_KEY", "MATCH_KEY", "ip_notice", "select", "seats_html"]

HOST_KEY, GUEST_KEY, MATCH_KEY = ONLINE_HOST_KEY, ONLINE_GUEST_KEY, ONLINE_MATCH_KEY


class OnlinePage(Protocol):
    """What the online table needs from the page (the controller)."""

    store: Store
    dialogs: Dialogs
    view: TableView
    params: dict[str, str]
    settings: Settings
    human: HumanPlayer
    table_input: TableInput

    def enter(self, session: Session, players: list[Player] | None = None, extra: Listener | None = None) -> None: ...

    def enter_guest(self, guest: GuestTable) -> None: ...

    def leave_online(self) -> None: ...

    def stand_in(self, seat: Seat, level: str) -> Player: ...

    def explain_code(self, code: str) -> str: ...

    def guard(self, coro: Any) -> None: ...

    def render_badge(self) -> None: ...

    def load_session(self, key: str) -> Session | None: ...


def ip_notice() -> str:
    return (f'<p class="note online-ip">{esc(t("online_ip"))}</p>'
            f'<p class="note">{esc(t("online_host_knows"))}</p>')


def select(name: str, options: list[tuple[str, str]], current: str) -> str:
    opts = "".join(f'<option value="{esc(v)}"{" selected" if v == current else ""}>{esc(label)}</option>' for v, label in options)
    return f'<select name="{name}" id="online-{name}">{opts}</select>'


def seats_html(seats: Sequence[LobbySeat], mine: Seat | None, can_sit: bool) -> str:
    rows = []
    for item in seats:
        seat, kind, name = item.seat, item.kind, item.name
        label = t("you_here") if seat == mine else (t("kind_free") if kind == "free" else name)
        sit = (f'<button type="button" class="secondary" data-action="online-sit" data-seat="{seat.key}">{esc(t("online_sit"))}</button>'
               if can_sit and kind == "free" else "")
        rows.append(f'<li data-lobby-seat="{seat.key}" data-kind="{esc(kind)}"><span class="dir">{esc(t(f"compass_{int(seat)}"))}</span>'
                    f'<span class="sum-name">{esc(label)}</span><span class="kind">{esc(t(f"kind_{kind}"))}</span>{sit}</li>')
    return f'<ul class="lobby-seats">{"".join(rows)}</ul>'
