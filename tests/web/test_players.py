"""hearts_web.table.players: the person at this screen and the browser's bots, driven by the table loop."""

from __future__ import annotations

import asyncio

from hearts_web.table.players import HumanPlayer, WebBot

from hearts import PRESETS, Match, PassCards, Phase, PlayCard, Seat, SeatView
from hearts.table import play


def test_the_person_answers_when_asked_and_a_second_tap_does_nothing() -> None:
    async def scenario() -> None:
        asked: list[SeatView] = []
        refused: list[str] = []
        human = HumanPlayer(asked.append, lambda e: refused.append(e.code.value))
        assert not human.submit(PlayCard(Seat.SOUTH, Match(seed="x").cards(Seat.SOUTH)[0]))  # not asked yet
        thinking: list[Seat | None] = []
        bots = [WebBot(lambda: "medium", "people", lambda: 0.0, thinking.append) for _ in range(3)]
        match = Match(PRESETS["standard"], seed="people", max_hands=1)
        table = asyncio.ensure_future(play(match, [human, *bots]))
        while not human.waiting:
            await asyncio.sleep(0)
        assert asked[-1].phase is Phase.PASSING
        hand = asked[-1].hand
        assert human.submit(PassCards(Seat.SOUTH, (hand[0], hand[0], hand[1])))  # a duplicate: refused
        assert not human.submit(PassCards(Seat.SOUTH, hand[:3]))  # the first answer is being checked
        while not human.waiting:
            await asyncio.sleep(0)
        assert refused == ["duplicate_cards"]
        assert human.submit(PassCards(Seat.SOUTH, hand[:3]))
        while not match.is_over:
            while not human.waiting and not match.is_over:
                await asyncio.sleep(0)
            if human.waiting:
                view = human.asked
                assert view is not None and view.phase is Phase.PLAYING and view.turn == Seat.SOUTH
                assert human.submit(PlayCard(Seat.SOUTH, view.legal[0]))
        await table
        assert match.is_over and len(match.hand.plays) == 52
        assert thinking and set(thinking) <= {Seat.WEST, Seat.NORTH, Seat.EAST, None} and thinking[-1] is None

    asyncio.run(scenario())


def test_a_bot_reads_its_level_at_each_decision() -> None:
    async def scenario() -> None:
        level = ["easy"]
        bot = WebBot(lambda: level[0], "lvl", lambda: 0.0, lambda _s: None)
        view = Match(seed="lvl").view(Seat.WEST)
        await bot.choose(view)
        level[0] = "hard"
        await bot.choose(view)
        assert sorted(bot._players) == ["easy", "hard"]

    asyncio.run(scenario())
