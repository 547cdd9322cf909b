"""The browser's side of the transport: loads web/online.js on first use and connects to a room.

Nothing online is loaded or contacted until a player chooses to play online: the JavaScript
bundle (Trystero, the QR encoder) is imported here, on demand.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from pyscript.ffi import to_js  # type: ignore[import-not-found]

from ..dom import JsObject, keep, window
from . import config

__all__ = ["load", "Link"]

_MODULE: list[JsObject] = []


async def load() -> JsObject:
    """The transport module (``web/online.js``), imported once (raises when it cannot be loaded)."""
    if not _MODULE:
        _MODULE.append(await window.heartsImport("./web/online.js"))
    return _MODULE[0]


def _js(value: object) -> JsObject:
    return to_js(value, dict_converter=window.Object.fromEntries)


class Link:
    """One connection to a room: ``send(peer or None for everyone, text)``; the handlers hear
    messages (peer, text), peers joining and leaving."""

    def __init__(self, module: JsObject, room: str, relay: str | None, max_length: int,
                 on_message: Callable[[str, str], None], on_join: Callable[[str], None],
                 on_leave: Callable[[str], None]) -> None:
        relays = [relay] if relay else list(config.RELAYS)
        ice = [] if relay else [{"urls": list(config.STUN)}]
        handlers = {"message": keep(lambda peer, text: on_message(str(peer), str(text))),
                    "join": keep(lambda peer: on_join(str(peer))),
                    "leave": keep(lambda peer: on_leave(str(peer)))}
        self.module = module
        self.js = module.connect(_js({"appId": config.APP_ID, "relays": relays, "iceServers": ice}), room,
                                 _js(handlers), max_length)
        self.self_id = str(self.js.selfId)

    def send(self, peer: str | None, text: str) -> None:
        self.js.send(peer, text)

    def leave(self) -> Awaitable[JsObject]:
        """Leave the room; await the result before joining the same room again (Trystero hands a
        join back the room that is still leaving, which then leaves for good: a dead link)."""
        left: Awaitable[JsObject] = self.js.leave()
        return left

    def qr_svg(self, text: str) -> str:
        return str(self.module.qrSvg(text))
