"""The guided first hand: a fixed friendly deal, and the tip for each new situation in it.

A newcomer plays one hand against Easy bots while a guide explains what happens as it comes:
choosing three cards to pass, leading the 2♣, following suit, the first-trick rule, a suit the
player lacks, a seat that shows out, hearts not yet broken, hearts broken, the Q♠, a moon threat,
and the end of the hand. The player makes every move; the guide only points at a card.

:func:`next_tip` is pure: given a :class:`~hearts.view.SeatView` and the codes already explained,
it returns the next :class:`Tip` (a code with parameters) or ``None``. A tip that is about a rule
carries the table's own refusal code (:class:`~hearts.errors.ErrorCode`) and, when there is one,
a card of the hand that the rule refuses right now; a tip on the seat's turn carries a suggested
move with the bots' reason code (Medium's rules of thumb: the same codes as the "show me" hint).

>>> m = guided_match()
>>> tip = next_tip(m.view(GUIDED_SEAT), frozenset())
>>> tip.code, len(tip.cards), tip.params["direction"]
('pass', 3, 'left')
>>> next_tip(m.view(GUIDED_SEAT), frozenset({"pass"})) is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .bots.medium import medium_pass, medium_play
from .cards import HEARTS_MASK, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, Suit
from .errors import ErrorCode, IllegalAction
from .match import Match
from .phase import Phase
from .rules import Rules
from .seats import PassDirection, Seat
from .view import SeatView

__all__ = [
    "GUIDED_SEED",
    "GUIDED_SEAT",
    "GUIDED_LEVEL",
    "TIPS",
    "Tip",
    "guided_rules",
    "guided_match",
    "next_tip",
    "suggestion",
]

GUIDED_SEED = "guided-hand-v1-88"  # pinned: tests/test_guide.py proves what the guide needs of it
GUIDED_SEAT = Seat.SOUTH
GUIDED_LEVEL = "easy"
MOON_WATCH = 6  # penalty cards all in one other seat's tricks: a moon threat worth a word

# Every tip, in the order they are looked for when several apply at once.
TIPS = (
    "pass",
    "hold",
    "lead_two_of_clubs",
    "first_trick",
    "follow_suit",
    "no_card_of_suit",
    "hearts_not_broken",
    "queen_fell",
    "hearts_broken",
    "jack_fell",
    "moon_threat",
    "void_shown",
    "your_lead",
    "queen_held",
    "hand_over",
)


@dataclass(frozen=True)
class Tip:
    """One thing to explain now: ``code`` (one of :data:`TIPS`) and its ``params`` (cards as text,
    seats by key, suits by name). ``cards``: a suggested move (legal now) with the bots' ``reason``
    code and ``reason_params``; ``rule``: the refusal code of the rule the tip is about, with
    ``example``, a card of the hand that rule refuses now."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)
    cards: tuple[Card, ...] = ()
    reason: str = ""
    reason_params: dict[str, Any] = field(default_factory=dict)
    rule: ErrorCode | None = None
    example: Card | None = None


def guided_rules(rules: Rules | None = None) -> Rules:
    """The player's rules for the guided hand, passing to the left (a pass is part of the lesson)."""
    base = rules if rules is not None else Rules()
    return base.replace(pass_cycle=(PassDirection.LEFT,))


def guided_match(rules: Rules | None = None) -> Match:
    """The guided hand: one hand of the pinned deal under the player's rules."""
    return Match(guided_rules(rules), seed=GUIDED_SEED, max_hands=1)


def next_tip(view: SeatView, told: Iterable[str] = ()) -> Tip | None:
    """The next tip for ``view`` that is not in ``told`` (codes), or ``None``."""
    done = frozenset(told)
    for code, detect in _DETECTORS:
        if code in done:
            continue
        tip = detect(view)
        if tip is not None:
            return tip
    return None


# ---------------------------------------------------------------------- the situations
def _my_turn(view: SeatView) -> bool:
    return view.phase is Phase.PLAYING and view.turn == view.seat


