"""This browser hosts an online table: it runs the match and answers the guests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from hearts import Deal, Event, HandOver, HandScore, HandStarted, Match, Seat
from hearts.table import Game, Listener

from ..core.dom import JsObject, qs, window
from ..core.html import esc
from ..core.i18n import t
from ..data.registry import ONLINE_HOST, ONLINE_MATCH
from ..data.session import Mode, Session, SessionState
from ..screen import page
from ..screen.table_state import Seating
from . import config, link, protocol
from .connection import ConnectionWatch, RelayState, Trouble, status_html, trouble_html
from .door import Door
from .handover import chain_key, proven_key, succeeds
from .host import HostTable
from .host_save import table_to_dict
from .messages import Claim, Heir, Heirs, HostProof
from .panel_html import ip_notice, rematch_html, seats_html
from .table_extras import TableExtras, timer_select

__all__ = ["HostSide", "GATHER_WAIT"]

GATHER_WAIT = 20.0  # seconds a table carried on waits for the other heirs before it deals


class HostSide(Listener):
    """This browser hosts: it runs the match and answers the guests."""

    def __init__(
        self,
        door: Door,
        room: str,
        net: config.Network,
        key: JsObject,
        table: HostTable,
        hide_ip: bool = False,
        via: link.Link | None = None,
        link_key: str | None = None,
    ) -> None:
        """``key``: the host's signing key (WebCrypto, made by the transport module); ``hide_ip``:
        connect through the site's TURN server only; ``via``: the room this page is in already (a
        guest who carries the table on); ``link_key``: the key of the invitation link, where the
        chain of passings-on starts (this host's own key unless it carries the table on)."""
        self.link_key = link_key or str(key.publicKey)
        self.door, self.room, self.net, self.key, self.table = door, room, net, key, table
        self.hide_ip = hide_ip and net.has_turn
        self.watch = ConnectionWatch()
        self.trouble_shown = Trouble.NONE
        self.link: link.Link | None = via
        self.invite = ""
        self.qr = ""  # the invitation as a QR code (SVG), made once it is known
        self.on_taken: Callable[[str, Claim], None] = lambda peer, claim: None  # the panel makes this page a guest
        self.ticker: asyncio.Task[None] | None = None
        self.log_tail = link.LogTail()
        self.extras = TableExtras(door, lambda code: table.react(Seat.SOUTH, code), self.back)
        table.on_change = self.changed
        table.on_probe = self.prove
        table.on_turn = self.extras.set_turn
        table.on_reaction = self.extras.reacted
        table.on_rematch = self.rematch_changed
        table.on_heirs = lambda heirs: page.guard(self._sign_heirs(heirs))
        table.on_claim = lambda peer, claim: page.guard(self._check_claim(peer, claim))
        table.on_successor = lambda peer, proof: page.guard(self._check_successor(peer, proof))
        table.on_joining = lambda seat, name: door.view.toast(
            t("online_late_joined", name=name, seat=t(f"compass_{int(seat)}")), seconds=6
        )
        door.table.ending(Mode.ONLINE, self.match_over)

    async def connect(self) -> None:
        module = await link.load()
        watch = link.Watchers(
            self.table.on_message,
            self.joined,
            self.table.peer_left,
            self.relays_changed,
            lambda peer: self.path_failed(),
        )
        if self.link is None:
            self.link = link.Link(module, self.room, self.net, protocol.MAX_CHAIN_MESSAGE, watch, self.hide_ip)
        else:
            self.link.watch = watch
        self.table.send_raw = self.link.send
        self.table.room, self.table.self_peer = self.room, self.link.self_id

        async def verify(key: str, text: str, sig: str) -> bool:
            return bool(await module.verifyHost(key, text, sig))

        self.table.verify = self.verify = verify
        base = f"{window.location.origin}{window.location.pathname}"
        self.invite = config.invitation(base, f"{self.room}.{self.link_key}", self.net)
        self.qr = await module.qrSvg(self.invite)
        window.history.replaceState(None, "", f"{window.location.pathname}{window.location.search}#host={self.room}")
        self.ticker = asyncio.ensure_future(self._tick())

    def joined(self, peer: str) -> None:
        """A new peer: prove that this browser hosts the table (the guest then says hello)."""
        self.table.log.append(f"{peer[:8]} joined the room")
        self.prove(peer)

    def prove(self, peer: str) -> None:
        """Prove to ``peer`` that this browser holds the link's key, or the key the chain leads to."""

        async def prove() -> None:
            assert self.link is not None
            sig = await self.key.sign(protocol.host_proof_text(self.room, self.link.self_id, peer))
            self.table.send(peer, HostProof(str(sig), self.table.chain))

        page.guard(prove())

    def prove_all(self) -> None:
        """Prove to every peer in the room that this page hosts the table (a guest who carries the
        table on: the others follow once the proof and its chain check out)."""
        if self.link is not None:
            for peer in self.link.peers():
                self.prove(peer)

    async def _check_successor(self, peer: str, proof: HostProof) -> None:
        """``peer`` proves it hosts this table: a guest who carried it on while this host was away,
        or another heir who carried it on at the same moment and was named first
        (:func:`~.handover.succeeds`); this page then follows that host."""
        if self.link is None or not succeeds(proof.chain, self.table.chain):
            return
        if await proven_key(self.link_key, self.room, peer, self.link.self_id, proof, self.verify) is None:
            self.table.log.append(f"{peer[:8]} claims to host this table after it, without proof")
            return
        self.table.log.append(f"{peer[:8]} hosts this table after this page (term {len(proof.chain) + 1}): follows")
        self.on_taken(peer, Claim(proof.chain))

    async def _sign_heirs(self, heirs: tuple[Heir, ...]) -> None:
        sig = str(await self.key.sign(protocol.heirs_text(self.room, self.table.term, heirs)))
        self.table.heirs_signed(Heirs(self.table.term, heirs, sig))

    async def _check_claim(self, peer: str, claim: Claim) -> None:
        """A guest says this table was carried on while this host was away: if the chain starts
        with this host's own signed heirs and checks out, this page becomes a guest there."""
        mine = self.table.chain
        if len(claim.chain) <= len(mine) or claim.chain[: len(mine)] != mine:
            return
        if await chain_key(self.link_key, self.room, claim.chain, self.verify) is None:
            self.table.log.append(f"a claim from {peer[:8]} that does not check out")
            return
        self.on_taken(peer, claim)

    async def carry_on(self, earlier: list[HandScore]) -> None:
        """This page carries the table on: once the heirs are back (at most :data:`GATHER_WAIT`
        seconds), the match goes on from ``earlier`` with a fresh fair deal."""
        self.door.view.toast(t("online_you_host"), seconds=8)
        self.apply_seating()
        deadline = asyncio.get_event_loop().time() + GATHER_WAIT
        while asyncio.get_event_loop().time() < deadline:
            if all(
                info.peer is not None
                for info in self.table.seats[1:]
                if info.kind == "remote" and info.key in self._heir_keys
            ):
                break
            await asyncio.sleep(0.2)
        match = await self.table.start(self.table.rules, earlier=earlier)
        self.save()
        self.begin(Session(match, SessionState(mode=Mode.ONLINE, difficulty=self.table.level)))

    @property
    def _heir_keys(self) -> set[str]:
        return {h.key for h in self.table.chain[-1].heirs} if self.table.chain else set()

    def detach(self) -> link.Link | None:
        """Stop hosting without closing the table (it was carried on by a guest): the room stays joined."""
        self.extras.hide()
        if self.ticker is not None:
            self.ticker.cancel()
        return self.link

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            self.table.tick()
            self._show_trouble()
            self.log_tail.flush(self.table.log)

    def relays_changed(self, state: RelayState) -> None:
        self.watch.relays_changed(state)
        status = qs("#dlg-body [data-relay-status]")
        if status is not None:
            status.outerHTML = status_html(state)
        self._show_trouble()

    def path_failed(self) -> None:
        """A guest's browser and this one exchanged offer and answer, and found no network path."""
        self.door.view.toast(
            " ".join(
                (t("online_no_path_host"), t("online_no_path_turn" if self.net.has_turn else "online_no_path_no_turn"))
            ),
            warn=True,
            seconds=12,
        )

    def _show_trouble(self) -> None:
        """No relay answers: new or returning guests cannot reach the table (said in the lobby, or
        as a notice during the match; the match itself goes on between those connected)."""
        trouble = Trouble.NO_RELAY if self.watch.trouble() is Trouble.NO_RELAY else Trouble.NONE
        if trouble == self.trouble_shown:
            return
        self.trouble_shown = trouble
        if self.door.dialogs.is_open and qs("#dlg-body [data-online-lobby]") is not None:
            self.show_lobby()
        elif trouble is Trouble.NO_RELAY:
            self.door.view.toast(
                " ".join((t("online_no_relay_host"), t("online_no_relay_try"))), warn=True, seconds=3600
            )
        else:
            self.door.view.hide_toast()

    def save(self) -> None:
        self.door.saved.write(
            ONLINE_HOST,
            {
                "room": self.room,
                "net": self.net.query,
                "hide_ip": self.hide_ip,
                "key": str(self.key.privateJwk),
                "link_key": self.link_key,
                "table": table_to_dict(self.table),
            },
        )

    def changed(self) -> None:
        self.save()
        self.apply_seating()
        if self.door.dialogs.is_open and qs("#dlg-body [data-online-lobby]") is not None:
            self.show_lobby()

    def apply_seating(self) -> None:
        hand, seats = self.table.hand, self.table.seats
        self.door.view.seat(
            Seating(
                Seat.SOUTH,
                {s: info.name for s, info in zip(Seat, seats) if s != Seat.SOUTH},
                {s: info.shown_kind(hand) for s, info in zip(Seat, seats)},
            )
        )

    def show_lobby(self) -> None:
        seats = self.table.lobby().seats
        qr = self.qr
        started = self.table.started
        body = (
            f"<div data-online-lobby><p>{esc(t('online_invite'))}</p>"
            f'<p class="invite"><a data-table-link href="{esc(self.invite)}">{esc(self.invite)}</a></p>'
            '<div class="dlg-actions"><button type="button" class="secondary" '
            f'data-action="online-copy">{esc(t("online_copy"))}</button>'
            '<button type="button" class="secondary" '
            f'data-action="online-share">{esc(t("online_share"))}</button></div>'
            f"{status_html(self.watch.relays)}{trouble_html(self.trouble_shown, self.net.has_turn, host=True)}"
            '<figure class="qr" '
            f'aria-label="{esc(t("online_qr"))}">{qr}<figcaption>{esc(t("online_qr"))}</figcaption></figure>'
            f"<h3>{esc(t('online_seats'))}</h3>{seats_html(seats, Seat.SOUTH, False)}"
            f"{timer_select(self.table.timer.limit)}{ip_notice(self.hide_ip)}"
            '<div class="dlg-actions">'
            f'<button type="button" class="secondary" data-action="online-close">{esc(t("online_close"))}</button>'
            + (
                f'<button type="button" class="primary" data-action="close-dialog">{esc(t("close"))}</button>'
                if started
                else '<button type="button" class="primary" data-action="online-start" '
                f"autofocus>{esc(t('online_start'))}</button>"
            )
            + "</div></div>"
        )
        self.door.dialogs.open(t("online_title"), body)

    async def start(self) -> None:
        match = await self.table.start(self.table.rules)
        self.save()
        self.begin(Session(match, SessionState(mode=Mode.ONLINE, difficulty=self.table.level)))

    def begin(self, session: Session) -> None:
        self.apply_seating()
        self.door.dialogs.close()
        players = self.table.players(self.door.table.human)
        self.door.table.enter(session, players, self)
        self.extras.show()
        self.extras.set_turn(self.table.timer.message())

    def back(self) -> None:
        """The host takes its seat back from the bot."""
        self.table.timer.back(Seat.SOUTH)

    def set_timer(self, value: str) -> None:
        if value.isdigit():
            self.table.set_timer(int(value))
            self.save()

    # ------------------------------------------------------------------ match over and the rematch
    async def match_over(self, session: Session, resumed: bool) -> None:
        if not resumed:
            await self.door.table.hand_summary(session)
        self.door.view.show(session.snapshot())
        self.show_match_over()

    def show_match_over(self) -> None:
        m = self.table.match
        if m is None or not m.is_over:
            return
        offer = self.table.rematch
        actions = (
            ("secondary", "online-close", t("online_close")),
            ("primary", "online-rematch-start", t("online_rematch_start"))
            if offer is not None
            else ("primary", "online-rematch", t("online_rematch")),
        )
        extra = "" if offer is None else rematch_html([info.name for info in self.table.seats], offer.answers)
        self.door.dialogs.match_over(m.winners, m.scores, m.score_sheet, False, m.rules.target, actions, extra)

    def rematch(self) -> None:
        """The host offers a new match (everyone still seated is asked)."""
        self.table.offer_rematch()
        if self.table.rematch is not None and not self.table.rematch.complete:
            self.show_match_over()

    def rematch_changed(self) -> None:
        offer = self.table.rematch
        if offer is not None and offer.complete:
            page.guard(self.rematch_start())
        elif offer is not None and qs("#dlg-body [data-rematch]") is not None:
            self.show_match_over()

    async def rematch_start(self) -> None:
        """The new match: those who agreed keep their seats, bots play the rest; a fresh fair deal."""
        if self.table.rematch is None:
            return
        self.table.close_rematch()
        self.apply_seating()
        await self.start()

    async def on_events(self, game: Game, events: list[Event]) -> None:
        await self.table.on_events(game, events)
        if any(isinstance(e, (HandOver, HandStarted)) for e in events):
            self.save()

    async def on_hand_over(self, game: Match) -> Deal | None:
        deal = await self.table.on_hand_over(game)
        self.save()
        return deal

    def close(self) -> None:
        self.extras.hide()
        self.table.close()
        if self.ticker is not None:
            self.ticker.cancel()
        if self.link is not None:
            self.link.leave()
        self.door.saved.remove(ONLINE_HOST)
        self.door.saved.remove(ONLINE_MATCH)
