"""The table on screen: draws a :class:`~hearts_web.session.Snapshot` and animates engine events.

The view keeps only presentation state: the cards the player has picked to pass, the hinted and
the just-received cards, who is thinking. What the player may do comes from the view the table
asked the player with (``asked``); nothing here decides a rule.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from hearts import Card, CardPlayed, CardsPassed, Event, HandOver, HandStarted, HeartsBroken, PassDirection, Phase, Seat, SeatView, TrickWon

from . import i18n, table_html
from .dom import by_id, document, is_none, qs, qsa
from .i18n import t
from .table_html import esc
from .session import Snapshot

__all__ = ["TableView"]


class TableView:
    def __init__(self, timings: Callable[[], tuple[float, float, float]]) -> None:
        self.timings = timings
        self.snap: Snapshot | None = None
        self.asked: SeatView | None = None  # the question the table is asking the player, if any
        self.selected: list[Card] = []
        self.hinted: set[Card] = set()
        self.received: set[Card] = set()
        self.thinking: Seat | None = None
        self.claimable = False  # the engine says the rest of the hand is decided: offer the claim
        self._error_task: asyncio.Task[None] | None = None
        self._toast_token: object = None

    @property
    def me(self) -> Seat:
        """The seat of the player at this screen (drawn at the bottom)."""
        return table_html.seating.me

    # ------------------------------------------------------------------ layout helpers
    def slot_of(self, seat: Seat) -> int:
        """The screen position of ``seat``: 0 bottom (the player), then clockwise."""
        return (int(seat) - int(self.me)) % 4

    def seat_el(self, seat: Seat) -> Any:
        return qs(f'.seat[data-seat="{self.slot_of(seat)}"]')

    # ------------------------------------------------------------------ drawing
    def show(self, snap: Snapshot, asked: SeatView | None = None) -> None:
        self.snap = snap
        self.asked = asked
        self.render()

    def render(self) -> None:
        if self.snap is None:
            return
        self.render_seats()
        self.render_trick()
        self.render_hand()
        self.render_prompt()

    def render_seats(self) -> None:
        snap = self.snap
        assert snap is not None
        view = snap.view
        for seat in Seat:
            el = self.seat_el(seat)
            el.innerHTML = table_html.seat_box(seat, snap.totals[seat], snap.markers(seat), view.hand_sizes[seat],
                                           self.thinking == seat)
            el.setAttribute("data-seat-kind", table_html.seating.kind(seat))
            if snap.phase is Phase.PLAYING and view.turn == seat:
                el.classList.add("turn")
            else:
                el.classList.remove("turn")

    def set_thinking(self, seat: Seat | None) -> None:
        previous, self.thinking = self.thinking, seat
        for s in {previous, seat}:
            if s is None:
                continue
            box = qs(f'.seat[data-seat="{self.slot_of(s)}"] .thinking')
            if box is not None:
                box.innerHTML = esc(t("thinking", name=table_html.seat_name(s))) if s == seat else ""

    def render_trick(self) -> None:
        assert self.snap is not None
        trick = by_id("trick")
        trick.classList.remove("collect", "to-0", "to-1", "to-2", "to-3")
        plays = {self.slot_of(seat): card for seat, card in self.snap.view.current_trick}
        for slot in range(4):
            qs(f'.slot[data-slot="{slot}"]').innerHTML = table_html.card_face(plays[slot]) if slot in plays else ""
        view = self.snap.view
        broken = self.snap.phase is Phase.PLAYING and view.hearts_broken
        by_id("center-info").textContent = "♥\ufe0e " + t("hearts_broken").rstrip("!") if broken else ""

    def enabled(self) -> tuple[Card, ...]:
        """The cards the player may tap now (none unless the table is asking)."""
        asked = self.asked
        if asked is None:
            return ()
        return asked.hand if asked.phase is Phase.PASSING else asked.legal

    def render_hand(self, keep_focus: bool = True) -> None:
        assert self.snap is not None
        hand = by_id("hand")
        focused = document.activeElement
        focus_card = None
        if keep_focus and not is_none(focused) and hasattr(focused, "getAttribute") and hand.contains(focused):
            focus_card = focused.getAttribute("data-card")
        classes: dict[Card, str] = {}
        for cards, name in ((self.selected, "selected"), (self.hinted, "hinted"), (self.received, "received")):
            for c in cards:
                classes[c] = f"{classes.get(c, '')} {name}".strip()
        enabled = self.enabled()
        passing = self.asked is not None and self.asked.phase is Phase.PASSING
        hand.innerHTML = table_html.hand_buttons(self.snap.view.hand, enabled, classes, self.selected if passing else None)
        hand.classList.add("rows2")
        hand.classList.toggle("can-play", bool(enabled))
        hand.classList.toggle("waiting", not enabled)
        if focus_card:
            el = qs(f'button[data-card="{focus_card}"]', hand)
            if el is not None and not el.disabled:
                el.focus()
            else:
                self.focus_first_card()
        by_id("claim-btn").hidden = not (self.claimable and self.asked is not None)
        pass_btn = by_id("pass-btn")
        pass_btn.hidden = not passing
        pass_btn.disabled = not (passing and len(self.selected) == 3)
        pass_btn.textContent = t("pass_button") + (f" ({len(self.selected)}/3)" if passing else "")

    def lock_hand(self) -> None:
        """Disable every card at once (a play was made: a second tap must do nothing)."""
        self.asked = None
        self.claimable = False
        by_id("claim-btn").hidden = True
        for el in qsa("#hand button[data-card]"):
            el.disabled = True
        by_id("pass-btn").disabled = True

    def focus_first_card(self) -> None:
        el = qs("#hand button[data-card]:not(:disabled)")
        if el is not None:
            el.focus()

    def maybe_focus_hand(self) -> None:
        """Keyboard players land on a playable card when their turn comes (unless they are elsewhere)."""
        active = document.activeElement
        if by_id("dlg").open:
            return
        if is_none(active) or active == document.body or by_id("hand").contains(active):
            if is_none(active) or not active.matches("#hand button[data-card]:enabled"):
                self.focus_first_card()

    # ------------------------------------------------------------------ prompt, notices
    def prompt_text(self) -> str:
        snap, asked = self.snap, self.asked
        assert snap is not None
        if snap.phase is Phase.MATCH_OVER:
            return t("match_over")
        if snap.phase is Phase.PASSING:
            if asked is None:
                return t("pass_waiting")
            direction = snap.view.pass_direction
            return t(f"pass_{direction.value}", name=table_html.seat_name(direction.target(self.me)))
        if snap.phase is Phase.PLAYING and asked is not None:
            if not asked.current_trick:
                return t("lead_two_clubs") if asked.trick_number == 0 else t("your_lead")
            return t("your_turn")
        return ""

    def render_prompt(self, error: str | None = None) -> None:
        el = by_id("prompt")
        el.classList.toggle("error", bool(error))
        el.textContent = error or (self.prompt_text() if self.snap is not None else "")

    def say(self, text: str) -> None:
        """A message in the prompt line (the hint's advice), read out as well."""
        el = by_id("prompt")
        el.classList.remove("error")
        el.textContent = text
        self.announce(text)

    def show_error(self, text: str) -> None:
        self.render_prompt(error=text)
        self.announce(text)
        if self._error_task is not None:
            self._error_task.cancel()
        self._error_task = asyncio.ensure_future(self._clear_error_later())

    async def _clear_error_later(self) -> None:
        await asyncio.sleep(4)
        self._error_task = None
        self.render_prompt()

    def announce(self, text: str) -> None:
        by_id("sr-live").textContent = text

    def toast(self, text: str, warn: bool = False, seconds: float = 3.5, html: str | None = None) -> None:
        el = by_id("toast")
        if html is not None:
            el.innerHTML = html
        else:
            el.textContent = text
        el.classList.toggle("warn", warn)
        el.hidden = False
        token = self._toast_token = object()

        async def hide() -> None:
            await asyncio.sleep(seconds)
            if self._toast_token is token:
                el.hidden = True

        asyncio.ensure_future(hide())

    # ------------------------------------------------------------------ events → animation
    async def animate(self, events: list[Event], after: Snapshot) -> None:
        """Play the events on screen step by step, then draw ``after`` (the state they led to)."""
        fly, pause, collect = self.timings()
        for ev in events:
            if isinstance(ev, CardPlayed):
                await self._card_played(ev, fly)
            elif isinstance(ev, HeartsBroken):
                by_id("center-info").textContent = "♥\ufe0e " + t("hearts_broken").rstrip("!")
            elif isinstance(ev, TrickWon):
                await self._trick_won(ev, pause, collect)
            elif isinstance(ev, CardsPassed):
                self._cards_passed(ev)
            elif isinstance(ev, HandOver):
                self.set_thinking(None)
            elif isinstance(ev, HandStarted):
                self.selected, self.hinted, self.received = [], set(), set()
                if ev.pass_direction is PassDirection.HOLD:
                    self.hold_notice()
        self.snap = after
        self.render()

    async def _card_played(self, ev: CardPlayed, fly: float) -> None:
        qs(f'.slot[data-slot="{self.slot_of(ev.seat)}"]').innerHTML = table_html.card_face(ev.card, "fly-in")
        self.announce(t("plays", name=table_html.seat_name(ev.seat), card=i18n.card_label(ev.card)))
        if ev.seat == self.me:
            self.hinted, self.received = set(), set()
            played = qs(f'#hand button[data-card="{ev.card.text}"]')
            if played is not None:
                played.remove()
        else:
            back = qs(f'.seat[data-seat="{self.slot_of(ev.seat)}"] .backs i')
            if back is not None:
                back.remove()
        if fly:
            await asyncio.sleep(fly)

    async def _trick_won(self, ev: TrickWon, pause: float, collect: float) -> None:
        slot = self.slot_of(ev.seat)
        card = qs(f'.slot[data-slot="{slot}"] .card')
        if card is not None:
            card.classList.add("winner")
        self.announce(t("you_take_trick") if ev.seat == self.me else t("takes_trick", name=table_html.seat_name(ev.seat)))
        if pause:
            await asyncio.sleep(pause)
        trick = by_id("trick")
        trick.classList.add("collect", f"to-{slot}")
        if collect:
            await asyncio.sleep(collect)
        for s in range(4):
            qs(f'.slot[data-slot="{s}"]').innerHTML = ""
        trick.classList.remove("collect", f"to-{slot}")
        marks = qs(f'.seat[data-seat="{slot}"] .markers')
        if marks is not None:
            glyph = table_html.MARKER_GLYPH.get(ev.marker, "")
            marks.insertAdjacentHTML("beforeend", f'<li class="m-{esc(ev.marker)}" aria-hidden="true">{glyph}</li>')

    def _cards_passed(self, ev: CardsPassed) -> None:
        source = ev.direction.source(self.me)
        got = set(ev.given[source])
        self.received, self.selected = got, []
        names = i18n.join_list([i18n.card_label(c) for c in sorted(got)])
        text = t("received", cards=names, name=table_html.seat_name(source))
        self.toast(text, seconds=4)
        self.announce(text)
        asyncio.ensure_future(self._clear_received(got))

    async def _clear_received(self, cards: set[Card]) -> None:
        await asyncio.sleep(2.6)
        if self.received == cards:
            self.received = set()
            for el in qsa("#hand .card.received"):
                el.classList.remove("received")

    def hold_notice(self) -> None:
        self.toast(t("pass_hold"), seconds=4)
        self.announce(t("pass_hold"))
