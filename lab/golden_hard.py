"""Write (or check) the golden decisions of a pinned Hard version: ``tests/fixtures/hard_v1.json``.

    python3 -m lab.golden_hard            # check: exit 1 and list the first differences
    python3 -m lab.golden_hard --write    # regenerate (only on purpose: it pins "par v1")

The positions come from hands played by Easy/Medium/Random in every preset, some with match
scores close to the target (so the match-aware utility is covered); the file stores each
position as a hand record plus the seat, and the decision of Hard at ``version=1`` with a
fixed number of worlds and a fixed RNG seed: the cards, the reason and every searched value.
Any change that alters what par v1 computes (a different random stream, sampling or rollout)
changes some value here; ``tests/test_configs.py`` runs the same check.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, TypedDict

from hearts import PRESETS, Hand, Phase, Seat
from hearts.bots import make_bot
from hearts.records import hand_from_record, hand_to_record

ROOT = Path(__file__).resolve().parents[1]

FIXTURE = ROOT / "tests" / "fixtures" / "hard_v1.json"
PLAY_WORLDS = 30
PASS_WORLDS = 6
CASES = 120


class GoldenDecision(TypedDict):
    """What Hard v1 decided, as the fixture keeps it."""

    cards: list[str]
    reason: str
    params: dict[str, Any]  # Decision.params: the reason's parameters, as the engine types them
    worlds: int | None
    values: dict[str, float] | None  # each searched choice's value, by its cards (a pass's joined by spaces)


class GoldenCase(TypedDict):
    """One pinned decision of tests/fixtures/hard_v1.json."""

    hand: dict[str, Any]  # hearts.records.hand_to_record's
    seat: str
    decision: GoldenDecision


def positions() -> list[tuple[Hand, Seat]]:
    """Decision points: every 5th decision of hands played by cheap bots (deterministic)."""
    out: list[tuple[Hand, Seat]] = []
    rng = random.Random("golden-hard")
    presets = sorted(PRESETS)
    n = 0
    while len(out) < CASES:
        rules = PRESETS[presets[n % len(presets)]]
        scores = (0, 0, 0, 0) if n % 3 else tuple(rng.randrange(40, rules.target) for _ in range(4))
        deal = list(range(52))
        rng.shuffle(deal)
        hand = Hand(
            [sorted(deal[i * 13 : (i + 1) * 13]) for i in range(4)], rules, hand_number=n % 4, scores_before=scores
        )
        bots = [make_bot(name) for name in ("medium", "easy", "random", "medium")]
        step = 0
        while hand.result is None:
            seat = hand.waiting_for_pass[0] if hand.phase is Phase.PASSING else hand.turn
            assert seat is not None
            view = hand.view(seat)
            if step % 5 == n % 5 and (view.phase is Phase.PASSING or len(view.legal) > 1):
                out.append((_copy(hand), seat))
            d = bots[seat].decide(view, rng)
            if hand.phase is Phase.PASSING:
                hand.choose_pass(seat, d.cards)
            else:
                hand.play(seat, d.cards[0])
            step += 1
        n += 1
    return out[:CASES]


def _copy(hand: Hand) -> Hand:
    return hand_from_record(json.loads(json.dumps(hand_to_record(hand))))


def decide(hand: Hand, seat: Seat, index: int) -> GoldenDecision:
    view = hand.view(seat)
    bot = make_bot("hard", iterations=PASS_WORLDS if view.phase is Phase.PASSING else PLAY_WORLDS, version=1)
    d = bot.decide(view, random.Random(f"golden-hard-{index}"))
    return {
        "cards": [c.text for c in d.cards],
        "reason": d.reason,
        "params": d.params,
        "worlds": d.stats.get("worlds"),
        "values": d.stats.get("values"),
    }


def build() -> list[GoldenCase]:
    return [
        {"hand": hand_to_record(hand), "seat": seat.key, "decision": decide(hand, seat, i)}
        for i, (hand, seat) in enumerate(positions())
    ]


def check(cases: list[GoldenCase]) -> list[str]:
    """The differences between the stored decisions and what Hard v1 decides now."""
    errors = []
    for i, case in enumerate(cases):
        hand = hand_from_record(case["hand"])
        got: GoldenDecision = json.loads(json.dumps(decide(hand, Seat.parse(case["seat"]), i)))
        if got != case["decision"]:
            errors.append(f"case {i} ({case['seat']}): stored {case['decision']} != now {got}")
    return errors


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    if args.write:
        FIXTURE.write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {FIXTURE.relative_to(ROOT)}")
        return 0
    errors = check(json.loads(FIXTURE.read_text(encoding="utf-8")))
    print("\n".join(errors[:5]) or "hard v1: all golden decisions reproduced")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
