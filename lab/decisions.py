"""Hard's decisions on fixed positions, recorded and checked: a refactor proves it keeps the game.

    python3 -m lab.decisions record          # decide everything, write lab/out/decisions.jsonl, print the signature
    python3 -m lab.decisions check           # decide again, compare every decision with the recording
    python3 -m lab.decisions signature       # only the signature (--slice: the cheap slice the tests pin)

What is decided (``items``), each at a fixed number of worlds and a fixed RNG seed:

* the game's Hard (``make_bot("hard")``, the play configuration) and the daily par's Hard
  (``version=1``): its play or pass on positions from hands of cheap bots (every preset and a
  few custom rules, scores near the target, lone point-takers about, moon chances, voids with a
  heart to throw); also in budget mode on a fake clock, with a per-hand-size schedule, through
  the worker's request protocol, and the hint;
* the hand review: ``evaluate.play_values`` / ``pass_values`` on such positions,
  ``hearts.review.evaluate_play`` / ``evaluate_pass``, and ``review`` verdicts on whole hands;
* the par: ``daily.compute_par`` for a range of dates, and the 120 pinned decisions of
  ``tests/fixtures/hard_v1.json``.

Each result keeps the cards, the reason and every searched value as the code reports them (Hard's
rounded means, world counts, moon counts; the review's values to 9 decimals), so a changed random
stream shows even where the card stays. The signature is a hash over every result in order
(Stockfish's ``bench``): it changes exactly when a decision changes. The positions are rebuilt
from seeds with the engine and the cheap bots only; each record also holds a digest of its view,
so a change in the positions is told apart from a change in the decisions.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import random
import sys
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations
from pathlib import Path
from typing import TypedDict, TypeVar

from hearts import PRESETS, Card, Hand, Phase, Rules, Seat, SeatView
from hearts.bots import HardBot, hint, make_bot
from hearts.bots.base import Bot, Decision, Steps
from hearts.bots.evaluate import pass_values, play_values
from hearts.bots.remote import answer, request
from hearts.daily import compute_par
from hearts.records import hand_from_record
from hearts.review import evaluate_pass, evaluate_play, review
from hearts.rules import FirstTrick, MoonScoring
from hearts.seats import SEATS, PassDirection
from hearts.wire import view_to_dict
from lab.golden_hard import GoldenCase

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "lab" / "out" / "decisions.jsonl"
GOLDEN = ROOT / "tests" / "fixtures" / "hard_v1.json"
HANDS = 420  # hands of cheap bots the positions come from

RULES: tuple[Rules, ...] = tuple(PRESETS[name] for name in sorted(PRESETS)) + (
    Rules(moon=MoonScoring.SHOOTERS_CHOICE, target=60),
    Rules(moon=MoonScoring.SUBTRACT_FROM_SHOOTER, queen_breaks_hearts=True, first_trick=FirstTrick.NONE),
    Rules(jack_of_diamonds=True, moon=MoonScoring.SHOOTERS_CHOICE, first_trick=FirstTrick.QUEEN_ONLY),
)
FIELDS = (
    ("medium", "easy", "random", "high"),
    ("high", "medium", "medium", "easy"),
    ("random", "high", "easy", "medium"),
    ("medium", "medium", "high", "random"),
)

# A JSON value: what every item decides, as ``json.dumps`` writes it and ``json.loads`` reads it back
Json = Mapping[str, "Json"] | Sequence["Json"] | str | int | float | bool | None
T = TypeVar("T")


class Record(TypedDict):
    """One item decided: its key, the digest of its view ("" if none) and its result (a line of
    ``lab/out/decisions.jsonl``)."""

    key: str
    view: str
    result: Json


# ----------------------------------------------------------------------------- positions
class HighBot(Bot):
    """Plays its highest legal card and passes its three lowest: it takes tricks, so the others
    often face a lone point-taker (a moon runner) and it often has the moon open itself."""

    level = "high"

    def choose_pass(self, view: SeatView, rng: random.Random) -> Steps:
        low = sorted(view.hand, key=lambda c: (c % 13, c))[:3]
        return Decision(tuple(sorted(low)), "random")
        yield  # pragma: no cover

    def choose_play(self, view: SeatView, rng: random.Random) -> Steps:
        card = max(view.legal, key=lambda c: (c % 13, c))
        return Decision((card,), "random")
        yield  # pragma: no cover


def _bot(name: str) -> Bot:
    return HighBot() if name == "high" else make_bot(name)


@dataclass(frozen=True)
class Position:
    view: SeatView
    tags: frozenset[str]


def tags_of(view: SeatView) -> frozenset[str]:
    """What makes a position worth keeping, from the view alone (no bot code)."""
    tags = {"pass" if view.phase is Phase.PASSING else "play"}
    if max(view.scores) + 26 >= view.rules.target:
        tags.add("match_end")
    if view.rules.jack_of_diamonds:
        tags.add("jack")
    taken = view.taken_masks()
    points = [bin(t >> 39).count("1") + (13 if t >> 36 & 1 else 0) for t in taken]
    holders = [s for s in range(4) if points[s]]
    me = int(view.seat)
    if len(holders) == 1 and holders[0] != me:
        tags.add("lone_taker")
    if not holders or holders == [me]:
        tags.add("moon_open")
    led = view.led_suit
    if led is not None and not any(c.suit is led for c in view.hand) and any(c >= 39 for c in view.hand):
        tags.add("void_with_heart")
    if view.phase is Phase.PASSING and sum(1 for c in view.hand if c % 13 >= 10) >= 5:
        tags.add("strong_pass")
    return frozenset(tags)


def played_hands(count: int = HANDS) -> Iterator[tuple[Hand, list[SeatView]]]:
    """``count`` finished hands of cheap bots with every decision's view (deterministic)."""
    rng = random.Random("lab-decisions")
    for n in range(count):
        rules = RULES[n % len(RULES)]
        near = n % 3 == 0
        scores = tuple(
            rng.randrange(max(0, rules.target - 40), rules.target) if near else rng.randrange(0, 40) for _ in range(4)
        )
        deal = list(range(52))
        rng.shuffle(deal)
        direction = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD)[n % 4]
        hand = Hand(
            [sorted(deal[i * 13 : (i + 1) * 13]) for i in range(4)],
            rules,
            direction,
            hand_number=n % 4,
            scores_before=scores,
        )
        bots = [_bot(name) for name in FIELDS[n % len(FIELDS)]]
        views: list[SeatView] = []
        while hand.result is None:
            seat = hand.waiting_for_pass[0] if hand.phase is Phase.PASSING else hand.turn
            assert seat is not None
            view = hand.view(seat)
            views.append(view)
            decision = bots[seat].decide(view, rng)
            if hand.phase is Phase.PASSING:
                hand.choose_pass(seat, decision.cards)
            else:
                hand.play(seat, decision.cards[0])
        yield hand, views


