"""The table on screen: draws a :class:`~hearts_web.screen.table_state.TableState` and animates
engine events.

The view owns the one :class:`TableState` of the page. Others change it only through the methods
below (show a snapshot and the question asked, seat the players, pick a card to pass, show a hint,
lock the hand...): each replaces the state and redraws what changed. What the player may do comes
from the view the table asked the player with (``asked``); nothing here decides a rule.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from dataclasses import replace

from hearts import (
    Card,
    CardPlayed,
    CardsPassed,
    Event,
    HandOver,
    HandStarted,
    HeartsBroken,
    PassDirection,
    Phase,
    Seat,
    SeatView,
    TrickWon,
)

from ..core import i18n
from ..core.dom import Element, by_id, document, is_none, qs, qsa
from ..core.html import card_face, esc
from ..core.i18n import t
from ..data.session import Snapshot
from ..screen import table_html
from ..screen.table_state import Seating, TableState

__all__ = ["TableView", "PLAYABLE"]

LIVE_LINES = 4  # lines kept in the live region
PLAYABLE = '#hand button[data-card]:not([aria-disabled="true"])'  # a card of the hand that can be played now


class TableView:
    def __init__(self, timings: Callable[[], tuple[float, float, float]]) -> None:
        self.timings = timings
        self._state = TableState()
        self._error_task: asyncio.Task[None] | None = None
        self._toast_token: object = None
        self._toast_again: Callable[[], str] | None = None  # the toast's text in a new language
        self._player_here = False  # the player has pressed a key or touched the page (see take_focus)

    @property
    def state(self) -> TableState:
        """What the table shows now (read-only: change it through the methods below)."""
        return self._state

    @property
    def seating(self) -> Seating:
        return self._state.seating

    def _seat_el(self, seat: Seat) -> Element:
        return qs(f'.seat[data-seat="{self._state.seating.slot(seat)}"]')

    # ------------------------------------------------------------------ changing what is shown
    def show(self, snap: Snapshot, asked: SeatView | None = None, claimable: bool = False) -> None:
        """Draw ``snap``; ``asked``: the view the table asks this screen's player with (if it does)."""
        new_question = asked is not None and asked is not self._state.asked
        old, chosen = self._state.snap, self._state.chosen
        if old is not None and (
            old.view.hand_number != snap.view.hand_number or (old.view.passed is not None and snap.view.passed is None)
        ):
            chosen = ()  # a new deal (an online hand dealt afresh, too): nothing picked in it yet
        chosen = tuple(c for c in chosen if c in snap.view.hand)
        self._state = replace(self._state, snap=snap, asked=asked, claimable=claimable, chosen=chosen)
        self.render()
        if new_question and asked is not None and asked.phase is Phase.PLAYING and asked.current_trick:
            plays = [
                t("sr_play", name=self.seating.name(seat), card=i18n.card_words(card))
                for seat, card in asked.current_trick
            ]
            self.announce(t("sr_on_table", plays="; ".join(plays)))

    def clear(self) -> None:
        """Another game comes to the table: nothing picked, hinted or received, nobody thinking."""
        self._state = self._state.cleared()
        self.set_thinking(None)

    def seat(self, seating: Seating) -> None:
        """Who sits where (an online table's names and kinds) and redraw."""
        self._state = replace(self._state, seating=seating)
        self.render()

    def choose(self, card: Card) -> None:
        """Pick ``card`` to pass, or put it back: only the cards whose pick changed are marked
        anew (a tap costs the page a class and an attribute, not the whole hand drawn again)."""
        before = set(self._state.chosen)
        self._state = self._state.choosing(card)
        after = set(self._state.chosen)
        for changed in before ^ after:
            el = qs(f'#hand button[data-card="{changed.text}"]')
            if el is None:  # (not drawn as a hand to pass from: draw it)
                self.render_hand()
                break
            el.classList.toggle("selected", changed in after)
            el.setAttribute("aria-pressed", "true" if changed in after else "false")
        self._render_pass_button()
        self.render_prompt()

    def hint(self, cards: Iterable[Card]) -> None:
        self._state = replace(self._state, hinted=frozenset(cards))
        self.render_hand()

    def lock_hand(self, passed: bool = False) -> None:
        """Disable every card at once (a play was made: a second tap must do nothing);
        ``passed``: the hint for the pass is over too."""
        self._state = replace(
            self._state, asked=None, claimable=False, hinted=frozenset() if passed else self._state.hinted
        )
        by_id("claim-btn").hidden = True
        for el in qsa("#hand button[data-card]"):
            el.setAttribute("aria-disabled", "true")  # still focusable: choosing one says why
        by_id("pass-btn").disabled = True

    def set_thinking(self, seat: Seat | None) -> None:
        previous = self._state.thinking
        self._state = replace(self._state, thinking=seat)
        for s in {previous, seat}:
            if s is None:
                continue
            box = qs(f'.seat[data-seat="{self.seating.slot(s)}"] .thinking')
            if box is not None:
                box.innerHTML = esc(t("thinking", name=self.seating.name(s))) if s == seat else ""

    # ------------------------------------------------------------------ drawing
    def render(self) -> None:
        if self._state.snap is None:
            return
        self.render_seats()
        self.render_trick()
        self.render_hand()
        self.render_prompt()

    def render_seats(self) -> None:
        state = self._state
        snap = state.snap
        assert snap is not None
        view = snap.view
        for seat in Seat:
            el = self._seat_el(seat)
            el.innerHTML = table_html.seat_box(
                seat,
                snap.totals[seat],
                snap.markers(seat),
                view.hand_sizes[seat],
                state.thinking == seat,
                state.seating,
            )
            el.setAttribute("data-seat-kind", state.seating.kind(seat))
            if snap.phase is Phase.PLAYING and view.turn == seat:
                el.classList.add("turn")
            else:
                el.classList.remove("turn")

    def render_trick(self) -> None:
        snap = self._state.snap
        assert snap is not None
        trick = by_id("trick")
        trick.classList.remove("collect", "to-0", "to-1", "to-2", "to-3")
        plays = {self.seating.slot(seat): card for seat, card in snap.view.current_trick}
        for slot in range(4):
            qs(f'.slot[data-slot="{slot}"]').innerHTML = card_face(plays[slot]) if slot in plays else ""
        broken = snap.phase is Phase.PLAYING and snap.view.hearts_broken
        by_id("center-info").textContent = "♥\ufe0e " + t("hearts_broken").rstrip("!") if broken else ""

    def render_hand(self, keep_focus: bool = True) -> None:
        state = self._state
        assert state.snap is not None
        hand = by_id("hand")
        focused = document.activeElement
        focus_card = None
        if keep_focus and not is_none(focused) and hasattr(focused, "getAttribute") and hand.contains(focused):
            focus_card = focused.getAttribute("data-card")
        classes: dict[Card, str] = {}
        for cards, name in ((state.chosen, "selected"), (state.hinted, "hinted"), (state.received, "received")):
            for c in cards:
                classes[c] = f"{classes.get(c, '')} {name}".strip()
        enabled = state.enabled()
        passing = state.passing
        cards = state.snap.view.hand
        kept = next((c for c in cards if c.text == focus_card), None)
        stop = kept or (enabled[0] if enabled else None)  # the hand's one Tab stop
        hand.innerHTML = table_html.hand_buttons(
            cards, enabled, classes, state.chosen if passing else None, tab_stop=stop, reasons=state.reasons()
        )
        hand.classList.add("rows2")
        hand.classList.toggle("can-play", bool(enabled))
        hand.classList.toggle("waiting", not enabled)
        if focus_card and kept is None:  # (a card still in the hand keeps the focus: the page keeps it)
            self.focus_first_card()
        by_id("claim-btn").hidden = not (state.claimable and state.asked is not None)
        self._render_pass_button()

    def _render_pass_button(self) -> None:
        state, pass_btn = self._state, by_id("pass-btn")
        passing = state.passing
        pass_btn.hidden = not passing
        pass_btn.disabled = not (passing and len(state.chosen) == 3)
        pass_btn.textContent = t("pass_button") + (f" ({len(state.chosen)}/3)" if passing else "")

    def flash_refused(self, card: Card) -> None:
        """The tapped card shakes: it cannot be played now."""
        el = qs(f'#hand button[data-card="{card.text}"]')
        if el is not None:
            el.classList.add("refused")
            asyncio.ensure_future(self._unrefuse(el))

    async def _unrefuse(self, el: Element) -> None:
        await asyncio.sleep(0.4)
        el.classList.remove("refused")

    def player_here(self) -> None:
        """The player has pressed a key or touched the page: from now on the page may move the focus."""
        self._player_here = True

    def _may_take_focus(self) -> bool:
        """Before the player has done anything the focus stays where the page starts (so that the
        first Tab is "Skip to your hand"); later the page brings it from nowhere to the hand."""
        active = document.activeElement
        return self._player_here or (not is_none(active) and active != document.body and by_id("hand").contains(active))

    def focus_first_card(self) -> None:
        """Focus the first card that can be played (the first card when none can)."""
        el = qs(f"{PLAYABLE}") or qs("#hand button[data-card]")
        if el is not None and self._may_take_focus():
            el.focus()

    def focus_hand(self) -> None:
        """The skip link: the focus goes to the hand's Tab stop (the hand itself when it is empty)."""
        el = qs('#hand button[data-card][tabindex="0"]') or qs("#hand button[data-card]") or by_id("hand")
        el.focus()

    def maybe_focus_hand(self) -> None:
        """Keyboard players land on a playable card when their turn comes (unless they are elsewhere)."""
        active = document.activeElement
        if by_id("dlg").open:
            return
        if is_none(active) or active == document.body or by_id("hand").contains(active):
            if is_none(active) or not active.matches(PLAYABLE):
                self.focus_first_card()  # (not before the player has done anything: _may_take_focus)

    # ------------------------------------------------------------------ prompt, notices
    def render_prompt(self, error: str | None = None) -> None:
        el = by_id("prompt")
        el.classList.toggle("error", bool(error))
        el.textContent = error or self._state.prompt()

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
        """Say ``text`` to screen readers: a new line in the live region (the last few are kept, so
        an announcement is not lost when the next one follows at once)."""
        box = by_id("sr-live")
        line = document.createElement("p")
        line.textContent = text
        box.appendChild(line)
        while box.childElementCount > LIVE_LINES:
            box.firstElementChild.remove()

    def toast(
        self,
        text: str,
        warn: bool = False,
        seconds: float = 3.5,
        html: str | None = None,
        again: Callable[[], str] | None = None,
    ) -> None:
        """A short line over the table; ``again`` gives its text anew after a change of language."""
        self._toast_again = again
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

    def hide_toast(self) -> None:
        by_id("toast").hidden = True

    def relabel(self) -> None:
        """The language changed: the toast on screen says it again in the new one."""
        el = by_id("toast")
        if self._toast_again is not None and not el.hidden:
            el.textContent = self._toast_again()

    # ------------------------------------------------------------------ events → animation
    async def animate(self, events: list[Event], after: Snapshot) -> None:
        """Play the events on screen step by step, then draw ``after`` (the state they led to)."""
        fly, pause, collect = self.timings()
        self._state = replace(self._state, claimable=False)  # the question is answered
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
                self.announce(self._hand_words(ev))
            elif isinstance(ev, HandStarted):
                self._state = replace(self._state, chosen=(), hinted=frozenset(), received=frozenset())
                if ev.pass_direction is PassDirection.HOLD:
                    self.hold_notice()
        self._state = replace(self._state, snap=after)
        self.render()

    async def _card_played(self, ev: CardPlayed, fly: float) -> None:
        seating = self.seating
        qs(f'.slot[data-slot="{seating.slot(ev.seat)}"]').innerHTML = card_face(ev.card, "fly-in")
        if ev.seat == seating.me:
            self._state = replace(self._state, hinted=frozenset(), received=frozenset())
            played = qs(f'#hand button[data-card="{ev.card.text}"]')
            if played is not None:
                played.remove()
        else:
            back = qs(f'.seat[data-seat="{seating.slot(ev.seat)}"] .backs i')
            if back is not None:
                back.remove()
        if fly:
            await asyncio.sleep(fly)

    async def _trick_won(self, ev: TrickWon, pause: float, collect: float) -> None:
        seating = self.seating
        slot = seating.slot(ev.seat)
        card = qs(f'.slot[data-slot="{slot}"] .card')
        if card is not None:
            card.classList.add("winner")
        self.announce(self._trick_words(ev))
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

    def _trick_words(self, ev: TrickWon) -> str:
        """For the live region: who took the trick, what it held, its points."""
        cards = i18n.join_list([i18n.card_words(card) for _, card in ev.plays])
        points = i18n.points_words(ev.points)
        if ev.seat == self.seating.me:
            return t("sr_trick_you", cards=cards, points=points)
        return t("sr_trick", name=self.seating.name(ev.seat), cards=cards, points=points)

    def _hand_words(self, ev: HandOver) -> str:
        seats = [self.seating.me] + [s for s in Seat if s != self.seating.me]
        points = ", ".join(t("sr_hand_points", name=self.seating.name(s), points=ev.points[s]) for s in seats)
        return t("sr_hand_over", n=ev.hand_number + 1, list=points)

    def _cards_passed(self, ev: CardsPassed) -> None:
        source = ev.direction.source(self.seating.me)
        got = frozenset(ev.given[source])
        self._state = replace(self._state, received=got, chosen=())

        def text() -> str:
            names = i18n.join_list([i18n.card_label(c) for c in sorted(got)])
            return t("received", cards=names, name=self.seating.name(source))

        self.toast(text(), seconds=4, again=text)
        self.announce(text())
        asyncio.ensure_future(self._clear_received(got))

    async def _clear_received(self, cards: frozenset[Card]) -> None:
        await asyncio.sleep(2.6)
        if self._state.received == cards:
            self._state = replace(self._state, received=frozenset())
            for el in qsa("#hand .card.received"):
                el.classList.remove("received")

    def hold_notice(self) -> None:
        self.toast(t("pass_hold"), seconds=4, again=lambda: t("pass_hold"))
        self.announce(t("pass_hold"))
