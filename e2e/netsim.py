"""Simulated networks for the online table's browser tests: home routers, phone NATs, a STUN/TURN
server and signalling relays, all inside Linux network namespaces on this machine.

Runs as root (network namespaces, veth pairs, iptables). Nothing leaves the machine: every address
lives in a namespace made here; the host's own namespace gets no interface, route or rule.

Topology::

    "internet" namespace  <prefix>-inet: bridge br0 with the server address 10.77.0.1 (services:
    |                     TURN/STUN, relays) and a dead address 10.77.0.2 that drops every packet
    +-- player nat="none":         its own namespace, public address 10.77.0.N on the bridge
    |                              (drops incoming mDNS: the bridge is not a LAN between players)
    +-- router <prefix>-r-NAME:    WAN 10.77.0.N, LAN 192.168.1.1/24, iptables NAT
        +-- player <prefix>-p-NAME: 192.168.1.2 (every home has the same private subnet)

NAT kinds (the router's iptables, verified with STUN and WebRTC by e2e/test_netsim.py):
  none         no router: the player's address is public
  cone         MASQUERADE: keeps the source port, same mapping for every destination
               (endpoint-independent mapping, port-restricted filtering)
  symmetric    MASQUERADE --random-fully: a new port for every destination
  udp-blocked  cone, and the router drops all UDP (only TCP leaves: TURN over TCP)
Every router also has a firewall (``firewall=True``): unsolicited packets to the router itself are
dropped, as home routers do. ``firewall=False`` (a bare MASQUERADE) breaks cone-to-cone hole
punching; see ``Internet.player``.

Use from a test::

    with Internet() as net:                       # cleans stale leftovers of crashed runs first
        turn = net.turn(user="u", password="p")   # coturn on 10.77.0.1:3478 (UDP+TCP)
        relay = net.run(["node", "tools/relay.mjs", "--port", "8001"], wait_port=8001)
        net.expose(8001)                          # 10.77.0.1:8001 -> the relay on the inet's loopback
        ada = net.player("ada", nat="cone")       # nat: none | cone | symmetric | udp-blocked
        ada.forward(8001)                         # ada's 127.0.0.1:8001 -> 10.77.0.1:8001
        url = ada.serve("dist", connect_src=["ws://127.0.0.1:8001/"])
        browser = playwright.chromium.launch(**ada.chromium_launch_options())
        ice = turn.ice_servers("stun", "turn-udp")  # RTCConfiguration.iceServers
        with net.block(8001, 8002, how="reject"): # relay ports refused (how="drop": silent) ...
            ...                                   # ... until the with block ends
        relay.stop(); relay.start()               # or the relay process itself down and up
        gone = ada.cut()                          # ada's router drops everything; gone.lift()

Everything made carries the prefix ``hn<pid>-<n>`` (namespaces, temp dir) and is removed on exit;
``cleanup_stale()`` (run by ``Internet.start``) removes leftovers of dead processes.
Command line: ``python3 e2e/netsim.py cleanup`` (remove leftovers), ``python3 e2e/netsim.py stun
HOST PORT...`` (print the mapped addresses seen by one UDP socket, as JSON; run it in a namespace).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, get_args

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__":  # run as a script (the STUN probe in a namespace): the tools from the root
    sys.path[0] = str(ROOT)

from tools.chromium import CHROMIUM_ARGS, chromium_executable  # noqa: E402

__all__ = [
    "BASE_PREFIX",
    "DEAD_ADDRESS",
    "NAT_KINDS",
    "SERVER_ADDRESS",
    "Fault",
    "Internet",
    "NatKind",
    "NetsimError",
    "NetsimUnavailable",
    "Player",
    "Process",
    "Turn",
    "check_requirements",
    "chromium_args",
    "chromium_executable",
    "cleanup_stale",
    "stun_mapped_addresses",
]

BASE_PREFIX = "hn"
INTERNET = "10.77.0"  # the "internet": one /24 on a bridge
SERVER_ADDRESS = f"{INTERNET}.1"  # services (STUN/TURN, relays) listen here
DEAD_ADDRESS = f"{INTERNET}.2"  # answers ARP, then drops every packet: an unreachable server
HOME_SUBNET = "192.168.1"  # every home's LAN (router .1, player .2), as real homes share 192.168.1.0/24
NatKind = Literal["none", "cone", "symmetric", "udp-blocked"]
NAT_KINDS: tuple[str, ...] = get_args(NatKind)
IceKind = Literal["stun", "turn-udp", "turn-tcp"]

# tool -> Debian package that provides it
REQUIRED_TOOLS = {
    "ip": "iproute2",
    "ss": "iproute2",
    "bridge": "iproute2",
    "iptables": "iptables",
    "socat": "socat",
    "turnserver": "coturn",
    "turnutils_stunclient": "coturn",
}
SBIN = ("/usr/local/sbin", "/usr/sbin", "/sbin")


class NetsimError(RuntimeError):
    """A command of the harness failed (the message names the command and its output)."""


class NetsimUnavailable(NetsimError):
    """This machine cannot run simulated networks: not root, or a tool is missing."""


# ------------------------------------------------------------------ commands
def tool(name: str) -> str:
    """Absolute path of a tool, also looking in the sbin folders a non-login PATH may lack."""
    found = shutil.which(name) or shutil.which(name, path=os.pathsep.join(SBIN))
    if found is None:
        package = REQUIRED_TOOLS.get(name, name)
        raise NetsimUnavailable(
            f"netsim: '{name}' is missing (Debian package {package}; ./scripts/test nat installs it as root)"
        )
    return found


def check_requirements(tools: Sequence[str] = tuple(REQUIRED_TOOLS)) -> None:
    """Raise NetsimUnavailable naming what is missing: root, or one of ``tools``."""
    if os.geteuid() != 0:
        raise NetsimUnavailable("netsim needs root (network namespaces, veth pairs, iptables)")
    missing = [
        f"'{t}' (Debian package {REQUIRED_TOOLS.get(t, t)})"
        for t in tools
        if shutil.which(t) is None and shutil.which(t, path=os.pathsep.join(SBIN)) is None
    ]
    if missing:
        raise NetsimUnavailable(f"netsim: missing {', '.join(missing)}; ./scripts/test nat installs them as root")


def run(
    args: Sequence[str], ns: str | None = None, check: bool = True, timeout: float = 30
) -> subprocess.CompletedProcess[str]:
    """Run a command to completion, in namespace ``ns`` if given; raise NetsimError on failure."""
    argv = [tool("ip"), "netns", "exec", ns, *args] if ns else list(args)
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        raise NetsimError(f"timed out after {timeout}s: {shlex.join(argv)}") from exc
    if check and result.returncode != 0:
        raise NetsimError(
            f"failed ({result.returncode}): {shlex.join(argv)}\n{(result.stderr or result.stdout).strip()}"
        )
    return result


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """``ip ARGS`` in the host's namespace (use ``ip -n NS ...`` to act inside one)."""
    return run([tool("ip"), *args], check=check)


