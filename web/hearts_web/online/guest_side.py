"""This browser is a guest at someone else's online table: it draws what the host sends."""

from __future__ import annotations

import asyncio

from hearts import Event, HandOver, HandStarted, MatchOver, Seat, SeatView
from hearts.fairdeal import is_token
from hearts.tally import MatchTally

from .. import page, stats
from ..dom import JsObject, document, local_date, qs
from ..i18n import t
from ..refusals import explain_code
from ..session import Snapshot
from ..table_html import esc
from ..table_state import Seating
from . import config, link, protocol
from .connection import ConnectionWatch, RelayState, Trouble, status_html, trouble_html
from .decoder import HOST_MESSAGES, decode
from .door import Door
from .guest import GuestTable
from .messages import Bye, Envelope, HostProof, LobbySeat, Turn
from .panel_html import GUEST_KEY, hide_ip_choice, ip_notice, seats_html
from .table_extras import TableExtras, timer_label

__all__ = ["GuestSide", "KIND_FOR_GUEST"]

KIND_FOR_GUEST = {"local": "remote", "remote": "remote", "bot": "bot", "free": "bot"}
RECONNECT_AFTER = 10.0  # seconds without meeting the host before joining the room afresh
RECONNECT_LONGEST = 60.0  # the wait doubles after each fresh join, up to this
SLOW_AFTER = 20.0  # seconds without meeting the host (relays working) before the join dialog says so
PROOF_LIMIT = 1023  # characters: a host's proof is short (anything longer from an unproven peer is not one)


