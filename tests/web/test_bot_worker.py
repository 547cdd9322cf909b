"""hearts_web.table.bot_worker and WebBot's use of it: Hard thinks in a worker when one is ready, on the
page otherwise, and a worker that fails never stops the game."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from hearts_web.table import players
from hearts_web.table.bot_worker import BotWorker, WorkerUnavailable
from hearts_web.table.players import HumanPlayer, WebBot

from hearts import PRESETS, Match, PassCards, Phase, PlayCard, Seat
from hearts.bots.remote import Desk, answer_json
from hearts.records import dumps
from hearts.table import play


class LoopbackWorker:
    """A worker in this interpreter: each request is answered on the next turn of the loop by
    hearts.bots.remote, as web/runtime/bot-worker.mjs does; ``crash_on`` breaks the n-th request."""

    def __init__(self, crash_on: int | None = None) -> None:
        self.requests: list[str] = []
        self.crash_on = crash_on
        self.bots = BotWorker(self.post)

    def post(self, ident: int, text: str) -> None:
        self.requests.append(text)
        if len(self.requests) == self.crash_on:
            message: dict[str, Any] = {"kind": "crash", "id": ident, "reason": "RecursionError"}
        else:
            message = {"kind": "answer", "id": ident, "answer": answer_json(text)}
        asyncio.get_event_loop().call_soon(self.bots.on_message, message)


def _bots(worker: BotWorker | None, level: str = "medium") -> list[WebBot]:
    return [
        WebBot(lambda: level, "worker-match", lambda: 0.0, lambda seat: None, worker=lambda _lvl: worker)
        for _ in range(4)
    ]


def _play(bots: list[WebBot], hands: int = 1) -> Match:
    match = Match(PRESETS["standard"], seed="worker-match", max_hands=hands)
    asyncio.run(play(match, bots))
    return match


def test_a_match_played_in_the_worker_is_the_match_played_on_the_page() -> None:
    here = _play(_bots(None))
    loop = LoopbackWorker()
    loop.bots.on_message({"kind": "ready", "ms": 1200.0})
    bots = _bots(loop.bots)
    there = _play(bots)
    assert dumps(there) == dumps(here)
    assert sum(b.decided["worker"] for b in bots) == 52 + 4  # every play and every pass
    assert sum(b.decided["page"] for b in bots) == 0
    assert loop.bots.answered == 56 and loop.bots.start_ms == 1200.0


def test_a_worker_that_starts_too_slowly_is_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(players, "WORKER_START_WAIT", 0.01)
    loop = LoopbackWorker()
    bots = _bots(loop.bots)
    _play(bots)
    assert loop.requests == [] and sum(b.decided["page"] for b in bots) == 56


def test_the_first_bot_waits_for_a_starting_worker() -> None:
    async def scenario() -> None:
        loop = LoopbackWorker()
        asyncio.get_event_loop().call_later(0.05, loop.bots.on_message, {"kind": "ready"})
        bots = _bots(loop.bots)
        match = Match(PRESETS["standard"], seed="worker-match", max_hands=1)
        await play(match, bots)
        assert sum(b.decided["worker"] for b in bots) == 56

    asyncio.run(scenario())


def test_a_crash_in_the_worker_moves_the_bots_to_the_page_for_good() -> None:
    loop = LoopbackWorker(crash_on=10)
    loop.bots.on_message({"kind": "ready"})
    bots = _bots(loop.bots)
    match = _play(bots)
    assert match.phase in (Phase.HAND_OVER, Phase.MATCH_OVER)
    assert loop.bots.state == "failed" and "RecursionError" in loop.bots.reason
    assert len(loop.requests) == 10  # the tenth failed and was decided on the page; no more were sent
    assert sum(b.decided["worker"] for b in bots) == 9 and sum(b.decided["page"] for b in bots) == 56 - 9


def test_a_worker_that_cannot_start_fails_every_waiting_request() -> None:
    async def scenario() -> None:
        sent: list[int] = []
        bots = BotWorker(lambda ident, text: sent.append(ident))
        with pytest.raises(WorkerUnavailable, match="still starting"):
            await bots.decide({})
        bots.on_message({"kind": "ready"})
        waiting = asyncio.ensure_future(bots.decide({"x": 1}))
        await asyncio.sleep(0)
        assert sent == [1]
        bots.on_message({"kind": "failed", "reason": "app.zip: HTTP 404"})
        with pytest.raises(WorkerUnavailable, match="HTTP 404"):
            await waiting
        assert bots.state == "failed" and not bots.ready
        bots.on_message({"kind": "ready"})  # too late: failed stays failed
        assert bots.state == "failed"

    asyncio.run(scenario())


def test_an_answer_nobody_waits_for_is_dropped_and_a_bad_one_is_refused() -> None:
    async def scenario() -> None:
        bots = BotWorker(lambda ident, text: None)
        bots.on_message({"kind": "ready"})
        bots.on_message({"kind": "answer", "id": 99, "answer": "{}"})  # the table moved on: ignored
        waiting = asyncio.ensure_future(bots.decide({}))
        await asyncio.sleep(0)
        bots.on_message({"kind": "answer", "id": 1, "answer": "{oops"})
        with pytest.raises(WorkerUnavailable, match="unreadable"):
            await waiting
        cancelled = asyncio.ensure_future(bots.decide({}))
        await asyncio.sleep(0)
        cancelled.cancel()  # a new match: the table task is cancelled mid-decision
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        bots.on_message({"kind": "answer", "id": 2, "answer": "{}"})  # arrives later: dropped
        assert bots.ready

    asyncio.run(scenario())


def test_each_answer_is_observed_once_with_the_request_it_answers() -> None:
    """The page's performance measure sees every answer, read once, beside its request (the
    cards held come from the request, not from parsing the posted text again)."""
    seen: list[tuple[int, int, int]] = []
    loop = LoopbackWorker()
    loop.bots = BotWorker(
        loop.post,
        observe=lambda ident, request, answer: seen.append((ident, len(request["view"]["hand"]), len(answer["cards"]))),
    )
    loop.bots.on_message({"kind": "ready"})
    _play(_bots(loop.bots))
    assert [ident for ident, _, _ in seen] == list(range(1, 57))
    assert [cards for _, _, cards in seen].count(3) == 4  # the passes
    plays = [held for _, held, cards in seen if cards == 1]
    assert (
        sorted(plays, reverse=True)
        == [13] * 4
        + [12] * 4
        + [11] * 4
        + [10] * 4
        + [9] * 4
        + [8] * 4
        + [7] * 4
        + [6] * 4
        + [5] * 4
        + [4] * 4
        + [3] * 4
        + [2] * 4
        + [1] * 4
    )
    # an answer nobody waits for, or one that cannot be read, is not observed
    loop.bots.on_message({"kind": "answer", "id": 99, "answer": "{}"})
    assert len(seen) == 56


def test_a_refused_answer_is_decided_again_on_the_page() -> None:
    """An answer that is no move (a stale worker script, say): the page decides instead."""

    class Wrong(LoopbackWorker):
        def post(self, ident: int, text: str) -> None:
            self.requests.append(text)
            asyncio.get_event_loop().call_soon(
                self.bots.on_message,
                {"kind": "answer", "id": ident, "answer": '{"cards": [], "reason": "x", "params": {}, "stats": {}}'},
            )

    loop = Wrong()
    loop.bots.on_message({"kind": "ready"})
    bots = _bots(loop.bots)
    here = _play(_bots(None))
    assert dumps(_play(bots)) == dumps(here)
    assert sum(b.decided["page"] for b in bots) == 56


def test_a_worker_that_stops_answering_fails_and_the_page_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    from hearts_web.table import bot_worker

    monkeypatch.setattr(bot_worker, "ANSWER_TIMEOUT", 0.05)
    silent = BotWorker(lambda ident, text: None)  # takes requests, never answers
    silent.on_message({"kind": "ready"})
    bots = _bots(silent)
    match = _play(bots)
    assert match.is_over
    assert silent.state == "failed" and "no answer" in silent.reason
    assert sum(b.decided["page"] for b in bots) == 56  # the first request timed out, then all on the page


class LoopbackDesk:
    """The worker as web/runtime/bot-worker.mjs runs it: a hearts.bots.remote.Desk answers the requests one
    at a time, as tasks on this loop, skips the dropped ones, and hears a hurry between the slices
    of a search."""

    def __init__(self) -> None:
        self.desk = Desk()
        self.signals: list[tuple[str, int]] = []
        self.bots = BotWorker(self.post, self.signal)
        self.queue: asyncio.Future[None] | None = None
        self.seconds: list[float] = []  # each answer's search time
        self.dropped: set[int] = set()

    def signal(self, kind: str, ident: int) -> None:
        self.signals.append((kind, ident))
        if kind == "hurry":
            asyncio.get_event_loop().call_soon(self.desk.hurry)
        else:
            self.dropped.add(ident)

    def post(self, ident: int, text: str) -> None:
        before = self.queue

        async def answer() -> None:
            if before is not None:
                await before
            if ident in self.dropped:
                return
            began = time.perf_counter()
            message = {"kind": "answer", "id": ident, "answer": await self.desk.answer_json(text)}
            self.seconds.append(time.perf_counter() - began)
            self.bots.on_message(message)

        self.queue = asyncio.ensure_future(answer())


def _long_pass_table(monkeypatch: pytest.MonkeyPatch, seed: str) -> tuple[LoopbackDesk, HumanPlayer, list[WebBot]]:
    """A ready loopback worker, the person (whose pass hurries it) and three Hard bots whose passes
    may think 30 s (plays 5 ms, a hurried pass 40 ms)."""
    monkeypatch.setattr(players, "WORKER_BUDGET", {"budget_ms": 5.0, "pass_budget_ms": 30000.0, "hurry_ms": 40.0})
    loop = LoopbackDesk()
    loop.bots.on_message({"kind": "ready", "ms": 900.0})
    human = HumanPlayer(lambda view: None, lambda error: None, on_passed=loop.bots.hurry)
    bots = [
        WebBot(lambda: "hard", seed, lambda: 0.0, lambda seat: None, worker=lambda _lvl: loop.bots) for _ in range(3)
    ]
    return loop, human, bots


def test_the_persons_pass_ends_the_bots_long_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard's passes think up to 30 s while the person chooses; once the person has passed, each
    ends at its short budget: the hand goes on at once (without the hurry this test takes 90 s)."""
    loop, human, bots = _long_pass_table(monkeypatch, "hurry")

    async def scenario() -> Match:
        match = Match(PRESETS["standard"], seed="hurry", max_hands=1)
        table = asyncio.ensure_future(play(match, [human, *bots]))
        await asyncio.sleep(0.3)  # the person takes a while: the first bot thinks all that time
        assert human.asked is not None and human.asked.phase is Phase.PASSING and not loop.seconds
        assert human.submit(PassCards(Seat.SOUTH, human.asked.hand[:3]))
        while not match.is_over:
            await asyncio.sleep(0.001)
            if human.waiting and human.asked is not None:
                human.submit(PlayCard(Seat.SOUTH, human.asked.legal[0]))
        await asyncio.wait_for(table, 5)
        return match

    match = asyncio.run(asyncio.wait_for(scenario(), 20))
    assert match.is_over and [kind for kind, _ in loop.signals] == ["hurry"]
    first, *others = loop.seconds[:3]  # the three passes, in the order the worker searched them
    assert first >= 0.3 and all(s < 5 for s in others)
    assert not loop.desk.hurried  # the plays ended the hurry


