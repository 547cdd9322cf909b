"""Do weighed worlds see a moon run sooner? (issue 56, item 2's moon measure)

Hands Medium plays in every seat (no passing, as ``lab.weighted --medium``: the field its model
reads best). At each play of South, for each other seat: the share of Hard's sampled worlds in
which that seat makes the moon when it runs for it from here (Hard's rollouts: the runner plays
the moon plan, the others play Hard's model and block it once they see it), first as Hard's
sampler deals the worlds (each world alike), then weighed by the likelihood of the others' plays
(:class:`lab.weighted.PlayLikelihood`), and in the true deal (the same rollouts: the ceiling).

In a hand where that seat shoots the moon, a model that sees the run sooner gives it a larger
share, earlier; in the other hands, a larger share is a false alarm. South's own card is
Medium's, so the rollouts start as the hand went on. Run::

    .venv-lab/bin/python -m lab.moon_sight --hands 3000 [--worlds 200] [--eps 50]

:class:`MoonEyedHard` puts the measure to use: Hard whose runner watch also names a seat its
weighed worlds see running (``eyeT-`` before a Hard spec in the lab's bot lists).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Iterator
from typing import Any, NamedTuple

from hearts import PRESETS, Hand, Seat
from hearts.bots import make_bot
from hearts.bots.config import WorldLoop
from hearts.bots.hard import HardBot
from hearts.bots.knowledge import Knowledge
from hearts.bots.moon import made_moon
from hearts.bots.rollout import split_hands
from hearts.bots.search import PlaySearch
from hearts.bots.worlds import PlayWorld, PlayWorlds, playout_randoms, randoms
from hearts.deal import deal_from_seed
from hearts.seats import PassDirection
from lab.weighted import PlayLikelihood

__all__ = ["Sight", "MoonEyedHard", "medium_hands", "moon_shares", "sight", "main"]

ME = int(Seat.SOUTH)


class Sight(NamedTuple):
    """One play of South: for each other seat the moon is open to, its moon share in the uniform
    worlds, the weighed worlds and the true deal."""

    trick: int
    uniform: dict[int, float]
    weighed: dict[int, float]
    truth: dict[int, float]


def medium_hands(count: int) -> Iterator[tuple[str, list[tuple[Seat, int]], int]]:
    """Each hand Medium plays in every seat: its seed, the plays (seat, card) and the seat that
    shot the moon (-1: none)."""
    medium = make_bot("medium")
    for n in range(count):
        seed = f"moon-sight-{n}"
        hand = Hand(deal_from_seed(seed), PRESETS["standard"], PassDirection.HOLD)
        plays: list[tuple[Seat, int]] = []
        while hand.turn is not None:
            seat = hand.turn
            card = medium.decide(hand.view(seat), random.Random(n)).cards[0]
            plays.append((seat, int(card)))
            hand.play(seat, card)
        points = hand.points_taken
        yield seed, plays, next((s for s in range(4) if points[s] == 26), -1)


def moon_shares(
    knowledge: Knowledge, card: int, worlds: int, likelihood: PlayLikelihood, loop: WorldLoop, rng: random.Random
) -> tuple[dict[int, float], dict[int, float], dict[int, PlayWorlds]]:
    """For each other seat the moon is open to, before this seat plays ``card``: its moon share
    in ``worlds`` worlds of Hard's sampler, each alike and weighed by ``likelihood``; and each
    seat's world loop (its rollouts with that seat running)."""
    me = knowledge.me
    open_to = {
        s: PlayWorlds(knowledge, loop, [card], s, card, rng) for s in range(4) if s != me and knowledge.moon_open(s)
    }
    if not open_to:
        return {}, {}, {}
    sampler = next(iter(open_to.values())).sampler
    draws = playout_randoms(knowledge.trick_number)
    weights: list[float] = []
    made: dict[int, list[bool]] = {s: [] for s in open_to}
    for _ in range(worlds):
        masks = sampler(rng)
        weights.append(likelihood(masks))
        numbers = randoms(rng.randrange(1 << 30), draws)
        for s, seat_worlds in open_to.items():
            result = seat_worlds.play(PlayWorld(split_hands(masks), numbers, 0, True), card, False)
            made[s].append(made_moon(result, s))
    top = max(weights)
    weights = [math.exp(x - top) for x in weights]
    total = sum(weights)
    uniform = {s: statistics.mean(made[s]) for s in open_to}
    weighed = {s: sum(w for w, m in zip(weights, made[s], strict=True) if m) / total for s in open_to}
    return uniform, weighed, open_to


def sight(hand: Hand, card: int, worlds: int, eps: float, seed: int, bot: HardBot) -> Sight:
    """South's view of the moon before it plays ``card`` in ``hand``."""
    knowledge = Knowledge(hand.view(Seat.SOUTH))
    likelihood = PlayLikelihood(knowledge, bot.config.loop.policy, eps)
    uniform, weighed, open_to = moon_shares(knowledge, card, worlds, likelihood, bot.config.loop, random.Random(seed))
    draws = playout_randoms(knowledge.trick_number)
    truth_masks = [hand.cards_mask(s) for s in Seat]
    truth: dict[int, float] = {}
    for s, seat_worlds in open_to.items():
        tries = [
            made_moon(seat_worlds.play(PlayWorld(split_hands(truth_masks), randoms(k, draws), 0, True), card, False), s)
            for k in range(20)
        ]
        truth[s] = sum(tries) / len(tries)
    return Sight(knowledge.trick_number, uniform, weighed, truth)


