"""A fast heuristic playout policy (Medium-like play for every seat) on 13-bit suit masks.

Heuristic rollouts make the Hard search see what real opponents do (duck, dump the Q♠ on
the winner, keep low cards), which random rollouts do not. One seat may play a moon plan
(``shooter``): it tries to win every trick, and the others then try to block it (take a
heart, hold a high heart back). The shooter gives up as soon as another seat takes a point.

Speed (this is where Hard spends its time): a hand is four 13-bit rank masks, one per suit
(bit ``r`` = rank ``r + 2``), stored flat as ``hands[seat * 4 + suit]``, and the highest and
lowest rank of a mask are table look-ups. Pyodide's Python (wasm32) is slow on 52-bit
integers and on method calls; small ints and list indexing are what it does fastest. The
random numbers come pre-drawn in a list (``rs``): every candidate of a decision replays the
same list (common random numbers) without re-seeding a generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..rules import Rules

__all__ = ["HI", "LO", "PC", "POOL", "split_hands", "playout_randoms", "randoms", "random_pool", "RolloutRules", "playout"]

FULL = (1 << 13) - 1
HI = [-1] + [m.bit_length() - 1 for m in range(1, FULL + 1)]  # highest rank index of a 13-bit mask
LO = [-1] + [(m & -m).bit_length() - 1 for m in range(1, FULL + 1)]  # lowest rank index
PC = [m.bit_count() for m in range(FULL + 1)]  # number of cards
Q = 10  # rank index of the queen (in spades: the Q♠)
QB = 1 << Q
AKB = (1 << 11) | (1 << 12)  # K♠ and A♠
BELOW_Q = QB - 1
J = 9  # rank index of the jack (in diamonds: the J♦)
QS_CARD = 2 * 13 + Q


def split_hands(masks: Sequence[int]) -> list[int]:
    """Four 52-bit hands -> ``hands[seat * 4 + suit]`` 13-bit rank masks."""
    return [(m >> shift) & FULL for m in masks for shift in (0, 13, 26, 39)]


def playout_randoms(trick_number: int) -> int:
    """How many random numbers a playout from ``trick_number`` (with at least one card on the
    table) can consume: 2 per follower (noise, then its pick), 1 per later lead."""
    return 6 + 7 * (12 - trick_number)


POOL = 8192  # random numbers drawn once per decision (version 2); a playout starts anywhere below


def random_pool(rng: random.Random, draws: int) -> list[float]:
    """``POOL + draws`` random numbers: every playout reads ``draws`` of them from a start below POOL."""
    rand = rng.random
    return [rand() for _ in range(POOL + draws)]


def randoms(seed: int, n: int) -> list[float]:
    """The first ``n`` random numbers of ``random.Random(seed)``, drawn once for every candidate."""
    rand = random.Random(seed).random
    return [rand() for _ in range(n)]


class RolloutRules:
    """The few rule facts a playout needs, looked up once per decision."""

    __slots__ = ("forbid_hearts", "forbid_queen", "queen_breaks")

    def __init__(self, rules: Rules) -> None:
        forbidden = rules.first_trick_forbidden
        self.forbid_hearts = bool(forbidden >> 39)
        self.forbid_queen = bool(forbidden >> QS_CARD & 1)
        self.queen_breaks = rules.queen_breaks_hearts


def _highest(a0: int, a1: int, a2: int, a3: int) -> tuple[int, int]:
    """(suit, rank index) of the highest rank of a hand's four suit masks (ties: the lower suit)."""
    s, r = 0, HI[a0]
    if HI[a1] > r:
        s, r = 1, HI[a1]
    if HI[a2] > r:
        s, r = 2, HI[a2]
    if HI[a3] > r:
        s, r = 3, HI[a3]
    return s, r


