"""The online table's messages, version 2: each one a frozen dataclass, and the one encoder.

On the wire a message is the JSON object ``{"v": 2, "t": <type>, "seq": <n>, ...fields}`` (the
fields are listed in docs/online.md). :func:`encode` writes it; the one decoder,
:func:`.decoder.decode`, reads it back for one side and checks every part: what it accepts
encodes back to the very same JSON data (:func:`same_json`), anything else is a :class:`Refusal`.
A side dispatches on its union (:data:`GuestMessage` for the host, :data:`HostMessage` for a guest)
with a ``match``, so mypy sees every message that side can receive.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar, assert_never

from hearts import Action, Event, Rules, Seat, action_to_dict
from hearts.wire import sheet_to_list, view_to_dict

from ..data.session import Snapshot

__all__ = [
    "VERSION",
    "Probe",
    "Hello",
    "Sit",
    "Act",
    "Contrib",
    "Ping",
    "Bye",
    "Back",
    "React",
    "Again",
    "HostProof",
    "LobbySeat",
    "Lobby",
    "Welcome",
    "State",
    "Refused",
    "Commit",
    "Reveal",
    "Closed",
    "Version",
    "Turn",
    "Reacted",
    "Rematch",
    "Heir",
    "Heirs",
    "Succession",
    "Claim",
    "GuestMessage",
    "HostMessage",
    "Message",
    "Envelope",
    "Refusal",
    "encode",
    "to_data",
    "same_json",
    "snapshot_to_data",
    "heirs_to_data",
    "chain_to_data",
    "SEAT_KINDS",
    "REACTIONS",
    "TIMER_CHOICES",
    "ANSWERS",
    "M",
]

VERSION = 2
# "free": a bot plays it and a person may sit there; "joining": a person sat down during the match
# and plays it from the next hand (a bot plays it until then)
SEAT_KINDS = ("local", "bot", "remote", "free", "joining")
REACTIONS = ("thumbs", "wow", "phew", "party", "gg")  # the quick reactions (no free text)
TIMER_CHOICES = (0, 30, 60, 120)  # the turn timer's limits in seconds (0: off)
ANSWERS = ("host", "asked", "yes", "bot")  # a seat's answer to a rematch: "bot" plays it in the new match


# ------------------------------------------------------------------ guest -> host
@dataclass(frozen=True)
class Probe:
    """Who is the host? (answered by :class:`HostProof`)."""

    TYPE: ClassVar[str] = "probe"


@dataclass(frozen=True)
class Hello:
    """On every connection; a known seat ``token`` claims that seat back. ``key``: the guest's
    public key (an heir of the table, see :class:`Heirs`); ``proof``: its signature of
    :func:`~.protocol.seat_proof_text`, which claims the seat of that key at a table carried on
    by another host (whom the seat token means nothing to)."""

    TYPE: ClassVar[str] = "hello"
    token: str | None
    name: str
    key: str | None = None
    proof: str | None = None


@dataclass(frozen=True)
class Sit:
    TYPE: ClassVar[str] = "sit"
    seat: Seat
    name: str


@dataclass(frozen=True)
class Act:
    TYPE: ClassVar[str] = "act"
    action: Action


@dataclass(frozen=True)
class Contrib:
    """The guest's share of the next deal (``value``: a random hex token)."""

    TYPE: ClassVar[str] = "contrib"
    hand: int
    value: str


@dataclass(frozen=True)
class Ping:
    """A heartbeat (both ways)."""

    TYPE: ClassVar[str] = "ping"


@dataclass(frozen=True)
class Bye:
    TYPE: ClassVar[str] = "bye"


@dataclass(frozen=True)
class Back:
    """The guest takes its seat back from the bot that played for it (the turn timer)."""

    TYPE: ClassVar[str] = "back"


@dataclass(frozen=True)
class React:
    """A quick reaction (one of :data:`REACTIONS`)."""

    TYPE: ClassVar[str] = "react"
    code: str


