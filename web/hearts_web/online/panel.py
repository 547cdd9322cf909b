"""The online table's entry points: the panel to create a table, links that join or resume one.

:class:`~.host_side.HostSide` runs a :class:`~.host.HostTable` over a :class:`~.link.Link` and hands the
match to the controller's table loop; :class:`~.guest_side.GuestSide` runs a
:class:`~.guest.GuestTable` and draws what the host sends. The controller knows them through
:class:`~.common.OnlinePage`.
"""

from __future__ import annotations

from typing import Any

from hearts import PRESETS, Seat

from ..dom import is_none, qs, window
from ..i18n import t
from ..table_html import esc
from ..settings import DIFFICULTIES
from . import config, link, protocol
from .common import HOST_KEY, MATCH_KEY, OnlinePage, ip_notice, select
from .guest_side import GuestSide
from .host import HostTable
from .host_side import HostSide

__all__ = ["OnlineUI"]


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
        body = (f'<p>{esc(t("online_intro"))}</p>{ip_notice()}<div class="form">'
                f'<label for="online-name">{esc(t("online_name"))} <input id="online-name" name="online-name" maxlength="{protocol.NAME_LIMIT}" autocomplete="nickname"></label>'
                f'<label for="online-preset">{esc(t("preset"))} {select("preset", presets, s.preset if s.preset in PRESETS else "standard")}</label>'
                f'<label for="online-level">{esc(t("online_bots"))} {select("level", levels, s.difficulty)}</label></div>'
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
            el.disabled = True  # until the host's welcome (or refusal) redraws the seats
            el.textContent = t("online_sitting")
        elif name in ("online-close", "online-leave") and side is not None:
            side.close() if isinstance(side, HostSide) else side.leave()
            self.side = None
            window.history.replaceState(None, "", window.location.pathname)
            self.page.dialogs.close()
            self.page.leave_online()
        elif name == "online-reload":
            window.location.reload()  # the invitation is in the address: a fresh start, a fresh peer
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
                         stand_in=lambda seat: self.page.stand_in(seat, level), preset=preset, level=level)

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
