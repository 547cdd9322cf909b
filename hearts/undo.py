"""Take back a seat's last decision (practice): a new match record without it and what followed.

:func:`undo_last` works on records (:func:`hearts.match_to_record`), so the page can reload the
result with :func:`hearts.match_from_record` and carry on: the match then waits for the seat to
make that decision again.

* A seat's **decisions** are its pass and the cards it played. Its last one is its last card
  played, or its pass when it has not played in that hand yet.
* Everything **after** it goes too: the other seats' plays (the bots' replies), the end of the
  hand, and any later hand (its deal, passes and plays). The other seats' **passes of the same
  hand** stay: passing is simultaneous, so they are not replies to this seat's pass (a bot passes
  the same cards whatever the others do), and the match waits for this seat alone.
* When the current hand holds no decision of the seat yet (a fresh hand waiting for the passes,
  a hold hand whose first cards the others played), the undo goes back into the previous hand:
  the new hand is dropped and the previous one loses its last card(s) and its score.
* Undo is allowed whenever the seat has something to take back, also after the end of the match
  (the match then goes on). :func:`undo_last` returns ``None`` when the seat has made no decision
  at all in the record.
* A **forced** card (the only legal one when it was played) was no decision: :func:`undo_decision`
  takes back the seat's last *real* decision (a pass, or a card chosen among several), with the
  forced cards after it. When the seat never had a choice, it goes back to its first forced card.

The record's other fields (format, version, rules, seed, ``max_hands``) are kept as they are; the
input record is never changed. A match of explicit deals (no ``seed``) loses the deals of the
hands it drops (give them back with ``NextHand(deal)``: :func:`take_back` lists them).

>>> from hearts import Match, Seat, match_from_record, match_to_record
>>> m = Match(seed="undo-doc")
>>> for seat in Seat:
...     _ = m.choose_pass(seat, m.cards(seat)[:3])
>>> _ = m.play(m.turn, "2C")
>>> record = undo_last(match_to_record(m), Seat.SOUTH)
>>> again = match_from_record(record)
>>> again.phase.value, again.waiting_for_pass
('passing', (<Seat.SOUTH: 0>,))
>>> undo_last(record, Seat.SOUTH) is None
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .actions import Action, NextHand, PassCards, PlayCard
from .cards import Card
from .errors import ErrorCode, RecordError
from .hand import Hand
from .match import Match, hand_seed
from .phase import Phase
from .records import HAND_FORMAT, VERSION, hand_from_record, match_from_record
from .rules import Rules
from .seats import SEATS, Seat

__all__ = ["Undone", "take_back", "undo_last", "undo_decision"]


@dataclass(frozen=True)
class Undone:
    """The result of an undo: the shortened ``record`` and the ``actions`` it lost, in order.

    Applying ``actions`` to ``match_from_record(record)`` (``Match.apply``) gives back the
    original match exactly (a dropped hand comes back through ``NextHand``)."""

    record: dict[str, Any]
    actions: tuple[Action, ...]


def undo_last(record: Mapping[str, Any], seat: Seat) -> dict[str, Any] | None:
    """A new record without ``seat``'s last decision and everything after it, or ``None`` when
    ``seat`` has nothing to take back. ``record`` must be a valid ``hearts-match`` record
    (:class:`~hearts.RecordError` otherwise); it is not changed."""
    undone = take_back(record, seat)
    return None if undone is None else undone.record


def undo_decision(record: Mapping[str, Any], seat: Seat) -> dict[str, Any] | None:
    """Like :func:`undo_last`, but back to ``seat``'s last real decision: a card that was the only
    legal one is taken back together with the decision before it (see the module's notes)."""
    seat = Seat(seat)
    undone = take_back(record, seat)
    while undone is not None and _forced(match_from_record(undone.record), seat):
        earlier = take_back(undone.record, seat)
        if earlier is None:
            break
        undone = earlier
    return None if undone is None else undone.record


def _forced(match: Match, seat: Seat) -> bool:
    """Does ``match`` wait for ``seat`` to play a card it has no choice about?"""
    return bool(match.phase is Phase.PLAYING and match.turn == seat and len(match.legal_plays(seat)) == 1)


def take_back(record: Mapping[str, Any], seat: Seat) -> Undone | None:
    """Like :func:`undo_last`, with the removed actions (see :class:`Undone`)."""
    seat = Seat(seat)
    bodies = record.get("hands") if isinstance(record, Mapping) else None
    if not isinstance(bodies, list) or not bodies:
        raise RecordError(ErrorCode.BAD_FIELD, "hands: a match record needs a non-empty list of hands", step="hands")
    removed: list[Action] = []
    for i in range(len(bodies) - 1, -1, -1):
        body = bodies[i]
        hand = _replay(record, i)
        plays = _plays(hand)
        passes = body.get("passes") or {}
        mine = [j for j, (s, _) in enumerate(plays) if s == seat]
        if mine:
            cut = mine[-1]
            kept = dict(body, plays=list(body.get("plays", []))[:cut])
            lost: list[Action] = [PlayCard(s, c) for s, c in plays[cut:]]
        elif seat.key in passes:
            kept = dict(body, passes={k: v for k, v in passes.items() if k != seat.key}, plays=[])
            lost = [PassCards(seat, hand.passes[seat] or ()), *(PlayCard(s, c) for s, c in plays)]
        else:
            if i == 0:
                return None
            given = [PassCards(s, hand.passes[s] or ()) for s in SEATS if s.key in passes]
            removed = [
                NextHand(None if record.get("seed") is not None else hand.deal),
                *given,
                *(PlayCard(s, c) for s, c in plays),
                *removed,
            ]
            continue
        kept.pop("points", None)
        out = {key: copy.deepcopy(value) for key, value in record.items() if key != "hands"}
        out["hands"] = [copy.deepcopy(b) for b in bodies[:i]] + [copy.deepcopy(kept)]
        return Undone(out, (*lost, *removed))
    return None  # pragma: no cover - the loop returns at i == 0


def _replay(record: Mapping[str, Any], index: int) -> Hand:
    """Hand ``index`` of a match record, replayed on its own (only to know who played each card)."""
    body = record["hands"][index]
    if not isinstance(body, Mapping):
        raise RecordError(ErrorCode.BAD_FIELD, f"hands[{index}]: a hand must be an object", step=f"hands[{index}]")
    try:
        rules = Rules.from_dict(record.get("rules", {}))
    except ValueError as exc:
        raise RecordError(ErrorCode.BAD_RULES, f"rules: {exc}", step="rules") from None
    one: dict[str, Any] = {
        "format": HAND_FORMAT,
        "version": VERSION,
        "rules": record.get("rules", {}),
        "pass_direction": rules.pass_direction(index).value,
        "hand_number": index,
        "passes": body.get("passes"),
        "plays": body.get("plays", []),
    }
    seed = record.get("seed")
    if seed is not None:
        if not isinstance(seed, str):
            raise RecordError(ErrorCode.BAD_FIELD, "seed: the seed must be a string", step="seed")
        one["seed"] = hand_seed(seed, index)
    else:
        one["deal"] = body.get("deal")
    return hand_from_record(one)


def _plays(hand: Hand) -> list[tuple[Seat, Card]]:
    """Every card played in ``hand``, with its seat, in order."""
    return [*(play for trick in hand.tricks for play in trick.plays), *hand.current_trick]
