"""The one decoder of the online table's messages (:mod:`.messages`): :func:`decode` reads a
message for one side (``GUEST_MESSAGES``: what a host may receive, ``HOST_MESSAGES``: what a guest
may receive) and checks every part: the version (the number 2, not ``true``), the type, the
sequence number, each field's type and form, and that nothing else is there. What it accepts
encodes back to the very same JSON data; anything else is a :class:`~.messages.Refusal` that says
why. It never raises.

The views, events, score sheets, actions and rules inside are read with the engine's readers
(:mod:`hearts.wire`, :func:`hearts.action_from_dict`, :meth:`hearts.Rules.from_dict`) and accepted
only in the form the engine writes them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping

from hearts import IllegalAction, Phase, Rules, Seat, action_from_dict, action_to_dict
from hearts.fairdeal import is_token
from hearts.wire import WireError, events_from_list, sheet_from_list, view_from_dict

from ..data.session import Snapshot
from ..data.settings import DIFFICULTIES
from .config import is_public_key
from .messages import (
    ANSWERS,
    REACTIONS,
    SEAT_KINDS,
    TIMER_CHOICES,
    VERSION,
    Act,
    Again,
    Back,
    Bye,
    Claim,
    Closed,
    Commit,
    Contrib,
    Envelope,
    GuestMessage,
    Heir,
    Heirs,
    Hello,
    HostMessage,
    HostProof,
    Lobby,
    LobbySeat,
    M,
    Message,
    Ping,
    Probe,
    React,
    Reacted,
    Refusal,
    Refused,
    Rematch,
    Reveal,
    Sit,
    State,
    Succession,
    Turn,
    Version,
    Welcome,
    same_json,
    snapshot_to_data,
)

__all__ = [
    "decode",
    "decode_chain",
    "GUEST_MESSAGES",
    "HOST_MESSAGES",
    "AT_HOST",
    "ALL_MESSAGES",
    "Reader",
    "Fields",
    "snapshot_from_data",
]

_HEX = frozenset("0123456789abcdef")
_NAME = re.compile(r"[a-z_]{1,40}")  # a reason code or a preset name
_SIGNATURE = re.compile(r"[A-Za-z0-9_-]{16,200}")  # base64url (ECDSA P-256: 86 characters)


class _Bad(Exception):
    """A field that is not what the protocol says (the message is refused with this reason)."""


class Fields:
    """The fields of one message, each taken once with its type checked."""

    def __init__(self, data: Mapping[str, object]) -> None:
        self._data = dict(data)

    def _take(self, name: str) -> object:
        if name not in self._data:
            raise _Bad(f"no {name}")
        return self._data.pop(name)

    def text(self, name: str, most: int = 64) -> str:
        value = self._take(name)
        if not isinstance(value, str) or len(value) > most:
            raise _Bad(f"{name} is not a text of at most {most} characters")
        return value

    def whole(self, name: str, low: int = 0, high: int = 10**6) -> int:
        value = self._take(name)
        if type(value) is not int or not low <= value <= high:
            raise _Bad(f"{name} is not a whole number from {low} to {high}")
        return value

    def flag(self, name: str) -> bool:
        value = self._take(name)
        if not isinstance(value, bool):
            raise _Bad(f"{name} is not true or false")
        return value

    def seat(self, name: str) -> Seat:
        return _seat(self._take(name), name)

    def token(self, name: str, optional: bool = False) -> str | None:
        value = self._take(name)
        if value is None and optional:
            return None
        if not is_token(value):
            raise _Bad(f"{name} is not a token")
        assert isinstance(value, str)
        return value

    def raw(self, name: str) -> object:
        return self._take(name)

    def four(self, name: str, ok: Callable[[object], bool]) -> list[object]:
        """A list of four values, one per seat, each one that ``ok`` accepts."""
        value = self._take(name)
        if not isinstance(value, list) or len(value) != 4 or not all(ok(v) for v in value):
            raise _Bad(f"{name} is not four values of its kind")
        return value

    def choice(self, name: str, allowed: tuple[str, ...]) -> str:
        value = self._take(name)
        if not isinstance(value, str) or value not in allowed:
            raise _Bad(f"{name} is not one of {', '.join(allowed)}")
        return value

    def done(self) -> None:
        if self._data:
            raise _Bad(f"unexpected field {sorted(self._data)[0][:20]!r}")


def _seat(value: object, name: str) -> Seat:
    if not isinstance(value, str) or value not in ("south", "west", "north", "east"):
        raise _Bad(f"{name} is not a seat")
    return Seat.parse(value)


def _exactly(data: object, written: object, what: str) -> None:
    """``data`` must be what the engine writes for the value read from it."""
    if not same_json(data, written):
        raise _Bad(f"{what} is not in the form the engine writes")


def _action(f: Fields) -> Act:
    raw = f.raw("action")
    try:
        action = action_from_dict(raw)
    except IllegalAction as exc:
        raise _Bad(f"bad action: {exc.code.value}") from None
    _exactly(raw, action_to_dict(action), "the action")
    return Act(action)


def snapshot_from_data(data: object) -> Snapshot:
    """The snapshot of :func:`snapshot_to_data`'s output; :class:`~hearts.wire.WireError` otherwise."""
    if not isinstance(data, dict) or set(data) != {"view", "totals", "sheet", "winners", "phase"}:
        raise WireError("a snapshot is an object with view, totals, sheet, winners and phase")
    totals = data["totals"]
    if not (isinstance(totals, list) and len(totals) == 4 and all(type(x) is int for x in totals)):
        raise WireError("totals are four numbers")
    winners = data["winners"]
    if not isinstance(winners, list) or len(winners) > 4:
        raise WireError("winners are seats")
    try:
        phase = Phase(data["phase"])
        seats = tuple(_seat(w, "a winner") for w in winners)
    except (ValueError, _Bad) as exc:
        raise WireError(str(exc)) from None
    t0, t1, t2, t3 = totals
    snap = Snapshot(view_from_dict(data["view"]), (t0, t1, t2, t3), sheet_from_list(data["sheet"]), seats, phase)
    if not same_json(data, snapshot_to_data(snap)):
        raise WireError("the snapshot is not in the form the engine writes")
    return snap


