"""Self-check of the simulated-network harness (e2e/netsim.py): the networks it makes behave as
claimed, measured with STUN and with real WebRTC between Chromiums inside the namespaces.

Not the game: a tiny page of its own, served on each player's loopback; the test itself carries
the SDP between the pages (no trickle: each side waits for ICE gathering to complete) and reads
``getStats()`` for the selected candidate pair. Runs only as root with ip, iptables, socat and
coturn (``./scripts/test nat`` installs them); under HEARTS_NAT=1 a missing one FAILS.

The paths found are printed at the end (``path:`` lines) and documented in docs/online.md.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import netsim
import pytest
from netsim import DEAD_ADDRESS, Internet, NatKind, Player, Turn
from playwright.sync_api import Browser, Page, Playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

NAT_REQUIRED = os.environ.get("HEARTS_NAT") == "1"


UNAVAILABLE = netsim.unavailable()
pytestmark = pytest.mark.skipif(
    UNAVAILABLE is not None and not NAT_REQUIRED, reason=f"{UNAVAILABLE} (run ./scripts/test nat as root)"
)

GATHER_MS = 45_000  # the longest ICE gathering waited for (a silent STUN server stretches it to ~40 s)
CONNECT_S = 15.0  # a data channel opens within a second here when a path exists
FAIL_WAIT_S = 10.0  # how long "no path" must hold for a scenario expected to fail
# name: (NAT kind, router firewall); k1, k2: bare MASQUERADE routers without a firewall
PLAYERS: dict[str, tuple[NatKind, bool]] = {
    "a": ("none", False),
    "b": ("none", False),
    "c1": ("cone", True),
    "c2": ("cone", True),
    "k1": ("cone", False),
    "k2": ("cone", False),
    "s1": ("symmetric", True),
    "s2": ("symmetric", True),
    "u": ("udp-blocked", True),
}
PAGE = "<!doctype html><meta charset=utf-8><title>netsim</title><p>netsim self-check</p>\n"

# Installed in every page: one RTCPeerConnection, driven by page.evaluate. Times in ms since the
# peer connection was made; ``local`` is the description once gathering completed (or gave up).
PEER_JS = """
window.netsim = (() => {
  let t0 = performance.now();
  const now = () => Math.round(performance.now() - t0);
  const self = {pc: null, channel: null, local: null, opened: null, echoed: null, log: [], candidates: []};
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const make = (config) => {
    t0 = performance.now();
    const pc = self.pc = new RTCPeerConnection(config);
    pc.onicecandidate = (e) => e.candidate && self.candidates.push(
      {at: now(), type: e.candidate.type, protocol: e.candidate.protocol,
       relayProtocol: e.candidate.relayProtocol || null});
    pc.onicegatheringstatechange = () => self.log.push(`gathering ${pc.iceGatheringState} ${now()}`);
    pc.oniceconnectionstatechange = () => self.log.push(`ice ${pc.iceConnectionState} ${now()}`);
    return pc;
  };
  const bind = (ch) => {
    self.channel = ch;
    ch.onopen = () => { self.opened = now(); };
    ch.onmessage = (e) => e.data === 'ping' ? ch.send('pong') : (self.echoed = now());
    if (ch.readyState === 'open') self.opened = now();
  };
  const gathered = async (ms) => {
    while (self.pc.iceGatheringState !== 'complete' && now() < ms) await sleep(20);
    return self.local = {sdp: self.pc.localDescription.sdp, ms: now(),
                         complete: self.pc.iceGatheringState === 'complete'};
  };
  self.offer = async (config, ms) => {
    bind(make(config).createDataChannel('netsim'));
    await self.pc.setLocalDescription();
    return gathered(ms);
  };
  self.answer = async (config, sdp, ms) => {
    make(config).ondatachannel = (e) => bind(e.channel);
    await self.pc.setRemoteDescription({type: 'offer', sdp});
    await self.pc.setLocalDescription();
    return gathered(ms);
  };
  self.accept = (sdp) => self.pc.setRemoteDescription({type: 'answer', sdp});
  self.selected = async () => {
    const stats = await self.pc.getStats();
    let pair = null;
    stats.forEach((s) => { if (s.type === 'transport' && s.selectedCandidatePairId) pair = stats.get(s.selectedCandidatePairId); });
    if (!pair) return null;
    const cand = (id) => { const c = stats.get(id);
      return {type: c.candidateType, protocol: c.protocol, relayProtocol: c.relayProtocol || null, address: c.address}; };
    return {local: cand(pair.localCandidateId), remote: cand(pair.remoteCandidateId)};
  };
  return self;
})();
"""


# ------------------------------------------------------------------ fixtures
@pytest.fixture(scope="module")
def net(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Internet]:
    """One internet for the whole file: TURN on 3478, a second STUN/TURN on 3479 (to tell cone from
    symmetric mappings), the players of PLAYERS each serving the tiny page on its own 127.0.0.1:8000."""
    if UNAVAILABLE is not None:
        pytest.fail(f"HEARTS_NAT=1 but {UNAVAILABLE}", pytrace=False)
    site = tmp_path_factory.mktemp("netsim-page")
    (site / "index.html").write_text(PAGE)
    with Internet() as internet:
        internet.turn(port=3478)
        internet.turn(port=3479)
        for name, (nat, firewall) in PLAYERS.items():
            internet.player(name, nat=nat, firewall=firewall).serve(site)
        yield internet


@pytest.fixture(scope="module")
def turn(net: Internet) -> Turn:
    return net.turns[0]


class Browsers:
    """One Chromium per player, inside its namespace, launched at first use."""

    def __init__(self, playwright: Playwright) -> None:
        self.playwright = playwright
        self.open: dict[str, Browser] = {}

    def page(self, player: Player) -> Page:
        if player.name not in self.open:
            self.open[player.name] = self.playwright.chromium.launch(**player.chromium_launch_options())
        context = self.open[player.name].new_context()  # no camera/microphone: mDNS host candidates
        context.add_init_script(PEER_JS)
        page = context.new_page()
        assert player.url is not None
        page.goto(player.url)
        return page

    def close(self) -> None:
        for browser in self.open.values():
            browser.close()


@pytest.fixture(scope="module")
def browsers(playwright: Playwright, net: Internet) -> Iterator[Browsers]:
    pool = Browsers(playwright)
    yield pool
    pool.close()


@pytest.fixture(scope="module")
def paths(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """Lines describing each WebRTC scenario, printed after the tests (also without -s)."""
    lines: list[str] = []
    yield lines
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is None or capture is None:
        return
    with capture.global_and_fixture_disabled():
        reporter.write_line("")
        for line in lines:
            reporter.write_line(f"path: {line}")


# ------------------------------------------------------------------ one WebRTC connection
@dataclass
class Outcome:
    """What one offer/answer between two pages gave."""

    connected: bool
    gather_ms: tuple[int, int]  # offerer, answerer: until gathering completed (or gave up)
    connect_s: float  # from the answer's arrival to the data channel's echo (or giving up)
    selected: dict[str, Any] | None  # the offerer's selected pair: {"local": {...}, "remote": {...}}
    log: list[str] = field(default_factory=list)  # the offerer's and answerer's ICE states

    def path(self) -> str:
        """e.g. ``srflx/udp -> prflx/udp`` or ``relay/udp(tcp) -> srflx/udp`` (offerer's view)."""
        if not self.selected:
            return "no path"

        def side(c: dict[str, Any]) -> str:
            relay = f"({c['relayProtocol']})" if c.get("relayProtocol") else ""
            return f"{c['type']}/{c['protocol']}{relay}"

        return f"{side(self.selected['local'])} -> {side(self.selected['remote'])}"

    def types(self) -> set[str]:
        return {self.selected["local"]["type"], self.selected["remote"]["type"]} if self.selected else set()

    def summary(self) -> str:
        state = (
            f"connected in {self.connect_s:.2f}s" if self.connected else f"NOT connected after {self.connect_s:.1f}s"
        )
        return (
            f"{self.path()}, {state}, gathering {self.gather_ms[0]}/{self.gather_ms[1]} ms"
            f"\n    ICE: {'; '.join(self.log)}"
        )


def start_offer(page: Page, ice: list[dict[str, Any]]) -> None:
    """Begin an offer and its ICE gathering without waiting (see ``offered``)."""
    page.evaluate("([c, ms]) => { netsim.offer(c, ms); }", [{"iceServers": ice}, GATHER_MS])


def offered(page: Page) -> dict[str, Any]:
    """The offer once its gathering completed (or gave up after GATHER_MS)."""
    page.wait_for_function("() => netsim.local !== null", timeout=GATHER_MS + 15_000, polling=100)
    offer: dict[str, Any] = page.evaluate("netsim.local")
    return offer


def connect(
    offerer: Page,
    answerer: Page,
    offer_ice: list[dict[str, Any]],
    answer_ice: list[dict[str, Any]],
    wait_s: float = CONNECT_S,
) -> Outcome:
    """Offer, answer (each after its gathering completed: no trickle), then wait up to ``wait_s``
    for the data channel to open and echo a ping, or for ICE to fail. An offer already started
    with ``start_offer`` is used as it is."""
    if offerer.evaluate("netsim.pc === null"):
        start_offer(offerer, offer_ice)
    offer = offered(offerer)
    answer = answerer.evaluate(
        "([c, sdp, ms]) => netsim.answer(c, sdp, ms)", [{"iceServers": answer_ice}, offer["sdp"], GATHER_MS]
    )
    offerer.evaluate("(sdp) => netsim.accept(sdp)", answer["sdp"])
    start = time.monotonic()
    # arrow functions: a string expression would be eval'ed, which the page's CSP forbids
    opened = "() => netsim.opened !== null || netsim.pc.iceConnectionState === 'failed'"
    connected = False
    try:
        for page in (offerer, answerer):
            left = max(1.0, wait_s - (time.monotonic() - start))
            page.wait_for_function(opened, timeout=left * 1000, polling=50)
        offerer.evaluate("netsim.opened !== null && netsim.channel.send('ping')")
        offerer.wait_for_function("() => netsim.echoed !== null", timeout=5000, polling=50)
        connected = True
    except PlaywrightTimeoutError:
        pass
    elapsed = time.monotonic() - start
    log = [f"offerer {e}" for e in offerer.evaluate("netsim.log")] + [
        f"answerer {e}" for e in answerer.evaluate("netsim.log")
    ]
    selected = offerer.evaluate("netsim.selected()") if connected else None
    return Outcome(connected, (offer["ms"], answer["ms"]), elapsed, selected, log)


def pair(browsers: Browsers, net: Internet, offerer: str, answerer: str) -> tuple[Page, Page]:
    return browsers.page(net.players[offerer]), browsers.page(net.players[answerer])


def close_pages(*pages: Page) -> None:
    for page in pages:
        page.context.close()


def run_scenario(
    browsers: Browsers,
    net: Internet,
    paths: list[str],
    title: str,
    offerer: str,
    answerer: str,
    ice: list[dict[str, Any]],
    answer_ice: list[dict[str, Any]] | None = None,
    wait_s: float = CONNECT_S,
) -> Outcome:
    pages = pair(browsers, net, offerer, answerer)
    try:
        outcome = connect(*pages, ice, ice if answer_ice is None else answer_ice, wait_s)
    finally:
        close_pages(*pages)
    paths.append(f"{title} ({offerer} offers to {answerer}): {outcome.summary()}")
    return outcome


# ------------------------------------------------------------------ the networks themselves
def test_mappings_match_the_nat_kinds(net: Internet) -> None:
    """STUN from one socket to two servers: public = own address; cone keeps the port for every
    destination; symmetric picks a new port per destination; udp-blocked gets no answer."""
    for player in net.players.values():
        local, mapped = player.stun_mapped((3478, 3479))
        assert player.address != player.public_address or player.nat == "none"
        if player.nat == "udp-blocked":
            assert mapped == [None, None], player
            assert tcp_reaches(player, net.server, 3478), player  # TCP still leaves (TURN over TCP)
            continue
        assert None not in mapped, (player, mapped)
        assert {m[0] for m in mapped if m} == {player.public_address}, (player, mapped)
        ports = [m[1] for m in mapped if m]
        if player.nat in ("none", "cone"):
            assert ports == [local, local], (player, local, mapped)  # port kept for both
        else:
            assert ports[0] != ports[1], (player, local, mapped)  # a new port per destination


def tcp_reaches(player: Player, host: str, port: int) -> bool:
    code = "import socket, sys; socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3).close()"
    return player.exec([sys.executable, "-c", code, host, str(port)], check=False).returncode == 0


def test_routers_count_what_they_did(net: Internet) -> None:
    """The routers' own counters after some traffic: every NAT rule translated packets (the
    udp-blocked router a TCP connection); the udp-blocked router dropped the STUN requests."""
    for player in net.players.values():
        if player.router is None:
            continue
        player.stun_mapped((3478,), timeout=0.3)
        if player.nat == "udp-blocked":
            assert tcp_reaches(player, net.server, 3478), player
        nat = netsim.run(["iptables", "-t", "nat", "-L", "POSTROUTING", "-v", "-n", "-x"], ns=player.router).stdout
        masquerade = [line.split() for line in nat.splitlines() if "MASQUERADE" in line]
        assert len(masquerade) == 1 and int(masquerade[0][0]) > 0, (player, nat)
        assert ("random-fully" in nat) == (player.nat == "symmetric"), nat
        forward = netsim.run(["iptables", "-L", "FORWARD", "-v", "-n", "-x"], ns=player.router).stdout
        drops = [line.split() for line in forward.splitlines() if "DROP" in line]
        if player.nat == "udp-blocked":
            assert len(drops) == 1 and int(drops[0][0]) > 0, forward
        else:
            assert not drops, forward


def fetch(player: Player, port: int, timeout: float = 3) -> str:
    """GET http://127.0.0.1:PORT/ from inside the player's namespace: the status, or the error."""
    code = (
        "import sys, urllib.request\n"
        "try: print(urllib.request.urlopen(f'http://127.0.0.1:{sys.argv[1]}/', timeout=float(sys.argv[2])).status)\n"
        "except Exception as exc: print(type(exc).__name__, exc)"
    )
    return player.exec([sys.executable, "-c", code, str(port), str(timeout)], timeout=timeout + 10).stdout.strip()


def timed(thunk: Any) -> tuple[Any, float]:
    start = time.monotonic()
    return thunk(), time.monotonic() - start


def test_relay_down_and_up(net: Internet, tmp_path: Path) -> None:
    """A service on the server, reached through a player's loopback forwarder, goes down three
    ways (port dropped, port rejected, process stopped) and comes back each time; a service on
    loopback only is exposed on the server address; two ports are blocked at once."""
    (tmp_path / "index.html").write_text("relay stand-in\n")
    service = net.run(
        [sys.executable, "-m", "http.server", "--bind", net.server, "8101", "--directory", str(tmp_path)],
        name="http-8101",
        wait_port=8101,
    )
    player = net.players["c1"]
    player.forward(8101)
    assert fetch(player, 8101) == "200"
    with net.block(8101, how="drop"):  # silent: the request hangs until the client gives up
        answer, seconds = timed(lambda: fetch(player, 8101, timeout=2))
        assert answer != "200" and seconds >= 2, answer
    assert fetch(player, 8101) == "200"
    with net.block(8101, how="reject"):  # refused at once
        answer, seconds = timed(lambda: fetch(player, 8101, timeout=5))
        assert answer != "200" and seconds < 4, (answer, seconds)
    assert fetch(player, 8101) == "200"
    service.stop()
    assert fetch(player, 8101) != "200"
    service.start()
    assert fetch(player, 8101) == "200"
    # a service on the internet namespace's loopback only (like tools/relay.mjs), exposed
    net.run(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "8102", "--directory", str(tmp_path)],
        name="http-8102",
        wait_port=8102,
    )
    net.expose(8102)
    player.forward(8102)
    assert fetch(player, 8102) == "200"
    with net.block(8101, 8102, how="reject"):
        assert fetch(player, 8101) != "200" and fetch(player, 8102) != "200"
    assert fetch(player, 8101) == fetch(player, 8102) == "200"


