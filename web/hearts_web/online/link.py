"""The game's side of the transport: the online table's JavaScript (web/online.js: Trystero, the QR
encoder, the host's key) runs on the page, which alone has WebRTC; Python asks for it by name
(:func:`~hearts_web.core.dom.call`) and hears each room's events from the page.

Nothing online is loaded or contacted until a player chooses to play online: the page imports
web/online.js at the first :func:`load`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from itertools import count

from ..core.dom import call, on_page_message, qs, tell, window
from . import config
from .connection import RelayState

__all__ = ["load", "Transport", "HostKey", "Link", "LogTail", "RelayState", "Watchers", "site_turn"]


class HostKey:
    """A signing key kept on the page (ECDSA P-256, WebCrypto): ``publicKey`` rides in the
    invitation, ``privateJwk`` is what the table keeps to resume."""

    def __init__(self, number: int, private_jwk: str, public_key: str) -> None:
        self.number, self.privateJwk, self.publicKey = number, private_jwk, public_key

    async def sign(self, text: str) -> str:
        return str(await call("onlineSign", self.number, text))


class Transport:
    """web/online.js on the page, as Python uses it."""

    def __init__(self, self_id: str) -> None:
        self.selfId = self_id  # this page's peer id (Trystero's, one per page load)

    async def hostKey(self, stored: str | None) -> HostKey:
        made = await call("onlineHostKey", stored)
        return HostKey(int(made["key"]), str(made["privateJwk"]), str(made["publicKey"]))

    async def verifyHost(self, key: str, text: str, signature: str) -> bool:
        return bool(await call("onlineVerify", key, text, signature))

    async def qrSvg(self, text: str) -> str:
        return str(await call("onlineQr", text))


_TRANSPORT: list[Transport] = []


async def load() -> Transport:
    """The transport, loaded on the page once (raises when it cannot be loaded: offline, say)."""
    if not _TRANSPORT:
        _TRANSPORT.append(Transport(str(await call("onlineLoad"))))
    return _TRANSPORT[0]


@dataclass(frozen=True)
class Watchers:
    """What a room tells the page besides messages: peers coming and going, the relays' state, a
    peer with whom offer and answer went through but no network path was found (``""``: not known
    which), and a peer whose connection opened but whose handshake timed out (``half_open``: that
    peer may count this page as joined while this page never met it)."""

    message: Callable[[str, str], None]
    join: Callable[[str], None]
    leave: Callable[[str], None]
    relays: Callable[[RelayState], None] = lambda state: None
    no_path: Callable[[str], None] = lambda peer: None
    half_open: Callable[[str], None] = lambda peer: None


_LINKS: dict[int, Link] = {}
_NUMBERS = count(1)


def _heard(message: dict[str, object]) -> None:
    """A room's event, from the page: {link, kind, args}."""
    link, args = message.get("link"), message.get("args")
    room = _LINKS.get(link) if isinstance(link, int) else None
    if room is not None:
        room.heard(str(message.get("kind")), list(args) if isinstance(args, list) else [])


on_page_message("link", _heard)


class Link:
    """One connection to a room: ``send(peer or None for everyone, text)``; ``watch`` hears the
    rest. ``hide_ip``: only relayed ICE candidates (through a TURN server), so that the other
    players never learn this player's address. The page tells the room's peers and whether an
    exchange is under way as they change (:attr:`state`)."""

    def __init__(
        self, module: Transport, room: str, net: config.Network, max_length: int, watch: Watchers, hide_ip: bool = False
    ) -> None:
        self._watch = watch
        self.relay_state: RelayState | None = None  # as last reported
        self.state: dict[str, object] = {"peers": [], "exchanging": False, "answered": False}
        self.number = next(_NUMBERS)
        _LINKS[self.number] = self
        options = {
            "appId": config.APP_ID,
            "relays": list(net.relays),
            "iceServers": [dict(s) for s in net.ice],
            "relayOnly": hide_ip and net.has_turn,
        }
        self.module = module
        self.self_id = module.selfId
        tell("onlineConnect", self.number, options, room, max_length)

    def heard(self, kind: str, args: list[object]) -> None:
        watch = self._watch
        if kind == "message":
            watch.message(str(args[0]), str(args[1]))
        elif kind == "join":
            watch.join(str(args[0]))
        elif kind == "leave":
            watch.leave(str(args[0]))
        elif kind == "relays":
            open_, total, trying = (int(a) if isinstance(a, (int, float)) else 0 for a in args[:3])
            self.relay_state = RelayState(open_, total, trying, bool(args[3]))
            watch.relays(self.relay_state)
        elif kind == "noPath":
            watch.no_path(str(args[0]))
        elif kind == "halfOpen":
            watch.half_open(str(args[0]))
        elif kind == "state" and isinstance(args[0], dict):
            self.state = {str(k): v for k, v in args[0].items()}

    @property
    def watch(self) -> Watchers:
        return self._watch

    @watch.setter
    def watch(self, watch: Watchers) -> None:
        """Who hears this room from now on (a page that changes sides); told the relays' state at once."""
        self._watch = watch
        if self.relay_state is not None:
            watch.relays(self.relay_state)

    def send(self, peer: str | None, text: str) -> None:
        tell("onlineSend", self.number, peer, text)

    def peers(self) -> list[str]:
        """The peers connected in this room (as the page last said)."""
        peers = self.state.get("peers")
        return [str(p) for p in peers] if isinstance(peers, list) else []

    @property
    def exchanging(self) -> bool:
        """An offer or answer has gone through with a peer that is not connected yet (joining the
        room afresh now would throw that connection away)."""
        return bool(self.state.get("exchanging"))

    @property
    def answered(self) -> bool:
        """Offer and answer went through with a peer since this room was joined (a browser at the
        table answered; a path between the two may still be missing)."""
        return bool(self.state.get("answered"))

    def leave(self) -> Awaitable[object]:
        """Leave the room; await the result before joining the same room again (Trystero hands a
        join back the room that is still leaving, which then leaves for good: a dead link)."""
        _LINKS.pop(self.number, None)
        return call("onlineLeave", self.number)


def site_turn() -> list[dict[str, object]]:
    """The TURN servers this site was built with (``HEARTS_TURN``, written into the page by
    tools/build.py as ``<meta name="hearts-turn">``); none when the page has no such list."""
    meta = qs('meta[name="hearts-turn"]')
    if meta is None:
        return []
    try:
        return [dict(s) for s in config.ice_servers(json.loads(str(meta.getAttribute("content") or "")))]
    except ValueError:
        return []


class LogTail:
    """Copies a table's new log lines to the browser console (``console.debug``, "online: …"), so
    that what the protocol dropped and why can be read in the developer tools and by the tests."""

    def __init__(self) -> None:
        self.seen = 0

    def flush(self, lines: list[str]) -> None:
        if len(lines) < self.seen:  # the log was trimmed: go on from its end
            self.seen = 0
        for line in lines[self.seen :]:
            window.console.debug(f"online: {line}")
        self.seen = len(lines)
