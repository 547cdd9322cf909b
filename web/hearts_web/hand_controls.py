"""The player's hands on the table: a tap on a card, the pass, the hint, and why a card is refused.

The taps answer whoever asks this screen's player: the table loop here (:class:`HumanPlayer`) or,
at someone else's online table, the host (:class:`~hearts_web.online.guest.GuestTable`); both
offer ``asked``, ``waiting`` and ``submit``.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from hearts import Card, IllegalAction, PassCards, Phase, PlayCard, SeatView
from hearts.table import drain

from . import i18n
from .dom import by_id
from .hints import hint_text
from .i18n import t
from .online.guest import GuestTable
from .players import HumanPlayer, Pacer
from .session import Mode, Session
from .settings import Settings
from .table_view import TableView

__all__ = ["TableInput", "TableHost", "explain", "explain_code"]


def explain_code(code: str) -> str:
    """One sentence for an ``IllegalAction`` code, in the current language."""
    if code == "must_follow_suit":
        return t("err_must_follow_suit_plain")
    key = f"err_{code}"
    return t(key) if key in i18n.EN else t("err_other")


def explain(exc: IllegalAction) -> str:
    suit = exc.details.get("suit")
    if exc.code.value == "must_follow_suit" and suit is not None:
        return t("err_must_follow_suit", suit=t(f"suit1_{int(suit)}"))
    return explain_code(exc.code.value)


AUTOPLAY_BEAT = 0.5  # seconds before a forced card plays itself: time to see it coming


class TableHost(Protocol):
    view: TableView
    settings: Settings

    @property
    def session(self) -> Session | None: ...

    def save(self) -> None: ...

    def render_badge(self) -> None: ...

    def guard(self, coro: Any) -> None: ...


class TableInput:
    def __init__(self, host: TableHost, seat: HumanPlayer | GuestTable) -> None:
        self.host = host
        self.seat: HumanPlayer | GuestTable = seat

    @property
    def view(self) -> TableView:
        return self.host.view

    def offer(self, view: SeatView) -> None:
        """The table asks this player: with "play a forced card by itself" on and only one legal
        card, that card plays itself after a short beat (unless the player is quicker)."""
        if self.host.settings.autoplay and view.phase is Phase.PLAYING and len(view.legal) == 1:
            asyncio.ensure_future(self._autoplay(view))

    async def _autoplay(self, view: SeatView) -> None:
        await asyncio.sleep(AUTOPLAY_BEAT)
        while by_id("dlg").open and self.seat.asked is view:  # a dialog in front of the table: after it
            await asyncio.sleep(0.25)
        # still asked the same, and still wanted (the setting may have changed meanwhile)
        if self.seat.asked is view and self.seat.waiting and self.host.settings.autoplay:
            self.tap_card(view.legal[0])

    def tap_card(self, card: Card) -> None:
        seat = self.seat
        asked = seat.asked
        if asked is None or not seat.waiting:
            return
        if asked.phase is Phase.PASSING:
            self.toggle_pass_card(card)
        elif seat.submit(PlayCard(asked.seat, card)):
            self.view.lock_hand()  # at once, so a double tap cannot play twice

    def tap_refused_card(self, card: Card) -> None:
        asked = self.seat.asked
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

    def toggle_pass_card(self, card: Card) -> None:
        self.view.choose(card)

    def pass_cards(self) -> None:
        asked = self.seat.asked
        chosen = self.view.state.chosen
        if asked is None or asked.phase is not Phase.PASSING or len(chosen) != 3:
            return
        if self.seat.submit(PassCards(asked.seat, chosen)):
            self.view.lock_hand(passed=True)

    def hint(self) -> None:
        self.host.guard(self._hint())

    async def _hint(self) -> None:
        """Hard's suggestion with its reason; the match (or the daily) then counts as practice.
        No hints at an online table: the people there play on their own."""
        from hearts.bots import hint_steps

        session, seat = self.host.session, self.seat
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
        if not session.state.practice:
            session.state.practice = True
            self.host.save()
            self.host.render_badge()
        self.view.hint(hint.cards)
        self.view.say(hint_text(hint, asked.phase is Phase.PASSING))
