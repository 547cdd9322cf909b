"""The table loop (hearts.table): one loop for every kind of seat."""

from __future__ import annotations

import asyncio
import random

import pytest
from helpers import RandomPlayer, random_action

from hearts import (
    PRESETS,
    Action,
    ErrorCode,
    Event,
    IllegalAction,
    Match,
    NextHand,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    Seat,
    SeatView,
)
from hearts.bots import make_bot
from hearts.bots.player import BotPlayer
from hearts.table import Game, Listener, WaitedForInput, drain, play, run_steps, run_sync


class Recorder(Listener):
    def __init__(self) -> None:
        self.kinds: list[str] = []
        self.waits = 0

    async def on_events(self, game: Game, events: list[Event]) -> None:
        self.kinds += [e.kind for e in events]

    async def on_hand_over(self, game: Match) -> None:
        assert game.phase is Phase.HAND_OVER and game.to_act == ()
        self.waits += 1


def test_a_match_of_bots_runs_to_its_end_and_the_listener_hears_everything() -> None:
    match = Match(Rules(target=60), seed="table")
    heard = Recorder()
    run_sync(play(match, [BotPlayer(make_bot("medium"), seed="table") for _ in range(4)], heard))
    assert match.is_over and match.phase is Phase.MATCH_OVER
    assert heard.kinds.count("hand_over") == len(match.hands) == heard.waits + 1  # no wait after the last hand
    assert heard.kinds.count("hand_started") == len(match.hands) - 1
    assert heard.kinds.count("card_played") == 52 * len(match.hands)
    assert heard.kinds[-1] == "match_over"


class Stubborn:
    """Offers an illegal action first (a card not in hand, another seat, garbage), then plays properly."""

    def __init__(self, rng: random.Random, wrong: list[Action | object]) -> None:
        self.rng = rng
        self.wrong = wrong
        self.refusals: list[ErrorCode] = []

    async def choose(self, view: SeatView) -> Action:
        if self.wrong:
            return self.wrong.pop(0)  # type: ignore[return-value]
        return random_action(view, self.rng)

    def refused(self, action: Action, error: IllegalAction) -> None:
        self.refusals.append(error.code)


def test_refused_actions_change_nothing_and_the_seat_is_asked_again() -> None:
    match = Match(PRESETS["standard"], seed="stubborn", max_hands=1)
    south_cards = match.cards(Seat.SOUTH)
    west_card = match.cards(Seat.WEST)[0]
    south = Stubborn(
        random.Random(1),
        [
            PlayCard(Seat.SOUTH, south_cards[0]),  # wrong phase: passing
            PassCards(Seat.WEST, match.cards(Seat.WEST)[:3]),  # acting for another seat
            PassCards(Seat.SOUTH, (west_card,) + south_cards[:2]),  # a card it does not hold
            "garbage",
            NextHand(),
        ],
    )
    before = match.view(Seat.SOUTH)
    players = [south] + [RandomPlayer(random.Random(s)) for s in range(3)]
    # run only until South's refusals are through: the first pass is South's
    run_sync(play(match, players))
    assert south.refusals == [
        ErrorCode.WRONG_PHASE,
        ErrorCode.NOT_YOUR_TURN,
        ErrorCode.CARD_NOT_IN_HAND,
        ErrorCode.UNKNOWN_ACTION,
        ErrorCode.WRONG_PHASE,
    ]
    assert match.is_over and before.hand == south_cards


def test_run_sync_refuses_a_table_that_waits_for_a_person() -> None:
    class Click:
        def __await__(self):  # type: ignore[no-untyped-def]
            yield  # suspends like a future no one resolves: a click that never comes
            raise AssertionError("unreachable")

    class Person:
        async def choose(self, view: SeatView) -> Action:
            await Click()
            raise AssertionError("unreachable")

        def refused(self, action: Action, error: IllegalAction) -> None:
            raise AssertionError

    match = Match(seed="wait")
    with pytest.raises(WaitedForInput):
        run_sync(play(match, [Person()] + [BotPlayer(make_bot("medium")) for _ in range(3)]))


def test_in_an_event_loop_the_bots_pass_while_the_person_chooses() -> None:
    """Passing seats are asked at once: the bots' passes land before the person has chosen."""

    async def scenario() -> list[str]:
        clicks: asyncio.Queue[Action] = asyncio.Queue()
        log: list[str] = []

        class Person:
            async def choose(self, view: SeatView) -> Action:
                log.append(f"asked {view.phase.value}")
                return await clicks.get()

            def refused(self, action: Action, error: IllegalAction) -> None:
                raise AssertionError(error)

        class Log(Listener):
            async def on_events(self, game: Game, events: list[Event]) -> None:
                log.extend(e.kind for e in events if e.kind in ("pass_chosen", "cards_passed"))

        async def pace() -> None:
            await asyncio.sleep(0)

        match = Match(PRESETS["standard"], seed="concurrent", max_hands=1)
        bots = [BotPlayer(make_bot("hard", iterations=4), seed="c", pace=pace) for _ in range(3)]
        table = asyncio.ensure_future(play(match, [Person()] + bots, Log()))
        for _ in range(200):
            await asyncio.sleep(0)
            if log.count("pass_chosen") == 3:
                break
        assert log.count("pass_chosen") == 3 and "cards_passed" not in log  # bots done, exchange waits
        await clicks.put(PassCards(Seat.SOUTH, match.cards(Seat.SOUTH)[:3]))
        for _ in range(50):
            await asyncio.sleep(0)
            if "cards_passed" in log:
                break
        assert "cards_passed" in log
        table.cancel()
        return log

    asyncio.run(scenario())


def test_drain_awaits_the_pace_between_slices() -> None:
    def steps():  # type: ignore[no-untyped-def]
        yield
        yield
        return "done"

    ticks: list[int] = []

    async def pace() -> None:
        ticks.append(1)

    assert run_sync(drain(steps(), pace)) == "done" and len(ticks) == 2
    assert run_steps(steps()) == "done"


def test_a_single_hand_is_over_when_scored() -> None:
    from hearts import Hand, deal_from_seed

    hand = Hand(deal_from_seed("single"), PRESETS["standard"])
    run_sync(play(hand, [RandomPlayer(random.Random(3)) for _ in range(4)]))
    assert hand.is_over and hand.phase is Phase.HAND_OVER and hand.to_act == ()