def suggestion(view: SeatView) -> tuple[tuple[Card, ...], str, dict[str, Any]]:
    """Medium's move for the seat to act (legal by construction), with its reason code."""
    if view.phase is Phase.PASSING:
        picked, reason, params = medium_pass(view)
    else:
        picked, reason, params = medium_play(view)
    return tuple(Card(c) for c in picked), reason, dict(params)


def _refused(view: SeatView, code: ErrorCode) -> Card | None:
    """A card of the hand that the table refuses now for ``code`` (the lowest one), if any."""
    for card in view.hand:
        try:
            view.verify_play(card)
        except IllegalAction as exc:
            if exc.code is code:
                return card
    return None


def _on_turn(view: SeatView, code: str, params: dict[str, Any] | None = None, rule: ErrorCode | None = None) -> Tip:
    cards, reason, reason_params = suggestion(view)
    example = _refused(view, rule) if rule is not None else None
    return Tip(code, params or {}, cards, reason, reason_params, rule, example)


def _pass(view: SeatView) -> Tip | None:
    if view.phase is not Phase.PASSING or view.passed is not None or view.pass_direction is PassDirection.HOLD:
        return None
    cards, reason, reason_params = suggestion(view)
    target = view.pass_direction.target(view.seat)
    return Tip(
        "pass",
        {"direction": view.pass_direction.value, "seat": target.key},
        cards,
        reason,
        reason_params,
        ErrorCode.WRONG_PASS_COUNT,
    )


def _hold(view: SeatView) -> Tip | None:
    if view.phase is Phase.PLAYING and view.pass_direction is PassDirection.HOLD and view.trick_number == 0:
        return Tip("hold", {})
    return None


def _lead_two(view: SeatView) -> Tip | None:
    if _my_turn(view) and view.trick_number == 0 and not view.current_trick and TWO_OF_CLUBS in view.hand:
        return _on_turn(view, "lead_two_of_clubs", {"card": TWO_OF_CLUBS.text}, ErrorCode.MUST_LEAD_TWO_OF_CLUBS)
    return None


def _first_trick(view: SeatView) -> Tip | None:
    """The first trick is under way (or just over): no points may be discarded on it."""
    if not 1 <= view.cards_played <= 4:
        return None
    params = {"first_trick": view.rules.first_trick.value}
    if _my_turn(view):
        return _on_turn(view, "first_trick", params, ErrorCode.NO_POINTS_ON_FIRST_TRICK)
    return Tip("first_trick", params, rule=ErrorCode.NO_POINTS_ON_FIRST_TRICK)


def _follow(view: SeatView) -> Tip | None:
    led = view.led_suit
    if not _my_turn(view) or led is None or not view.suit_cards(led) or len(view.suit_cards(led)) == len(view.hand):
        return None
    return _on_turn(view, "follow_suit", {"suit": led.name.lower()}, ErrorCode.MUST_FOLLOW_SUIT)


def _no_card(view: SeatView) -> Tip | None:
    led = view.led_suit
    if not _my_turn(view) or led is None or view.suit_cards(led):
        return None
    params = {"suit": led.name.lower(), "first": view.trick_number == 0}
    return _on_turn(
        view, "no_card_of_suit", params, ErrorCode.NO_POINTS_ON_FIRST_TRICK if view.trick_number == 0 else None
    )


def _hearts_closed(view: SeatView) -> Tip | None:
    if not _my_turn(view) or view.current_trick or view.hearts_broken or view.trick_number == 0:
        return None
    hearts = view.hand_mask & HEARTS_MASK
    if not hearts or hearts == view.hand_mask:
        return None
    return _on_turn(view, "hearts_not_broken", {}, ErrorCode.HEARTS_NOT_BROKEN)


def _plays(view: SeatView) -> list[tuple[int, Seat, Card]]:
    """Every card played so far with its trick number and seat."""
    out = [(i, seat, card) for i, trick in enumerate(view.tricks) for seat, card in trick.plays]
    return out + [(view.trick_number, seat, card) for seat, card in view.current_trick]