@dataclass(frozen=True)
class Again:
    """The guest plays the rematch the host offered."""

    TYPE: ClassVar[str] = "again"


# ------------------------------------------------------------------ host -> guest
@dataclass(frozen=True)
class HostProof:
    """The signature that proves the host (see docs/online.md); ``chain``: how the table passed
    from the link's host to this one (empty for the link's own host)."""

    TYPE: ClassVar[str] = "host"
    sig: str
    chain: tuple[Succession, ...] = ()


@dataclass(frozen=True)
class Heir:
    """A guest who may carry the table on: its seat and its public key."""

    seat: Seat
    key: str


@dataclass(frozen=True)
class Heirs:
    """The seated guests who may carry the table on if its host is gone, signed by the host of
    ``term`` (:func:`~.protocol.heirs_text`)."""

    TYPE: ClassVar[str] = "heirs"
    term: int
    heirs: tuple[Heir, ...]
    sig: str


@dataclass(frozen=True)
class Succession:
    """One passing-on of the table: the guest at ``seat`` (as the previous host numbered the
    seats), holding ``key``, hosts ``term``. ``heirs`` and ``heirs_sig`` are the previous host's
    signed list that names it; ``sig`` is its own signature of :func:`~.protocol.claim_text`."""

    term: int
    seat: Seat
    key: str
    heirs: tuple[Heir, ...]
    heirs_sig: str
    sig: str


@dataclass(frozen=True)
class Claim:
    """ "I host this table now": sent by a guest who carries the table on (to every peer), and by
    a guest to a former host who comes back. ``chain``: every passing-on since the link's host."""

    TYPE: ClassVar[str] = "claim"
    chain: tuple[Succession, ...]


@dataclass(frozen=True)
class LobbySeat:
    seat: Seat
    kind: str  # one of SEAT_KINDS
    name: str


@dataclass(frozen=True)
class Lobby:
    TYPE: ClassVar[str] = "lobby"
    seats: tuple[LobbySeat, ...]
    started: bool
    rules: Rules
    preset: str
    level: str


@dataclass(frozen=True)
class Welcome:
    TYPE: ClassVar[str] = "welcome"
    seat: Seat
    token: str
    name: str


@dataclass(frozen=True)
class State:
    """The table after an action: the guest's seat's snapshot and the events it may see."""

    TYPE: ClassVar[str] = "state"
    snap: Snapshot
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Refused:
    TYPE: ClassVar[str] = "refused"
    what: str  # "act" or "sit"
    code: str  # an engine code such as "must_follow_suit", or "seat_taken"


@dataclass(frozen=True)
class Commit:
    TYPE: ClassVar[str] = "commit"
    hand: int
    hash: str


@dataclass(frozen=True)
class Reveal:
    TYPE: ClassVar[str] = "reveal"
    hand: int
    secret: str
    contributions: tuple[str, str, str, str]  # "" for a seat without one


@dataclass(frozen=True)
class Closed:
    TYPE: ClassVar[str] = "closed"


@dataclass(frozen=True)
class Version:
    """The sender speaks version ``need``: the page says to reload."""

    TYPE: ClassVar[str] = "version"
    need: int


@dataclass(frozen=True)
class Turn:
    """The turn timer: its ``limit`` (seconds, 0: off), per seat the milliseconds left to act
    (``None``: the table does not wait for that person) and whether a bot plays for it."""

    TYPE: ClassVar[str] = "turn"
    limit: int
    left: tuple[int | None, int | None, int | None, int | None]
    auto: tuple[bool, bool, bool, bool]


@dataclass(frozen=True)
class Reacted:
    """A player's reaction, shown at that player's seat."""

    TYPE: ClassVar[str] = "reacted"
    seat: Seat
    code: str


@dataclass(frozen=True)
class Rematch:
    """The host offers a new match: each seat's answer so far (one of :data:`ANSWERS`)."""

    TYPE: ClassVar[str] = "rematch"
    answers: tuple[str, str, str, str]


