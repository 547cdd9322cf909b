"""A guest's way to its host: the room (joined afresh when nobody answers), the host's proof and
its chain, the relays' state and failed paths. :class:`~.guest_side.GuestSide` draws what it
finds; :class:`~.guest.GuestTable` speaks the protocol over it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ..core.dom import JsObject
from ..screen import page
from . import config, link, protocol
from .connection import ConnectionWatch, RelayState, Search, search_phase
from .decoder import HOST_MESSAGES, decode
from .guest import GuestTable
from .handover import outranks, proven_key
from .messages import Envelope, HostProof, Succession

__all__ = ["HostSearch", "RECONNECT_AFTER", "RECONNECT_LONGEST"]

RECONNECT_AFTER = 6.0  # seconds without meeting the host before joining the room afresh
RECONNECT_LONGEST = 60.0  # the wait doubles after each fresh join, up to this


class HostSearch:
    """Finds the host of ``room`` and keeps the way to it. ``public_key``: the link's key (where
    every chain of passings-on starts); ``key``: this guest's own signing key (set before
    :meth:`open`); ``on_change``: the relays' state or a failed path changed; ``on_followed``: a
    guest carried the table on and this guest follows it now."""

    def __init__(
        self,
        room: str,
        public_key: str,
        net: config.Network,
        table: GuestTable,
        on_change: Callable[[], None],
        on_followed: Callable[[Succession], None],
    ) -> None:
        self.room, self.public_key, self.net, self.table = room, public_key, net, table
        self.on_change, self.on_followed = on_change, on_followed
        self.key: JsObject | None = None
        self.hide_ip = False
        self.host_key = public_key  # the key of the host this guest follows now
        self.watch = ConnectionWatch()
        self.link: link.Link | None = None  # the room joined last (the one searched for the host)
        self.host_link: link.Link | None = None  # the room the host proved itself in (may be older)
        self.opened = 0.0
        self.last_met = 0.0  # when a peer last joined the current room
        self.reconnect_after = RECONNECT_AFTER
        self.host_left = False
        self.rejoining: asyncio.Future[None] | None = None
        self.stopped = False  # this page is no guest any more (it carries the table on)
        self.answered = False  # a browser in the room answered this search (offer and answer went through)
        self.relays_since = -1.0  # when a relay first worked for this search (-1: none yet)

    def _watchers(self, via: link.Link) -> link.Watchers:
        return link.Watchers(
            lambda peer, text: self.received(via, peer, text),
            lambda peer: self.peer_joined(via, peer),
            lambda peer: self.peer_left(via, peer),
            self.relays_changed,
            lambda peer: self.path_failed(),
            lambda peer: self.half_open(via, peer),
        )

    def open(self, module: JsObject) -> None:
        """Join the room. Each room's messages are told apart: the host may prove itself in a room
        this page is just leaving (Trystero connects a peer it met while leaving), and then that
        room, not the new one, is where the host hears us."""
        self.link = link.Link(
            module,
            self.room,
            self.net,
            protocol.MAX_HOST_MESSAGE,
            link.Watchers(lambda p, t: None, lambda p: None, lambda p: None),
            self.hide_ip,
        )
        self.link.watch = self._watchers(self.link)
        self.opened = asyncio.get_event_loop().time()

    def adopt(self, via: link.Link) -> None:
        """Go on in the room this page is in already (a former host whose table was carried on)."""
        via.watch = self._watchers(via)
        self.link, self.opened = via, asyncio.get_event_loop().time()

    def send(self, text: str) -> None:
        via = self.host_link or self.link
        if via is not None and self.table.host_peer is not None:
            via.send(self.table.host_peer, text)

    def received(self, via: link.Link, peer: str, text: str) -> None:
        if peer != self.table.host_peer or via is not self.host_link:
            got = decode(text, HOST_MESSAGES, protocol.MAX_GUEST_MESSAGE, protocol.MAX_CHAIN_MESSAGE)
            if isinstance(got, Envelope) and isinstance(got.message, HostProof):
                page.guard(self._check_host(via, peer, got.message))
                return
        self.table.on_message(peer, text)

    async def _check_host(self, via: link.Link, peer: str, message: HostProof) -> None:
        """``peer`` proves it hosts this table: with the link's key, or with the key that its chain
        of passings-on leads to. A host of an earlier term (a former host come back) is told that
        the table went on; a later term is followed only while this guest's host is away."""
        module = await link.load()

        async def verify(key: str, text: str, sig: str) -> bool:
            return bool(await module.verifyHost(key, text, sig))

        key = await proven_key(self.public_key, self.room, peer, via.self_id, message, verify)
        term = len(message.chain) + 1
        if key is None:
            self.table.log.append(f"{peer[:8]} failed to prove it is the host")
            return
        if term < self.table.term:  # the host of an earlier term came back: the table went on without it
            via.send(peer, self.table.claim())
            return
        if term > self.table.term and not (self.table.host_peer is None or self.host_left or self.table.away):
            self.table.log.append(f"{peer[:8]} claims the table while its host is here: not followed")
            return
        rival = term == self.table.term > 1 and peer != self.table.host_peer and self.table.host_peer is not None
        if rival and not outranks(message.chain, self.table.chain):
            self.table.log.append(f"{peer[:8]} claims term {term} too, after the host this guest follows: not followed")
            return
        assert self.key is not None
        proof = str(await self.key.sign(protocol.seat_proof_text(self.room, peer, via.self_id)))
        self.host_link, self.host_key = via, key
        self.table.log.append(f"{peer[:8]} proved it hosts term {term}")
        if term > self.table.term or rival:
            self.table.follow(peer, message.chain, proof)
            self.on_followed(message.chain[-1])
        else:
            self.table.host_proven(peer, proof)
        self.host_left = False
        self.reconnect_after = RECONNECT_AFTER  # met: the next search starts quick again
        self.watch.connected()
        self.on_change()

    def peer_joined(self, via: link.Link, peer: str) -> None:
        """Ask every new peer whether it is the host (the host also proves itself unasked)."""
        if via is self.link:
            self.last_met = asyncio.get_event_loop().time()
        self.table.log.append(f"{peer[:8]} joined the room")
        if self.table.host_peer is None or self.host_left:
            via.send(peer, self.table.probe())

    def peer_left(self, via: link.Link, peer: str) -> None:
        if peer == self.table.host_peer and via is self.host_link:
            self.host_left = True  # its connection closed (a reload gives it a new peer): look for it
            self.table.host_gone()

    @property
    def searching(self) -> bool:
        """Look for the host: not met yet, its connection closed, or it went silent in a room
        this page has left since (the current room may reach it)."""
        return self.table.host_peer is None or self.host_left or (self.host_link is not self.link and self.table.away)

    def tick(self) -> None:
        """Every two seconds while searching: ask the room who the host is; join it afresh when
        nobody met us for a while."""
        if self.stopped or not self.searching or self.link is None:  # a silent host (a background tab) is waited for
            return
        self.link.send(None, self.table.probe())
        now = asyncio.get_event_loop().time()
        # (not while a peer that joined lately may still prove itself the host, nor while an
        # offer and answer with a peer are on their way: a fresh join would throw them away)
        if (
            self.rejoining is None
            and not self.link.exchanging
            and now - max(self.opened, self.last_met) > self.reconnect_after
        ):
            # Nobody met us: maybe an announce was lost, or a relay came back since. A fresh
            # join announces at once on every relay. Leave and join again.
            self.rejoining = asyncio.ensure_future(self._rejoin("nobody met us for a while"))

    def relays_changed(self, state: RelayState) -> None:
        if state.open and self.relays_since < 0:
            self.relays_since = asyncio.get_event_loop().time()
        self.watch.relays_changed(state)
        self.on_change()

    def phase(self) -> Search:
        """What this search is doing now (see :func:`~.connection.search_phase`)."""
        if self.link is not None and self.link.answered:
            self.answered = True
        since = self.relays_since
        return search_phase(
            self.watch.relays, self.answered, -1.0 if since < 0 else asyncio.get_event_loop().time() - since
        )

    def path_failed(self) -> None:
        """Offer and answer went through with a peer but no network path joins them."""
        if self.table.host_peer is None or self.host_left:
            self.watch.path_failed()
            self.on_change()

    def half_open(self, via: link.Link, peer: str) -> None:
        """A connection with ``peer`` opened, but its handshake timed out: that peer may count this
        page as joined (a host then proves itself to it in vain) while this page never met it, and
        Trystero keeps it so until one side leaves. Seen on loopback when this page and the peer
        left and joined the room again at about the same time. While searching, join the room
        afresh now rather than at the next try, which may be a minute away."""
        reason = f"{peer[:8]} connected on its side only"
        if via is not self.link or self.stopped or not self.searching or self.rejoining is not None:
            self.table.log.append(reason)
        elif self.link.exchanging:
            self.table.log.append(f"{reason} (another connection is on its way: kept)")
        else:
            self.rejoining = asyncio.ensure_future(self._rejoin(reason))

    async def _rejoin(self, reason: str) -> None:
        """Leave the room, then join it again. Only after the leave has finished: Trystero hands
        a join of a room that is still leaving that room, which then leaves for good. (Its leave
        first says goodbye to every peer; if that never finishes, the old room never left and
        still works, so nothing is lost by waiting.)"""
        assert self.link is not None
        self.table.log.append(f"{reason}: joining the room afresh")
        try:
            await self.link.leave()
            self.open(await link.load())
            # a slow machine may need longer than that to connect: wait longer each time
            self.reconnect_after = min(2 * self.reconnect_after, RECONNECT_LONGEST)
        finally:
            self.rejoining = None

    async def keep_room(self) -> link.Link | None:
        """Stop searching and keep the room joined last (a fresh join under way finishes first, or
        its room would be left behind); an older room the host proved itself in is left."""
        self.stopped = True
        if self.rejoining is not None:
            await self.rejoining
        if self.host_link is not None and self.host_link is not self.link:
            self.host_link.leave()
        return self.link

    def leave(self) -> None:
        for room in {id(r): r for r in (self.link, self.host_link) if r is not None}.values():
            room.leave()
