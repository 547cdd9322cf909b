"""A person who comes to a table whose match is under way (hearts_web.online.host): told what is going
on, takes a seat a bot plays from the next hand, and plays it with a deal it can check; over the
fake transport of test_online."""

from __future__ import annotations

import asyncio
import random

from hearts_web.core.i18n import set_lang
from hearts_web.online.guest import HOST_SILENT_AFTER
from hearts_web.online.guest_html import guest_lobby_html
from hearts_web.online.host import DROP_AFTER, FREE_AFTER
from hearts_web.online.messages import Act, LobbySeat, Ping, encode
from test_online import Clock, Net, make_guest, make_host, open_table, seated, settle

from hearts import Action, IllegalAction, Phase, PlayCard, Rules, Seat, SeatView
from hearts.bots import make_bot
from hearts.bots.player import BotPlayer
from hearts.table import play


async def until(condition, limit: int = 200_000) -> None:  # type: ignore[no-untyped-def]
    for _ in range(limit):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the table never got there")


def kinds(seats: tuple[LobbySeat, ...]) -> list[str]:
    return [s.kind for s in seats]


class Held:
    """The host at its screen: a bot that moves only while ``go`` is set (the table waits for it)."""

    def __init__(self) -> None:
        self.bot = BotPlayer(make_bot("medium"), seed="h")
        self.go = asyncio.Event()
        self.go.set()

    async def choose(self, view: SeatView) -> Action:
        await self.go.wait()
        return await self.bot.choose(view)

    def refused(self, action: Action, error: IllegalAction) -> None:
        raise AssertionError(error)


def test_a_late_guest_takes_a_bots_seat_from_the_next_hand_and_checks_its_deal() -> None:
    async def scenario() -> None:
        clock, net, pump, host = open_table()
        ben, _ = await seated(net, clock, "peer-1", "Ben", Seat.WEST, 1)
        match = await host.start(Rules(), max_hands=3)
        south = Held()
        table = asyncio.ensure_future(play(match, host.players(south), host))
        await until(lambda: len(match.hand.plays) >= 6)
        south.go.clear()  # the table waits for the host's next card
        # Cleo opens the invitation: the match is under way, North and East are played by bots
        cleo, page = make_guest(net, "peer-2", "Cleo", random.Random(2), clock)
        cleo.hello()
        await settle()
        assert kinds(page.lobbies[-1]) == ["local", "remote", "free", "free"]
        assert cleo.lobby_seen is not None and cleo.lobby_seen.started
        cleo.sit(Seat.NORTH, "Cleo")
        await settle()
        assert cleo.seat is Seat.NORTH and cleo.token
        assert kinds(page.lobbies[-1]) == ["local", "remote", "joining", "free"]
        assert page.snap is None  # nothing of the hand under way: a bot plays North to its end
        assert host.seats[Seat.NORTH].shown_kind(host.hand) == "bot"
        hand_of_cleo = match.hand_number + 1
        south.go.set()
        await until(lambda: match.hand_number == hand_of_cleo and page.snap is not None)
        assert kinds(page.lobbies[-1]) == ["local", "remote", "remote", "free"]  # she plays now
        assert host.seats[Seat.NORTH].shown_kind(host.hand) == "remote"
        await table
        await settle()
        assert match.is_over and not net.audit_failures
        # she checked the deal of every hand she played, and was told nothing of the one before
        assert page.verified_hands == {h: True for h in range(hand_of_cleo, 3)}  # type: ignore[attr-defined]
        assert page.snap is not None and page.snap.totals == match.scores
        assert [row.points for row in page.snap.sheet] == [row.points for row in match.score_sheet]
        assert ben.seat is Seat.WEST
        pump.cancel()

    asyncio.run(scenario())


def test_the_late_guest_plays_the_moves_of_its_seat_only_from_its_first_hand() -> None:
    """Its seat's moves before its first hand are the bot's: an act sent early is dropped (not kept
    for later), and the guest is never asked."""

    async def scenario() -> None:
        clock, net, pump, host = open_table()
        match = await host.start(Rules(), max_hands=2)
        east = Held()  # the bot at East, which waits for the test's word
        host.stand_in = lambda s: east if s is Seat.EAST else BotPlayer(make_bot("medium"), seed=s.key)
        table = asyncio.ensure_future(play(match, host.players(BotPlayer(make_bot("medium"), seed="h")), host))
        await until(lambda: match.phase is Phase.PLAYING)
        east.go.clear()
        await until(lambda: match.to_act == (Seat.EAST,))
        cleo, page = make_guest(net, "peer-2", "Cleo", random.Random(2), clock)
        cleo.hello()
        await settle()
        cleo.sit(Seat.EAST, "Cleo")
        await settle()
        assert cleo.seat is Seat.EAST and page.snap is None and cleo.asked is None
        card = match.view(Seat.EAST).legal[0]
        cleo.send(Act(PlayCard(Seat.EAST, card)))  # a move its page would not send
        await settle()
        assert host.log[-1].endswith("act for east before its guest's first hand")
        assert host.remote[Seat.EAST].early is None
        east.go.set()
        await table
        await settle()
        assert match.is_over and page.verified_hands == {1: True}  # type: ignore[attr-defined]
        pump.cancel()

    asyncio.run(scenario())


