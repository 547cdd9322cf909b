"""The online table without a network: a host and its guests over a fake transport.

Covers what docs/online.md promises: a whole match with guests and bots, the fair deal checked by
every guest, a guest who drops (a bot plays for it) and comes back with its seat token, hostile
messages (illegal, out of turn, for another seat, garbage, oversized, replayed, a flood) that change
nothing, and an audit that no guest ever receives a card it may not see.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import deque
from dataclasses import replace
from typing import Any

import pytest
from hearts_web.data.session import Snapshot
from hearts_web.online import decoder, messages
from hearts_web.online.guest import SIT_AGAIN_AFTER, GuestTable
from hearts_web.online.host import DROP_AFTER, HostTable
from hearts_web.online.messages import LobbySeat
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearts import Action, Event, Match, PassCards, Phase, PlayCard, Rules, Seat, SeatView, match_to_record
from hearts.bots import make_bot
from hearts.bots.player import BotPlayer
from hearts.table import play
from hearts.tally import MatchTally, match_tally

CARD = re.compile(r'"([2-9TJQKA][CDSH])"')


def raw_message(t: str, seq: int, **fields: Any) -> str:
    """A message as any peer could write it (well-formed or not)."""
    return json.dumps({"v": 2, "t": t, "seq": seq, **fields}, separators=(",", ":"))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Net:
    """Delivers messages in order, one event-loop turn later; audits every message to a guest."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock  # a message takes 20 ms: time passes as the table plays
        self.queue: deque[tuple[str, str, str]] = deque()
        self.host: HostTable | None = None
        self.guests: dict[str, GuestTable] = {}
        self.received: dict[str, list[tuple[str, Any]]] = {}
        self.audit_failures: list[str] = []
        self.lost: list[tuple[str, str]] = []  # (to, message type) to lose once each, e.g. ("host", "sit")

    def host_send(self, peer: str, text: str) -> None:
        self.audit(peer, text)
        self.queue.append(("guest", peer, text))

    def guest_send(self, peer: str):  # type: ignore[no-untyped-def]
        return lambda text: self.queue.append(("host", peer, text))

    def audit(self, peer: str, text: str) -> None:
        """Every card named in a message to a guest is its own, passed to it, or already played."""
        host = self.host
        guest = self.guests.get(peer)
        if host is None or host.match is None or guest is None or guest.seat is None:
            return
        m, seat = host.match, guest.seat
        entitled = {c.text for c in m.hand.deal[seat]} | {c.text for c in m.hand.received(seat)}
        entitled |= {c.text for c in m.hand.plays}
        for hand in m.hands[:-1]:  # earlier hands are over: everything was played
            entitled |= {c.text for c in hand.plays}
        extra = set(CARD.findall(text)) - entitled
        if extra:
            self.audit_failures.append(f"{guest.seat.key} was sent {sorted(extra)}")
        self.received.setdefault(peer, []).append((json.loads(text)["t"], m.hand.hand_number))

    async def pump(self) -> None:
        while True:
            while self.queue:
                to, peer, text = self.queue.popleft()
                self.clock.now += 0.02
                kind = (to, json.loads(text)["t"]) if text.startswith("{") else None
                if kind in self.lost:
                    self.lost.remove(kind)  # a message sent while the connection was replaced
                    continue
                if to == "host":
                    assert self.host is not None
                    self.host.on_message(peer, text)
                elif peer in self.guests:
                    self.guests[peer].on_message("host", text)
            await asyncio.sleep(0)


