"""What one seat may know. Bots receive only this; it holds no reference to the game.

A :class:`SeatView` is a frozen snapshot: the seat's own hand, the cards it passed and
received, every card played so far and by whom, the tricks and points taken, the
scores and the rules. Other seats' unplayed cards are not reachable from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import DECK_MASK, SUIT_MASKS, Card, Suit, cards_of, mask_of
from .errors import ErrorCode, IllegalAction
from .phase import Phase
from .rules import Rules
from .seats import PassDirection, Seat
from .trick import Trick, check_play, rest_is_decided

__all__ = ["SeatView"]


@dataclass(frozen=True)
class SeatView:
    seat: Seat
    rules: Rules
    hand_number: int
    phase: Phase  # PASSING, PLAYING or HAND_OVER
    pass_direction: PassDirection
    hand: tuple[Card, ...]
    passed: tuple[Card, ...] | None  # what this seat chose to pass
    received: tuple[Card, ...]  # what it received (empty before the exchange)
    tricks: tuple[Trick, ...]  # completed tricks, in order
    current_trick: tuple[tuple[Seat, Card], ...]
    leader: Seat | None
    turn: Seat | None
    hearts_broken: bool
    points_taken: tuple[int, int, int, int]  # this hand, so far
    scores: tuple[int, int, int, int]  # match totals before this hand
    legal: tuple[Card, ...]  # legal plays when it is this seat's turn
    hand_sizes: tuple[int, int, int, int]

    @property
    def hand_mask(self) -> int:
        return mask_of(self.hand)

    @property
    def legal_mask(self) -> int:
        return mask_of(self.legal)

    @property
    def trick_number(self) -> int:
        return len(self.tricks)

    @property
    def cards_played(self) -> int:
        """How many cards have been played in this hand so far (0..52)."""
        return 4 * len(self.tricks) + len(self.current_trick)

    @property
    def played_mask(self) -> int:
        """Every card played so far (completed tricks and the current one)."""
        mask = mask_of(c for t in self.tricks for _, c in t.plays)
        return mask | mask_of(c for _, c in self.current_trick)

    @property
    def unseen_mask(self) -> int:
        """Cards this seat has not seen: neither in its hand nor played."""
        return DECK_MASK & ~self.hand_mask & ~self.played_mask

    @property
    def led_suit(self) -> Suit | None:
        return self.current_trick[0][1].suit if self.current_trick else None

    def voids(self) -> tuple[frozenset[Suit], ...]:
        """For each seat, the suits it has shown out of (failed to follow)."""
        out: list[set[Suit]] = [set(), set(), set(), set()]
        plays = [t.plays for t in self.tricks] + ([self.current_trick] if self.current_trick else [])
        for trick in plays:
            led = trick[0][1].suit
            for seat, card in trick[1:]:
                if card.suit != led:
                    out[seat].add(led)
        return tuple(frozenset(s) for s in out)

    def known_cards(self) -> tuple[int, int, int, int]:
        """Bitmasks of other seats' cards this seat knows for sure (its passed cards not yet played)."""
        known = [0, 0, 0, 0]
        if self.passed and self.received is not None and self.phase is not Phase.PASSING:
            target = self.pass_direction.target(self.seat)
            known[target] = mask_of(self.passed) & ~self.played_mask
        return tuple(known)  # type: ignore[return-value]

    def taken_masks(self) -> tuple[int, int, int, int]:
        taken = [0, 0, 0, 0]
        for t in self.tricks:
            taken[t.winner] |= mask_of(c for _, c in t.plays)
        return tuple(taken)  # type: ignore[return-value]

    def verify_play(self, card: Card) -> None:
        """Raise :class:`~hearts.errors.IllegalAction` with the reason unless this seat may play
        ``card`` now (a guest's page explains a refused card without the game)."""
        if self.phase is not Phase.PLAYING or self.turn != self.seat:
            raise IllegalAction(ErrorCode.NOT_YOUR_TURN, "it is not this seat's turn", seat=self.seat)
        check_play(
            self.hand_mask, self.current_trick, self.trick_number, self.hearts_broken, self.rules, self.seat, card
        )

    @property
    def can_claim(self) -> bool:
        """May this seat claim the rest of the hand now? The same answer as
        :meth:`hearts.Hand.can_claim`, from what the seat knows (every unseen card is in another
        hand), so a guest's page can offer the claim without the game."""
        if self.phase is not Phase.PLAYING or self.turn != self.seat or not self.tricks:
            return False
        on_table = mask_of(c for _, c in self.current_trick)
        return rest_is_decided(self.hand_mask, self.unseen_mask, on_table, self.rules)

    def suit_cards(self, suit: Suit) -> tuple[Card, ...]:
        return cards_of(self.hand_mask & SUIT_MASKS[suit])
