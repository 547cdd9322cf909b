"""hearts_web.tabs.protocol: one tab owns the game; another one takes over cleanly and loses no move.

The browser's Web Locks and BroadcastChannel are played by a small in-memory world with the same
rules: one holder, a queue, ``steal``, messages delivered later (never synchronously) to the
other tabs."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from hearts_web.tabs.protocol import Snapshot, Tabs


class World:
    def __init__(self) -> None:
        self.holder: FakeTab | None = None
        self.queue: list[tuple[FakeTab, asyncio.Future[None]]] = []
        self.tabs: list[FakeTab] = []
        self.storage: dict[str, str] = {}

    def grant_next(self) -> None:
        while self.holder is None and self.queue:
            tab, fut = self.queue.pop(0)
            if tab in self.tabs and not fut.done():
                self.holder = tab
                fut.set_result(None)


class FakeTab:
    """A tab: the Platform (lock + channel) and the Host (its game) in one."""

    def __init__(self, world: World, name: str, answers: bool = True) -> None:
        self.world = world
        self.name = name
        self.answers = answers  # False: a frozen tab that gets no messages
        self.calls: list[str] = []
        self.memory: dict[str, str] = {}  # writes the storage refused (held in memory)
        self.tabs = Tabs(self, self, name, handover_seconds=0.2)
        world.tabs.append(self)

    # Platform
    async def try_lock(self) -> bool:
        if self.world.holder is None:
            self.world.holder = self
            return True
        return False

    async def wait_lock(self) -> None:
        fut: asyncio.Future[None] = asyncio.get_event_loop().create_future()
        self.world.queue.append((self, fut))
        self.world.grant_next()
        await fut

    async def steal_lock(self) -> None:
        old, self.world.holder = self.world.holder, self
        if old is not None and old is not self:
            asyncio.get_event_loop().call_soon(old.tabs.on_lost)

    def post(self, message: dict[str, Any]) -> None:
        for other in self.world.tabs:
            if other is not self and other.answers:
                asyncio.get_event_loop().call_soon(other.tabs.on_message, copy.deepcopy(message))

    # Host
    def begin(self, snapshot: Snapshot | None) -> None:
        self.calls.append("begin" + (" with snapshot" if snapshot is not None else ""))
        self.world.storage.update(snapshot or {})

    def stop(self) -> None:
        self.calls.append("stop")

    def snapshot(self) -> Snapshot:
        return {**self.world.storage, **self.memory}

    def show_elsewhere(self, moved: bool) -> None:
        self.calls.append("moved" if moved else "elsewhere")

    # the player
    def move(self, n: int, stored: bool = True) -> None:
        """A move is saved at once (or only held in memory when the storage is full)."""
        assert self.tabs.owner, f"{self.name} moved without owning the game"
        (self.world.storage if stored else self.memory)["hearts.match.v1"] = f"move {n} by {self.name}"

    def close(self) -> None:
        self.world.tabs.remove(self)
        if self.world.holder is self:
            self.world.holder = None
            self.world.grant_next()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_the_first_tab_owns_the_game_and_a_second_one_waits_without_touching_it() -> None:
    async def scenario() -> None:
        world = World()
        a, b = FakeTab(world, "a"), FakeTab(world, "b")
        await a.tabs.start()
        await b.tabs.start()
        await settle()
        assert a.tabs.owner and a.calls == ["begin"]
        assert b.tabs.state == "waiting" and b.calls == ["elsewhere"]  # never began: wrote nothing

    run(scenario())


def test_continue_here_hands_over_every_move_and_stops_the_old_tab_first() -> None:
    async def scenario() -> None:
        world = World()
        a, b = FakeTab(world, "a"), FakeTab(world, "b")
        await a.tabs.start()
        await b.tabs.start()
        a.move(1)
        a.move(2, stored=False)  # the storage was full: only in a's memory
        await b.tabs.take_over()
        await settle()
        assert a.calls == ["begin", "stop", "moved"] and not a.tabs.owner
        assert b.calls == ["elsewhere", "begin with snapshot"] and b.tabs.owner
        assert world.holder is b
        assert world.storage["hearts.match.v1"] == "move 2 by a"  # not one move lost
        b.move(3)
        await a.tabs.take_over()  # and back again
        await settle()
        assert a.tabs.owner and not b.tabs.owner and b.calls[-2:] == ["stop", "moved"]
        assert world.storage["hearts.match.v1"] == "move 3 by b" and world.holder is a

    run(scenario())


def test_a_waiting_tab_starts_by_itself_when_the_owner_closes() -> None:
    async def scenario() -> None:
        world = World()
        a, b = FakeTab(world, "a"), FakeTab(world, "b")
        await a.tabs.start()
        await b.tabs.start()
        await settle()
        a.close()
        await settle()
        assert b.tabs.owner and b.calls == ["elsewhere", "begin"]

    run(scenario())


def test_a_frozen_owner_loses_the_game_when_it_does_not_answer() -> None:
    async def scenario() -> None:
        world = World()
        a, b = FakeTab(world, "a", answers=False), FakeTab(world, "b")
        await a.tabs.start()
        await b.tabs.start()
        await b.tabs.take_over()  # no handover within the time: the lock is taken anyway
        await settle()
        assert b.tabs.owner and b.calls[-1] == "begin" and world.holder is b
        assert a.calls == ["begin", "stop", "moved"] and not a.tabs.owner  # told by the stolen lock

    run(scenario())


def test_with_three_tabs_the_one_that_asked_gets_the_game() -> None:
    async def scenario() -> None:
        world = World()
        a, b, c = FakeTab(world, "a"), FakeTab(world, "b"), FakeTab(world, "c")
        for tab in (a, b, c):
            await tab.tabs.start()
        await settle()
        await c.tabs.take_over()  # b queued first, but c asked
        await settle()
        assert c.tabs.owner and not b.tabs.owner and not a.tabs.owner and world.holder is c
        assert b.calls == ["elsewhere"]
        c.close()
        await settle()
        owners = [t for t in (a, b) if t.tabs.owner]
        assert len(owners) == 1  # exactly one of the others picks it up

    run(scenario())


def test_a_write_by_another_tab_stops_the_owner_until_the_player_goes_on() -> None:
    async def scenario() -> None:
        world = World()
        a = FakeTab(world, "a")
        await a.tabs.start()
        a.tabs.on_foreign_write()
        assert a.calls == ["begin", "stop", "moved"] and not a.tabs.owner
        await a.tabs.take_over()  # it still holds the lock: no other tab to wait for
        assert a.tabs.owner and a.calls[-1] == "begin" and world.holder is a

    run(scenario())


def test_messages_that_are_not_for_this_tab_change_nothing() -> None:
    async def scenario() -> None:
        world = World()
        a = FakeTab(world, "a")
        await a.tabs.start()
        for message in (
            None,
            [],
            {"type": "takeover", "from": "a"},
            {"type": "handover", "to": "a", "data": 5},
            {"type": "???"},
        ):
            a.tabs.on_message(message)
        assert a.tabs.owner and a.calls == ["begin"]

    run(scenario())