class MoonEyedHard(HardBot):
    """:class:`HardBot` whose moon runner may also be a seat its weighed worlds see running: when
    the points-based watch finds none, the seat whose weighed moon share (``looks`` worlds, before
    Medium's card) is at least ``eye`` is played as the runner (half of the worlds, as Hard plays
    against any runner). In a bot list: ``eyeT-`` before a Hard spec (T: ``eye`` in hundredths)."""

    def __init__(self, *args: Any, eye: float = 0.3, looks: int = 60, eps: float = 0.5, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not 0 < eye <= 1 or looks < 1:
            raise ValueError("eye must be in (0, 1] and looks at least 1")
        self.eye, self.looks, self.eps = eye, looks, eps

    def _play_search(self, knowledge: Knowledge, cards: list[int], rng: random.Random) -> PlaySearch:
        search = super()._play_search(knowledge, cards, rng)
        if search.runner >= 0:
            return search
        loop = self.config.loop
        likelihood = PlayLikelihood(knowledge, loop.policy, self.eps)
        if not likelihood.events:
            return search
        reference = search.worlds.reference
        _, weighed, _ = moon_shares(knowledge, reference, self.looks, likelihood, loop, rng)
        seat = max(weighed, key=lambda s: weighed[s], default=-1)
        if seat >= 0 and weighed[seat] >= self.eye:
            search.runner = seat
            search.worlds = PlayWorlds(knowledge, loop, cards, seat, reference, rng)
        return search


def cli() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="Whether weighed worlds see a moon run sooner than Hard's.")
    parser.add_argument("--hands", type=int, default=3000, help="hands Medium plays in every seat")
    parser.add_argument("--worlds", type=int, default=200, help="sampled worlds at each of South's plays")
    parser.add_argument("--eps", type=int, default=50, help="the model's noise, in hundredths")
    parser.add_argument("--calm", type=int, default=60, help="hands without a moon measured as the control")
    parser.add_argument("--seen", type=float, default=0.5, help="the share at which a run counts as seen")
    return parser


def _line(name: str, rows: list[tuple[int, float, float, float]]) -> str:
    """Mean shares by tricks 1-4, 5-8, 9-13 (uniform / weighed / truth)."""
    parts = []
    for low, high in ((0, 3), (4, 7), (8, 12)):
        part = [r for r in rows if low <= r[0] <= high]
        if part:
            u, w, t = (statistics.mean(r[i] for r in part) for i in (1, 2, 3))
            parts.append(f"tricks {low + 1}-{high + 1}: {u:.3f} / {w:.3f} / {t:.3f} (n={len(part)})")
    diffs = [r[2] - r[1] for r in rows]
    if len(diffs) > 1:
        spread = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        parts.append(f"weighed - uniform {statistics.mean(diffs):+.3f} ± {spread:.3f}")
    return f"{name}: " + "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    args = cli().parse_args(argv)
    bot = HardBot()
    moon_rows: list[tuple[int, float, float, float]] = []
    calm_rows: list[tuple[int, float, float, float]] = []
    first_seen: list[tuple[int, int, int]] = []  # per moon hand: the trick each kind first saw it (13: never)
    moons = calm = 0
    for n, (seed, plays, shooter) in enumerate(medium_hands(args.hands)):
        if shooter == ME or (shooter < 0 and calm >= args.calm):
            continue
        moons += shooter >= 0
        calm += shooter < 0
        hand = Hand(deal_from_seed(seed), PRESETS["standard"], PassDirection.HOLD)
        seen = [13, 13, 13]
        for seat, card in plays:
            if seat is Seat.SOUTH:
                view = sight(hand, card, args.worlds, args.eps / 100, n * 100 + hand.trick_number, bot)
                for s in view.uniform:
                    row = (view.trick, view.uniform[s], view.weighed[s], view.truth[s])
                    if s == shooter:
                        moon_rows.append(row)
                        for i in range(3):
                            if row[i + 1] >= args.seen:
                                seen[i] = min(seen[i], view.trick)
                    elif shooter < 0:
                        calm_rows.append(row)
            hand.play(seat, card)
        if shooter >= 0:
            first_seen.append((seen[0], seen[1], seen[2]))
    print(
        f"moon share: the worlds in which a seat makes the moon running for it from South's play "
        f"(uniform / weighed, eps {args.eps}% / the true deal; {args.worlds} worlds, Medium in every seat)"
    )
    print(_line(f"the shooter, {moons} moon hands of {args.hands}", moon_rows))
    print(_line(f"every other seat, {calm} hands without a moon", calm_rows))
    if first_seen:
        for i, name in enumerate(("uniform", "weighed", "true deal")):
            tricks = [f[i] + 1 for f in first_seen]
            never = sum(f[i] == 13 for f in first_seen)
            print(
                f"  first trick with share >= {args.seen} ({name}): median {statistics.median(tricks):.1f}, "
                f"mean {statistics.mean(tricks):.2f} (never: {never} of {len(first_seen)})"
            )
        earlier = sum(f[1] < f[0] for f in first_seen)
        later = sum(f[1] > f[0] for f in first_seen)
        tail = sum(math.comb(earlier + later, k) for k in range(min(earlier, later) + 1)) / 2 ** (earlier + later)
        print(
            f"  weighed worlds saw the run sooner in {earlier} hands, later in {later} "
            f"(sign test p = {min(1.0, 2 * tail):.2g})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