class GuestSide:
    """This browser is a guest at someone else's table."""

    def __init__(self, door: Door, room: str, public_key: str, net: config.Network) -> None:
        self.door, self.room, self.public_key, self.net = door, room, public_key, net
        saved = door.store.get_json(GUEST_KEY) if door.store.get_raw(GUEST_KEY) else None
        mine = saved.get(room, {}) if isinstance(saved, dict) and isinstance(saved.get(room), dict) else {}
        token = mine.get("token")
        self.hide_ip = mine.get("hide_ip") is True and net.has_turn
        self.watch = ConnectionWatch()
        self.table = GuestTable(lambda text: None, self, protocol.clean_name(mine.get("name")) or "",
                                token=token if isinstance(token, str) and is_token(token) else None)
        self.link: link.Link | None = None  # the room joined last (the one searched for the host)
        self.host_link: link.Link | None = None  # the room the host proved itself in (may be older)
        self.seats: tuple[LobbySeat, ...] = ()
        self.started = False
        self.queue: asyncio.Queue[tuple[Snapshot, list[Event]]] = asyncio.Queue()
        self.drawer: asyncio.Task[None] | None = None
        self.ticker: asyncio.Task[None] | None = None
        self.entered = False
        self.opened = 0.0
        self.reconnect_after = RECONNECT_AFTER
        self.host_left = False
        self.rejoining: asyncio.Future[None] | None = None
        self.searching_since = 0.0
        self.slow_shown = False
        self.trouble_shown = Trouble.NONE
        self.last_met = 0.0  # when a peer last joined the current room
        self.extras = TableExtras(door, self._react, self.table.back)
        self.over: Snapshot | None = None  # the match-over state, while its dialog is up
        self.rematch_answers: tuple[str, str, str, str] | None = None
        self.said_again = False  # this player pressed "Play again" (before or after the host's offer)

    @property
    def returning(self) -> bool:
        return self.table.token is not None

    def show_join(self, connecting: bool = False) -> None:
        if self.entered and self.started:
            self.door.dialogs.close()
            return
        name = esc(self.table.name)
        if self.link is None and not connecting:
            body = (f'<p>{esc(t("online_join_intro"))}</p>{ip_notice(self.hide_ip)}'
                    f'<label for="online-name">{esc(t("online_name"))} <input id="online-name" name="online-name" maxlength="{protocol.NAME_LIMIT}" value="{name}" autocomplete="nickname"></label>'
                    f'{hide_ip_choice(self.net.has_turn, self.hide_ip)}'
                    f'<div class="dlg-actions"><button type="button" class="primary" data-action="online-join" autofocus>{esc(t("online_join"))}</button></div>')
        elif not self.seats:
            trouble = self.watch.trouble()
            body = (f'<p class="note" data-online-connecting>{esc(t("online_connecting"))}</p>{status_html(self.watch.relays)}'
                    f'{trouble_html(trouble, self.net.has_turn, host=False)}')
            if self.slow_shown and trouble is Trouble.NONE:
                body += f'<p class="note" data-online-slow>{esc(t("online_searching_host"))}</p>'
            body += ip_notice(self.hide_ip)
        else:
            can_sit = self.table.seat is None and not self.started
            head = t("online_pick_seat") if can_sit else t("online_waiting_start")
            body = (f'<div data-online-lobby><p>{esc(head)}</p>'
                    + (f'<label for="online-name">{esc(t("online_name"))} <input id="online-name" name="online-name" maxlength="{protocol.NAME_LIMIT}" value="{name}"></label>' if can_sit else "")
                    + seats_html(self.seats, self.table.seat, can_sit)
                    + (f'<p class="note" data-turn-timer-shown>{esc(t("online_timer_shown", limit=timer_label(self.table.timer.limit)))}</p>'
                       if self.table.timer is not None and self.table.timer.limit else "")
                    + f'<div class="dlg-actions"><button type="button" class="secondary" data-action="online-leave">{esc(t("online_leave"))}</button></div></div>')
        self.door.dialogs.open(t("online_join_title"), body)

    async def connect(self) -> None:
        self.searching_since = asyncio.get_event_loop().time()
        self.show_join(connecting=True)
        module = await link.load()
        self._open(module)
        self.table.send_raw = lambda text: self._send(text)
        self.drawer = asyncio.ensure_future(self._draw())
        self.ticker = asyncio.ensure_future(self._tick())

    def _open(self, module: JsObject) -> None:
        """Join the room. Each room's messages are told apart: the host may prove itself in a room
        this page is just leaving (Trystero connects a peer it met while leaving), and then that
        room, not the new one, is where the host hears us."""
        room: list[link.Link] = []
        watch = link.Watchers(lambda peer, text: self.received(room[0], peer, text),
                              lambda peer: self.peer_joined(room[0], peer),
                              lambda peer: self.peer_left(room[0], peer),
                              self.relays_changed, lambda peer: self.path_failed())
        self.link = link.Link(module, self.room, self.net, protocol.MAX_HOST_MESSAGE, watch, self.hide_ip)
        room.append(self.link)
        self.opened = asyncio.get_event_loop().time()

    def _send(self, text: str) -> None:
        via = self.host_link or self.link
        if via is not None and self.table.host_peer is not None:
            via.send(self.table.host_peer, text)

    def received(self, via: link.Link, peer: str, text: str) -> None:
        if peer != self.table.host_peer or via is not self.host_link:
            got = decode(text, HOST_MESSAGES, PROOF_LIMIT)
            if isinstance(got, Envelope) and isinstance(got.message, HostProof):
                page.guard(self._check_host(via, peer, got.message.sig))
                return
        self.table.on_message(peer, text)

    async def _check_host(self, via: link.Link, peer: str, sig: str) -> None:
        module = await link.load()
        proof = protocol.host_proof_text(self.room, peer, via.self_id)
        if bool(await module.verifyHost(self.public_key, proof, sig)):
            self.host_link = via
            self.table.host_proven(peer)
            self.host_left = False
            self.reconnect_after = RECONNECT_AFTER  # met: the next search starts quick again
            self.watch.connected()
            self._show_trouble()
        else:
            self.table.log.append(f"{peer[:8]} failed to prove it is the host")

    def peer_joined(self, via: link.Link, peer: str) -> None:
        """Ask every new peer whether it is the host (the host also proves itself unasked)."""
        if via is self.link:
            self.last_met = asyncio.get_event_loop().time()
        if self.table.host_peer is None or self.host_left:
            via.send(peer, self.table.probe())

    def peer_left(self, via: link.Link, peer: str) -> None:
        if peer == self.table.host_peer and via is self.host_link:
            self.host_left = True  # its connection closed (a reload gives it a new peer): look for it
            self.table.host_gone()

    @property
    def searching(self) -> bool:
        """Look for the host: not met yet, its connection closed, or it went silent in a room
        this page has left since (the current room may reach it)."""
        return (self.table.host_peer is None or self.host_left
                or (self.host_link is not self.link and self.table.away))

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(2.0)
            if self.table.host_peer is not None:
                self.table.tick()
            self._show_trouble()
            if not self.searching or self.link is None:  # a silent host (a background tab) is waited for
                continue
            # no host yet, or it went away (a reload gives it a new peer): look for it
            self.link.send(None, self.table.probe())
            now = asyncio.get_event_loop().time()
            # (not while a peer that joined lately may still prove itself the host, nor while an
            # offer and answer with a peer are on their way: a fresh join would throw them away)
            if (self.rejoining is None and not self.link.exchanging
                    and now - max(self.opened, self.last_met) > self.reconnect_after):
                # Nobody met us: maybe an announce was lost, or a relay came back since. A fresh
                # join announces at once on every relay. Leave and join again.
                self.rejoining = asyncio.ensure_future(self._rejoin())
            if self.table.host_peer is None and not self.slow_shown and now - self.searching_since > SLOW_AFTER:
                self.slow_shown = True
                self.show_join(connecting=True)

    def relays_changed(self, state: RelayState) -> None:
        """The relays' state changed: shown in the join dialog as it happens."""
        self.watch.relays_changed(state)
        status = qs("#dlg-body [data-relay-status]")
        if status is not None:
            status.outerHTML = status_html(state)
        self._show_trouble()

    def path_failed(self) -> None:
        """Offer and answer went through with a peer but no network path joins them."""
        if self.table.host_peer is None or self.host_left:
            self.watch.path_failed()
            self._show_trouble()

    def _show_trouble(self) -> None:
        """Say what keeps this guest from the table (in the join dialog while it searches; as the
        "waiting for the host" notice when the host went away during the match)."""
        trouble = self.watch.trouble() if self.searching else Trouble.NONE
        if trouble == self.trouble_shown:
            return
        self.trouble_shown = trouble
        if qs("#dlg-body [data-online-connecting]") is not None:
            self.show_join(connecting=True)
        elif self.table.away and self.entered:
            self.host_away(True)

    async def _rejoin(self) -> None:
        """Leave the room, then join it again. Only after the leave has finished: Trystero hands
        a join of a room that is still leaving that room, which then leaves for good. (Its leave
        first says goodbye to every peer; if that never finishes, the old room never left and
        still works, so nothing is lost by waiting.)"""
        assert self.link is not None
        try:
            await self.link.leave()
            self._open(await link.load())
            # a slow machine may need longer than that to connect: wait longer each time
            self.reconnect_after = min(2 * self.reconnect_after, RECONNECT_LONGEST)
        finally:
            self.rejoining = None

    # ------------------------------------------------------------------ GuestEvents
    def lobby(self, seats: tuple[LobbySeat, ...], started: bool) -> None:
        self.seats, self.started = seats, started
        me = self.table.seat
        self.door.view.seat(Seating(me or Seat.SOUTH, {item.seat: item.name for item in seats},
                                    {item.seat: ("local" if item.seat == me else KIND_FOR_GUEST[item.kind]) for item in seats}))
        if not (self.entered and started):
            self.show_join()

    def seated(self, seat: Seat) -> None:
        saved = self.door.store.get_json(GUEST_KEY) if self.door.store.get_raw(GUEST_KEY) else None
        rooms = saved if isinstance(saved, dict) else {}
        rooms = {k: v for k, v in rooms.items() if config.is_room(k)}
        rooms[self.room] = {"token": self.table.token, "name": self.table.name, "hide_ip": self.hide_ip}
        self.door.store.set_json(GUEST_KEY, dict(list(rooms.items())[-10:]))
        self.lobby(self.seats, self.started)

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
                if self.door.dialogs.is_open and qs("#dlg-body [data-online-lobby], #dlg-body [data-online-connecting]") is not None:
                    self.door.dialogs.close()
            if any(isinstance(e, HandStarted) for e in events) and self.door.dialogs.is_open:
                self.door.dialogs.close()  # the host dealt the next hand
            await self.door.view.animate(events, snap)
            self.door.table.show_guest(snap, self.table.asked if self.queue.empty() else None)
            for ev in events:
                if isinstance(ev, HandOver) and snap.sheet:
                    row = snap.sheet[-1]
                    self.door.dialogs.hand_summary(row, [snap.markers(s) for s in Seat], list(snap.sheet), False,
                                                   last=snap.phase.value == "match_over", guest=True)
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
            extra = f'<p class="note" data-rematch-offer>{esc(t("online_rematch_offered", name=host))}</p>' if mine == "asked" else ""
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
        key = {"true": "online_verified", "false": "online_verify_failed",
               "unchecked": "online_unchecked_late" if late else "online_unchecked"}[state]
        self.door.view.toast(t(key, n=hand + 1), warn=ok is False, seconds=5)

    def host_away(self, away: bool) -> None:
        document.documentElement.classList.toggle("host-away", away)
        if away:
            trouble = self.watch.trouble() if self.searching else Trouble.NONE
            extra = {Trouble.NONE: "", Trouble.NO_RELAY: t("online_no_relay"), Trouble.NO_PATH: t("online_no_path")}[trouble]
            self.door.view.toast(f'{t("online_host_away")} {extra}'.strip(), warn=True, seconds=3600)
        else:
            self.door.view.hide_toast()

    def closed(self) -> None:
        self.door.dialogs.open(t("online_title"), f'<p>{esc(t("online_closed"))}</p><div class="dlg-actions">'
                               f'<button type="button" class="primary" data-action="online-leave" autofocus>{esc(t("back_to_match"))}</button></div>')

    def reload_needed(self) -> None:
        self.door.dialogs.open(t("online_title"), f'<p>{esc(t("online_reload"))}</p>')

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
            document.documentElement.removeAttribute("data-deal-verified")
            self.door.dialogs.close()
        else:
            self.over = None
            self.door.dialogs.open(t("online_title"), f'<p data-rematch-without>{esc(t("online_rematch_without"))}</p><div class="dlg-actions">'
                                   f'<button type="button" class="primary" data-action="online-leave" autofocus>{esc(t("online_leave"))}</button></div>')

    def match_result(self, tally: MatchTally, preset: str, level: str) -> None:
        """The finished match, as the host's match-over state says and the deals confirm: into
        this player's own statistics (online)."""
        stats.record(self.door.store, tally, level, preset, local_date(), online=True)

    def leave(self) -> None:
        self.extras.hide()
        for task in (self.drawer, self.ticker):
            if task is not None:
                task.cancel()
        if self.link is not None:
            self.table.send(Bye())
            self.link.leave()
        if self.host_link is not None and self.host_link is not self.link:
            self.host_link.leave()