def positions(count: int = HANDS) -> tuple[list[Position], list[Hand]]:
    """The searched positions (every pass, every play with a choice; thinned where common) and
    the finished hands."""
    rng = random.Random("lab-decisions-pick")
    rare = {"lone_taker", "void_with_heart", "strong_pass"}
    out: list[Position] = []
    hands: list[Hand] = []
    for hand, views in played_hands(count):
        hands.append(hand)
        for view in views:
            if view.phase is not Phase.PASSING and len(view.legal) < 2:
                continue
            tags = tags_of(view)
            if "pass" in tags or tags & rare or rng.random() < 0.35:
                out.append(Position(view, tags))
    return out, hands


# ----------------------------------------------------------------------------- what is decided
def _plain(value: object) -> Json:
    """``value`` as JSON reads it back (anything JSON cannot hold as its ``str``)."""
    plain: Json = json.loads(json.dumps(value, default=str, sort_keys=True))
    return plain


def decision_result(d: Decision) -> Json:
    return _plain({"cards": [c.text for c in d.cards], "reason": d.reason, "params": d.params, "stats": d.stats})


def _values(values: list[float]) -> list[float]:
    return [round(v, 9) for v in values]


class FakeClock:
    """A clock that moves ``step`` seconds at every reading: budget mode, deterministic."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _pass_options(view: SeatView) -> list[tuple[int, ...]]:
    by_rank = sorted((int(c) for c in view.hand), key=lambda c: (c % 13, c))
    high, low = by_rank[-3:], by_rank[:3]
    picks = [tuple(high), tuple(low), (by_rank[-1], by_rank[0], by_rank[1]), (by_rank[-1], by_rank[-2], by_rank[0])]
    picks += list(combinations(by_rank[-5:-2], 3))
    return list(dict.fromkeys(tuple(sorted(p)) for p in picks))


Item = tuple[str, str, Callable[[], Json]]  # key, view digest ("" if none), what to compute


def _digest(view: SeatView) -> str:
    return hashlib.sha256(json.dumps(view_to_dict(view), sort_keys=True).encode()).hexdigest()[:12]


def _bot_items(pos: list[Position], slice_: bool) -> Iterator[Item]:
    plays = [p for p in pos if "play" in p.tags]
    passes = [p for p in pos if "pass" in p.tags]
    n_play, n_pass = (90, 12) if slice_ else (len(plays), len(passes))
    for label, version in (("play", None), ("par", 1)):
        for i, p in enumerate(plays[:n_play]):
            worlds = (8, 16, 30)[i % 3]
            yield (
                f"{label}/play/{i}@{worlds}",
                _digest(p.view),
                _decide(p.view, f"play-{i}", iterations=worlds, version=version),
            )
        for i, p in enumerate(passes[:n_pass]):
            worlds = (3, 5)[i % 2]
            yield (
                f"{label}/pass/{i}@{worlds}",
                _digest(p.view),
                _decide(p.view, f"pass-{i}", iterations=worlds, version=version),
            )


def _decide(view: SeatView, seed: str, iterations: int, version: int | None) -> Callable[[], Json]:
    return lambda: decision_result(
        make_bot("hard", iterations=iterations, version=version).decide(view, random.Random(seed))
    )


def _modes_items(pos: list[Position], slice_: bool) -> Iterator[Item]:
    """Hard on a fake clock (budget mode), with a schedule by hand size, through the worker's
    request protocol, and the hint."""
    picked = pos[3::37][: 4 if slice_ else 60]
    schedule = (0, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)
    for i, p in enumerate(picked):
        view, key = p.view, _digest(p.view)

        def budget(view: SeatView = view, i: int = i) -> Json:
            bot = HardBot(budget_ms=3.0, pass_budget_ms=6.0, clock=FakeClock(0.00025), version=(7, 1)[i % 2])
            return decision_result(bot.decide(view, random.Random(f"budget-{i}")))

        def scheduled(view: SeatView = view, i: int = i) -> Json:
            bot = HardBot(iterations=6, pass_iterations=2, play_schedule=schedule)
            return decision_result(bot.decide(view, random.Random(f"schedule-{i}")))

        def remote(view: SeatView = view, i: int = i) -> Json:
            options: dict[str, int] = {"iterations": 10, "pass_iterations": 3} | ({"version": 1} if i % 3 == 0 else {})
            return _plain(answer(request(view, "hard", random.Random(f"remote-{i}"), **options)))

        yield f"budget/{i}", key, budget
        yield f"schedule/{i}", key, scheduled
        yield f"remote/{i}", key, remote
        if i % (1 if slice_ else 2) == 0 and i < 30:
            yield f"hint/{i}", key, partial(_hint, view)


def _review_items(pos: list[Position], hands: list[Hand], slice_: bool) -> Iterator[Item]:
    plays = [p for p in pos if "play" in p.tags][1::5][: 10 if slice_ else 320]
    passes = [p for p in pos if "pass" in p.tags][1::3][: 2 if slice_ else 100]
    for i, p in enumerate(plays):
        cards = [int(c) for c in p.view.legal]

        def values(p: Position = p, cards: list[int] = cards, i: int = i) -> Json:
            steps = play_values(p.view, cards, random.Random(f"values-{i}"), (6, 20)[i % 2])
            return _values(_run(steps))

        yield f"values/play/{i}", _digest(p.view), values
        if i % 2 == 0:
            chosen = p.view.legal[i % len(p.view.legal)]
            yield f"evaluate/play/{i}", _digest(p.view), partial(_evaluate_play, p.view, chosen)
    for i, p in enumerate(passes):
        options = _pass_options(p.view)

        def pass_vals(p: Position = p, options: list[tuple[int, ...]] = options, i: int = i) -> Json:
            return _values(_run(pass_values(p.view, options, random.Random(f"pass-values-{i}"), (2, 4)[i % 2])))

        yield f"values/pass/{i}", _digest(p.view), pass_vals
        passed = tuple(Card(c) for c in options[i % len(options)])
        yield f"evaluate/pass/{i}", _digest(p.view), partial(_evaluate_pass, p.view, passed)
    for i, hand in enumerate(hands[: 1 if slice_ else 24]):
        seat = SEATS[i % 4]
        yield f"review/{i}/{seat.key}", "", partial(_verdicts, hand, seat)


def _hint(view: SeatView) -> Json:
    return _plain(hint(view).__dict__)


def _evaluate_play(view: SeatView, chosen: Card) -> Json:
    return _plain(_cost(_run(evaluate_play(view, chosen, iterations=12, seed="x"))))


def _evaluate_pass(view: SeatView, passed: tuple[Card, ...]) -> Json:
    return _plain(_cost(_run(evaluate_pass(view, passed, iterations=6, seed="y"))))


def _cost(result: tuple[tuple[Card, ...], float]) -> dict[str, list[str] | float]:
    best, cost = result
    return {"best": [c.text for c in best], "cost": round(cost, 9)}


def _verdicts(hand: Hand, seat: Seat) -> list[Json]:
    return [
        _plain(
            {
                "index": v.index,
                "kind": v.kind,
                "chosen": [c.text for c in v.chosen],
                "best": [c.text for c in v.best],
                "cost": round(v.cost, 9),
                "flagged": v.flagged,
                "reason": v.reason,
                "params": v.params,
            }
        )
        for v in review(hand, seat, iterations=10, seed="lab")
    ]


def _run(steps: Generator[None, None, T]) -> T:
    while True:
        try:
            next(steps)
        except StopIteration as done:
            value: T = done.value  # what the generator returned
            return value


def _par_items(slice_: bool) -> Iterator[Item]:
    first = datetime.date(2026, 1, 1)
    for i in range(2 if slice_ else 48):
        date = (first + datetime.timedelta(days=11 * i)).isoformat()
        yield f"par/{date}", "", partial(compute_par, date)
    if slice_:
        return
    for i, case in enumerate(json.loads(GOLDEN.read_text(encoding="utf-8"))):
        yield f"golden/{i}", "", partial(_golden, case, i)


def _golden(case: GoldenCase, index: int) -> Json:
    """A pinned decision of tests/fixtures/hard_v1.json decided again (as lab/golden_hard.py)."""
    view = hand_from_record(case["hand"]).view(Seat.parse(case["seat"]))
    worlds = 6 if view.phase is Phase.PASSING else 30
    d = make_bot("hard", iterations=worlds, version=1).decide(view, random.Random(f"golden-hard-{index}"))
    got = _plain(
        {
            "cards": [c.text for c in d.cards],
            "reason": d.reason,
            "params": d.params,
            "worlds": d.stats.get("worlds"),
            "values": d.stats.get("values"),
        }
    )
    return {"decision": got, "as_pinned": got == case["decision"]}


def _as_pinned(result: Json) -> bool:
    """Whether a golden item's result (:func:`_golden`) is the decision tests/fixtures/hard_v1.json pins."""
    return isinstance(result, Mapping) and bool(result["as_pinned"])


