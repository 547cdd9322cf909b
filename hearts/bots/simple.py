"""The random-legal bot, Medium, and Easy ("often distracted")."""

from __future__ import annotations

import random

from ..view import SeatView
from ._bits import HEARTS, QS, QS_BIT, SUITS, bits, high, low
from .base import Bot, Decision, Steps, as_cards
from .medium import card_text, medium_pass, medium_play, pass_reason

__all__ = ["RandomBot", "MediumBot", "EasyBot"]


class RandomBot(Bot):
    """Any legal card, uniformly; three random pass cards: the floor of any comparison."""

    level = "random"

    def choose_pass(self, view: SeatView, rng: random.Random) -> Steps:
        picked = tuple(sorted(rng.sample(list(view.hand), 3)))
        reason, params = pass_reason(picked, view.hand_mask)
        return Decision(as_cards(picked), reason, params)
        yield  # pragma: no cover

    def choose_play(self, view: SeatView, rng: random.Random) -> Steps:
        card = rng.choice(list(view.legal))
        return Decision((card,), "only_legal_card" if len(view.legal) == 1 else "random", {"card": card.text})
        yield  # pragma: no cover


class MediumBot(Bot):
    """A fair club player: the rules of thumb of :mod:`hearts.bots.medium`."""

    level = "medium"

    def choose_pass(self, view: SeatView, rng: random.Random) -> Steps:
        cards, reason, params = medium_pass(view)
        return Decision(as_cards(cards), reason, params)
        yield  # pragma: no cover

    def choose_play(self, view: SeatView, rng: random.Random) -> Steps:
        cards, reason, params = medium_play(view)
        return Decision(as_cards(cards), reason, params)
        yield  # pragma: no cover


class EasyBot(Bot):
    """Medium's habits, but often distracted: it misses voids, dumps the wrong card and
    forgets what was played. It still avoids the most obvious disasters most of the time."""

    level = "easy"

    def __init__(self, distraction: float = 0.4) -> None:
        self.distraction = distraction

    def choose_pass(self, view: SeatView, rng: random.Random) -> Steps:
        if rng.random() < self.distraction:
            # Distracted: the three highest cards, whatever they are (it may keep the queen).
            ranked = sorted(view.hand, key=lambda c: (-(c % 13), rng.random()))
            picked = tuple(sorted(ranked[:3]))
            reason, params = pass_reason(picked, view.hand_mask)
            return Decision(as_cards(picked), reason, params)
        cards, reason, params = medium_pass(view)
        return Decision(as_cards(cards), reason, params)
        yield  # pragma: no cover

    def choose_play(self, view: SeatView, rng: random.Random) -> Steps:
        legal = view.legal_mask
        if len(view.legal) > 1 and rng.random() < self.distraction:
            card = self._distracted(view, legal, rng)
            return Decision((view.legal[0].__class__(card),), "random", {"card": card_text(card)})
        cards, reason, params = medium_play(view)
        return Decision(as_cards(cards), reason, params)
        yield  # pragma: no cover

    @staticmethod
    def _distracted(view: SeatView, legal: int, rng: random.Random) -> int:
        led = view.led_suit
        if led is not None and not legal & SUITS[led]:
            # Missed the void: throws a low card instead of the queen or a high heart.
            if rng.random() < 0.7:
                safe = legal & ~QS_BIT & ~HEARTS or legal
                return low(safe)
        # Avoid the worst blunder most of the time: playing the Q♠ onto a trick it will win.
        options = bits(legal)
        card = rng.choice(options)
        if card == QS and len(options) > 1 and rng.random() < 0.8:
            card = rng.choice([c for c in options if c != QS])
        if led is None and card // 13 == 2 and legal & QS_BIT and high(legal & SUITS[2]) != card and rng.random() < 0.5:
            card = rng.choice(options)
        return card