class AutoGuest:
    """A guest's page that answers whenever it is asked, with a random legal action."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.table: GuestTable | None = None
        self.verified: dict[int, bool | None] = {}
        self.refusals: list[str] = []
        self.snap: Snapshot | None = None
        self.lobbies: list[tuple[LobbySeat, ...]] = []
        self.asleep = False
        self.results: list[tuple[MatchTally, str, str]] = []  # what reached the guest's statistics

    def lobby(self, seats: tuple[LobbySeat, ...], started: bool) -> None:
        self.lobbies.append(seats)

    def seated(self, seat: Seat) -> None:
        pass

    def state(self, snap: Snapshot, events: list[Event], asked: SeatView | None) -> None:
        self.snap = snap
        if asked is not None and not self.asleep:
            asyncio.get_event_loop().call_soon(self.answer)

    def answer(self) -> None:
        assert self.table is not None
        view = self.table.asked
        if view is None:
            return
        if view.phase is Phase.PASSING:
            action: Action = PassCards(view.seat, tuple(self.rng.sample(view.hand, 3)))
        else:
            action = PlayCard(view.seat, self.rng.choice(view.legal))
        self.table.submit(action)

    def refused(self, what: str, code: str) -> None:
        self.refusals.append(code)

    def verified_(self, hand: int, ok: bool | None) -> None:
        self.verified[hand] = ok

    verified = None  # replaced per instance below (the protocol's method name is "verified")

    def host_away(self, away: bool) -> None:
        pass

    def closed(self) -> None:
        pass

    def reload_needed(self) -> None:
        pass

    def match_result(self, tally: MatchTally, preset: str, level: str) -> None:
        self.results.append((tally, preset, level))

    def turn(self, turn: messages.Turn) -> None:
        pass

    def reacted(self, seat: Seat, code: str) -> None:
        pass

    def rematch(self, answers: tuple[str, str, str, str], final: bool) -> None:
        pass


def make_guest(net: Net, peer: str, name: str, rng: random.Random, clock: Clock) -> tuple[GuestTable, AutoGuest]:
    page = AutoGuest(rng)
    page.verified = {}  # type: ignore[assignment]
    page.verified_hands = page.verified  # type: ignore[attr-defined]

    def verified(hand: int, ok: bool | None, late: bool = False) -> None:
        page.verified_hands[hand] = "late" if late else ok  # type: ignore[attr-defined]

    page.verified = verified  # type: ignore[assignment]
    table = GuestTable(net.guest_send(peer), page, name, clock=clock)  # type: ignore[arg-type]
    page.table = table
    net.guests[peer] = table
    table.host_peer = "host"  # (the browser checks the host's signature first: see link.py)
    return table, page


def make_host(net: Net, clock: Clock, level: str = "medium") -> HostTable:
    host = HostTable(
        net.host_send,
        host_name="Ada",
        bot_names=["Pip", "Hops", "Shelly"],
        stand_in=lambda s: BotPlayer(make_bot(level), seed=f"stand-in-{s.key}"),
        preset="standard",
        level=level,
        clock=clock,
    )
    net.host = host
    return host


def open_table() -> tuple[Clock, Net, asyncio.Future[None], HostTable]:
    """A host on a fake network and their clock (call inside the event loop); the network delivers
    until ``pump.cancel()``."""
    clock = Clock()
    net = Net(clock)
    return clock, net, asyncio.ensure_future(net.pump()), make_host(net, clock)


async def seated(net: Net, clock: Clock, peer: str, name: str, seat: Seat, seed: int) -> tuple[GuestTable, AutoGuest]:
    """A guest that said hello and sat down at ``seat``."""
    guest, page = make_guest(net, peer, name, random.Random(seed), clock)
    guest.hello()
    await settle()
    guest.sit(seat, name)
    await settle()
    return guest, page


async def start_late(host: HostTable, clock: Clock, **options: Any) -> tuple[Match, list[Any]]:
    """``host.start`` while a part of the shuffle is missing (the fake clock runs past the wait),
    and the table's players, made at once like the page does (before any guest's answer)."""

    async def start() -> tuple[Match, list[Any]]:
        match = await host.start(Rules(), **options)
        return match, host.players(BotPlayer(make_bot("medium"), seed="h"))

    task = asyncio.ensure_future(start())
    while not task.done():
        await asyncio.sleep(0.01)
        clock.now += 0.5
    return task.result()


def silent(guest: GuestTable) -> None:
    """``guest``'s parts of the shuffle never reach the host (its other messages do)."""
    send = guest.send
    guest.send = lambda message: None if isinstance(message, messages.Contrib) else send(message)  # type: ignore[method-assign]


