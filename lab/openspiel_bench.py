#!/usr/bin/env python3
"""An independent sparring partner and referee: Hard against OpenSpiel's ISMCTS on OpenSpiel's Hearts.

    python3 -m venv .venv-lab && .venv-lab/bin/pip install -r lab/requirements.txt
    .venv-lab/bin/python -m lab.openspiel_bench --deals 200 --bots hard,hard-v1 --jobs 2

Not part of the game (OpenSpiel is a benchmark dependency only: ``lab/requirements.txt``).
Every deal is played once per seat: one Hard seat against three ISMCTS seats, so each bot
plays the deal from every seat and the luck of the cards cancels. OpenSpiel's own Hearts
(``pyspiel.load_game("hearts")``, the standard rules of this game: no Q♠-breaks-hearts,
2♣ leads, no points on the first trick) referees every card: Hard's plays must be among
OpenSpiel's legal actions, ISMCTS's plays must be legal in our engine, and at the end the
two engines must agree on every seat's points (OpenSpiel returns 26 - points, and a moon).

ISMCTS: ``pyspiel.ISMCTSBot`` (C++), random-rollout evaluator, ``--sims`` simulations per
decision (default 1,000), UCT constant ``--uct-c``, unlimited world samples, the most visited
action. It also chooses its passes (one card at a time, as OpenSpiel's game asks).

Reports per bot: points/hand of the Hard seat, of the three ISMCTS seats (same games), the
difference per deal with a 95% CI and p-value, moons; with several bots, the paired difference
between them on the same deals. ``--out FILE`` appends one JSON line per deal (resumable).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hearts import PRESETS, Hand, Phase, Seat
from hearts.deal import deal_from_seed
from hearts.seats import PassDirection
from lab.arena import ArenaConfig, _make, bot_list
from lab.moon_report import moon_allowed, sign_test
from lab.rows import OpenSpielGame
from lab.seeing import SeeingHard

ROOT = Path(__file__).resolve().parents[1]

RULES = PRESETS["standard"]
GAME_PARAMS = {"qs_breaks_hearts": False}  # the rest of OpenSpiel's defaults are the standard rules
DIRECTIONS = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD)
OS_DIRECTION = {PassDirection.HOLD: 0, PassDirection.LEFT: 1, PassDirection.ACROSS: 2, PassDirection.RIGHT: 3}
OS_SUIT = (0, 1, 3, 2)  # ours: clubs, diamonds, spades, hearts; OpenSpiel: clubs, diamonds, hearts, spades


def os_card(card: int) -> int:
    """Our card number -> OpenSpiel's action (rank * 4 + suit)."""
    return (card % 13) * 4 + OS_SUIT[card // 13]


def our_card(action: int) -> int:
    return OS_SUIT.index(action % 4) * 13 + action // 4


# OpenSpiel's objects (pyspiel's game, state and bot) are Any: pyspiel has no type information
def new_state(game: Any, deal: Sequence[Sequence[int]], direction: PassDirection, first: int = 0) -> Any:
    """OpenSpiel's state after the deal; OpenSpiel's player q holds our seat ``(q + first) % 4``."""
    state = game.new_initial_state()
    state.apply_action(OS_DIRECTION[direction])
    for i in range(13):  # OpenSpiel deals card k to player k % 4
        for q in range(4):
            state.apply_action(os_card(deal[(q + first) % 4][i]))
    return state


def ismcts_pass(bot: Any, game: Any, deal: Sequence[Sequence[int]], direction: PassDirection, seat: int) -> list[int]:
    """ISMCTS's three pass cards for ``seat``, searched as OpenSpiel's first passer.

    OpenSpiel asks the players for their passes one after the other, and its ISMCTS crashes
    (segmentation fault in 2.0.2) when it searches for any passer but the first. Passes are
    simultaneous in the game (a passer never sees another's choice), so searching from a
    rotated deal in which this seat passes first gives ISMCTS exactly the same information."""
    state = new_state(game, deal, direction, first=seat)
    cards: list[int] = []
    for _ in range(3):
        action: int = bot.step(state)
        state.apply_action(action)
        cards.append(action)
    return cards


def play_deal(deal_no: int, hero_seat: int, bot_name: str, args: argparse.Namespace) -> OpenSpielGame:
    """One game: ``bot_name`` in ``hero_seat``, ISMCTS in the other three. ``ismcts@C`` as the
    bot is ISMCTS with the UCT constant C (to calibrate the field's constant)."""
    import pyspiel  # lab/requirements.txt, imported here so that the command line parses without it

    deal = deal_from_seed(f"openspiel-{args.seed}-{deal_no}")
    direction = DIRECTIONS[deal_no % 4]
    game = pyspiel.load_game("hearts", GAME_PARAMS)
    state = new_state(game, deal, direction)
    hand = Hand(deal, RULES, direction)
    hero_ismcts = bot_name.startswith("ismcts")
    hero = None if hero_ismcts else _make(bot_name, ArenaConfig((bot_name,)))
    if isinstance(hero, SeeingHard):  # the all-seeing Hard is told the real hands
        hero.truth = lambda: [hand.cards_mask(s) for s in Seat]
    rng = random.Random(f"openspiel|{args.seed}|{deal_no}|{hero_seat}")
    evaluator = pyspiel.RandomRolloutEvaluator(1, args.seed * 1000 + deal_no)
    uct = [
        float(bot_name.partition("@")[2] or args.uct_c) if s == hero_seat and hero_ismcts else args.uct_c
        for s in range(4)
    ]
    ismcts = [
        pyspiel.ISMCTSBot(
            args.seed * 100000 + deal_no * 10 + s,
            evaluator,
            uct[s],
            args.sims,
            -1,
            pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            False,
            False,
        )
        for s in range(4)
    ]
    pending: dict[int, list[int]] = {}
    passing: dict[int, list[int]] = {s: [] for s in range(4)}
    hero_seconds = 0.0
    plays: list[int] = []  # every card in the order played (the seat follows from the rules)
    while not state.is_terminal():
        p: int = state.current_player()
        mine = hero if p == hero_seat else None  # the bot, on its turn
        if hand.phase is Phase.PASSING:
            if p not in pending:
                if mine is not None:
                    t0 = time.perf_counter()
                    pending[p] = [os_card(int(c)) for c in mine.decide(hand.view(Seat(p)), rng).cards]
                    hero_seconds += time.perf_counter() - t0
                else:
                    pending[p] = ismcts_pass(ismcts[p], game, deal, direction, p)
            action = pending[p].pop(0)
            if action not in state.legal_actions():
                raise AssertionError(f"deal {deal_no}: seat {p} passes an illegal card {action}")
            state.apply_action(action)
            passing[p].append(our_card(action))
            if len(passing[p]) == 3:
                hand.choose_pass(Seat(p), passing[p])
            continue
        if hand.turn != Seat(p):
            raise AssertionError(f"deal {deal_no}: the engines disagree on the turn ({hand.turn} vs {p})")
        if mine is not None:
            t0 = time.perf_counter()
            card = int(mine.decide(hand.view(Seat(p)), rng).cards[0])
            hero_seconds += time.perf_counter() - t0
            action = os_card(card)
            if action not in state.legal_actions():
                raise AssertionError(f"deal {deal_no}: OpenSpiel refuses {bot_name}'s card {card}")
        else:
            action = ismcts[p].step(state)
            card = our_card(action)
        hand.play(Seat(p), card)  # our engine refuses an illegal ISMCTS card (a rules mismatch)
        plays.append(card)
        state.apply_action(action)
    assert hand.result is not None
    points = list(hand.result.points)
    returns = state.returns()
    if hand.result.moon is None and [round(26 - r) for r in returns] != points:
        raise AssertionError(f"deal {deal_no}: the engines disagree on the points: {points} vs returns {returns}")
    others = [points[s] for s in range(4) if s != hero_seat]
    game_row: OpenSpielGame = {
        "deal": deal_no,
        "seat": hero_seat,
        "bot": bot_name,
        "points": points,
        "hard": points[hero_seat],
        "them": sum(others) / 3,
        "moon": -1 if hand.result.moon is None else int(hand.result.moon),
        "hard_seconds": hero_seconds,
    }
    if getattr(args, "log_plays", False):  # for lab.openspiel_tricks: the passes and the plays
        game_row["passes"] = [passing[s] for s in range(4)]
        game_row["plays"] = plays
    return game_row


def play_task(task: tuple[int, str, argparse.Namespace]) -> list[OpenSpielGame]:
    deal_no, bot_name, args = task
    return [play_deal(deal_no, seat, bot_name, args) for seat in range(4)]


def mean_ci(values: list[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else float("inf")
    se = sd / math.sqrt(n)
    p = math.erfc(abs(mean) / se / math.sqrt(2)) if se > 0 else float("nan")
    return mean, 1.96 * se, p


def report(rows: list[OpenSpielGame], args: argparse.Namespace) -> str:
    import pyspiel

    bots = list(dict.fromkeys(r["bot"] for r in rows))
    by: dict[tuple[str, int], list[OpenSpielGame]] = {}
    for r in rows:
        by.setdefault((r["bot"], r["deal"]), []).append(r)
    lines = [
        f"OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''} Hearts {GAME_PARAMS}; "
        f"ISMCTS {args.sims} simulations, uct_c {args.uct_c}, random rollouts; seed {args.seed}",
        "one bot seat against three ISMCTS seats, every deal from all four seats "
        "(left/right/across/hold by deal number)",
        "",
        f"{'bot':<22} {'deals':>5} {'bot pts/hand':>13} {'ISMCTS pts':>11} {'bot - ISMCTS':>16} {'p':>8} "
        f"{'moons bot/ISMCTS':>17} {'s/decision':>10}",
    ]
    complete = {b: sorted(d for (bb, d), rs in by.items() if bb == b and len(rs) == 4) for b in bots}
    for b in bots:
        deals = complete[b]
        games = [r for d in deals for r in by[(b, d)]]
        diffs = [sum(r["hard"] - r["them"] for r in by[(b, d)]) / 4 for d in deals]
        m, ci, p = mean_ci(diffs)
        hard = sum(r["hard"] for r in games) / len(games)
        them = sum(r["them"] for r in games) / len(games)
        own_moons = sum(1 for r in games if r["moon"] == r["seat"])
        their_moons = sum(1 for r in games if moon_allowed(r))
        per_decision = sum(r["hard_seconds"] for r in games) / (len(games) * 14)
        lines.append(
            f"{b:<22} {len(deals):>5} {hard:13.3f} {them:11.3f} {m:+9.3f} ± {ci:.3f} {p:8.2g} "
            f"{own_moons:>8}/{their_moons:<8} {per_decision:10.3f}"
        )
        # the ordinary play: the deals in which none of the four games had a moon
        calm = [v for v, d in zip(diffs, deals) if all(r["moon"] < 0 for r in by[(b, d)])]
        if len(calm) > 1:
            m, ci, p = mean_ci(calm)
            lines.append(f"  {'no moon':<20} {len(calm):>5} {'':>13} {'':>11} {m:+9.3f} ± {ci:.3f} {p:8.2g}")
    if len(bots) > 1:
        lines += ["", "paired on the same deals (bot - ISMCTS of A minus that of B; moons only A / only B allowed):"]
        for i, a in enumerate(bots):
            for b in bots[i + 1 :]:
                common = sorted(set(complete[a]) & set(complete[b]))
                if len(common) < 2:
                    continue
                diffs = [
                    sum(r["hard"] - r["them"] for r in by[(a, d)]) / 4
                    - sum(r["hard"] - r["them"] for r in by[(b, d)]) / 4
                    for d in common
                ]
                m, ci, p = mean_ci(diffs)
                pairs = [(ra, rb) for d in common for ra in by[(a, d)] for rb in by[(b, d)] if ra["seat"] == rb["seat"]]
                only_a = sum(1 for ra, rb in pairs if moon_allowed(ra) and not moon_allowed(rb))
                only_b = sum(1 for ra, rb in pairs if moon_allowed(rb) and not moon_allowed(ra))
                lines.append(
                    f"  {a} - {b}: {m:+.3f} ± {ci:.3f} (n={len(common)} deals, p={p:.2g}); "
                    f"moons {only_a} / {only_b} (sign test p={sign_test(only_a, only_b):.2g})"
                )
    return "\n".join(lines)


def _bots(text: str) -> str:
    """An argparse type: arena specs (:func:`lab.arena.bot_list`) and ``ismcts@C``, an ISMCTS seat."""
    for name in text.split(","):
        level, _, uct = name.partition("@")
        if level == "ismcts":
            try:
                float(uct or 0)
            except ValueError:
                raise argparse.ArgumentTypeError(f"bad UCT constant in {name!r}") from None
        else:
            bot_list(name)
    return text


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument(
        "--bots",
        default="hard",
        type=_bots,
        help="comma-separated arena specs (hard, hard-v1, hard@600/60, medium) or ismcts@C",
    )
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="JSON lines, one per game; existing deals are not played again")
    parser.add_argument(
        "--log-plays",
        action="store_true",
        help="each game's line also holds its passes and plays (for lab.openspiel_tricks)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    rows: list[OpenSpielGame] = []
    if args.out and args.out.exists():
        rows = [json.loads(line) for line in args.out.read_text().splitlines() if line.strip()]
    done = {(r["bot"], r["deal"]) for r in rows}
    tasks = [
        (d, b, args)
        for d in range(args.first, args.first + args.deals)
        for b in args.bots.split(",")
        if (b, d) not in done
    ]
    out = args.out.open("a") if args.out else None
    start = time.perf_counter()
    pool = None
    if args.jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(args.jobs)
    try:
        results = pool.imap_unordered(play_task, tasks) if pool else map(play_task, tasks)
        for n, games in enumerate(results, 1):
            rows.extend(games)
            if out:
                for g in games:
                    out.write(json.dumps(g) + "\n")
                out.flush()
            print(f"\r{n}/{len(tasks)} deal sets, {time.perf_counter() - start:.0f} s", end="", file=sys.stderr)
    finally:
        if pool:
            pool.close()
            pool.join()
        if out:
            out.close()
    print(file=sys.stderr)
    print(report(rows, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
