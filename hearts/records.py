"""JSON records of a hand and of a whole match. Saving writes a record; loading replays it.

Formats (both carry ``format`` and ``version``; cards are text such as ``"QS"``; seats are
``"south"``, ``"west"``, ``"north"``, ``"east"``):

``hearts-match`` v1::

    {"format": "hearts-match", "version": 1,
     "rules": {...Rules.to_dict()...},
     "seed": "a1b2",                 # deals come from the seed (see hearts.match.hand_seed)
     "max_hands": null,              # optional: the match ends after this many hands
     "hands": [
       {"deal": {"south": [...13 cards], ...},   # only when there is no seed
        "passes": {"south": ["QS", "AS", "KS"], ...},  # seats that have chosen; absent on hold hands
        "plays": ["2C", "9C", ...],                   # every card in order; the seat is implied
        "points": [3, 13, 10, 0]}                     # written for finished hands; checked on load
     ]}

``hearts-hand`` v1 is one hand on its own::

    {"format": "hearts-hand", "version": 1, "rules": {...},
     "seed": "2026-11-29" or "deal": {...}, "pass_direction": "left",
     "hand_number": 0, "scores_before": [0, 0, 0, 0],
     "passes": {...}, "plays": [...], "points": [...]}

A match record lists the hands dealt so far. When the last hand is finished and the match is
not over, the match waits at ``hand_over`` (records written before the match learned to wait
end with the next hand's empty body instead: both load).

Loading replays every step through the engine, so a tampered or corrupt record is refused
with a :class:`RecordError` naming the first bad step and, for an illegal action, its code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .cards import Card
from .deal import Deal, deal_from_seed, validate_deal
from .errors import ErrorCode, IllegalAction, RecordError
from .hand import Hand
from .match import HandScore, Match
from .phase import Phase
from .rules import Rules
from .seats import SEATS, PassDirection, Seat
from .wire import sheet_from_list, sheet_to_list

__all__ = [
    "MATCH_FORMAT",
    "HAND_FORMAT",
    "VERSION",
    "match_to_record",
    "match_from_record",
    "hand_to_record",
    "hand_from_record",
    "load_record",
    "loads",
    "dumps",
    "json_depth",
    "MAX_JSON_DEPTH",
]

# Deepest nesting of arrays/objects :func:`loads` (and ``python -m hearts replay``) parse: records
# nest 6 deep at most. Deeper text is refused before it reaches ``json.loads``, whose recursion
# overflows the browser's stack inside Pyodide (the interpreter dies) long before a RecursionError.
MAX_JSON_DEPTH = 64
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def json_depth(text: str, limit: int = 1 << 30) -> int:
    """How deep arrays and objects nest in JSON ``text`` (strings skipped), without parsing it.
    Stops counting once ``limit`` is passed (then returns ``limit + 1``).

    >>> json_depth('{"a": [1, {"b": "[[["}]}'), json_depth("[" * 100, limit=10)
    (3, 11)
    """
    # escapes pair up from the left: drop the escaped backslashes, then the escaped quotes; what
    # remains between quotes is string contents (linear time, no regex backtracking)
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    outside_strings = "".join(unescaped.split('"')[::2])
    depth = deepest = 0
    for ch in _NOT_BRACKET.sub("", outside_strings):
        if ch == "[" or ch == "{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        else:
            depth -= 1
    return deepest


MATCH_FORMAT = "hearts-match"
HAND_FORMAT = "hearts-hand"
VERSION = 1


def _cards(cards: Sequence[Card]) -> list[str]:
    return [c.text for c in cards]


def _by_seat(values: Sequence[Sequence[Card] | None]) -> dict[str, list[str]]:
    return {s.key: _cards(v) for s, v in zip(SEATS, values) if v is not None}


def _hand_body(hand: Hand, with_deal: bool) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if with_deal:
        body["deal"] = _by_seat(hand.deal)
    if hand.pass_direction is not PassDirection.HOLD:
        body["passes"] = _by_seat(hand.passes)
    body["plays"] = _cards(hand.plays)
    if hand.result is not None:
        body["points"] = list(hand.result.points)
    return body


def match_to_record(match: Match) -> dict[str, Any]:
    record: dict[str, Any] = {"format": MATCH_FORMAT, "version": VERSION, "rules": match.rules.to_dict()}
    if match.seed is not None:
        record["seed"] = match.seed
    if match.max_hands is not None:
        record["max_hands"] = match.max_hands
    if match.first_hand:
        record["earlier"] = sheet_to_list(match.score_sheet[: match.first_hand])
    record["hands"] = [_hand_body(h, match.seed is None) for h in match.hands]
    return record


def hand_to_record(hand: Hand, seed: str | None = None) -> dict[str, Any]:
    """A standalone hand. Give ``seed`` when the deal came from :func:`deal_from_seed`."""
    record: dict[str, Any] = {"format": HAND_FORMAT, "version": VERSION, "rules": hand.rules.to_dict()}
    if seed is not None:
        if deal_from_seed(seed) != hand.deal:
            raise ValueError("the hand was not dealt from that seed")
        record["seed"] = seed
    record["pass_direction"] = hand.pass_direction.value
    record["hand_number"] = hand.hand_number
    record["scores_before"] = list(hand.scores_before)
    record.update(_hand_body(hand, seed is None))
    return record


# --------------------------------------------------------------------- loading
def _fail(code: ErrorCode, step: str, message: str, **details: Any) -> RecordError:
    return RecordError(code, f"{step}: {message}" if step else message, step=step, **details)


def _header(data: Any, expected: tuple[str, ...]) -> Rules:
    if not isinstance(data, Mapping):
        raise _fail(ErrorCode.BAD_FIELD, "", "a record must be a JSON object")
    fmt = data.get("format")
    if fmt not in expected:
        raise _fail(ErrorCode.UNKNOWN_FORMAT, "format", f"unknown record format {fmt!r}", format=fmt)
    if data.get("version") != VERSION:
        raise _fail(
            ErrorCode.UNSUPPORTED_VERSION,
            "version",
            f"unsupported version {data.get('version')!r} (this engine reads {VERSION})",
            version=data.get("version"),
        )
    try:
        return Rules.from_dict(data.get("rules", {}))
    except ValueError as exc:
        raise _fail(ErrorCode.BAD_RULES, "rules", str(exc)) from None


def _card_list(value: Any, step: str) -> list[Card]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(ErrorCode.BAD_FIELD, step, "expected a list of card texts")
    out = []
    for i, text in enumerate(value):
        try:
            out.append(Card.parse(text))
        except ValueError as exc:
            raise _fail(ErrorCode.BAD_FIELD, f"{step}[{i}]", str(exc)) from None
    return out


def _seat_map(value: Any, step: str) -> dict[Seat, list[Card]]:
    if not isinstance(value, Mapping):
        raise _fail(ErrorCode.BAD_FIELD, step, "expected an object keyed by seat")
    out: dict[Seat, list[Card]] = {}
    for key, cards in value.items():
        try:
            seat = Seat.parse(key)
        except ValueError as exc:
            raise _fail(ErrorCode.BAD_FIELD, f"{step}.{key}", str(exc)) from None
        out[seat] = _card_list(cards, f"{step}.{seat.key}")
    return out


def _deal(body: Mapping[str, Any], step: str) -> Deal:
    hands = _seat_map(body.get("deal"), f"{step}.deal")
    if set(hands) != set(SEATS):
        raise _fail(ErrorCode.BAD_DEAL, f"{step}.deal", "a deal needs all four seats")
    try:
        return validate_deal([hands[s] for s in SEATS])
    except ValueError as exc:
        raise _fail(ErrorCode.BAD_DEAL, f"{step}.deal", str(exc)) from None


def _replay_hand(hand: Hand, body: Mapping[str, Any], step: str, on_play: Any = None) -> None:
    """Apply a hand body's passes and plays to ``hand`` (``on_play`` applies a play, for matches)."""
    if not isinstance(body, Mapping):
        raise _fail(ErrorCode.BAD_FIELD, step, "a hand must be an object")
    passes = body.get("passes")
    if passes is not None:
        chosen = _seat_map(passes, f"{step}.passes")
        for seat in SEATS:
            if seat in chosen:
                try:
                    hand.choose_pass(seat, chosen[seat])
                except IllegalAction as exc:
                    raise RecordError(
                        exc.code,
                        f"{step}.passes.{seat.key}: {exc.message}",
                        step=f"{step}.passes.{seat.key}",
                        cause=exc,
                        **exc.details,
                    ) from None
    plays = _card_list(body.get("plays", []), f"{step}.plays")
    if plays and hand.phase is Phase.PASSING:
        raise _fail(
            ErrorCode.INCOMPLETE_PASSES,
            f"{step}.passes",
            "cards were played before every seat had passed",
            waiting=list(hand.waiting_for_pass),
        )
    play = on_play or hand.play
    for i, card in enumerate(plays):
        if hand.phase is not Phase.PLAYING:
            raise _fail(ErrorCode.EXTRA_PLAYS, f"{step}.plays[{i}]", "more plays than the hand has", card=card)
        turn = hand.turn
        assert turn is not None
        seat = turn
        try:
            play(seat, card)
        except IllegalAction as exc:
            raise RecordError(
                exc.code,
                f"{step}.plays[{i}] ({seat.key} {card.text}): {exc.message}",
                step=f"{step}.plays[{i}]",
                cause=exc,
                **exc.details,
            ) from None
    if "points" in body:
        expected = body["points"]
        actual = list(hand.result.points) if hand.result else None
        if expected != actual:
            raise _fail(
                ErrorCode.BAD_FIELD, f"{step}.points", f"the record says {expected} but the replay scores {actual}"
            )


