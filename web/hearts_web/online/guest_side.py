"""This browser is a guest at someone else's online table: it draws what the host sends."""

from __future__ import annotations

import asyncio

from hearts import Event, HandOver, HandStarted, MatchOver, Seat, SeatView
from hearts.fairdeal import is_token
from hearts.tally import MatchTally

from ..core.dom import JsObject, document, local_date, qs, window
from ..core.html import esc
from ..core.i18n import t
from ..core.refusals import explain_code
from ..data.registry import ONLINE_GUEST, STATS
from ..data.session import Snapshot
from ..screen.table_state import Seating
from . import config, link, protocol
from .connection import Search, Trouble, status_html
from .door import Door
from .guest import GuestTable
from .guest_html import carry_on_html, guest_lobby_html, join_form_html, searching_html
from .guest_search import HostSearch
from .handover import CarryOn
from .messages import Bye, LobbySeat, Succession, Turn
from .table_extras import TableExtras

__all__ = ["GuestSide", "KIND_FOR_GUEST"]

KIND_FOR_GUEST = {"local": "remote", "remote": "remote", "bot": "bot", "free": "bot", "joining": "bot"}


class GuestSide:
    """This browser is a guest at someone else's table."""

    def __init__(
        self, door: Door, room: str, public_key: str, net: config.Network, identity: JsObject | None = None
    ) -> None:
        """``public_key``: the link's (the first host's) key; ``identity``: the key this guest signs
        with (a former host's own, when its table was carried on; else the guest's, made on joining)."""
        self.door, self.room, self.public_key, self.net = door, room, public_key, net
        self.offered = False  # the offer to carry the table on was shown (during this absence of the host)
        saved = door.saved.get(ONLINE_GUEST).get(room)
        mine = saved if isinstance(saved, dict) else {}
        token = mine.get("token")
        self.saved_key = mine.get("key") if isinstance(mine.get("key"), str) else None
        self.table = GuestTable(
            lambda text: None,
            self,
            protocol.clean_name(mine.get("name")) or "",
            token=token if isinstance(token, str) and is_token(token) else None,
            late=mine.get("late") is True,
        )
        self.table.handover_after = config.test_handover_after(
            door.params.get("handover-after"), str(window.location.hostname), self.table.handover_after
        )
        self.search = HostSearch(room, public_key, net, self.table, self._show_trouble, self._followed)
        self.search.key = identity
        self.hide_ip = mine.get("hide_ip") is True and net.has_turn
        self.seats: tuple[LobbySeat, ...] = ()
        self.started = False
        self.queue: asyncio.Queue[tuple[Snapshot, list[Event]]] = asyncio.Queue()
        self.drawer: asyncio.Task[None] | None = None
        self.ticker: asyncio.Task[None] | None = None
        self.log_tail = link.LogTail()
        self.entered = False
        self.shown: tuple[Search, Trouble] = (Search.RELAYS, Trouble.NONE)  # what the search dialog says
        self.extras = TableExtras(door, self._react, self.table.back)
        self.over: Snapshot | None = None  # the match-over state, while its dialog is up
        self.rematch_answers: tuple[str, str, str, str] | None = None
        self.said_again = False  # this player pressed "Play again" (before or after the host's offer)

    @property
    def hide_ip(self) -> bool:
        """Only relayed ICE candidates (through the site's TURN server): the others never see this
        player's address."""
        return self.search.hide_ip

    @hide_ip.setter
    def hide_ip(self, value: bool) -> None:
        self.search.hide_ip = value and self.net.has_turn

    @property
    def key(self) -> JsObject | None:
        """This guest's signing key (made on joining, kept with its seat)."""
        return self.search.key

    @property
    def returning(self) -> bool:
        return self.table.token is not None

    def show_join(self, connecting: bool = False) -> None:
        if self.entered and self.started:
            self.door.dialogs.close()
            return
        if self.search.link is None and not connecting:
            body = join_form_html(self.table.name, self.hide_ip, self.net.has_turn)
        elif not self.seats:
            self.shown = self._search_state()
            body = searching_html(self.search.watch.relays, *self.shown, self.net.has_turn, self.hide_ip)
        else:
            limit = self.table.timer.limit if self.table.timer is not None else 0
            body = guest_lobby_html(self.seats, self.table.seat, self.started, self.table.name, limit)
        self.door.dialogs.open(t("online_join_title"), body)

    async def connect(self, via: link.Link | None = None) -> None:
        """Join the room (or go on in ``via``, the room this page is in already: a former host
        whose table was carried on)."""
        if via is None:
            self.show_join(connecting=True)
        module = await link.load()
        if self.search.key is None:  # this guest's own key: it may carry the table on one day
            self.search.key = await module.hostKey(self.saved_key)
        self.table.key = str(self.search.key.publicKey)
        self.search.adopt(via) if via is not None else self.search.open(module)
        self.table.send_raw = self.search.send
        self.drawer = asyncio.ensure_future(self._draw())
        self.ticker = asyncio.ensure_future(self._tick())

    def _followed(self, link_: Succession) -> None:
        """Another guest carries the table on: say who (its name from the last lobby)."""
        self.offered = False
        name = next((s.name for s in self.seats if s.seat == link_.seat), None)
        if name is None:  # a former host come back: it was told who carried its table on
            return
        if self.door.dialogs.is_open and qs("#dlg-body [data-online-handover]") is not None:
            self.door.dialogs.close()
        self.door.view.toast(t("online_carried_on", name=name), seconds=8)

    # ------------------------------------------------------------------ carrying the table on
    def show_carry_on(self) -> None:
        """The host has been gone for a minute: offer this heir to carry the table on."""
        host = next((s.name for s in self.seats if s.kind == "local"), "?")
        self.door.dialogs.open(t("online_title"), carry_on_html(host))

    def carry_on_info(self) -> CarryOn | None:
        """What this guest needs to host the table from its next hand (``None``: it may not)."""
        table, lobby, snap = self.table, self.table.lobby_seen, self.table.snap
        if not table.may_carry_on or lobby is None or snap is None or table.heirs is None or table.seat is None:
            return None
        return CarryOn(
            self.room,
            self.search.host_key,
            table.chain,
            table.heirs,
            table.seat,
            table.key or "",
            self.seats,
            lobby.rules,
            lobby.preset,
            lobby.level,
            snap.sheet,
        )

    async def detach(self) -> link.Link | None:
        """Stop being a guest (this page carries the table on): the room stays joined."""
        self.extras.hide()
        for task in (self.drawer, self.ticker):
            if task is not None:
                task.cancel()
        self.log_tail.flush(self.table.log)  # the ticker flushed it every 2 s
        return await self.search.keep_room()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(2.0)
            if self.table.host_peer is not None:
                self.table.tick()
            self._show_trouble()
            if self.table.may_carry_on and not self.offered:
                self.offered = True
                self.show_carry_on()
            self.search.tick()
            self.log_tail.flush(self.table.log)

    def _search_state(self) -> tuple[Search, Trouble]:
        trouble = self.search.watch.trouble() if self.search.searching else Trouble.NONE
        return self.search.phase(), trouble

    def _show_trouble(self) -> None:
        """Say how the search goes: the relays' count as it changes, what the search is doing, and
        once known what keeps this guest from the table (in the join dialog while it searches;
        with the "waiting for the host" notice when the host went away during the match). A
        state shown stays until the search's state changes."""
        status = qs("#dlg-body [data-relay-status]")
        if status is not None:
            status.outerHTML = status_html(self.search.watch.relays)
        now = self._search_state()
        if now == self.shown:
            return
        trouble_changed = now[1] != self.shown[1]
        self.shown = now
        if qs("#dlg-body [data-online-connecting]") is not None:
            self.show_join(connecting=True)
        elif trouble_changed and self.table.away and self.entered:
            self.host_away(True)

    # ------------------------------------------------------------------ GuestEvents
    def lobby(self, seats: tuple[LobbySeat, ...], started: bool) -> None:
        self.seats, self.started = seats, started
        me = self.table.seat
        self.door.view.seat(
            Seating(
                me or Seat.SOUTH,
                {item.seat: item.name for item in seats},
                {item.seat: ("local" if item.seat == me else KIND_FOR_GUEST[item.kind]) for item in seats},
            )
        )
        if not self.entered:
            self.show_join()
        elif started and qs("#dlg-body [data-online-lobby]") is not None:
            self.door.dialogs.close()  # at the table already (a rematch, a table carried on): it goes on

    def seated(self, seat: Seat) -> None:
        self._save_seat()
        self.lobby(self.seats, self.started)

    def _save_seat(self) -> None:
        """This guest's seat at this table, kept to claim it back (a reload, a host's reload)."""
        rooms = {k: v for k, v in self.door.saved.get(ONLINE_GUEST).items() if config.is_room(k)}
        rooms[self.room] = {
            "token": self.table.token,
            "name": self.table.name,
            "hide_ip": self.hide_ip,
            "key": None if self.key is None else str(self.key.privateJwk),
            "late": self.table.late,
        }
        self.door.saved.write(ONLINE_GUEST, dict(list(rooms.items())[-10:]))

    def state(self, snap: Snapshot, events: list[Event], asked: SeatView | None) -> None:
        self.queue.put_nowait((snap, events))

    async def _draw(self) -> None:
        """Draw the host's states in order: animate each batch, then offer the player's choice."""
        while True:
            snap, events = await self.queue.get()
            if not self.entered:
                self.entered = True
                self.door.table.enter_guest(self.table)
                self.extras.show()
                if self.table.timer is not None:
                    self.extras.set_turn(self.table.timer)
                if (
                    self.door.dialogs.is_open
                    and qs("#dlg-body [data-online-lobby], #dlg-body [data-online-connecting]") is not None
                ):
                    self.door.dialogs.close()
            if any(isinstance(e, HandStarted) for e in events) and self.door.dialogs.is_open:
                self.door.dialogs.close()  # the host dealt the next hand
            await self.door.view.animate(events, snap)
            self.door.table.show_guest(snap, self.table.asked if self.queue.empty() else None)
            for ev in events:
                if isinstance(ev, HandOver) and snap.sheet:
                    row = snap.sheet[-1]
                    self.door.dialogs.hand_summary(
                        row,
                        [snap.markers(s) for s in Seat],
                        list(snap.sheet),
                        False,
                        last=snap.phase.value == "match_over",
                        guest=True,
                    )
                elif isinstance(ev, MatchOver):
                    await self.door.dialogs.wait_closed()
                    self.over = snap
                    self.show_over()

    def show_over(self) -> None:
        """The match-over screen of a guest: leave, or play again (when the host offers, or before)."""
        snap = self.over
        if snap is None:
            return
        lobby = self.table.lobby_seen
        target = lobby.rules.target if lobby is not None else max(snap.totals)
        me = self.table.seat
        answers = self.rematch_answers
        mine = answers[me] if answers is not None and me is not None else None
        leave = ("secondary", "online-leave", t("online_leave"))
        if mine == "yes" or (mine is None and self.said_again):
            actions: tuple[tuple[str, str, str], ...] = (leave,)
            extra = f'<p class="note" data-rematch-wait>{esc(t("online_rematch_wait_host"))}</p>'
        else:
            actions = (leave, ("primary", "online-rematch", t("online_rematch")))
            host = next((s.name for s in self.seats if s.seat == Seat.SOUTH), "")
            extra = (
                f'<p class="note" data-rematch-offer>{esc(t("online_rematch_offered", name=host))}</p>'
                if mine == "asked"
                else ""
            )
        self.door.dialogs.match_over(snap.winners, snap.totals, list(snap.sheet), False, target, actions, extra)

    def again(self) -> None:
        """This player plays again (the rematch)."""
        self.said_again = True
        self.table.again()
        self.show_over()

    def refused(self, what: str, code: str) -> None:
        if what == "sit":
            self.door.view.toast(t("online_seat_taken") if code == "seat_taken" else explain_code(code), warn=True)
            if self.seats:
                self.show_join()  # the seat buttons again (the one clicked was waiting for the host)
        else:
            self.door.view.show_error(explain_code(code))

    def verified(self, hand: int, ok: bool | None, late: bool = False) -> None:
        state = "unchecked" if ok is None else ("true" if ok else "false")
        document.documentElement.dataset.dealVerified = state
        key = {
            "true": "online_verified",
            "false": "online_verify_failed",
            "unchecked": "online_unchecked_late" if late else "online_unchecked",
        }[state]
        self.door.view.toast(t(key, n=hand + 1), warn=ok is False, seconds=5)

    def host_away(self, away: bool) -> None:
        document.documentElement.classList.toggle("host-away", away)
        if away:
            trouble = self.search.watch.trouble() if self.search.searching else Trouble.NONE
            extra = {Trouble.NONE: "", Trouble.NO_RELAY: t("online_no_relay"), Trouble.NO_PATH: t("online_no_path")}[
                trouble
            ]
            self.door.view.toast(f"{t('online_host_away')} {extra}".strip(), warn=True, seconds=3600)
        else:
            self.door.view.hide_toast()

    def closed(self) -> None:
        self.door.dialogs.open(
            t("online_title"),
            f'<p>{esc(t("online_closed"))}</p><div class="dlg-actions">'
            '<button type="button" class="primary" data-action="online-leave" '
            f"autofocus>{esc(t('back_to_match'))}</button></div>",
        )

    def reload_needed(self) -> None:
        self.door.dialogs.open(t("online_title"), f"<p>{esc(t('online_reload'))}</p>")

    def turn(self, turn: Turn) -> None:
        self.extras.set_turn(turn)
        if self.door.dialogs.is_open and qs("#dlg-body [data-online-lobby]") is not None:
            self.show_join()  # the lobby says the timer's limit

    def reacted(self, seat: Seat, code: str) -> None:
        self.extras.reacted(seat, code)

    def _react(self, code: str) -> bool:
        self.table.react(code)
        return True

    def rematch(self, answers: tuple[str, str, str, str], final: bool) -> None:
        self.rematch_answers = answers
        me = self.table.seat
        if not final:
            self.show_over()
        elif me is not None and answers[me] == "yes":  # the new match: its states follow
            self.over, self.rematch_answers, self.said_again = None, None, False
            self._save_seat()  # played from its first hand: counted
            document.documentElement.removeAttribute("data-deal-verified")
            self.door.dialogs.close()
        else:
            self.over = None
            self.door.dialogs.open(
                t("online_title"),
                f'<p data-rematch-without>{esc(t("online_rematch_without"))}</p><div class="dlg-actions">'
                '<button type="button" class="primary" data-action="online-leave" '
                f"autofocus>{esc(t('online_leave'))}</button></div>",
            )

    def match_result(self, tally: MatchTally, preset: str, level: str) -> None:
        """The finished match, as the host's match-over state says and the deals confirm: into
        this player's own statistics (online)."""
        self.door.saved.update(STATS, lambda s: s.record(tally, level, preset, local_date(), online=True))

    def leave(self) -> None:
        self.extras.hide()
        for task in (self.drawer, self.ticker):
            if task is not None:
                task.cancel()
        if self.search.link is not None:
            self.table.send(Bye())
        self.search.leave()