async def settle(turns: int = 50) -> None:
    for _ in range(turns):
        await asyncio.sleep(0)


def test_a_match_with_two_guests_and_a_bot_plays_to_the_end_and_every_deal_checks_out() -> None:
    async def scenario() -> None:
        clock, net, pump, host = open_table()
        g1, p1 = make_guest(net, "peer-1", "Ben", random.Random(1), clock)
        g2, p2 = make_guest(net, "peer-2", "<b>Cleo</b>", random.Random(2), clock)
        g1.hello()
        g2.hello()
        await settle()
        assert p1.lobbies and p1.lobbies[-1][1].kind == "free"
        g1.sit(Seat.WEST, "Ben")
        g2.sit(Seat.EAST, "<b>Cleo</b>")
        await settle()
        assert g1.seat is Seat.WEST and g2.seat is Seat.EAST and g1.token and g2.token != g1.token
        assert [s.shown_kind(host.hand) for s in host.seats] == ["local", "remote", "bot", "remote"]
        match = await host.start(Rules(target=40))
        players = host.players(BotPlayer(make_bot("medium"), seed="host"))
        await play(match, players, host)
        await settle()
        assert match.is_over and not net.audit_failures
        for guest, page in ((g1, p1), (g2, p2)):
            assert page.snap is not None and page.snap.view == match.view(guest.seat)  # type: ignore[arg-type]
            assert page.snap.totals == match.scores and page.snap.phase is Phase.MATCH_OVER
            assert page.verified_hands == {h: True for h in range(len(match.hands))}  # type: ignore[attr-defined]
            # the result reaches the guest's statistics once, as the host's match says (the Q♠ unknown)
            [(tally, preset, level)] = page.results
            assert (preset, level) == ("standard", "medium")  # the rules and level of the host's lobby
            assert tally == replace(match_tally(match, guest.seat), queens=None)  # type: ignore[arg-type]
        assert host.seats[3].name == "<b>Cleo</b>"  # kept as text; the page escapes it when drawing
        pump.cancel()

    asyncio.run(scenario())


def test_a_guest_who_drops_is_played_by_a_bot_and_gets_the_seat_back_with_its_token() -> None:
    async def scenario() -> None:
        clock, net, pump, host = open_table()
        g1, p1 = await seated(net, clock, "peer-1", "Ben", Seat.NORTH, 1)
        match = await host.start(Rules(), max_hands=1)
        table = asyncio.ensure_future(play(match, host.players(BotPlayer(make_bot("medium"), seed="h")), host))
        while len(match.hand.plays) < 8:
            await asyncio.sleep(0)
        p1.asleep = True  # the guest's tab hangs: no more answers, no more heartbeats
        clock.now += DROP_AFTER + 1
        host.tick()
        assert host.seats[Seat.NORTH].peer is None and host.seats[Seat.NORTH].shown_kind(host.hand) == "bot"
        while len(match.hand.plays) < 20:  # the stand-in plays North meanwhile
            await asyncio.sleep(0)
        # the guest reloads: a new connection, the same seat token
        token = g1.token
        back, page = make_guest(net, "peer-1b", "Ben", random.Random(3), clock)
        back.token = token
        back.hello()
        await settle()
        assert back.seat is Seat.NORTH and host.seats[Seat.NORTH].peer == "peer-1b"
        assert page.snap is not None and page.snap.view.hand == match.view(Seat.NORTH).hand or match.is_over
        await table
        assert match.is_over and not net.audit_failures
        pump.cancel()

    asyncio.run(scenario())


