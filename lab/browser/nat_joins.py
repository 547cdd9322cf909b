"""How long a guest takes from opening the invitation to its seat, on simulated networks.

Runs as root (network namespaces, routers that NAT with iptables, coturn: see e2e/netsim.py), on
the built game (``python3 tools/build.py`` first). Each join is a fresh table: the host opens the
page and creates it, the guest opens the link in a fresh browser profile and sits down; the time
counts from opening the link (page load included) to the guest's seat. Prints the median and the
slowest per topology, and how many were seated within 10 s::

    python3 -m lab.browser.nat_joins --joins 10
    python3 -m lab.browser.nat_joins --joins 10 --topologies sym-sym-turn --relays-down 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
# the simulated networks' harness lives with the e2e suite (imported when a run starts)
if TYPE_CHECKING:
    from nat_harness import World
    from netsim import IceKind, NatKind
else:
    IceKind = NatKind = str

# name: (host's NAT, guest's NAT, ICE servers)
TOPOLOGIES: dict[str, tuple[NatKind, NatKind, tuple[IceKind, ...]]] = {
    "cone-cone": ("cone", "cone", ("stun",)),
    "cone-cone-turn": ("cone", "cone", ("stun", "turn-udp")),
    "sym-sym-turn": ("symmetric", "symmetric", ("stun", "turn-udp")),
    "cone-udpblocked-turn": ("cone", "udp-blocked", ("stun", "turn-udp", "turn-tcp")),
}


def person(topology: str, role: str) -> str:
    """A person's name in the simulated network (letters and digits, at most 16)."""
    return f"{''.join(w[0] for w in topology.split('-'))}{list(TOPOLOGIES).index(topology)}{role}"


def joins(world: World, name: str, count: int) -> list[tuple[float, list[str]]]:
    """``count`` joins of a fresh table: (seconds to the seat, the guest's selected ICE pairs)."""
    from nat_harness import host_table, join, pairs

    _host_nat, _guest_nat, ice = TOPOLOGIES[name]
    out = []
    for i in range(count):
        host, guest = world.people[person(name, "host")], world.people[person(name, "guest")]
        link = host_table(host.page(), world, "Host", *ice)
        page = guest.page()
        took = join(page, link, "Guest")
        out.append((took, pairs(page)))
        print(f"  {name} join {i + 1}: {took:.1f} s {out[-1][1]}", flush=True)
        host.close()
        guest.close()
    return out


def _topologies(text: str) -> str:
    unknown = [n for n in text.split(",") if n and n not in TOPOLOGIES]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown topology {unknown[0]!r}")
    return text


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--joins", type=int, default=10, help="joins per topology (default 10)")
    parser.add_argument(
        "--topologies",
        default="cone-cone,sym-sym-turn",
        type=_topologies,
        help=f"comma-separated, of {', '.join(TOPOLOGIES)}",
    )
    parser.add_argument(
        "--relays-down",
        type=int,
        default=0,
        choices=(0, 1, 2),
        help="relays taken down (dropped) before the joins, of three",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = cli().parse_args(argv)
    sys.path.insert(0, str(ROOT / "e2e"))
    from nat_harness import RELAY_PORTS, make_world

    names = [n for n in args.topologies.split(",") if n]
    people: dict[str, NatKind] = {}
    for n in names:
        people[person(n, "host")], people[person(n, "guest")] = TOPOLOGIES[n][0], TOPOLOGIES[n][1]
    results = {}
    with sync_playwright() as p, make_world(p, people) as world:
        down = world.net.block(*RELAY_PORTS[: args.relays_down]) if args.relays_down else None
        try:
            for name in names:
                results[name] = joins(world, name, args.joins)
        finally:
            if down is not None:
                down.lift()
    print(
        f"\nguest seated after opening the link (page load included), {args.joins} joins each, "
        f"{3 - args.relays_down} of 3 relays up:"
    )
    for name, rows in results.items():
        times = [t for t, _ in rows]
        paths = sorted({path for _, found in rows for path in found})
        print(
            f"{name:<22} median {statistics.median(times):5.1f} s, slowest {max(times):5.1f} s, "
            f"within 10 s: {sum(t <= 10 for t in times)} of {len(times)}; paths {paths}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
