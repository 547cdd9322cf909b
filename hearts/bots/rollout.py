"""The rollout policy: how every seat plays out the rest of a hand in Hard's search.

Heuristic rollouts make the search see what real opponents do (duck, dump the Q♠ on the
winner, flush the queen, keep low cards), which random rollouts do not. One seat may play a
moon plan (the *shooter*): it tries to win every trick and gives up as soon as another seat
takes a point; the other seats then try to stop it, once they have seen it coming.

:class:`RolloutPolicy` is what a configuration chooses; :class:`Rollouts` is that policy bound
to one decision (the rules, the searching seat) and plays a hand out with :meth:`Rollouts.play`.
The choice of each card is a small function: :func:`lead`, :func:`follow`, :func:`block`,
:func:`discard` and :func:`random_card`.

Speed (this is where Hard spends its time): a hand is four 13-bit rank masks, one per suit
(bit ``r`` is rank ``r + 2``), stored flat as ``hands[seat * 4 + suit]``, and the highest and
lowest rank of a mask and its size are table look-ups (``HI``, ``LO``, ``PC``). Pyodide's Python
(wasm32) is slow on 52-bit integers and on calls; small ints and list indexing are what it does
fastest, so the card functions take plain ints and the trick's bookkeeping stays in the loop. The
random numbers come pre-drawn in a list: every candidate of a decision replays the same stretch
of it (common random numbers) without seeding a generator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..rules import Rules

__all__ = [
    "HI",
    "LO",
    "PC",
    "NOISE",
    "NEVER",
    "SeenAt",
    "RolloutPolicy",
    "Start",
    "start_at",
    "trick_so_far",
    "Rollouts",
    "Result",
    "split_hands",
    "lead",
    "follow",
    "block",
    "discard",
    "random_card",
]

FULL = (1 << 13) - 1
HI = [-1] + [m.bit_length() - 1 for m in range(1, FULL + 1)]  # highest rank index of a 13-bit mask
LO = [-1] + [(m & -m).bit_length() - 1 for m in range(1, FULL + 1)]  # lowest rank index
PC = [m.bit_count() for m in range(FULL + 1)]  # number of cards
CLUBS, DIAMONDS, SPADES, HEARTS = 0, 1, 2, 3
Q = 10  # rank index of the queen (in spades: the Q♠)
J = 9  # rank index of the jack (in diamonds: the J♦)
QB = 1 << Q
AKB = (1 << 11) | (1 << 12)  # K♠ and A♠
BELOW_Q = QB - 1
QS_CARD = SPADES * 13 + Q
NOISE = 0.3  # how often a simulated opponent plays a random legal card instead of the policy's
NEVER = None  # a shooter the other seats never see (``RolloutPolicy.runner_seen_at``)
SeenAt = int | None  # points a shooter has taken when the others see it: 0 (at once) to 26, or NEVER

# SEATING[leader]: (position in the trick, seat, the seat's first index in ``hands``) in playing order
SEATING = tuple(tuple((p, (leader + p) & 3, ((leader + p) & 3) * 4) for p in range(4)) for leader in range(4))
Result = tuple[list[int], int, int]  # hearts taken per seat, who took the Q♠ and the J♦ (-1: nobody)


@dataclass(frozen=True)
class RolloutPolicy:
    """How the seats play in a configuration's rollouts.

    ``medium_habits``: two habits of the club player of ``medium.py``: a seat that cannot duck a
    club or diamond trick goes over with its lowest card unless it is last (or on the first
    trick); a void seat keeps a low heart and throws the high card of its shortest side suit.

    ``full_defence``: against a shooter the others take any trick with points it is winning
    (otherwise only heart tricks), and when they cannot, they follow low to keep their high
    cards as stoppers (otherwise they duck as high as they can, throwing the stoppers away).

    ``clean_last``: the last seat to a trick without points wins it when it can, with its
    highest card of the suit (never its own Q♠): it sheds a card that could win a point trick
    later, at no cost.

    ``my_moon_seen_at`` / ``runner_seen_at``: the other seats see a shooter only once it has
    taken this many points (0: at once; ``NEVER``: not at all), when the shooter is the searching
    seat / another seat (a moon runner, which the searching seat watches from the start); until
    then they dump points on its tricks like on anyone's. Seats that see it late (or never: the
    searching seat watching a runner) block with the cheapest card that wins the trick (not the
    Q♠ when another card wins); at once, with their highest.
    """

    medium_habits: bool = False
    full_defence: bool = False
    clean_last: bool = False
    my_moon_seen_at: SeenAt = 0
    runner_seen_at: SeenAt = 0

    def __post_init__(self) -> None:
        for name in ("my_moon_seen_at", "runner_seen_at"):
            seen_at = getattr(self, name)
            if seen_at is not NEVER and not (isinstance(seen_at, int) and 0 <= seen_at <= 26):
                raise ValueError(f"{name} must be 0 to 26 points or NEVER, got {seen_at!r}")


class Start(NamedTuple):
    """Where a playout starts (:func:`start_at` makes one): the trick's leader, how many cards
    are on the table and what they make (:func:`trick_so_far`), the trick's number, whether
    hearts are broken, the hearts each seat has taken, who took the Q♠ and the J♦ (-1: nobody
    yet) and whether the Q♠ is still to be played."""

    leader: int
    on_table: int
    trick: tuple[int, int, int, int, bool, bool]
    trick_number: int
    broken: bool
    hearts: tuple[int, ...]
    queen: int
    jack: int
    queen_live: bool


def start_at(
    leader: int,
    on_table: tuple[int, ...],
    trick_number: int,
    broken: bool,
    hearts: tuple[int, ...],
    queen: int,
    jack: int,
) -> Start:
    """The :class:`Start` of a trick led by ``leader`` with the cards ``on_table`` played to it."""
    return Start(
        leader,
        len(on_table),
        trick_so_far(on_table, leader),
        trick_number,
        broken,
        hearts,
        queen,
        jack,
        queen < 0 and QS_CARD not in on_table,
    )


def split_hands(masks: Sequence[int]) -> list[int]:
    """Four 52-bit hands -> ``hands[seat * 4 + suit]`` 13-bit rank masks."""
    return [(m >> shift) & FULL for m in masks for shift in (0, 13, 26, 39)]


class Rollouts:
    """A :class:`RolloutPolicy` bound to one decision: the rules' facts and each seat's noise
    (``NOISE`` for the others, none for the searching seat ``me``)."""

    __slots__ = (
        "medium",
        "defend",
        "clean",
        "my_moon_seen_at",
        "runner_seen_at",
        "noise",
        "bar_hearts",
        "bar_queen",
        "queen_breaks",
    )

    def __init__(self, policy: RolloutPolicy, rules: Rules, me: int) -> None:
        self.medium = policy.medium_habits
        self.defend = policy.full_defence
        self.clean = policy.clean_last
        self.my_moon_seen_at = policy.my_moon_seen_at
        self.runner_seen_at = policy.runner_seen_at
        self.noise = tuple(0.0 if s == me else NOISE for s in range(4))
        forbidden = rules.first_trick_forbidden  # what a seat void in clubs may not throw on the first trick
        self.bar_hearts = FULL if forbidden >> 39 else 0
        self.bar_queen = QB if forbidden >> QS_CARD & 1 else 0
        self.queen_breaks = rules.queen_breaks_hearts

    # The rollouts' hot loop, kept in its compact form (one screen to read):
    # fmt: off
    def play(self, hands: list[int], start: Start, randoms: Sequence[float], at: int, shooter: int = -1,
             watcher: int = -1) -> Result:
        """Play the hand out from ``start`` (``hands`` is consumed; random numbers from ``randoms[at]``):
        ``shooter`` plays a moon plan (-1: none), ``watcher`` is the searching seat watching it."""
        leader, on_table, trick, trick_number, broken, hearts, queen, jack, queen_live = start
        led, best, winner, hearts_in, queen_in, jack_in = trick
        medium, defend, clean, noise, queen_breaks = self.medium, self.defend, self.clean, self.noise, self.queen_breaks
        late = self.runner_seen_at if watcher >= 0 else self.my_moon_seen_at
        taken = list(hearts)
        if shooter >= 0 and (sum(taken) - taken[shooter] or queen not in (-1, shooter)):
            shooter = -1  # someone else has a point: no moon
        low_over = medium and trick_number > 0  # Medium's habit of going over low, after the first trick
        while trick_number < 13:
            seen = shooter < 0 or late == 0 or late is not NEVER and taken[shooter] + 13 * (queen == shooter) >= late
            bar_queen, bar_hearts = (self.bar_queen, self.bar_hearts) if trick_number == 0 else (0, 0)
            if not on_table:
                base = leader * 4
                led, best = lead(hands, base, trick_number, broken, randoms[at], queen_live, leader == shooter)
                at += trick_number > 0
                hands[base + led] &= ~(1 << best)
                broken = broken or led == HEARTS or (queen_breaks and led == SPADES and best == Q)
                hearts_in, queen_in, jack_in = led == HEARTS, led == SPADES and best == Q, led == DIAMONDS and best == J
            for position, seat, base in SEATING[leader][on_table or 1:]:
                follows = hands[base + led]
                noisy = noise[seat] if seat != shooter else 0.0
                if noisy:  # two random numbers: does it play a random card, and which one
                    if randoms[at] < noisy:
                        at += 2
                    else:
                        noisy, at = 0.0, at + 1
                if noisy:
                    suit, rank = random_card(hands, base, follows, led, bar_queen, bar_hearts, randoms[at - 1])
                elif follows:
                    suit, rank, below = led, -1, follows & ((1 << best) - 1)
                    if seat == shooter:
                        rank = HI[follows] if HI[follows] > best else LO[follows]
                    elif winner == shooter and (seen or seat == watcher):
                        rank = block(follows, below, led, hearts_in or queen_in, defend, late != 0)
                    if rank < 0:  # the commonest case, a duck, first
                        rank = HI[below] if below and not (clean and position == 3) else follow(
                            follows, below, led, position == 3, hearts_in or queen_in, queen_live, clean, low_over)
                else:
                    suit, rank = discard(hands, base, bar_queen, bar_hearts, seat == shooter,
                                         winner == shooter and (seen or seat == watcher), queen_live, medium)
                hands[base + suit] &= ~(1 << rank)
                if suit == led and rank > best:
                    best, winner = rank, seat
                if suit == HEARTS:
                    hearts_in += 1
                    broken = True
                elif suit == SPADES and rank == Q:  # it breaks hearts (queen_breaks) led or thrown, not followed
                    queen_in, broken = True, broken or (queen_breaks and (noisy > 0 or not follows))
                elif suit == DIAMONDS and rank == J:
                    jack_in = True
            taken[winner] += hearts_in
            queen, queen_live = (winner, False) if queen_in else (queen, queen_live)
            jack = winner if jack_in else jack
            shooter = -1 if (hearts_in or queen_in) and winner != shooter else shooter
            on_table, leader, trick_number, low_over = 0, winner, trick_number + 1, medium
        return taken, queen, jack
    # fmt: on


def trick_so_far(on_table: Sequence[int], leader: int) -> tuple[int, int, int, int, bool, bool]:
    """The led suit of the cards ``on_table`` (played to a trick led by ``leader``), the winning
    rank and seat, and the hearts, the Q♠ and the J♦ among them (led suit and rank -1: none)."""
    if not on_table:
        return -1, -1, leader, 0, False, False
    led = on_table[0] // 13
    best, winner, hearts_in, queen_in, jack_in = -1, leader, 0, False, False
    for position, card in enumerate(on_table):
        suit, rank = divmod(card, 13)
        if suit == HEARTS:
            hearts_in += 1
        queen_in = queen_in or card == QS_CARD
        jack_in = jack_in or (suit == DIAMONDS and rank == J)
        if suit == led and rank > best:
            best, winner = rank, (leader + position) & 3
    return led, best, winner, hearts_in, queen_in, jack_in


def _highest(clubs: int, diamonds: int, spades: int, hearts: int) -> tuple[int, int]:
    """(suit, rank index) of the highest rank of a hand's four suit masks (ties: the lower suit)."""
    suit, rank = 0, HI[clubs]
    if HI[diamonds] > rank:
        suit, rank = 1, HI[diamonds]
    if HI[spades] > rank:
        suit, rank = 2, HI[spades]
    if HI[hearts] > rank:
        suit, rank = 3, HI[hearts]
    return suit, rank