# ------------------------------------------------------------------ stale leftovers
def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _kill_namespace_processes(ns: str) -> None:
    """SIGKILL every process still inside namespace ``ns`` (Chromium, socat, coturn, ...)."""
    pids = ip("netns", "pids", ns, check=False).stdout.split()
    for pid in pids:
        try:
            os.kill(int(pid), signal.SIGKILL)
        except (ProcessLookupError, ValueError):
            pass


def _delete_namespace(ns: str) -> None:
    _kill_namespace_processes(ns)
    ip("netns", "delete", ns, check=False)


def unavailable() -> str | None:
    """Why the simulated networks cannot run here (not root, a tool or Chromium missing), or None."""
    try:
        check_requirements()
    except NetsimUnavailable as exc:
        return str(exc)
    return None if chromium_executable() else "netsim: no system chromium"


def cleanup_stale(base: str = BASE_PREFIX) -> list[str]:
    """Remove namespaces and temp dirs ``<base><pid>-...`` whose process is dead; return their names."""
    owner = re.compile(rf"^{re.escape(base)}(\d+)-")
    removed: list[str] = []
    for line in ip("netns", "list").stdout.splitlines():
        name = line.split(" ", 1)[0]
        match = owner.match(name)
        if match and not _pid_alive(int(match.group(1))):
            _delete_namespace(name)
            removed.append(name)
    for path in Path(tempfile.gettempdir()).glob(f"{base}*-*"):
        match = owner.match(path.name)
        if match and path.is_dir() and not _pid_alive(int(match.group(1))):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(str(path))
    return removed


