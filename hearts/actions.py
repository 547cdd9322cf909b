"""What a seat can do, as small frozen values: the one currency between seats and the table.

A person at this screen, a bot and a friend far away all answer the table with an
:data:`Action` (a pass, a card, a claim of the remaining tricks, or the next hand);
:meth:`hearts.Match.apply` (or :meth:`hearts.Hand.apply`) carries it out or raises
:class:`~hearts.errors.IllegalAction` with the reason. Actions round-trip through plain JSON-friendly
dicts (:func:`action_to_dict`, :func:`action_from_dict`) for records and messages.

>>> from hearts import Card, Seat
>>> action_from_dict(action_to_dict(PlayCard(Seat.WEST, Card.parse("QS"))))
PlayCard(seat=<Seat.WEST: 1>, card=Card.parse('QS'))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .deal import Deal
from .errors import ErrorCode, IllegalAction
from .seats import Seat

__all__ = ["PassCards", "PlayCard", "Claim", "NextHand", "Action", "action_to_dict", "action_from_dict"]


@dataclass(frozen=True)
class PassCards:
    """``seat`` chooses the cards it passes (the exchange happens once every seat has chosen)."""

    seat: Seat
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class PlayCard:
    """``seat`` plays ``card`` to the current trick."""

    seat: Seat
    card: Card


@dataclass(frozen=True)
class Claim:
    """``seat``, on its turn, claims the rest of the hand: allowed only when the remaining tricks
    cannot change the score (see :meth:`hearts.Hand.can_claim`). The hand is then played out
    with a fixed legal policy, so the record stays a plain list of plays."""

    seat: Seat


@dataclass(frozen=True)
class NextHand:
    """Deal the next hand of a match once the finished one has been looked at. ``deal`` is for a
    match of explicit deals that gets each deal only when it is needed (an online table)."""

    deal: Deal | None = None


Action = PassCards | PlayCard | Claim | NextHand


def action_to_dict(action: Action) -> dict[str, Any]:
    if isinstance(action, PlayCard):
        return {"type": "play", "seat": action.seat.key, "card": action.card.text}
    if isinstance(action, PassCards):
        return {"type": "pass", "seat": action.seat.key, "cards": [c.text for c in action.cards]}
    if isinstance(action, Claim):
        return {"type": "claim", "seat": action.seat.key}
    return {"type": "next_hand"}


def action_from_dict(data: Any) -> Action:
    """The action of a dict written by :func:`action_to_dict`; :class:`IllegalAction` with code
    ``unknown_action`` (or ``unknown_card``) names what is wrong with any other input."""

    def bad(message: str) -> IllegalAction:
        return IllegalAction(ErrorCode.UNKNOWN_ACTION, message)

    if not isinstance(data, Mapping):
        raise bad("an action must be an object")
    kind = data.get("type")
    if kind == "next_hand":
        return NextHand()
    if kind not in ("play", "pass", "claim"):
        raise bad(f"unknown action type {str(kind)[:20]!r}")
    try:
        seat = Seat.parse(data.get("seat"))  # type: ignore[arg-type]
    except ValueError:
        raise bad("unknown seat") from None
    if kind == "claim":
        return Claim(seat)
    if kind == "play":
        return PlayCard(seat, _card(data.get("card")))
    cards = data.get("cards")
    if not isinstance(cards, list) or len(cards) > 13:
        raise bad("pass cards must be a list of card texts")
    return PassCards(seat, tuple(_card(c) for c in cards))


def _card(text: Any) -> Card:
    if not isinstance(text, str) or len(text) > 3:
        raise IllegalAction(ErrorCode.UNKNOWN_CARD, "a card must be a text such as 'QS'")
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise IllegalAction(ErrorCode.UNKNOWN_CARD, str(exc), card=text) from None
