"""The online table in the browser: the panels (create, invite, join, seats) and the two sides.

:class:`HostSide` runs a :class:`~.host.HostTable` over a :class:`~.link.Link` and hands the match to
the controller's table loop; :class:`GuestSide` runs a :class:`~.guest.GuestTable` and draws what
the host sends. The controller knows them through :class:`OnlinePage`.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Protocol

from hearts import PRESETS, Event, HandOver, HandStarted, MatchOver, Seat, SeatView
from hearts.table import Game, Listener, Player

from .. import render
from ..dialogs import Dialogs
from ..dom import by_id, document, is_none, qs, window
from ..i18n import t
from ..players import HumanPlayer
from ..render import Seating, esc
from ..session import Mode, Session, SessionState, Snapshot
from ..settings import DIFFICULTIES, Settings
from ..store import ONLINE_GUEST_KEY, ONLINE_HOST_KEY, ONLINE_MATCH_KEY, Store
from ..table_view import TableView
from . import config, link, protocol
from .guest import GuestTable
from .host import HostTable

__all__ = ["OnlinePage", "OnlineUI", "HostSide", "GuestSide", "HOST_KEY", "GUEST_KEY", "MATCH_KEY"]

HOST_KEY, GUEST_KEY, MATCH_KEY = ONLINE_HOST_KEY, ONLINE_GUEST_KEY, ONLINE_MATCH_KEY
KIND_FOR_GUEST = {"local": "remote", "remote": "remote", "bot": "bot", "free": "bot"}


class OnlinePage(Protocol):
    """What the online table needs from the page (the controller)."""

    store: Store
    dialogs: Dialogs
    view: TableView
    params: dict[str, str]
    settings: Settings
    human: HumanPlayer

    def enter(self, session: Session, players: list[Player] | None = None, extra: Listener | None = None) -> None: ...

    def enter_guest(self, guest: GuestTable) -> None: ...

    def leave_online(self) -> None: ...

    def stand_in(self, seat: Seat, level: str) -> Player: ...

    def explain_code(self, code: str) -> str: ...

    def guard(self, coro: Any) -> None: ...

    def render_badge(self) -> None: ...

    def load_session(self, key: str) -> Session | None: ...


def _ip_notice() -> str:
    return (f'<p class="note online-ip">{esc(t("online_ip"))}</p>'
            f'<p class="note">{esc(t("online_host_knows"))}</p>')


def _select(name: str, options: list[tuple[str, str]], current: str) -> str:
    opts = "".join(f'<option value="{esc(v)}"{" selected" if v == current else ""}>{esc(label)}</option>' for v, label in options)
    return f'<select name="{name}" id="online-{name}">{opts}</select>'


def _seats_html(seats: list[dict[str, Any]], mine: Seat | None, can_sit: bool) -> str:
    rows = []
    for item in seats:
        seat, kind, name = item["seat"], item["kind"], item["name"]
        label = t("you_here") if seat == mine else (t("kind_free") if kind == "free" else name)
        sit = (f'<button type="button" class="secondary" data-action="online-sit" data-seat="{seat.key}">{esc(t("online_sit"))}</button>'
               if can_sit and kind == "free" else "")
        rows.append(f'<li data-lobby-seat="{seat.key}" data-kind="{esc(kind)}"><span class="dir">{esc(t(f"compass_{int(seat)}"))}</span>'
                    f'<span class="sum-name">{esc(label)}</span><span class="kind">{esc(t(f"kind_{kind}"))}</span>{sit}</li>')
    return f'<ul class="lobby-seats">{"".join(rows)}</ul>'


class HostSide(Listener):
    """This browser hosts: it runs the match and answers the guests."""

    def __init__(self, page: OnlinePage, room: str, relay: str | None, key: Any, table: HostTable) -> None:
        self.page, self.room, self.relay, self.key, self.table = page, room, relay, key, table
        self.link: link.Link | None = None
        self.invite = ""
        self.ticker: asyncio.Task[None] | None = None
        table.on_change = self.changed

    async def connect(self) -> None:
        module = await link.load()
        self.link = link.Link(module, self.room, self.relay, protocol.MAX_GUEST_MESSAGE,
                              self.table.on_message, self.joined, self.table.peer_left)
        self.table.send_raw = self.link.send
        base = f"{window.location.origin}{window.location.pathname}"
        self.invite = config.invitation(base, f"{self.room}.{self.key.publicKey}", self.relay)
        window.history.replaceState(None, "", f"{window.location.pathname}{window.location.search}#host={self.room}")
        self.ticker = asyncio.ensure_future(self._tick())

    def joined(self, peer: str) -> None:
        """A new peer: prove that this browser holds the link's key (the guest then says hello)."""
        async def prove() -> None:
            assert self.link is not None
            sig = await self.key.sign(protocol.host_proof_text(self.room, self.link.self_id, peer))
            self.table._send(peer, "host", sig=str(sig))

        self.page.guard(prove())

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            self.table.tick()

    def save(self) -> None:
        self.page.store.set_json(HOST_KEY, {"room": self.room, "relay": self.relay, "key": str(self.key.privateJwk),
                                            "table": self.table.to_dict()})

    def changed(self) -> None:
        self.save()
        self.apply_seating()
        if self.page.dialogs.is_open and qs("#dlg-body [data-online-lobby]") is not None:
            self.show_lobby()

    def apply_seating(self) -> None:
        render.seating = Seating(Seat.SOUTH, {s: info.name for s, info in zip(Seat, self.table.seats) if s != Seat.SOUTH},
                                 {s: info.shown_kind for s, info in zip(Seat, self.table.seats)})
        self.page.view.render()

    def show_lobby(self) -> None:
        lobby = self.table.lobby()
        seats = [dict(item, seat=Seat.parse(item["seat"])) for item in lobby["seats"]]
        qr = self.link.qr_svg(self.invite) if self.link is not None else ""
        started = self.table.started
        body = (
            f'<div data-online-lobby><p>{esc(t("online_invite"))}</p>'
            f'<p class="invite"><a data-table-link href="{esc(self.invite)}">{esc(self.invite)}</a></p>'
            f'<div class="dlg-actions"><button type="button" class="secondary" data-action="online-copy">{esc(t("online_copy"))}</button>'
            f'<button type="button" class="secondary" data-action="online-share">{esc(t("online_share"))}</button></div>'
            f'<figure class="qr" aria-label="{esc(t("online_qr"))}">{qr}<figcaption>{esc(t("online_qr"))}</figcaption></figure>'
            f'<h3>{esc(t("online_seats"))}</h3>{_seats_html(seats, Seat.SOUTH, False)}{_ip_notice()}'
            '<div class="dlg-actions">'
            f'<button type="button" class="secondary" data-action="online-close">{esc(t("online_close"))}</button>'
            + (f'<button type="button" class="primary" data-action="close-dialog">{esc(t("close"))}</button>' if started else
               f'<button type="button" class="primary" data-action="online-start" autofocus>{esc(t("online_start"))}</button>')
            + "</div></div>")
        self.page.dialogs.open(t("online_title"), body)

    async def start(self) -> None:
        rules = PRESETS.get(self.table.rules.get("preset", "standard"), PRESETS["standard"])
        match = await self.table.start(rules)
        self.save()
        self.begin(Session(match, SessionState(mode=Mode.ONLINE, difficulty=self.table.level)))

    def begin(self, session: Session) -> None:
        self.apply_seating()
        self.page.dialogs.close()
        players = self.table.players(self.page.human)
        self.page.enter(session, players, self)

    async def on_events(self, game: Game, events: list[Event]) -> None:
        await self.table.on_events(game, events)
        if any(isinstance(e, (HandOver, HandStarted)) for e in events):
            self.save()

    async def on_hand_over(self, game: Any) -> Any:
        deal = await self.table.on_hand_over(game)
        self.save()
        return deal

    def close(self) -> None:
        self.table.close()
        if self.ticker is not None:
            self.ticker.cancel()
        if self.link is not None:
            self.link.leave()
        self.page.store.remove(HOST_KEY)
        self.page.store.remove(MATCH_KEY)


