"""Harness of the online table's tests on simulated networks (e2e/test_nat_table.py) and of the
lab's join benchmark (lab/browser/nat_joins.py): people in their own network namespaces behind
routers (e2e/netsim.py), each with the game served on its own loopback and a Chromium, three local
relays and a STUN/TURN server in the "internet"."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import netsim
from conftest import Guard, online_player_script
from netsim import IceKind, Internet, NatKind, Player, Process, Turn
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect
from shown import SHOWN_SCRIPT

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
RELAY_PORTS = (7001, 7002, 7003)
RELAYS = [f"ws://127.0.0.1:{port}/" for port in RELAY_PORTS]
WAIT_MS = 60_000
HANDOVER_AFTER = 8  # seconds (the page's ?handover-after= seam; a minute for players)
PEOPLE: dict[str, NatKind] = {
    "open1": "none",
    "open2": "none",
    "cone1": "cone",
    "cone2": "cone",
    "cone3": "cone",
    "sym1": "symmetric",
    "sym2": "symmetric",
    "udp": "udp-blocked",
}
SELECTED_PAIRS = """async () => {
  const out = [];
  for (const pc of (window.__heartsOnlinePCs || {open: []}).open) {
    if (pc.connectionState !== 'connected') continue;
    const stats = await pc.getStats();
    stats.forEach((r) => {
      if (r.type !== 'transport' || !r.selectedCandidatePairId) return;
      const pair = stats.get(r.selectedCandidatePairId);
      const local = stats.get(pair.localCandidateId), remote = stats.get(pair.remoteCandidateId);
      out.push(`${local.candidateType}/${local.relayProtocol || local.protocol}-${remote.candidateType}`);
    });
  }
  return out;
}"""


@dataclass
class Person:
    """One person: a namespace (behind its router), the game served on its loopback, a Chromium."""

    name: str
    player: Player
    browser: Browser
    contexts: list[BrowserContext] = field(default_factory=list)

    def page(self, locale: str = "en-US") -> Page:
        ctx = self.browser.new_context(locale=locale, viewport={"width": 1100, "height": 760})
        guard = Guard()
        guard.online = True
        guard.allow(r"Trystero")  # a relay that is down, a peer that went away: expected here
        guard.allow(r"WebSocket connection to 'ws://127\.0\.0\.1:700\d/' failed")
        guard.watch(ctx, route=False)
        ctx.add_init_script(online_player_script())
        ctx.add_init_script(SHOWN_SCRIPT)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page._hearts_guard_nat = guard  # type: ignore[attr-defined]
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        self.contexts.clear()


@dataclass
class World:
    net: Internet
    turn: Turn
    relays: list[Process]
    people: dict[str, Person]

    def query(self, *ice: IceKind) -> str:
        servers = self.turn.ice_servers(*ice) if ice else []
        return (
            "?speed=instant&" + "&".join(f"relay={r}" for r in RELAYS) + f"&ice={quote(json.dumps(servers), safe='')}"
        )


@contextmanager
def make_world(playwright: Playwright, people: Mapping[str, NatKind] = PEOPLE) -> Iterator[World]:
    """The simulated internet with the relays, the TURN server and ``people`` (name: NAT kind)."""
    with Internet() as net:
        turn = net.turn()
        relays = [
            net.run(
                ["node", str(ROOT / "tools" / "relay.mjs"), "--host", netsim.SERVER_ADDRESS, "--port", str(port)],
                name=f"relay-{port}",
                wait_port=port,
            )
            for port in RELAY_PORTS
        ]
        persons: dict[str, Person] = {}
        for name, nat in people.items():
            player = net.player(name, nat=nat)
            for port in RELAY_PORTS:
                player.forward(port)
            player.serve(DIST, connect_src=RELAYS)
            persons[name] = Person(name, player, playwright.chromium.launch(**player.chromium_launch_options()))
        yield World(net, turn, relays, persons)
        for person in persons.values():
            person.close()
            person.browser.close()


def host_table(page: Page, world: World, name: str, *ice: IceKind) -> str:
    page.goto(f"http://127.0.0.1:8000/{world.query(*ice)}")
    page.wait_for_selector("html.ready", state="attached", timeout=WAIT_MS)
    page.click("[data-action='online']")
    page.fill("#online-name", name)
    page.click("[data-action='online-host']")
    link = page.locator("[data-table-link]").get_attribute("href", timeout=WAIT_MS)
    assert link and "#online=" in link
    return link


def join(page: Page, link: str, name: str, seat: str = "west", timeout: float = WAIT_MS) -> float:
    """Open the invitation, join and sit down; the seconds from opening the link to seated."""
    start = time.monotonic()
    page.goto(link)
    page.wait_for_selector("html.ready", state="attached", timeout=WAIT_MS)
    page.fill("#online-name", name)
    page.click("[data-action='online-join']")
    page.click(f"[data-action='online-sit'][data-seat='{seat}']", timeout=timeout)
    expect(page.locator(f"[data-lobby-seat='{seat}'] .sum-name")).to_have_text(
        re.compile("^(You|Du)$"), timeout=timeout
    )
    return time.monotonic() - start


def pairs(page: Page) -> list[str]:
    """The selected ICE candidate pairs of this page's connected peers ("relay/udp-relay"...)."""
    return list(page.evaluate(SELECTED_PAIRS))


def seated(host_name: str, guest_name: str, world: World, *ice: IceKind) -> tuple[Page, Page, float]:
    host = world.people[host_name].page()
    link = host_table(host, world, host_name, *ice)
    guest = world.people[guest_name].page()
    took = join(guest, link, guest_name)
    expect(host.locator("[data-lobby-seat='west']")).to_have_attribute("data-kind", "remote", timeout=WAIT_MS)
    return host, guest, took