# ------------------------------------------------------------------ processes and faults
@dataclass
class Process:
    """A long-running process inside a namespace, its output in ``log``. ``stop()`` and ``start()``
    take it down and up again (a relay that goes away and comes back)."""

    name: str
    ns: str
    cmd: list[str]
    log: Path
    env: dict[str, str] | None = None
    cwd: Path = ROOT
    wait_port: int | None = None
    wait_proto: Literal["tcp", "udp"] = "tcp"
    popen: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    def start(self, timeout: float = 15) -> Process:
        """Start (again); with ``wait_port``, return once something listens on it in the namespace."""
        if self.running:
            raise NetsimError(f"{self.name} is already running")
        with open(self.log, "ab") as out:
            out.write(f"--- {time.strftime('%H:%M:%S')} start: {shlex.join(self.cmd)}\n".encode())
            out.flush()
            self.popen = subprocess.Popen(
                [tool("ip"), "netns", "exec", self.ns, *self.cmd],
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                cwd=self.cwd,
                env=self.env,
                start_new_session=True,
            )
        if self.wait_port is not None:
            self.wait_listening(self.wait_port, self.wait_proto, timeout)
        return self

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def stop(self, timeout: float = 5) -> None:
        """SIGTERM the process group, SIGKILL it after ``timeout`` seconds."""
        if self.popen is None:
            return
        for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 5.0)):
            if self.popen.poll() is not None:
                break
            try:
                os.killpg(self.popen.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.popen.wait(wait)
            except subprocess.TimeoutExpired:
                continue
        self.popen = None

    def restart(self, timeout: float = 15) -> Process:
        self.stop()
        return self.start(timeout)

    def output(self, last: int = 30) -> str:
        """The last lines of the process's output (for error messages)."""
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-last:])
        except FileNotFoundError:
            return ""

    def wait_listening(self, port: int, proto: Literal["tcp", "udp"] = "tcp", timeout: float = 15) -> None:
        """Wait until a socket listens on ``port`` in the namespace; fail early if the process died."""
        deadline = time.monotonic() + timeout
        flags = "-Hltn" if proto == "tcp" else "-Hlun"
        while True:
            if self.popen is None or self.popen.poll() is not None:
                code = None if self.popen is None else self.popen.returncode
                raise NetsimError(f"{self.name} exited ({code}) before listening on {proto}/{port}:\n{self.output()}")
            if run([tool("ss"), "-N", self.ns, flags, f"sport = :{port}"]).stdout.strip():
                return
            if time.monotonic() > deadline:
                raise NetsimError(f"{self.name} does not listen on {proto}/{port} after {timeout}s:\n{self.output()}")
            time.sleep(0.05)


@dataclass
class Fault:
    """A network fault in force until ``lift()`` (or the end of a ``with`` block): commands run in
    namespace ``ns`` to apply it, others to lift it. Applying or lifting twice is harmless."""

    ns: str
    on: list[list[str]]
    off: list[list[str]]
    active: bool = False

    @classmethod
    def iptables(cls, ns: str, rules: Sequence[Sequence[str]]) -> Fault:
        """A fault made of iptables rules, each a chain and a match (``["INPUT", "-j", "DROP"]``):
        inserted first in their chains, deleted when lifted."""
        iptables = [tool("iptables"), "-w"]
        return cls(ns, [[*iptables, "-I", *r] for r in rules], [[*iptables, "-D", *r] for r in rules])

    def apply(self) -> Fault:
        if not self.active:
            for argv in self.on:
                run(argv, ns=self.ns)
            self.active = True
        return self

    def lift(self) -> None:
        if self.active:
            for argv in self.off:
                run(argv, ns=self.ns, check=False)
            self.active = False

    def __enter__(self) -> Fault:
        return self.apply()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.lift()