def items(slice_: bool = False) -> list[Item]:
    """Everything decided, in order (``slice_``: a few hundred cheap ones, for the tests)."""
    pos, hands = positions(40 if slice_ else HANDS)
    out = list(_bot_items(pos, slice_))
    out += _modes_items(pos, slice_)
    out += _review_items(pos, hands, slice_)
    out += _par_items(slice_)
    return out


# ----------------------------------------------------------------------------- record, check
def line(key: str, result: Json) -> str:
    return key + "\t" + json.dumps(result, sort_keys=True, separators=(",", ":"))


def signature(lines: list[str]) -> str:
    """One number for all the decisions: the first 16 hex digits of a SHA-256 over them in order."""
    digest = hashlib.sha256()
    for text in lines:
        digest.update(text.encode("utf-8") + b"\n")
    return digest.hexdigest()[:16]


def decide_all(slice_: bool = False, progress: bool = False) -> list[Record]:
    todo = items(slice_)
    out: list[Record] = []
    start = time.perf_counter()
    for n, (key, view, compute) in enumerate(todo):
        out.append({"key": key, "view": view, "result": compute()})
        if progress and (n + 1) % 250 == 0:
            print(f"  {n + 1}/{len(todo)} in {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    return out


def slice_signature() -> tuple[int, str]:
    """(decisions, signature) of the cheap slice (``tests/test_decisions.py`` pins both)."""
    records = decide_all(slice_=True)
    return len(records), signature([line(r["key"], r["result"]) for r in records])


def _compare(stored: list[Record], now: list[Record]) -> list[str]:
    errors = []
    if len(stored) != len(now):
        errors.append(f"{len(stored)} decisions recorded, {len(now)} now")
    for old, new in zip(stored, now):
        if old["key"] != new["key"] or old["view"] != new["view"]:
            errors.append(f"position changed: {old['key']} {old['view']} -> {new['key']} {new['view']}")
        elif old["result"] != new["result"]:
            errors.append(
                f"{old['key']}: recorded {json.dumps(old['result'])[:400]}\n"
                f"{' ' * len(old['key'])}  now      {json.dumps(new['result'])[:400]}"
            )
    return errors


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("record", "check", "signature"))
    parser.add_argument("--slice", action="store_true", help="only the cheap slice the tests pin")
    parser.add_argument("--out", type=Path, default=OUT)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    start = time.perf_counter()
    records = decide_all(args.slice, progress=args.command != "signature")
    sig = signature([line(r["key"], r["result"]) for r in records])
    seconds = time.perf_counter() - start
    summary = f"{len(records)} decisions, signature {sig} ({seconds:.0f} s)"
    if args.command == "signature":
        print(summary)
        return 0
    if args.command == "record":
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in records), encoding="utf-8")
        print(f"recorded {summary} to {args.out}")
        return 0
    stored: list[Record] = [json.loads(text) for text in args.out.read_text(encoding="utf-8").splitlines()]
    errors = _compare(stored, records)
    golden = [r["key"] for r in records if r["key"].startswith("golden/") and not _as_pinned(r["result"])]
    errors += [f"{key}: differs from tests/fixtures/hard_v1.json" for key in golden]
    old_sig = signature([line(r["key"], r["result"]) for r in stored])
    print("\n".join(errors[:10]))
    print(
        f"{'FAILED' if errors else 'equal'}: {len(records) - len(errors)} of {len(stored)} recorded decisions equal; "
        f"recorded signature {old_sig}, now {summary}"
    )
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