@pytest.mark.parametrize("lost", [("host", "sit"), ("guest", "welcome")])
def test_a_seat_request_or_its_welcome_lost_on_the_way_is_asked_again_until_answered(lost: tuple[str, str]) -> None:
    async def scenario() -> None:
        clock, net, pump, host = open_table()
        guest, _ = make_guest(net, "peer-1", "Ben", random.Random(1), clock)
        guest.hello()
        await settle()
        net.lost.append(lost)
        guest.sit(Seat.WEST, "Ben")
        await settle()
        assert guest.seat is None and not net.lost  # the message was lost: no seat yet
        guest.tick()
        await settle()
        assert guest.seat is None  # asked again only after a while, not at every heartbeat
        clock.now += SIT_AGAIN_AFTER
        guest.tick()
        await settle()
        assert guest.seat is Seat.WEST and guest.token == host.seats[Seat.WEST].token
        assert [s.shown_kind(host.hand) for s in host.seats] == ["local", "remote", "bot", "bot"]
        token = guest.token
        clock.now += SIT_AGAIN_AFTER
        guest.tick()
        await settle()
        assert guest.token == token and host.seats[Seat.WEST].peer == "peer-1"  # seated: no more asking
        pump.cancel()

    asyncio.run(scenario())


def test_a_contribution_after_the_deal_does_not_count_and_the_late_guest_is_told_it_could_not_check() -> None:
    """A guest whose part of the shuffle arrives after the host dealt (a slow connection, a reload
    while the deal waited): the host refuses it, so the reveal matches the deal for everyone, and
    that guest hears that its hand could not be checked (not that the host cheated)."""

    async def scenario() -> None:
        clock, net, pump, host = open_table()
        g1, p1 = await seated(net, clock, "peer-1", "Ben", Seat.WEST, 1)
        g2, p2 = await seated(net, clock, "peer-2", "Cleo", Seat.EAST, 2)
        silent(g1)  # Ben's part does not arrive in time, however often he is asked
        match, players = await start_late(host, clock, max_hands=1)
        assert host.fair[0].contributions[Seat.WEST] == "" and host.fair[0].dealt
        g1.send_raw(messages.encode(messages.Contrib(0, g1.hands[0].mine), 10**5))  # it arrives late
        await settle()
        assert host.fair[0].contributions[Seat.WEST] == "" and any("after the deal" in line for line in host.log)
        # Ben reloads before the first card: the new page is not asked for a part of a dealt hand
        back, p3 = make_guest(net, "peer-1b", "Ben", random.Random(3), clock)
        back.token = g1.token
        back.hello()
        await settle()
        assert back.seat is Seat.WEST and not back.hands[0].commit
        del net.guests["peer-1"]
        await play(match, players, host)
        await settle()
        assert p2.verified_hands == {0: True}  # type: ignore[attr-defined]
        assert p3.verified_hands == {0: None}  # type: ignore[attr-defined]  (joined during the hand)
        assert match.is_over and not net.audit_failures
        # a deal that could not be checked is no failed check: both results count
        assert [r[0].points for r in p2.results + p3.results] == [match.scores[Seat.EAST], match.scores[Seat.WEST]]
        pump.cancel()

    asyncio.run(scenario())


def test_a_guest_whose_part_came_late_is_told_so_at_the_reveal() -> None:
    async def scenario() -> None:
        clock, net, pump, host = open_table()
        g1, p1 = await seated(net, clock, "peer-1", "Ben", Seat.NORTH, 1)
        silent(g1)
        match, players = await start_late(host, clock, max_hands=1)
        await play(match, players, host)
        await settle()
        assert p1.verified_hands == {0: "late"}  # type: ignore[attr-defined]
        pump.cancel()

    asyncio.run(scenario())