def test_stun_blocked_and_players_cut_off(net: Internet) -> None:
    """Blocking the STUN port silences it; a cut player (behind a router or public) reaches nobody
    until the cut is lifted; the other players are not affected."""
    cone, public = net.players["c1"], net.players["a"]
    with net.block(3478, proto="udp"):
        assert cone.stun_mapped((3478, 3479), timeout=0.5)[1][0] is None
    for player in (cone, public):
        cut = player.cut()
        _, mapped = player.stun_mapped((3478,), timeout=0.5)
        assert mapped == [None], (player, mapped)
        assert net.players["b"].stun_mapped((3478,))[1][0] is not None
        cut.lift()
        assert player.stun_mapped((3478,))[1][0] is not None, player


def test_unreachable_address_is_silent(net: Internet) -> None:
    """The dead address answers nothing (no ICMP error either): a STUN server there times out."""
    _, mapped = net.players["a"].stun_mapped((3478,), host=DEAD_ADDRESS, timeout=0.5)
    assert mapped == [None]


# ------------------------------------------------------------------ WebRTC through the networks
def test_public_to_public_is_direct(browsers: Browsers, net: Internet, turn: Turn, paths: list[str]) -> None:
    """No NAT on either side: a direct path (no relay), with STUN only."""
    outcome = run_scenario(browsers, net, paths, "none-none, STUN", "a", "b", turn.ice_servers("stun"))
    assert outcome.connected, outcome.summary()
    assert "relay" not in outcome.types(), outcome.summary()


