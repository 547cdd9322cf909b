"""Hard whose worlds are weighed by how likely the others' plays are in them (issue 56, item 2).

A lab player (never in the game): Hard's search, except that each world it plays is chosen
among ``draws`` worlds of the usual sampler (voids, passes and the Q♠ inference stay hard
constraints) with a chance proportional to the likelihood of every play the other seats have
made this hand, given the hand that world gives them (sampling-importance-resampling, one world
at a time, so it works at any budget and keeps the search's determinism for a fixed RNG).

The model of a seat is Hard's own rollout policy (:mod:`hearts.bots.rollout`: duck with the
highest card under the winner, dump the Q♠, then the A♠/K♠, then hearts...) played with noise
``eps``: a play the policy makes has likelihood ``(1 - eps) + eps / n`` (``n``: the legal cards),
any other play ``eps / n``. A lead follows the policy's mixture (flush the queen 60% of the time
when it can, else the lowest card). A world in which a seat "should" have played differently is
not forbidden: it is weighed down, by a factor of about ``eps / n``, once per such play.

In a bot list it is ``weighM-`` (M worlds drawn per world played) and ``eN`` (eps in
hundredths) before a Hard spec, e.g. ``weigh4e50-hard@1150/270``::

    .venv-lab/bin/python -m lab.openspiel_bench --first 2000 --deals 100 \\
        --bots weigh4e50-hard@1150/270 --uct-c 25 --jobs 2

How well the model fits a field: run as a module on games of ``lab.openspiel_bench --log-plays``
(ISMCTS in three seats), it replays each game and, at every play of the bot's seat, ranks the
true deal's likelihood among the worlds Hard's sampler deals (0.5: the plays tell the model
nothing; above: the truth looks likelier than a random world; below: the model misleads).
``--medium`` does the same for hands Medium plays in every seat. ``--agree W`` also decides each
of those plays with Hard, the weighed Hard (``--draws``) and the all-seeing Hard at W worlds, with
the same random numbers, and reports how often each chooses the all-seeing Hard's card (a finer
measure than points: better worlds should make Hard choose like the player who sees them)::

    .venv-lab/bin/python -m lab.weighted lab/out/fit-ismcts.jsonl [--medium 40] [--eps 50] [--agree 290]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from hearts import PRESETS, Hand, Seat
from hearts.bots import make_bot
from hearts.bots.hard import HardBot
from hearts.bots.knowledge import Knowledge
from hearts.bots.rollout import FULL, HEARTS, HI, PC, QS_CARD, RolloutPolicy, Rollouts, discard, follow, lead
from hearts.bots.search import PlaySearch
from hearts.bots.worlds import WorldSampler
from hearts.deal import deal_from_seed
from hearts.seats import PassDirection
from lab.openspiel_tricks import passed_hand
from lab.seeing import SeeingHard

__all__ = ["PlayLikelihood", "WeighedSampler", "WeighedHard", "truth_rank", "main"]

Sampler = Callable[[random.Random], list[int]]


class PlayLikelihood:
    """The log-likelihood of the other seats' plays of this hand, given a world (their hands now)."""

    def __init__(self, knowledge: Knowledge, policy: RolloutPolicy, eps: float) -> None:
        view = knowledge.view
        bound = Rollouts(policy, view.rules, knowledge.me)  # the rules' facts as the rollouts read them
        self.eps, self.me, self.medium, self.clean = eps, knowledge.me, bound.medium, bound.clean
        tricks = [t.plays for t in view.tricks] + ([view.current_trick] if view.current_trick else [])
        plays = [(trick_no, pos, int(s), int(c)) for trick_no, t in enumerate(tricks) for pos, (s, c) in enumerate(t)]
        # the cards each seat played from each play on (its hand then = its hand now | these)
        later = [0, 0, 0, 0]
        from_here: list[int] = [0] * len(plays)
        for i in range(len(plays) - 1, -1, -1):
            _, _, s, c = plays[i]
            later[s] |= 1 << c
            from_here[i] = later[s]
        # each informative play of another seat: what the policy would do with the hand of a world
        self.events: list[tuple[Any, ...]] = []
        broken, queen_live = False, True
        i = 0
        for trick_no, t in enumerate(tricks):
            led, best, points_in = -1, -1, 0
            bar_queen, bar_hearts = (bound.bar_queen, bound.bar_hearts) if trick_no == 0 else (0, 0)
            low_over = self.medium and trick_no > 0
            for pos, (s, c) in enumerate(t):
                s, c = int(s), int(c)
                suit, rank = divmod(c, 13)
                if s != self.me and not (trick_no == 0 and pos == 0):
                    if pos == 0:
                        self.events.append(("lead", s, from_here[i], c, trick_no, broken, queen_live))
                    else:
                        self.events.append(
                            (
                                "play",
                                s,
                                from_here[i],
                                c,
                                led,
                                best,
                                pos == 3,
                                points_in,
                                queen_live,
                                low_over,
                                bar_queen,
                                bar_hearts,
                            )
                        )
                if pos == 0:
                    led = suit
                if suit == led and rank > best:
                    best = rank
                if suit == HEARTS:
                    points_in += 1
                    broken = True
                elif c == QS_CARD:
                    points_in += 13
                    queen_live = False
                    broken = broken or (bound.queen_breaks and (pos == 0 or suit != led))
                i += 1

    def __call__(self, world: Sequence[int]) -> float:
        """log P(the plays | ``world``), up to a constant (``world``: the four hands now, as masks)."""
        eps, medium, clean = self.eps, self.medium, self.clean
        total = 0.0
        for event in self.events:
            s, then, card = event[1], event[2], event[3]
            hand = world[s] | then
            suits = [(hand >> shift) & FULL for shift in (0, 13, 26, 39)]
            c_suit, c_rank = divmod(card, 13)
            if event[0] == "lead":
                _, _, _, _, trick_no, broken, queen_live = event
                flush = lead(suits, 0, trick_no, broken, 0.0, queen_live, False)
                low = lead(suits, 0, trick_no, broken, 0.7, queen_live, False)
                played = (c_suit, c_rank)
                if flush != low:  # it may flush the queen (60%) or lead its lowest card (25%)
                    p_policy = 0.6 * (flush == played) + 0.25 * (low == played)
                else:
                    p_policy = 0.85 * (low == played)
                # (15%: the lowest card of a random suit, counted as any card)
                legal = PC[suits[0]] + PC[suits[1]] + PC[suits[2]] + PC[suits[3]]
                total += math.log((1 - eps) * (p_policy + 0.15 / legal) + eps / legal)
                continue
            _, _, _, _, led, best, last, points_in, queen_live, low_over, bar_queen, bar_hearts = event
            follows = suits[led]
            if follows:
                below = follows & ((1 << best) - 1)
                if below and not (clean and last):
                    rank = HI[below]
                else:
                    rank = follow(follows, below, led, last, points_in, queen_live, clean, low_over)
                chosen = (led, rank)
                legal = PC[follows]
            else:
                chosen = discard(suits, 0, bar_queen, bar_hearts, False, False, queen_live, medium)
                legal = PC[suits[0]] + PC[suits[1]] + PC[suits[2]] + PC[suits[3]]
            p_policy = 1.0 if chosen == (c_suit, c_rank) else 0.0
            total += math.log((1 - eps) * p_policy + eps / legal)
        return total