class GuestSide:
    """This browser is a guest at someone else's table."""

    def __init__(self, page: OnlinePage, room: str, public_key: str, relay: str | None) -> None:
        self.page, self.room, self.public_key, self.relay = page, room, public_key, relay
        saved = page.store.get_json(GUEST_KEY) if page.store.get_raw(GUEST_KEY) else None
        mine = saved.get(room, {}) if isinstance(saved, dict) and isinstance(saved.get(room), dict) else {}
        self.table = GuestTable(lambda text: None, self, protocol.clean_name(mine.get("name")) or "",
                                token=protocol.read_token(mine.get("token")))
        self.link: link.Link | None = None
        self.seats: list[dict[str, Any]] = []
        self.started = False
        self.queue: asyncio.Queue[tuple[Snapshot, list[Event]]] = asyncio.Queue()
        self.drawer: asyncio.Task[None] | None = None
        self.ticker: asyncio.Task[None] | None = None
        self.entered = False

    @property
    def returning(self) -> bool:
        return self.table.token is not None

    def show_join(self, connecting: bool = False) -> None:
        if self.entered and self.started:
            self.page.dialogs.close()
            return
        name = esc(self.table.name)
        if self.link is None and not connecting:
            body = (f'<p>{esc(t("online_join_intro"))}</p>{_ip_notice()}'
                    f'<label for="online-name">{esc(t("online_name"))} <input id="online-name" name="online-name" maxlength="{protocol.NAME_LIMIT}" value="{name}" autocomplete="nickname"></label>'
                    f'<div class="dlg-actions"><button type="button" class="primary" data-action="online-join" autofocus>{esc(t("online_join"))}</button></div>')
        elif not self.seats:
            body = f'<p class="note" data-online-connecting>{esc(t("online_connecting"))}</p>{_ip_notice()}'
        else:
            can_sit = self.table.seat is None and not self.started
            head = t("online_pick_seat") if can_sit else t("online_waiting_start")
            body = (f'<div data-online-lobby><p>{esc(head)}</p>'
                    + (f'<label for="online-name">{esc(t("online_name"))} <input id="online-name" name="online-name" maxlength="{protocol.NAME_LIMIT}" value="{name}"></label>' if can_sit else "")
                    + _seats_html(self.seats, self.table.seat, can_sit)
                    + f'<div class="dlg-actions"><button type="button" class="secondary" data-action="online-leave">{esc(t("online_leave"))}</button></div></div>')
        self.page.dialogs.open(t("online_join_title"), body)

    async def connect(self) -> None:
        self.show_join(connecting=True)
        module = await link.load()
        self.link = link.Link(module, self.room, self.relay, protocol.MAX_HOST_MESSAGE,
                              self.received, lambda peer: None, self.peer_left)
        self.table.send_raw = lambda text: self._send(text)
        self.drawer = asyncio.ensure_future(self._draw())
        self.ticker = asyncio.ensure_future(self._tick())

    def _send(self, text: str) -> None:
        if self.link is not None and self.table.host_peer is not None:
            self.link.send(self.table.host_peer, text)

    def received(self, peer: str, text: str) -> None:
        if peer != self.table.host_peer:
            try:
                data = json.loads(text) if len(text) < 1024 else None
            except ValueError:
                data = None
            if isinstance(data, dict) and data.get("t") == "host" and isinstance(data.get("sig"), str):
                self.page.guard(self._check_host(peer, data["sig"]))
                return
        self.table.on_message(peer, text)

    async def _check_host(self, peer: str, sig: str) -> None:
        assert self.link is not None
        module = await link.load()
        proof = protocol.host_proof_text(self.room, peer, self.link.self_id)
        if bool(await module.verifyHost(self.public_key, proof, sig)):
            self.table.host_proven(peer)
        else:
            self.table.log.append(f"{peer[:8]} failed to prove it is the host")

    def peer_left(self, peer: str) -> None:
        if peer == self.table.host_peer:
            self.host_away(True)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(2.0)
            if self.table.host_peer is not None:
                self.table.tick()

    # ------------------------------------------------------------------ GuestEvents
    def lobby(self, seats: list[dict[str, Any]], started: bool) -> None:
        self.seats, self.started = seats, started
        me = self.table.seat
        render.seating = Seating(me or Seat.SOUTH, {item["seat"]: item["name"] for item in seats},
                                 {item["seat"]: ("local" if item["seat"] == me else KIND_FOR_GUEST[item["kind"]]) for item in seats})
        if self.entered:
            self.page.view.render()
        if not (self.entered and started):
            self.show_join()

    def seated(self, seat: Seat) -> None:
        saved = self.page.store.get_json(GUEST_KEY) if self.page.store.get_raw(GUEST_KEY) else None
        rooms = saved if isinstance(saved, dict) else {}
        rooms = {k: v for k, v in rooms.items() if config.is_room(k)}
        rooms[self.room] = {"token": self.table.token, "name": self.table.name}
        self.page.store.set_json(GUEST_KEY, dict(list(rooms.items())[-10:]))
        self.lobby(self.seats, self.started)

    def state(self, snap: Snapshot, events: list[Event], asked: SeatView | None) -> None:
        self.queue.put_nowait((snap, events))

    async def _draw(self) -> None:
        """Draw the host's states in order: animate each batch, then offer the player's choice."""
        while True:
            snap, events = await self.queue.get()
            if not self.entered:
                self.entered = True
                self.page.enter_guest(self.table)
                if self.page.dialogs.is_open and qs("#dlg-body [data-online-lobby], #dlg-body [data-online-connecting]") is not None:
                    self.page.dialogs.close()
            if any(isinstance(e, HandStarted) for e in events) and self.page.dialogs.is_open:
                self.page.dialogs.close()  # the host dealt the next hand
            await self.page.view.animate(events, snap)
            self.page.view.show(snap, self.table.asked if self.queue.empty() else None)
            for ev in events:
                if isinstance(ev, HandOver) and snap.sheet:
                    row = snap.sheet[-1]
                    self.page.dialogs.hand_summary(row, [snap.markers(s) for s in Seat], list(snap.sheet), False,
                                                   last=snap.phase.value == "match_over")
                elif isinstance(ev, MatchOver):
                    await self.page.dialogs.wait_closed()
                    self.page.dialogs.match_over(snap.winners, snap.totals, list(snap.sheet), False)

    def refused(self, what: str, code: str) -> None:
        if what == "sit":
            self.page.view.toast(t("online_seat_taken") if code == "seat_taken" else self.page.explain_code(code), warn=True)
        else:
            self.page.view.show_error(self.page.explain_code(code))

    def verified(self, hand: int, ok: bool | None) -> None:
        state = "unchecked" if ok is None else ("true" if ok else "false")
        document.documentElement.dataset.dealVerified = state
        key = {"true": "online_verified", "false": "online_verify_failed", "unchecked": "online_unchecked"}[state]
        self.page.view.toast(t(key, n=hand + 1), warn=ok is False, seconds=5)

    def host_away(self, away: bool) -> None:
        document.documentElement.classList.toggle("host-away", away)
        if away:
            self.page.view.toast(t("online_host_away"), warn=True, seconds=3600)
        else:
            by_id("toast").hidden = True

    def closed(self) -> None:
        self.page.dialogs.open(t("online_title"), f'<p>{esc(t("online_closed"))}</p><div class="dlg-actions">'
                               f'<button type="button" class="primary" data-action="online-leave" autofocus>{esc(t("back_to_match"))}</button></div>')

    def reload_needed(self) -> None:
        self.page.dialogs.open(t("online_title"), f'<p>{esc(t("online_reload"))}</p>')

    def leave(self) -> None:
        for task in (self.drawer, self.ticker):
            if task is not None:
                task.cancel()
        if self.link is not None:
            self.table._send("bye")
            self.link.leave()


