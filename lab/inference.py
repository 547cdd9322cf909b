"""What the other seats' plays reveal about their hands, and how far to trust it (an experiment).

Measured and left off (lab/RESULTS.md): Hard version 2 dealt its worlds by these readings and
played each seat's rollouts as noisy as its deviation rate; later versions went back to the plain
sampler and the same noise for everyone. ``python3 -m lab.worlds_bench`` measures the worlds
both deal (:func:`reading_sampler`).

Most players follow the habits of a sound club player (``medium.py``; Hard's choices start
from the same card): duck with the highest card that still loses, go over as cheaply as
possible (but highest when last to a trick without points, and on the first trick), dump
the Q♠, then the A♠/K♠, then a high heart when void. So every play says something about the
cards the seat did *not* hold at that moment:

* it ducked with card c under the winning card b: no card of that suit between c and b;
* it went over the winning card b: no card of that suit below b, and none between b and c
  (or above c, where the habit is to play the highest);
* it discarded a heart: no Q♠, no A♠/K♠ while the queen is out, no higher heart;
* it discarded a side card: no Q♠, no A♠/K♠ (queen out), no heart from the 9 up.

A hand only shrinks during play, so a card the seat did not hold then, it does not hold now.
Each reading is checked against the seat's later plays and the cards we passed it: when a
seat later plays a card it "could not" hold, the reading was wrong, and that seat counts
one deviation. The deviation rate per seat (with a prior) is the opponent model: it says how
much the seat's readings are worth (the world sampler avoids giving a seat the cards its
readings exclude, by that factor) and how noisy the seat plays in the rollouts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hearts.bots._bits import AS, HEARTS, KS, QS, QS_BIT, SUITS, bits
from hearts.bots.knowledge import Knowledge
from hearts.bots.worlds import WorldSampler

__all__ = ["Reading", "read_plays", "reading_sampler"]

_AKS = (1 << AS) | (1 << KS)
_HIGH_HEARTS = HEARTS & ~((1 << (39 + 7)) - 1)  # the 9♥ and up


@dataclass(frozen=True)
class Reading:
    avoid: tuple[int, int, int, int]  # unseen cards each seat's trusted readings exclude
    readings: tuple[int, int, int, int]  # checked readings: a card at stake turned up since
    deviations: tuple[int, int, int, int]  # checked readings the seat itself contradicted

    def deviation_rate(self, seat: int, prior_rate: float, prior_weight: float) -> float:
        """Posterior mean of how often ``seat`` does not play like the policy."""
        return (self.deviations[seat] + prior_rate * prior_weight) / (self.readings[seat] + prior_weight)


def _between(suit: int, low: int, high: int) -> int:
    """Cards of ``suit`` strictly between card numbers ``low`` and ``high`` (same suit)."""
    if high - low < 2:
        return 0
    return ((1 << high) - (1 << (low + 1))) & SUITS[suit]


def read_plays(k: Knowledge) -> Reading:
    view = k.view
    me = k.me
    forbidden = view.rules.first_trick_forbidden
    tricks = [t.plays for t in view.tricks] + ([view.current_trick] if view.current_trick else [])
    signals: list[tuple[int, int, int]] = []  # (seat, cards it did not hold, order of the play)
    played_at: dict[int, int] = {}  # card -> order of its play
    played_by = [0, 0, 0, 0]
    order = 0
    seen = 0  # cards played before the current play
    mine = k.hand  # my hand at that time = my hand now + what I played later
    for plays in tricks:
        for seat, card in plays:
            if int(seat) == me:
                mine |= 1 << int(card)
    queen_live = True
    for t, plays in enumerate(tricks):
        lead = int(plays[0][1])
        led = lead // 13
        best = lead
        points = 0
        for i, (seat, card) in enumerate(plays):
            s, c = int(seat), int(card)
            if i and s != me:
                if c // 13 == led:
                    if c < best:
                        x = _between(led, c, best) if c != QS else 0  # it ducked as high as it could
                    else:
                        last = i == 3
                        if led == 2 and queen_live and not last and c not in (AS, KS):
                            over = _between(2, best, c) & ~_AKS  # lowest spade over, keeping the A♠/K♠
                        elif (last and not points) or t == 0:
                            over = _between(led, c, led * 13 + 13)  # the highest: the trick is free
                        elif last:
                            over = _between(led, c, led * 13 + 13)
                        else:
                            over = _between(led, best, c)  # as cheaply as possible
                        x = (SUITS[led] & ((1 << best) - 1)) | (over & ~QS_BIT)  # could not duck
                else:
                    x = 0
                    if c != QS:
                        x = QS_BIT
                        if queen_live:
                            x |= _AKS if c not in (AS, KS) else (1 << AS) if c == KS else 0
                        if c // 13 == 3:
                            x |= _between(3, c, 52)
                        elif c not in (AS, KS) or not queen_live:
                            x |= _HIGH_HEARTS
                    if t == 0:
                        x &= ~forbidden
                x &= ~seen & ~mine
                if x:
                    signals.append((s, x, order))
            if c // 13 == led and c > best:
                best = c
            if c // 13 == 3 or c == QS:
                points += 1
            played_at[c] = order
            played_by[s] |= 1 << c
            seen |= 1 << c
            order += 1
        if any(int(c) == QS for _, c in plays):
            queen_live = False
    avoid = [0, 0, 0, 0]
    readings = [0, 0, 0, 0]
    deviations = [0, 0, 0, 0]
    for s, x, at in signals:
        later = 0
        resolved = x & k.known[s]  # cards whose holder we learned after the reading
        for n in bits(x & seen):
            if played_at[n] > at:
                resolved |= 1 << n
                if played_by[s] >> n & 1:
                    later |= 1 << n
        if not resolved:
            avoid[s] |= x & k.unseen
            continue
        readings[s] += 1
        if later or x & k.known[s]:
            deviations[s] += 1
        else:
            avoid[s] |= x & k.unseen
    return Reading(tuple(avoid), tuple(readings), tuple(deviations))  # type: ignore[arg-type]


def reading_sampler(k: Knowledge, reading: Reading, trust: Sequence[float]) -> WorldSampler:
    """A world sampler that deals seat ``s`` a card its readings exclude with ``1 - trust[s]`` of
    the usual weight."""
    sampler = WorldSampler(k)
    for s in range(4):
        if reading.avoid[s] and s != k.me:
            sampler.weigh(s, reading.avoid[s], 1.0 - trust[s])
    return sampler
