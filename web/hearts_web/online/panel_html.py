"""The online table's HTML pieces (the panels' notices, a select, the list of seats). Pure: no DOM."""

from __future__ import annotations

from collections.abc import Sequence

from hearts import Seat

from ..core.html import esc
from ..core.i18n import t
from .messages import LobbySeat

__all__ = [
    "ip_line",
    "ip_notice",
    "hide_ip_choice",
    "select",
    "seats_html",
    "rematch_html",
    "TIMER_KEYS",
    "timer_label",
]


def ip_line(hidden: bool) -> str:
    """Who sees this player's IP address: the other players, unless it hides behind TURN."""
    return (
        '<p class="note online-ip" '
        f'data-ip-hidden="{str(hidden).lower()}">{esc(t("online_ip_hidden" if hidden else "online_ip"))}</p>'
    )


def ip_notice(hidden: bool = False) -> str:
    """Who sees this player's IP address, and what the host's browser knows."""
    return f'{ip_line(hidden)}<p class="note">{esc(t("online_host_knows"))}</p>'


def hide_ip_choice(has_turn: bool, checked: bool) -> str:
    """ "Hide my IP address": offered only when the site has a TURN server to hide behind."""
    if not has_turn:
        return ""
    return (
        f'<div class="form" data-form="online-join"><label class="check" for="online-hide-ip">'
        f'<input type="checkbox" id="online-hide-ip" name="hide-ip"{" checked" if checked else ""}> '
        f"{esc(t('online_hide_ip'))}</label></div>"
    )


TIMER_KEYS = {0: "online_timer_off", 30: "online_timer_s", 60: "online_timer_s", 120: "online_timer_2min"}


def timer_label(limit: int) -> str:
    """The turn timer's limit in words ("30 s", "2 min", "off")."""
    return t(TIMER_KEYS.get(limit, "online_timer_s"), n=limit)


def select(name: str, options: list[tuple[str, str]], current: str) -> str:
    opts = "".join(
        f'<option value="{esc(v)}"{" selected" if v == current else ""}>{esc(label)}</option>' for v, label in options
    )
    return f'<select name="{name}" id="online-{name}">{opts}</select>'


def seats_html(seats: Sequence[LobbySeat], mine: Seat | None, can_sit: bool, started: bool = False) -> str:
    """The seats: who sits where and how (a free seat before the start is open; during the match a
    free seat still shows who plays it: a bot, or the guest who left it)."""
    rows = []
    for item in seats:
        seat, kind, name = item.seat, item.kind, item.name
        label = t("you_here") if seat == mine else (t("seat_open") if kind == "free" and not started else name)
        sit = (
            '<button type="button" class="secondary" data-action="online-sit" '
            f'data-seat="{seat.key}">{esc(t("online_sit"))}</button>'
            if can_sit and kind == "free"
            else ""
        )
        rows.append(
            f'<li data-lobby-seat="{seat.key}" data-kind="{esc(kind)}"><span '
            f'class="dir">{esc(t(f"compass_{int(seat)}"))}</span>'
            f'<span class="sum-name">{esc(label)}</span><span class="kind">{esc(t(f"kind_{kind}"))}</span>{sit}</li>'
        )
    return f'<ul class="lobby-seats">{"".join(rows)}</ul>'


def rematch_html(names: Sequence[str], answers: Sequence[str]) -> str:
    """Each seat's answer to the rematch (``names`` by seat)."""
    rows = "".join(
        f'<li data-rematch-seat="{seat.key}" data-answer="{esc(answer)}"><span '
        f'class="dir">{esc(t(f"compass_{int(seat)}"))}</span>'
        f'<span class="sum-name">{esc(name)}</span><span class="kind">{esc(t(f"online_rematch_{answer}"))}</span></li>'
        for seat, name, answer in zip(Seat, names, answers)
    )
    return (
        f'<div data-rematch><p class="note">{esc(t("online_rematch_waiting"))}</p><ul '
        f'class="lobby-seats">{rows}</ul></div>'
    )