def test_a_request_nobody_waits_for_is_dropped_in_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new match while the bots still think about their passes: the old requests are dropped,
    so the worker does not spend the new match's time on them."""
    loop, human, bots = _long_pass_table(monkeypatch, "drop")

    async def scenario() -> None:
        table = asyncio.ensure_future(play(Match(PRESETS["standard"], seed="drop", max_hands=1), [human, *bots]))
        await asyncio.sleep(0.1)
        table.cancel()  # the person deals a new match
        with pytest.raises(asyncio.CancelledError):
            await table
        loop.desk.hurry()  # (the search under way ends at its short budget)
        assert loop.queue is not None
        await asyncio.wait_for(loop.queue, 5)

    asyncio.run(scenario())
    assert sorted(kind for kind, _ in loop.signals) == ["drop", "drop", "drop"]
    assert len(loop.seconds) == 1  # only the search that had begun ran; the two others were skipped


def test_a_pass_made_before_the_worker_is_up_hurries_it_once_it_is() -> None:
    """The person passed while the worker was still starting: the bots' passes, asked once it is
    up, must not make the person wait their long budget."""
    signals: list[tuple[str, int]] = []
    bots = BotWorker(lambda ident, text: None, lambda kind, ident: signals.append((kind, ident)))
    bots.hurry()
    assert signals == []  # nothing to send to yet
    bots.on_message({"kind": "ready", "ms": 3000.0})
    assert signals == [("hurry", 0)]
    failed = BotWorker(lambda ident, text: None, lambda kind, ident: signals.append((kind, ident)))
    failed.on_message({"kind": "failed", "reason": "no wasm"})
    failed.hurry()  # the bots decide on the page: nothing to hurry
    assert signals == [("hurry", 0)]