def lead(
    hands: list[int], base: int, trick_number: int, broken: bool, rnd: float, queen_live: bool, shoots: bool
) -> tuple[int, int]:
    """(suit, rank) the seat at ``hands[base:base + 4]`` leads to trick ``trick_number``; ``rnd`` is read
    except on the first trick (the 2♣). A shooter leads its highest card. Others never lead
    spades into their own Q♠; while the queen is out, a seat with a spade below her and neither
    the A♠ nor the K♠ flushes her with its highest such spade (60% of the time); otherwise the
    lowest card by rank, a heart only when 3 ranks lower than the rest; 15% of the time the
    lowest card of a random suit."""
    if trick_number == 0:
        return CLUBS, 0
    clubs, diamonds, spades, hearts = hands[base], hands[base + 1], hands[base + 2], hands[base + 3]
    if not broken and (clubs or diamonds or spades):
        hearts = 0
    if shoots:
        return _highest(clubs, diamonds, spades, hearts)
    if spades & QB and (clubs or diamonds or hearts):
        spades = 0  # never lead spades into one's own queen
    elif queen_live and spades & BELOW_Q and not spades & AKB and rnd < 0.6:
        return SPADES, HI[spades & BELOW_Q]  # flush the queen
    if rnd > 0.85:  # a little noise: the lowest card of a random suit
        suits = [s for s, m in ((0, clubs), (1, diamonds), (2, spades), (3, hearts)) if m]
        suit = suits[int((rnd - 0.85) / 0.15 * len(suits)) % len(suits)]
        return suit, LO[(clubs, diamonds, spades, hearts)[suit]]
    suit, rank = -1, 99
    if clubs:
        suit, rank = 0, LO[clubs]
    if diamonds and LO[diamonds] < rank:
        suit, rank = 1, LO[diamonds]
    if spades and LO[spades] < rank:
        suit, rank = 2, LO[spades]
    if hearts and LO[hearts] + 3 < rank:
        suit, rank = 3, LO[hearts]
    return suit, rank


