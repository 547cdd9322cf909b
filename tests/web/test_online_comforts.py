"""The online table's comforts without a network: the turn timer (a fake clock), quick reactions
(validated and rate-limited like every message) and the rematch at match over (the same guests,
a fresh fair deal)."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable
from typing import Any

from hearts_web.online.host import REACTION_BURST, REACTION_RATE, HostTable
from hearts_web.online.messages import Turn
from hearts_web.online.rematch import RematchOffer
from hearts_web.online.timer import BACK, LATE, TimedSeat, TurnTimer
from hearts_web.table.players import HumanPlayer, play_forced
from test_online import Clock, Net, make_guest, make_host, raw_message, seated, settle

from hearts import Action, PassCards, Phase, PlayCard, Rules, Seat, SeatView, match_to_record
from hearts.bots import make_bot
from hearts.bots.player import BotPlayer
from hearts.table import play


class Idle:
    """A person who never answers (a phone in a pocket)."""

    def __init__(self) -> None:
        self.asked: list[SeatView] = []
        self.cancelled = 0

    async def choose(self, view: SeatView) -> Action:
        self.asked.append(view)
        try:
            await asyncio.get_event_loop().create_future()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        raise AssertionError("unreachable")

    def refused(self, action: Action, error: Exception) -> None:
        raise AssertionError("an idle person makes no move")


def bot(seed: str) -> BotPlayer:
    return BotPlayer(make_bot("medium"), seed=seed)


# ------------------------------------------------------------------ the timer itself
def test_the_timer_says_late_at_the_deadline_and_back_when_the_person_returns() -> None:
    async def scenario() -> None:
        clock = Clock()
        timer = TurnTimer(30, clock)
        changes: list[Turn] = []
        timer.on_change = lambda: changes.append(timer.message())
        signal = timer.ask(Seat.WEST)
        assert timer.left(Seat.WEST) == 30 and changes[-1].left == (None, 30000, None, None)
        clock.now += 29.9
        assert timer.tick() == [] and not signal.done()
        clock.now += 0.1
        assert timer.tick() == [Seat.WEST] and signal.result() == LATE
        assert timer.auto == {Seat.WEST} and changes[-1].auto == (False, True, False, False)
        assert timer.ask(Seat.WEST).result() == LATE  # a bot plays for it now: at once
        back = timer.watch(Seat.WEST)
        assert timer.back(Seat.WEST) and back.result() == BACK and timer.auto == set()
        assert not timer.back(Seat.WEST)  # nothing to take back
        off = TurnTimer(0, clock)
        never = off.ask(Seat.NORTH)
        clock.now += 10**6
        assert off.tick() == [] and not never.done() and off.left(Seat.NORTH) is None

    asyncio.run(scenario())


def test_a_person_who_does_not_act_is_played_for_and_takes_the_seat_back_with_a_tap() -> None:
    """The host's own seat follows the rule: an idle person, a bot's move after the limit, then
    the person's next answer wins the race against the bot and ends the bot's play."""

    async def scenario() -> None:
        clock = Clock()
        timer = TurnTimer(60, clock)
        from hearts import Match

        match = Match(Rules(), seed="timer")
        view = match.view(Seat.SOUTH)
        person, lost = Idle(), []
        seat = TimedSeat(person, bot("stand-in"), timer, on_lost=lambda: lost.append(1))
        task = asyncio.ensure_future(seat.choose(view))
        await settle()
        assert not task.done() and person.asked == [view]
        clock.now += 60
        timer.tick()
        action = await task
        assert isinstance(action, PassCards) and action.seat is Seat.SOUTH and lost == [1]
        assert person.cancelled == 1 and Seat.SOUTH in timer.auto
        # the next question: the bot moves at once, unless the person taps first
        quick = asyncio.get_event_loop().create_future()

        class Taps(Idle):
            async def choose(self, view: SeatView) -> Action:
                return await quick

        seat.person = Taps()
        task = asyncio.ensure_future(seat.choose(view))
        mine = PassCards(Seat.SOUTH, view.hand[:3])
        quick.set_result(mine)
        assert await task == mine and Seat.SOUTH not in timer.auto

    asyncio.run(scenario())


# ------------------------------------------------------------------ at the table
async def seated_pair(clock: Clock, net: Net, timer: int = 0) -> tuple[HostTable, Any, Any, Any, Any]:
    host = make_host(net, clock)
    host.set_timer(timer)
    g1, p1 = await seated(net, clock, "peer-1", "Ben", Seat.WEST, 1)
    g2, p2 = await seated(net, clock, "peer-2", "Cleo", Seat.EAST, 2)
    return host, g1, p1, g2, p2


def test_a_guest_who_idles_is_played_for_after_the_timer_and_takes_back_the_seat() -> None:
    async def scenario() -> None:
        clock = Clock()
        net = Net(clock)
        pump = asyncio.ensure_future(net.pump())
        host, g1, p1, g2, p2 = await seated_pair(clock, net, timer=30)
        turns: list[Turn] = []
        p1.turn = turns.append
        p1.asleep = True  # Ben's phone is in his pocket
        match = await host.start(Rules(), max_hands=1)
        table = asyncio.ensure_future(play(match, host.players(bot("h")), host))
        await settle()
        left = host.timer.left(Seat.WEST)
        assert left is not None and 29 < left <= 30 and match.hand.passes[Seat.WEST] is None
        shown = turns[-1].left[Seat.WEST] if turns else None
        assert shown is not None and 29000 < shown <= 30000 and turns[-1].limit == 30
        for _ in range(31):  # the guests stay connected (heartbeats) while Ben does not act
            clock.now += 1
            for t in (host, g1, g2):
                t.tick()
            await settle()
        await settle(200)
        assert match.hand.passes[Seat.WEST] is not None and g1.auto  # the bot passed for Ben, and everyone is told
        assert turns[-1].auto == (False, True, False, False) and g2.timer is not None and g2.timer.auto[Seat.WEST]
        while not (match.hand.plays and len(match.hand.plays) >= 8):
            await asyncio.sleep(0)  # the bot plays West's cards at once now
        # Ben is back: one tap
        g1.back()
        await settle()
        assert not g1.auto and Seat.WEST not in host.timer.auto
        p1.asleep = False
        p1.answer()  # (answers when asked from now on)
        await table
        assert match.is_over and not net.audit_failures
        west = [m for m in match_to_record(match)["hands"][0]["plays"]]
        assert len(west) == 52
        pump.cancel()

    asyncio.run(scenario())


def test_reactions_reach_the_others_and_a_flood_is_refused_without_disturbing_the_game() -> None:
    async def scenario() -> None:
        clock = Clock()
        net = Net(clock)
        pump = asyncio.ensure_future(net.pump())
        host, g1, p1, g2, p2 = await seated_pair(clock, net)
        seen: list[tuple[Seat, str]] = []
        at_host: list[tuple[Seat, str]] = []
        p2.reacted = lambda seat, code: seen.append((seat, code))
        own: list[Seat] = []
        p1.reacted = lambda seat, code: own.append(seat) if seat is Seat.WEST else None
        host.on_reaction = lambda seat, code: at_host.append((seat, code))
        match = await host.start(Rules(), max_hands=1)
        table = asyncio.ensure_future(play(match, host.players(bot("h")), host))
        g1.react("thumbs")
        await settle()
        assert seen == [(Seat.WEST, "thumbs")] and at_host == [(Seat.WEST, "thumbs")]
        host.react(Seat.SOUTH, "gg")  # the host's own
        await settle()
        assert seen[-1] == (Seat.SOUTH, "gg") and at_host == [(Seat.WEST, "thumbs")]
        # not a reaction of the list, free text, a field too many: refused by the decoder
        for text in (
            raw_message("react", 10**5, code="hello"),
            raw_message("react", 10**5 + 1, code="<b>"),
            raw_message("react", 10**5 + 2, code="wow", text="hi"),
        ):
            host.on_message("peer-1", text)
        await settle()
        assert len(seen) == 2 and any("malformed react" in line for line in host.log)
        g1._seq = 10**5 + 2
        began = clock.now
        for _ in range(200):  # a flood
            g1.react("party")
        await settle(100)
        flood = [s for s in seen[2:] if s == (Seat.WEST, "party")]
        allowed = REACTION_BURST + (clock.now - began) * REACTION_RATE  # the burst, then the rate (time passes)
        assert 1 <= len(flood) <= allowed < 10 and any("reactions too often" in line for line in host.log)
        clock.now += 2.5  # a while later, one goes through again
        g1.react("wow")
        await settle()
        assert seen[-1] == (Seat.WEST, "wow")
        await table  # the game went on undisturbed
        assert match.is_over and not net.audit_failures and not own  # nobody gets its own reaction back
        pump.cancel()

    asyncio.run(scenario())


def test_a_rematch_keeps_the_guests_who_agree_and_deals_the_new_match_fairly() -> None:
    async def scenario() -> None:
        clock = Clock()
        net = Net(clock)
        pump = asyncio.ensure_future(net.pump())
        host, g1, p1, g2, p2 = await seated_pair(clock, net)
        offers: list[tuple[tuple[str, ...], bool]] = []
        p1.rematch = lambda answers, final: offers.append((answers, final))
        p2.rematch = lambda answers, final: None
        match = await host.start(Rules(), max_hands=1)
        await play(match, host.players(bot("h")), host)
        await settle()
        assert match.is_over and p1.verified_hands == {0: True}  # type: ignore[attr-defined]
        g2.again()  # Cleo says yes before the host offers
        await settle()
        host.offer_rematch()
        await settle()
        assert offers[-1] == (("host", "asked", "bot", "yes"), False)
        g1.again()
        await settle()
        assert (
            offers[-1] == (("host", "yes", "bot", "yes"), True) and host.rematch is not None and host.rematch.complete
        )
        token = g1.token
        host.close_rematch()
        assert [s.kind for s in host.seats] == ["local", "remote", "bot", "remote"]
        match2 = await host.start(Rules(), max_hands=1)
        await play(match2, host.players(bot("h2")), host)
        await settle()
        assert match2.is_over and match2.hands[0].deal != match.hands[0].deal
        assert g1.seat is Seat.WEST and g1.token == token
        assert p1.verified_hands == {0: True}  # type: ignore[attr-defined]
        assert len(p1.results) == 2 and len(p2.results) == 2  # both matches count for both guests
        pump.cancel()

    asyncio.run(scenario())


def test_a_guest_who_leaves_or_does_not_answer_gets_a_bot_in_the_new_match() -> None:
    async def scenario() -> None:
        clock = Clock()
        net = Net(clock)
        pump = asyncio.ensure_future(net.pump())
        host, g1, p1, g2, p2 = await seated_pair(clock, net)
        finals: list[tuple[str, ...]] = []
        p1.rematch = lambda answers, final: finals.append(answers) if final else None
        p2.rematch = lambda answers, final: None
        match = await host.start(Rules(), max_hands=1)
        table = asyncio.ensure_future(play(match, host.players(bot("h")), host))
        g1.again()  # before the match is over: out of place, dropped
        await settle()
        assert any("out of place" in line for line in host.log)
        await table
        await settle()
        host.offer_rematch()
        await settle()
        host.peer_left("peer-2")  # Cleo leaves instead
        await settle()
        assert host.rematch is not None and host.rematch.answers == ["host", "asked", "bot", "bot"]
        host.close_rematch()  # the host starts without waiting for Ben
        await settle()
        assert finals == [("host", "bot", "bot", "bot")] and g1.seat is None and g1.token is None
        assert [s.kind for s in host.seats] == ["local", "bot", "bot", "bot"]
        assert [s.name for s in host.seats[1:]] == ["Pip", "Hops", "Shelly"]
        pump.cancel()

    asyncio.run(scenario())


def test_rematch_answers() -> None:
    offer = RematchOffer.of({Seat.WEST, Seat.NORTH}, {Seat.NORTH})
    assert offer.answers == ["host", "asked", "yes", "bot"] and not offer.complete
    assert offer.agree(Seat.WEST) and not offer.agree(Seat.EAST) and offer.complete
    assert offer.leave(Seat.NORTH) and offer.ask_again(Seat.NORTH) and not offer.complete
    assert offer.close() == {Seat.WEST} and offer.answers == ["host", "yes", "bot", "bot"]


def test_a_guest_that_reloads_while_a_bot_plays_for_it_plays_again() -> None:
    async def scenario() -> None:
        clock = Clock()
        net = Net(clock)
        pump = asyncio.ensure_future(net.pump())
        host, g1, p1, g2, p2 = await seated_pair(clock, net, timer=30)
        host.timer.auto.add(Seat.WEST)
        back, _ = make_guest(net, "peer-1b", "Ben", random.Random(3), clock)
        back.token = g1.token
        back.hello()
        await settle()
        assert back.seat is Seat.WEST and Seat.WEST not in host.timer.auto
        pump.cancel()

    asyncio.run(scenario())


# ------------------------------------------------------------------ a forced card while a bot plays for the seat
class Thinking:
    """A stand-in that takes its time over a forced card, as the page's bots do (longer than the
    beat after which a page plays a forced card by itself); ``go()`` lets it answer."""

    def __init__(self, seed: str) -> None:
        self.bot = bot(seed)
        self.forced: list[SeatView] = []
        self._gate: asyncio.Future[None] | None = None

    async def choose(self, view: SeatView) -> Action:
        if view.phase is Phase.PLAYING and len(view.legal) == 1:
            self.forced.append(view)
            self._gate = asyncio.get_event_loop().create_future()
            await self._gate
        return await self.bot.choose(view)

    def go(self) -> None:
        if self._gate is not None and not self._gate.done():
            self._gate.set_result(None)

    def refused(self, action: Action, error: Exception) -> None:
        raise AssertionError(f"the stand-in was refused: {action}")


def counted_hex(name: str) -> Callable[[int], str]:
    """Random-looking hex tokens that are the same on every run (the fair deal's secret and parts)."""
    count = iter(range(10**6))
    return lambda n: hashlib.sha256(f"{name}{next(count)}".encode()).hexdigest()[: 2 * n]


async def _forced_question(guest: Any, stand_in: Thinking, seen: int) -> SeatView:
    """The next forced question to ``guest`` (its seat's stand-in is thinking about it)."""
    for _ in range(50_000):
        await asyncio.sleep(0)
        view = guest.asked
        if len(stand_in.forced) > seen and view is not None and view.phase is Phase.PLAYING and len(view.legal) == 1:
            return view  # type: ignore[no-any-return]
    raise AssertionError(f"no forced card came to the guest ({len(stand_in.forced)} forced, asked {guest.asked})")


def test_a_guests_page_does_not_play_a_forced_card_while_a_bot_plays_for_the_seat() -> None:
    """Ben walked away and a bot plays for him. When he holds a single legal card, his page (which
    plays forced cards by itself, 0.5 s after the question: before the bot) sends nothing: the
    host would take it for his tap. The bot plays the card and keeps the seat (no countdown starts
    at a seat nobody is at); only his own tap ends the bot's turn."""

    async def scenario() -> None:
        clock = Clock()
        net = Net(clock)
        pump = asyncio.ensure_future(net.pump())
        west = Thinking("stand-in-west")
        host = HostTable(
            net.host_send,
            host_name="Ada",
            bot_names=["Pip", "Hops", "Shelly"],
            stand_in=lambda s: west if s is Seat.WEST else bot(f"stand-in-{s.key}"),
            preset="standard",
            level="medium",
            clock=clock,
            random_hex=counted_hex("ada"),
        )
        net.host = host
        host.set_timer(30)
        g1, p1 = await seated(net, clock, "peer-1", "Ben", Seat.WEST, 1)
        g2, p2 = await seated(net, clock, "peer-2", "Cleo", Seat.EAST, 2)
        g1.random_hex, g2.random_hex = counted_hex("ben"), counted_hex("cleo")  # a deal with two forced cards
        p1.asleep = True
        host.timer.auto.add(Seat.WEST)  # his time ran out earlier: a bot plays for him
        match = await host.start(Rules(), max_hands=1)
        table = asyncio.ensure_future(play(match, host.players(bot("h")), host))
        view = await _forced_question(g1, west, 0)
        card = view.legal[0]
        assert not play_forced(g1, view), "the page played the forced card while a bot plays for the seat"
        await settle(200)
        assert Seat.WEST in host.timer.auto and g1.auto
        west.go()  # the bot has thought it over
        await settle(200)
        assert card in match.hand.plays  # the bot played it
        assert Seat.WEST in host.timer.auto and g1.auto
        assert host.timer.left(Seat.WEST) is None  # no countdown at an empty seat
        # his own tap, at the next forced card, ends the bot's turn
        view = await _forced_question(g1, west, 1)
        assert g1.submit(PlayCard(Seat.WEST, view.legal[0]))
        await settle(200)
        assert Seat.WEST not in host.timer.auto and not g1.auto
        p1.asleep = False
        p1.answer()
        while not table.done():  # (the timer runs for him again: his page answers from now on)
            clock.now += 1
            host.tick()
            await settle()
        assert match.is_over and not net.audit_failures
        pump.cancel()

    asyncio.run(scenario())


def test_the_hosts_own_forced_card_played_by_the_page_leaves_the_seat_to_the_bot() -> None:
    async def scenario() -> None:
        from helpers import step

        from hearts import Match

        match, rng = Match(Rules(), seed="forced-host"), random.Random(4)
        while not (match.phase is Phase.PLAYING and match.turn is Seat.SOUTH and len(match.legal_plays()) == 1):
            step(match, rng)
        view = match.view(Seat.SOUTH)
        timer = TurnTimer(30, Clock())
        timer.auto.add(Seat.SOUTH)
        person = HumanPlayer(lambda v: None, lambda e: None)
        seat = TimedSeat(person, Thinking("stand-in-south"), timer)
        task = asyncio.ensure_future(seat.choose(view))
        await settle()
        assert play_forced(person, view)
        assert await task == PlayCard(Seat.SOUTH, view.legal[0])
        assert Seat.SOUTH in timer.auto and timer.left(Seat.SOUTH) is None
        task = asyncio.ensure_future(seat.choose(view))  # the same question again: now the host taps
        await settle()
        assert person.submit(PlayCard(Seat.SOUTH, view.legal[0]))
        await task
        assert Seat.SOUTH not in timer.auto

    asyncio.run(scenario())
