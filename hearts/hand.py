"""One hand of Hearts: the pass phase, thirteen tricks and the hand's score.

The state machine is explicit: :attr:`Hand.phase` is ``PASSING``, ``PLAYING`` or
``HAND_OVER``. Each action comes as a trio (``verify_play`` raises with a reason,
``can_play`` answers yes or no, ``play`` does it and returns the events).

>>> from hearts import Hand, Rules, deal_from_seed, Seat
>>> hand = Hand(deal_from_seed("doc"), Rules(), hand_number=3)  # a hold hand: no passing
>>> hand.phase.value, hand.turn == hand.holder_of_two_of_clubs
('playing', True)
>>> [str(c) for c in hand.legal_plays()]
['2C']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .actions import Action, Claim, NextHand, PassCards, PlayCard
from .cards import CARDS, QUEEN_OF_SPADES, Card, cards_of, mask_of, popcount
from .deal import Deal, validate_deal
from .errors import ErrorCode, IllegalAction
from .events import CardPlayed, CardsPassed, Event, HeartsBroken, MoonShot, PassChosen, TrickWon
from .phase import Phase
from .rules import Rules
from .scoring import HandResult, score_hand
from .seats import SEATS, PassDirection, Seat
from .trick import Trick, check_play, legal_mask, rest_is_decided, trick_marker, trick_points, trick_winner
from .view import SeatView

__all__ = ["HandResult", "Hand", "score_hand", "to_card", "PASS_COUNT"]

PASS_COUNT = 3


def to_card(card: Card | int | str) -> Card:
    """Accept a :class:`Card`, a card number or a card text; raise ``unknown_card`` otherwise."""
    if isinstance(card, Card):
        return card
    if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < 52:
        return CARDS[card]
    if isinstance(card, str):
        try:
            return Card.parse(card)
        except ValueError as exc:
            raise IllegalAction(ErrorCode.UNKNOWN_CARD, str(exc), card=card) from None
    raise IllegalAction(ErrorCode.UNKNOWN_CARD, f"not a card: {card!r}", card=repr(card))


class Hand:
    """The state of one hand. Create it from a deal; it starts in the pass phase (or in play on a hold hand)."""

    def __init__(
        self,
        deal: Deal | Sequence[Sequence[int]],
        rules: Rules | None = None,
        pass_direction: PassDirection | None = None,
        *,
        hand_number: int = 0,
        scores_before: Sequence[int] = (0, 0, 0, 0),
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        self.deal: Deal = validate_deal(deal)
        self.hand_number = hand_number
        self.pass_direction = pass_direction if pass_direction is not None else self.rules.pass_direction(hand_number)
        self.scores_before: tuple[int, int, int, int] = tuple(scores_before)  # type: ignore[assignment]
        self._hands = [mask_of(h) for h in self.deal]
        self._passes: list[tuple[Card, ...] | None] = [None, None, None, None]
        self._received: list[tuple[Card, ...]] = [(), (), (), ()]
        self._taken = [0, 0, 0, 0]  # cards won, per seat
        self._tricks: list[Trick] = []
        self._trick: list[tuple[Seat, Card]] = []
        self._plays: list[Card] = []
        self._played = 0
        self.hearts_broken = False
        self.result: HandResult | None = None
        self._turn: Seat | None = None
        self._leader: Seat | None = None
        if self.pass_direction is PassDirection.HOLD:
            self.phase = Phase.PLAYING
            self._start_play()
        else:
            self.phase = Phase.PASSING

    # ----------------------------------------------------------------- queries
    @property
    def turn(self) -> Seat | None:
        """The seat to play, or ``None`` outside the play phase."""
        return self._turn if self.phase is Phase.PLAYING else None

    @property
    def leader(self) -> Seat | None:
        return self._leader if self.phase is Phase.PLAYING else None

    @property
    def holder_of_two_of_clubs(self) -> Seat:
        for seat in SEATS:
            if self._hands[seat] & 1:
                return seat
        for trick in self._tricks[:1]:
            return trick.leader
        raise AssertionError("the 2♣ is nowhere")  # pragma: no cover

    @property
    def waiting_for_pass(self) -> tuple[Seat, ...]:
        """Seats that still have to choose their pass cards."""
        if self.phase is not Phase.PASSING:
            return ()
        return tuple(s for s in SEATS if self._passes[s] is None)

    @property
    def trick_number(self) -> int:
        """0..12: the trick being played (13 once the hand is over)."""
        return len(self._tricks)

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple(self._trick)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._tricks)

    @property
    def last_trick(self) -> Trick | None:
        return self._tricks[-1] if self._tricks else None

    @property
    def plays(self) -> tuple[Card, ...]:
        """Every card played so far, in order (the record of the play)."""
        return tuple(self._plays)

    @property
    def passes(self) -> tuple[tuple[Card, ...] | None, ...]:
        """The cards each seat chose to pass (``None`` if not chosen yet)."""
        return tuple(self._passes)

    def received(self, seat: Seat) -> tuple[Card, ...]:
        return self._received[seat]

    def cards(self, seat: Seat) -> tuple[Card, ...]:
        """The cards ``seat`` holds now, sorted ♣ ♦ ♠ ♥."""
        return cards_of(self._hands[seat])

    def cards_mask(self, seat: Seat) -> int:
        return self._hands[seat]

    def taken_mask(self, seat: Seat) -> int:
        return self._taken[seat]

    @property
    def points_taken(self) -> tuple[int, int, int, int]:
        """Penalty points each seat has taken in this hand so far (J♦ included when on)."""
        return tuple(trick_points(m, self.rules) for m in self._taken)  # type: ignore[return-value]

    def trick_markers(self, seat: Seat) -> tuple[str, ...]:
        """One marker per trick ``seat`` won: ``"none"``, ``"hearts"``, ``"queen"`` or ``"jack"``."""
        return tuple(t.marker for t in self._tricks if t.winner == seat)

    @property
    def _led_suit(self) -> int:
        return self._trick[0][1] // 13 if self._trick else -1

    def legal_mask(self, seat: Seat | None = None) -> int:
        if self.phase is not Phase.PLAYING:
            return 0
        seat = self._turn if seat is None else seat
        if seat is None or seat != self._turn:
            return 0
        return legal_mask(
            self._hands[seat], self._led_suit, len(self._tricks), self.hearts_broken, self.rules.first_trick_forbidden
        )

    def legal_plays(self, seat: Seat | None = None) -> tuple[Card, ...]:
        """The cards the seat to act may play (empty for any other seat or phase)."""
        return cards_of(self.legal_mask(seat))

    def legal_pass_cards(self, seat: Seat) -> tuple[Card, ...]:
        """Any 3 of these may be passed (all cards in hand while the seat has not chosen)."""
        if self.phase is not Phase.PASSING or self._passes[seat] is not None:
            return ()
        return cards_of(self._hands[seat])

    @property
    def to_act(self) -> tuple[Seat, ...]:
        """The seats the hand waits for: those still to pass, or the seat to play; ``()`` when over."""
        if self.phase is Phase.PASSING:
            return self.waiting_for_pass
        if self.phase is Phase.PLAYING and self._turn is not None:
            return (self._turn,)
        return ()

    @property
    def is_over(self) -> bool:
        return self.result is not None

    # ----------------------------------------------------------------- passing
    def verify_pass(self, seat: Seat, cards: Iterable[Card | int | str] | str) -> tuple[Card, ...]:
        """Raise :class:`IllegalAction` unless ``seat`` may pass ``cards`` now; return them as cards.

        ``cards`` may also be one text such as ``"QS AS KS"``."""
        seat = Seat(seat)
        items = cards.replace(",", " ").split() if isinstance(cards, str) else cards
        chosen = tuple(to_card(c) for c in items)
        if self.phase is not Phase.PASSING:
            raise IllegalAction(
                ErrorCode.WRONG_PHASE, "cards can only be passed before the first trick", phase=self.phase.value
            )
        if self._passes[seat] is not None:
            raise IllegalAction(ErrorCode.ALREADY_PASSED, f"{seat.key} has already chosen cards to pass", seat=seat)
        if len(set(chosen)) != len(chosen):
            dupes = sorted({c for c in chosen if chosen.count(c) > 1})
            raise IllegalAction(
                ErrorCode.DUPLICATE_CARDS, "the same card was chosen twice", cards=[CARDS[c] for c in dupes]
            )
        if len(chosen) != PASS_COUNT:
            raise IllegalAction(
                ErrorCode.WRONG_PASS_COUNT,
                f"pass exactly {PASS_COUNT} cards, not {len(chosen)}",
                count=len(chosen),
                expected=PASS_COUNT,
            )
        for card in chosen:
            if not self._hands[seat] >> card & 1:
                raise IllegalAction(
                    ErrorCode.CARD_NOT_IN_HAND, f"{card.text} is not in {seat.key}'s hand", seat=seat, card=card
                )
        return tuple(sorted(chosen))

    def can_pass(self, seat: Seat, cards: Iterable[Card | int | str] | str) -> bool:
        try:
            self.verify_pass(seat, cards)
        except IllegalAction:
            return False
        return True

    def choose_pass(self, seat: Seat, cards: Iterable[Card | int | str] | str) -> list[Event]:
        """Choose the cards ``seat`` passes. When the last seat has chosen, the exchange happens."""
        chosen = self.verify_pass(seat, cards)
        seat = Seat(seat)
        self._passes[seat] = chosen
        events: list[Event] = [PassChosen(seat)]
        if all(p is not None for p in self._passes):
            events.append(self._exchange())
        return events

    def _exchange(self) -> CardsPassed:
        given = tuple(self._passes[s] or () for s in SEATS)
        for seat in SEATS:
            self._hands[seat] &= ~mask_of(given[seat])
        for seat in SEATS:
            target = self.pass_direction.target(seat)
            self._hands[target] |= mask_of(given[seat])
            self._received[target] = given[seat]
        self.phase = Phase.PLAYING
        self._start_play()
        return CardsPassed(self.pass_direction, given)

    def _start_play(self) -> None:
        seat = self.holder_of_two_of_clubs
        self._turn = seat
        self._leader = seat

    # ----------------------------------------------------------------- playing
    def verify_play(self, seat: Seat, card: Card | int | str) -> Card:
        """Raise :class:`IllegalAction` (with the reason's code) unless ``seat`` may play ``card`` now."""
        card = to_card(card)
        seat = Seat(seat)
        if self.phase is not Phase.PLAYING:
            raise IllegalAction(
                ErrorCode.WRONG_PHASE, f"no card can be played in the {self.phase.value} phase", phase=self.phase.value
            )
        if seat != self._turn:
            turn = self._turn.key if self._turn is not None else "nobody"
            raise IllegalAction(
                ErrorCode.NOT_YOUR_TURN, f"it is {turn}'s turn, not {seat.key}'s", seat=seat, turn=self._turn
            )
        check_play(self._hands[seat], self._trick, len(self._tricks), self.hearts_broken, self.rules, seat, card)
        return card

    def can_play(self, seat: Seat, card: Card | int | str) -> bool:
        try:
            self.verify_play(seat, card)
        except IllegalAction:
            return False
        return True

    def play(self, seat: Seat, card: Card | int | str) -> list[Event]:
        """Play ``card`` for ``seat``; return what happened (card played, trick won, hearts broken…)."""
        card = self.verify_play(seat, card)
        seat = Seat(seat)
        events: list[Event] = [CardPlayed(seat, card, len(self._tricks))]
        self._hands[seat] &= ~(1 << card)
        self._trick.append((seat, card))
        self._plays.append(card)
        if not self.hearts_broken and (card >= 39 or (card == QUEEN_OF_SPADES and self.rules.queen_breaks_hearts)):
            self.hearts_broken = True
            events.append(HeartsBroken(seat, card))
        if len(self._trick) < 4:
            self._turn = seat.next
            return events
        events.append(self._finish_trick())
        if len(self._tricks) == 13:
            events.extend(self._finish_hand())
        return events

    def _finish_trick(self) -> TrickWon:
        seat, _ = trick_winner(self._trick)
        winner = SEATS[seat]
        cards = mask_of(c for _, c in self._trick)
        self._taken[winner] |= cards
        trick = Trick(
            number=len(self._tricks),
            leader=self._trick[0][0],
            plays=tuple(self._trick),
            winner=winner,
            points=trick_points(cards, self.rules),
            marker=trick_marker(cards, self.rules),
        )
        self._tricks.append(trick)
        self._trick = []
        self._turn = winner
        self._leader = winner
        return TrickWon(winner, trick.number, trick.plays, trick.points, trick.marker)

    def _finish_hand(self) -> list[Event]:
        self.result = score_hand(self._taken, self.rules, self.scores_before)
        self.phase = Phase.HAND_OVER
        self._turn = None
        events: list[Event] = []
        if self.result.moon is not None and self.result.moon_scoring is not None:
            events.append(MoonShot(self.result.moon, self.result.moon_scoring.value))
        return events

    # ----------------------------------------------------------------- claiming the rest
    def verify_claim(self, seat: Seat) -> None:
        """Raise :class:`IllegalAction` (code ``cannot_claim``, ``details["why"]``: ``wrong_phase``,
        ``not_your_turn``, ``first_trick`` or ``score_open``) unless ``seat`` may claim the rest now.

        A claim is allowed on ``seat``'s turn after the first trick when the remaining tricks
        cannot change the score: either no penalty card is left in a hand or on the table (hearts,
        the Q♠, and the J♦ with ``rules.jack_of_diamonds``), or ``seat`` is on lead and each of its
        cards outranks every card of the same suit still held by the others (it wins every trick).
        """
        seat = Seat(seat)
        why = self._claim_refusal(seat)
        if why is not None:
            messages = {
                "wrong_phase": f"nothing can be claimed in the {self.phase.value} phase",
                "not_your_turn": f"only the seat to play can claim, and it is not {seat.key}",
                "first_trick": "the first trick must be played out",
                "score_open": "the remaining tricks can still change the score",
            }
            raise IllegalAction(ErrorCode.CANNOT_CLAIM, messages[why], seat=seat, why=why)

    def can_claim(self, seat: Seat) -> bool:
        """May ``seat`` claim the rest of the hand now? (see :meth:`verify_claim`)"""
        return self._claim_refusal(Seat(seat)) is None

    def claim(self, seat: Seat) -> list[Event]:
        """Claim the rest for ``seat``: play the hand out and return every event.

        The play-out is fixed and legal: every seat plays its lowest legal card (by card number),
        which realises the claim (with no points left anything goes; a claimer whose every card
        is the highest of its suit wins each trick whatever it leads). The record stays a list of
        plays, so it replays like any other hand.
        """
        self.verify_claim(seat)
        events: list[Event] = []
        while self.phase is Phase.PLAYING:
            turn = self._turn
            assert turn is not None
            mask = self.legal_mask(turn)
            events.extend(self.play(turn, CARDS[(mask & -mask).bit_length() - 1]))
        return events

    def _claim_refusal(self, seat: Seat) -> str | None:
        if self.phase is not Phase.PLAYING:
            return "wrong_phase"
        if seat != self._turn:
            return "not_your_turn"
        if not self._tricks:
            return "first_trick"
        others = 0
        for other in SEATS:
            if other != seat:
                others |= self._hands[other]
        on_table = mask_of(c for _, c in self._trick)
        return None if rest_is_decided(self._hands[seat], others, on_table, self.rules) else "score_open"

    # ----------------------------------------------------------------- one entry point
    def apply(self, action: Action) -> list[Event]:
        """Carry out a :class:`~hearts.actions.PassCards`, :class:`~hearts.actions.PlayCard` or
        :class:`~hearts.actions.Claim`;
        raise :class:`IllegalAction` (state unchanged) when the rules do not allow it now."""
        if isinstance(action, PlayCard):
            return self.play(action.seat, action.card)
        if isinstance(action, PassCards):
            return self.choose_pass(action.seat, action.cards)
        if isinstance(action, Claim):
            return self.claim(action.seat)
        if isinstance(action, NextHand):
            raise IllegalAction(ErrorCode.WRONG_PHASE, "a single hand has no next hand", phase=self.phase.value)
        raise IllegalAction(ErrorCode.UNKNOWN_ACTION, f"not an action: {action!r}")

    # ----------------------------------------------------------------- views
    def view(self, seat: Seat, scores: Sequence[int] | None = None) -> SeatView:
        """What ``seat`` may know: a frozen :class:`~hearts.view.SeatView` with no reference to the game."""
        seat = Seat(seat)
        return SeatView(
            seat=seat,
            rules=self.rules,
            hand_number=self.hand_number,
            phase=self.phase,
            pass_direction=self.pass_direction,
            hand=self.cards(seat),
            passed=self._passes[seat],
            received=self._received[seat],
            tricks=tuple(self._tricks),
            current_trick=tuple(self._trick),
            leader=self.leader,
            turn=self.turn,
            hearts_broken=self.hearts_broken,
            points_taken=self.points_taken,
            scores=tuple(self.scores_before if scores is None else scores),  # type: ignore[arg-type]
            legal=self.legal_plays(seat) if self.turn == seat else (),
            hand_sizes=tuple(popcount(m) for m in self._hands),  # type: ignore[arg-type]
        )

    def __repr__(self) -> str:
        return f"<Hand {self.hand_number} {self.phase.value} trick={self.trick_number} turn={self.turn}>"