def playout(
    h: list[int],
    leader: int,
    trick: Sequence[int],
    t: int,
    broken: bool,
    hearts: Sequence[int],
    queen: int,
    jack: int,
    rr: RolloutRules,
    rs: Sequence[float],
    shooter: int = -1,
    noise: Sequence[float] = (0.0, 0.0, 0.0, 0.0),
    medium: bool = False,
    defend: bool = False,
    ri: int = 0,
    eager: int = -1,
    late: int = 0,
    counted: bool = False,
    clean: bool = False,
    short: bool = False,
) -> tuple[list[int], int, int]:
    """Play to the end of the hand from trick ``t`` (``trick``: the card numbers already on the
    table, led by ``leader``). ``h`` is consumed. ``hearts``/``queen``/``jack``: hearts taken
    per seat so far, the seat that took the Q♠ and the J♦ (-1: nobody yet). Returns the same
    three at the end of the hand.

    ``noise[seat]``: how often that seat plays a random legal card instead of the policy's
    (real opponents are not as tidy as the policy; a search that expects perfect ducking from
    everyone plays too timidly against weaker tables). The searching seat passes 0 for itself.

    ``medium``: two habits closer to the club player of ``medium.py`` (version 2): a seat that
    cannot duck a club or diamond trick goes over with its lowest card unless it is last (or
    on the first trick); a void seat keeps a low heart and throws the high card of its
    shortest side suit instead.

    ``ri``: where in ``rs`` this playout starts reading (version 2 reads a random stretch of
    one long list drawn once per decision, instead of drawing new numbers for every world).

    ``defend`` (version 2): the others block a shooter on any trick with points it is winning
    (v1: only on heart leads), and when they cannot, they follow low and keep their high
    cards to stop it later (v1 ducked as high as possible, throwing its stoppers away).

    ``late`` (version 3): the other seats only see a shooter once it has taken ``late`` points
    (before that they play as usual, dumping points on its tricks like anyone's), except the
    seat ``eager`` (the searching seat, watching a moon runner), which defends at once; they
    block with the cheapest card that wins the trick (not the Q♠ when they can help it). Real
    defenders are neither omniscient nor quick: a search that expects the others to stop every
    moon at once never stops one itself.

    ``counted`` (experimental): a leader counts the cards still out. It leads the low card that
    has the fewest cards of its suit still out below it (the surest loser; a heart counts 3
    more), and never a suit nobody else can follow while it has another (that trick would be
    its own, with whatever points the others throw on it).

    ``clean`` (experimental): the last seat to a trick without points wins it when it can, with
    its highest card of the suit (never its own Q♠): it unloads a card that could win a point
    trick later, at no cost (``medium.py`` and the plain policy duck under it).

    ``short`` (experimental): a leader leads the lowest card of its shortest suit (hearts count
    3 cards longer; the A♠/K♠ while the queen is out only when nothing else is left), to void
    a suit early; the plain policy leads its lowest rank.
    """
    hi = HI
    lo = LO
    pc = PC
    fh = rr.forbid_hearts
    fq = rr.forbid_queen
    qbreaks = rr.queen_breaks
    taken = list(hearts)
    queen_live = queen < 0 and QS_CARD not in trick
    if shooter >= 0:
        for s in range(4):
            if s != shooter and (taken[s] or queen == s):
                shooter = -1
    while t < 13:
        if shooter >= 0 and late:
            seen_moon = taken[shooter] + (13 if queen == shooter else 0) >= late
        else:
            seen_moon = True
        if trick:
            ls = trick[0] // 13
            best = trick[0] % 13
            winner = leader
            th = 0
            tq = tj = False
            for k in range(len(trick)):
                c = trick[k]
                cs = c // 13
                if cs == 3:
                    th += 1
                elif c == QS_CARD:
                    tq = True
                elif cs == 1 and c % 13 == J:
                    tj = True
                if k and cs == ls and c % 13 > best:
                    best = c % 13
                    winner = (leader + k) & 3
            k0 = len(trick)
            trick = ()
        else:
            b = leader * 4
            if t == 0:
                ls = r = 0  # the 2♣
            else:
                a0, a1, a2, a3 = h[b], h[b + 1], h[b + 2], h[b + 3]
                if not broken and (a0 or a1 or a2):
                    a3 = 0
                rnd = rs[ri]
                ri += 1
                if leader == shooter:
                    ls, r = _highest(a0, a1, a2, a3)
                else:
                    if a2 & QB and (a0 or a1 or a3):
                        a2 = 0  # never lead spades into one's own queen
                    elif queen_live and a2 & BELOW_Q and not a2 & AKB and rnd < 0.6:
                        a0 = a1 = a3 = 0  # flush the queen with the highest spade below her
                        a2 = 1 << hi[a2 & BELOW_Q]
                    if rnd > 0.85:  # a little noise: the lowest card of a random suit
                        suits = [s for s, m in ((0, a0), (1, a1), (2, a2), (3, a3)) if m]
                        ls = suits[int((rnd - 0.85) / 0.15 * len(suits)) % len(suits)]
                        r = lo[(a0, a1, a2, a3)[ls]]
                    elif short:  # the lowest card of the shortest suit
                        ls, r, score = -1, 99, 1 << 30
                        for i, m in enumerate((a0, a1, a2, a3)):
                            if m:
                                low = lo[m]
                                v = pc[m] * 16 + low
                                if i == 3:
                                    v += 48
                                elif i == 2 and queen_live and low >= 11:
                                    v += 512
                                if v < score:
                                    ls, r, score = i, low, v
                    elif counted:  # the surest loser by the cards still out
                        ls, r, score = -1, 99, 1 << 30
                        for i, m in enumerate((a0, a1, a2, a3)):
                            if m:
                                out = (h[i] | h[4 + i] | h[8 + i] | h[12 + i]) & ~h[b + i]  # the others' cards
                                low = lo[m]
                                v = pc[out & ((1 << low) - 1)] * 16 + low if out else 999 + low
                                if i == 3:
                                    v += 48
                                if v < score:
                                    ls, r, score = i, low, v
                    else:  # the lowest card by rank, hearts last
                        ls, r = -1, 99
                        if a0:
                            ls, r = 0, lo[a0]
                        if a1 and lo[a1] < r:
                            ls, r = 1, lo[a1]
                        if a2 and lo[a2] < r:
                            ls, r = 2, lo[a2]
                        if a3 and lo[a3] + 3 < r:
                            ls, r = 3, lo[a3]
            h[b + ls] &= ~(1 << r)
            if ls == 3 or (qbreaks and ls == 2 and r == Q):
                broken = True
            best = r
            winner = leader
            th = 1 if ls == 3 else 0
            tq = ls == 2 and r == Q
            tj = ls == 1 and r == J
            k0 = 1
        for k in range(k0, 4):
            seat = (leader + k) & 3
            b = seat * 4
            follow = h[b + ls]
            nz = noise[seat]
            noisy = False
            if nz and seat != shooter:
                noisy = rs[ri] < nz
                ri += 1
            if noisy:
                x = rs[ri]
                ri += 1
                if follow:
                    s = ls
                    m = follow
                    n = pc[m]
                    i = int(x * n)
                else:
                    pool = [h[b], h[b + 1], h[b + 2], h[b + 3]]
                    if t == 0 and (fh or fq):
                        free = [pool[0], pool[1], pool[2] & ~QB if fq else pool[2], 0 if fh else pool[3]]
                        if free[0] or free[1] or free[2] or free[3]:
                            pool = free
                    n = pc[pool[0]] + pc[pool[1]] + pc[pool[2]] + pc[pool[3]]
                    i = int(x * n)
                    s = 0
                    while True:
                        m = pool[s]
                        c = pc[m]
                        if i < c:
                            break
                        i -= c
                        s += 1
                while i:  # the i-th lowest rank of m
                    m &= m - 1
                    i -= 1
                r = lo[m]
                if s == 3 or (qbreaks and s == 2 and r == Q):
                    broken = True
            elif follow:
                s = ls
                if seat == shooter:
                    r = hi[follow]
                    if r <= best:
                        r = lo[follow]
                else:
                    below = follow & ((1 << best) - 1)
                    alert = shooter >= 0 and winner == shooter and (seen_moon or seat == eager)
                    if alert and (ls == 3 or (defend and (th or tq))) and follow != below:
                        if late:  # block with the cheapest winner, not the Q♠ if another card wins
                            over = follow & ~below  # the cards over the winner (best itself is on the table)
                            if ls == 2 and over & ~QB:
                                over &= ~QB
                            r = lo[over]
                        else:
                            r = hi[follow]  # block: take the heart trick
                    elif defend and below and alert:
                        r = lo[below]  # the shooter wins this one: keep the high cards to stop it later
                    elif clean and k == 3 and not th and not tq and (win := follow & ~below & ~(QB if ls == 2 else 0)):
                        r = hi[win]  # a clean trick: win it high
                    elif below:
                        r = hi[below]  # duck as high as possible
                    else:
                        safe = follow
                        if ls == 2:
                            if follow & ~QB:
                                safe = follow & ~QB
                            if k < 3 and queen_live and safe & ~AKB:
                                safe &= ~AKB
                            r = hi[safe] if k == 3 else lo[safe]
                        elif k < 3 and (ls == 3 or (medium and t)):
                            r = lo[safe]
                        else:
                            r = hi[safe]
            else:
                a0, a1, a2, a3 = h[b], h[b + 1], h[b + 2], h[b + 3]
                if t == 0 and (fh or fq):
                    f2 = a2 & ~QB if fq else a2
                    f3 = 0 if fh else a3
                    if a0 or a1 or f2 or f3:
                        a2, a3 = f2, f3
                if seat == shooter:  # keep the winners: the lowest safe card
                    p2 = a2 & ~QB
                    if a0:
                        s, r = 0, lo[a0]
                    elif a1:
                        s, r = 1, lo[a1]
                    elif p2:
                        s, r = 2, lo[p2]
                    else:
                        s, r = _highest(a0, a1, a2, a3)
                elif shooter >= 0 and winner == shooter and (seen_moon or seat == eager) and (a0 or a1 or a2 & ~QB):
                    p2 = a2 & ~QB  # do not feed the shooter: the highest safe card
                    s, r = 0, hi[a0]
                    if hi[a1] > r:
                        s, r = 1, hi[a1]
                    if hi[p2] > r:
                        s, r = 2, hi[p2]
                elif a2 & QB:
                    s, r = 2, Q
                elif queen_live and a2 & AKB:
                    s, r = 2, hi[a2 & AKB]
                elif a3 and (not medium or hi[a3] >= 7 or not (a0 or a1 or a2)):
                    s, r = 3, hi[a3]
                elif not medium:
                    s, r = 0, hi[a0]
                    if hi[a1] > r:
                        s, r = 1, hi[a1]
                    if hi[a2] > r:
                        s, r = 2, hi[a2]
                else:  # the high card of the shortest suit (a heart counts as 3 shorter)
                    s, r, score = -1, -1, -99
                    for i, m in enumerate((a0, a1, a2, a3)):
                        if m:
                            v = 2 * hi[m] - pc[h[b + i]] + (6 if i == 3 else 0)
                            if v > score:
                                s, r, score = i, hi[m], v
                if s == 3 or (qbreaks and s == 2 and r == Q):
                    broken = True
            h[b + s] &= ~(1 << r)
            if s == ls and r > best:
                best = r
                winner = seat
            if s == 3:
                th += 1
            elif s == 2:
                if r == Q:
                    tq = True
            elif s == 1 and r == J:
                tj = True
        taken[winner] += th
        if tq:
            queen = winner
            queen_live = False
        if tj:
            jack = winner
        if shooter >= 0 and winner != shooter and (th or tq):
            shooter = -1
        leader = winner
        t += 1
    return taken, queen, jack
