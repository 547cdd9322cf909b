"""What a seat knows, in bitmasks: derived from a :class:`~hearts.view.SeatView` only.

Card counting (every card played), void tracking (who failed to follow which suit), pass
knowledge (the cards this seat passed are known to be in the receiver's hand until played)
and the points each seat has taken so far.
"""

from __future__ import annotations

from ..cards import mask_of
from ..phase import Phase
from ..trick import trick_points, trick_winner
from ..view import SeatView
from ._bits import HEARTS, QS_BIT, SUITS, count

__all__ = ["Knowledge"]


class Knowledge:
    __slots__ = (
        "view",
        "me",
        "hand",
        "legal",
        "played",
        "unseen",
        "void_mask",
        "known",
        "sizes",
        "trick",
        "trick_cards",
        "leader",
        "led",
        "trick_number",
        "broken",
        "taken",
        "points",
        "queen_out",
        "queen_mine",
        "no_queen",
    )

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.me = int(view.seat)
        self.hand = view.hand_mask
        self.legal = view.legal_mask
        self.played = view.played_mask
        self.unseen = view.unseen_mask
        voids = view.voids()
        # void_mask[s]: the cards seat s cannot hold (suits it showed out of).
        self.void_mask = [0, 0, 0, 0]
        for s in range(4):
            for suit in voids[s]:
                self.void_mask[s] |= SUITS[suit]
        known = view.known_cards() if view.phase is not Phase.PASSING else (0, 0, 0, 0)
        self.known = [k & self.unseen for k in known]
        self.sizes = list(view.hand_sizes)
        self.trick = [(int(s), int(c)) for s, c in view.current_trick]
        self.trick_cards = [c for _, c in self.trick]
        self.leader = int(view.leader) if view.leader is not None else self.me
        self.led = self.trick_cards[0] // 13 if self.trick_cards else -1
        self.trick_number = view.trick_number
        self.broken = view.hearts_broken
        self.taken = list(view.taken_masks())
        self.points = list(view.points_taken)
        self.queen_out = not (self.played & QS_BIT)  # the Q♠ has not been played yet
        self.queen_mine = bool(self.hand & QS_BIT)
        # Seats that passed up a chance to dump the Q♠ (discarded something else while void,
        # after the first trick) most likely do not hold her.
        self.no_queen = [False, False, False, False]
        if self.queen_out and view.tricks:
            later = [t.plays for t in view.tricks[1:]] + ([view.current_trick] if view.current_trick else [])
            for plays in later:
                led = plays[0][1] // 13
                for s, c in plays[1:]:
                    if c // 13 != led and led != 2:
                        self.no_queen[s] = True

    # ------------------------------------------------------------ trick state
    @property
    def position(self) -> int:
        """0 when leading, 3 when playing last to the trick."""
        return len(self.trick)

    def trick_best(self) -> tuple[int, int]:
        """(winning seat, winning card) of the current trick (which must not be empty)."""
        return trick_winner(self.trick)

    def trick_mask(self) -> int:
        return mask_of(self.trick_cards)

    def trick_points(self) -> int:
        return trick_points(self.trick_mask(), self.view.rules)

    def out_in_suit(self, suit: int) -> int:
        """Cards of ``suit`` still held by the other seats."""
        return self.unseen & SUITS[suit]

    # ------------------------------------------------------------ moon watch
    def moon_runner(self, early: bool = False, any_from: int = 13) -> int:
        """The seat (not me) that has taken every point so far and is a moon threat, else -1.

        A threat needs three hearts taken, or the Q♠ with a heart, or two hearts once six tricks
        are complete, and nobody else holding any penalty card. ``early``: two hearts, or the
        Q♠, are enough once four tricks are complete. ``any_from``: any points are enough once
        this many tricks are complete (13, the default: never).
        """
        pts = [count(t & HEARTS) + (13 if t & QS_BIT else 0) for t in self.taken]
        holders = [s for s in range(4) if pts[s] > 0]
        if len(holders) != 1:
            return -1
        s = holders[0]
        if s == self.me:
            return -1
        if self.trick_number >= any_from:
            return s
        hearts = count(self.taken[s] & HEARTS)
        if hearts >= 3 or (pts[s] >= 13 and hearts >= 1) or (hearts >= 2 and self.trick_number >= 6):
            return s
        if early and self.trick_number >= 4 and (hearts >= 2 or pts[s] >= 13):
            return s
        return -1

    def moon_open(self, seat: int) -> bool:
        """No seat but ``seat`` has taken a penalty card so far: the moon is still open to it."""
        for s in range(4):
            if s != seat and self.taken[s] & (HEARTS | QS_BIT):
                return False
        return True

    def i_can_shoot(self) -> bool:
        """No other seat has taken a penalty card so far."""
        return self.moon_open(self.me)
