"""Challenge links: one deal sent to a friend, who plays it against the same bots with the same seeds.

A :class:`Challenge` names a hand of a seeded match (``seed`` and ``hand``, the hand number in
that match), its rules, the bots' level and, optionally, who sends it and how it went for them
(``points`` and the spoiler-free ``markers`` of :func:`hearts.daily.share_markers`).

The **token** (:func:`encode` / :func:`decode`) is URL-safe text: ``1.<payload>.<check>`` where
``1`` is the format version, ``<payload>`` the base64url (no padding) of compact UTF-8 JSON, and
``<check>`` the base64url of the first 6 bytes of SHA-256 over ``"hearts-challenge-v1:" + payload``.
The check catches typos, truncation and a changed character; it is not a signature (anyone can
build a token for any deal and any claimed points). :func:`decode` validates every field and raises
:class:`ChallengeError` (a ``ValueError``) with the reason for anything else, whatever the input.

The payload's keys: ``s`` seed, ``h`` hand, ``r`` the rules options that differ from the
defaults (``Rules.to_dict`` names; ``{}`` for the standard rules), ``l`` level, and when known
``b`` (by), ``p`` (points) and ``m`` (markers, one letter per trick: ``n`` none, ``h`` hearts,
``q`` queen, ``j`` jack).

:func:`challenge_match` is a one-hand match (``max_hands=1``, like the daily game) with exactly
the deal and pass direction of hand ``hand`` of the match dealt from ``seed`` with ``rules``:
it is dealt from :func:`hearts.hand_seed` of the two, and its rules are ``rules`` with the pass
cycle rotated so that the first hand passes the way hand ``hand`` did.
:func:`challenge_rngs` gives the bots the per-decision RNGs the original match's seeded bots
used at the same decision (:func:`hearts.bots.player.decision_rng` of the original seed and
hand number), and :func:`challenge_bot` searches a fixed number of worlds where the game's Hard
searches on a time budget (:data:`CHALLENGE_HARD_WORLDS`), so the same choices by the player give
the same bot play on any machine. A challenge hand starts at 0 : 0 : 0 : 0, so a bot that weighs the
match score (Hard near the target, or a moon under ``shooters_choice``) may decide differently from
the original hand, and the original hand's Hard searched on its time budget: two friends playing one
link face the same bots; the sender's own hand had bots of the same strength, not the same plays.

>>> from hearts import PRESETS
>>> ch = Challenge(seed="2026-11-29", hand=0, rules=PRESETS["standard"], level="medium", points=3,
...                markers=("none", "hearts"))
>>> token = encode(ch)
>>> decode(token) == ch
True
>>> decode(token[:-1])
Traceback (most recent call last):
...
hearts.challenge.ChallengeError: the link is damaged (its check does not match)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import random
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from .bots import LEVELS, Bot, make_bot
from .bots.player import RngSource, decision_rng
from .daily import SHARE_MARKERS
from .match import Match, hand_seed
from .phase import Phase
from .rules import Rules
from .view import SeatView

__all__ = [
    "Challenge",
    "ChallengeError",
    "encode",
    "decode",
    "validate",
    "challenge_rules",
    "challenge_match",
    "challenge_rngs",
    "challenge_bot",
    "challenge_bot_options",
    "compare",
    "CHALLENGE_HARD_WORLDS",
    "TOKEN_VERSION",
    "MAX_TOKEN",
    "MAX_SEED",
    "MAX_BY",
    "MAX_HAND",
    "POINTS_RANGE",
]

TOKEN_VERSION = 1
MAX_TOKEN = 1000  # characters; checked before anything is decoded
MAX_SEED = 64
MAX_BY = 24
MAX_HAND = 9999
POINTS_RANGE = (-36, 26)  # one seat's points in one hand: a moon subtracted and the J♦ .. a moon added
# A challenge's Hard searches this many worlds a play and a pass, whatever the machine: the size the
# game's Hard reaches on the page within its 250 ms, the size its strength is measured at.
CHALLENGE_HARD_WORLDS = (1150, 270)
_CHECK_BYTES = 6
_CHECK_SALT = b"hearts-challenge-v1:"
_SEED = re.compile(r"[\x20-\x7e]+")
_TOKEN = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
_MAX_DEPTH = 4  # {"r": {"pass_cycle": [...]}} is 3 deep
_KEYS = {"s", "h", "r", "l", "b", "p", "m"}
_LETTER = {"none": "n", "hearts": "h", "queen": "q", "jack": "j"}
_MARKER = {v: k for k, v in _LETTER.items()}
_BAD_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Zl", "Zp")  # control, format (bidi), surrogate, private, breaks


class ChallengeError(ValueError):
    """A challenge (or its token) is not valid; the message says why."""


@dataclass(frozen=True)
class Challenge:
    """A deal to send: hand ``hand`` of the match dealt from ``seed`` with ``rules``, against
    bots of ``level``; ``by`` (the sender's name), ``points`` and ``markers`` (their result)
    are optional."""

    seed: str
    hand: int
    rules: Rules
    level: str
    by: str | None = None
    points: int | None = None
    markers: tuple[str, ...] = ()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _text_problem(value: str) -> str | None:
    for ch in value:
        if unicodedata.category(ch) in _BAD_CATEGORIES:
            return f"it holds a control character (U+{ord(ch):04X})"
    return None


def validate(ch: Challenge) -> Challenge:
    """Return ``ch`` if every field is valid, else raise :class:`ChallengeError`."""
    if not isinstance(ch.seed, str) or not 1 <= len(ch.seed) <= MAX_SEED or not _SEED.fullmatch(ch.seed):
        raise ChallengeError(f"the seed must be 1 to {MAX_SEED} printable ASCII characters")
    if not _is_int(ch.hand) or not 0 <= ch.hand <= MAX_HAND:
        raise ChallengeError(f"the hand number must be a whole number from 0 to {MAX_HAND}")
    if not isinstance(ch.rules, Rules):
        raise ChallengeError("rules must be Rules")
    if ch.level not in LEVELS:
        raise ChallengeError(f"unknown bot level {ch.level!r}: use {', '.join(LEVELS)}")
    if ch.by is not None:
        if not isinstance(ch.by, str) or not 1 <= len(ch.by) <= MAX_BY or not ch.by.strip():
            raise ChallengeError(f"the sender's name must be 1 to {MAX_BY} characters")
        problem = _text_problem(ch.by)
        if problem:
            raise ChallengeError(f"bad name: {problem}")
    if ch.points is not None and (not _is_int(ch.points) or not POINTS_RANGE[0] <= ch.points <= POINTS_RANGE[1]):
        raise ChallengeError(f"points must be a whole number from {POINTS_RANGE[0]} to {POINTS_RANGE[1]}")
    if not isinstance(ch.markers, tuple) or len(ch.markers) > 13 or any(m not in SHARE_MARKERS for m in ch.markers):
        raise ChallengeError(f"markers must be at most 13 of {', '.join(SHARE_MARKERS)}")
    return ch


# ----------------------------------------------------------------------------- token
def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _check(payload: str) -> str:
    return _b64(hashlib.sha256(_CHECK_SALT + payload.encode("ascii")).digest()[:_CHECK_BYTES])


def _rules_diff(rules: Rules) -> dict[str, Any]:
    default = Rules().to_dict()
    return {k: v for k, v in rules.to_dict().items() if default[k] != v}


def encode(ch: Challenge) -> str:
    """The URL-safe token of a valid challenge (:class:`ChallengeError` for an invalid one)."""
    validate(ch)
    data: dict[str, Any] = {"s": ch.seed, "h": ch.hand, "r": _rules_diff(ch.rules), "l": ch.level}
    if ch.by is not None:
        data["b"] = ch.by
    if ch.points is not None:
        data["p"] = ch.points
    if ch.markers:
        data["m"] = "".join(_LETTER[m] for m in ch.markers)
    payload = _b64(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    token = f"{TOKEN_VERSION}.{payload}.{_check(payload)}"
    if len(token) > MAX_TOKEN:  # only rules with a very long pass cycle get here
        raise ChallengeError("the challenge is too long for a link")
    return token


def _depth(text: str) -> int:
    """The deepest nesting of ``[``/``{`` in JSON text (outside strings)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _no_constants(name: str) -> Any:
    raise ChallengeError(f"the link holds {name}, which is not a number")


def decode(token: object) -> Challenge:
    """The challenge of a token; :class:`ChallengeError` (never another exception) with the reason
    when the token is damaged, from an unknown version, or holds anything invalid. Any value is
    accepted (a stored token may be missing: ``None`` is refused like any other non-text)."""
    if not isinstance(token, str):
        raise ChallengeError("a challenge token must be text")
    if len(token) > MAX_TOKEN:
        raise ChallengeError(f"the link is too long ({len(token)} characters, at most {MAX_TOKEN})")
    token = token.strip()
    if not token:
        raise ChallengeError("the challenge link is empty")
    if not _TOKEN.fullmatch(token):
        raise ChallengeError("the link is damaged (unexpected characters or parts)")
    version, payload, check = token.split(".")
    if version != str(TOKEN_VERSION):
        raise ChallengeError(f"unsupported challenge version {version!r} (this game reads {TOKEN_VERSION})")
    if check != _check(payload):
        raise ChallengeError("the link is damaged (its check does not match)")
    try:
        text = _unb64(payload).decode("utf-8")
    except (binascii.Error, ValueError):
        raise ChallengeError("the link is damaged (not readable)") from None
    if _depth(text) > _MAX_DEPTH:
        raise ChallengeError("the link's data is nested too deeply")
    try:
        data = json.loads(text, parse_constant=_no_constants)
    except ChallengeError:
        raise
    except (ValueError, RecursionError):
        raise ChallengeError("the link's data is not valid JSON") from None
    return _from_data(data)


def _from_data(data: Any) -> Challenge:
    if not isinstance(data, dict):
        raise ChallengeError("the link's data must be an object")
    unknown = set(data) - _KEYS
    if unknown:
        raise ChallengeError(f"unknown field(s) in the link: {', '.join(sorted(map(str, unknown)))}")
    missing = {"s", "h", "r", "l"} - set(data)
    if missing:
        raise ChallengeError(f"missing field(s) in the link: {', '.join(sorted(missing))}")
    if not isinstance(data["r"], dict):
        raise ChallengeError("the rules must be an object")
    try:
        rules = Rules.from_dict(data["r"])
    except (ValueError, TypeError) as exc:
        raise ChallengeError(f"bad rules: {exc}") from None
    markers = data.get("m", "")
    if not isinstance(markers, str) or any(m not in _MARKER for m in markers):
        raise ChallengeError("markers must be letters n, h, q or j")
    level = data["l"]
    if not isinstance(level, str):
        raise ChallengeError("the level must be text")
    return validate(
        Challenge(
            seed=data["s"],
            hand=data["h"],
            rules=rules,
            level=level,
            by=data.get("b"),
            points=data.get("p"),
            markers=tuple(_MARKER[m] for m in markers),
        )
    )


# ----------------------------------------------------------------------------- the game
def challenge_rules(ch: Challenge) -> Rules:
    """``ch.rules`` with the pass cycle rotated so that hand 0 passes like hand ``ch.hand``."""
    cycle = ch.rules.pass_cycle
    k = ch.hand % len(cycle)
    return ch.rules.replace(pass_cycle=cycle[k:] + cycle[:k])


def challenge_match(ch: Challenge) -> Match:
    """A one-hand match with the deal and pass direction of hand ``ch.hand`` of the match dealt
    from ``ch.seed`` with ``ch.rules``."""
    validate(ch)
    return Match(challenge_rules(ch), seed=hand_seed(ch.seed, ch.hand), max_hands=1)


def challenge_rngs(ch: Challenge) -> RngSource:
    """Per-decision RNGs for the challenge's bots: what the original match's seeded bots
    (:func:`hearts.bots.player.seeded_rngs` of ``ch.seed``) used at the same seat and step of
    hand ``ch.hand``."""
    validate(ch)

    def rng_for(view: SeatView) -> random.Random:
        step: int | str = "pass" if view.phase is Phase.PASSING else view.cards_played
        return decision_rng(ch.seed, ch.hand + view.hand_number, view.seat, step)

    return rng_for


def challenge_bot_options(level: str) -> dict[str, int]:
    """:func:`hearts.bots.make_bot`'s options for a challenge's bots of ``level``: Hard searches
    :data:`CHALLENGE_HARD_WORLDS` worlds (deterministic), Easy and Medium need none."""
    if level != "hard":
        return {}
    play, pass_ = CHALLENGE_HARD_WORLDS
    return {"iterations": play, "pass_iterations": pass_}


def challenge_bot(level: str) -> Bot:
    """A challenge's bot of ``level``: with :func:`challenge_rngs`, the same decisions on any machine."""
    return make_bot(level, **challenge_bot_options(level))


def compare(mine: int, theirs: int) -> int:
    """Who did better on the same deal: -1 ``mine`` (fewer points), 0 a tie, 1 ``theirs``."""
    return (mine > theirs) - (mine < theirs)