def _seed(data: Mapping[str, Any]) -> str | None:
    """The record's seed: text (a lone surrogate such as "\\ud800" is not text: no deal comes from it)."""
    seed = data.get("seed")
    if seed is None:
        return None
    if not isinstance(seed, str):
        raise _fail(ErrorCode.BAD_FIELD, "seed", "the seed must be a string")
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        raise _fail(ErrorCode.BAD_FIELD, "seed", "the seed must be text (it holds a lone surrogate)") from None
    return seed


def _earlier(data: Mapping[str, Any], rules: Rules) -> tuple[HandScore, ...]:
    """The score sheet of hands played before the record's match took over (``earlier``): rows
    that add up and do not end the match already."""
    if "earlier" not in data:
        return ()
    try:
        rows = sheet_from_list(data["earlier"])
        Match(rules, seed="check", earlier=rows)
    except ValueError as exc:  # a WireError too
        raise _fail(ErrorCode.BAD_FIELD, "earlier", f"the earlier hands: {exc}") from None
    return rows


def match_from_record(data: Any) -> Match:
    rules = _header(data, (MATCH_FORMAT,))
    seed = _seed(data)
    max_hands = data.get("max_hands")
    if max_hands is not None and (not isinstance(max_hands, int) or isinstance(max_hands, bool) or max_hands < 1):
        raise _fail(ErrorCode.BAD_FIELD, "max_hands", "max_hands must be a positive whole number")
    bodies = data.get("hands")
    if not isinstance(bodies, list) or not bodies:
        raise _fail(ErrorCode.BAD_FIELD, "hands", "a match record needs a non-empty list of hands")
    deals = (
        None
        if seed is not None
        else [_deal(b if isinstance(b, Mapping) else {}, f"hands[{i}]") for i, b in enumerate(bodies)]
    )
    match = Match(rules, seed, deals=deals, max_hands=max_hands, earlier=_earlier(data, rules))
    for i, body in enumerate(bodies):
        step = f"hands[{i}]"
        if i > 0:
            if match.is_over:
                raise _fail(ErrorCode.EXTRA_PLAYS, step, "the record goes on after the match is over")
            if match.phase is not Phase.HAND_OVER:
                raise _fail(ErrorCode.EXTRA_PLAYS, step, "the previous hand is not finished")
            match.next_hand()
        _replay_hand(match.hand, body, step, on_play=match.play)
    return match