def _state(f: Fields) -> State:
    snap_data, events_data = f.raw("snap"), f.raw("events")
    try:
        snap = snapshot_from_data(snap_data)
        events = events_from_list(events_data)
    except WireError as exc:
        raise _Bad(f"bad state: {exc}") from None
    _exactly(events_data, [e.to_dict() for e in events], "the events")
    return State(snap, events)


def _lobby(f: Fields) -> Lobby:
    seats_data = f.raw("seats")
    if not isinstance(seats_data, list) or len(seats_data) != 4:
        raise _Bad("a lobby lists four seats")
    seats = []
    for item in seats_data:
        if not isinstance(item, dict):
            raise _Bad("a lobby seat is an object")
        s = Fields(item)
        seat, kind, name = s.seat("seat"), s.text("kind"), s.text("name")
        s.done()
        if kind not in SEAT_KINDS:
            raise _Bad(f"unknown seat kind {kind[:12]!r}")
        seats.append(LobbySeat(seat, kind, name))
    started = f.flag("started")
    rules_data = f.raw("rules")
    if not isinstance(rules_data, dict) or not isinstance(rules_data.get("preset"), str):
        raise _Bad("the rules are an object with a preset")
    preset = str(rules_data["preset"])
    if not _NAME.fullmatch(preset):
        raise _Bad("the preset is not a name")
    options = {k: v for k, v in rules_data.items() if k != "preset"}
    try:
        rules = Rules.from_dict(options)
    except (ValueError, TypeError) as exc:
        raise _Bad(f"bad rules: {str(exc)[:60]}") from None
    _exactly(options, rules.to_dict(), "the rules")
    level = f.text("level")
    if level not in DIFFICULTIES:
        raise _Bad(f"unknown level {level[:12]!r}")
    return Lobby(tuple(seats), started, rules, preset, level)