# ------------------------------------------------------------------ TURN
@dataclass(frozen=True)
class Turn:
    """coturn (STUN + TURN over UDP and TCP, long-term credentials) on ``host:port``."""

    host: str
    port: int
    user: str
    password: str
    process: Process

    def url(self, kind: IceKind) -> str:
        """``stun:H:P``, ``turn:H:P?transport=udp`` or ``turn:H:P?transport=tcp``."""
        if kind == "stun":
            return f"stun:{self.host}:{self.port}"
        return f"turn:{self.host}:{self.port}?transport={kind.removeprefix('turn-')}"

    def ice_servers(self, *kinds: IceKind) -> list[dict[str, Any]]:
        """RTCConfiguration.iceServers for the given kinds (default: STUN only)."""
        servers: list[dict[str, Any]] = []
        for kind in kinds or ("stun",):
            entry: dict[str, Any] = {"urls": self.url(kind)}
            if kind != "stun":
                entry.update(username=self.user, credential=self.password)
            servers.append(entry)
        return servers


TURN_CONFIG = """\
# coturn for a simulated network (written by e2e/netsim.py)
listening-ip={host}
relay-ip={host}
listening-port={port}
min-port=49152
max-port=65535
lt-cred-mech
user={user}:{password}
realm=netsim.test
fingerprint
no-tls
no-dtls
no-cli
no-multicast-peers
userdb={dir}/turndb-{port}
pidfile={dir}/turnserver-{port}.pid
log-file=stdout
simple-log
"""


# ------------------------------------------------------------------ Chromium
def chromium_args(exclude: Sequence[str] = (SERVER_ADDRESS, DEAD_ADDRESS)) -> list[str]:
    """The project's CHROMIUM_ARGS for a simulated network.

    Host resolver rules: names still resolve nowhere (MAP * ~NOTFOUND), except loopback, the
    addresses in ``exclude`` (Chromium opens TURN over TCP through its proxy-resolving sockets,
    which these rules cover even for address literals: without the EXCLUDE, TURN/TCP is silently
    never tried) and ``*.local`` (without camera/microphone permission the host candidates are
    mDNS names, as for a real player; they must resolve). No --allow-loopback-in-peer-connection:
    the peers talk over the simulated network, not over loopback.
    """
    rules = [
        "MAP * ~NOTFOUND",
        "EXCLUDE 127.0.0.1",
        "EXCLUDE localhost",
        *(f"EXCLUDE {host}" for host in exclude),
        "EXCLUDE *.local",
    ]
    kept = [
        a
        for a in CHROMIUM_ARGS
        if not a.startswith("--host-resolver-rules=") and a != "--allow-loopback-in-peer-connection"
    ]
    return [*kept, f"--host-resolver-rules={' , '.join(rules)}"]


# ------------------------------------------------------------------ namespaces
class _Host:
    """A network namespace of a simulated network, in which commands and processes run."""

    def __init__(self, net: Internet, ns: str, label: str) -> None:
        self.net = net
        self.ns = ns
        self.label = label

    def exec(self, args: Sequence[str], check: bool = True, timeout: float = 30) -> subprocess.CompletedProcess[str]:
        """Run a command to completion in this namespace."""
        return run(args, ns=self.ns, check=check, timeout=timeout)

    def run(
        self,
        cmd: Sequence[str],
        name: str | None = None,
        env: dict[str, str] | None = None,
        wait_port: int | None = None,
        proto: Literal["tcp", "udp"] = "tcp",
        timeout: float = 15,
    ) -> Process:
        """Start a long-running process here (stopped when the network closes). With ``wait_port``,
        return once it listens on that port."""
        name = name or Path(cmd[0]).name
        log = self.net.tmp / f"{self.label}-{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}.log"
        proc = Process(name, self.ns, list(cmd), log, env=env, wait_port=wait_port, wait_proto=proto)
        self.net._processes.append(proc)
        return proc.start(timeout)

    def iptables(self, *args: str) -> None:
        run([tool("iptables"), "-w", *args], ns=self.ns)

    def stun_mapped(
        self, ports: Sequence[int] = (3478,), host: str = SERVER_ADDRESS, timeout: float = 1.0
    ) -> tuple[int, list[tuple[str, int] | None]]:
        """Send STUN binding requests from ONE UDP socket in this namespace to ``host`` at each of
        ``ports``; return the socket's local port and the mapped address each answer reported
        (None: no answer). Same mapped port for every destination = cone; different = symmetric."""
        out = self.exec(
            [sys.executable, str(Path(__file__).resolve()), "stun", host, *map(str, ports), "--timeout", str(timeout)],
            timeout=30,
        ).stdout
        data = json.loads(out)
        mapped = [None if m is None else (str(m[0]), int(m[1])) for m in data["mapped"]]
        return int(data["local_port"]), mapped


