"""What the table on screen shows, as one typed value: :class:`TableState`.

It holds the :class:`~hearts_web.data.session.Snapshot` drawn, the question the table is asking this
screen's player (``asked``: the view it was asked with, if any), who sits where
(:class:`Seating`), and the hand's presentation state: the cards picked to pass, the hinted and
the just-received cards, who is thinking, whether a claim is offered. Values are frozen: the
:class:`~hearts_web.table.view.TableView` replaces its state and draws the new one. Pure: no DOM.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from hearts import Card, IllegalAction, Phase, Seat, SeatView

from ..core.i18n import t
from ..core.refusals import explain
from ..data.session import Snapshot

__all__ = ["Seating", "TableState", "PASS_COUNT"]

PASS_COUNT = 3


@dataclass(frozen=True)
class Seating:
    """Who sits where, as the table shows it: ``me`` is the player at this screen (drawn at the
    bottom); online tables give display names and seat kinds (``local``, ``bot``, ``remote``)."""

    me: Seat = Seat.SOUTH
    names: Mapping[Seat, str] = field(default_factory=dict)
    kinds: Mapping[Seat, str] = field(default_factory=dict)

    def name(self, seat: Seat | int) -> str:
        """The name of the player at ``seat`` ("You" for the player at this screen)."""
        seat = Seat(seat)
        if seat == self.me:
            return t("seat_name_0")
        return self.names.get(seat) or t(f"seat_name_{int(seat)}")

    def kind(self, seat: Seat) -> str:
        return self.kinds.get(seat) or ("local" if seat == self.me else "bot")

    def slot(self, seat: Seat) -> int:
        """The screen position of ``seat``: 0 bottom (the player), then clockwise."""
        return (int(seat) - int(self.me)) % 4


@dataclass(frozen=True)
class TableState:
    snap: Snapshot | None = None
    asked: SeatView | None = None  # the question the table is asking the player, if any
    seating: Seating = field(default_factory=Seating)
    chosen: tuple[Card, ...] = ()  # picked to pass, oldest first
    hinted: frozenset[Card] = frozenset()
    received: frozenset[Card] = frozenset()
    thinking: Seat | None = None
    claimable: bool = False  # the engine says the rest of the hand is decided: offer the claim

    @property
    def me(self) -> Seat:
        return self.seating.me

    @property
    def passing(self) -> bool:
        """The table asks the player for three cards to pass."""
        return self.asked is not None and self.asked.phase is Phase.PASSING

    def enabled(self) -> tuple[Card, ...]:
        """The cards the player may tap now (none unless the table is asking)."""
        asked = self.asked
        if asked is None:
            return ()
        return asked.hand if asked.phase is Phase.PASSING else asked.legal

    def reasons(self) -> dict[Card, str]:
        """Why each card of the hand cannot be played now, as the engine says it (only while the
        table asks the player to play: a card chosen while waiting says "wait for your turn")."""
        asked = self.asked
        if asked is None or asked.phase is not Phase.PLAYING:
            return {}
        out = {}
        for card in asked.hand:
            try:
                asked.verify_play(card)
            except IllegalAction as exc:
                out[card] = explain(exc)
        return out

    def choosing(self, card: Card) -> TableState:
        """``card`` picked to pass, or put back if it was picked; a fourth pick drops the oldest."""
        if card in self.chosen:
            return replace(self, chosen=tuple(c for c in self.chosen if c != card))
        return replace(self, chosen=(self.chosen + (card,))[-PASS_COUNT:])

    def cleared(self) -> TableState:
        """A new game on the table: nothing picked, hinted, received, no one thinking, no claim."""
        return replace(self, chosen=(), hinted=frozenset(), received=frozenset(), thinking=None, claimable=False)

    def prompt(self) -> str:
        """The line under the hand: what the player is asked to do (or that the match is over)."""
        snap, asked = self.snap, self.asked
        if snap is None:
            return ""
        if snap.phase is Phase.MATCH_OVER:
            return t("hand_over", n=len(snap.sheet)) if snap.one_hand else t("match_over")
        if snap.phase is Phase.PASSING:
            if asked is None:
                return t("pass_waiting")
            direction = snap.view.pass_direction
            return t(f"pass_{direction.value}", name=self.seating.name(direction.target(self.me)))
        if snap.phase is Phase.PLAYING and asked is not None:
            if not asked.current_trick:
                return t("lead_two_clubs") if asked.trick_number == 0 else t("your_lead")
            return t("your_turn")
        return ""
