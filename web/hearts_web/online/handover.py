"""A table that outlives its host. Pure: no DOM, no network.

The host names its **heirs**: the seated guests who sent a public key, in seat order, signed with
the host's key (:class:`~.messages.Heirs`). When the host has been gone for :data:`HANDOVER_AFTER`
seconds, each heir is offered to carry the table on. The first to accept becomes the host of the
next **term**: it tells every peer with a :class:`~.messages.Claim`, whose chain of
:class:`~.messages.Succession` links leads from the key of the invitation link to its own key
(:func:`chain_key` checks it), so every guest, newcomers and the former host included, can check
that the new host was named by the old one. Two heirs who accept at the same moment both claim
the term; the one named first in the heirs hosts (:func:`outranks`) and the other follows it.

The new host starts the match again from the next deal: the score sheet so far (the hand under
way is dealt afresh, because only the old host knew its cards and its deal's secret), the same
rules and bots' level, a fresh fair deal. It sits at South of its own table, so the seats turn by
its old seat (:func:`turned`): every screen still shows its own player at the bottom. Bots play the
old host's seat, which the old host claims back with its key if it returns
(:func:`~.protocol.seat_proof_text`); the other guests claim theirs the same way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from hearts import SEATS, HandScore, Rules, Seat

from .messages import Heir, Heirs, HostMessage, HostProof, LobbySeat, Succession
from .protocol import claim_text, heirs_text, host_proof_text
from .remote import SeatInfo

__all__ = [
    "HANDOVER_AFTER",
    "Verify",
    "chain_key",
    "proven_key",
    "outranks",
    "turned",
    "turned_sheet",
    "CarryOn",
    "HostHeirs",
]

HANDOVER_AFTER = 60.0  # seconds without the host before its heirs are offered to carry on
Verify = Callable[[str, str, str], Awaitable[bool]]  # (public key, text, signature): WebCrypto's ECDSA


async def chain_key(root: str, room: str, chain: Sequence[Succession], verify: Verify) -> str | None:
    """The key of the host that ``chain`` leads to from the link's key ``root`` (``root`` itself for
    an empty chain); ``None`` when a link does not check out: terms 2, 3… in order, each named in
    the previous host's signed heirs, each signed by its own key."""
    key = root
    for term, link in enumerate(chain, start=2):
        if link.term != term or Heir(link.seat, link.key) not in link.heirs:
            return None
        if not await verify(key, heirs_text(room, term - 1, link.heirs), link.heirs_sig):
            return None
        if not await verify(link.key, claim_text(room, term, link.seat, link.key), link.sig):
            return None
        key = link.key
    return key


async def proven_key(root: str, room: str, peer: str, self_peer: str, proof: HostProof, verify: Verify) -> str | None:
    """The key with which ``peer`` proved to this page (``self_peer``) that it hosts the table:
    the one its chain leads to from ``root``; ``None`` when the chain or the proof do not check out."""
    key = await chain_key(root, room, proof.chain, verify)
    if key is None or not await verify(key, host_proof_text(room, peer, self_peer), proof.sig):
        return None
    return key


def outranks(chain: Sequence[Succession], other: Sequence[Succession]) -> bool:
    """Two heirs carried the table on at the same moment (chains of the same length that part
    only at the last link): the one named first in the previous host's heirs hosts; the other
    yields and follows it, as every guest does."""
    if len(chain) != len(other) or not chain or list(chain[:-1]) != list(other[:-1]) or chain[-1] == other[-1]:
        return False
    heirs = chain[-1].heirs

    def rank(link: Succession) -> int:
        me = Heir(link.seat, link.key)
        return heirs.index(me) if me in heirs else len(heirs)

    return rank(chain[-1]) < rank(other[-1])


def succeeds(chain: Sequence[Succession], mine: Sequence[Succession]) -> bool:
    """A host whose table was passed on along ``mine`` meets a host proving ``chain``: does it yield?
    It does to a later term that went on from its own (it was away while a guest carried its table
    on), and to a rival of the same term that :func:`outranks` it; the chain's signatures are
    checked apart from this."""
    extends = len(chain) > len(mine) and list(chain[: len(mine)]) == list(mine)
    return extends or outranks(chain, mine)


