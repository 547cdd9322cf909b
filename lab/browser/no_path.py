"""When a guest whose network blocks every path to the host first reads why, on simulated networks.

Runs as root (network namespaces, NAT routers, coturn: see e2e/netsim.py), on the built game
(``python3 tools/build.py`` first). Each round is a fresh table: the host creates it, the guest
opens the link and presses Join; the guest's page then records, every 250 ms, each of its peer
connections' ICE state and its candidate pairs' states (``getStats``). Prints, per topology, the
seconds from Join to the first offer/answer exchange, to the peer's first word on a candidate pair
(a check or its answer), to ICE connected, to the host met (the seats offered), to every pair
failed, to ICE ``failed``, and to the page's first words about the network
(``[data-online-trouble]``, never where a path exists), and what those words were::

    python3 -m lab.browser.no_path --rounds 3
    python3 -m lab.browser.no_path --rounds 3 --topologies sym-sym,udp-turnudp
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
if TYPE_CHECKING:
    from nat_harness import World
    from netsim import IceKind, NatKind
else:
    IceKind = NatKind = str

# name: (host's NAT, guest's NAT, ICE servers); the first three have no path between the two
TOPOLOGIES: dict[str, tuple[NatKind, NatKind, tuple[IceKind, ...]]] = {
    "sym-sym": ("symmetric", "symmetric", ("stun",)),
    "sym-sym-none": ("symmetric", "symmetric", ()),
    "udp-turnudp": ("cone", "udp-blocked", ("stun", "turn-udp")),
    "cone-cone": ("cone", "cone", ("stun",)),
    "sym-sym-turn": ("symmetric", "symmetric", ("stun", "turn-udp")),
    "udp-turntcp": ("cone", "udp-blocked", ("turn-tcp",)),
}

PROBE = """() => {
  const t0 = performance.now();
  window.__probe = {t0, rows: [], trouble: null, said: null};
  const tick = async () => {
    const pcs = [...((window.__heartsOnlinePCs || {open: new Set()}).open)];
    for (const [i, pc] of pcs.entries()) {
      if (!pc.remoteDescription) continue;
      const stats = await pc.getStats();
      const pairs = [];
      let sent = 0, heard = 0;
      stats.forEach((r) => {
        if (r.type !== 'candidate-pair') return;
        pairs.push(r.state);
        sent += r.requestsSent || 0;
        heard += (r.requestsReceived || 0) + (r.responsesReceived || 0);
      });
      const local = [], remote = [];
      stats.forEach((r) => {
        if (r.type === 'local-candidate') local.push(r.candidateType);
        if (r.type === 'remote-candidate') remote.push(r.candidateType);
      });
      window.__probe.rows.push({t: performance.now() - t0, pc: i, ice: pc.iceConnectionState,
        gathering: pc.iceGatheringState, pairs, local, remote, sent, heard});
    }
    const el = document.querySelector('[data-online-trouble]');
    if (el && window.__probe.trouble === null) {
      window.__probe.trouble = performance.now() - t0;
      window.__probe.said = el.dataset.onlineTrouble + ': ' + el.textContent.slice(0, 80);
    }
  };
  setInterval(tick, 250);
}"""


def person(topology: str, role: str) -> str:
    return f"{''.join(w[0] for w in topology.split('-'))}{list(TOPOLOGIES).index(topology)}{role}"


def first(rows: list[dict[str, Any]], test: Any) -> float | None:
    return next((r["t"] / 1000 for r in rows if test(r)), None)


def round_(world: World, name: str, wait_s: float, verbose: bool = False) -> dict[str, Any]:
    from nat_harness import WAIT_MS, host_table

    ice = TOPOLOGIES[name][2]
    host, guest = world.people[person(name, "host")], world.people[person(name, "guest")]
    link = host_table(host.page(), world, "Host", *ice)
    page = guest.page()
    page.goto(link)
    page.wait_for_selector("html.ready", state="attached", timeout=WAIT_MS)
    page.fill("#online-name", "Guest")
    page.click("[data-action='online-join']")
    page.evaluate(PROBE)
    end = time.monotonic() + wait_s
    seated = "document.querySelector(\"[data-action='online-sit']\") !== null"
    while time.monotonic() < end and page.evaluate("window.__probe.trouble") is None and not page.evaluate(seated):
        page.wait_for_timeout(500)
    met = time.monotonic() - (end - wait_s) if page.evaluate(seated) else None
    page.wait_for_timeout(1000)
    probe = page.evaluate("window.__probe")
    host.close()
    guest.close()
    rows = probe["rows"]
    return {
        "exchange": first(rows, lambda r: True),
        "heard": first(rows, lambda r: r["heard"] > 0),
        "connected": first(rows, lambda r: r["ice"] in ("connected", "completed")),
        "host_met": met,
        "all_failed": first(rows, lambda r: r["pairs"] and all(s == "failed" for s in r["pairs"])),
        "ice_failed": first(rows, lambda r: r["ice"] == "failed"),
        "said": None if probe["trouble"] is None else probe["trouble"] / 1000,
        "words": probe["said"],
        "rows": rows if verbose else None,
        "last": rows[-1] if rows else None,
    }


def cli() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="fresh tables per topology (default 3)")
    parser.add_argument("--topologies", default="sym-sym,sym-sym-none,udp-turnudp", help=", ".join(TOPOLOGIES))
    parser.add_argument("--wait", type=float, default=90.0, help="seconds to wait for the page's words")
    parser.add_argument("--verbose", action="store_true", help="print every row the page recorded")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = cli().parse_args(argv)
    sys.path.insert(0, str(ROOT / "e2e"))
    from nat_harness import make_world

    names = [n for n in args.topologies.split(",") if n]
    people: dict[str, NatKind] = {}
    for n in names:
        people[person(n, "host")], people[person(n, "guest")] = TOPOLOGIES[n][0], TOPOLOGIES[n][1]
    results: dict[str, list[dict[str, Any]]] = {}
    with sync_playwright() as p, make_world(p, people) as world:
        for name in names:
            for i in range(args.rounds):
                row = round_(world, name, args.wait, args.verbose)
                results.setdefault(name, []).append(row)
                print(f"  {name} round {i + 1}: {json.dumps(row)}", flush=True)
    print("\nseconds from Join (median of the rounds; '-' never):")
    for name, rows in results.items():
        cells = []
        for key in ("exchange", "heard", "connected", "host_met", "all_failed", "ice_failed", "said"):
            values = [r[key] for r in rows if r[key] is not None]
            cells.append(
                f"{key} {statistics.median(values):5.1f} ({len(values)}/{len(rows)})" if values else f"{key} -"
            )
        print(f"{name:<14} " + ", ".join(cells) + f"; words: {rows[-1]['words']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
