"""A guest's dialogs as HTML: the invitation's form, the search for the table, the lobby, and the
offer to carry the table on. Pure: no DOM."""

from __future__ import annotations

from collections.abc import Sequence

from hearts import Seat

from ..core.html import esc
from ..core.i18n import t
from .connection import RelayState, Search, Trouble, search_html, status_html
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


def searching_html(relays: RelayState | None, phase: Search, trouble: Trouble, has_turn: bool, hide_ip: bool) -> str:
    """Looking for the table: the relays, what the search is doing, or what keeps it from the
    table once that is known."""
    return (
        f'<p class="note" data-online-connecting>{esc(t("online_connecting"))}</p>{status_html(relays)}'
        f"{search_html(phase, trouble, has_turn)}{ip_notice(hide_ip)}"
    )


def _lobby_head(seats: Sequence[LobbySeat], me: Seat | None, started: bool) -> str:
    free = any(s.kind == "free" for s in seats)
    if not started:
        return t("online_pick_seat") if me is None else t("online_waiting_start")
    if me is None:
        return t("online_late_pick") if free else t("online_late_full")
    if any(s.seat == me and s.kind == "joining" for s in seats):
        return t("online_late_seated", seat=t(f"compass_{int(me)}"))
    return t("online_under_way")


def guest_lobby_html(seats: Sequence[LobbySeat], me: Seat | None, started: bool, name: str, timer_limit: int) -> str:
    """The table's seats and what this guest can do: pick a free seat (before the start, or during
    the match a seat a bot plays, from the next hand), or wait for the start or its first hand."""
    can_sit = me is None and (not started or any(s.kind == "free" for s in seats))
    head = _lobby_head(seats, me, started)
    timer = (
        f'<p class="note" data-turn-timer-shown>{esc(t("online_timer_shown", limit=timer_label(timer_limit)))}</p>'
        if timer_limit
        else ""
    )
    return (
        f"<div data-online-lobby{' data-online-under-way' if started else ''}><p>{esc(head)}</p>"
        + (_name_field(name, False) if can_sit else "")
        + seats_html(seats, me, can_sit, started)
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
