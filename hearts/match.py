"""A match: hands in sequence with the rotating pass direction, running totals and the end.

The match is one state machine for the whole table. :attr:`Match.phase` says what it waits
for and :attr:`Match.to_act` who: the seats still to pass, the seat to play, or nobody at the
end of a hand (``HAND_OVER``: the match waits until it is told to deal the next hand, so a UI
can show the score first) and at the end of the match. :meth:`Match.apply` takes one
:data:`~hearts.actions.Action`.

>>> from hearts import Match, PRESETS, Seat
>>> m = Match(PRESETS["standard"], seed="doc")
>>> m.phase.value, m.pass_direction.value, m.to_act
('passing', 'left', (<Seat.SOUTH: 0>, <Seat.WEST: 1>, <Seat.NORTH: 2>, <Seat.EAST: 3>))
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .actions import Action, Claim, NextHand, PassCards, PlayCard
from .cards import Card
from .deal import Deal, deal_from_seed, validate_deal
from .errors import ErrorCode, IllegalAction
from .events import Event, HandOver, HandStarted, MatchOver
from .hand import Hand
from .phase import Phase
from .rules import Rules, TieRule
from .seats import SEATS, PassDirection, Seat
from .trick import Trick
from .view import SeatView

__all__ = ["Match", "HandScore", "hand_seed"]


def hand_seed(seed: str, hand_number: int) -> str:
    """The deal seed of hand ``hand_number``: the match seed itself for the first hand, then ``"seed#n"``."""
    return seed if hand_number == 0 else f"{seed}#{hand_number}"


@dataclass(frozen=True)
class HandScore:
    """One row of the score sheet."""

    hand_number: int
    points: tuple[int, int, int, int]
    penalty: tuple[int, int, int, int]
    moon: Seat | None
    jack: Seat | None
    totals: tuple[int, int, int, int]


class Match:
    """A whole match. Deals come from ``seed`` (see :func:`hand_seed`) or from explicit ``deals``.

    ``max_hands`` ends the match after that many hands (the daily game is a one-hand match).
    ``earlier``: the score sheet of hands played before this match took over (an online table that
    a guest carries on when its host is gone): the match goes on from their totals with hand number
    ``len(earlier)`` (and its pass direction); only the hands played here have cards
    (:attr:`hands`; :attr:`first_hand` is the number of the first of them).
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: str | None = None,
        *,
        deals: Sequence[Deal] | None = None,
        max_hands: int | None = None,
        earlier: Sequence[HandScore] = (),
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        if seed is None and deals is None:
            seed = f"{random.getrandbits(64):016x}"
        self.seed = seed
        self._deals = list(deals) if deals is not None else None
        if self._deals is not None and not self._deals:
            raise ValueError("deals must hold at least the first hand's deal")
        if max_hands is not None and max_hands < 1:
            raise ValueError("max_hands must be at least 1")
        self.max_hands = max_hands
        self.hands: list[Hand] = []
        self.score_sheet: list[HandScore] = _checked_sheet(earlier)
        self.first_hand = len(self.score_sheet)
        self.scores: tuple[int, int, int, int] = self.score_sheet[-1].totals if self.score_sheet else (0, 0, 0, 0)
        self.winners: tuple[Seat, ...] = ()
        self._over = False
        if self._winners_if_over():
            raise ValueError("the earlier hands already ended the match")
        self._deal_hand()

    # ----------------------------------------------------------------- structure
    def deal_for(self, hand_number: int) -> Deal | None:
        """The deal of hand ``hand_number``, or ``None`` when explicit deals have run out."""
        if self._deals is not None:
            index = hand_number - self.first_hand
            return self._deals[index] if 0 <= index < len(self._deals) else None
        assert self.seed is not None
        return deal_from_seed(hand_seed(self.seed, hand_number))

    def _deal_hand(self) -> HandStarted:
        number = self.first_hand + len(self.hands)
        deal = self.deal_for(number)
        if deal is None:
            raise IllegalAction(ErrorCode.NO_MORE_DEALS, f"no deal was given for hand {number + 1}", hand_number=number)
        hand = Hand(deal, self.rules, hand_number=number, scores_before=self.scores)
        self.hands.append(hand)
        return HandStarted(number, hand.pass_direction)

    @property
    def hand(self) -> Hand:
        """The current hand (the last one once the match is over)."""
        return self.hands[-1]

    @property
    def hand_number(self) -> int:
        return self.first_hand + len(self.hands) - 1

    def hand_at(self, hand_number: int) -> Hand:
        """The hand with that number (one played here: not one of the ``earlier`` hands)."""
        index = hand_number - self.first_hand
        if not 0 <= index < len(self.hands):
            raise IndexError(f"hand {hand_number + 1} was not played in this match")
        return self.hands[index]

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def phase(self) -> Phase:
        return Phase.MATCH_OVER if self._over else self.hand.phase

    @property
    def to_act(self) -> tuple[Seat, ...]:
        """The seats the match waits for (``()`` at the end of a hand and of the match)."""
        return () if self._over else self.hand.to_act

    @property
    def pass_direction(self) -> PassDirection:
        return self.hand.pass_direction

    @property
    def turn(self) -> Seat | None:
        return None if self._over else self.hand.turn

    @property
    def waiting_for_pass(self) -> tuple[Seat, ...]:
        return () if self._over else self.hand.waiting_for_pass

    def cards(self, seat: Seat) -> tuple[Card, ...]:
        return self.hand.cards(seat)

    def legal_plays(self, seat: Seat | None = None) -> tuple[Card, ...]:
        return () if self._over else self.hand.legal_plays(seat)

    def legal_pass_cards(self, seat: Seat) -> tuple[Card, ...]:
        return () if self._over else self.hand.legal_pass_cards(seat)

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        return self.hand.current_trick

    @property
    def last_trick(self) -> Trick | None:
        return self.hand.last_trick

    def trick_markers(self, seat: Seat) -> tuple[str, ...]:
        return self.hand.trick_markers(seat)

    @property
    def hand_points(self) -> tuple[int, int, int, int]:
        return self.hand.points_taken

    def view(self, seat: Seat) -> SeatView:
        return self.hand.view(seat, self.hand.scores_before)

    # ----------------------------------------------------------------- actions
    def _check_open(self) -> None:
        if self._over:
            raise IllegalAction(ErrorCode.MATCH_OVER, "the match is over", winners=list(self.winners))

    def apply(self, action: Action) -> list[Event]:
        """Carry out one action (pass, play, claim or next hand) and return what happened; raise
        :class:`IllegalAction` with the reason (and leave the match unchanged) otherwise."""
        if isinstance(action, NextHand):
            return self.next_hand(action.deal)
        if isinstance(action, PlayCard):
            return self.play(action.seat, action.card)
        if isinstance(action, PassCards):
            return self.choose_pass(action.seat, action.cards)
        if isinstance(action, Claim):
            return self.claim(action.seat)
        raise IllegalAction(ErrorCode.UNKNOWN_ACTION, f"not an action: {action!r}")

    def verify_play(self, seat: Seat, card: Card | int | str) -> Card:
        self._check_open()
        return self.hand.verify_play(seat, card)

    def can_play(self, seat: Seat, card: Card | int | str) -> bool:
        return not self._over and self.hand.can_play(seat, card)

    def play(self, seat: Seat, card: Card | int | str) -> list[Event]:
        """Play a card; the hand's last card adds ``hand_over`` (and ``match_over`` at the end)."""
        self._check_open()
        events = self.hand.play(seat, card)
        if self.hand.phase is Phase.HAND_OVER:
            events.extend(self._score_hand())
        return events

    def verify_claim(self, seat: Seat) -> None:
        """Raise :class:`IllegalAction` unless ``seat`` may claim the rest (:meth:`Hand.verify_claim`)."""
        self._check_open()
        self.hand.verify_claim(seat)

    def can_claim(self, seat: Seat) -> bool:
        """True when it is ``seat``'s turn after the first trick and the rest cannot change the score."""
        return not self._over and self.hand.can_claim(seat)

    def claim(self, seat: Seat) -> list[Event]:
        """Play the rest of the hand out for a claim (:meth:`Hand.claim`); adds ``hand_over`` (and
        ``match_over`` at the end) like the hand's last card."""
        self._check_open()
        events = self.hand.claim(seat)
        events.extend(self._score_hand())
        return events

    def verify_pass(self, seat: Seat, cards: Iterable[Card | int | str] | str) -> tuple[Card, ...]:
        self._check_open()
        return self.hand.verify_pass(seat, cards)

    def can_pass(self, seat: Seat, cards: Iterable[Card | int | str] | str) -> bool:
        return not self._over and self.hand.can_pass(seat, cards)

    def choose_pass(self, seat: Seat, cards: Iterable[Card | int | str] | str) -> list[Event]:
        self._check_open()
        return self.hand.choose_pass(seat, cards)

    def next_hand(self, deal: Deal | Sequence[Sequence[int]] | None = None) -> list[Event]:
        """Deal the next hand (only while the finished one waits: ``phase`` is ``HAND_OVER``).

        A match of explicit deals may be given the next deal only now (an online table deals
        each hand with its players' help, see :mod:`hearts.fairdeal`)."""
        self._check_open()
        if self.hand.phase is not Phase.HAND_OVER:
            raise IllegalAction(ErrorCode.WRONG_PHASE, "the current hand is not over yet", phase=self.phase.value)
        if deal is not None:
            if self._deals is None:
                raise ValueError("a match dealt from a seed deals its own hands")
            if len(self._deals) == len(self.hands):
                self._deals.append(validate_deal(deal))
            elif self._deals[len(self.hands)] != validate_deal(deal):
                raise ValueError("the next hand's deal was given already")
        return [self._deal_hand()]

    def _score_hand(self) -> list[Event]:
        result = self.hand.result
        assert result is not None
        totals = tuple(a + b for a, b in zip(self.scores, result.points))
        self.scores = totals  # type: ignore[assignment]
        self.score_sheet.append(
            HandScore(self.hand.hand_number, result.points, result.penalty, result.moon, result.jack, self.scores)
        )
        events: list[Event] = [HandOver(self.hand.hand_number, result.points, result.moon, self.scores)]
        winners = self._winners_if_over()
        if winners:
            self._over = True
            self.winners = winners
            events.append(MatchOver(winners, self.scores))
        return events

    def _winners_if_over(self) -> tuple[Seat, ...]:
        last_hand = self.max_hands is not None and self.first_hand + len(self.hands) >= self.max_hands
        if not last_hand and max(self.scores) < self.rules.target:
            return ()
        lowest = min(self.scores)
        winners = tuple(s for s in SEATS if self.scores[s] == lowest)
        if len(winners) > 1 and self.rules.tie is TieRule.PLAY_ON and not last_hand:
            return ()
        return winners

    def __repr__(self) -> str:
        return f"<Match seed={self.seed!r} hand={self.hand_number} {self.phase.value} scores={self.scores}>"


def _checked_sheet(rows: Sequence[HandScore]) -> list[HandScore]:
    """``rows`` as the start of a score sheet: hands 0, 1, 2… whose totals add up; ``ValueError`` else."""
    running = (0, 0, 0, 0)
    for number, row in enumerate(rows):
        running = tuple(a + b for a, b in zip(running, row.points))  # type: ignore[assignment]
        if row.hand_number != number or tuple(row.totals) != running:
            raise ValueError(f"the earlier hands do not add up at hand {number + 1}")
    return list(rows)
