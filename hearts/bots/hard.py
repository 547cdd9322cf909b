"""Hard: card counting, void tracking, pass knowledge and Monte Carlo search.

For each decision Hard samples hidden hands consistent with everything its seat knows
(cards played, suits a seat showed out of, the cards it passed), then plays each candidate
card in every sampled world and finishes the hand with heuristic rollouts
(:mod:`hearts.bots.rollout`). Candidates are scored by a match-aware utility: normally its
own points, but when the match may end this hand, its margin to the best opponent and
whether it wins (the leader wants the match over, the others feed the leader).

Two modes: ``iterations=N`` samples exactly N worlds (deterministic for a given view and
RNG seed); ``budget_ms`` samples until the time is spent (for the UI). Either way the
search runs in slices: :meth:`decide_steps` yields between them.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Generator, Sequence
from itertools import combinations
from typing import Any

from dataclasses import dataclass, replace

from ..rules import MoonScoring
from ..view import SeatView
from ._bits import HEARTS, JD, QS, QS_BIT, SUITS, bits, count, high, rank_of
from .base import Bot, Decision, Steps, as_cards
from .inference import Reading, read_plays
from .knowledge import Knowledge
from .medium import medium_pass, medium_play, pass_choice, pass_danger, pass_reason
from .reasons import classify_play
from .rollout import POOL, RolloutRules, playout, playout_randoms, random_pool, randoms, split_hands

__all__ = ["HardBot", "HardParams", "VERSIONS", "LATEST", "BROWSER_WORLDS", "WORKER_PLAY_WORLDS",
           "WORKER_PASS_WORLDS", "WORKER_VERSIONS", "WorldSampler", "sample_world", "hand_points", "DEFAULT_BUDGET_MS"]

DEFAULT_BUDGET_MS = 250.0
SLICE_S = 0.02  # yield to the caller at least this often (seconds of work) in budget mode
SLICE_WORLDS = 6  # worlds per slice in iterations mode
MAX_WORLDS = 4000
QUEEN_INFERENCE = 0.85  # trust in "it did not dump the Q♠ when it could, so it has none"
MATCH_WEIGHT = 0.3  # near the match's end: worth of a point landing on the chosen opponent
PASS_POOL = 6  # candidate passes: every 3 of the 6 cards that most want to leave, + Medium's
PASS_SLICE_WORLDS = 2  # worlds per slice when scoring passes in iterations mode (~20 candidates each)
VIABLE_TRIES = 8  # moon_viable: worlds drawn at most to find one in which the runner makes the moon



@dataclass(frozen=True)
class HardParams:
    """What one version of Hard is: the search code is shared, the versions differ only here.

    A version is frozen once anything depends on it (version 1 makes the daily par, see
    ``hearts.daily``): change a default only by adding a version.
    """

    version: int
    medium_prior: float = 0.5  # points/hand head start for Medium's card in the search
    pass_prior: float = 0.5  # points/hand head start for Medium's pass
    rollout_noise: float = 0.3  # how often a simulated opponent plays a random legal card
    # version 2 (issue 11)
    trust: float = 0.0  # weight of what the opponents' plays reveal in the world sampler (0: off)
    model_noise: bool = False  # rollout noise per opponent, from how often it left the habits
    noise_min: float = 0.05  # ... within these bounds
    noise_max: float = 0.5
    medium_rollouts: bool = False  # rollout policy closer to Medium's habits (see rollout.playout)
    moon_majority: bool = False  # a moon plan must also reach the moon in most of its worlds
    moon_gate: int = 1  # which hands search a moon plan: 1 = strong hands (v1), 2 = looser
    defend: bool = False  # rollouts: block a shooter on any trick with points, not only heart leads
    runner_gate: int = 1  # who counts as a moon runner: 1 = v1, 2 = earlier, 3 = any, 4 = any late (``_runner``)
    halving: bool = False  # successive halving of the candidates (pass and play search)
    fast_random: bool = False  # one pool of random numbers per decision, no shuffle in the sampler
    # version 3 (issue 11: moons)
    late_defence: int = 0  # rollouts: the others see a shooter once it has this many points (0: at once)
    shoot_late: int = -1  # ... when the shooter is this seat (-1: late_defence)
    runner_share: float = 0.5  # share of the worlds in which a moon runner plays the moon plan
    runner_boost: float = 1.0  # ... and in those worlds, the weight of the high cards in its hand
    runner_no_prior: bool = False  # no head start for Medium's card while a moon runner is about
    moon_pass: bool = False  # the pass search also plays out passes that keep a moon hand (low cards go)
    gate_k: float = 0.0  # > 0: leave Medium's card only for a card better by gate_k standard errors (paired)
    gate_calm: bool = False  # ... but not for a moon plan, nor while a moon runner is about
    void_passes: bool = False  # ... and for each short side suit, the pass that empties it
    counted_leads: bool = False  # rollouts: leaders count the cards out (see rollout.playout's ``counted``)
    clean_last: bool = False  # rollouts: the last seat wins a trick without points high (``clean``)
    short_leads: bool = False  # rollouts: leaders lead their shortest suit low (``short``)
    # version 5 (issue 11: a fix)
    trick_split: bool = False  # the current trick's cards split equivalent cards (``_separators``)
    # moon defence (issue 11): moon_viable is in v6; runner_odds and stop_margin were screened and left off
    runner_odds: bool = False  # a runner shoots in a share of the worlds read off _MOON_ODDS, not runner_share
    moon_viable: bool = False  # ... and its worlds are ones where it makes the moon if we play Medium's card
    stop_margin: float = 0.0  # > 0: take the runner's point trick if it costs at most this (screened: rarely acts)
    keep_stopper: float = 0.0  # > 0: points a throw of the moon stopper costs in the search (``_stopper_throws``)


VERSIONS: dict[int, HardParams] = {
    1: HardParams(1),  # Hard until issue 11; the daily par v1
    2: HardParams(2, trust=0.97, model_noise=True, medium_rollouts=True, moon_majority=True, defend=True,
                  runner_gate=2, halving=True, fast_random=True),  # issue 11
    3: HardParams(3, medium_rollouts=True, moon_majority=True, moon_gate=3, defend=True, runner_gate=2,
                  halving=True, fast_random=True, late_defence=8, runner_boost=3.0, runner_no_prior=True,
                  moon_pass=True, void_passes=True),  # issue 11: moons; v1's worlds and noise
}
# issue 11: v3 + the significance gate (instead of Medium's head start) + the clean trick
VERSIONS[4] = replace(VERSIONS[3], version=4, medium_prior=0.0, gate_k=1.5, clean_last=True)
# issue 11: v4 that can duck under the trick's winner when it holds the cards on both sides of it
VERSIONS[5] = replace(VERSIONS[4], version=5, trick_split=True)
# issue 11: v5 that watches a lone point-taker late and gives a runner the worlds in which its moon goes through
VERSIONS[6] = replace(VERSIONS[5], version=6, moon_viable=True, runner_gate=4)
# issue 11: v6 whose rollouts give a shooter no blockers (as a Medium field) and that keeps its moon stopper
VERSIONS[7] = replace(VERSIONS[6], version=7, late_defence=27, shoot_late=8, keep_stopper=0.25)
LATEST = 7

# Worlds per (play, pass) decision each version reaches in the browser within the UI's 250 ms
# (headless Chromium 156, Pyodide 314, main thread; tools/bench_browser.py --iterations 200
# --calibrate 3: each decision's fastest of three runs, converted to worlds per 250 ms, median
# over the searched decisions; bench/out/browser-calibration.txt). The arena plays Hard at these
# sizes, as fixed iterations. Version 1 as it was shipped (before the faster rollouts).
BROWSER_WORLDS: dict[int, tuple[int, int]] = {
    1: (850, 85),
    2: (1280, 240),
    3: (1150, 270),  # in the bots' Web Worker: 300 ms a play, 500 ms a pass (bench/out/browser-worker-v3.txt)
    4: (1150, 270),  # as v3: the same cost per world (bench/out/browser-calibration-v4.txt)
    5: (1150, 270),  # as v4: the same rollouts; now and then a play has one candidate more
    6: (1150, 270),  # v5's size, to compare like for like: in the browser v6 reaches 0.94x v5's worlds per
                     # 250 ms (bench/out/browser-calibration-v6.txt; CPython 0.90x, and 1.6x its average cost with
                     # a runner about: bench/out/seat-cost-v6.txt)
    7: (1150, 270),  # as v6: the same rollouts (the blockers left out cost nothing; the stopper is a constant)
}

# What the game really gives Hard: the bots' Web Worker searches each play for 300 ms, so a world
# costs less and more of them fit as the hand shortens (each world plays out fewer tricks), up to
# MAX_WORLDS. Worlds per searched play indexed by the cards the bot holds (1 to 13; index 0 is
# unused, and a single card is never searched), and per pass, when the player passes at once
# (the worker's 500 ms after the player's pass; a player who takes longer gives it up to 2.5 s).
# Medians over 12 Hard hands, 316 searched plays and 27 passes on the idle 2-core dev machine
# (Chromium 156, Pyodide 314): bench/out/browser-worker-v4-held.txt. The arena plays
# ``hard@worker`` at these sizes; they hold for the versions with v4's cost per world
# (WORKER_VERSIONS).
WORKER_PLAY_WORLDS: tuple[int, ...] = (
    0, 4000, 4000, 4000, 4000, 3050, 2380, 2270, 1710, 1490, 1210, 1130, 1090, 1210)
WORKER_PASS_WORLDS = 710
WORKER_VERSIONS = (3, 4, 5, 6, 7)  # v6 in the worker: median 1811 worlds per searched play, v5 1812
                                   # (bench/out/browser-worker-v6.txt, browser-worker-v5.txt); v7: browser-worker-v7.txt


class WorldSampler:
    """Deals the unseen cards to the other seats, consistent with voids, hand sizes, passed
    cards and the Q♠ inference (set up once per decision, then called once per world).

    ``avoid[s]`` / ``trust[s]`` (version 2 on): a seat gets a card its plays say it does not
    hold (``hearts.bots.inference``) with only ``1 - trust[s]`` of the usual weight.
    ``boost = (seat, cards, weight)`` (version 3): ``seat`` gets those cards with ``weight``
    times the usual weight (a moon runner's hand in the worlds where it shoots: strong).
    ``shuffle=False`` (version 2): deal each suit's cards in order instead of shuffling them
    first. Dealing card by card with chances proportional to the room left in each hand gives
    every split of a suit the same chance whatever the order, so the shuffle (a fifth of the
    sampler's time in Pyodide) only matters for the soft weights, and little.
    """

    def __init__(self, k: Knowledge, avoid: Sequence[int] = (0, 0, 0, 0),
                 trust: Sequence[float] = (0.0, 0.0, 0.0, 0.0), shuffle: bool = True,
                 boost: tuple[int, int, float] | None = None) -> None:
        self.shuffle = shuffle
        others = [s for s in range(4) if s != k.me]
        base = [0, 0, 0, 0]
        base[k.me] = k.hand
        free = k.unseen
        for s in others:
            base[s] = k.known[s]
            free &= ~k.known[s]
        self.others = others
        self.base = base
        self.need = [k.sizes[s] - count(k.known[s]) if s != k.me else 0 for s in range(4)]
        by_suit = []
        for suit in range(4):
            cards = bits(free & SUITS[suit])
            if cards:
                seats = [s for s in others if not k.void_mask[s] >> (suit * 13) & 1]
                by_suit.append((len(seats), suit, cards, seats))
        by_suit.sort()
        self.by_suit = [(suit, cards, seats) for _, suit, cards, seats in by_suit]
        # factor[c][s]: the weight of dealing card c to seat s (1.0 unless s's plays exclude c)
        self.factor = [[1.0 - trust[s] if avoid[s] >> c & 1 else 1.0 for s in range(4)] for c in range(52)]
        if boost is not None:  # (seat, cards, weight): that seat is likelier to hold those cards
            seat, boosted, weight = boost
            for c in bits(boosted):
                self.factor[c][seat] *= weight
        queen_seats: list[int] = []
        if free & QS_BIT:
            queen_seats = [s for s in others if not k.no_queen[s] and not k.void_mask[s] & QS_BIT]
            if len(queen_seats) == len([s for s in others if not k.void_mask[s] & QS_BIT]):
                queen_seats = []  # nothing learned
        self.queen_seats = queen_seats

    def __call__(self, rng: random.Random) -> list[int]:
        random_ = rng.random
        shuffle = rng.shuffle
        mix = self.shuffle
        factor = self.factor
        for attempt in range(30):
            hands = list(self.base)
            need = list(self.need)
            ok = True
            placed = 0
            if self.queen_seats and attempt < 20 and random_() < QUEEN_INFERENCE:
                open_seats = [s for s in self.queen_seats if need[s] > 0]
                if open_seats:
                    s = open_seats[int(random_() * len(open_seats))]
                    hands[s] |= QS_BIT
                    need[s] -= 1
                    placed = QS_BIT
            for suit, cards, seats in self.by_suit:
                if placed and suit == 2:
                    cards = [c for c in cards if c != QS]
                if attempt >= 25:
                    seats = self.others  # give up on the void constraints (inconsistent views only)
                if mix:
                    cards = list(cards)
                    shuffle(cards)
                for c in cards:
                    f = factor[c]
                    total = 0.0
                    for s in seats:
                        total += need[s] * f[s]
                    if total <= 0:
                        ok = False
                        break
                    x = random_() * total
                    for s in seats:
                        x -= need[s] * f[s]
                        if x < 0 and need[s] > 0:
                            break
                    else:
                        s = next(s for s in reversed(seats) if need[s] > 0)
                    hands[s] |= 1 << c
                    need[s] -= 1
                if not ok:
                    break
            if ok:
                return hands
        raise AssertionError("no consistent deal")  # pragma: no cover


def sample_world(k: Knowledge, rng: random.Random) -> list[int]:
    """One world: the unseen cards dealt to the other seats (see :class:`WorldSampler`)."""
    return WorldSampler(k)(rng)


def _separators(k: Knowledge, trick_split: bool) -> int:
    """The cards that make two cards of a suit play differently when one lies between them: the
    unseen ones, and (``trick_split``) the current trick's: with 3♠ winning the trick, 2♠ ducks
    and 4♠ wins. Versions 1 to 4 did not count the trick's cards, so they held 2♠ and 4♠ for
    one card, searched only the higher one and could not duck under the 3♠."""
    return k.unseen | k.trick_mask() if trick_split else k.unseen


def _equivalent(k: Knowledge, a: int, b: int, trick_split: bool = True) -> bool:
    if a == b:
        return True
    if a // 13 != b // 13 or QS in (a, b):
        return False
    lo, hi = min(a, b), max(a, b)
    return not (((1 << hi) - 1) & ~((1 << (lo + 1)) - 1) & _separators(k, trick_split))


def candidates(k: Knowledge, trick_split: bool = True) -> list[int]:
    """One card per class of equivalent legal cards (same suit, nothing unseen and no card of the
    current trick between them; ``trick_split=False``: versions 1 to 4, see :func:`_separators`)."""
    legal = bits(k.legal)
    out: list[int] = []
    jack = k.view.rules.jack_of_diamonds
    special = {QS} | ({JD} if jack else set())
    separators = _separators(k, trick_split)
    for c in legal:
        if out and c not in special and out[-1] not in special and out[-1] // 13 == c // 13:
            between = ((1 << c) - 1) & ~((1 << (out[-1] + 1)) - 1)
            if not between & separators:
                # keep the higher card as the representative when following high is at stake
                out[-1] = c
                continue
        out.append(c)
    return out


class HardBot(Bot):
    level = "hard"

    def __init__(self, budget_ms: float | None = None, iterations: int | None = None, *,
                 version: int = LATEST, pass_iterations: int | None = None, params: HardParams | None = None,
                 clock: Callable[[], float] = time.perf_counter, pass_budget_ms: float | None = None,
                 play_schedule: Sequence[int] | None = None) -> None:
        """``iterations``: sampled worlds per decision (deterministic); ``pass_iterations``
        overrides it for the pass (default: the same); ``play_schedule[n]`` (with
        ``iterations``) overrides it for a play with ``n`` cards in hand (``WORKER_PLAY_WORLDS``:
        the browser's worker, where a play late in the hand reaches more worlds). Otherwise
        ``budget_ms`` of search, timed by ``clock`` (seconds; a test passes a fake one), and
        ``pass_budget_ms`` for the pass (default: ``budget_ms``; the browser's worker thinks
        longer about its pass while the player picks three cards). ``params`` replaces the version's
        parameters (experiments: ``python -m hearts arena``)."""
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if pass_iterations is not None and (pass_iterations < 1 or iterations is None):
            raise ValueError("pass_iterations must be at least 1 and needs iterations")
        if version not in VERSIONS:
            raise ValueError(f"unknown Hard version {version!r}: choose from {sorted(VERSIONS)}")
        self.params = params if params is not None else VERSIONS[version]
        self.version = self.params.version
        self.iterations = iterations
        self.pass_iterations = pass_iterations if pass_iterations is not None else iterations
        if play_schedule is not None:
            if iterations is None or len(play_schedule) != 14 or min(play_schedule[1:]) < 1:
                raise ValueError("play_schedule needs iterations and 14 sizes (by cards held), each at least 1")
            play_schedule = tuple(play_schedule)
        self.play_schedule = play_schedule
        self.budget_ms = DEFAULT_BUDGET_MS if budget_ms is None else float(budget_ms)
        if pass_budget_ms is not None and pass_budget_ms <= 0:
            raise ValueError("pass_budget_ms must be positive")
        self.pass_budget_ms = self.budget_ms if pass_budget_ms is None else float(pass_budget_ms)
        self.clock = clock  # seconds; a test passes a fake one

    def _run_worlds(self, score_world: Callable[[float], None], slice_worlds: int,
                    iterations: int | None, budget_ms: float | None = None) -> Generator[None, None, int]:
        """Call ``score_world(progress)`` once per sampled world until the iterations (or, in
        budget mode, the time) are used up, yielding between slices; return the number of
        worlds. ``progress``: the share of the search done so far (worlds or time)."""
        worlds = 0
        deterministic = iterations is not None
        limit = iterations if iterations is not None else MAX_WORLDS
        clock = self.clock
        start = clock()
        budget = (self.budget_ms if budget_ms is None else budget_ms) / 1000.0
        deadline = start + budget
        slice_end = start + SLICE_S
        now = start
        while worlds < limit:
            score_world(worlds / limit if deterministic else (now - start) / budget)
            worlds += 1
            if deterministic:
                if worlds % slice_worlds == 0 and worlds < limit:
                    yield None
            else:
                now = clock()
                if now >= deadline:
                    break
                if now >= slice_end:
                    yield None
                    slice_end = clock() + SLICE_S
        return worlds

    def _noise(self, me: int, reading: Reading | None = None) -> tuple[float, ...]:
        p = self.params
        if reading is None or not p.model_noise:
            return tuple(0.0 if s == me else p.rollout_noise for s in range(4))
        return tuple(0.0 if s == me else
                     min(p.noise_max, max(p.noise_min, reading.deviation_rate(s, p.rollout_noise, 4.0)))
                     for s in range(4))

    # ------------------------------------------------------------------ pass
    def choose_pass(self, view: SeatView, rng: random.Random) -> Steps:
        hand = view.hand_mask
        spades = count(hand & SUITS[2])
        keep_queen = bool(hand & QS_BIT) and spades >= 6
        cards, reason, params = medium_pass(view, keep_queen=keep_queen)
        moon = _moon_pass(hand)
        if moon is not None:
            return Decision(as_cards(moon), "shoot_moon", {"cards": [str(c) for c in as_cards(moon)]})
        choice, stats = yield from self._search_pass(view, rng, cards, keep_queen)
        if stats.get("plan") == "moon":
            return Decision(as_cards(choice), "shoot_moon", {"cards": [str(c) for c in as_cards(choice)]}, stats)
        if choice != cards:
            reason, params = pass_reason(choice, hand)
        return Decision(as_cards(choice), reason, params, stats)

    def _search_pass(self, view: SeatView, rng: random.Random, prior: tuple[int, ...],
                     keep_queen: bool) -> Generator[None, None, tuple[tuple[int, ...], dict[str, Any]]]:
        """Score candidate passes by dealing the unseen cards, letting the others pass like
        Medium and playing the hand out with the rollout policy (same worlds for every candidate)."""
        me = int(view.seat)
        hand = view.hand_mask
        rules = view.rules
        jack = rules.jack_of_diamonds
        offset = view.pass_direction.offset
        ranked = sorted(bits(hand), key=lambda c: (-pass_danger(c, hand, jack, keep_queen), -c))
        cands: list[tuple[int, ...]] = [prior]
        for combo in combinations(sorted(ranked[:PASS_POOL]), 3):
            if combo != prior:
                cands.append(combo)
        if self.params.void_passes:
            for extra in _void_passes(hand, ranked, jack):
                if extra not in cands:
                    cands.append(extra)
        shoots = [False] * len(cands)
        if self.params.moon_pass:
            for extra in _moon_passes(hand):
                cands.append(extra)
                shoots.append(True)
        moons = [0] * len(cands)
        p = self.params
        late = p.shoot_late if p.shoot_late >= 0 else p.late_defence
        util = _Utility(me, view)
        rr = RolloutRules(rules)
        noise = self._noise(me)
        medium = self.params.medium_rollouts
        counted = self.params.counted_leads
        clean, short = self.params.clean_last, self.params.short_leads
        totals = [0.0] * len(cands)
        race = _Race(len(cands), 0, self.params.pass_prior, self.params.halving)
        unseen = bits(((1 << 52) - 1) & ~hand)
        others = [(me + i) % 4 for i in (1, 2, 3)]
        no_points = (0, 0, 0, 0)
        draws = playout_randoms(0)
        pool = random_pool(rng, draws) if self.params.fast_random else []

        def score_world(progress: float) -> None:
            race.prune(totals, progress)
            rng.shuffle(unseen)
            dealt = [0, 0, 0, 0]
            dealt[me] = hand
            for i, s in enumerate(others):
                for c in unseen[13 * i:13 * i + 13]:
                    dealt[s] |= 1 << c
            passes = [0, 0, 0, 0]
            for s in others:
                for c in pass_choice(dealt[s], jack)[0]:
                    passes[s] |= 1 << c
            if pool:
                rs, start = pool, int(rng.random() * POOL)
            else:
                rs, start = randoms(rng.randrange(1 << 30), draws), 0
            for i in race.active:
                cand = cands[i]
                race.worlds[i] += 1
                passes[me] = 0
                for c in cand:
                    passes[me] |= 1 << c
                hands = [dealt[s] & ~passes[s] for s in range(4)]
                for s in range(4):
                    hands[(s + offset) % 4] |= passes[s]
                leader = next(s for s in range(4) if hands[s] & 1)
                if shoots[i]:
                    result = playout(split_hands(hands), leader, (), 0, False, no_points, -1, -1, rr, rs, me, noise,
                                     medium, self.params.defend, start, -1, late, counted, clean, short)
                    if result[0][me] == 13 and result[1] == me:
                        moons[i] += 1
                else:
                    result = playout(split_hands(hands), leader, (), 0, False, no_points, -1, -1, rr, rs, -1, noise,
                                     medium, False, start, counted=counted, clean=clean, short=short)
                totals[i] += util(*result)

        worlds = yield from self._run_worlds(score_world, PASS_SLICE_WORLDS, self.pass_iterations, self.pass_budget_ms)
        race.add_prior(totals)
        # a moon pass must also reach the moon in most of its worlds (as a moon plan in play)
        allowed = [i for i in race.active if not shoots[i] or 2 * moons[i] > race.worlds[i]]
        best = max(allowed, key=lambda i: (totals[i], -i))
        stats: dict[str, Any] = {
            "worlds": worlds,
            "values": {" ".join(str(c) for c in as_cards(cand)) + ("*" if shoots[i] else ""):
                       round(totals[i] / max(race.worlds[i], 1), 3) for i, cand in enumerate(cands)},
        }
        if shoots[best]:
            stats["plan"] = "moon"
        return cands[best], stats

    # ------------------------------------------------------------------ play
    def choose_play(self, view: SeatView, rng: random.Random) -> Steps:
        k = Knowledge(view)
        p = self.params
        cands = candidates(k, p.trick_split)
        if len(cands) == 1:
            card = cands[0]
            reason, params = classify_play(k, card, False)
            return Decision(as_cards((card,)), reason, params, {"worlds": 0})
        plans: list[tuple[int, bool]] = [(c, False) for c in cands]
        if _consider_moon(k, p.moon_gate):
            plans += [(c, True) for c in cands]
        runner = _runner(k, p.runner_gate)
        util = _Utility(k.me, view)
        rr = RolloutRules(view.rules)
        defend = p.defend
        moons = [0] * len(plans)
        reading = read_plays(k) if p.trust or p.model_noise else None
        noise = self._noise(k.me, reading)
        medium = p.medium_rollouts
        counted = p.counted_leads
        clean, short = p.clean_last, p.short_leads
        totals = [0.0] * len(plans)
        queen_breaks = view.rules.queen_breaks_hearts
        trick = k.trick_cards
        leader = k.leader if trick else k.me
        hearts = [count(t & HEARTS) for t in k.taken]
        queen = next((s for s in range(4) if k.taken[s] & QS_BIT), -1)
        jack = next((s for s in range(4) if k.taken[s] >> JD & 1), -1)
        me4 = k.me * 4
        avoid = reading.avoid if reading else (0, 0, 0, 0)
        sampler = WorldSampler(k, avoid, [p.trust] * 4, shuffle=not p.fast_random)
        # v3: a runner shoots in a share of the worlds, and in those its hand is strong (it has
        # been taking every point: the cards that win tricks are likelier in its hand)
        shares = runner >= 0 and (p.runner_share != 0.5 or p.runner_boost != 1.0)
        boosted = sampler
        if shares and p.runner_boost != 1.0:
            boosted = WorldSampler(k, avoid, [p.trust] * 4, shuffle=not p.fast_random,
                                   boost=(runner, k.unseen & _MOON_CARDS, p.runner_boost))
        cut = int((_moon_odds(k, runner) if p.runner_odds and runner >= 0 else p.runner_share) * 1024)
        late = p.late_defence
        shoot_late = p.shoot_late if p.shoot_late >= 0 else late
        draws = playout_randoms(k.trick_number)
        pool = random_pool(rng, draws) if p.fast_random else []
        prior = medium_play(view)[0][0]
        prior_plan = next((i for i, (card, shoot) in enumerate(plans)
                           if not shoot and _equivalent(k, card, prior, p.trick_split)), -1)
        head_start = 0.0 if runner >= 0 and p.runner_no_prior else p.medium_prior
        race = _Race(len(plans), prior_plan, head_start, p.halving)
        gate = p.gate_k > 0 and prior_plan >= 0 and not (p.gate_calm and runner >= 0)
        diffs = [0.0] * len(plans)  # per candidate: sum of (its value - the prior's) over the worlds
        viable = p.moon_viable and shares
        reference = plans[prior_plan if prior_plan >= 0 else 0][0]

        def runner_moons(world: list[int], rs: Sequence[float], start: int) -> bool:
            """Does the runner, shooting, make the moon in ``world`` when we play Medium's card?"""
            hands = list(world)
            hands[me4 + reference // 13] &= ~(1 << reference % 13)
            broken = k.broken or reference >= 39 or (queen_breaks and reference == QS)
            result = playout(hands, leader, trick + [reference], k.trick_number, broken, hearts, queen, jack,
                             rr, rs, runner, noise, medium, defend, start, k.me, late, counted, clean, short)
            return result[0][runner] == 13 and result[1] == runner

        diffs2 = [0.0] * len(plans)
        values = [0.0] * len(plans)
        # keep_stopper: throwing the heart that could stop a moon costs this much in every world
        throws = _stopper_throws(k) if p.keep_stopper > 0 else 0
        cost = [p.keep_stopper if not shoot and throws >> card & 1 else 0.0 for card, shoot in plans]

        def score_world(progress: float) -> None:
            race.prune(totals, progress)
            if shares:
                start = int(rng.random() * POOL) if pool else rng.randrange(POOL)
                coin = (start & 1023) < cut
                world = split_hands((boosted if coin else sampler)(rng))
                rs = pool if pool else randoms(start, draws)
                if not pool:
                    start = 0
                if coin and viable:  # the runner shoots because it can: keep a world where it makes it
                    for _ in range(VIABLE_TRIES):
                        if runner_moons(world, rs, start):
                            break
                        world = split_hands(boosted(rng))
                    else:
                        coin = False
                        world = split_hands(sampler(rng))
            else:
                world = split_hands(sampler(rng))
                if pool:
                    start = int(rng.random() * POOL)
                    rs, coin = pool, bool(start & 1)
                else:
                    seed = rng.randrange(1 << 30)
                    rs, start, coin = randoms(seed, draws), 0, bool(seed & 1)
            runs = runner >= 0 and coin
            for i in race.active:
                card, shoot = plans[i]
                race.worlds[i] += 1
                hands = list(world)
                hands[me4 + card // 13] &= ~(1 << card % 13)
                shooter = k.me if shoot else (runner if runs else -1)
                broken = k.broken or card >= 39 or (queen_breaks and card == QS)
                result = playout(hands, leader, trick + [card], k.trick_number, broken, hearts, queen, jack,
                                 rr, rs, shooter, noise, medium, defend, start,
                                 k.me if shooter == runner and runs else -1, shoot_late if shoot else late, counted,
                                 clean, short)
                value = util(*result) - cost[i]
                totals[i] += value
                values[i] = value
                if shoot and result[0][k.me] == 13 and result[1] == k.me:
                    moons[i] += 1
            if gate:
                base = values[prior_plan]
                for i in race.active:
                    d = values[i] - base
                    diffs[i] += d
                    diffs2[i] += d * d

        iterations = self.iterations
        if self.play_schedule is not None:
            iterations = self.play_schedule[count(view.hand_mask)]
        worlds = yield from self._run_worlds(score_world, SLICE_WORLDS, iterations)
        # Medium's choice gets a small head start: the search must beat the rule of thumb
        # clearly before Hard deviates from it (filters out choices driven by sampling noise).
        race.add_prior(totals)
        # A moon plan must also make the moon in most worlds (v2): a high mean from a few
        # spectacular worlds is a reckless attempt.
        allowed = [i for i in race.active
                   if not plans[i][1] or not p.moon_majority or 2 * moons[i] > race.worlds[i]]
        if gate:  # a card must beat Medium's clearly on the same worlds, not by a fixed margin
            allowed = _gated(allowed, plans, prior_plan, diffs, diffs2, race.worlds, head_start, p.gate_k, p.gate_calm)
        best = max(allowed, key=lambda i: (totals[i], -i))
        if p.stop_margin > 0 and runner >= 0 and trick and not plans[best][1]:
            best = _stop(k, runner, plans, race, totals, best, p.stop_margin)
        card, shoot = plans[best]
        reason, params = classify_play(k, card, shoot)
        stats: dict[str, Any] = {
            "worlds": worlds,
            "plan": "moon" if shoot else "normal",
            "runner": runner,
            "moons": {str(as_cards((c,))[0]): moons[i] for i, (c, s) in enumerate(plans) if s},
            "values": {str(as_cards((c,))[0]) + ("*" if s else ""): round(totals[i] / max(race.worlds[i], 1), 3)
                       for i, (c, s) in enumerate(plans)},
        }
        return Decision(as_cards((card,)), reason, params, stats)


def hand_points(hearts: list[int], queen: int, jack: int, rules: Any, scores: tuple[int, ...]) -> list[int]:
    """The hand's points per seat from the hearts each seat took and who took the Q♠ and the
    J♦ (-1: nobody): :func:`hearts.hand.score_hand` without building card masks."""
    pen = [hearts[s] + (13 if s == queen else 0) for s in range(4)]
    moon = pen.index(26) if 26 in pen else -1
    if moon < 0:
        points = pen
    else:
        scoring = rules.moon
        if scoring is MoonScoring.SHOOTERS_CHOICE:
            added = [scores[s] + (0 if s == moon else 26) for s in range(4)]
            if max(added) >= rules.target and added[moon] > min(added):
                scoring = MoonScoring.SUBTRACT_FROM_SHOOTER
        if scoring is MoonScoring.SUBTRACT_FROM_SHOOTER:
            points = [-26 if s == moon else 0 for s in range(4)]
        else:
            points = [0 if s == moon else 26 for s in range(4)]
    if jack >= 0 and rules.jack_of_diamonds:
        points[jack] -= 10
    return points


def _stop(k: Knowledge, runner: int, plans: Sequence[tuple[int, bool]], race: "_Race", totals: Sequence[float],
          best: int, margin: float) -> int:
    """``stop_margin`` (experimental): when the moon runner is winning a trick with points, the
    best card that takes the trick from it, if the search values it at most ``margin`` below
    ``best`` (a card the halving dropped counts with the worlds it saw); else ``best``."""
    seat, top = k.trick_best()
    if seat != runner or k.trick_points() <= 0:
        return best

    def mean(i: int) -> float:
        return totals[i] / max(race.worlds[i], 1)

    stops = [i for i, (card, shoot) in enumerate(plans)  # halving may have dropped them: their worlds so far
             if not shoot and race.worlds[i] and card // 13 == top // 13 and card > top]
    if not stops or best in stops:
        return best
    stop = max(stops, key=lambda i: (mean(i), -i))
    return stop if mean(stop) >= mean(best) - margin else best


def _stopper_throws(k: Knowledge) -> int:
    """The cards (a mask) that would throw away this seat's moon stopper (``keep_stopper``): void
    in the suit led, on a trick another seat is winning while the moon is open to that seat (no
    other seat has taken a heart or the Q♠), the highest heart in hand, if an unseen heart lies
    below it (a heart run could meet it), the next heart in hand, if any, is lower than some
    unseen heart above it (else the next one stops as well) and a card without points could go
    instead. Thrown, it
    is a heart the trick's winner need not beat later: the "stopper thrown" moons of
    tools/moon_report.py. 0 when none of it holds."""
    if not k.trick or k.hand & SUITS[k.led]:
        return 0
    seat, _ = k.trick_best()
    if seat == k.me or not k.moon_open(seat):
        return 0
    hearts = k.legal & HEARTS
    if not hearts or not k.legal & ~(HEARTS | QS_BIT):
        return 0
    top = high(hearts)
    below = k.unseen & HEARTS & ((1 << top) - 1)
    rest = hearts & ~(1 << top)
    if not below or (rest and not below >> (high(rest) + 1)):
        return 0  # nothing it could beat, or the next heart in hand stops as well
    return 1 << top


def _gated(allowed: list[int], plans: Sequence[tuple[int, bool]], prior: int, diffs: Sequence[float],
           squares: Sequence[float], worlds: Sequence[int], margin: float, k: float, calm: bool) -> list[int]:
    """The candidates the significance gate lets through: Medium's card (``prior``) and every
    card whose paired advantage over it is above ``margin`` by ``k`` standard errors;
    ``calm``: moon plans too (their own bar is the majority of moons)."""
    return [i for i in allowed if i == prior or (calm and plans[i][1])
            or _clearly_better(diffs[i], squares[i], worlds[i], margin, k)]


def _clearly_better(total: float, squares: float, n: int, margin: float, k: float) -> bool:
    """Is a mean paired advantage of ``total / n`` (sum of squares ``squares``) above ``margin``
    by ``k`` standard errors?"""
    if n < 2:
        return False
    mean = total / n
    var = max(squares / n - mean * mean, 0.0) * n / (n - 1)
    return bool(mean - margin > k * math.sqrt(var / n))


class _Race:
    """The candidates still searched, and how many worlds each has seen.

    With ``halving`` (v2), after a quarter and again after half of the search only the better
    half of the candidates (at least two, always including the prior's) goes on: the worlds
    the losers would have taken go to the contenders. The prior's head start counts in the
    comparison. Without it every candidate sees every world (v1).
    """

    def __init__(self, n: int, prior_index: int, prior: float, halving: bool) -> None:
        self.active = list(range(n))
        self.worlds = [0] * n
        self.prior_index = prior_index
        self.prior = prior
        self.steps = [0.25, 0.5] if halving and n > 2 else []

    def prune(self, totals: list[float], progress: float) -> None:
        if not self.steps or progress < self.steps[0]:
            return
        self.steps.pop(0)

        def mean(i: int) -> float:
            return totals[i] / max(self.worlds[i], 1) + (self.prior if i == self.prior_index else 0.0)

        ranked = sorted(self.active, key=lambda i: (-mean(i), i))
        keep = ranked[:max(2, (len(ranked) + 1) // 2)]
        if self.prior_index >= 0 and self.prior_index not in keep:
            keep.append(self.prior_index)
        self.active = sorted(keep)

    def add_prior(self, totals: list[float]) -> None:
        if self.prior_index >= 0:
            totals[self.prior_index] += self.prior * self.worlds[self.prior_index]


class _Utility:
    """Scores a finished hand for the searching seat (higher is better).

    Its own points count fully. When the match can end in this hand (someone within 26 of
    the target), points that land on one chosen opponent count a little in our favour: a
    non-leader wants the match leader to take them ("feed the leader"), the leader wants
    them on the seat closest to the target ("wants it over"). The weight is small so Hard
    never takes points itself to steer the match.
    """

    def __init__(self, me: int, view: SeatView) -> None:
        self.me = me
        self.rules = view.rules
        self.scores = view.scores
        self.target_seat = -1
        if max(view.scores) + 26 >= view.rules.target:
            scores = view.scores
            others = [s for s in range(4) if s != me]
            leader = min(others, key=lambda s: (scores[s], s))
            if scores[me] <= scores[leader]:
                self.target_seat = max(others, key=lambda s: (scores[s], -s))  # we lead: end it
            else:
                self.target_seat = leader  # feed the leader

    def __call__(self, hearts: list[int], queen: int, jack: int) -> float:
        pts = hand_points(hearts, queen, jack, self.rules, self.scores)
        value = -float(pts[self.me])
        if self.target_seat >= 0:
            value += MATCH_WEIGHT * pts[self.target_seat]
        return value


# runner_gate -> complete tricks from which any points make a lone taker a runner (others: never)
_ANY_POINTS_FROM = {3: 0, 4: 6}


def _runner(k: Knowledge, gate: int) -> int:
    """The moon runner the search plays against: ``Knowledge.moon_runner`` (gate 1: v1's, 2: earlier)
    or, with gate 3, any other seat that alone has taken points (with ``runner_odds`` its share of
    the worlds then comes from _MOON_ODDS, low for a single heart); gate 4: as gate 2, and any
    such seat from the seventh trick on (v6; bench/out/seat-medium-gate.txt)."""
    return k.moon_runner(early=gate > 1, any_from=_ANY_POINTS_FROM.get(gate, 13))


# How often a seat that alone has taken points goes on to shoot, by the trick about to be played
# (1-5, 6-8, 9-10, 11-13) and its points (1, 2-3, 4-12, 13-15, 16-18, 19+). Read off 5,600 seat
# bench hands with Hard and Medium fields (tools/moon_report.py; its table over those and later
# hands is in bench/out/moon-report-v5.txt): the share of such states whose seat chose a moon
# plan or made the moon, smoothed to rise with the trick and, apart from the Q♠ alone, with the
# points. Late in a hand the attempt count misses runners whose moon plan is also their normal
# card, so the last row leans high. Used by the experimental ``runner_odds`` (screened level with
# v5: bench/out/seat-v3field-runner-odds.txt).
_MOON_ODDS: tuple[tuple[float, ...], ...] = (
    (0.08, 0.12, 0.25, 0.10, 0.30, 0.40),
    (0.08, 0.25, 0.45, 0.15, 0.45, 0.60),
    (0.10, 0.35, 0.60, 0.20, 0.55, 0.70),
    (0.15, 0.45, 0.85, 0.60, 0.85, 0.90),
)


def moon_odds_cell(trick: int, points: int) -> tuple[int, int]:
    """_MOON_ODDS's (row, column) for the trick about to be played (1-13) and the runner's points
    (tools/moon_report.py counts in the same cells)."""
    row = 0 if trick <= 5 else 1 if trick <= 8 else 2 if trick <= 10 else 3
    col = 0 if points < 2 else 1 if points < 4 else 2 if points < 13 else 3 if points < 16 else 4 if points < 19 else 5
    return row, col


def _moon_odds(k: Knowledge, seat: int) -> float:
    """The share of the worlds in which ``seat`` (the moon runner) plays the moon plan."""
    taken = k.taken[seat]
    row, col = moon_odds_cell(k.trick_number + 1, count(taken & HEARTS) + (13 if taken & QS_BIT else 0))
    return _MOON_ODDS[row][col]


# The cards that win a moon: the queens, kings and aces, and the hearts from the ten up.
_MOON_CARDS = sum(1 << (suit * 13 + r) for suit in range(4) for r in range(10, 13)) | sum(1 << (39 + r) for r in range(8, 13))


def _consider_moon(k: Knowledge, gate: int = 1) -> bool:
    """Is a moon plan worth searching? Nobody else has a point, and the hand has the power
    (gate 2: a looser test; the search and the majority bar decide)."""
    if not k.i_can_shoot() or k.trick_number >= 12:
        return False
    hand = k.hand
    my_pts = k.points[k.me]
    hearts = hand & HEARTS
    high_hearts = sum(1 for c in bits(hearts) if rank_of(c) >= 11)
    highs = sum(1 for c in bits(hand) if rank_of(c) >= 12)
    if gate > 2:
        return True  # every decision while the moon is open: the search and the majority bar decide
    if gate > 1:
        if my_pts >= 4:
            return True
        return k.trick_number <= 9 and high_hearts >= 2 and highs >= 4
    if my_pts >= 8:
        return True
    return k.trick_number <= 8 and high_hearts >= 3 and count(hearts) >= 4 and highs >= 5


def _void_passes(hand: int, ranked: Sequence[int], jack: bool) -> list[tuple[int, ...]]:
    """For each side suit (clubs, diamonds) of one to three cards, the pass that empties it,
    filled up with the cards that most want to leave (``ranked``); never the J♦ when it scores."""
    out = []
    for suit in (0, 1):
        cards = bits(hand & SUITS[suit])
        if not 1 <= len(cards) <= 3 or (jack and JD in cards):
            continue
        for c in ranked:
            if len(cards) == 3:
                break
            if c not in cards:
                cards.append(c)
        out.append(tuple(sorted(cards)))
    return out


def _moon_passes(hand: int) -> list[tuple[int, ...]]:
    """Passes that keep a hand with moon chances together (version 3): its three lowest cards,
    and its three lowest side cards (hearts stay), for hands with at least four cards from the
    queen up and two hearts from the jack up. The search and the majority bar decide."""
    highs = sum(1 for c in bits(hand) if rank_of(c) >= 12)
    high_hearts = sum(1 for c in bits(hand & HEARTS) if rank_of(c) >= 11)
    if highs < 4 or high_hearts < 2:
        return []
    by_rank = sorted(bits(hand), key=lambda c: (rank_of(c), c))
    out = [tuple(sorted(by_rank[:3]))]
    side = [c for c in by_rank if c < 39]
    if len(side) >= 3 and tuple(sorted(side[:3])) != out[0]:
        out.append(tuple(sorted(side[:3])))
    return out


def _moon_pass(hand: int) -> tuple[int, ...] | None:
    """Keep a moon hand together: pass the lowest side cards instead of the high ones."""
    hearts = hand & HEARTS
    high_hearts = sum(1 for c in bits(hearts) if rank_of(c) >= 11)
    highs = sum(1 for c in bits(hand) if rank_of(c) >= 12)
    lows = [c for c in bits(hand & ~HEARTS) if rank_of(c) <= 6]
    if count(hearts) >= 6 and high_hearts >= 3 and highs >= 7 and len(lows) >= 3:
        lows.sort(key=lambda c: (rank_of(c), c))
        return tuple(sorted(lows[:3]))
    return None
