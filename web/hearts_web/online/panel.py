"""The online table's panel: create a table, join or resume one from a link, and the table's
commands (``online-host``, ``online-start``, ``online-join``, ``online-sit``, ``online-close``,
``online-leave``, ``online-copy``, ``online-share``, ``online-rematch``,
``online-rematch-start``, ``online-react``, ``online-mute``, ``online-back``; the form
``online-table``: the turn timer; ``online-join``: "hide my IP address").

:class:`~.host_side.HostSide` runs a :class:`~.host.HostTable` over a :class:`~.link.Link` and hands the
match to the page's table loop; :class:`~.guest_side.GuestSide` runs a :class:`~.guest.GuestTable`
and draws what the host sends. They know the page through :class:`~.door.Door`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from hearts import PRESETS, Seat

from ..core.commands import Commands, FieldChange, Press
from ..core.dom import call, document, is_none, qs, window
from ..core.html import esc
from ..core.i18n import t
from ..data.registry import ONLINE_HOST, ONLINE_MATCH
from ..data.settings import DIFFICULTIES
from ..screen import page
from ..screen.table_state import Seating
from . import config, link, protocol
from .door import Door
from .guest_side import GuestSide
from .host import HostTable
from .host_save import restore_table
from .host_side import HostSide
from .messages import Claim
from .panel_html import hide_ip_choice, ip_line, ip_notice, select

__all__ = ["OnlinePanel"]


class OnlinePanel:
    def __init__(self, commands: Commands, door: Door) -> None:
        self.door = door
        self.side: HostSide | GuestSide | None = None
        commands.add("online-host", lambda _: self.create())
        commands.add("online-start", lambda _: self.start())
        commands.add("online-join", lambda _: self.join())
        commands.add("online-sit", self.sit)
        for action in ("online-close", "online-leave"):
            commands.add(action, lambda _: self.leave())
        commands.add("online-copy", lambda _: self.copy())
        commands.add("online-share", lambda _: self.share())
        commands.add("online-rematch", lambda _: self.rematch())
        commands.add("online-rematch-start", lambda _: self.rematch_start())
        commands.add(
            "online-react", lambda press: self.side.extras.send(press.text("reaction") or "") if self.side else None
        )
        commands.add("online-mute", lambda _: self.side.extras.toggle_mute() if self.side else None)
        commands.add("online-back", lambda _: self.side.extras.take_back() if self.side else None)
        commands.add("online-carry-on", lambda _: page.guard(self._carry_on()))
        commands.add_form("online-table", self.table_setting)
        commands.add_form("online-join", self.join_choice)

    def network(self) -> config.Network:
        """How this page reaches the others: public relays, STUN and the site's TURN servers, or
        the tests' seams (``?relay=``, ``?ice=``) on a page of this machine."""
        net = config.network(str(window.location.search or ""), str(window.location.hostname), link.site_turn())
        return net if isinstance(net, config.Network) else config.Network()

    def relay_refused(self) -> bool:
        """The address names a relay or ICE servers this page does not use: say so (no connection
        is made, rather than quietly using the public relays)."""
        net = config.network(str(window.location.search or ""), str(window.location.hostname))
        if isinstance(net, config.Network):
            return False
        key, mark = (
            ("online_ice_refused", "data-ice-refused")
            if net.lstrip().startswith("[")
            else ("online_relay_refused", "data-relay-refused")
        )
        self.door.dialogs.open(t("online_title"), f'<p class="note" {mark}>{esc(t(key, relay=net, value=net))}</p>')
        return True

    def open_from_link(self) -> bool:
        """``#online=<room>.<key>`` joins a table; ``#host=<room>`` resumes the table hosted here."""
        if self.relay_refused():
            return True
        fragment = str(window.location.hash or "")
        joined = config.room_from_hash(fragment.split(".")[0])
        key = fragment.split(".", 1)[1] if "." in fragment else ""
        if joined and config.is_public_key(key):
            self.side = GuestSide(self.door, joined, key, self.network())
            if self.side.returning:
                page.guard(self.side.connect())
            else:
                self.side.show_join()
            return True
        hosted = config.room_from_hash(fragment, "host")
        saved = self.door.saved.load(ONLINE_HOST) if hosted else None
        if hosted and saved is not None and saved.get("room") == hosted:
            page.guard(self._resume_host(saved))
            return True
        return False

    def show_panel(self) -> None:
        if isinstance(self.side, HostSide):
            return self.side.show_lobby()
        if isinstance(self.side, GuestSide):
            return self.side.show_join()
        if self.relay_refused():
            return None
        s = self.door.settings()
        presets = [(k, t(f"preset_{k}")) for k in PRESETS]
        levels = [(d, t(f"diff_{d}")) for d in DIFFICULTIES]
        body = (
            f'<p>{esc(t("online_intro"))}</p>{ip_notice()}<div class="form">'
            f'<label for="online-name">{esc(t("online_name"))} <input id="online-name" '
            f'name="online-name" maxlength="{protocol.NAME_LIMIT}" autocomplete="nickname"></label>'
            f'<label for="online-preset">{esc(t("preset"))} '
            f"{select('preset', presets, s.preset if s.preset in PRESETS else 'standard')}</label>"
            f'<label for="online-level">{esc(t("online_bots"))} {select("level", levels, s.difficulty)}</label></div>'
            f"{hide_ip_choice(self.network().has_turn, False)}"
            '<div class="dlg-actions"><button type="button" class="primary" data-action="online-host" '
            f"autofocus>{esc(t('online_create'))}</button></div>"
        )
        self.door.dialogs.open(t("online_title"), body)

    def _field(self, name: str) -> str:
        el = qs(f"#online-{name}")
        return "" if el is None or is_none(el) else str(el.value)

    def create(self) -> None:
        if self.side is None:
            page.guard(
                self._create(
                    protocol.clean_name(self._field("name")) or t("seat_name_0"),
                    self._field("preset") or "standard",
                    self._field("level") or "medium",
                    self._hide_ip(),
                )
            )

    def start(self) -> None:
        if isinstance(self.side, HostSide) and not self.side.table.started:
            page.guard(self.side.start())

    def _hide_ip(self) -> bool:
        box = qs("#online-hide-ip")
        return box is not None and not is_none(box) and bool(box.checked)

    def join(self) -> None:
        if isinstance(self.side, GuestSide):
            self.side.table.name = protocol.clean_name(self._field("name")) or ""
            self.side.hide_ip = self._hide_ip() and self.side.net.has_turn
            page.guard(self.side.connect())

    def join_choice(self, change: FieldChange) -> None:
        """ "Hide my IP address" ticked or not: the notice beside it says who sees the address."""
        notice = qs("#dlg-body .online-ip")
        if change.name == "hide-ip" and notice is not None:
            notice.outerHTML = ip_line(change.checked)

    def sit(self, press: Press) -> None:
        side = self.side
        if not isinstance(side, GuestSide):
            return
        key = press.text("seat") or ""
        seat = Seat.parse(key)
        side.table.sit(seat, protocol.clean_name(self._field("name")) or side.table.name or t("online_guest"))
        button = qs(f'#dlg-body [data-action="online-sit"][data-seat="{key}"]')
        if button is not None:
            button.disabled = True  # until the host's welcome (or refusal) redraws the seats
            button.textContent = t("online_sitting")

    def rematch(self) -> None:
        """ "Play again": the host offers it, a guest accepts it."""
        if isinstance(self.side, HostSide):
            self.side.rematch()
        elif isinstance(self.side, GuestSide):
            self.side.again()

    def rematch_start(self) -> None:
        if isinstance(self.side, HostSide):
            page.guard(self.side.rematch_start())

    def table_setting(self, change: FieldChange) -> None:
        if isinstance(self.side, HostSide) and change.name == "turn-timer":
            self.side.set_timer(change.value)

    def leave(self) -> None:
        """Close the table (host) or leave it (guest): back to this player's own match."""
        side = self.side
        if side is None:
            return
        side.close() if isinstance(side, HostSide) else side.leave()
        self.side = None
        window.history.replaceState(None, "", window.location.pathname)
        self.door.dialogs.close()
        self.door.view.seat(Seating())
        document.documentElement.classList.remove("host-away")
        self.door.left()

    def copy(self) -> None:
        if isinstance(self.side, HostSide):
            page.guard(self._copy(self.side.invite))

    def share(self) -> None:
        side = self.side
        if isinstance(side, HostSide):
            page.guard(self._share(side.invite))

    async def _share(self, invite: str) -> None:
        try:
            await call("share", {"text": t("online_share_text"), "url": invite})
        except RuntimeError:  # no Web Share here, or the player cancelled: copying is the fallback
            await self._copy(invite)

    async def _copy(self, text: str) -> None:
        try:
            await call("clipboard", text)
            self.door.view.toast(t("online_copied"))
        except RuntimeError:
            self.door.view.toast(t("copy_manual") + " " + text, seconds=10)

    async def _create(self, name: str, preset: str, level: str, hide_ip: bool) -> None:
        self.door.dialogs.open(t("online_title"), f'<p class="note">{esc(t("online_connecting"))}</p>')
        try:
            module = await link.load()
        except Exception:  # noqa: BLE001 - offline, or the file is missing
            self.door.dialogs.open(t("online_title"), f"<p>{esc(t('online_load_failed'))}</p>")
            return
        key = await module.hostKey(None)
        table = self._table(
            name, preset if preset in PRESETS else "standard", level if level in DIFFICULTIES else "medium"
        )
        side = self.side = self._host(HostSide(self.door, config.new_room(), self.network(), key, table, hide_ip))
        await side.connect()
        side.save()
        side.apply_seating()
        side.show_lobby()

    def _host(self, side: HostSide) -> HostSide:
        side.on_taken = lambda peer, claim: page.guard(self._taken(side, peer, claim))
        return side

    async def _carry_on(self) -> None:
        """This guest carries the table on as its host: the others follow (they check the chain)."""
        guest = self.side
        info = guest.carry_on_info() if isinstance(guest, GuestSide) else None
        if not isinstance(guest, GuestSide) or info is None or guest.key is None:
            return
        self.door.dialogs.close()
        sig = str(await guest.key.sign(info.claim_text()))
        table = self._table(guest.table.name or t("seat_name_0"), info.preset, info.level)
        table.seats = info.seat_infos()
        table.term, table.chain = info.term, (*info.chain, info.succession(sig))
        via = await guest.detach()
        side = self.side = self._host(
            HostSide(self.door, guest.room, guest.net, guest.key, table, guest.hide_ip, via, link_key=guest.public_key)
        )
        await side.connect()
        side.prove_all()
        side.save()
        await side.carry_on(info.earlier())

    async def _taken(self, host: HostSide, peer: str, claim: Claim) -> None:
        """While this host was away, a guest carried its table on (the claim checked out): this page
        joins that table as a guest, at its old seat (claimed with this host's key)."""
        if self.side is not host:
            return
        via = host.detach()
        name = host.table.seats[0].name
        guest = self.side = GuestSide(self.door, host.room, host.link_key, host.net, identity=host.key)
        guest.table.name = name
        self.door.table.enter_guest(guest.table)  # this page's match of the table stops here
        self.door.saved.remove(ONLINE_HOST)
        self.door.saved.remove(ONLINE_MATCH)
        window.history.replaceState(
            None, "", f"{window.location.pathname}{window.location.search}#online={host.room}.{host.link_key}"
        )
        await guest.connect(via)
        if via is not None:
            via.send(peer, guest.table.probe())  # the new host answers with its proof
        mine = host.table.chain
        if len(claim.chain) > len(mine):  # this host was away: the guest who carried its table on
            successor = claim.chain[len(mine)]
            self.door.view.toast(t("online_taken", name=host.table.seats[int(successor.seat)].name), seconds=15)
        else:  # another heir carried the table on at the same moment, and was named first
            rival = next((i.name for i in host.table.seats if i.key == claim.chain[-1].key), "?")
            self.door.view.toast(t("online_carried_on", name=rival), seconds=15)

    def _table(self, name: str, preset: str, level: str) -> HostTable:
        names = [t(f"seat_name_{i}") for i in (1, 2, 3)]
        table = HostTable(
            lambda peer, text: None,
            host_name=name,
            bot_names=names,
            stand_in=lambda seat: self.door.stand_in(level),
            preset=preset,
            level=level,
        )
        host = str(window.location.hostname)
        table.free_after = config.test_handover_after(self.door.params.get("handover-after"), host, table.free_after)
        speed = config.test_timer_speed(self.door.params.get("timer-speed"), host)
        if speed != 1.0:
            table.timer.clock = lambda: time.monotonic() * speed
        return table

    async def _resume_host(self, saved: Mapping[str, object]) -> None:
        module = await link.load()
        key = await module.hostKey(str(saved.get("key") or "") or None)
        kept = saved.get("table")
        raw: Mapping[str, object] = kept if isinstance(kept, dict) else {}
        rules, seats = raw.get("rules"), raw.get("seats")
        preset = rules.get("preset", "standard") if isinstance(rules, dict) else "standard"
        table = self._table("", str(preset), str(raw.get("level", "medium")))
        self.door.saved.repaired(ONLINE_HOST, restore_table(table, raw))  # bad entries left out, and said
        first = seats[0] if isinstance(seats, list) and seats and isinstance(seats[0], dict) else {}
        table.seats[0].name = str(first.get("name") or t("seat_name_0"))[: protocol.NAME_LIMIT]
        link_key = saved.get("link_key")
        side = self.side = self._host(
            HostSide(
                self.door,
                str(saved["room"]),
                self.network(),
                key,
                table,
                saved.get("hide_ip") is True,
                link_key=link_key if config.is_public_key(link_key) and isinstance(link_key, str) else None,
            )
        )
        await side.connect()
        session = self.door.saved.load(ONLINE_MATCH) if table.started else None
        if session is not None:
            table.match = session.match
            side.begin(session)
        else:
            table.started = False
            side.apply_seating()
            side.show_lobby()
