"""The worlds a search plays its options in, and the loop that plays them out (Hard's and the review's).

A *world* deals the cards a seat has not seen to the other seats, consistently with what it knows
(:class:`WorldSampler`). :class:`PlayWorlds` is the world loop of a play decision: it draws worlds,
each with a stretch of random numbers and, when a moon runner is about, whether the runner shoots
in it; and it plays a candidate card (and whether Hard itself shoots) out in a world with the
rollout policy. :class:`PassWorlds` does the same for a pass: a world is a deal of the unseen
cards and the other seats' passes, and a candidate pass is played out from the 2♣.

Every candidate of a world reads the same random numbers (common random numbers), so the
difference between two candidates is not the noise of two separate samples.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..view import SeatView
from ._bits import HEARTS, JD, QS, QS_BIT, SUITS, bits, count
from .config import WorldLoop
from .knowledge import Knowledge
from .medium import pass_choice
from .moon import VIABLE_TRIES, RunnerWorlds, made_moon, runner_weights
from .rollout import FULL, Result, Rollouts, Start, split_hands, start_at

__all__ = [
    "POOL",
    "QUEEN_INFERENCE",
    "playout_randoms",
    "random_pool",
    "randoms",
    "WorldSampler",
    "sample_world",
    "PlayWorld",
    "PlayWorlds",
    "PassWorld",
    "PassWorlds",
]

POOL = 8192  # random numbers drawn once per decision; a playout starts reading anywhere below
QUEEN_INFERENCE = 0.85  # trust in "it did not dump the Q♠ when it could, so it has none"


def playout_randoms(trick_number: int) -> int:
    """How many random numbers a playout from ``trick_number`` (with at least one card on the
    table) can consume: 2 per follower (noise, then its pick), 1 per later lead."""
    return 6 + 7 * (12 - trick_number)


def random_pool(rng: random.Random, draws: int) -> list[float]:
    """``POOL + draws`` random numbers: every playout reads ``draws`` of them from a start below POOL."""
    rand = rng.random
    return [rand() for _ in range(POOL + draws)]


def randoms(seed: int, n: int) -> list[float]:
    """The first ``n`` random numbers of ``random.Random(seed)``, drawn once for every candidate."""
    rand = random.Random(seed).random
    return [rand() for _ in range(n)]


class WorldSampler:
    """Deals the unseen cards to the other seats, consistent with voids, hand sizes, passed
    cards and the Q♠ inference (set up once per decision, then called once per world).

    Card by card, each suit goes to a seat that may hold it with a chance proportional to the
    room left in its hand, which gives every split of a suit the same chance whatever the
    order: ``shuffle`` shuffles each suit first all the same. :meth:`weigh` makes a seat likelier
    to hold some cards.
    """

    def __init__(self, knowledge: Knowledge, shuffle: bool = True) -> None:
        self.shuffle = shuffle
        others = [s for s in range(4) if s != knowledge.me]
        base = [0, 0, 0, 0]
        base[knowledge.me] = knowledge.hand
        free = knowledge.unseen
        for s in others:
            base[s] = knowledge.known[s]
            free &= ~knowledge.known[s]
        self.others = others
        self.base = base
        self.need = [knowledge.sizes[s] - count(knowledge.known[s]) if s != knowledge.me else 0 for s in range(4)]
        by_suit = []
        for suit in range(4):
            cards = bits(free & SUITS[suit])
            if cards:
                seats = [s for s in others if not knowledge.void_mask[s] >> (suit * 13) & 1]
                by_suit.append((len(seats), suit, cards, seats))
        by_suit.sort()
        self.by_suit = [(suit, cards, seats) for _, suit, cards, seats in by_suit]
        self.factor: list[list[float]] = []  # factor[c][s]: the weight of dealing card c to seat s (after weigh)
        queen_seats: list[int] = []
        if free & QS_BIT:
            queen_seats = [s for s in others if not knowledge.no_queen[s] and not knowledge.void_mask[s] & QS_BIT]
            if len(queen_seats) == len([s for s in others if not knowledge.void_mask[s] & QS_BIT]):
                queen_seats = []  # nothing learned
        self.queen_seats = queen_seats

    def weigh(self, seat: int, cards: int, weight: float) -> None:
        """``seat`` gets each of ``cards`` with ``weight`` times the usual weight."""
        if not self.factor:
            self.factor = [[1.0] * 4 for _ in range(52)]
        for c in bits(cards):
            self.factor[c][seat] *= weight

    def __call__(self, rng: random.Random) -> list[int]:
        for attempt in range(30):
            hands, need = list(self.base), list(self.need)
            queen = bool(self.queen_seats) and attempt < 20 and self._place_queen(hands, need, rng.random)
            if self._deal(hands, need, rng, queen, attempt >= 25):
                return hands
        raise AssertionError("no consistent deal")  # pragma: no cover

    def _place_queen(self, hands: list[int], need: list[int], random_: Callable[[], float]) -> bool:
        """Most of the time, give the Q♠ to a seat that has not shown it lacks her."""
        if random_() >= QUEEN_INFERENCE:
            return False
        open_seats = [s for s in self.queen_seats if need[s] > 0]
        if not open_seats:
            return False
        s = open_seats[int(random_() * len(open_seats))]
        hands[s] |= QS_BIT
        need[s] -= 1
        return True

    def _deal(self, hands: list[int], need: list[int], rng: random.Random, queen_placed: bool, any_seat: bool) -> bool:
        """Deal every suit (``any_seat``: ignoring voids, for inconsistent views); False when a
        card finds no seat."""
        random_ = rng.random
        for suit, cards, seats in self.by_suit:
            if queen_placed and suit == 2:
                cards = [c for c in cards if c != QS]
            if any_seat:
                seats = self.others
            if self.shuffle:
                cards = list(cards)
                rng.shuffle(cards)
            if not _deal_suit(hands, need, cards, seats, self.factor, random_):
                return False
        return True


_EVEN = (1, 1, 1, 1)  # every seat's room counts once


def _deal_suit(
    hands: list[int],
    need: list[int],
    cards: Sequence[int],
    seats: Sequence[int],
    factor: list[list[float]],
    random_: Callable[[], float],
) -> bool:
    """Deal ``cards`` to ``seats``, card by card, each seat with a chance proportional to the room
    left in its hand, weighted by ``factor[card][seat]`` (no ``factor``: evenly); False when a
    card finds no room."""
    weight: Sequence[float] = _EVEN
    total = 0.0  # the (weighted) room left in their hands
    for s in seats:
        total += need[s]
    for c in cards:
        if factor:  # this card's weights: the room adds up anew
            weight = factor[c]
            total = 0.0
            for s in seats:
                total += need[s] * weight[s]
        if total <= 0:
            return False
        x = random_() * total
        for s in seats:
            x -= need[s] * weight[s]
            if x < 0 and need[s] > 0:
                break
        else:
            s = next(s for s in reversed(seats) if need[s] > 0)
        hands[s] |= 1 << c
        need[s] -= 1
        total -= weight[s]
    return True


def sample_world(knowledge: Knowledge, rng: random.Random) -> list[int]:
    """One world: the unseen cards dealt to the other seats (see :class:`WorldSampler`)."""
    return WorldSampler(knowledge)(rng)


class PlayWorld(NamedTuple):
    hands: list[int]  # split_hands of the four hands
    randoms: Sequence[float]  # the random numbers every candidate's playout reads ...
    at: int  # ... from here on
    runner_shoots: bool  # the moon runner (if any) plays the moon plan in this world


class PlayWorlds:
    """The world loop of a play decision: :meth:`draw` a world, :meth:`play` a candidate in it.

    ``cards`` are the candidates (all played from the same position); ``runner`` the moon runner
    (-1: none), who shoots in half of the worlds; ``reference`` the card the runner's worlds are
    judged with (Medium's, with ``RunnerWorlds.STRONG``)."""

    def __init__(
        self,
        knowledge: Knowledge,
        loop: WorldLoop,
        cards: Sequence[int],
        runner: int,
        reference: int,
        rng: random.Random,
    ) -> None:
        self.me, self.runner, self.reference, self.rng = knowledge.me, runner, reference, rng
        self.rollouts = Rollouts(loop.policy, knowledge.view.rules, knowledge.me)
        self.sampler = WorldSampler(knowledge, shuffle=not loop.random_pool)
        self.strong: WorldSampler | None = None
        if runner >= 0 and loop.runner_worlds is RunnerWorlds.STRONG:
            self.strong = WorldSampler(knowledge, shuffle=not loop.random_pool)
            self.strong.weigh(*runner_weights(knowledge, runner))
        self.draws = playout_randoms(knowledge.trick_number)
        self.pool = random_pool(rng, self.draws) if loop.random_pool else []
        trick = tuple(knowledge.trick_cards)
        leader = knowledge.leader if trick else knowledge.me
        hearts = tuple(count(t & HEARTS) for t in knowledge.taken)
        queen = next((s for s in range(4) if knowledge.taken[s] & QS_BIT), -1)
        jack = next((s for s in range(4) if knowledge.taken[s] >> JD & 1), -1)
        queen_breaks = knowledge.view.rules.queen_breaks_hearts
        self.after: dict[int, tuple[int, int, Start]] = {}  # card -> (its suit's index in hands, that suit left, start)
        for card in set(cards) | {reference}:
            broken = knowledge.broken or card >= 39 or (queen_breaks and card == QS)
            suit_left = (knowledge.hand >> (card // 13 * 13)) & FULL & ~(1 << card % 13)
            start = start_at(leader, trick + (card,), knowledge.trick_number, broken, hearts, queen, jack)
            self.after[card] = (knowledge.me * 4 + card // 13, suit_left, start)

    def draw(self) -> PlayWorld:
        """The next world, its random numbers and whether the runner shoots in it."""
        rng = self.rng
        if self.strong is not None:
            return self._draw_strong(self.strong)
        world = split_hands(self.sampler(rng))
        if self.pool:
            at = int(rng.random() * POOL)
            return PlayWorld(world, self.pool, at, self.runner >= 0 and bool(at & 1))
        seed = rng.randrange(1 << 30)
        return PlayWorld(world, randoms(seed, self.draws), 0, self.runner >= 0 and bool(seed & 1))

    def _draw_strong(self, strong: WorldSampler) -> PlayWorld:
        """A world of ``RunnerWorlds.STRONG``: in the runner's half, its moon goes through."""
        rng = self.rng
        at = int(rng.random() * POOL)
        shoots = (at & 1023) < 512
        world = split_hands((strong if shoots else self.sampler)(rng))
        if shoots:
            for _ in range(VIABLE_TRIES):
                if made_moon(self.play(PlayWorld(world, self.pool, at, True), self.reference, False), self.runner):
                    break
                world = split_hands(strong(rng))
            else:
                shoots = False
                world = split_hands(self.sampler(rng))
        return PlayWorld(world, self.pool, at, shoots)

    def play(self, world: PlayWorld, card: int, shoot: bool) -> Result:
        """Play ``card`` (``shoot``: as a moon plan) and the rest of the hand out in ``world``."""
        index, suit_left, start = self.after[card]
        dealt, numbers, at, runner_shoots = world
        hands = list(dealt)
        hands[index] = suit_left
        if shoot:
            return self.rollouts.play(hands, start, numbers, at, self.me)
        if runner_shoots:
            return self.rollouts.play(hands, start, numbers, at, self.runner, self.me)
        return self.rollouts.play(hands, start, numbers, at)


class PassWorld(NamedTuple):
    hands: list[int]  # the four hands after the other seats' passes (Medium's), before this seat's
    leader: int  # the seat that then holds the 2♣
    randoms: Sequence[float]
    at: int


_FROM_THE_DEAL = tuple(start_at(leader, (), 0, False, (0, 0, 0, 0), -1, -1) for leader in range(4))


class PassWorlds:
    """The world loop of a pass decision: :meth:`draw` a deal of the unseen cards, with the other
    seats' passes (Medium's), and :meth:`play` a candidate pass out in it from the 2♣."""

    def __init__(self, view: SeatView, loop: WorldLoop, rng: random.Random) -> None:
        self.me, self.hand, self.rng = int(view.seat), view.hand_mask, rng
        self.jack_rule = view.rules.jack_of_diamonds
        self.offset = view.pass_direction.offset
        self.receiver = (self.me + self.offset) % 4
        self.rollouts = Rollouts(loop.policy, view.rules, self.me)
        self.unseen = bits(((1 << 52) - 1) & ~self.hand)  # shuffled again for every deal
        self.others = [(self.me + i) % 4 for i in (1, 2, 3)]
        self.draws = playout_randoms(0)
        self.pool = random_pool(rng, self.draws) if loop.random_pool else []

    def draw(self) -> PassWorld:
        """The next deal of the unseen cards, after the other seats' passes, and its random numbers."""
        rng, unseen = self.rng, self.unseen
        rng.shuffle(unseen)
        dealt = [0, 0, 0, 0]
        dealt[self.me] = self.hand
        for i, s in enumerate(self.others):
            for c in unseen[13 * i : 13 * i + 13]:
                dealt[s] |= 1 << c
        return self.world_of(dealt)

    def world_of(self, dealt: Sequence[int]) -> PassWorld:
        """The world of a deal: the other seats' passes (Medium's) made, and its random numbers."""
        rng, offset = self.rng, self.offset
        given = [0, 0, 0, 0]
        for s in self.others:
            for c in pass_choice(dealt[s], self.jack_rule)[0]:
                given[s] |= 1 << c
        hands = [dealt[s] & ~given[s] for s in range(4)]
        for s in range(4):
            hands[(s + offset) % 4] |= given[s]
        leader = next(s for s in range(4) if hands[s] & 1)
        if self.pool:
            return PassWorld(hands, leader, self.pool, int(rng.random() * POOL))
        return PassWorld(hands, leader, randoms(rng.randrange(1 << 30), self.draws), 0)

    def play(self, world: PassWorld, passed: int, shoot: bool) -> Result:
        """Pass ``passed`` (a mask; ``shoot``: with a moon plan) and play the hand out in ``world``."""
        dealt, leader, numbers, at = world
        hands = list(dealt)
        hands[self.me] &= ~passed
        hands[self.receiver] |= passed
        if passed & 1:
            leader = self.receiver
        return self.rollouts.play(split_hands(hands), _FROM_THE_DEAL[leader], numbers, at, self.me if shoot else -1)
