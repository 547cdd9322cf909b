"""hearts_web.online.config: links, room codes, ICE server lists, and the tests' seams (relays, ICE
servers) honoured only on loopback; the build's check of the site's TURN servers
(tools.online_network), which reads the same network.json and must answer as the page does."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from urllib.parse import quote

import pytest
from hearts_web.online.config import (
    RELAYS,
    STUN,
    Network,
    ice_servers,
    invitation,
    is_public_key,
    is_room,
    network,
    new_room,
    room_from_hash,
)
from hearts_web.online.config import test_relay as relay_override
from hypothesis import given
from hypothesis import strategies as st

from tools import build, online_network

TURN = [{"urls": "turn:10.9.0.1:3478?transport=tcp", "username": "u", "credential": "p"}]
ROOT = Path(__file__).resolve().parents[2]
RULES = online_network.load(ROOT)["ice_servers"]


def test_room_codes_and_links() -> None:
    room = new_room()
    assert is_room(room) and room != new_room() and not is_room(room.upper()) and not is_room(room + "a")
    key = "B" + "x" * 86
    link = invitation("https://hearts.example/index.html?seed=1#old", f"{room}.{key}", Network())
    assert link == f"https://hearts.example/index.html#online={room}.{key}"
    assert room_from_hash(f"#online={room}.{key}".split(".")[0]) == room and is_public_key(key)
    assert room_from_hash("#online=../../etc") is None and room_from_hash(f"#host={room}", "host") == room
    assert all(r.startswith("wss://") for r in RELAYS) and len(set(RELAYS)) == len(RELAYS) >= 6


def test_the_test_relay_is_honoured_only_on_this_machine() -> None:
    assert relay_override("ws://127.0.0.1:8001/", "127.0.0.1") == "ws://127.0.0.1:8001/"
    assert relay_override("ws://localhost:8001", "localhost") == "ws://localhost:8001/"
    assert relay_override("ws://127.0.0.1:8001/", "hearts.example") is None  # a link cannot redirect players
    assert relay_override("ws://evil.example:8001/", "127.0.0.1") is None
    assert relay_override("wss://127.0.0.1:8001/", "127.0.0.1") is None
    assert relay_override("ws://127.0.0.1:8001/x", "127.0.0.1") is None
    assert relay_override("ws://127.0.0.1:99999/", "127.0.0.1") is None
    assert relay_override(None, "127.0.0.1") is None


def test_a_players_page_uses_the_public_relays_stun_and_the_sites_turn() -> None:
    net = network("", "hearts.example")
    assert net == Network(RELAYS, ({"urls": list(STUN)},), "") and not net.has_turn
    with_turn = network("?seed=3", "hearts.example", ice_servers(TURN))
    assert isinstance(with_turn, Network) and with_turn.has_turn and with_turn.relays == RELAYS
    assert with_turn.ice == ({"urls": list(STUN)}, {"urls": [TURN[0]["urls"]], "username": "u", "credential": "p"})


def test_several_test_relays_and_an_ice_list_are_used_together_and_travel_in_the_invitation() -> None:
    ice = quote(json.dumps(TURN), safe="")
    query = f"?relay=ws://127.0.0.1:7001/&relay=ws://localhost:7002&ice={ice}&speed=instant"
    net = network(query, "127.0.0.1")
    assert isinstance(net, Network)
    assert net.relays == ("ws://127.0.0.1:7001/", "ws://localhost:7002/") and net.has_turn
    assert net.ice == ice_servers(TURN)
    link = invitation("http://127.0.0.1:8000/?relay=x#y", "room.key", net)
    assert network(link.split("#")[0].split("/", 3)[3][0:], "127.0.0.1") == net  # the guest's page uses the same
    only_relay = network("?relay=ws://127.0.0.1:7001/", "127.0.0.1")
    assert isinstance(only_relay, Network) and only_relay.ice == ()  # loopback: no STUN host to reach


def test_a_seam_that_cannot_be_honoured_is_refused_with_its_value() -> None:
    """An IPv6 loopback relay was once rebuilt without its brackets (ws://::1:8001/), and creating
    a table then failed: such a value is refused, and the page says so."""
    for value in (
        "ws://[::1]:8001/",
        "ws://[::1]:8001",
        "ws://::1:8001/",
        "ws://[::1]/",
        "ws://[::1",
        "http://127.0.0.1:8001/",
    ):
        assert network(f"?relay={quote(value)}", "127.0.0.1") == value, value
    assert network("?relay=ws://127.0.0.1:7001/&relay=ws://evil.example:1/", "127.0.0.1") == "ws://evil.example:1/"
    assert network("?relay=ws://127.0.0.1:8001/", "hearts.example") == "ws://127.0.0.1:8001/"  # a player's page
    ice = json.dumps(TURN)
    assert network(f"?ice={quote(ice)}", "hearts.example") == ice  # never on a player's page
    assert network("?ice=%5B%7B%22urls%22%3A%22http%3A%2F%2Fx%22%7D%5D", "127.0.0.1") == '[{"urls":"http://x"}]'
    assert network("?ice=nope", "127.0.0.1") == "nope"


@pytest.mark.parametrize(
    "bad, reason",
    [
        ({"urls": "stun:x"}, "a list"),
        ([{"urls": "turn:x:3478"}], "needs a username and a credential"),
        ([{"urls": "turn:x", "username": "u", "credential": 5}], "username and a credential"),
        ([{"urls": []}], "urls must be"),
        ([{"urls": ["stun:x", "https://x"]}], "urls must be"),
        ([{"urls": "stun:x", "other": 1}], "only"),
        ([{"urls": "stun:x"}] * 9, "at most 8"),
    ],
)
def test_an_ice_list_is_checked_with_a_reason(bad: object, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        ice_servers(bad)
    with pytest.raises(ValueError, match=reason):  # the build's check, in the same words
        online_network.ice_servers(bad, RULES)


def build_answer(value: object) -> object:
    try:
        return online_network.ice_servers(value, RULES)
    except ValueError as exc:
        return str(exc)


def page_answer(value: object) -> object:
    try:
        return ice_servers(value)
    except ValueError as exc:
        return str(exc)


def test_the_build_checks_the_sites_turn_servers_as_the_page_does() -> None:
    value = [*TURN, {"urls": ["stun:x", "turns:t:5349"], "username": "v", "credential": "w" * 256}]
    assert build_answer(value) == page_answer(value) == tuple({**s, "urls": [s["urls"]]} for s in TURN) + (value[1],)
    assert json.loads(build.site_turn({"HEARTS_TURN": json.dumps(value)}, ROOT)) == [
        dict(s) for s in build_answer(value)
    ]
    assert build.site_turn({}, ROOT) == build.site_turn({"HEARTS_TURN": " "}, ROOT) == ""
    with pytest.raises(build.BuildError, match="HEARTS_TURN must be a JSON list of RTCIceServer objects: server 1"):
        build.site_turn({"HEARTS_TURN": '[{"urls": "turn:x"}]'}, ROOT)
    with pytest.raises(build.BuildError, match="HEARTS_TURN must be"):
        build.site_turn({"HEARTS_TURN": "[{"}, ROOT)


def test_netlify_lets_the_page_reach_exactly_the_relays() -> None:
    """The one list of relays (network.json) is what the host's CSP lets the page connect to."""
    config = tomllib.loads((ROOT / "netlify.toml").read_text(encoding="utf-8"))
    [csp] = [rule["values"]["Content-Security-Policy"] for rule in config["headers"] if rule["for"] == "/*"]
    connect = next(part.split()[1:] for part in csp.split(";") if part.split()[0] == "connect-src")
    assert connect == ["'self'", *RELAYS] == ["'self'", *online_network.load(ROOT)["relays"]]


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
        max_leaves=12,
    )
)
def test_any_json_is_an_ice_list_that_checks_again_or_a_value_error(value: object) -> None:
    assert build_answer(value) == page_answer(value)
    try:
        servers = ice_servers(value)
    except ValueError:
        return
    assert ice_servers(json.loads(json.dumps(list(servers)))) == servers