class Player(_Host):
    """A player's namespace (``nat="none"``: on the internet bridge itself; otherwise behind its own
    router namespace). ``address`` is its own, ``public_address`` what the internet sees."""

    def __init__(
        self,
        net: Internet,
        name: str,
        nat: NatKind,
        ns: str,
        router: str | None,
        address: str,
        public_address: str,
        bridge_port: str,
        firewall: bool,
    ) -> None:
        super().__init__(net, ns, name)
        self.name = name
        self.nat = nat
        self.firewall = firewall  # the router drops unsolicited packets to itself
        self.router = router
        self.address = address
        self.public_address = public_address
        self.bridge_port = bridge_port  # its (or its router's) veth on the internet bridge
        self.url: str | None = None

    def __repr__(self) -> str:
        return (
            f"Player({self.name!r}, nat={self.nat!r}, firewall={self.firewall}, "
            f"address={self.address}, public={self.public_address})"
        )

    def forward(self, port: int, to_port: int | None = None, host: str = SERVER_ADDRESS) -> Process:
        """socat on this player's own 127.0.0.1:``port`` to ``host``:``to_port`` (default: same
        port): the page accepts only loopback relays (ws://127.0.0.1:PORT/)."""
        return self.run(
            [tool("socat"), f"TCP-LISTEN:{port},bind=127.0.0.1,reuseaddr,fork", f"TCP:{host}:{to_port or port}"],
            name=f"forward-{port}",
            wait_port=port,
        )

    def serve(self, directory: str | Path, connect_src: Sequence[str] = (), port: int = 8000) -> str:
        """The game's static server (tools/serve.py, netlify.toml's headers) for ``directory`` on
        this player's own 127.0.0.1:``port``, with ``connect_src`` (loopback relays) added to the
        CSP. Returns its URL (also kept in ``self.url``)."""
        cmd = [
            sys.executable,
            str(ROOT / "tools" / "serve.py"),
            "--port",
            str(port),
            "--dir",
            str(Path(directory).resolve()),
            "--quiet",
        ]
        for src in connect_src:
            cmd += ["--connect-src", src]
        self.run(cmd, name=f"serve-{port}", wait_port=port)
        self.url = f"http://127.0.0.1:{port}/"
        return self.url

    def chromium_launch_options(
        self,
        args: Sequence[str] = (),
        executable: str | None = None,
        exclude: Sequence[str] = (SERVER_ADDRESS, DEAD_ADDRESS),
    ) -> dict[str, Any]:
        """Keyword arguments for Playwright's ``chromium.launch``: a generated wrapper runs Chromium
        inside this player's namespace (Playwright's --remote-debugging-pipe fds survive
        ``ip netns exec``). Grant no camera/microphone: host candidates stay mDNS names."""
        exe = executable or chromium_executable()
        if not exe:
            raise NetsimUnavailable("netsim: no system chromium (HEARTS_CHROMIUM or `chromium` on PATH)")
        wrapper = self.net.tmp / f"chromium-{self.name}"
        wrapper.write_text(
            f"#!/bin/sh\n# Chromium in {self.ns} (written by e2e/netsim.py)\n"
            f"exec {shlex.quote(tool('ip'))} netns exec {shlex.quote(self.ns)} "
            f'{shlex.quote(exe)} "$@"\n'
        )
        wrapper.chmod(0o755)
        return {"executable_path": str(wrapper), "args": [*chromium_args(exclude), *args]}

    def cut(self) -> Fault:
        """Cut this player off the internet entirely, silently (packets vanish both ways; its own
        loopback, page and server keep working): behind a router, the router drops everything;
        a public player's port on the internet bridge stops forwarding. ``lift()`` to undo."""
        if self.router is not None:
            return Fault.iptables(self.router, [["FORWARD", "-j", "DROP"]]).apply()
        bridge = [tool("bridge"), "link", "set", "dev", self.bridge_port, "state"]
        return Fault(self.net.ns, [[*bridge, "0"]], [[*bridge, "3"]]).apply()