def hand_from_record(data: Any) -> Hand:
    rules = _header(data, (HAND_FORMAT,))
    seed = _seed(data)
    if seed is not None:
        deal = deal_from_seed(seed)
    else:
        deal = _deal(data, "")
    try:
        direction = PassDirection(data.get("pass_direction", rules.pass_direction(0).value))
    except ValueError:
        raise _fail(
            ErrorCode.BAD_FIELD, "pass_direction", f"unknown pass direction {data.get('pass_direction')!r}"
        ) from None
    number = data.get("hand_number", 0)
    before = data.get("scores_before", [0, 0, 0, 0])
    if not isinstance(number, int) or number < 0:
        raise _fail(ErrorCode.BAD_FIELD, "hand_number", "hand_number must be a whole number")
    if not (isinstance(before, list) and len(before) == 4 and all(isinstance(x, int) for x in before)):
        raise _fail(ErrorCode.BAD_FIELD, "scores_before", "scores_before must be four whole numbers")
    hand = Hand(deal, rules, direction, hand_number=number, scores_before=before)
    _replay_hand(hand, data, "")
    return hand


def load_record(data: Any) -> Match | Hand:
    """Replay a record of either format."""
    if isinstance(data, Mapping) and data.get("format") == HAND_FORMAT:
        return hand_from_record(data)
    return match_from_record(data)


def loads(text: str) -> Match | Hand:
    if json_depth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise RecordError(ErrorCode.NOT_JSON, f"not valid JSON: nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise RecordError(ErrorCode.NOT_JSON, f"not valid JSON: {exc}") from None
    return load_record(data)


def dumps(game: Match | Hand) -> str:
    record = match_to_record(game) if isinstance(game, Match) else hand_to_record(game)
    return json.dumps(record, separators=(",", ":"))
