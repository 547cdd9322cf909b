"""hearts_web.online.config: links, room codes, and the test relay honoured only on loopback."""

from __future__ import annotations

from hearts_web.online.config import RELAYS, invitation, relay_refused, is_public_key, is_room, new_room, room_from_hash
from hearts_web.online.config import test_relay as relay_override


def test_room_codes_and_links() -> None:
    room = new_room()
    assert is_room(room) and room != new_room() and not is_room(room.upper()) and not is_room(room + "a")
    key = "B" + "x" * 86
    link = invitation("https://hearts.example/index.html?seed=1#old", f"{room}.{key}", None)
    assert link == f"https://hearts.example/index.html#online={room}.{key}"
    assert room_from_hash(f"#online={room}.{key}".split(".")[0]) == room and is_public_key(key)
    assert room_from_hash("#online=../../etc") is None and room_from_hash(f"#host={room}", "host") == room
    assert all(r.startswith("wss://") for r in RELAYS)


def test_the_test_relay_is_honoured_only_on_this_machine() -> None:
    assert relay_override("ws://127.0.0.1:8001/", "127.0.0.1") == "ws://127.0.0.1:8001/"
    assert relay_override("ws://localhost:8001", "localhost") == "ws://localhost:8001/"
    assert relay_override("ws://127.0.0.1:8001/", "hearts.example") is None  # a link cannot redirect players
    assert relay_override("ws://evil.example:8001/", "127.0.0.1") is None
    assert relay_override("wss://127.0.0.1:8001/", "127.0.0.1") is None
    assert relay_override("ws://127.0.0.1:8001/x", "127.0.0.1") is None
    assert relay_override("ws://127.0.0.1:99999/", "127.0.0.1") is None
    assert relay_override(None, "127.0.0.1") is None


def test_a_relay_value_is_used_as_given_or_refused() -> None:
    """An IPv6 loopback relay was once rebuilt without its brackets (ws://::1:8001/), and creating
    a table then failed: such a value is refused now, and the page says so."""
    for value in ("ws://[::1]:8001/", "ws://[::1]:8001", "ws://::1:8001/", "ws://[::1]/", "ws://[::1", "http://127.0.0.1:8001/"):
        assert relay_override(value, "127.0.0.1") is None and relay_refused(value, "127.0.0.1"), value
    assert not relay_refused(None, "127.0.0.1") and not relay_refused("", "127.0.0.1")
    assert not relay_refused("ws://127.0.0.1:8001/", "127.0.0.1")
    assert relay_refused("ws://127.0.0.1:8001/", "hearts.example")  # and a player's page says so, too
    for value in ("ws://127.0.0.1:8001/", "ws://localhost:9/"):
        used = relay_override(value, "127.0.0.1")
        assert used is not None and used.rstrip("/") == value.rstrip("/")  # used exactly as given
