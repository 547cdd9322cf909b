"""Where the online table meets the world: the signalling relays, the STUN servers, the links.

The relays are public BitTorrent WebSocket trackers (they only introduce the players' browsers to
each other; the game itself goes peer to peer). netlify.toml's ``connect-src`` lists exactly these
relays (a test compares them). Players at a table learn each other's IP address: the page says so
before anyone joins.
"""

from __future__ import annotations

import re
import secrets
from urllib.parse import urlsplit

__all__ = ["APP_ID", "RELAYS", "STUN", "ROOM_LENGTH", "new_room", "is_room", "is_public_key", "room_from_hash", "test_relay", "relay_refused", "test_timer_speed",
           "invitation"]

APP_ID = "hearts-web-online-v1"
RELAYS = (
    "wss://tracker.webtorrent.dev",
    "wss://tracker.openwebtorrent.com",
    "wss://tracker.btorrent.xyz",
)
STUN = ("stun:stun.l.google.com:19302", "stun:stun.cloudflare.com:3478")
ROOM_LENGTH = 20
_ROOM = re.compile(r"^[a-z2-7]{%d}$" % ROOM_LENGTH)
_LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
_LOOPBACK_NAMES = ("127.0.0.1", "localhost")  # a relay's host: names the CSP can list


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


def relay_refused(value: str | None, page_host: str) -> bool:
    """A ``?relay=`` was given that :func:`test_relay` does not honour: the page says so and makes
    no connection (rather than quietly using the public relays)."""
    return bool(value) and test_relay(value, page_host) is None


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


def invitation(page_url: str, room: str, relay: str | None) -> str:
    """The link a guest opens: the room code rides in the fragment, which browsers never send to a
    server; a test relay (loopback only) is kept in the query."""
    base = page_url.split("#")[0].split("?")[0]
    query = f"?relay={relay}" if relay else ""
    return f"{base}{query}#online={room}"
