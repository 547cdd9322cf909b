#!/usr/bin/env python3
"""Half-open joins when two pages leave and join one room again (a probe of Trystero, not a test).

    unshare --net --map-root-user sh -c 'ip link set lo up && exec "$@"' netns \\
        .venv/bin/python -m lab.browser.rejoin [--rounds 30] [--delays 0,0.08,0.16,0.24,0.32,0.4]

Two pages of dist/ (served on 127.0.0.1, a local relay: tools/relay.mjs) load the online table's
transport (web/online.js) alone, without the game, and join one room. Each round, page B leaves and
joins again, and page A does the same after the round's delay (``--delays``, in turn; ``--one``:
only B). A round is met when each page lists the other as a peer within ``--wait`` seconds;
otherwise it is half-open or worse, and the events of both pages are printed (joins, leaves, and
Trystero's join errors: "handshake timed out" on the side that never joined). Prints how many
rounds of each delay were not met. ``--heal``: a page told of a half-open join leaves and joins
again at once, as a guest searching its host does (``HostSearch.half_open``).

Run it again when Trystero changes: a peer's join that reaches a room while it is being left
(Trystero connects it, then the room goes) leaves the peer's new room joined on its side only.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from playwright.sync_api import Page, sync_playwright

from lab.browser.online import in_netns, relay_and_site
from tools.chromium import CHROMIUM_ARGS, chromium_executable

JOIN = """async ([relay, tag, heal]) => {
  const transport = await import('/web/online.js');
  const t0 = performance.now();
  const say = (text) => window.events.push(`${(performance.now() - t0) | 0} ms ${text}`);
  window.events = [];
  const debug = console.debug;
  console.debug = (...words) => { say(words.join(' ')); debug(...words); };
  window.join = () => {
    window.room = transport.connect(
      {appId: 'lab-rejoin', relays: [relay], iceServers: [], relayOnly: false}, 'room', {
        message: () => {},
        join: (peer) => say(`join ${peer.slice(0, 6)}`),
        leave: (peer) => say(`leave ${peer.slice(0, 6)}`),
        relays: () => {},
        noPath: (peer) => say(`no path ${peer.slice(0, 6)}`),
        halfOpen: (peer) => { say(`half open ${peer.slice(0, 6)}`); if (heal) window.rejoin(); },
      }, 10000);
    say(`${tag} joined`);
  };
  window.rejoin = async () => { say(`${tag} rejoins`); await window.room.leave(); window.join(); };
  window.join();
}"""


def cli() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--delays", default="0,0.08,0.16,0.24,0.32,0.4", help="seconds from B's rejoin to A's")
    parser.add_argument("--one", action="store_true", help="only page B rejoins")
    parser.add_argument("--wait", type=float, default=14.0, help="seconds a round may take to meet")
    parser.add_argument(
        "--heal", action="store_true", help="a page told of a half-open join joins again at once (as a guest does)"
    )
    return parser


def met(a: Page, b: Page) -> bool:
    return bool(a.evaluate("window.room.peers().length") and b.evaluate("window.room.peers().length"))


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    delays = [float(d) for d in args.delays.split(",")]
    if not in_netns():
        print("lab.browser.rejoin: run me inside a network namespace (see the docstring)", file=sys.stderr)
        return 2
    missed: Counter[float] = Counter()
    tried: Counter[float] = Counter()
    with relay_and_site() as (relay, base):
        with sync_playwright() as p:
            browser = p.chromium.launch(
                args=CHROMIUM_ARGS + ["--allow-loopback-in-peer-connection"], executable_path=chromium_executable()
            )
            pages = []
            for tag in "AB":
                ctx = browser.new_context(base_url=base)
                ctx.grant_permissions(["camera", "microphone"], origin=base)  # loopback ICE candidates
                page = ctx.new_page()
                page.goto("/web/style.css")  # a page of the site without the game (nor its CSP)
                page.evaluate(JOIN, [relay, tag, args.heal])
                pages.append(page)
            a, b = pages
            deadline = time.time() + args.wait
            while not met(a, b):
                if time.time() > deadline:
                    print("the two pages never met: is dist/ built?", file=sys.stderr)
                    return 1
                time.sleep(0.1)
            for n in range(args.rounds):
                delay = delays[n % len(delays)]
                b.evaluate("window.rejoin()")
                if not args.one:
                    time.sleep(delay)
                    a.evaluate("window.rejoin()")
                time.sleep(0.05)
                start = time.time()
                while not met(a, b) and time.time() - start < args.wait:
                    time.sleep(0.1)
                ok = met(a, b)
                tried[delay] += 1
                print(f"round {n + 1} (delay {delay} s): {'met' if ok else 'NOT MET'} in {time.time() - start:.1f} s")
                if not ok:
                    missed[delay] += 1
                    for tag, page in (("A", a), ("B", b)):
                        print(f"  {tag}: {page.evaluate('window.events.slice(-10)')}")
                time.sleep(0.5)
            browser.close()
    mode = "B alone" if args.one else "both"
    print(f"\nrejoins ({mode}) not met within {args.wait:.0f} s: {sum(missed.values())} of {args.rounds}")
    if not args.one:
        for delay in sorted(tried):
            print(f"  delay {delay} s: {missed[delay]} of {tried[delay]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
