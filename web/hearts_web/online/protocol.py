"""Online table protocol, version 2: how a peer's text is admitted before anything acts on it.

The messages themselves, their fields and the one decoder and encoder are :mod:`.messages`. Here:
the size limits, a token-bucket rate limit per peer, a strictly rising sequence number per
sender (:class:`PeerCheck`), display names, and the text the host signs to prove itself. A bad
message becomes a :class:`~.messages.Refusal` with the reason; it never raises.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from hearts import Seat

from .decoder import Reader, decode
from .messages import Envelope, Heir, M, Refusal

__all__ = [
    "MAX_GUEST_MESSAGE",
    "MAX_CHAIN_MESSAGE",
    "MAX_HOST_MESSAGE",
    "NAME_LIMIT",
    "RateLimit",
    "PeerCheck",
    "clean_name",
    "host_proof_text",
    "seat_proof_text",
    "heirs_text",
    "claim_text",
    "worth_logging",
]

MAX_GUEST_MESSAGE = 2048  # characters: a guest never needs more (an action, a name)...
# ...except for the messages that carry the chain of passings-on (a claim, another host's proof):
# about 660 characters a passing-on with three heirs, so a table passed on 3 times is over 2,048
MAX_CHAIN_MESSAGE = 8191
MAX_HOST_MESSAGE = 262144  # a table state with a long score sheet stays far below
NAME_LIMIT = 20


def clean_name(raw: object) -> str | None:
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
        self.refused = 0  # how many it has refused

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            self.refused += 1
            return False
        self.tokens -= 1
        return True


@dataclass
class PeerCheck:
    """Per-peer admission, the one door of a peer's text: the rate limit, then the decoder (the size
    first), then a strictly rising sequence number per sender (a peer that was a guest and now
    hosts a table numbers its host messages afresh: ``sender`` tells the two apart)."""

    limit: RateLimit = field(default_factory=RateLimit)
    last_seq: dict[str, int] = field(default_factory=dict)
    dropped: int = 0

    def admit(
        self,
        raw: object,
        readers: Mapping[str, Reader[M]],
        size: int,
        chain_size: int = 0,
        sender: Callable[[M], str] = lambda message: "",
    ) -> Envelope[M] | Refusal:
        """``size``: the longest message; ``chain_size``: the longest that carries a chain (see :func:`decode`)."""
        if not self.limit.allow():
            result: Envelope[M] | Refusal = Refusal("rate limit")
        else:
            result = decode(raw, readers, size, chain_size)
            if isinstance(result, Envelope):
                who = sender(result.message)
                last = self.last_seq.get(who, -1)
                if result.seq <= last:
                    result = Refusal(f"replayed or out of order (seq {result.seq} after {last})")
                else:
                    self.last_seq[who] = result.seq
        if isinstance(result, Refusal):
            self.dropped += 1
        return result


def worth_logging(count: int) -> bool:
    """Log a flood's drops at the 1st, 10th, 100th…: enough to see it, never a flood of lines."""
    return str(count).strip("0") == "1"


def host_proof_text(room: str, host_peer: str, guest_peer: str) -> str:
    """What the host signs for one guest: it proves that ``host_peer`` holds the key of the link
    (or, at a table carried on by a guest, the key its chain of passings-on ends with)."""
    return f"hearts-host-v1:{room}:{host_peer}:{guest_peer}"


def seat_proof_text(room: str, host_peer: str, guest_peer: str) -> str:
    """What a guest signs with its own key to claim its seat at a host that knows the key, not
    the seat token: the host that carries a table on, or a former host who comes back as a guest."""
    return f"hearts-seat-v2:{room}:{host_peer}:{guest_peer}"


def heirs_text(room: str, term: int, heirs: Sequence[Heir]) -> str:
    """What the host of ``term`` signs: the guests who may carry the table on."""
    return f"hearts-heirs-v2:{room}:{term}:" + ",".join(f"{h.seat.key}={h.key}" for h in heirs)


def claim_text(room: str, term: int, seat: Seat, key: str) -> str:
    """What a guest signs when it carries the table on as the host of ``term``."""
    return f"hearts-claim-v2:{room}:{term}:{seat.key}:{key}"
