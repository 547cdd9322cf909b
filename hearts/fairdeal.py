"""A deal that every player can check afterwards: commit, contribute, reveal.

The host of an online table knows every card (its engine checks them), but it cannot choose the
deal. Before a hand it commits to a secret (:func:`commitment`), then each guest adds a random
contribution; the deal comes from all of them (:func:`deal_seed`, then
:func:`hearts.deal.deal_from_seed`). After the hand the host reveals its secret and every guest
checks, with :func:`verify`, that the secret matches the commitment, that its own contribution
was used, and that the hand it was dealt is the one the seed gives.

>>> from hearts import deal_from_seed
>>> secret = "6f1c" * 8
>>> seed = deal_seed(secret, ["a1", "", "b2", ""])
>>> verify(commitment(secret), secret, ["a1", "", "b2", ""], seat=0, mine="a1",
...        dealt=deal_from_seed(seed)[0])
True
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

from .cards import Card
from .deal import deal_from_seed

__all__ = ["commitment", "deal_seed", "verify", "is_token"]

_TOKEN = re.compile(r"^[0-9a-f]{8,64}$")


def is_token(text: object) -> bool:
    """A secret or contribution: 8 to 64 lower-case hex digits."""
    return isinstance(text, str) and bool(_TOKEN.match(text))


def commitment(secret: str) -> str:
    return hashlib.sha256(f"hearts-commit-v1:{secret}".encode()).hexdigest()


def deal_seed(secret: str, contributions: Sequence[str]) -> str:
    """The deal seed of a hand: the host's secret and each seat's contribution (``""``: none)."""
    return hashlib.sha256(("hearts-fair-v1:" + secret + ":" + ":".join(contributions)).encode()).hexdigest()


def verify(
    commit: str, secret: str, contributions: Sequence[str], *, seat: int, mine: str, dealt: Sequence[Card]
) -> bool:
    """True when ``secret`` opens ``commit``, ``mine`` is the contribution used for ``seat``, and
    ``dealt`` (the seat's 13 cards before passing) is what the seed deals to that seat."""
    if not is_token(secret) or commitment(secret) != commit or len(contributions) != 4:
        return False
    if contributions[seat] != mine:
        return False
    deal = deal_from_seed(deal_seed(secret, contributions))
    return sorted(deal[seat]) == sorted(dealt)
