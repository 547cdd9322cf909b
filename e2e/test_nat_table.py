"""The online table where the players are: behind home routers and phone networks, with a local
STUN/TURN server and three local relays, some of which fail (e2e/netsim.py builds the networks).

Each person is a Chromium inside its own network namespace, behind its own router (a cone NAT
with a firewall, a symmetric NAT, one that drops all UDP) or directly on the simulated internet.
The page is served on each person's own loopback, so the tests' seams apply: ``?relay=`` (three
relays in the "internet", reached through a forwarder on the person's loopback) and ``?ice=`` (the
local STUN/TURN server). Runs as root only (``./scripts/test nat``); HEARTS_NAT=1 makes a missing
tool a failure instead of a skip.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import netsim
import pytest
from conftest import _screenshot_on_failure, shot
from nat_harness import HANDOVER_AFTER, WAIT_MS, World, host_table, join, make_world, pairs, seated
from netsim import IceKind
from playwright.sync_api import Playwright, expect
from shown import shown, warnings_in
from test_online_table import act_once, play_until_summary, told_the_truth

NAT_REQUIRED = os.environ.get("HEARTS_NAT") == "1"


UNAVAILABLE = netsim.unavailable()
pytestmark = pytest.mark.skipif(
    UNAVAILABLE is not None and not NAT_REQUIRED, reason=f"{UNAVAILABLE} (run ./scripts/test nat as root)"
)


@pytest.fixture(scope="module")
def world(playwright: Playwright) -> Iterator[World]:
    with make_world(playwright) as made:
        yield made


@pytest.fixture
def world_clean(world: World, request: pytest.FixtureRequest) -> Iterator[World]:
    """The world, with every page a test opened closed afterwards and every relay up again."""
    yield world
    pages = [p for person in world.people.values() for ctx in person.contexts for p in ctx.pages]
    _screenshot_on_failure(request, pages)
    problems = [problem for page in pages for problem in page._hearts_guard_nat.problems]
    for person in world.people.values():
        person.close()
    for relay in world.relays:
        if not relay.running:
            relay.start()
    assert not problems, problems[:5]


# ------------------------------------------------------------------ paths through NATs
@pytest.mark.parametrize(
    "host, guest, ice, path",
    [
        ("open1", "open2", ("stun",), "direct"),
        ("cone1", "cone2", ("stun",), "direct"),
        ("cone2", "cone1", ("stun",), "direct"),
        ("cone1", "sym1", ("stun", "turn-udp"), "relay"),
        ("sym1", "sym2", ("stun", "turn-udp"), "relay"),
        ("cone3", "udp", ("turn-tcp",), "relay/tcp"),
    ],
)
def test_a_guest_is_seated_through_its_network(
    world_clean: World, host: str, guest: str, ice: tuple[IceKind, ...], path: str
) -> None:
    host_page, guest_page, took = seated(host, guest, world_clean, *ice)
    told_the_truth(host_page, guest_page)
    found = pairs(guest_page)
    print(f"path: {host}->{guest} {ice}: {found} seated in {took:.1f} s")
    assert found, "no connected peer"
    if path == "direct":
        assert not any("relay" in p for p in found), found
    else:  # a relayed candidate on one side at least ("relay/tcp": this side's, over TCP)
        assert any(path in p for p in found), found


def test_a_guest_who_hides_its_ip_address_plays_through_the_turn_server(world_clean: World) -> None:
    """With a TURN server, the join dialog offers to hide the player's IP address; ticked, the
    notice says who sees it instead, and the page offers the others only relayed candidates."""
    host = world_clean.people["cone1"].page()
    link = host_table(host, world_clean, "Ada", "stun", "turn-udp")
    guest = world_clean.people["cone2"].page()
    guest.goto(link)
    guest.wait_for_selector("html.ready", state="attached", timeout=WAIT_MS)
    notice = guest.locator(".online-ip")
    expect(notice).to_have_attribute("data-ip-hidden", "false")
    guest.check("#online-hide-ip")
    expect(notice).to_have_attribute("data-ip-hidden", "true")
    expect(notice).to_contain_text("stays hidden from the other players")
    shot(guest, "nat-hide-ip-en")
    guest.fill("#online-name", "Ben")
    guest.click("[data-action='online-join']")
    guest.click("[data-action='online-sit'][data-seat='west']", timeout=WAIT_MS)
    expect(host.locator("[data-lobby-seat='west']")).to_have_attribute("data-kind", "remote", timeout=WAIT_MS)
    found = pairs(guest)
    print(f"path: hidden guest: {found}")
    assert found and all(p.startswith("relay/") for p in found), found  # only relayed candidates of its own


def test_without_turn_symmetric_players_read_that_the_network_blocks_them(world_clean: World) -> None:
    """Offer and answer go through the relays, but no path joins two symmetric NATs: the guest
    reads why (not "reload"), the host is told too, and the failing join piles up no peer
    connections however long it waits."""
    host = world_clean.people["sym1"].page()
    link = host_table(host, world_clean, "Ada", "stun")
    guest = world_clean.people["sym2"].page("de-DE")
    guest.goto(link)
    guest.wait_for_selector("html.ready", state="attached", timeout=WAIT_MS)
    guest.fill("#online-name", "Ben")
    joined = guest.evaluate("performance.now() / 1000")
    guest.click("[data-action='online-join']")
    trouble = guest.locator("[data-online-trouble='no-path']")
    expect(trouble).to_contain_text("keine direkte Verbindung", timeout=WAIT_MS)
    expect(trouble).to_contain_text("keinen Relay-Server (TURN)")
    # the first cause the guest reads is the network, within 15 s of Join (no "the host has not
    # answered", no failed relays before it): what was tried meanwhile is said as such
    [(at, what, _), *_] = warnings_in(shown(guest))
    print(f"no path said {at - joined:.1f} s after Join")
    assert what == "trouble" and at - joined < 15, shown(guest)
    assert any("Tisch gefunden" in text for _, kind, text in shown(guest) if kind == "search"), shown(guest)
    expect(host.locator("#toast")).to_contain_text("block a direct connection", timeout=WAIT_MS)
    shot(guest, "nat-no-path-de")
    guest.set_viewport_size({"width": 390, "height": 844})
    shot(guest, "nat-no-path-de-phone")
    guest.wait_for_timeout(45_000)
    made = guest.evaluate("async () => (await window.heartsImport('./web/online.js')).peerConnectionCounts()")
    print(f"peer connections after a failing join of ~75 s: {made}")
    assert made["open"] <= 8 and made["made"] <= 40, made
    assert guest.evaluate("document.documentElement.classList.contains('ready')")


# ------------------------------------------------------------------ relays that fail
def test_two_of_three_relays_down_before_a_join(world_clean: World) -> None:
    with world_clean.net.block(7001, 7002):
        host, guest, took = seated("cone1", "cone2", world_clean, "stun", "turn-udp")
        expect(host.locator("[data-relay-status]")).to_contain_text("Connected to 1 of 3 relays", timeout=WAIT_MS)
        shot(host, "nat-relays-1-of-3-en")
        host.set_viewport_size({"width": 390, "height": 844})
        host.locator("[data-relay-status]").scroll_into_view_if_needed()
        shot(host, "nat-relays-1-of-3-en-phone")
    print(f"seated with 2 of 3 relays down in {took:.1f} s")


def test_no_relay_is_said_within_15_s_and_a_relay_that_comes_back_is_used(world_clean: World) -> None:
    world = world_clean
    for relay in world.relays:
        relay.stop()  # every relay down (connections refused) before anyone comes
    host = world.people["cone1"].page()
    host.goto(f"http://127.0.0.1:8000/{world.query('stun', 'turn-udp')}")
    host.wait_for_selector("html.ready", state="attached", timeout=WAIT_MS)
    host.click("[data-action='online']")
    host.fill("#online-name", "Ada")
    started = time.monotonic()
    host.click("[data-action='online-host']")
    expect(host.locator("[data-online-trouble='relays']")).to_contain_text("cannot reach your table", timeout=15_000)
    print(f"host told no relay answers after {time.monotonic() - started:.1f} s")
    link = host.locator("[data-table-link]").get_attribute("href")
    guest = world.people["cone2"].page("de-DE")
    guest.goto(link or "")
    guest.wait_for_selector("html.ready", state="attached", timeout=WAIT_MS)
    guest.fill("#online-name", "Ben")
    started = time.monotonic()
    guest.click("[data-action='online-join']")
    expect(guest.locator("[data-online-trouble='relays']")).to_contain_text("Kein Relay antwortet", timeout=15_000)
    print(f"guest told no relay answers after {time.monotonic() - started:.1f} s")
    shot(guest, "nat-no-relay-de")
    world.relays[2].start()  # one relay comes back: both pages use it without a reload
    guest.click("[data-action='online-sit'][data-seat='west']", timeout=WAIT_MS)
    expect(host.locator("[data-lobby-seat='west']")).to_have_attribute("data-kind", "remote", timeout=WAIT_MS)
    expect(host.locator("[data-relay-status]")).to_contain_text("Connected to 1 of 3 relays")


def test_all_relays_down_mid_hand_the_hand_goes_on(world_clean: World) -> None:
    host, guest, _ = seated("cone1", "sym1", world_clean, "stun", "turn-udp")
    host.click("[data-action='online-start']")
    guest.wait_for_selector("#pass-btn:not([hidden])", timeout=WAIT_MS)
    assert act_once(host) | act_once(guest)  # the hand is under way: nothing said was wrong so far
    told_the_truth(host, guest)
    for relay in world_clean.relays:
        relay.stop()
    expect(host.locator("#toast")).to_contain_text("No relay answers", timeout=WAIT_MS)
    play_until_summary([host, guest])  # the data channels do not need the relays
    assert sum(host.eval_on_selector_all(".seat .pts", "e => e.map(x => +x.textContent)")) in (26, 78)


# ------------------------------------------------------------------ the host gone for good
def test_the_host_gone_for_good_a_guest_carries_on(world_clean: World) -> None:
    world = world_clean
    host = world.people["cone1"].page()
    link = host_table(host, world, "Ada", "stun", "turn-udp").replace("#", f"&handover-after={HANDOVER_AFTER}#")
    ben, cleo = world.people["sym1"].page(), world.people["cone2"].page("de-DE")
    join(ben, link, "Ben", "west")
    join(cleo, link, "Cleo", "east")
    expect(host.locator("[data-lobby-seat='east']")).to_have_attribute("data-kind", "remote", timeout=WAIT_MS)
    host.click("[data-action='online-start']")
    ben.wait_for_selector("#pass-btn:not([hidden])", timeout=WAIT_MS)
    play_until_summary([host, ben, cleo])
    totals = host.eval_on_selector_all(".seat .pts", "e => e.map(x => +x.textContent)")
    host.click("dialog[open] [data-action='continue']")
    for page in (ben, cleo):
        page.wait_for_selector("#pass-btn:not([hidden])", timeout=WAIT_MS)
        assert act_once(page)
    gone = world.people["cone1"].player.cut()  # the host's network goes away for good, without a word
    try:
        expect(ben.locator("[data-online-handover]")).to_be_visible(timeout=WAIT_MS)
        ben.click("[data-action='online-carry-on']")
        expect(cleo.locator("#toast")).to_contain_text("Ben leitet den Tisch", timeout=WAIT_MS)
        for page in (ben, cleo):
            page.wait_for_selector("#pass-btn:not([hidden])", timeout=WAIT_MS)
        assert sorted(ben.eval_on_selector_all(".seat .pts", "e => e.map(x => +x.textContent)")) == sorted(totals)
        play_until_summary([ben, cleo])
        expect(cleo.locator("html")).to_have_attribute("data-deal-verified", "true", timeout=WAIT_MS)
    finally:
        gone.lift()