@pytest.mark.parametrize("lost", [("guest", "commit"), ("host", "contrib")])
def test_a_commitment_or_its_answer_lost_on_the_way_is_asked_again_and_the_deal_checks_out(
    lost: tuple[str, str],
) -> None:
    """A guest that missed the host's commitment (a new host's first words arrive before the guest
    follows it), or whose part was lost: the host tells the commitment again, the guest answers
    with the same part, and the deal checks out (not "could not check", never "failed")."""

    async def scenario() -> None:
        clock, net, pump, host = open_table()
        g1, p1 = await seated(net, clock, "peer-1", "Ben", Seat.NORTH, 1)
        net.lost.append(lost)
        match, players = await start_late(host, clock, max_hands=1)
        assert not net.lost and host.fair[0].contributions[Seat.NORTH] == g1.hands[0].mine
        await play(match, players, host)
        await settle()
        assert p1.verified_hands == {0: True}  # type: ignore[attr-defined]
        assert match.is_over and not net.audit_failures
        pump.cancel()

    asyncio.run(scenario())


def test_hostile_messages_change_nothing_and_the_table_goes_on() -> None:
    async def scenario() -> None:
        clock, net, pump, host = open_table()
        good, page = make_guest(net, "good", "Ben", random.Random(5), clock)
        good.hello()
        await settle()
        good.sit(Seat.WEST, "Ben")
        await settle()
        page.asleep = True  # we answer by hand below
        match = await host.start(Rules(), max_hands=1)
        table = asyncio.ensure_future(play(match, host.players(BotPlayer(make_bot("medium"), seed="h")), host))
        await settle()
        view = good.asked
        assert view is not None and view.phase is Phase.PASSING

        def west_untouched() -> bool:
            hand = match_to_record(match)["hands"][0]
            return "west" not in hand.get("passes", {}) and not hand["plays"]

        seq = [1000]

        def raw(t: str, **fields: Any) -> str:
            seq[0] += 1
            return raw_message(t, seq[0], **fields)

        west_cards = [c.text for c in view.hand]
        south_cards = [c.text for c in match.cards(Seat.SOUTH)]
        hostile = [
            raw("act", action={"type": "pass", "seat": "west", "cards": west_cards[:2]}),  # two cards
            raw("act", action={"type": "pass", "seat": "west", "cards": south_cards[:3]}),  # not in hand
            raw("act", action={"type": "pass", "seat": "south", "cards": south_cards[:3]}),  # another seat
            raw("act", action={"type": "play", "seat": "west", "card": west_cards[0]}),  # wrong phase
            "garbage",
            "{",
            "[]",
            json.dumps({"v": 2, "t": "act", "seq": "x"}),
            "x" * 1_000_000,
            raw_message("act", 5, action={"type": "pass", "seat": "west", "cards": west_cards[:3]}),  # replayed seq
            json.dumps({"v": 99, "t": "hello", "seq": 10**6}),
            raw("sit", seat="east", name="Mallory"),  # already seated
        ]
        for text in hostile:
            host.on_message("good", text)
            await settle(5)
            assert west_untouched(), text[:80]
        # another peer pretending to be the host: the guest does not listen
        before = good.snap
        good.on_message("intruder", raw_message("state", 10**6, snap={}, events=[]))
        good.on_message("intruder", raw_message("closed", 10**6 + 1))
        assert good.snap is before and any("not the host" in line for line in good.log)
        # an intruder without a seat: acts are dropped, the match is unchanged
        for i in range(2000):  # a flood
            host.on_message(
                "intruder", raw_message("act", i, action={"type": "pass", "seat": "west", "cards": west_cards[:3]})
            )
        await settle(5)
        assert west_untouched() and host.checks["intruder"].dropped >= 1950  # the rate limit stops the rest
        assert any("without a seat" in line for line in host.log)
        assert page.refusals == ["wrong_pass_count", "card_not_in_hand", "wrong_phase", "already_seated"]
        page.asleep = False
        good._seq = seq[0]  # the hostile messages above went out under this guest's name and numbers
        page.answer()
        await table
        assert match.is_over and not net.audit_failures
        assert any("another seat" in line for line in host.log) and any("oversized" in line for line in host.log)
        pump.cancel()

    asyncio.run(scenario())