class Internet(_Host):
    """A simulated internet: a namespace with a bridge, the server address where services run, and
    players attached directly or behind routers. Use as a context manager: everything it made
    (namespaces, processes, temp dir) is removed on exit, also after an error."""

    _count = 0  # Internets made by this process: part of the prefix

    def __init__(self, base: str = BASE_PREFIX) -> None:
        check_requirements()
        Internet._count += 1
        self.prefix = f"{base}{os.getpid()}-{Internet._count}"
        self.base = base
        self.server = SERVER_ADDRESS
        self.dead_address = DEAD_ADDRESS
        self.players: dict[str, Player] = {}
        self.turns: list[Turn] = []
        self._namespaces: list[str] = []
        self._processes: list[Process] = []
        self.tmp = Path(tempfile.gettempdir()) / self.prefix  # made by start()
        super().__init__(self, f"{self.prefix}-inet", "inet")

    def __enter__(self) -> Internet:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def start(self) -> Internet:
        """Clean stale leftovers of dead runs, then make the internet namespace and its bridge."""
        cleanup_stale(self.base)
        try:
            self.tmp.mkdir(mode=0o755)
            self._add_namespace(self.ns)
            for args in (
                ["link", "add", "br0", "type", "bridge"],
                ["link", "set", "br0", "up"],
                ["addr", "add", f"{SERVER_ADDRESS}/24", "dev", "br0"],
                ["addr", "add", f"{DEAD_ADDRESS}/24", "dev", "br0"],
            ):
                ip("-n", self.ns, *args)
            self.iptables("-A", "INPUT", "-d", DEAD_ADDRESS, "-j", "DROP")
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        """Stop every process, delete every namespace (killing what still runs there), remove the
        temp dir. Never raises for things already gone."""
        for proc in reversed(self._processes):
            try:
                proc.stop()
            except Exception:
                pass
        for ns in reversed(self._namespaces):
            _delete_namespace(ns)
        self._namespaces.clear()
        self._processes.clear()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def _add_namespace(self, ns: str, forward: bool = False) -> None:
        ip("netns", "add", ns)
        self._namespaces.append(ns)
        ip("-n", ns, "link", "set", "lo", "up")
        # IPv4 only: the NAT kinds are IPv4 iptables; no IPv6 link-local path around them
        settings = {
            "net/ipv6/conf/all/disable_ipv6": 1,
            "net/ipv6/conf/default/disable_ipv6": 1,
            "net/ipv4/ip_forward": int(forward),
        }
        script = "; ".join(f"echo {v} > /proc/sys/{k}" for k, v in settings.items())
        run(["sh", "-ec", script], ns=ns)

    def _attach(self, ns: str, index: int, inner: str) -> tuple[str, str]:
        """A veth from the bridge into ``ns`` (named ``inner`` there) with the next public address."""
        if index > 240:
            raise NetsimError("netsim: at most 240 players or routers on one internet")
        port, address = f"w{index}", f"{INTERNET}.{10 + index}"
        ip("-n", self.ns, "link", "add", port, "type", "veth", "peer", "name", inner, "netns", ns)
        ip("-n", self.ns, "link", "set", port, "master", "br0", "up")
        ip("-n", ns, "addr", "add", f"{address}/24", "dev", inner)
        ip("-n", ns, "link", "set", inner, "up")
        ip("-n", ns, "route", "add", "default", "via", SERVER_ADDRESS)
        return port, address

    def player(self, name: str, nat: NatKind = "cone", firewall: bool = True) -> Player:
        """A player: ``nat="none"`` on the bridge with a public address, else behind its own router
        (LAN 192.168.1.0/24, the player at .2) doing that kind of NAT.

        ``firewall`` (routers only): the router drops unsolicited packets sent to itself, as home
        routers do. Without it (a bare MASQUERADE), the peer's first hole-punching packet is
        delivered to the router itself, conntrack keeps an [UNREPLIED] entry for it, and the
        player's own packet to that peer then leaves from ANOTHER port: cone to cone over STUN
        alone never connects (checked with conntrack -L). With it, that entry is never confirmed
        and cone to cone connects directly."""
        if nat not in NAT_KINDS:
            raise ValueError(f"nat must be one of {NAT_KINDS}, not {nat!r}")
        if not re.fullmatch(r"[a-z0-9]{1,16}", name) or name in self.players:
            raise ValueError(f"player name must be new and [a-z0-9]{{1,16}}: {name!r}")
        ns, index = f"{self.prefix}-p-{name}", len(self.players) + 1
        self._add_namespace(ns)
        if nat == "none":
            port, address = self._attach(ns, index, "eth0")
            # Public players share the bridge, one LAN: their mDNS host candidates would resolve
            # each other's names (multicast), which the real internet never does. Not here.
            run([tool("iptables"), "-w", "-A", "INPUT", "-p", "udp", "--dport", "5353", "-j", "DROP"], ns=ns)
            player = Player(self, name, nat, ns, None, address, address, port, False)
        else:
            router = f"{self.prefix}-r-{name}"
            self._add_namespace(router, forward=True)
            port, public = self._attach(router, index, "wan")
            self._home(router, ns)
            self._nat(router, nat, firewall)
            player = Player(self, name, nat, ns, router, f"{HOME_SUBNET}.2", public, port, firewall)
        self.players[name] = player
        return player

    def _home(self, router: str, ns: str) -> None:
        """The home LAN: router .1 (interface lan), player .2 (eth0), default route via the router."""
        ip("-n", router, "link", "add", "lan", "type", "veth", "peer", "name", "eth0", "netns", ns)
        ip("-n", router, "addr", "add", f"{HOME_SUBNET}.1/24", "dev", "lan")
        ip("-n", router, "link", "set", "lan", "up")
        ip("-n", ns, "addr", "add", f"{HOME_SUBNET}.2/24", "dev", "eth0")
        ip("-n", ns, "link", "set", "eth0", "up")
        ip("-n", ns, "route", "add", "default", "via", f"{HOME_SUBNET}.1")

    def _nat(self, router: str, nat: NatKind, firewall: bool) -> None:
        """The router's iptables for one NAT kind (and its firewall, see ``player``)."""
        rules = [["-t", "nat", "-A", "POSTROUTING", "-o", "wan", "-j", "MASQUERADE"]]
        if nat == "symmetric":
            rules[0].append("--random-fully")
        if nat == "udp-blocked":
            rules.append(["-A", "FORWARD", "-p", "udp", "-j", "DROP"])
        if firewall:
            rules.append(["-A", "INPUT", "-i", "wan", "-m", "conntrack", "--ctstate", "NEW", "-j", "DROP"])
        for rule in rules:
            run([tool("iptables"), "-w", *rule], ns=router)

    def expose(self, port: int, to_port: int | None = None) -> Process:
        """socat on the server address's ``port`` to this namespace's 127.0.0.1:``to_port``: for a
        service that listens on loopback only (such as tools/relay.mjs)."""
        return self.run(
            [
                tool("socat"),
                f"TCP-LISTEN:{port},bind={SERVER_ADDRESS},reuseaddr,fork",
                f"TCP:127.0.0.1:{to_port or port}",
            ],
            name=f"expose-{port}",
            wait_port=port,
        )

    def block(
        self, *ports: int, proto: Literal["tcp", "udp"] = "tcp", how: Literal["drop", "reject"] = "drop"
    ) -> Fault:
        """Take the server's ``ports`` off the network (already applied; ``lift()`` or a ``with``
        block ends it): e.g. two of three relays down at once. ``drop``: packets vanish and
        connections hang (a host gone silent); ``reject``: TCP resets / ICMP port unreachable,
        connections fail at once (a service down). Established connections are hit too; the
        processes keep running (``Process.stop()`` closes their connections instead)."""
        if not ports:
            raise ValueError("block() needs at least one port")
        target = (
            ["DROP"]
            if how == "drop"
            else ["REJECT", "--reject-with", "tcp-reset" if proto == "tcp" else "icmp-port-unreachable"]
        )
        rules = [["INPUT", "-d", SERVER_ADDRESS, "-p", proto, "--dport", str(port), "-j", *target] for port in ports]
        return Fault.iptables(self.ns, rules).apply()

    def turn(self, user: str = "u", password: str = "p", port: int = 3478, timeout: float = 20) -> Turn:
        """Start coturn (STUN + TURN on UDP and TCP ``port``, long-term credentials, no TLS) on the
        server address; return once it answers a STUN binding request."""
        config = self.tmp / f"turnserver-{port}.conf"
        config.write_text(
            TURN_CONFIG.format(host=SERVER_ADDRESS, port=port, user=user, password=password, dir=self.tmp)
        )
        proc = self.run(
            [tool("turnserver"), "-c", str(config)],
            name=f"turnserver-{port}",
            wait_port=port,
            proto="udp",
            timeout=timeout,
        )
        proc.wait_listening(port, "tcp", timeout)
        deadline = time.monotonic() + timeout
        while True:  # turnutils_stunclient waits forever for a lost answer: bound each try
            try:
                answer = self.exec(
                    [tool("turnutils_stunclient"), "-p", str(port), SERVER_ADDRESS], check=False, timeout=2
                ).stdout
            except NetsimError as exc:
                answer = str(exc)
            if "reflexive addr" in answer:
                break
            if not proc.running or time.monotonic() > deadline:
                raise NetsimError(
                    f"turnserver does not answer STUN on {SERVER_ADDRESS}:{port}:\n{answer}\n{proc.output()}"
                )
            time.sleep(0.2)
        turn = Turn(SERVER_ADDRESS, port, user, password, proc)
        self.turns.append(turn)
        return turn


