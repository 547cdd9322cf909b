"""The Online button and the links of an online table, loaded with the page; the online table
itself (:mod:`.panel`, the transport, the protocol) comes with the online archive
(:mod:`hearts_web.screen.extras`), fetched and imported only when a player goes online, so a
single-player visit loads none of it and contacts nobody. Offline (the archive is not
precached) the player reads that the online table could not be loaded; in a browser without
WebRTC, that this browser cannot join online tables, and why (:func:`has_webrtc`).

Registers ``online``; the panel registers the table's own commands when it is imported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.commands import Commands
from ..core.dom import window
from ..core.html import esc
from ..core.i18n import t
from ..screen import extras, page
from .door import Door

if TYPE_CHECKING:
    from .panel import OnlinePanel

__all__ = ["Online", "LINK_PREFIXES", "has_webrtc"]

LINK_PREFIXES = ("#online=", "#host=")  # a guest's invitation, the host's own table after a reload


def has_webrtc() -> bool:
    """This browser can connect to other browsers (WebRTC's ``RTCPeerConnection``). Not where it
    is missing (Debian's WebKitGTK) or switched off (an iPhone in Lockdown Mode, a browser policy,
    Firefox's ``media.peerconnection.enabled=false``): then the page has no such name (the page
    tells the worker at the start, web/runtime/page.mjs's ``facts``)."""
    return bool(window.facts.get("webrtc"))


class Online:
    """``door()`` makes what the online table needs of the page, when it is first needed."""

    def __init__(self, commands: Commands, door: Callable[[], Door]) -> None:
        self.commands, self.door = commands, door
        self._panel: OnlinePanel | None = None
        commands.add("online", lambda _: page.guard(self._open_panel()))

    async def _open_panel(self) -> None:
        if not has_webrtc():
            self._say_no_webrtc(invited=False)
        elif await self._load():
            self.panel().show_panel()

    def _say_no_webrtc(self, invited: bool) -> None:
        """Why this browser cannot join online tables, in plain words; the rest of the game goes on."""
        window.console.warn("hearts: no WebRTC (RTCPeerConnection) in this browser: no online table")
        invitation = f"<p>{esc(t('online_no_webrtc_link'))}</p>" if invited else ""
        why = f"<strong>{esc(t('online_no_webrtc'))}</strong> {esc(t('online_no_webrtc_why'))}"
        body = f"{invitation}<p data-no-webrtc>{why}</p>"
        self.door().dialogs.open(t("online_title"), body)

    async def _load(self) -> bool:
        """The online archive is unpacked (False: it could not be fetched, and the player is told)."""
        try:
            await extras.load(extras.ONLINE)
        except Exception as exc:  # noqa: BLE001 - offline, or the file is missing: say so
            window.console.warn(f"hearts: the online table could not be loaded: {exc}")
            self.door().dialogs.open(t("online_title"), f"<p>{esc(t('online_load_failed'))}</p>")
            return False
        return True

    def panel(self) -> OnlinePanel:
        """The online table's panel (after :func:`hearts_web.screen.extras.load` of the online archive)."""
        if self._panel is None:
            from .panel import OnlinePanel

            self._panel = OnlinePanel(self.commands, self.door())
        return self._panel

    @property
    def active(self) -> bool:
        """This page hosts or joined a table right now."""
        return self._panel is not None and self._panel.side is not None

    def show_panel(self) -> None:
        self.panel().show_panel()

    async def open_from_link(self) -> bool:
        """The address is an online table's (``#online=``, ``#host=``) and it opened."""
        if not str(window.location.hash or "").startswith(LINK_PREFIXES):
            return False
        if not has_webrtc():
            self._say_no_webrtc(invited=True)
            return False  # the player's own match, under the message
        if not await self._load():
            return False  # the player's own match, under the message
        return self.panel().open_from_link()
