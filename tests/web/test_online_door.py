"""The host's one door for a peer's text (hearts_web.online.host.HostTable.on_message, which the
page's transport calls directly): admitted once (rate limit, size, the decoder, a rising sequence
number) before anything acts on it, then forward to its handler."""

from __future__ import annotations

import asyncio
import random
import sys
from collections import Counter
from types import FrameType
from typing import Any, cast

from hearts_web.online import decoder
from hearts_web.online.messages import Act, HostProof, Ping, Sit, encode
from test_online import Clock, Net, make_guest, make_host, settle

from hearts import PassCards, Rules, Seat


class _Node:
    def __init__(self, module: str, function: str) -> None:
        self.module, self.function, self.children = module, function, cast(list["_Node"], [])


def walk(call: Any, *args: Any) -> tuple[list[str], Counter[str]]:
    """The stops of ``call(*args)``: the project's modules control passes through, in order, over
    the calls that lead somewhere (a call into nothing more of the project, such as a message's
    constructor, is a step within its caller), a module again after another meaning that control
    came back to it; and how often each function was entered."""
    root = _Node("", "")
    stack = [root]
    entered: Counter[str] = Counter()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        name = frame.f_globals.get("__name__", "")
        if not name.startswith(("hearts_web", "hearts")):
            return
        if event == "call":
            entered[f"{name}.{frame.f_code.co_name}"] += 1
            node = _Node(name, frame.f_code.co_name)
            stack[-1].children.append(node)
            stack.append(node)
        elif event == "return" and len(stack) > 1:
            stack.pop()

    sys.setprofile(profile)
    try:
        call(*args)
    finally:
        sys.setprofile(None)
    modules: list[str] = []

    def visit(node: _Node) -> None:
        if not node.children and node is not root:
            return  # a leaf: a step within its caller
        if node is not root and (not modules or modules[-1] != node.module):
            modules.append(node.module)
        for child in node.children:
            visit(child)
            if node is not root and modules[-1] != node.module:
                modules.append(node.module)  # control is back here

    visit(root)
    return modules, entered


def returns(modules: list[str]) -> int:
    """How many times control went back to a module it had left."""
    return sum(1 for i, name in enumerate(modules) if name in modules[:i])


def seated_table() -> tuple[Any, Any, Clock]:
    clock = Clock()
    net = Net(clock)
    host = make_host(net, clock)
    return host, net, clock


async def ben_at_the_table(sits: bool = False) -> tuple[Any, Clock]:
    """A host, and Ben (peer-1) at its table: said hello (and sat in the West, if ``sits``)."""
    host, net, clock = seated_table()
    pump = asyncio.ensure_future(net.pump())
    ben, _ = make_guest(net, "peer-1", "Ben", random.Random(1), clock)
    ben.hello()
    await settle()
    if sits:
        ben.sit(Seat.WEST, "Ben")
        await settle()
    pump.cancel()
    return host, clock


def test_a_guests_message_is_decoded_once_and_goes_forward() -> None:
    async def scenario() -> None:
        host, _clock = await ben_at_the_table()
        for seq, message in enumerate((Ping(), Sit(Seat.WEST, "Ben")), start=100):
            modules, entered = walk(host.on_message, "peer-1", encode(message, seq))
            assert entered["hearts_web.online.decoder.decode"] == 1, entered
            door = modules[: modules.index("hearts_web.online.host", 1) + 1]  # in, admitted, back
            assert door == [
                "hearts_web.online.host",
                "hearts_web.online.protocol",
                "hearts_web.online.decoder",
                "hearts_web.online.protocol",
                "hearts_web.online.host",
            ], modules
            assert returns(door) <= 3

    asyncio.run(scenario())


def test_nothing_acts_on_a_message_that_the_rate_limit_or_its_number_refuses() -> None:
    async def scenario() -> None:
        host, clock = await ben_at_the_table(sits=True)
        match = await _started(host, clock)
        view = match.view(Seat.WEST)
        act = Act(PassCards(Seat.WEST, view.hand[:3]))
        replayed = encode(act, 1)  # a number the guest has used already
        modules, entered = walk(host.on_message, "peer-1", replayed)
        assert host.log[-1].startswith("dropped a message from peer-1: replayed")
        assert not any(".host_seats." in f or f.endswith("._act") for f in entered), entered
        check = host.checks["peer-1"]
        check.limit.tokens = 0  # the peer's bucket is empty
        modules, entered = walk(host.on_message, "peer-1", encode(act, 10_000))
        assert entered["hearts_web.online.decoder.decode"] == 0  # refused before it is even read
        assert not any(f.endswith("._act") for f in entered)
        assert host.remote[Seat.WEST].early is None and Seat.WEST not in match.hand.passes

    asyncio.run(scenario())


async def _started(host: Any, clock: Clock) -> Any:
    task = asyncio.ensure_future(host.start(Rules()))
    while not task.done():
        await asyncio.sleep(0.01)
        clock.now += 0.5
    host.players(_Never())
    return task.result()


class _Never:
    async def choose(self, view: Any) -> Any:
        await asyncio.Event().wait()

    def refused(self, action: Any, error: Any) -> None:
        pass


def test_a_guest_who_now_hosts_numbers_its_proof_afresh_and_the_proof_goes_to_the_successor_check() -> None:
    """A rival heir was a guest (its messages numbered up to 40) and now hosts a table of its own,
    whose proof is numbered from 1: admitted (each sender's numbers rise on their own), and handed
    to the page's check of a successor, nothing else."""
    host, _net, _clock = seated_table()
    seen: list[tuple[str, HostProof]] = []
    host.on_successor = lambda peer, proof: seen.append((peer, proof))
    host.on_message("peer-9", encode(Ping(), 40))
    proof = HostProof("s" * 86, ())
    host.on_message("peer-9", encode(proof, 1))
    assert seen == [("peer-9", proof)]
    host.on_message("peer-9", encode(proof, 1))  # the same proof again: a replay
    assert len(seen) == 1 and "replayed" in host.log[-1]
    host.on_message("peer-9", encode(Ping(), 39))  # the guest's numbers are its own: still a replay
    assert "replayed" in host.log[-1]
    assert decoder.AT_HOST["host"] is not decoder.GUEST_MESSAGES.get("host")  # a guest sends no proof
