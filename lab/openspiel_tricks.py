#!/usr/bin/env python3
"""Where the points come from: the tricks of ``python3 -m lab.openspiel_bench --log-plays`` games, replayed.

    python3 -m lab.openspiel_tricks lab/out/openspiel-v4-deals400.jsonl

Each logged game is replayed through our engine (the deal from its seed, the passes, then every
card in order; the engine refuses a game that does not replay). Every trick a seat wins is sorted
by how it came to win it:

* **led**: it led and nobody went over;
* **could duck**: it followed suit and held a card under the winner at its turn, but won;
* **forced**: it followed suit and every card it held in the suit was over the winner.

Reported per seat and hand, for the bot's seat and for an ISMCTS seat (the mean of the three), the
hearts and the Q♠ taken in each kind of trick, the tricks' position (early: 1–4, middle: 5–9,
late: 10–13), the bot's plays where versions 1–4 grouped a duck with a win (see
``hearts.bots.candidates``) and how often it went over, the hearts taken in could-duck tricks while
another seat alone had points (a block against a possible moon), and the hearts each seat threw on
others' tricks when void. Hands with a moon are
left out (their points follow other aims). Standard rules only: the games bench_openspiel plays.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from hearts import PRESETS, Hand, Seat
from hearts.bots.candidates import candidates
from hearts.bots.knowledge import Knowledge
from hearts.deal import deal_from_seed
from hearts.seats import PassDirection
from lab.rows import OpenSpielGame

ROOT = Path(__file__).resolve().parents[1]

RULES = PRESETS["standard"]
DIRECTIONS = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD)  # bench_openspiel's
QUEEN = 36
KINDS = ("led", "could duck", "forced")
PHASES = ("early", "middle", "late")


def _phase(trick: int) -> str:
    return PHASES[0] if trick < 4 else PHASES[1] if trick < 9 else PHASES[2]


def _runner(taken: list[int], seat: int) -> bool:
    """Could another seat still be running a moon? It alone has taken points so far."""
    holders = [s for s in range(4) if taken[s]]
    return len(holders) == 1 and holders[0] != seat


def passed_hand(row: OpenSpielGame, seed: int) -> Hand:
    """A logged game's hand in our engine: its deal (from the bench's seed), the passes made."""
    deal_no = row["deal"]
    hand = Hand(deal_from_seed(f"openspiel-{seed}-{deal_no}"), RULES, DIRECTIONS[deal_no % 4])
    if DIRECTIONS[deal_no % 4] is not PassDirection.HOLD:
        for s in range(4):
            hand.choose_pass(Seat(s), row["passes"][s])
    return hand


def replay(row: OpenSpielGame, seed: int) -> list[dict[str, float]]:
    """Per seat: points taken by kind and phase, and hearts thrown when void."""
    deal_no = row["deal"]
    hand = passed_hand(row, seed)
    tally: list[dict[str, float]] = [defaultdict(float) for _ in range(4)]
    trick: list[tuple[int, int, str]] = []  # (seat, card, kind it would be if it wins)
    taken = [0, 0, 0, 0]  # points each seat has taken so far
    for n, card in enumerate(row["plays"]):
        if hand.turn is None:
            raise ValueError(f"deal {deal_no} does not replay: no seat is to play its card {n + 1}")
        seat = int(hand.turn)
        if seat == row["seat"]:
            k = Knowledge(hand.view(Seat(seat)))
            tally[seat]["plays"] += 1
            if candidates(k) != candidates(k, trick_split=False):  # v1-v4 merged a duck with a win
                tally[seat]["plays with a merged duck"] += 1
                if trick and card // 13 == trick[0][1] // 13 and card > k.trick_best()[1]:
                    tally[seat]["... and went over"] += 1
        held = hand.cards_mask(Seat(seat))
        if not trick:
            kind = "led"
        else:
            led = trick[0][1] // 13
            best = max(c for _, c, _ in trick if c // 13 == led)
            suit_cards = [c for c in range(led * 13, led * 13 + 13) if held >> c & 1]
            if not suit_cards:
                kind = "void"
                if card >= 39:
                    tally[seat]["thrown hearts"] += 1
                if card == QUEEN:
                    tally[seat]["thrown queen"] += 1
            else:
                kind = "could duck" if min(suit_cards) < best else "forced"
        trick.append((seat, card, kind))
        hand.play(Seat(seat), card)
        if len(trick) == 4:
            led = trick[0][1] // 13
            winner, _, won_kind = max((t for t in trick if t[1] // 13 == led), key=lambda t: t[1])
            hearts = sum(1 for _, c, _ in trick if c >= 39)
            queen = any(c == QUEEN for _, c, _ in trick)
            phase = _phase(n // 4)
            tally[winner][f"hearts {won_kind}"] += hearts
            tally[winner][f"hearts {phase}"] += hearts
            tally[winner][f"queen {won_kind}"] += queen
            tally[winner][f"tricks won {won_kind}"] += 1
            tally[winner][f"tricks with hearts {won_kind}"] += hearts > 0
            if won_kind == "could duck" and hearts and _runner(taken, winner):
                tally[winner]["hearts could duck, runner about"] += hearts
            taken[winner] += hearts + 13 * queen
            trick = []
    assert hand.result is not None and list(hand.result.points) == row["points"], f"deal {deal_no} does not replay"
    return tally


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    rows: list[OpenSpielGame] = [
        json.loads(line) for f in args.files for line in f.read_text().splitlines() if line.strip()
    ]
    rows = [r for r in rows if "plays" in r]
    if not rows:
        print("no logged games (run bench_openspiel.py with --log-plays)", file=sys.stderr)
        return 1
    for bot in sorted({r["bot"] for r in rows}):
        games = [r for r in rows if r["bot"] == bot and r["moon"] < 0]
        hero: dict[str, float] = defaultdict(float)
        field: dict[str, float] = defaultdict(float)
        for r in games:
            for s, t in enumerate(replay(r, args.seed)):
                for key, value in t.items():
                    (hero if s == r["seat"] else field)[key] += value
        n = len(games)
        print(
            f"{bot}: {n} games without a moon ({len({r['deal'] for r in games})} deals); per seat and hand, "
            f"the bot's seat against an ISMCTS seat (the three averaged)"
        )
        print(f"  {'':30}{'bot':>8}{'ISMCTS':>8}{'bot - ISMCTS':>14}")
        keys = (
            [f"hearts {k}" for k in KINDS]
            + ["hearts could duck, runner about"]
            + [f"hearts {p}" for p in PHASES]
            + [f"queen {k}" for k in KINDS]
            + [f"tricks won {k}" for k in KINDS]
            + [f"tricks with hearts {k}" for k in KINDS]
            + ["thrown hearts", "thrown queen"]
        )
        for key in keys:
            a, b = hero[key] / n, field[key] / (3 * n)
            print(f"  {key:30}{a:8.3f}{b:8.3f}{a - b:+14.3f}")
        print(
            f"  the bot's {hero['plays']:.0f} plays: {hero['plays with a merged duck']:.0f} "
            f"({hero['plays with a merged duck'] / hero['plays']:.1%}) had a duck that versions 1-4 grouped "
            f"with a win (one card searched, the higher); it went over in {hero['... and went over']:.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