GuestMessage = Probe | Hello | Sit | Act | Contrib | Ping | Bye | Back | React | Again | Claim
HostMessage = (
    HostProof
    | Lobby
    | Welcome
    | State
    | Refused
    | Commit
    | Reveal
    | Ping
    | Closed
    | Version
    | Turn
    | Reacted
    | Rematch
    | Heirs
    | Claim
)
Message = GuestMessage | HostMessage
M = TypeVar("M", bound=Message)


@dataclass(frozen=True)
class Envelope(Generic[M]):
    """A decoded message and its sequence number."""

    seq: int
    message: M


@dataclass(frozen=True)
class Refusal:
    """A message that was not accepted, and why (for the log). ``other_version``: the sender
    speaks another version of the protocol."""

    reason: str
    other_version: bool = False


# ------------------------------------------------------------------ encoding
def snapshot_to_data(snap: Snapshot) -> dict[str, object]:
    return {
        "view": view_to_dict(snap.view),
        "totals": list(snap.totals),
        "sheet": sheet_to_list(snap.sheet),
        "winners": [s.key for s in snap.winners],
        "phase": snap.phase.value,
    }


def heirs_to_data(heirs: tuple[Heir, ...]) -> list[dict[str, object]]:
    return [{"seat": h.seat.key, "key": h.key} for h in heirs]


def chain_to_data(chain: tuple[Succession, ...]) -> list[dict[str, object]]:
    return [
        {
            "term": s.term,
            "seat": s.seat.key,
            "key": s.key,
            "heirs": heirs_to_data(s.heirs),
            "heirs_sig": s.heirs_sig,
            "sig": s.sig,
        }
        for s in chain
    ]


def _fields(message: Message) -> dict[str, object]:
    match message:
        case Probe() | Ping() | Bye() | Closed() | Back() | Again():
            return {}
        case React(code):
            return {"code": code}
        case Turn(limit, left, auto):
            return {"limit": limit, "left": list(left), "auto": list(auto)}
        case Reacted(seat, code):
            return {"seat": seat.key, "code": code}
        case Rematch(answers):
            return {"answers": list(answers)}
        case Hello(token, name, key, proof):
            return {"token": token, "name": name, "key": key, "proof": proof}
        case Sit(seat, name):
            return {"seat": seat.key, "name": name}
        case Act(action):
            return {"action": action_to_dict(action)}
        case Contrib(hand, value):
            return {"hand": hand, "value": value}
        case HostProof(sig, chain):
            return {"sig": sig, "chain": chain_to_data(chain)}
        case Heirs(term, heirs, sig):
            return {"term": term, "heirs": heirs_to_data(heirs), "sig": sig}
        case Claim(chain):
            return {"chain": chain_to_data(chain)}
        case Lobby(seats, started, rules, preset, level):
            return {
                "seats": [{"seat": s.seat.key, "kind": s.kind, "name": s.name} for s in seats],
                "started": started,
                "rules": dict(rules.to_dict(), preset=preset),
                "level": level,
            }
        case Welcome(seat, token, name):
            return {"seat": seat.key, "token": token, "name": name}
        case State(snap, events):
            return {"snap": snapshot_to_data(snap), "events": [e.to_dict() for e in events]}
        case Refused(what, code):
            return {"what": what, "code": code}
        case Commit(hand, hash_):
            return {"hand": hand, "hash": hash_}
        case Reveal(hand, secret, contributions):
            return {"hand": hand, "secret": secret, "contributions": list(contributions)}
        case Version(need):
            return {"need": need}
        case _:
            assert_never(message)


def to_data(message: Message, seq: int) -> dict[str, object]:
    return {"v": VERSION, "t": message.TYPE, "seq": seq, **_fields(message)}


def encode(message: Message, seq: int) -> str:
    return json.dumps(to_data(message, seq), separators=(",", ":"))


def same_json(a: object, b: object) -> bool:
    """Equal as JSON data, types included: ``true`` is not ``1`` and ``1.0`` is not ``1``."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b))
    return a == b
