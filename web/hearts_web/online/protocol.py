"""Online table protocol, version 1: JSON text messages between the host and its guests.

Every message is an object ``{"v": 1, "t": <type>, "seq": <n>, ...}``. Guests send ``hello``,
``sit``, ``act``, ``contrib`` and ``ping``; the host sends ``lobby``, ``welcome``, ``state``,
``refused``, ``commit``, ``reveal``, ``ping``, ``closed`` and ``version``. The fields are listed in
``docs/online.md``. Every message from a peer is checked here before anything acts on it: size
(before parsing), rate, JSON shape, version, sequence number, field types. A bad message becomes a
:class:`Drop` with the reason; it never raises.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hearts import Action, IllegalAction, Seat, action_from_dict, action_to_dict
from hearts.fairdeal import is_token
from hearts.phase import Phase
from hearts.wire import WireError, events_from_list, sheet_from_list, sheet_to_list, view_from_dict, view_to_dict

from ..session import Snapshot

__all__ = ["VERSION", "MAX_GUEST_MESSAGE", "MAX_HOST_MESSAGE", "NAME_LIMIT", "Drop", "Message", "RateLimit",
           "PeerCheck", "encode", "parse", "clean_name", "snapshot_to_dict", "snapshot_from_dict", "GUEST_TYPES",
           "HOST_TYPES", "host_proof_text"]

VERSION = 1
MAX_GUEST_MESSAGE = 2048  # characters: a guest never needs more (an action, a name)
MAX_HOST_MESSAGE = 262144  # a table state with a long score sheet stays far below
NAME_LIMIT = 20
GUEST_TYPES = ("hello", "sit", "act", "contrib", "ping", "bye", "probe")
HOST_TYPES = ("lobby", "welcome", "state", "refused", "commit", "reveal", "ping", "closed", "version", "host")


@dataclass(frozen=True)
class Drop:
    """A message that was not accepted, and why (for the log)."""

    reason: str


@dataclass(frozen=True)
class Message:
    type: str
    seq: int
    body: Mapping[str, Any]


def encode(type_: str, seq: int, **fields: Any) -> str:
    return json.dumps({"v": VERSION, "t": type_, "seq": seq, **fields}, separators=(",", ":"))


def clean_name(raw: Any) -> str | None:
    """A display name: printable, trimmed, at most ``NAME_LIMIT`` characters (escaped when shown)."""
    if not isinstance(raw, str):
        return None
    name = " ".join("".join(ch for ch in raw if ch.isprintable()).split())[:NAME_LIMIT]
    return name or None


class RateLimit:
    """A token bucket: ``burst`` messages at once, then ``rate`` per second."""

    def __init__(self, rate: float = 10.0, burst: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.last = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def parse(raw: Any, types: tuple[str, ...], limit: int) -> Message | Drop:
    """One message checked for size, JSON, version and type (the fields are checked by the reader)."""
    if not isinstance(raw, str):
        return Drop("not text")
    if len(raw) > limit:
        return Drop(f"oversized ({len(raw)} characters)")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return Drop("not JSON")
    if not isinstance(data, dict):
        return Drop("not an object")
    if data.get("v") != VERSION:
        return Drop(f"version {str(data.get('v'))[:8]}")
    kind = data.get("t")
    if kind not in types:
        return Drop(f"unknown type {str(kind)[:16]!r}")
    seq = data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 2**53:
        return Drop("no sequence number")
    return Message(kind, seq, data)


@dataclass
class PeerCheck:
    """Per-peer admission: rate limit, then parse, then a strictly rising sequence number."""

    limit: RateLimit = field(default_factory=RateLimit)
    last_seq: int = -1
    dropped: int = 0

    def admit(self, raw: Any, types: tuple[str, ...], size: int) -> Message | Drop:
        if not self.limit.allow():
            result: Message | Drop = Drop("rate limit")
        else:
            result = parse(raw, types, size)
            if isinstance(result, Message):
                if result.seq <= self.last_seq:
                    result = Drop(f"replayed or out of order (seq {result.seq} after {self.last_seq})")
                else:
                    self.last_seq = result.seq
        if isinstance(result, Drop):
            self.dropped += 1
        return result


def host_proof_text(room: str, host_peer: str, guest_peer: str) -> str:
    """What the host signs for one guest: it proves that ``host_peer`` holds the key of the link."""
    return f"hearts-host-v1:{room}:{host_peer}:{guest_peer}"


def read_action(body: Mapping[str, Any]) -> Action | Drop:
    try:
        return action_from_dict(body.get("action"))
    except IllegalAction as exc:
        return Drop(f"bad action: {exc.code.value}")


def read_seat(value: Any) -> Seat | None:
    if isinstance(value, str) and value in ("south", "west", "north", "east"):
        return Seat.parse(value)
    return None


def read_token(value: Any) -> str | None:
    return value if is_token(value) else None


def action_body(action: Action) -> dict[str, Any]:
    return action_to_dict(action)


# ------------------------------------------------------------------ the table state a guest receives
def snapshot_to_dict(snap: Snapshot) -> dict[str, Any]:
    return {"view": view_to_dict(snap.view), "totals": list(snap.totals), "sheet": sheet_to_list(snap.sheet),
            "winners": [s.key for s in snap.winners], "phase": snap.phase.value}


def snapshot_from_dict(data: Any) -> Snapshot:
    """Raises :class:`~hearts.wire.WireError` when malformed."""
    if not isinstance(data, Mapping):
        raise WireError("a snapshot is an object")
    totals = data.get("totals")
    if not (isinstance(totals, list) and len(totals) == 4 and all(isinstance(x, int) and not isinstance(x, bool) for x in totals)):
        raise WireError("totals are four numbers")
    winners = data.get("winners")
    if not isinstance(winners, list) or len(winners) > 4 or any(read_seat(w) is None for w in winners):
        raise WireError("winners are seats")
    try:
        phase = Phase(data.get("phase"))
    except ValueError:
        raise WireError("unknown phase") from None
    return Snapshot(view_from_dict(data.get("view")), tuple(totals),
                    sheet_from_list(data.get("sheet")), tuple(Seat.parse(w) for w in winners), phase)


def read_events(value: Any) -> tuple[Any, ...]:
    return events_from_list(value)
