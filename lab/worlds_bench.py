"""How close are Hard's sampled worlds to the real hidden hands? (world-sampler benchmark)

    python3 -m lab.worlds_bench --table hard-v1@60,hard-v1@60,hard-v1@60,hard-v1@60 --hands 60

Plays hands with the given table (one bot per seat: medium, easy, random, hard, hard-vN, with
``@N`` worlds), and at every decision of South with a choice, samples worlds with each
sampler and measures, for the unseen cards, the share dealt to the seat that really holds
them (1/3 when the sampler knows nothing, higher is better), overall and for the Q♠, by
stage of the hand. Cheap, deterministic and direct: a better sampler must score higher here
before it is worth an arena run.

Samplers: ``v1`` (voids, passed cards, the Q♠ inference), ``read:RATE:WEIGHT`` (v1 plus the
readings of ``lab.inference``: a seat gets a card its plays exclude with weight
``1 - trust``, trust = 1 - the seat's deviation rate, RATE/WEIGHT the prior), ``read-flat:T``
(the readings with one trust T for every seat).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from hearts import PRESETS, Hand, Phase, Seat
from hearts.bots.knowledge import Knowledge
from hearts.bots.worlds import WorldSampler
from hearts.deal import deal_from_seed
from lab.arena import ArenaConfig, _make, bot_list
from lab.inference import read_plays, reading_sampler

ROOT = Path(__file__).resolve().parents[1]


def sampler_for(name: str, k: Knowledge) -> WorldSampler:
    if name == "v1":
        return WorldSampler(k)
    reading = read_plays(k)
    if name.startswith("read-flat:"):
        return reading_sampler(k, reading, [float(name.split(":")[1])] * 4)
    _, rate, weight = name.split(":")
    trust = [1.0 - reading.deviation_rate(s, float(rate), float(weight)) for s in range(4)]
    return reading_sampler(k, reading, trust)


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default="medium,medium,medium,medium", type=bot_list)
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=40)
    parser.add_argument("--samplers", default="v1,read:0.2:4,read:0.1:4,read-flat:0.9")
    parser.add_argument("--seed", type=int, default=1)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    cfg = ArenaConfig(tuple(args.table.split(",")))
    bots = [_make(name, cfg) for name in cfg.bots]
    samplers = args.samplers.split(",")
    stages = ("tricks 1-4", "tricks 5-8", "tricks 9-13")
    hits = {s: [[0.0, 0.0] for _ in stages] for s in samplers}  # (cards right, cards) per stage
    queen = {s: [0.0, 0] for s in samplers}
    dev_total = [0, 0]
    rng = random.Random(args.seed)
    for n in range(args.hands):
        hand = Hand(deal_from_seed(f"worlds-{args.seed}-{n}"), PRESETS["standard"], hand_number=n % 4)
        while hand.result is None:
            seat = hand.waiting_for_pass[0] if hand.phase is Phase.PASSING else hand.turn
            assert seat is not None
            view = hand.view(seat)
            if seat == Seat.SOUTH and hand.phase is Phase.PLAYING and len(view.legal) > 1 and view.trick_number > 0:
                k = Knowledge(view)
                truth = [hand.cards_mask(Seat(s)) for s in range(4)]
                targets = k.unseen & ~k.known[1] & ~k.known[2] & ~k.known[3]
                stage = min(2, view.trick_number // 4)
                reading = read_plays(k)
                dev_total[0] += sum(reading.deviations)
                dev_total[1] += sum(reading.readings)
                for name in samplers:
                    sample = sampler_for(name, k)
                    srng = random.Random(f"{n}-{len(hand.plays)}-{name}")
                    for _ in range(args.worlds):
                        world = sample(srng)
                        right = sum(bin(world[s] & truth[s] & targets).count("1") for s in (1, 2, 3))
                        hits[name][stage][0] += right / args.worlds
                        if targets >> 36 & 1:
                            queen[name][0] += sum(world[s] >> 36 & truth[s] >> 36 & 1 for s in (1, 2, 3)) / args.worlds
                    hits[name][stage][1] += bin(targets).count("1")
                    if targets >> 36 & 1:
                        queen[name][1] += 1
            decision = bots[seat].decide(view, rng)
            if hand.phase is Phase.PASSING:
                hand.choose_pass(seat, decision.cards)
            else:
                hand.play(seat, decision.cards[0])
    print(f"table {args.table}; {args.hands} hands, South's decisions after the first trick, {args.worlds} worlds each")
    print(f"checked readings contradicted by the seat itself: {dev_total[0]} of {dev_total[1]}")
    print(f"{'sampler':<16}" + "".join(f"{s:>14}" for s in stages) + f"{'all':>9}{'Q♠':>8}")
    for name in samplers:
        per = [h[0] / h[1] if h[1] else float("nan") for h in hits[name]]
        total = sum(h[0] for h in hits[name]) / max(1.0, sum(h[1] for h in hits[name]))
        q = queen[name][0] / queen[name][1] if queen[name][1] else float("nan")
        print(f"{name:<16}" + "".join(f"{p:14.4f}" for p in per) + f"{total:9.4f}{q:8.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