class OnlineUI:
    def __init__(self, page: OnlinePage) -> None:
        self.page = page
        self.side: HostSide | GuestSide | None = None

    def relay(self) -> str | None:
        return config.test_relay(self.page.params.get("relay"), str(window.location.hostname))

    def open_from_link(self) -> bool:
        """``#online=<room>.<key>`` joins a table; ``#host=<room>`` resumes the table hosted here."""
        fragment = str(window.location.hash or "")
        joined = config.room_from_hash(fragment.split(".")[0])
        key = fragment.split(".", 1)[1] if "." in fragment else ""
        if joined and config.is_public_key(key):
            self.side = GuestSide(self.page, joined, key, self.relay())
            if self.side.returning:
                self.page.guard(self.side.connect())
            else:
                self.side.show_join()
            return True
        hosted = config.room_from_hash(fragment, "host")
        saved = self.page.store.get_json(HOST_KEY) if hosted and self.page.store.get_raw(HOST_KEY) else None
        if hosted and isinstance(saved, dict) and saved.get("room") == hosted:
            self.page.guard(self._resume_host(saved))
            return True
        return False

    def show_panel(self) -> None:
        if isinstance(self.side, HostSide):
            return self.side.show_lobby()
        if isinstance(self.side, GuestSide):
            return self.side.show_join()
        s = self.page.settings
        presets = [(k, t(f"preset_{k}")) for k in PRESETS]
        levels = [(d, t(f"diff_{d}")) for d in DIFFICULTIES]
        body = (f'<p>{esc(t("online_intro"))}</p>{_ip_notice()}<div class="form">'
                f'<label for="online-name">{esc(t("online_name"))} <input id="online-name" name="online-name" maxlength="{protocol.NAME_LIMIT}" autocomplete="nickname"></label>'
                f'<label for="online-preset">{esc(t("preset"))} {_select("preset", presets, s.preset if s.preset in PRESETS else "standard")}</label>'
                f'<label for="online-level">{esc(t("online_bots"))} {_select("level", levels, s.difficulty)}</label></div>'
                f'<div class="dlg-actions"><button type="button" class="primary" data-action="online-host" autofocus>{esc(t("online_create"))}</button></div>')
        self.page.dialogs.open(t("online_title"), body)

    def _field(self, name: str) -> str:
        el = qs(f"#online-{name}")
        return "" if el is None or is_none(el) else str(el.value)

    def on_action(self, name: str, el: Any) -> None:
        side = self.side
        if name == "online":
            self.show_panel()
        elif name == "online-host" and side is None:
            self.page.guard(self._create(protocol.clean_name(self._field("name")) or t("seat_name_0"),
                                         self._field("preset") or "standard", self._field("level") or "medium"))
        elif name == "online-start" and isinstance(side, HostSide) and not side.table.started:
            self.page.guard(side.start())
        elif name == "online-join" and isinstance(side, GuestSide):
            side.table.name = protocol.clean_name(self._field("name")) or ""
            self.page.guard(side.connect())
        elif name == "online-sit" and isinstance(side, GuestSide):
            seat = Seat.parse(str(el.getAttribute("data-seat")))
            side.table.sit(seat, protocol.clean_name(self._field("name")) or side.table.name or t("online_guest"))
        elif name in ("online-close", "online-leave") and side is not None:
            side.close() if isinstance(side, HostSide) else side.leave()
            self.side = None
            window.history.replaceState(None, "", window.location.pathname)
            self.page.dialogs.close()
            self.page.leave_online()
        elif name == "online-copy" and isinstance(side, HostSide):
            self.page.guard(self._copy(side.invite))
        elif name == "online-share" and isinstance(side, HostSide):
            try:
                from pyscript.ffi import to_js  # type: ignore[import-not-found]

                window.navigator.share(to_js({"text": t("online_share_text"), "url": side.invite},
                                             dict_converter=window.Object.fromEntries))
            except Exception:  # noqa: BLE001 - no Web Share here: copying is the fallback
                self.page.guard(self._copy(side.invite))

    async def _copy(self, text: str) -> None:
        try:
            await window.navigator.clipboard.writeText(text)
            self.page.view.toast(t("online_copied"))
        except Exception:  # noqa: BLE001
            self.page.view.toast(t("copy_manual") + " " + text, seconds=10)

    async def _create(self, name: str, preset: str, level: str) -> None:
        self.page.dialogs.open(t("online_title"), f'<p class="note">{esc(t("online_connecting"))}</p>')
        try:
            module = await link.load()
        except Exception:  # noqa: BLE001 - offline, or the file is missing
            self.page.dialogs.open(t("online_title"), f'<p>{esc(t("online_load_failed"))}</p>')
            return
        key = await module.hostKey(None)
        table = self._table(name, preset if preset in PRESETS else "standard", level if level in DIFFICULTIES else "medium")
        side = self.side = HostSide(self.page, config.new_room(), self.relay(), key, table)
        await side.connect()
        side.save()
        side.apply_seating()
        side.show_lobby()

    def _table(self, name: str, preset: str, level: str) -> HostTable:
        names = [t(f"seat_name_{i}") for i in (1, 2, 3)]
        return HostTable(lambda peer, text: None, host_name=name, bot_names=names,
                         stand_in=lambda seat: self.page.stand_in(seat, level),
                         rules=dict(PRESETS[preset].to_dict(), preset=preset), level=level)

    async def _resume_host(self, saved: dict[str, Any]) -> None:
        module = await link.load()
        key = await module.hostKey(str(saved.get("key") or "") or None)
        raw: dict[str, Any] = saved["table"] if isinstance(saved.get("table"), dict) else {}
        table = self._table("", str(raw.get("rules", {}).get("preset", "standard")), str(raw.get("level", "medium")))
        table.restore(raw)
        table.seats[0].name = str((raw.get("seats") or [{}])[0].get("name") or t("seat_name_0"))[:protocol.NAME_LIMIT]
        relay = saved.get("relay") if saved.get("relay") == self.relay() else None
        side = self.side = HostSide(self.page, str(saved["room"]), relay, key, table)
        await side.connect()
        session = self.page.load_session(MATCH_KEY) if table.started else None
        if session is not None:
            table.match = session.match
            side.begin(session)
        else:
            table.started = False
            side.apply_seating()
            side.show_lobby()
