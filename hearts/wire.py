"""Plain-JSON forms of what a seat may see: a :class:`~hearts.view.SeatView`, the score sheet and
the events. An online table sends these to its guests; every reader checks what it gets.

``*_to_dict`` writes; ``*_from_dict`` reads and raises :class:`WireError` (a ``ValueError``) on
anything malformed, never another exception.

>>> from hearts import Match, Seat
>>> view = Match(seed="wire").view(Seat.WEST)
>>> view_from_dict(view_to_dict(view)) == view
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from .cards import Card
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
from .match import HandScore
from .phase import Phase
from .rules import Rules
from .seats import PassDirection, Seat
from .trick import Trick
from .view import SeatView

__all__ = [
    "WireError",
    "view_to_dict",
    "view_from_dict",
    "sheet_to_list",
    "sheet_from_list",
    "event_from_dict",
    "events_from_list",
]

T = TypeVar("T")
_MARKERS = ("none", "hearts", "queen", "jack")


class WireError(ValueError):
    """Data that does not have the expected form."""


# ------------------------------------------------------------------ readers of single values
def _seat(v: Any) -> Seat:
    if isinstance(v, str) and v in ("south", "west", "north", "east"):
        return Seat.parse(v)
    raise WireError(f"not a seat: {str(v)[:12]!r}")


def _opt_seat(v: Any) -> Seat | None:
    return None if v is None else _seat(v)


def _card(v: Any) -> Card:
    if isinstance(v, str) and len(v) == 2:
        try:
            return Card.parse(v)
        except ValueError:
            pass
    raise WireError(f"not a card: {str(v)[:12]!r}")


def _int(v: Any, low: int = -(10**6), high: int = 10**6) -> int:
    if isinstance(v, int) and not isinstance(v, bool) and low <= v <= high:
        return v
    raise WireError(f"not a whole number in range: {str(v)[:12]!r}")


def _bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    raise WireError("not true/false")


def _list(v: Any, read: Callable[[Any], T], most: int = 52) -> tuple[T, ...]:
    if not isinstance(v, list) or len(v) > most:
        raise WireError("not a list (or too long)")
    return tuple(read(x) for x in v)


def _four(v: Any) -> tuple[int, int, int, int]:
    values = _list(v, _int, 4)
    if len(values) != 4:
        raise WireError("expected four numbers")
    return (values[0], values[1], values[2], values[3])


def _cards(v: Any, most: int = 13) -> tuple[Card, ...]:
    return _list(v, _card, most)


def _plays(v: Any) -> tuple[tuple[Seat, Card], ...]:
    def one(x: Any) -> tuple[Seat, Card]:
        if not isinstance(x, list) or len(x) != 2:
            raise WireError("a play is [seat, card]")
        return _seat(x[0]), _card(x[1])

    return _list(v, one, 4)


def _map(v: Any) -> Mapping[str, Any]:
    if not isinstance(v, Mapping):
        raise WireError("not an object")
    return v


def _get(d: Mapping[str, Any], key: str) -> Any:
    if key not in d:
        raise WireError(f"missing {key}")
    return d[key]


def _enum(v: Any, kind: Callable[[Any], T]) -> T:
    try:
        return kind(v)
    except (ValueError, TypeError):
        raise WireError(f"unknown value {str(v)[:16]!r}") from None


# ------------------------------------------------------------------ views
def _trick_to_dict(t: Trick) -> dict[str, Any]:
    return {
        "number": t.number,
        "leader": t.leader.key,
        "plays": [[s.key, c.text] for s, c in t.plays],
        "winner": t.winner.key,
        "points": t.points,
        "marker": t.marker,
    }


def _trick_from_dict(v: Any) -> Trick:
    d = _map(v)
    marker = _get(d, "marker")
    if marker not in _MARKERS:
        raise WireError("unknown trick marker")
    plays = _plays(_get(d, "plays"))
    if len(plays) != 4:
        raise WireError("a trick has four plays")
    return Trick(
        _int(_get(d, "number"), 0, 12),
        _seat(_get(d, "leader")),
        plays,
        _seat(_get(d, "winner")),
        _int(_get(d, "points"), -10, 26),
        marker,
    )


def view_to_dict(view: SeatView) -> dict[str, Any]:
    return {
        "seat": view.seat.key,
        "rules": view.rules.to_dict(),
        "hand_number": view.hand_number,
        "phase": view.phase.value,
        "pass_direction": view.pass_direction.value,
        "hand": [c.text for c in view.hand],
        "passed": None if view.passed is None else [c.text for c in view.passed],
        "received": [c.text for c in view.received],
        "tricks": [_trick_to_dict(t) for t in view.tricks],
        "current_trick": [[s.key, c.text] for s, c in view.current_trick],
        "leader": None if view.leader is None else view.leader.key,
        "turn": None if view.turn is None else view.turn.key,
        "hearts_broken": view.hearts_broken,
        "points_taken": list(view.points_taken),
        "scores": list(view.scores),
        "legal": [c.text for c in view.legal],
        "hand_sizes": list(view.hand_sizes),
    }


def view_from_dict(data: Any) -> SeatView:
    d = _map(data)
    try:
        rules = Rules.from_dict(_get(d, "rules"))
    except (ValueError, TypeError) as exc:
        raise WireError(f"bad rules: {exc}") from None
    passed = _get(d, "passed")
    sizes = _four(_get(d, "hand_sizes"))
    if any(not 0 <= n <= 13 for n in sizes):
        raise WireError("a hand holds 0 to 13 cards")
    return SeatView(
        seat=_seat(_get(d, "seat")),
        rules=rules,
        hand_number=_int(_get(d, "hand_number"), 0, 10**4),
        phase=_enum(_get(d, "phase"), Phase),
        pass_direction=_enum(_get(d, "pass_direction"), PassDirection),
        hand=_cards(_get(d, "hand")),
        passed=None if passed is None else _cards(passed, 3),
        received=_cards(_get(d, "received"), 3),
        tricks=_list(_get(d, "tricks"), _trick_from_dict, 13),
        current_trick=_plays(_get(d, "current_trick")),
        leader=_opt_seat(_get(d, "leader")),
        turn=_opt_seat(_get(d, "turn")),
        hearts_broken=_bool(_get(d, "hearts_broken")),
        points_taken=_four(_get(d, "points_taken")),
        scores=_four(_get(d, "scores")),
        legal=_cards(_get(d, "legal")),
        hand_sizes=sizes,
    )


# ------------------------------------------------------------------ the score sheet
def sheet_to_list(sheet: Sequence[HandScore]) -> list[dict[str, Any]]:
    return [
        {
            "hand_number": r.hand_number,
            "points": list(r.points),
            "penalty": list(r.penalty),
            "moon": None if r.moon is None else r.moon.key,
            "jack": None if r.jack is None else r.jack.key,
            "totals": list(r.totals),
        }
        for r in sheet
    ]


def sheet_from_list(data: Any) -> tuple[HandScore, ...]:
    def row(v: Any) -> HandScore:
        d = _map(v)
        return HandScore(
            _int(_get(d, "hand_number"), 0, 10**4),
            _four(_get(d, "points")),
            _four(_get(d, "penalty")),
            _opt_seat(_get(d, "moon")),
            _opt_seat(_get(d, "jack")),
            _four(_get(d, "totals")),
        )

    return _list(data, row, 10**4)


# ------------------------------------------------------------------ events (written by Event.to_dict)
def _given(v: Any) -> tuple[tuple[Card, ...], ...]:
    given = _list(v, lambda x: _cards(x, 3), 4)
    if len(given) != 4:
        raise WireError("cards_passed lists four seats")
    return given


_EVENT_READERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "hand_started": lambda d: HandStarted(
        _int(_get(d, "hand_number"), 0, 10**4), _enum(_get(d, "pass_direction"), PassDirection)
    ),
    "pass_chosen": lambda d: PassChosen(_seat(_get(d, "seat"))),
    "cards_passed": lambda d: CardsPassed(_enum(_get(d, "direction"), PassDirection), _given(_get(d, "given"))),
    "card_played": lambda d: CardPlayed(
        _seat(_get(d, "seat")), _card(_get(d, "card")), _int(_get(d, "trick_number"), 0, 12)
    ),
    "hearts_broken": lambda d: HeartsBroken(_seat(_get(d, "seat")), _card(_get(d, "card"))),
    "trick_won": lambda d: TrickWon(
        _seat(_get(d, "seat")),
        _int(_get(d, "trick_number"), 0, 12),
        _plays(_get(d, "plays")),
        _int(_get(d, "points"), -10, 26),
        _get(d, "marker") if _get(d, "marker") in _MARKERS else "none",
    ),
    "moon_shot": lambda d: MoonShot(
        _seat(_get(d, "seat")),
        _get(d, "scoring") if _get(d, "scoring") in ("add_to_others", "subtract_from_shooter") else "add_to_others",
    ),
    "hand_over": lambda d: HandOver(
        _int(_get(d, "hand_number"), 0, 10**4),
        _four(_get(d, "points")),
        _opt_seat(_get(d, "moon")),
        _four(_get(d, "totals")),
    ),
    "match_over": lambda d: MatchOver(_list(_get(d, "winners"), _seat, 4), _four(_get(d, "totals"))),
}


def event_from_dict(data: Any) -> Event:
    d = _map(data)
    kind = d.get("kind")
    reader = _EVENT_READERS.get(kind) if isinstance(kind, str) else None  # a list is no kind (and unhashable)
    if reader is None:
        raise WireError(f"unknown event {str(d.get('kind'))[:20]!r}")
    return reader(d)


def events_from_list(data: Any) -> tuple[Event, ...]:
    return _list(data, event_from_dict, 64)
