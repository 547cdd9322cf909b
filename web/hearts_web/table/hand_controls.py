"""The player's hand: a tap on a card, the pass, the claim, the hint, a forced card that plays
itself, and why a card is refused.

The taps answer whoever asks this screen's player (:attr:`TableDoor.answering`): the table loop
here (:class:`~hearts_web.table.players.HumanPlayer`) or, at someone else's online table, the host
(:class:`~hearts_web.online.guest.GuestTable`). Registers ``pass``, ``claim``, ``hint`` and
``skip-to-hand`` (the skip link: the focus goes to the hand's Tab stop).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

from hearts import Card, Claim, IllegalAction, PassCards, Phase, PlayCard, Seat, SeatView
from hearts.table import drain

from ..core.commands import Commands
from ..core.dom import by_id
from ..core.hints import hint_text
from ..core.i18n import t
from ..core.refusals import explain
from ..data.session import Mode
from ..screen import page
from .door import SessionDoor
from .players import AskedSeat, HumanPlayer, Pacer, play_forced
from .view import TableView

__all__ = ["HandControls", "TableDoor", "AUTOPLAY_BEAT"]

AUTOPLAY_BEAT = 0.5  # seconds before a forced card plays itself: time to see it coming


class TableDoor(SessionDoor, Protocol):
    """What the hand's controls need of the table (:class:`~hearts_web.table.loop.TableLoop`)."""

    @property
    def answering(self) -> AskedSeat: ...

    def claimable(self) -> bool: ...

    def mark_practice(self) -> None: ...

    def on_asked(self, callback: Callable[[SeatView], None]) -> None: ...


class HandControls:
    """``autoplay()``: the setting "play a forced card by itself"."""

    def __init__(self, commands: Commands, table: TableDoor, view: TableView, autoplay: Callable[[], bool]) -> None:
        self.table, self.view, self.autoplay = table, view, autoplay
        self.held = False  # after an undo: the next question waits for the player, forced or not
        commands.add("pass", lambda _: self.pass_cards())
        commands.add("claim", lambda _: self.claim())
        commands.add("hint", lambda _: self.hint())
        commands.add("skip-to-hand", lambda _: view.focus_hand())
        table.on_asked(self.offer)

    def offer(self, view: SeatView) -> None:
        """The table asks this player: with "play a forced card by itself" on and only one legal
        card, that card plays itself after a short beat (unless the player is quicker). Not in
        the guided hand (the player makes every move there), nor at the first question after an
        undo (:meth:`hold`)."""
        held, self.held = self.held, False
        if self._autoplaying() and not held and view.phase is Phase.PLAYING and len(view.legal) == 1:
            asyncio.ensure_future(self._autoplay(view))

    def _autoplaying(self) -> bool:
        session = self.table.session
        return self.autoplay() and not (session is not None and session.state.mode is Mode.GUIDED)

    def hold(self) -> None:
        """A move was taken back: the next question waits for the player (no card plays itself)."""
        self.held = True

    async def _autoplay(self, view: SeatView) -> None:
        await asyncio.sleep(AUTOPLAY_BEAT)
        seat = self.table.answering
        while by_id("dlg").open and seat.asked is view:  # a dialog in front of the table: after it
            await asyncio.sleep(0.25)
        # still asked the same, and still wanted (the setting may have changed meanwhile)
        if self._autoplaying() and play_forced(seat, view):
            self.view.lock_hand()

    # ------------------------------------------------------------------ taps (hearts_web.core.dom_input)
    def tap_card(self, card: Card) -> None:
        seat = self.table.answering
        asked = seat.asked
        if asked is None or not seat.waiting:
            return
        if asked.phase is Phase.PASSING:
            self.view.choose(card)
        elif seat.submit(PlayCard(asked.seat, card)):
            self.view.lock_hand()  # at once, so a double tap cannot play twice

    def tap_refused_card(self, card: Card) -> None:
        asked = self.table.answering.asked
        if asked is None or asked.phase is not Phase.PLAYING:
            snap = self.view.state.snap
            if snap is not None and snap.phase is Phase.PLAYING:
                self.view.show_error(t("err_not_your_turn"))
            return
        try:
            asked.verify_play(card)
        except IllegalAction as exc:
            self.view.show_error(explain(exc))
            self.view.flash_refused(card)

    # ------------------------------------------------------------------ commands
    def pass_cards(self) -> None:
        seat = self.table.answering
        asked, chosen = seat.asked, self.view.state.chosen
        if asked is None or asked.phase is not Phase.PASSING or len(chosen) != 3:
            return
        if seat.submit(PassCards(asked.seat, chosen)):
            self.view.lock_hand(passed=True)

    def claim(self) -> None:
        if self.table.claimable() and self.table.answering.submit(Claim(Seat.SOUTH)):
            self.view.lock_hand()

    def hint(self) -> None:
        page.guard(self._hint())

    async def _hint(self) -> None:
        """Hard's suggestion with its reason; the match (or the daily) then counts as practice.
        No hints at an online table: the people there play on their own."""
        from hearts.bots import hint_steps

        session, seat = self.table.session, self.table.answering
        if not isinstance(seat, HumanPlayer) or (session is not None and session.state.mode is Mode.ONLINE):
            self.view.show_error(t("online_hints_off"))
            return
        asked = seat.asked
        if session is None or asked is None or not seat.waiting:
            self.view.show_error(t("err_not_your_turn"))
            return
        by_id("prompt").textContent = t("hint_thinking")
        hint = await drain(hint_steps(asked), Pacer())
        if seat.asked is not asked:
            return
        self.table.mark_practice()
        self.view.hint(hint.cards)
        self.view.say(hint_text(hint, asked.phase is Phase.PASSING))
