"""Where the online table meets the world: the signalling relays, the ICE servers, the links.

The relays are public Nostr relays (they only introduce the players' browsers to each other; the
game itself goes peer to peer). A table works while any one of them does. netlify.toml's
``connect-src`` lists exactly these relays (a test compares them). ICE uses public STUN servers and
the TURN servers a site operator gives the build (``HEARTS_TURN``, see docs/online.md), which the
transport module carries (``TURN``). Players at a table learn each other's IP address unless they
hide theirs behind the site's TURN server: the page says so before anyone joins.

The relays, the STUN servers and the rules of an ICE server list are data: ``network.json`` beside
this module (shipped with it in the online archive), read here once; the build reads the same file
to check the site's TURN servers (tools/online_network.py) without importing the page's code.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

__all__ = [
    "APP_ID",
    "RELAYS",
    "STUN",
    "ROOM_LENGTH",
    "Network",
    "network",
    "ice_servers",
    "new_room",
    "is_room",
    "is_public_key",
    "room_from_hash",
    "test_relay",
    "test_timer_speed",
    "test_handover_after",
    "invitation",
]

APP_ID = "hearts-web-online-v1"
NETWORK_FILE = Path(__file__).with_name("network.json")
_NETWORK = json.loads(NETWORK_FILE.read_text(encoding="utf-8"))
_ICE = _NETWORK["ice_servers"]
# The relays: eight of different operators, from the list Trystero's maintainer keeps tested (0.25.4):
# a few of them failing changes nothing.
RELAYS: tuple[str, ...] = tuple(map(str, _NETWORK["relays"]))
STUN: tuple[str, ...] = tuple(map(str, _NETWORK["stun"]))
ROOM_LENGTH = 20
_ROOM = re.compile(rf"^[a-z2-7]{{{ROOM_LENGTH}}}$")
_LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
_LOOPBACK_NAMES = ("127.0.0.1", "localhost")  # a relay's host: names the CSP can list
_ICE_URL = re.compile(str(_ICE["url"]))  # stun:, turn: or turns:
_ICE_LIMIT = int(_ICE["most"])  # servers in one list
_ICE_TEXT = int(_ICE["text_most"])  # characters of a username or a credential


def ice_servers(value: object) -> tuple[dict[str, object], ...]:
    """``value`` (parsed JSON) as a list of ``RTCIceServer`` objects, checked: each has ``urls`` (a
    ``stun:``, ``turn:`` or ``turns:`` URL or a list of them) and, for TURN, a ``username`` and a
    ``credential`` (strings). Raises ``ValueError`` with the reason."""
    if not isinstance(value, list) or len(value) > _ICE_LIMIT:
        raise ValueError(f"a list of at most {_ICE_LIMIT} ICE servers is needed")
    servers: list[dict[str, object]] = []
    for i, item in enumerate(value):
        if not isinstance(item, dict) or not set(item) <= {"urls", "username", "credential"}:
            raise ValueError(f"server {i + 1}: an object with urls, username and credential only")
        urls = item.get("urls")
        urls = [urls] if isinstance(urls, str) else urls
        if not isinstance(urls, list) or not urls or not all(isinstance(u, str) and _ICE_URL.match(u) for u in urls):
            raise ValueError(f"server {i + 1}: urls must be stun:, turn: or turns: URLs")
        turn = any(u.startswith("turn") for u in urls)
        extra = {k: item[k] for k in ("username", "credential") if k in item}
        texts = all(isinstance(v, str) and 0 < len(v) <= _ICE_TEXT for v in extra.values())
        if not texts or (turn and len(extra) != 2):
            raise ValueError(f"server {i + 1}: a TURN server needs a username and a credential (text)")
        servers.append({"urls": list(urls), **extra})
    return tuple(servers)


@dataclass(frozen=True)
class Network:
    """How this page reaches the other players: the signalling ``relays``, the ICE servers, and the
    test seams in use (``query``: carried in the invitation, ``""`` on a player's page)."""

    relays: tuple[str, ...] = RELAYS
    ice: tuple[Mapping[str, object], ...] = ({"urls": list(STUN)},)
    query: str = ""

    @property
    def has_turn(self) -> bool:
        """A TURN server is in the list: the player may hide their IP address behind it."""
        return any(str(u).startswith("turn") for server in self.ice for u in _urls(server))


def _urls(server: Mapping[str, object]) -> list[object]:
    urls = server.get("urls")
    return list(urls) if isinstance(urls, list) else [urls]


def network(query: str, page_host: str, site_turn: Sequence[Mapping[str, object]] = ()) -> Network | str:
    """The network of a page at ``page_host`` whose address has the query ``query``: the public
    relays, STUN and the site's TURN servers; or, on a page of this machine, the tests' seams:
    ``?relay=ws://127.0.0.1:P/`` (several times for several relays; no STUN then) and
    ``?ice=<URL-encoded JSON list of RTCIceServer>`` (replaces the ICE servers). A seam that is
    given but cannot be honoured returns its value (the page says so and connects nowhere)."""
    params = parse_qs(query.lstrip("?"), keep_blank_values=True)
    given, ice_text = params.get("relay", []), params.get("ice", [])
    if not given and not ice_text:
        return Network(ice=({"urls": list(STUN)}, *site_turn))
    relays = [test_relay(value, page_host) for value in given]
    refused = next((value for value, used in zip(given, relays) if used is None), None)
    if refused is not None:
        return refused
    ice: tuple[Mapping[str, object], ...] = ()
    if ice_text:
        if page_host not in _LOOPBACK or len(ice_text) > 1:
            return ice_text[0]
        try:
            ice = ice_servers(json.loads(ice_text[0]))
        except ValueError:
            return ice_text[0]
    seams = [f"relay={value}" for value in relays] + [f"ice={quote(ice_text[0], safe='')}" for _ in ice_text[:1]]
    return Network(tuple(r for r in relays if r) or RELAYS, ice, "?" + "&".join(seams))


_PUBLIC_KEY = re.compile(r"^[A-Za-z0-9_-]{87}$")


def is_public_key(text: object) -> bool:
    """The host's public key as the link carries it: 65 raw bytes (P-256), base64url."""
    return isinstance(text, str) and bool(_PUBLIC_KEY.match(text))


def new_room() -> str:
    """A room code: 20 base32 characters (100 bits): nobody guesses it."""
    alphabet = "abcdefghijklmnopqrstuvwxyz234567"
    return "".join(secrets.choice(alphabet) for _ in range(ROOM_LENGTH))


def is_room(text: object) -> bool:
    return isinstance(text, str) and bool(_ROOM.match(text))


def room_from_hash(fragment: str, key: str = "online") -> str | None:
    """The room code of a link's fragment ``#online=<room>`` (``None`` when there is none or it is bad)."""
    for part in fragment.lstrip("#").split("&"):
        name, _, value = part.partition("=")
        if name == key and is_room(value):
            return value
    return None


def test_relay(value: str | None, page_host: str) -> str | None:
    """The ``?relay=ws://127.0.0.1:PORT/`` override of the tests: honoured only when both the relay
    and the page are on this machine (a link can never send players to someone else's relay)."""
    if not value or page_host not in _LOOPBACK:
        return None
    try:
        parts = urlsplit(value)
        port = parts.port
    except ValueError:
        return None
    # (an IPv6 address cannot be named in the page's Content-Security-Policy: refused too)
    if parts.scheme != "ws" or parts.hostname not in _LOOPBACK_NAMES or port is None or parts.path not in ("", "/"):
        return None
    return f"ws://{parts.hostname}:{port}/"


def test_timer_speed(value: str | None, page_host: str) -> float:
    """The ``?timer-speed=N`` of the tests (1 to 100): the host's turn timer runs N times faster, so
    a test sees a 30 s limit run out in 30/N s. Honoured only on a page of this machine."""
    if not value or page_host not in _LOOPBACK:
        return 1.0
    try:
        speed = float(value)
    except ValueError:
        return 1.0
    return speed if 1.0 <= speed <= 100.0 else 1.0


def test_handover_after(value: str | None, page_host: str, default: float) -> float:
    """The ``?handover-after=S`` of the tests (5 to 60 seconds): how long the host must be gone
    before its heirs are offered to carry the table on, and a guest gone during the match before
    its seat is free for a newcomer. Honoured only on a page of this machine."""
    if not value or page_host not in _LOOPBACK:
        return default
    try:
        seconds = float(value)
    except ValueError:
        return default
    return seconds if 5.0 <= seconds <= 60.0 else default


def invitation(page_url: str, room: str, net: Network) -> str:
    """The link a guest opens: the room code rides in the fragment, which browsers never send to a
    server; the test seams (loopback only) are kept in the query."""
    base = page_url.split("#")[0].split("?")[0]
    return f"{base}{net.query}#online={room}"