# ------------------------------------------------------------------ a STUN client
STUN_MAGIC = 0x2112A442


def _stun_parse(data: bytes, txid: bytes) -> tuple[str, int] | None:
    """The (XOR-)MAPPED-ADDRESS of a STUN binding success response with this transaction id."""
    if len(data) < 20 or data[8:20] != txid:
        return None
    kind, length, magic = struct.unpack("!HHI", data[:8])
    if kind != 0x0101 or magic != STUN_MAGIC:
        return None
    found: tuple[str, int] | None = None
    offset = 20
    while offset + 4 <= min(len(data), 20 + length):
        attr, size = struct.unpack("!HH", data[offset : offset + 4])
        value = data[offset + 4 : offset + 4 + size]
        if attr in (0x0020, 0x0001) and size >= 8 and value[1] == 0x01:  # IPv4
            port, addr = struct.unpack("!HI", value[2:8])
            if attr == 0x0020:
                port, addr = port ^ (STUN_MAGIC >> 16), addr ^ STUN_MAGIC
            found = (socket.inet_ntoa(struct.pack("!I", addr)), port)
            if attr == 0x0020:
                return found
        offset += 4 + (size + 3) // 4 * 4
    return found


def _stun_binding(sock: socket.socket, host: str, port: int, timeout: float, tries: int) -> tuple[str, int] | None:
    txid = os.urandom(12)
    request = struct.pack("!HHI", 0x0001, 0, STUN_MAGIC) + txid
    for _ in range(tries):
        sock.sendto(request, (host, port))
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            try:
                data = sock.recv(2048)
            except (TimeoutError, ConnectionRefusedError):
                break
            mapped = _stun_parse(data, txid)
            if mapped is not None:
                return mapped
    return None


