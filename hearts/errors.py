"""Errors with stable machine-readable codes, so a UI can explain them in any language."""

from __future__ import annotations

from enum import Enum
from typing import Any

from .cards import Card, Suit
from .seats import Seat

__all__ = ["ErrorCode", "HeartsError", "IllegalAction", "RecordError"]


class ErrorCode(str, Enum):
    """Stable names for every way an action or a record can be refused."""

    # actions
    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_TURN = "not_your_turn"
    UNKNOWN_CARD = "unknown_card"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    MUST_LEAD_TWO_OF_CLUBS = "must_lead_two_of_clubs"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    HEARTS_NOT_BROKEN = "hearts_not_broken"
    NO_POINTS_ON_FIRST_TRICK = "no_points_on_first_trick"
    WRONG_PASS_COUNT = "wrong_pass_count"
    DUPLICATE_CARDS = "duplicate_cards"
    ALREADY_PASSED = "already_passed"
    MATCH_OVER = "match_over"
    UNKNOWN_ACTION = "unknown_action"
    NO_MORE_DEALS = "no_more_deals"
    CANNOT_CLAIM = "cannot_claim"
    # records
    NOT_JSON = "not_json"
    UNKNOWN_FORMAT = "unknown_format"
    UNSUPPORTED_VERSION = "unsupported_version"
    BAD_FIELD = "bad_field"
    BAD_RULES = "bad_rules"
    BAD_DEAL = "bad_deal"
    INCOMPLETE_PASSES = "incomplete_passes"
    EXTRA_PLAYS = "extra_plays"

    def __str__(self) -> str:
        return self.value


class HeartsError(ValueError):
    """Base class of the engine's errors: ``code`` is stable, ``details`` has the parameters."""

    def __init__(self, code: ErrorCode, message: str, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code.value, "message": self.message, "details": _plain(self.details)}


class IllegalAction(HeartsError):
    """An action the rules do not allow now (the state is unchanged)."""


class RecordError(HeartsError):
    """A record that is malformed or replays into an illegal action.

    ``step`` names the first bad step (for example ``"hands[2].plays[17]"``); when the record
    replays into an illegal action, ``cause`` is that :class:`IllegalAction`.
    """

    def __init__(
        self, code: ErrorCode, message: str, step: str = "", cause: IllegalAction | None = None, **details: Any
    ) -> None:
        super().__init__(code, message, **details)
        self.step = step
        self.cause = cause

    def to_dict(self) -> dict[str, Any]:
        out = super().to_dict()
        out["step"] = self.step
        return out


def _plain(value: Any) -> Any:
    """Details as JSON-friendly values (cards as text, seats and suits as names)."""
    if isinstance(value, Card):
        return value.text
    if isinstance(value, (Seat, Suit)):
        return value.name.lower()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
