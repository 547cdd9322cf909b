"""A guest's dialogs as HTML: the invitation's form, the search for the table, the lobby, and the
offer to carry the table on. Pure: no DOM."""

from __future__ import annotations

from collections.abc import Sequence

from hearts import Seat

from ..core.html import esc
from ..core.i18n import t
from .connection import RelayState, Trouble, status_html, trouble_html
from .messages import LobbySeat
from .panel_html import hide_ip_choice, ip_notice, seats_html, timer_label
from .protocol import NAME_LIMIT

__all__ = ["join_form_html", "searching_html", "guest_lobby_html", "carry_on_html"]


def _name_field(name: str, autocomplete: bool) -> str:
    more = ' autocomplete="nickname"' if autocomplete else ""
    return (
        f'<label for="online-name">{esc(t("online_name"))} <input id="online-name" name="online-name" '
        f'maxlength="{NAME_LIMIT}" value="{esc(name)}"{more}></label>'
    )


def join_form_html(name: str, hide_ip: bool, has_turn: bool) -> str:
    """The invitation: what it is, who sees the player's address, a name, and Join."""
    return (
        f"<p>{esc(t('online_join_intro'))}</p>{ip_notice(hide_ip)}{_name_field(name, True)}"
        f"{hide_ip_choice(has_turn, hide_ip)}"
        '<div class="dlg-actions"><button type="button" class="primary" data-action="online-join" '
        f"autofocus>{esc(t('online_join'))}</button></div>"
    )


def searching_html(relays: RelayState | None, trouble: Trouble, has_turn: bool, slow: bool, hide_ip: bool) -> str:
    """Looking for the table: the relays, what is wrong (if anything), or that the host is silent."""
    body = (
        f'<p class="note" data-online-connecting>{esc(t("online_connecting"))}</p>{status_html(relays)}'
        f"{trouble_html(trouble, has_turn, host=False)}"
    )
    if slow and trouble is Trouble.NONE:
        body += f'<p class="note" data-online-slow>{esc(t("online_searching_host"))}</p>'
    return body + ip_notice(hide_ip)


def guest_lobby_html(seats: Sequence[LobbySeat], me: Seat | None, started: bool, name: str, timer_limit: int) -> str:
    """The table's seats; a free one to pick before the start."""
    can_sit = me is None and not started
    head = t("online_pick_seat") if can_sit else t("online_waiting_start")
    timer = (
        f'<p class="note" data-turn-timer-shown>{esc(t("online_timer_shown", limit=timer_label(timer_limit)))}</p>'
        if timer_limit
        else ""
    )
    return (
        f"<div data-online-lobby><p>{esc(head)}</p>"
        + (_name_field(name, False) if can_sit else "")
        + seats_html(seats, me, can_sit)
        + timer
        + '<div class="dlg-actions"><button type="button" class="secondary" '
        f'data-action="online-leave">{esc(t("online_leave"))}</button></div></div>'
    )


def carry_on_html(host: str) -> str:
    """The host has been gone for a minute: this heir may carry the table on."""
    return (
        f"<div data-online-handover><p>{esc(t('online_handover', name=host))}</p>"
        f'<p class="note">{esc(t("online_handover_note"))}</p><div class="dlg-actions">'
        f'<button type="button" class="secondary" data-action="close-dialog">{esc(t("online_keep_waiting"))}</button>'
        '<button type="button" class="primary" data-action="online-carry-on" '
        f"autofocus>{esc(t('online_carry_on'))}</button>"
        "</div></div>"
    )