def _refused(f: Fields) -> Refused:
    what, code = f.text("what"), f.text("code", 40)
    if what not in ("act", "sit") or not _NAME.fullmatch(code):
        raise _Bad("a refusal names act or sit and a code")
    return Refused(what, code)


def _commit(f: Fields) -> Commit:
    hand, digest = f.whole("hand"), f.text("hash")
    if len(digest) != 64 or not set(digest) <= _HEX:
        raise _Bad("a commitment is 64 hex digits")
    return Commit(hand, digest)


def _reveal(f: Fields) -> Reveal:
    hand, secret = f.whole("hand"), f.token("secret")
    parts = f.raw("contributions")
    if not isinstance(parts, list) or len(parts) != 4 or not all(p == "" or is_token(p) for p in parts):
        raise _Bad("a reveal lists four contributions")
    assert secret is not None
    c0, c1, c2, c3 = (str(p) for p in parts)
    return Reveal(hand, secret, (c0, c1, c2, c3))


def _hello(f: Fields) -> Hello:
    token, name = f.token("token", optional=True), f.text("name")
    key, proof = f.raw("key"), f.raw("proof")
    if not (key is None or is_public_key(key)) or not (proof is None or _is_signature(proof)):
        raise _Bad("a hello's key and proof are a public key and a signature, or null")
    return Hello(token, name, key if isinstance(key, str) else None, proof if isinstance(proof, str) else None)


def _is_signature(value: object) -> bool:
    return isinstance(value, str) and bool(_SIGNATURE.fullmatch(value))


def _signature(f: Fields, name: str) -> str:
    value = f.raw(name)
    if not _is_signature(value):
        raise _Bad(f"{name} is not a signature")
    assert isinstance(value, str)
    return value


def _heirs(data: object) -> tuple[Heir, ...]:
    if not isinstance(data, list) or len(data) > 3:
        raise _Bad("heirs are a list of at most three seats")
    heirs: list[Heir] = []
    for item in data:
        if not isinstance(item, dict):
            raise _Bad("an heir is an object")
        h = Fields(item)
        seat, key = h.seat("seat"), h.raw("key")
        h.done()
        if not is_public_key(key) or seat in (x.seat for x in heirs):
            raise _Bad("an heir is a seat (once) and a public key")
        assert isinstance(key, str)
        heirs.append(Heir(seat, key))
    return tuple(heirs)


def _chain(data: object) -> tuple[Succession, ...]:
    if not isinstance(data, list) or len(data) > 8:
        raise _Bad("a chain is a list of at most eight passings-on")
    chain: list[Succession] = []
    for item in data:
        if not isinstance(item, dict):
            raise _Bad("a passing-on is an object")
        c = Fields(item)
        term, seat, key = c.whole("term", 2, 9), c.seat("seat"), c.raw("key")
        heirs, heirs_sig, sig = _heirs(c.raw("heirs")), _signature(c, "heirs_sig"), _signature(c, "sig")
        c.done()
        if not is_public_key(key):
            raise _Bad("a passing-on names a public key")
        assert isinstance(key, str)
        chain.append(Succession(term, seat, key, heirs, heirs_sig, sig))
    return tuple(chain)


def decode_chain(data: object) -> tuple[Succession, ...] | None:
    """A chain of passings-on as :func:`~.messages.chain_to_data` writes it; ``None`` otherwise."""
    try:
        return _chain(data)
    except _Bad:
        return None


def _host_proof(f: Fields) -> HostProof:
    return HostProof(_signature(f, "sig"), _chain(f.raw("chain")))


def _heirs_message(f: Fields) -> Heirs:
    return Heirs(f.whole("term", 1, 9), _heirs(f.raw("heirs")), _signature(f, "sig"))


def _contrib(f: Fields) -> Contrib:
    hand, value = f.whole("hand"), f.token("value")
    assert value is not None
    return Contrib(hand, value)


def _welcome(f: Fields) -> Welcome:
    seat, token, name = f.seat("seat"), f.token("token"), f.text("name")
    assert token is not None
    return Welcome(seat, token, name)