def follow(
    follows: int, below: int, led: int, last: bool, points_in: int, queen_live: bool, clean: bool, low_over: bool
) -> int:
    """The rank a seat plays following suit (``follows``: its cards of the led suit) under the
    winning rank ``best``: as high as it can under it; if it cannot, a spade other than the Q♠
    (not the A♠/K♠ while she is out, unless last: then its highest), or, when the trick is not
    its to finish, its lowest heart, or (``low_over``, Medium's habit) its lowest club or
    diamond; else its highest. ``clean``: last to a trick without points, it wins it high.
    ``below``: its cards under the winning card."""
    if clean and last and not points_in:
        wins = follows & ~below & ~(QB if led == SPADES else 0)
        if wins:
            return HI[wins]
    if below:
        return HI[below]
    safe = follows
    if led == SPADES:
        if follows & ~QB:
            safe = follows & ~QB
        if not last and queen_live and safe & ~AKB:
            safe &= ~AKB
        return HI[safe] if last else LO[safe]
    if not last and (led == HEARTS or low_over):
        return LO[safe]
    return HI[safe]


def block(follows: int, below: int, led: int, points_in: int, defend: bool, late: bool) -> int:
    """The rank a seat that sees a shooter winning the trick follows with, or -1 to follow as
    usual: it takes a heart trick (``defend``: any trick with points) when it can, with its
    cheapest winner that is not the Q♠ (``late``) or its highest card; ``defend``: when it
    cannot, it keeps its high cards and follows low. ``below``: its cards under the winning card."""
    if (led == HEARTS or (defend and points_in)) and follows != below:
        if not late:
            return HI[follows]
        over = follows & ~below
        if led == SPADES and over & ~QB:
            over &= ~QB
        return LO[over]
    if defend and below:
        return LO[below]
    return -1


