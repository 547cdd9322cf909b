# Runs inside Pyodide (page or worker): the lab's botbench driven like the game drives its bots.
# bench.js and worker.js call these functions with JavaScript numbers (an int or a float in
# Python; null is None) and get JSON text back.
import asyncio
import json
import sys
import time

sys.path.insert(0, "/home/pyodide/app")
import hearts.bots  # noqa: E402,F401  (imported up front: its import time is part of start-up)
from lab.botbench import bench_async  # noqa: E402


class Pacer:
    """The game's pace (web/hearts_web/table/players.py): a turn for the page whenever ``budget``
    seconds of work have passed since the last one."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        self.since = time.perf_counter()

    async def __call__(self) -> None:
        if time.perf_counter() - self.since > self.budget:
            await asyncio.sleep(0)
            self.since = time.perf_counter()


async def run_bench(
    hands: float,
    budget_ms: float | None,
    iterations: float | None,
    seed: float,
    version: float | None,
    slice_ms: float | None,
) -> str:
    """``slice_ms`` > 0: the bots give the page a turn like the game's bots do (a Pacer of
    ``slice_ms``); 0: never (a worker has no page to keep responsive)."""
    pace = Pacer(float(slice_ms) / 1000.0) if slice_ms else None
    result = await bench_async(
        int(hands),
        float(budget_ms) if budget_ms else None,
        int(iterations) if iterations else None,
        int(seed),
        int(version) if version else None,
        pace=pace,
    )
    return json.dumps(result)


def decide_from_record(record_json: str, seat_key: str, budget_ms: float, version: float | None) -> str:
    """One decision from a match record (what a worker would receive): replay + search."""
    import random

    from hearts import Seat
    from hearts.bots import make_bot
    from hearts.records import loads

    t0 = time.perf_counter()
    game = loads(record_json)
    view = game.view(Seat.parse(seat_key))
    t1 = time.perf_counter()
    decision = make_bot("hard", budget_ms=float(budget_ms), version=int(version) if version else None).decide(
        view, random.Random(1)
    )
    t2 = time.perf_counter()
    return json.dumps(
        {
            "replay_ms": 1000 * (t1 - t0),
            "decide_ms": 1000 * (t2 - t1),
            "card": decision.cards[0].text,
            "worlds": decision.stats.get("worlds", 0),
        }
    )


def sample_record() -> str:
    """A match in the middle of a hand (the 7th trick), as JSON: the size of a worker message."""
    import random

    from hearts import Match
    from hearts.bots import make_bot
    from hearts.records import dumps

    match = Match(seed="worker-message")
    bot = make_bot("medium")
    rng = random.Random(3)
    while match.hand.trick_number < 6 or match.turn is None or int(match.turn) == 0:
        if match.waiting_for_pass:
            for seat in match.waiting_for_pass:
                match.choose_pass(seat, bot.decide(match.view(seat), rng).cards)
            continue
        turn = match.turn
        assert turn is not None  # not passing: a seat is to play
        match.play(turn, bot.decide(match.view(turn), rng).cards[0])
    return json.dumps({"record": dumps(match), "seat": match.turn.key})
