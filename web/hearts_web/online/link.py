"""The browser's side of the transport: loads web/online.js on first use and connects to a room.

Nothing online is loaded or contacted until a player chooses to play online: the JavaScript
bundle (Trystero, the QR encoder) is imported here, on demand.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from pyscript.ffi import to_js  # type: ignore[import-not-found]

from ..core.dom import JsObject, keep, qs, window
from . import config
from .connection import RelayState

__all__ = ["load", "Link", "LogTail", "RelayState", "Watchers", "site_turn"]

_MODULE: list[JsObject] = []


async def load() -> JsObject:
    """The transport module (``web/online.js``), imported once (raises when it cannot be loaded)."""
    if not _MODULE:
        _MODULE.append(await window.heartsImport("./web/online.js"))
    return _MODULE[0]


def _js(value: object) -> JsObject:
    return to_js(value, dict_converter=window.Object.fromEntries)


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


class Link:
    """One connection to a room: ``send(peer or None for everyone, text)``; ``watch`` hears the
    rest. ``hide_ip``: only relayed ICE candidates (through a TURN server), so that the other
    players never learn this player's address."""

    def __init__(
        self, module: JsObject, room: str, net: config.Network, max_length: int, watch: Watchers, hide_ip: bool = False
    ) -> None:
        self._watch = watch
        self.relay_state: RelayState | None = None  # as last reported
        handlers = {
            "message": keep(lambda peer, text: self._watch.message(str(peer), str(text))),
            "join": keep(lambda peer: self._watch.join(str(peer))),
            "leave": keep(lambda peer: self._watch.leave(str(peer))),
            "relays": keep(
                lambda n, total, trying, failed: self._relays(RelayState(int(n), int(total), int(trying), bool(failed)))
            ),
            "noPath": keep(lambda peer: self._watch.no_path(str(peer))),
            "halfOpen": keep(lambda peer: self._watch.half_open(str(peer))),
        }
        options = {
            "appId": config.APP_ID,
            "relays": list(net.relays),
            "iceServers": [dict(s) for s in net.ice],
            "relayOnly": hide_ip and net.has_turn,
        }
        self.module = module
        self.js = module.connect(_js(options), room, _js(handlers), max_length)
        self.self_id = str(self.js.selfId)

    @property
    def watch(self) -> Watchers:
        return self._watch

    @watch.setter
    def watch(self, watch: Watchers) -> None:
        """Who hears this room from now on (a page that changes sides); told the relays' state at once."""
        self._watch = watch
        if self.relay_state is not None:
            watch.relays(self.relay_state)

    def _relays(self, state: RelayState) -> None:
        self.relay_state = state
        self._watch.relays(state)

    def send(self, peer: str | None, text: str) -> None:
        self.js.send(peer, text)

    def peers(self) -> list[str]:
        """The peers connected in this room now."""
        return [str(p) for p in self.js.peers()]

    @property
    def exchanging(self) -> bool:
        """An offer or answer has gone through with a peer that is not connected yet (joining the
        room afresh now would throw that connection away)."""
        return bool(self.js.exchanging())

    @property
    def answered(self) -> bool:
        """Offer and answer went through with a peer since this room was joined (a browser at the
        table answered; a path between the two may still be missing)."""
        return bool(self.js.answered())

    def leave(self) -> Awaitable[JsObject]:
        """Leave the room; await the result before joining the same room again (Trystero hands a
        join back the room that is still leaving, which then leaves for good: a dead link)."""
        left: Awaitable[JsObject] = self.js.leave()
        return left

    def qr_svg(self, text: str) -> str:
        return str(self.module.qrSvg(text))


def site_turn() -> list[dict[str, object]]:
    """The TURN servers this site was built with (``HEARTS_TURN``, written into the page by
    tools/build.py as ``<meta name="hearts-turn">``); none when the page has no such list."""
    meta = qs('meta[name="hearts-turn"]')
    if meta is None:
        return []
    try:
        return [dict(s) for s in config.ice_servers(json.loads(str(meta.content)))]
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