guest_messages = st.lists(
    st.one_of(
        st.text(max_size=40),
        st.builds(
            lambda t, seq, f: raw_message(t, seq, **f),
            st.sampled_from(sorted(decoder.GUEST_MESSAGES)),
            st.integers(-5, 10**6),
            st.dictionaries(
                st.sampled_from(["seat", "name", "token", "action", "hand", "value"]),
                st.none() | st.integers() | st.text(max_size=8),
                max_size=3,
            ),
        ),
        st.builds(
            lambda s, cards: raw_message("act", 10**7, action={"type": "pass", "seat": s, "cards": cards}),
            st.sampled_from(["south", "west", "north", "east"]),
            st.lists(st.sampled_from(["2C", "QS", "AH", "KD", "3S", "9H"]), max_size=4),
        ),
        st.builds(
            lambda s, c: raw_message("act", 10**7 + 1, action={"type": "play", "seat": s, "card": c}),
            st.sampled_from(["south", "west", "north", "east"]),
            st.sampled_from(["2C", "QS", "AH", "KD", "3S", "9H"]),
        ),
    ),
    max_size=25,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=guest_messages)
def test_any_sequence_of_guest_messages_leaves_the_match_valid(messages: list[str]) -> None:
    """Whatever a guest sends: the host never fails, the match stays a valid record, only West's
    own seat is ever moved by West's messages, and West's pass (while the guest is there) is one
    the guest itself sent."""
    from hearts import match_from_record

    async def scenario() -> None:
        clock, net, pump, host = open_table()
        guest, page = make_guest(net, "g", "Ben", random.Random(1), clock)
        page.asleep = True
        guest.hello()
        await settle()
        guest.sit(Seat.WEST, "Ben")
        await settle()
        match = await host.start(Rules(), max_hands=1)
        table = asyncio.ensure_future(play(match, host.players(BotPlayer(make_bot("medium"), seed="h")), host))
        await settle()
        accepted: list[Action | None] = []
        west = host.remote[Seat.WEST]
        answer = west.answer
        west.answer = lambda action: (accepted.append(action), answer(action))[1]  # type: ignore[method-assign]
        sent_passes = set()
        for text in messages:
            try:
                body = json.loads(text)
                if body["t"] == "act" and body["action"]["seat"] == "west" and body["action"]["type"] == "pass":
                    sent_passes.add(tuple(sorted(body["action"]["cards"])))
            except (ValueError, KeyError, TypeError):
                pass
            host.on_message("g", text)
            await settle(3)
            record = match_to_record(match)
            assert match_to_record(match_from_record(record)) == record
            assert all(a is None or a.seat is Seat.WEST for a in accepted)
            passed = record["hands"][0].get("passes", {}).get("west")
            if passed is not None and host.seats[Seat.WEST].peer is not None:
                assert tuple(sorted(passed)) in sent_passes
        table.cancel()
        pump.cancel()

    asyncio.run(scenario())


def test_a_guest_counts_no_result_when_a_deal_fails_its_check() -> None:
    """The host reveals another secret than the one it committed to: the guest says the deal failed
    and keeps the match out of its statistics."""

    async def scenario() -> None:
        clock, net, pump, host = open_table()
        g1, p1 = await seated(net, clock, "peer-1", "Ben", Seat.WEST, 1)
        match = await host.start(Rules(), max_hands=1)
        reveal = host.reveal

        def cheat(hand: int) -> None:
            host.fair[hand].secret = "0" * 32
            reveal(hand)

        host.reveal = cheat  # type: ignore[method-assign]
        await play(match, host.players(BotPlayer(make_bot("medium"), seed="h")), host)
        await settle()
        assert match.is_over and p1.verified_hands == {0: False}  # type: ignore[attr-defined]
        assert p1.results == [] and g1.deal_failed and any("not counted" in line for line in g1.log)
        pump.cancel()

    asyncio.run(scenario())