def discard(
    hands: list[int],
    base: int,
    bar_queen: int,
    bar_hearts: int,
    shoots: bool,
    feeds_shooter: bool,
    queen_live: bool,
    medium: bool,
) -> tuple[int, int]:
    """(suit, rank) a seat void in the led suit throws (``bar_*``: what the first trick bars, if
    it holds anything else). A shooter keeps its winners (the lowest club, diamond or spade but
    the Q♠); a seat whose card would land on the shooter's trick (``feeds_shooter``) throws its
    highest card without points; the others throw the Q♠, then the A♠/K♠ while she is out,
    then their highest heart, then their highest card; ``medium``: they keep a heart below the
    9 and throw the high card of their shortest side suit instead."""
    clubs, diamonds, spades, hearts = hands[base], hands[base + 1], hands[base + 2], hands[base + 3]
    if bar_queen or bar_hearts:
        free_spades, free_hearts = spades & ~bar_queen, hearts & ~bar_hearts
        if clubs or diamonds or free_spades or free_hearts:
            spades, hearts = free_spades, free_hearts
    if shoots:
        if clubs:
            return 0, LO[clubs]
        if diamonds:
            return 1, LO[diamonds]
        if spades & ~QB:
            return 2, LO[spades & ~QB]
        return _highest(clubs, diamonds, spades, hearts)
    if feeds_shooter and (clubs or diamonds or spades & ~QB):
        return _highest(clubs, diamonds, spades & ~QB, 0)
    if spades & QB:
        return SPADES, Q
    if queen_live and spades & AKB:
        return SPADES, HI[spades & AKB]
    if hearts and (not medium or HI[hearts] >= 7 or not (clubs or diamonds or spades)):
        return HEARTS, HI[hearts]
    if not medium:  # the highest club, diamond or spade
        suit, rank = 0, HI[clubs]
        if HI[diamonds] > rank:
            suit, rank = 1, HI[diamonds]
        return (2, HI[spades]) if HI[spades] > rank else (suit, rank)
    # the high card of the shortest suit: the highest 2 * rank - length (a heart counts 3 shorter)
    suit, rank, score = -1, -1, -99
    if clubs:
        suit, rank, score = 0, HI[clubs], 2 * HI[clubs] - PC[hands[base]]
    if diamonds and 2 * HI[diamonds] - PC[hands[base + 1]] > score:
        suit, rank, score = 1, HI[diamonds], 2 * HI[diamonds] - PC[hands[base + 1]]
    if spades and 2 * HI[spades] - PC[hands[base + 2]] > score:
        suit, rank, score = 2, HI[spades], 2 * HI[spades] - PC[hands[base + 2]]
    if hearts and 2 * HI[hearts] - PC[hands[base + 3]] + 6 > score:
        suit, rank = 3, HI[hearts]
    return suit, rank


def random_card(
    hands: list[int], base: int, follows: int, led: int, bar_queen: int, bar_hearts: int, x: float
) -> tuple[int, int]:
    """(suit, rank) of a random legal card, picked by ``x`` in [0, 1): of the led suit when the
    seat holds one, else of any suit (``bar_*``: what the first trick bars, if it holds anything
    else)."""
    if follows:
        suit, cards = led, follows
        i = int(x * PC[cards])
    else:
        pool = [hands[base], hands[base + 1], hands[base + 2], hands[base + 3]]
        if bar_queen or bar_hearts:
            free = [pool[0], pool[1], pool[2] & ~bar_queen, pool[3] & ~bar_hearts]
            if free[0] or free[1] or free[2] or free[3]:
                pool = free
        i = int(x * (PC[pool[0]] + PC[pool[1]] + PC[pool[2]] + PC[pool[3]]))
        suit = 0
        while i >= PC[pool[suit]]:
            i -= PC[pool[suit]]
            suit += 1
        cards = pool[suit]
    while i:  # the i-th lowest rank
        cards &= cards - 1
        i -= 1
    return suit, LO[cards]
