"""What the host keeps of its online table, to resume it after a reload (pure): the seats, the
rules, the bots' level, the turn timer, the deals not yet revealed, and for a table it carries on,
the term and the chain of passings-on. What is read back is checked entry by entry; a bad entry
is left out and counted in the repairs (the page says so: ``SavedData.repaired``)."""

from __future__ import annotations

from collections.abc import Mapping

from hearts.fairdeal import is_token

from ..data.store import Repairs
from .config import is_public_key
from .decoder import decode_chain
from .host import HostTable
from .messages import TIMER_CHOICES, chain_to_data
from .protocol import clean_name
from .remote import FairHand

__all__ = ["table_to_dict", "restore_table"]


def table_to_dict(table: HostTable) -> dict[str, object]:
    return {
        "seats": [info.to_dict() for info in table.seats],
        "started": table.started,
        "timer": table.timer.limit,
        "term": table.term,
        "chain": chain_to_data(table.chain),
        "rules": dict(table.rules.to_dict(), preset=table.preset),
        "level": table.level,
        "fair": {
            str(h): {"commit": f.commit, "secret": f.secret, "contributions": f.contributions, "revealed": f.revealed}
            for h, f in table.fair.items()
            if not f.revealed
        },
    }


def restore_table(table: HostTable, data: Mapping[str, object]) -> Repairs:
    """The seats, the timer and the unrevealed deals of a saved table; the entries left out."""
    repairs = Repairs()
    seats = data.get("seats")
    if isinstance(seats, list) and len(seats) == 4:
        for info, raw in zip(table.seats[1:], seats[1:]):
            if not (isinstance(raw, dict) and raw.get("kind") in ("bot", "remote")):
                repairs.note("seat")
                continue
            info.kind = raw["kind"]
            info.name = clean_name(raw.get("name")) or info.name
            token, key = raw.get("token"), raw.get("key")
            info.token = token if info.kind == "remote" and is_token(token) and isinstance(token, str) else None
            info.key = key if info.kind == "remote" and is_public_key(key) and isinstance(key, str) else None
            repairs.note("seat", int(info.kind == "remote" and (info.token, info.key) != (token, key)))
            start = raw.get("from_hand", 0)  # a guest who sat down during the match: the hand it plays from
            if info.kind == "remote" and type(start) is int and start > 0:
                info.from_hand = start
            repairs.note("seat", int(start != info.from_hand))
    elif seats is not None:
        repairs.note("seats")
    table.started = bool(data.get("started"))
    chain = decode_chain(data.get("chain", []))
    repairs.note("chain", int(chain is None))
    if chain is not None and len(chain) + 1 == data.get("term"):  # a table this browser carries on
        table.chain, table.term = chain, len(chain) + 1
    timer = data.get("timer")
    table.timer.limit = timer if type(timer) is int and timer in TIMER_CHOICES else 0
    repairs.note("timer", int(timer is not None and table.timer.limit != timer))
    fair = data.get("fair")
    for hand, raw in fair.items() if isinstance(fair, dict) else ():
        dealt = _fair_hand(hand, raw)
        if dealt is None:
            repairs.note("fair")
        else:
            table.fair[int(hand)] = dealt
    return repairs


def _fair_hand(hand: object, raw: object) -> FairHand | None:
    """A deal kept while its hand was under way (so it was dealt), if every part can be read."""
    if not (isinstance(hand, str) and hand.isdigit() and isinstance(raw, dict)):
        return None
    commit, secret, parts = raw.get("commit"), raw.get("secret"), raw.get("contributions")
    if (
        isinstance(commit, str)
        and isinstance(secret, str)
        and isinstance(parts, list)
        and len(parts) == 4
        and all(isinstance(c, str) for c in parts)
    ):
        return FairHand(commit, secret, [str(c) for c in parts], dealt=True)
    return None