@pytest.mark.parametrize("offerer, answerer", [("c1", "c2"), ("c2", "c1")])
def test_cone_to_cone_with_stun_only(
    browsers: Browsers, net: Internet, turn: Turn, paths: list[str], offerer: str, answerer: str
) -> None:
    """Two cone NATs behind routers with a firewall, STUN only: a direct path, both ways round."""
    outcome = run_scenario(browsers, net, paths, "cone-cone, STUN", offerer, answerer, turn.ice_servers("stun"))
    assert outcome.connected, outcome.summary()
    assert "relay" not in outcome.types(), outcome.summary()


def test_bare_masquerade_cone_to_cone_with_stun_only_fails(
    browsers: Browsers, net: Internet, turn: Turn, paths: list[str]
) -> None:
    """Two cone NATs on bare MASQUERADE routers (no firewall), STUN only: each router keeps an entry
    for the other's first packet and then maps its own player's packets to another port, so no
    path is found (see ``Internet.player``). Both ways round fail alike; one is checked here."""
    outcome = run_scenario(
        browsers, net, paths, "bare-cone-bare-cone, STUN", "k1", "k2", turn.ice_servers("stun"), wait_s=FAIL_WAIT_S
    )
    assert not outcome.connected, outcome.summary()


@pytest.mark.parametrize(
    "offerer, answerer, title",
    [
        ("c1", "s1", "cone-symmetric, STUN+TURN/UDP"),
        ("s1", "s2", "symmetric-symmetric, STUN+TURN/UDP"),
    ],
)
def test_turn_udp_carries_symmetric_nats(
    browsers: Browsers, net: Internet, turn: Turn, paths: list[str], offerer: str, answerer: str, title: str
) -> None:
    """A symmetric NAT on either side: TURN over UDP relays it."""
    outcome = run_scenario(browsers, net, paths, title, offerer, answerer, turn.ice_servers("stun", "turn-udp"))
    assert outcome.connected, outcome.summary()
    assert "relay" in outcome.types(), outcome.summary()