class WeighedSampler:
    """Draws ``draws`` worlds of ``base`` and returns one with a chance proportional to ``likelihood``."""

    def __init__(self, base: Sampler, likelihood: PlayLikelihood, draws: int) -> None:
        self.base, self.likelihood, self.draws = base, likelihood, draws

    def __call__(self, rng: random.Random) -> list[int]:
        worlds = [self.base(rng) for _ in range(self.draws)]
        if not self.likelihood.events:
            return worlds[0]
        logs = [self.likelihood(w) for w in worlds]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        x = rng.random() * sum(weights)
        for world, weight in zip(worlds, weights):
            x -= weight
            if x < 0:
                return world
        return worlds[-1]


class WeighedHard(HardBot):
    """:class:`HardBot` whose play worlds are weighed by the likelihood of the others' plays."""

    def __init__(self, *args: Any, draws: int = 4, eps: float = 0.5, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if draws < 1 or not 0 < eps <= 1:
            raise ValueError("draws must be at least 1 and eps in (0, 1]")
        self.draws, self.eps = draws, eps

    def _play_search(self, knowledge: Knowledge, cards: list[int], rng: random.Random) -> PlaySearch:
        search = super()._play_search(knowledge, cards, rng)
        likelihood = PlayLikelihood(knowledge, self.config.loop.policy, self.eps)
        worlds = search.worlds
        worlds.sampler = WeighedSampler(worlds.sampler, likelihood, self.draws)  # type: ignore[assignment]
        if worlds.strong is not None:
            worlds.strong = WeighedSampler(worlds.strong, likelihood, self.draws)  # type: ignore[assignment]
        return search


def truth_rank(knowledge: Knowledge, truth: Sequence[int], likelihood: PlayLikelihood, worlds: int, seed: int) -> float:
    """The share of ``worlds`` sampled worlds less likely than the truth (ties count half)."""
    sampler, rng = WorldSampler(knowledge), random.Random(seed)
    mine = likelihood(truth)
    logs = [likelihood(sampler(rng)) for _ in range(worlds)]
    return (sum(x < mine for x in logs) + 0.5 * sum(x == mine for x in logs)) / worlds


def logged_decisions(path: Path, seed: int) -> Iterator[tuple[Hand, int]]:
    """Each play of the bot's seat in the logged games of ``path``: (the hand then, the seat)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if "plays" not in row:
            continue  # (a game logged without --log-plays)
        hand = passed_hand(row, seed)
        for card in row["plays"]:
            assert hand.turn is not None, f"deal {row['deal']} does not replay"
            if int(hand.turn) == row["seat"]:
                yield hand, row["seat"]
            hand.play(hand.turn, card)


def medium_decisions(hands: int) -> Iterator[tuple[Hand, int]]:
    """Each play of South in ``hands`` hands (no passing) Medium plays in every seat."""
    medium = make_bot("medium")
    for n in range(hands):
        hand = Hand(deal_from_seed(f"weigh-fit-{n}"), PRESETS["standard"], PassDirection.HOLD)
        while hand.turn is not None:
            seat = hand.turn
            if seat is Seat.SOUTH:
                yield hand, int(seat)
            hand.play(seat, medium.decide(hand.view(seat), random.Random(n)).cards[0])


def cli() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="How well the weighed worlds' model fits a field.")
    parser.add_argument("games", type=Path, nargs="?", help="JSON lines of lab.openspiel_bench --log-plays")
    parser.add_argument("--seed", type=int, default=1, help="the bench's --seed")
    parser.add_argument("--medium", type=int, default=0, help="also this many hands Medium plays in every seat")
    parser.add_argument("--eps", type=int, default=50, help="the model's noise, in hundredths")
    parser.add_argument("--worlds", type=int, default=100, help="sampled worlds per decision")
    parser.add_argument("--agree", type=int, default=0, help="worlds a decision: agreement with the all-seeing Hard")
    parser.add_argument("--draws", type=int, default=4, help="the weighed Hard's worlds drawn per world played")
    return parser


def agreement(hand: Hand, seat: int, worlds: int, draws: int, eps: float, seed: int) -> tuple[bool, bool] | None:
    """Whether Hard and the weighed Hard choose the all-seeing Hard's card (None: one candidate)."""
    view = hand.view(Seat(seat))
    seeing = SeeingHard(iterations=worlds)
    seeing.truth = lambda: [hand.cards_mask(s) for s in Seat]
    best = seeing.decide(view, random.Random(seed))
    if not best.stats.get("worlds"):
        return None
    plain = HardBot(iterations=worlds).decide(view, random.Random(seed))
    weighed = WeighedHard(iterations=worlds, draws=draws, eps=eps).decide(view, random.Random(seed))
    return plain.cards == best.cards, weighed.cards == best.cards


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    policy = HardBot().config.loop.policy
    fields: list[tuple[str, Iterator[tuple[Hand, int]]]] = []
    if args.games:
        fields.append((f"ISMCTS ({args.games.name})", logged_decisions(args.games, args.seed)))
    if args.medium:
        fields.append((f"Medium ({args.medium} hands)", medium_decisions(args.medium)))
    print(
        f"rank of the true deal's likelihood among {args.worlds} sampled worlds (0.5: no information), eps {args.eps}%"
    )
    for name, decisions in fields:
        by_trick: dict[int, list[float]] = {}
        agreed: list[tuple[bool, bool]] = []
        for n, (hand, seat) in enumerate(decisions):
            knowledge = Knowledge(hand.view(Seat(seat)))
            likelihood = PlayLikelihood(knowledge, policy, args.eps / 100)
            if not likelihood.events:
                continue
            truth = [hand.cards_mask(s) for s in Seat]
            rank = truth_rank(knowledge, truth, likelihood, args.worlds, n)
            by_trick.setdefault(knowledge.trick_number // 4, []).append(rank)
            if args.agree:
                agrees = agreement(hand, seat, args.agree, args.draws, args.eps / 100, n)
                if agrees is not None:
                    agreed.append(agrees)
        ranks = [r for rs in by_trick.values() for r in rs]
        if not ranks:
            print(f"{name}: no decision with plays to read")
            continue
        parts = ", ".join(
            f"tricks {4 * k + 1}-{min(4 * k + 4, 13)}: {statistics.mean(rs):.3f} (n={len(rs)})"
            for k, rs in sorted(by_trick.items())
        )
        spread = 1.96 * statistics.stdev(ranks) / math.sqrt(len(ranks)) if len(ranks) > 1 else float("nan")
        print(f"{name}: mean rank {statistics.mean(ranks):.3f} ± {spread:.3f} (n={len(ranks)} decisions); {parts}")
        if agreed:
            plain, weighed = sum(a for a, _ in agreed), sum(b for _, b in agreed)
            only = sum(b and not a for a, b in agreed), sum(a and not b for a, b in agreed)
            print(
                f"  the all-seeing Hard's card at {args.agree} worlds, of {len(agreed)} searched plays: Hard {plain}, "
                f"the weighed Hard ({args.draws} draws) {weighed}; only the weighed {only[0]}, only Hard {only[1]}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
