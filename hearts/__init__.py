"""Hearts: a pure-Python engine for the card game (stdlib only, runs in CPython and Pyodide).

>>> from hearts import Match, PRESETS, Seat
>>> match = Match(PRESETS["standard"], seed="example")
>>> match.phase.value
'passing'

See ``docs/engine.md`` for the whole API.
"""

from .actions import Action, Claim, NextHand, PassCards, PlayCard, action_from_dict, action_to_dict
from .cards import (
    CARDS,
    JACK_OF_DIAMONDS,
    QUEEN_OF_SPADES,
    TWO_OF_CLUBS,
    Card,
    Suit,
    cards_of,
    format_cards,
    mask_of,
    parse_cards,
    sort_cards,
)
from .deal import Deal, deal_fingerprint, deal_from_seed, random_deal
from .errors import ErrorCode, HeartsError, IllegalAction, RecordError
from .events import (
    CardPlayed,
    CardsPassed,
    Event,
    HandOver,
    HandStarted,
    HeartsBroken,
    MatchOver,
    MoonShot,
    PassChosen,
    TrickWon,
)
from .hand import Hand, HandResult, score_hand
from .match import HandScore, Match, hand_seed
from .phase import Phase
from .records import dumps, hand_from_record, hand_to_record, load_record, loads, match_from_record, match_to_record
from .rules import PASS_CYCLES, PRESETS, FirstTrick, MoonScoring, Rules, TieRule, preset_name
from .seats import SEATS, PassDirection, Seat
from .trick import Trick, legal_mask
from .view import SeatView

__all__ = [
    "CARDS",
    "JACK_OF_DIAMONDS",
    "QUEEN_OF_SPADES",
    "TWO_OF_CLUBS",
    "Card",
    "Suit",
    "cards_of",
    "format_cards",
    "mask_of",
    "parse_cards",
    "sort_cards",
    "Deal",
    "deal_fingerprint",
    "deal_from_seed",
    "random_deal",
    "ErrorCode",
    "HeartsError",
    "IllegalAction",
    "RecordError",
    "CardPlayed",
    "CardsPassed",
    "Event",
    "HandOver",
    "HandStarted",
    "HeartsBroken",
    "MatchOver",
    "MoonShot",
    "PassChosen",
    "TrickWon",
    "Hand",
    "HandResult",
    "Phase",
    "Trick",
    "legal_mask",
    "score_hand",
    "HandScore",
    "Match",
    "hand_seed",
    "dumps",
    "hand_from_record",
    "hand_to_record",
    "load_record",
    "loads",
    "match_from_record",
    "match_to_record",
    "PASS_CYCLES",
    "PRESETS",
    "FirstTrick",
    "MoonScoring",
    "Rules",
    "TieRule",
    "preset_name",
    "SEATS",
    "PassDirection",
    "Seat",
    "SeatView",
    "Action",
    "Claim",
    "NextHand",
    "PassCards",
    "PlayCard",
    "action_from_dict",
    "action_to_dict",
]
__version__ = "1.0.0"