def test_a_seat_whose_guest_is_gone_for_a_minute_becomes_free_and_no_seat_at_match_over() -> None:
    async def scenario() -> None:
        clock, net, pump, host = open_table()
        await seated(net, clock, "peer-1", "Ben", Seat.WEST, 1)
        await seated(net, clock, "peer-2", "Cleo", Seat.NORTH, 2)
        await seated(net, clock, "peer-3", "Dan", Seat.EAST, 3)
        net.guests["peer-1"].events.asleep = True  # type: ignore[attr-defined]
        match = await host.start(Rules(), max_hands=1)
        players = host.players(BotPlayer(make_bot("medium"), seed="h"))  # at once, as the page does
        late, page = make_guest(net, "peer-4", "Eve", random.Random(4), clock)
        late.hello()
        await settle()
        assert kinds(page.lobbies[-1]) == ["local", "remote", "remote", "remote"]  # every seat a person's
        clock.now += DROP_AFTER + 1
        for guest in ("peer-2", "peer-3", "peer-4"):
            net.guests[guest].tick()  # the others keep talking; Ben's tab hangs
        await settle()
        host.tick()
        await settle()
        assert kinds(page.lobbies[-1])[1] == "bot"  # Ben is away: his seat waits for him a while
        late.sit(Seat.WEST, "Eve")
        await settle()
        assert late.seat is None and page.refusals == ["seat_taken"]
        clock.now += FREE_AFTER
        for guest in ("peer-2", "peer-3", "peer-4"):
            net.guests[guest].tick()
        await settle()
        host.tick()
        await settle()
        assert kinds(page.lobbies[-1])[1] == "free"
        late.sit(Seat.WEST, "Eve")
        await settle()
        assert late.seat is Seat.WEST and host.seats[Seat.WEST].name == "Eve"
        await play(match, players, host)
        await settle()
        assert match.is_over
        latest, other = make_guest(net, "peer-5", "Fay", random.Random(5), clock)
        latest.hello()
        await settle()
        latest.sit(Seat.WEST, "Fay")
        await settle()
        assert latest.seat is None and other.refusals == ["started"]  # the match is over: no seat
        pump.cancel()

    asyncio.run(scenario())


def test_what_a_late_guest_reads_in_both_languages() -> None:
    free = (
        LobbySeat(Seat.SOUTH, "local", "Ada"),
        LobbySeat(Seat.WEST, "remote", "Ben"),
        LobbySeat(Seat.NORTH, "free", "Hops"),
        LobbySeat(Seat.EAST, "free", "Shelly"),
    )
    html = guest_lobby_html(free, None, True, "Cleo", 0)
    assert "The match is under way" in html and "from the next hand" in html
    assert html.count('data-action="online-sit"') == 2 and "Hops" in html and "Open seat" not in html
    joining = tuple(LobbySeat(s.seat, "joining", "Cleo") if s.seat is Seat.NORTH else s for s in free)
    html = guest_lobby_html(joining, Seat.NORTH, True, "Cleo", 0)
    assert "You play North from the next hand" in html and 'data-action="online-sit"' not in html
    full = tuple(LobbySeat(s.seat, "remote", s.name) if s.kind == "free" else s for s in free)
    assert "a person plays every seat" in guest_lobby_html(full, None, True, "Cleo", 0)
    try:
        set_lang("de")
        html = guest_lobby_html(joining, Seat.NORTH, True, "Cleo", 0)
        assert "Du spielst Nord ab dem nächsten Spiel" in html
        assert "Die Partie läuft schon" in guest_lobby_html(free, None, True, "Cleo", 0)
    finally:
        set_lang("en")


def test_waiting_for_the_host_stays_until_the_host_speaks_again() -> None:
    """The host's connection closed: "waiting for the host" is said once and stays (the heartbeat
    that follows does not take it back while the host is silent); the host's next message ends it."""

    async def scenario() -> None:
        clock = Clock()
        net = Net(clock)
        pump = asyncio.ensure_future(net.pump())
        make_host(net, clock)
        ben, page = await seated(net, clock, "peer-1", "Ben", Seat.WEST, 1)
        said: list[bool] = []
        page.host_away = said.append  # type: ignore[method-assign]
        ben.host_gone()
        for _ in range(5):  # the heartbeats of the next 10 s
            clock.now += 2.0
            ben.tick()
        assert said == [True] and ben.away
        ben.on_message("host", encode(Ping(), 10_000))
        assert said == [True, False] and not ben.away
        clock.now += HOST_SILENT_AFTER + 1
        ben.tick()
        ben.tick()
        assert said == [True, False, True]  # silent for good: said once more, and it stays
        pump.cancel()

    asyncio.run(scenario())