def test_symmetric_to_symmetric_with_stun_only_fails(
    browsers: Browsers, net: Internet, turn: Turn, paths: list[str]
) -> None:
    """Two symmetric NATs and no TURN: no path, however long one waits (bounded here)."""
    outcome = run_scenario(
        browsers, net, paths, "symmetric-symmetric, STUN", "s1", "s2", turn.ice_servers("stun"), wait_s=FAIL_WAIT_S
    )
    assert not outcome.connected, outcome.summary()
    assert outcome.connect_s >= FAIL_WAIT_S or any("failed" in e for e in outcome.log), outcome.summary()


def test_udp_blocked_goes_through_turn_tcp(browsers: Browsers, net: Internet, turn: Turn, paths: list[str]) -> None:
    """UDP blocked at the player's router, TURN over TCP only: a relay/tcp allocation carries it."""
    outcome = run_scenario(browsers, net, paths, "udp-blocked-cone, TURN/TCP", "u", "c1", turn.ice_servers("turn-tcp"))
    assert outcome.connected, outcome.summary()
    assert outcome.selected is not None
    local = outcome.selected["local"]
    assert (local["type"], local["relayProtocol"]) == ("relay", "tcp"), outcome.summary()


def test_silent_servers_stretch_gathering(browsers: Browsers, net: Internet, turn: Turn, paths: list[str]) -> None:
    """ICE gathering completes only when Chromium gives up on every server that never answers:
    a dead STUN server listed before a working one (c1), and UDP servers behind a UDP-blocking
    router (u, with STUN, TURN/UDP and TURN/TCP). Both offers gather at once and their useful
    candidates come early; the full offers then connect, to answerers whose servers all answer
    (with the same silent list on both sides, a non-trickling answer would wait as long again)."""
    dead_first = [{"urls": f"stun:{DEAD_ADDRESS}:3478"}, *turn.ice_servers("stun")]
    everything = turn.ice_servers("stun", "turn-udp", "turn-tcp")
    cases = [
        ("c1", "a", dead_first, turn.ice_servers("stun"), "cone-none, dead STUN + STUN / STUN"),
        ("u", "c2", everything, everything, "udp-blocked-cone, STUN+TURN/UDP+TURN/TCP"),
    ]
    pages = [pair(browsers, net, offerer, answerer) for offerer, answerer, *_ in cases]
    try:
        for (offerer_page, _), (_, _, ice, _, _) in zip(pages, cases):
            start_offer(offerer_page, ice)
        outcomes = [connect(o, a, case[2], case[3]) for (o, a), case in zip(pages, cases)]
        candidates = [o.evaluate("netsim.candidates") for o, _ in pages]
    finally:
        close_pages(*(page for two in pages for page in two))
    for (offerer, answerer, *_, title), outcome, found in zip(cases, outcomes, candidates):
        arrivals = ", ".join(f"{c['type']}/{c['relayProtocol'] or c['protocol']} {c['at']}" for c in found)
        paths.append(
            f"{title} ({offerer} offers to {answerer}): {outcome.summary()}\n    offerer's candidates (ms): {arrivals}"
        )
        assert outcome.connected, outcome.summary()
        assert outcome.gather_ms[0] > 5000, outcome.summary()  # waited for the silent server(s)
    assert outcomes[1].selected is not None and outcomes[1].selected["local"]["relayProtocol"] == "tcp"
