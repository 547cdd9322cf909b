"""The phases of a hand and of a match: what kind of action the table waits for."""

from __future__ import annotations

from enum import Enum

__all__ = ["Phase"]


class Phase(Enum):
    """``PASSING``: seats choose cards to pass; ``PLAYING``: one seat plays a card;
    ``HAND_OVER``: the hand is scored and the match waits to deal the next one;
    ``MATCH_OVER``: the end."""

    PASSING = "passing"
    PLAYING = "playing"
    HAND_OVER = "hand_over"
    MATCH_OVER = "match_over"