def test_a_challenges_hard_bots_search_fixed_worlds_in_the_worker_and_on_the_page() -> None:
    from hearts.challenge import (
        CHALLENGE_HARD_WORLDS,
        Challenge,
        challenge_bot_options,
        challenge_match,
        challenge_rngs,
    )

    challenge = Challenge(seed="chal-worker", hand=1, rules=PRESETS["standard"], level="hard")
    view = challenge_match(challenge).view(Seat.WEST)  # the pass
    page_bot = WebBot(
        lambda: "hard",
        challenge.seed,
        lambda: 0.0,
        lambda seat: None,
        challenge_rngs(challenge),
        search=challenge_bot_options,
    )
    here = asyncio.run(page_bot.choose(view))
    assert page_bot.player("hard").bot.iterations == CHALLENGE_HARD_WORLDS[0]  # type: ignore[attr-defined]
    loop = LoopbackWorker()
    loop.bots.on_message({"kind": "ready", "ms": 1200.0})
    worker_bot = WebBot(
        lambda: "hard",
        challenge.seed,
        lambda: 0.0,
        lambda seat: None,
        challenge_rngs(challenge),
        worker=lambda _lvl: loop.bots,
        search=challenge_bot_options,
    )
    there = asyncio.run(worker_bot.choose(view))
    options = json.loads(loop.requests[-1])["options"]
    assert options == {"iterations": CHALLENGE_HARD_WORLDS[0], "pass_iterations": CHALLENGE_HARD_WORLDS[1]}
    assert worker_bot.decided["worker"] == 1 and there == here