def _turn(f: Fields) -> Turn:
    limit = f.whole("limit", 0, max(TIMER_CHOICES))
    if limit not in TIMER_CHOICES:
        raise _Bad("the timer's limit is not one of its choices")
    left = f.four("left", lambda v: v is None or (type(v) is int and 0 <= v <= 1000 * limit))
    a, b, c, d = (v if isinstance(v, int) else None for v in left)
    w, x, y, z = (v is True for v in f.four("auto", lambda v: isinstance(v, bool)))
    return Turn(limit, (a, b, c, d), (w, x, y, z))


def _rematch(f: Fields) -> Rematch:
    a, b, c, d = (str(v) for v in f.four("answers", lambda v: v in ANSWERS))
    return Rematch((a, b, c, d))


Reader = Callable[[Fields], M]
GUEST_MESSAGES: dict[str, Reader[GuestMessage]] = {
    "probe": lambda f: Probe(),
    "hello": _hello,
    "sit": lambda f: Sit(f.seat("seat"), f.text("name")),
    "act": _action,
    "contrib": _contrib,
    "ping": lambda f: Ping(),
    "bye": lambda f: Bye(),
    "back": lambda f: Back(),
    "react": lambda f: React(f.choice("code", REACTIONS)),
    "again": lambda f: Again(),
    "claim": lambda f: Claim(_chain(f.raw("chain"))),
}
HOST_MESSAGES: dict[str, Reader[HostMessage]] = {
    "host": _host_proof,
    "lobby": _lobby,
    "heirs": _heirs_message,
    "claim": lambda f: Claim(_chain(f.raw("chain"))),
    "welcome": _welcome,
    "state": _state,
    "refused": _refused,
    "commit": _commit,
    "reveal": _reveal,
    "ping": lambda f: Ping(),
    "closed": lambda f: Closed(),
    "version": lambda f: Version(f.whole("need")),
    "turn": _turn,
    "reacted": lambda f: Reacted(f.seat("seat"), f.choice("code", REACTIONS)),
    "rematch": _rematch,
}
# what a host may receive: a guest's messages, and another host's proof (a guest who carried this
# table on while this host was away, or a rival heir)
AT_HOST: dict[str, Reader[GuestMessage | HostProof]] = {**GUEST_MESSAGES, "host": _host_proof}
ALL_MESSAGES: dict[str, Reader[Message]] = {**GUEST_MESSAGES, **HOST_MESSAGES}


_CHAIN_TYPES = frozenset({"claim", "host"})  # the messages that carry the chain of passings-on


def decode(
    raw: object, readers: Mapping[str, Reader[M]], limit: int = 1 << 20, chain_limit: int = 0
) -> Envelope[M] | Refusal:
    """One message of the types ``readers`` knows, checked through and through: at most ``limit``
    characters, or at most ``chain_limit`` for a message that carries a chain (``_CHAIN_TYPES``)."""
    if not isinstance(raw, str):
        return Refusal("not text")
    if len(raw) > max(limit, chain_limit):
        return Refusal(f"oversized ({len(raw)} characters)")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return Refusal("not JSON")
    if not isinstance(data, dict):
        return Refusal("not an object")
    version = data.get("v")
    if type(version) is not int or version != VERSION:
        return Refusal(f"version {str(version)[:8]}", other_version=True)
    kind = data.get("t")
    reader = readers.get(kind) if isinstance(kind, str) else None
    if reader is None:
        return Refusal(f"unknown type {str(kind)[:16]!r}")
    if len(raw) > limit and kind not in _CHAIN_TYPES:
        return Refusal(f"oversized ({len(raw)} characters)")
    seq = data.get("seq")
    if type(seq) is not int or not 0 <= seq < 2**53:
        return Refusal("no sequence number")
    fields = Fields({k: v for k, v in data.items() if k not in ("v", "t", "seq")})
    try:
        message = reader(fields)
        fields.done()
    except _Bad as exc:
        return Refusal(f"malformed {kind}: {exc}")
    return Envelope(seq, message)