def stun_mapped_addresses(
    host: str, ports: Sequence[int], timeout: float = 1.0, tries: int = 2
) -> tuple[int, list[tuple[str, int] | None]]:
    """From ONE UDP socket, ask the STUN server ``host`` at each port for our mapped address.
    Returns (local port, mapped address or None per port). Runs in the calling namespace."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("0.0.0.0", 0))
        local_port = int(sock.getsockname()[1])
        return local_port, [_stun_binding(sock, host, p, timeout, tries) for p in ports]


def main(argv: Sequence[str] | None = None) -> int:
    """``netsim.py cleanup`` | ``netsim.py stun HOST PORT... [--timeout S]``."""
    import argparse

    parser = argparse.ArgumentParser(description="Simulated networks for the online table's tests.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("cleanup", help="remove namespaces and temp dirs left by dead runs")
    stun = sub.add_parser("stun", help="mapped addresses seen from one UDP socket (JSON)")
    stun.add_argument("host")
    stun.add_argument("ports", type=int, nargs="+")
    stun.add_argument("--timeout", type=float, default=1.0)
    args = parser.parse_args(argv)
    if args.command == "cleanup":
        check_requirements(("ip",))
        for name in cleanup_stale():
            print(f"removed {name}")
        return 0
    local, mapped = stun_mapped_addresses(args.host, args.ports, args.timeout)
    print(json.dumps({"local_port": local, "mapped": mapped}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
