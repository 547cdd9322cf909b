"""hearts.bots.remote: a decision made from JSON in another interpreter is the decision made here."""

from __future__ import annotations

import json
import random
import types
from typing import Any

import pytest
from helpers import played, step
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_paths, rules_strategy

from hearts import Card, Match, Phase, Rules
from hearts.bots import make_bot
from hearts.bots.remote import PROTOCOL, Desk, RemoteError, answer_json, decision_from, request
from hearts.view import SeatView


def _waiting(match: Match) -> SeatView:
    """The view of a seat that has to decide now (dealing on past a finished hand)."""
    while match.phase is Phase.HAND_OVER:
        match.next_hand()
    return match.view(match.to_act[0])


def _remote(view: SeatView, level: str, rng: random.Random, **options: Any) -> Any:
    """The whole trip: request as JSON text, the worker's answer as JSON text, read back."""
    text = answer_json(json.dumps(request(view, level, rng, **options)))
    return decision_from(json.loads(text), view)


@settings(max_examples=40, deadline=None)
@given(
    rules=rules_strategy,
    seed=st.text(min_size=1, max_size=8),
    steps=st.integers(0, 60),
    level=st.sampled_from(["easy", "medium"]),
    rng_seed=st.integers(0, 2**32),
)
def test_a_remote_decision_is_the_local_one(rules: Rules, seed: str, steps: int, level: str, rng_seed: int) -> None:
    match = Match(rules, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_over:
            break
        step(match, rng)
    if match.is_over:
        return
    view = _waiting(match)
    local = make_bot(level).decide(view, random.Random(rng_seed))
    remote = _remote(view, level, random.Random(rng_seed))
    assert (remote.cards, remote.reason) == (local.cards, local.reason)


@pytest.mark.parametrize("steps", [0, 4, 17, 30])
def test_hard_with_a_fixed_number_of_worlds_decides_the_same_remotely(steps: int) -> None:
    """The pass (steps 0) and plays: same worlds, same RNG, same card, same search figures."""
    view = _waiting(played("remote-hard", steps))
    options = {"iterations": 40, "version": 1 if steps in (0, 30) else 7}  # the par's Hard and the game's
    local = make_bot("hard", **options).decide(view, random.Random(5))
    remote = _remote(view, "hard", random.Random(5), **options)
    assert remote.cards == local.cards
    assert remote.reason == local.reason
    assert remote.stats.get("worlds") == local.stats.get("worlds")


def _good_request() -> dict[str, Any]:
    return request(_waiting(played("remote-bad", 9)), "hard", random.Random(1), iterations=5)


def test_every_malformed_part_of_a_request_gets_a_reason_not_an_exception() -> None:
    good = _good_request()
    assert "cards" in json.loads(answer_json(json.dumps(good)))
    for path in json_paths(good):
        for bad in (None, "x", -1, [], {}):
            broken = json.loads(json.dumps(good))
            if not path:
                broken = bad
            else:
                target = broken
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = bad
            out = json.loads(answer_json(json.dumps(broken)))  # never raises
            assert "error" in out or "cards" in out, (path, bad)
            if "cards" in out:  # a change the bot does not depend on: still a legal answer
                view = _waiting(played("remote-bad", 9))
                decision_from(out, view)


@pytest.mark.parametrize(
    "change, reason",
    [
        (lambda r: r.update(protocol=PROTOCOL + 1), "protocol"),
        (lambda r: r.update(level="expert"), "unknown level"),
        (lambda r: r.update(options={"iterations": 2.5}), "whole number"),
        (lambda r: r.update(options={"budget_ms": -3}), "budget_ms"),
        (lambda r: r.update(options={"depth": 3}), "bad options"),
        (lambda r: r.update(rng=[3, [1, 2], None]), "rng"),
        (lambda r: r["view"].update(turn=None), "nothing to decide"),
        (lambda r: r["view"].update(hand=["ZZ"]), "bad view"),
    ],
)
def test_a_bad_request_is_answered_with_its_reason(change: Any, reason: str) -> None:
    req = _good_request()
    change(req)
    out = json.loads(answer_json(json.dumps(req)))
    assert reason in out["error"]
    assert "error" in json.loads(answer_json("{not json"))


def test_an_answer_is_checked_against_the_seat() -> None:
    view = _waiting(played("remote-answer", 9))
    good = json.loads(answer_json(json.dumps(request(view, "medium", random.Random(2)))))
    assert decision_from(good, view).cards[0] in view.hand
    not_mine = next(Card(n) for n in range(52) if Card(n) not in view.hand)
    for bad, reason in [
        ({"error": "boom"}, "refused the request: boom"),
        ({**good, "cards": []}, "holds 1 card"),
        ({**good, "cards": ["QS", "AH"]}, "holds 1 card"),
        ({**good, "cards": ["??"]}, "bad card"),
        ({**good, "cards": [not_mine.text]}, "does not hold"),
        ({**good, "reason": 3}, "reason is text"),
        ({**good, "cards": [next(c for c in view.hand if c not in view.legal).text]}, "not a legal play"),
        ([1, 2], "JSON object"),
    ]:
        with pytest.raises(RemoteError, match=reason):
            decision_from(bad, view)


def test_the_rng_arrives_in_the_state_it_left() -> None:
    rng = random.Random("state")
    rng.random()
    sent = json.loads(json.dumps(request(_waiting(played("rng", 3)), "easy", rng)))["rng"]
    copy = random.Random()
    copy.setstate((sent[0], tuple(sent[1]), sent[2]))
    assert [copy.random() for _ in range(5)] == [rng.random() for _ in range(5)]


def test_the_pages_worker_budget_is_a_valid_request() -> None:
    """The options the page sends for Hard (a play and a pass budget) are accepted and used."""
    from hearts_web.table.players import WORKER_BUDGET

    for steps in (0, 9):  # the pass, a play
        view = _waiting(played("remote-budget", steps))
        small = {k: v / 10 for k, v in WORKER_BUDGET.items()}  # a tenth: keep the test quick
        decision = _remote(view, "hard", random.Random(3), **small)
        assert decision.stats["worlds"] > 0 and set(decision.cards) <= set(view.hand)


class _FakeTime:
    """A clock that moves 1 ms at every reading."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 0.001
        return self.t


@types.coroutine
def _tick() -> Any:
    yield


def _drive(coro: Any) -> Any:
    """Run a coroutine whose only awaits are ``_tick`` (no event loop: this runs in Pyodide too)."""
    try:
        while True:
            coro.send(None)
    except StopIteration as stop:
        return stop.value


def _pass_worlds(desk: Desk, view: SeatView, **options: Any) -> int:
    answer = _drive(desk.answer(request(view, "hard", random.Random(4), **options)))
    decision = decision_from(answer, view)
    assert len(decision.cards) == 3 and set(decision.cards) <= set(view.hand)
    return int(decision.stats["worlds"])


def test_a_pass_thinks_long_until_the_person_has_passed_then_ends_at_the_short_budget() -> None:
    view = _waiting(played("desk", 0))
    assert view.phase is Phase.PASSING
    long_short = {"pass_budget_ms": 120.0, "hurry_ms": 30.0}
    clock = _FakeTime()
    calm = Desk(pause=_tick, now=clock, every=0.005)
    alone = _pass_worlds(calm, view, **long_short)
    assert 80 <= alone <= 120  # the long budget (the clock also ticks for the slices)

    desk = Desk(pause=_tick, now=_FakeTime(), every=0.005)
    desk.hurry()  # the person passed before this bot began
    assert 15 <= _pass_worlds(desk, view, **long_short) <= 30

    # the person passes while the bot thinks: 60 ms into the search, the search ends at once
    clock = _FakeTime()
    start = clock.t

    async def pause() -> None:
        if clock.t - start > 0.060:
            desk.hurry()
        await _tick()

    desk = Desk(pause=pause, now=clock, every=0.005)
    midway = _pass_worlds(desk, view, **long_short)
    assert 35 <= midway <= 70 < alone

    # a hurry lasts until the passes are over: a play request ends it
    desk.pause = _tick  # (the person will not pass again)
    play = _waiting(played("desk", 9))
    assert play.phase is Phase.PLAYING
    _drive(desk.answer(request(play, "hard", random.Random(1), budget_ms=5.0)))
    assert not desk.hurried
    assert 80 <= _pass_worlds(desk, view, **long_short) <= 120


def test_the_desk_decides_like_the_plain_answer_and_reports_bad_requests() -> None:
    for steps in (0, 9):
        view = _waiting(played("desk-same", steps))
        req = request(view, "hard", random.Random(5), iterations=12)
        desk = Desk(pause=_tick)
        assert _drive(desk.answer_json(json.dumps(req))) == answer_json(json.dumps(req))
    assert "error" in json.loads(_drive(Desk(pause=_tick).answer_json("{not json")))
    bad = request(_waiting(played("desk-bad", 0)), "hard", random.Random(5), hurry_ms=-1)
    assert "hurry_ms" in json.loads(_drive(Desk(pause=_tick).answer_json(json.dumps(bad))))["error"]