def turned(seat: Seat, by: Seat) -> Seat:
    """``seat`` as numbered at a table whose South is the seat ``by`` was."""
    return SEATS[(int(seat) - int(by)) % 4]


def turned_sheet(sheet: Sequence[HandScore], by: Seat) -> list[HandScore]:
    """The score sheet with the seats turned so that ``by`` is South (:func:`turned`)."""

    def four(values: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        a, b, c, d = (values[(i + int(by)) % 4] for i in range(4))
        return a, b, c, d

    return [
        HandScore(
            r.hand_number,
            four(r.points),
            four(r.penalty),
            None if r.moon is None else turned(r.moon, by),
            None if r.jack is None else turned(r.jack, by),
            four(r.totals),
        )
        for r in sheet
    ]


@dataclass(frozen=True)
class CarryOn:
    """What a guest knows that lets it carry the table on: the room, the link's key and the chain
    so far, the host's signed heirs (naming this guest), this guest's seat and key, the seats as
    the last lobby showed them, the rules, the bots' level and the score sheet."""

    room: str
    host_key: str  # the key of the host that is gone (it claims its seat back with it)
    chain: tuple[Succession, ...]
    heirs: Heirs
    me: Seat
    key: str
    seats: tuple[LobbySeat, ...]
    rules: Rules
    preset: str
    level: str
    sheet: tuple[HandScore, ...]

    @property
    def term(self) -> int:
        return self.heirs.term + 1

    def claim_text(self) -> str:
        return claim_text(self.room, self.term, self.me, self.key)

    def succession(self, sig: str) -> Succession:
        """This guest's link of the chain, with its signature of :meth:`claim_text`."""
        return Succession(self.term, self.me, self.key, self.heirs.heirs, self.heirs.sig, sig)

    def seat_infos(self) -> list[SeatInfo]:
        """The new table's seats, turned so that this guest is South: the old host's seat and the
        heirs' seats wait for their keys (a bot plays meanwhile); other guests' seats and the bots'
        are bots now."""
        keys = {h.seat: h.key for h in self.heirs.heirs}
        infos = []
        for new in SEATS:
            old = SEATS[(int(new) + int(self.me)) % 4]
            seat = next((s for s in self.seats if s.seat == old), None)
            name = seat.name if seat is not None else "?"
            if new == Seat.SOUTH:
                infos.append(SeatInfo("local", name))
            elif seat is not None and seat.kind == "local":
                infos.append(SeatInfo("remote", name, key=self.host_key))
            elif old in keys:
                infos.append(SeatInfo("remote", name, key=keys[old]))
            else:
                infos.append(SeatInfo("bot", name))
        return infos

    def earlier(self) -> list[HandScore]:
        """The finished hands' rows, turned for the new table."""
        return turned_sheet(self.sheet, self.me)


class HeirsTable(Protocol):
    """What the heirs need of the host's table (:class:`~.host.HostTable`)."""

    seats: list[SeatInfo]
    term: int
    signed_heirs: Heirs | None
    on_heirs: Callable[[tuple[Heir, ...]], None]
    _heirs: tuple[Heir, ...]

    def tell(self, to: Seat, message: HostMessage) -> None: ...

    def heirs(self) -> tuple[Heir, ...]: ...


class HostHeirs:
    """The host's table names its heirs: whenever they change, the page signs them and every
    seated guest gets the signed list (:class:`~.messages.Heirs`)."""

    signed_heirs: Heirs | None
    _heirs: tuple[Heir, ...]

    def heirs(self: HeirsTable) -> tuple[Heir, ...]:
        """The seated guests who sent a key, in seat order: who may carry the table on."""
        return tuple(
            Heir(s, info.key)
            for s, info in zip(SEATS, self.seats)
            if info.kind == "remote" and info.key is not None and info.token is not None
        )

    def _heirs_changed(self: HeirsTable) -> None:
        heirs = self.heirs()
        if heirs != self._heirs:
            self._heirs = heirs
            self.on_heirs(heirs)

    def heirs_signed(self: HeirsTable, heirs: Heirs) -> None:
        """The page signed the heirs: every seated guest gets them."""
        if heirs.heirs == self._heirs and heirs.term == self.term:
            self.signed_heirs = heirs
            for s in SEATS[1:]:
                self.tell(s, heirs)
