"""Hard's search of one decision: its options, the world loop, the gate, the choice.

A :class:`PlaySearch` plays every candidate card (and, when Hard may shoot, the same card as a
moon plan) in each world :class:`~hearts.bots.worlds.PlayWorlds` draws, scores each finished hand
with the :class:`~hearts.bots.utility.Utility`, and picks by the
:class:`~hearts.bots.gate.Gate`. A :class:`PassSearch` does the same for the candidate passes.
:class:`~hearts.bots.hard.HardBot` calls ``score_world`` once per world, as time or the number of
worlds allows, then asks for the choice.
"""

from __future__ import annotations

import random
from typing import Any

from ..cards import CARDS
from ..view import SeatView
from .base import Decision, as_cards
from .candidates import equivalent, pass_candidates
from .config import HardConfig
from .gate import PASS_HEAD_START, PairedGate, Race
from .knowledge import Knowledge
from .medium import medium_play
from .moon import consider_moon, find_runner, made_moon, stopper_throws
from .reasons import classify_play
from .utility import Utility
from .worlds import PassWorlds, PlayWorlds

__all__ = ["PlaySearch", "PassSearch"]


class PlaySearch:
    """The search of one play decision over the candidate ``cards`` (two or more)."""

    def __init__(self, knowledge: Knowledge, cards: list[int], config: HardConfig, rng: random.Random) -> None:
        loop, gate = config.loop, config.gate
        self.knowledge, self.config = knowledge, config
        moon = consider_moon(knowledge, loop.moon_plans)
        self.plans = [(c, False) for c in cards] + ([(c, True) for c in cards] if moon else [])
        self.runner = find_runner(knowledge, loop.runner_watch)
        self.utility = Utility(knowledge.me, knowledge.view)
        medium = medium_play(knowledge.view)[0][0]
        prior = next(
            (
                i
                for i, (card, shoot) in enumerate(self.plans)
                if not shoot and equivalent(knowledge, card, medium, config.trick_split)
            ),
            -1,
        )
        self.worlds = PlayWorlds(knowledge, loop, cards, self.runner, self.plans[max(prior, 0)][0], rng)
        n = len(self.plans)
        self.race = Race(n, prior, gate.head_start, gate.halving)
        gated = gate.significance > 0 and prior >= 0
        self.paired = PairedGate(n, prior, gate.significance) if gated else None
        throws = stopper_throws(knowledge) if config.keep_stopper > 0 else 0  # throwing the stopper costs this much
        self.cost = [config.keep_stopper if not shoot and throws >> card & 1 else 0.0 for card, shoot in self.plans]
        self.totals, self.values, self.moons = [0.0] * n, [0.0] * n, [0] * n

    def score_world(self, progress: float) -> None:
        """Play the active plans in the next world (``progress``: the share of the search done)."""
        race, plans, totals, values, moons = self.race, self.plans, self.totals, self.values, self.moons
        cost = self.cost
        race.prune(totals, progress)
        worlds, utility, me = self.worlds, self.utility, self.knowledge.me
        world = worlds.draw()
        for i in race.active:
            card, shoot = plans[i]
            race.worlds[i] += 1
            result = worlds.play(world, card, shoot)
            value = utility(*result) - cost[i]
            totals[i] += value
            values[i] = value
            if shoot and made_moon(result, me):
                moons[i] += 1
        if self.paired is not None:
            self.paired.add(values, race.active)

    def best(self) -> int:
        """The chosen plan: the best mean (with Medium's head start) among the plans the moon
        majority and the gate let through."""
        race, plans, moons = self.race, self.plans, self.moons
        race.add_prior(self.totals)
        majority = self.config.moon_majority
        allowed = [i for i in race.active if not plans[i][1] or not majority or 2 * moons[i] > race.worlds[i]]
        if self.paired is not None:
            allowed = self.paired.passing(allowed, race.worlds)
        return max(allowed, key=lambda i: (self.totals[i], -i))

    def decision(self, worlds: int) -> Decision:
        """The decision after ``worlds`` worlds, with the search's figures in ``stats``."""
        best = self.best()
        card, shoot = self.plans[best]
        reason, params = classify_play(self.knowledge, card, shoot)
        seen = self.race.worlds
        stats: dict[str, Any] = {
            "worlds": worlds,
            "plan": "moon" if shoot else "normal",
            "runner": self.runner,
            "moons": {CARDS[c].text: self.moons[i] for i, (c, s) in enumerate(self.plans) if s},
            "values": {
                CARDS[c].text + ("*" if s else ""): round(self.totals[i] / max(seen[i], 1), 3)
                for i, (c, s) in enumerate(self.plans)
            },
        }
        return Decision(as_cards((card,)), reason, params, stats)


class PassSearch:
    """The search of one pass: Medium's (``prior``) against Hard's candidate passes."""

    def __init__(
        self, view: SeatView, prior: tuple[int, ...], keep_queen: bool, config: HardConfig, rng: random.Random
    ) -> None:
        self.cands, self.shoots = pass_candidates(
            view.hand_mask, prior, view.rules.jack_of_diamonds, keep_queen, config.void_passes, config.moon_passes
        )
        self.masks = [sum(1 << c for c in cand) for cand in self.cands]
        self.me = int(view.seat)
        self.utility = Utility(self.me, view)
        n = len(self.cands)
        self.race = Race(n, 0, PASS_HEAD_START, config.gate.halving)
        self.majority = config.moon_majority
        self.totals, self.moons = [0.0] * n, [0] * n
        self.worlds = PassWorlds(view, config.loop, rng)

    def score_world(self, progress: float) -> None:
        """Play the active passes out in the next deal."""
        race, totals, moons, shoots, masks = self.race, self.totals, self.moons, self.shoots, self.masks
        race.prune(totals, progress)
        worlds, utility = self.worlds, self.utility
        world = worlds.draw()
        for i in race.active:
            race.worlds[i] += 1
            result = worlds.play(world, masks[i], shoots[i])
            if shoots[i] and made_moon(result, self.me):
                moons[i] += 1
            totals[i] += utility(*result)

    def result(self, worlds: int) -> tuple[tuple[int, ...], dict[str, Any]]:
        """The chosen pass after ``worlds`` deals, and the search's figures (with ``moon_majority``
        a moon pass must reach the moon in most of its deals)."""
        race, shoots, majority = self.race, self.shoots, self.majority
        race.add_prior(self.totals)
        allowed = [i for i in race.active if not shoots[i] or not majority or 2 * self.moons[i] > race.worlds[i]]
        best = max(allowed, key=lambda i: (self.totals[i], -i))
        stats: dict[str, Any] = {
            "worlds": worlds,
            "values": {
                " ".join(c.text for c in as_cards(cand)) + ("*" if shoots[i] else ""): round(
                    self.totals[i] / max(race.worlds[i], 1), 3
                )
                for i, cand in enumerate(self.cands)
            },
        }
        if shoots[best]:
            stats["plan"] = "moon"
        return self.cands[best], stats