def _queen_fell(view: SeatView) -> Tip | None:
    for number, trick in enumerate(view.tricks):
        if any(c == QUEEN_OF_SPADES for _, c in trick.plays):
            played_by = next(s for s, c in trick.plays if c == QUEEN_OF_SPADES)
            return Tip(
                "queen_fell",
                {
                    "seat": played_by.key,
                    "taker": trick.winner.key,
                    "trick": number + 1,
                    "you": trick.winner == view.seat,
                },
            )
    return None


def _hearts_broken(view: SeatView) -> Tip | None:
    if not view.hearts_broken:
        return None
    for _, seat, card in _plays(view):
        if card.suit is Suit.HEARTS or (card == QUEEN_OF_SPADES and view.rules.queen_breaks_hearts):
            return Tip("hearts_broken", {"seat": seat.key, "card": card.text, "queen": card == QUEEN_OF_SPADES})
    return Tip("hearts_broken", {"seat": "", "card": "", "queen": False})


def _jack_fell(view: SeatView) -> Tip | None:
    if not view.rules.jack_of_diamonds:
        return None
    for trick in view.tricks:
        if any(c == JACK_OF_DIAMONDS for _, c in trick.plays):
            return Tip("jack_fell", {"taker": trick.winner.key, "you": trick.winner == view.seat})
    return None


def penalty_counts(view: SeatView) -> tuple[int, int, int, int]:
    """How many penalty cards (hearts and the Q♠) each seat has taken so far this hand."""
    penalty = HEARTS_MASK | QUEEN_OF_SPADES.mask
    return tuple(bin(m & penalty).count("1") for m in view.taken_masks())  # type: ignore[return-value]


def _moon(view: SeatView) -> Tip | None:
    if view.phase is not Phase.PLAYING:
        return None
    counts = penalty_counts(view)
    takers = [s for s in Seat if counts[s]]
    if len(takers) != 1 or counts[takers[0]] < MOON_WATCH:
        return None
    runner = takers[0]
    return Tip("moon_threat", {"seat": runner.key, "you": runner == view.seat, "cards": counts[runner]})


def _void_shown(view: SeatView) -> Tip | None:
    for number, trick in enumerate([t.plays for t in view.tricks] + [view.current_trick]):
        if not trick:
            continue
        led = trick[0][1].suit
        for seat, card in trick[1:]:
            if card.suit is not led and seat != view.seat:
                return Tip(
                    "void_shown", {"seat": seat.key, "suit": led.name.lower(), "card": card.text, "trick": number + 1}
                )
    return None


def _your_lead(view: SeatView) -> Tip | None:
    if _my_turn(view) and not view.current_trick and view.trick_number > 0:
        return _on_turn(view, "your_lead", {})
    return None


def _queen_held(view: SeatView) -> Tip | None:
    if _my_turn(view) and QUEEN_OF_SPADES in view.hand:
        return _on_turn(view, "queen_held", {"card": QUEEN_OF_SPADES.text})
    return None


def _hand_over(view: SeatView) -> Tip | None:
    if view.phase is not Phase.HAND_OVER:
        return None
    counts = penalty_counts(view)
    shooter = next((s for s in Seat if counts[s] == 14), None)
    return Tip("hand_over", {"points": view.points_taken[view.seat], "moon": shooter.key if shooter else ""})


_DETECTORS: tuple[tuple[str, Callable[[SeatView], Tip | None]], ...] = (
    ("pass", _pass),
    ("hold", _hold),
    ("lead_two_of_clubs", _lead_two),
    ("first_trick", _first_trick),
    ("follow_suit", _follow),
    ("no_card_of_suit", _no_card),
    ("hearts_not_broken", _hearts_closed),
    ("queen_fell", _queen_fell),
    ("hearts_broken", _hearts_broken),
    ("jack_fell", _jack_fell),
    ("moon_threat", _moon),
    ("void_shown", _void_shown),
    ("your_lead", _your_lead),
    ("queen_held", _queen_held),
    ("hand_over", _hand_over),
)
assert tuple(code for code, _ in _DETECTORS) == TIPS
