"""Learning the game in the game: "How to play", the guided hand and the first visit's offer.

``rules`` opens the rules page for the rules of the table (the settings' rules when no game is on
it; :mod:`rules_html`). ``guided-hand`` puts the guided first hand (:mod:`hearts.guide`) on the
table: the game that was there is kept as it is and comes back with ``guided-leave``; the guided
hand is never saved and never counted (its session is ``Mode.GUIDED`` and practice).
While it runs the page has ``html[data-guided="on"]`` and a panel that explains each new
situation as it comes: every tip given since the player's last move stays in it at full size
until the player has moved again and the guide has something new to say. No card plays
itself and no claim is offered in the guided hand: the player makes every move. A first visit
(nothing stored, no link) gets a notice that offers both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from hearts import Phase, Rules, Seat, SeatView
from hearts.guide import GUIDED_LEVEL, Tip, guided_match, next_tip

from ..core import i18n
from ..core.commands import Commands
from ..core.dom import Element, by_id, document, is_none, qs
from ..core.notices import Notices
from ..data.session import Mode, Session, SessionState
from ..screen.dialogs import Dialogs
from ..table.door import SessionDoor
from ..table.loop import Ending, Moment
from ..table.view import TableView
from .guide_html import guide_done, guide_panel, welcome_html
from .rules_html import learn_t, rules_page

__all__ = ["Learn", "TableDoor"]

ME = Seat.SOUTH


class TableDoor(SessionDoor, Protocol):
    """What learning needs of the table (:class:`~hearts_web.table.loop.TableLoop`)."""

    def enter(self, session: Session) -> None: ...

    def watch(self, callback: Callable[[Moment], None]) -> None: ...

    def ending(self, mode: Mode, end: Ending) -> None: ...


class Learn:
    """``rules()``: the settings' rules; ``online()``: an online table is on; ``resume()``: put the
    saved match (or a new one) on the table."""

    def __init__(
        self,
        commands: Commands,
        table: TableDoor,
        view: TableView,
        dialogs: Dialogs,
        notices: Notices,
        rules: Callable[[], Rules],
        online: Callable[[], bool],
        resume: Callable[[], None],
    ) -> None:
        self.table, self.view, self.dialogs, self.notices = table, view, dialogs, notices
        self.rules, self.online, self.resume = rules, online, resume
        self.guided: Session | None = None
        self.previous: Session | None = None
        self.told: list[str] = []
        self.tip: Tip | None = None  # the latest tip
        self.batch: list[Tip] = []  # the tips given since the player's last move, shown in full
        self.moves = 0  # the player's moves when the batch began
        self.done = False
        self.welcoming = False
        commands.add("rules", lambda _: self.open_rules())
        commands.add("guided-hand", lambda _: self.start())
        commands.add("guided-leave", lambda _: self.leave())
        table.watch(self._moment)
        table.ending(Mode.GUIDED, self._ended)

    @property
    def active(self) -> bool:
        return self.guided is not None

    # ------------------------------------------------------------------ the rules page
    def table_rules(self) -> Rules:
        """The rules of the game on the table (the one the guided hand stands in for), else the settings'."""
        session = self.previous if self.guided is not None else self.table.session
        if session is not None:
            return session.match.rules
        snap = self.view.state.snap  # a guest at an online table: the host's rules
        return snap.view.rules if snap is not None and self.online() else self.rules()

    def open_rules(self) -> None:
        self.hide_welcome()
        self.dialogs.open(learn_t("title"), rules_page(self.table_rules(), i18n.lang(), guided=not self.online()))

    # ------------------------------------------------------------------ the guided hand
    def start(self) -> None:
        """The guided hand from its first card (again, when it runs already)."""
        if self.online():
            self.view.show_error(learn_t("guide_online"))
            return
        self.dialogs.close()
        self.hide_welcome()
        if self.guided is None:
            current = self.table.session
            self.previous = current if current is not None and current.state.mode is not Mode.ONLINE else None
        rules = self.table_rules()
        self.guided = Session(
            guided_match(rules), SessionState(mode=Mode.GUIDED, difficulty=GUIDED_LEVEL, practice=True)
        )
        self.told, self.tip, self.batch, self.moves, self.done = [], None, [], 0, False
        self.view.hide_toast()  # what the game before said is over
        document.documentElement.setAttribute("data-guided", "on")
        self._panel().hidden = False
        self.table.enter(self.guided)
        self._update()

    def leave(self) -> None:
        """Back to the game that was on the table (the saved match, or a new one, if there was none)."""
        previous = self.previous
        self._off()
        if previous is not None:
            self.table.enter(previous)
        else:
            self.resume()

    def _off(self) -> None:
        self.guided, self.previous = None, None
        document.documentElement.removeAttribute("data-guided")
        panel = by_id("guide")
        if not is_none(panel):
            panel.hidden = True
            panel.innerHTML = ""

    def _moment(self, moment: Moment) -> None:
        session = self.table.session
        if self.welcoming and (
            session is None  # a guest at an online table
            or session.state.mode is not Mode.MATCH  # another game came to the table (online, daily...)
            or session.match.hand.plays
            or session.match.hand.passes[ME]
        ):
            self.hide_welcome()  # the player is playing: the offer has done its work
        if self.guided is None:
            return
        if session is not self.guided:
            self._off()  # another game came to the table (a daily, an online table, a new match)
        elif moment is not Moment.ENTERED:
            self._update()

    def _update(self) -> None:
        """Every tip that applies now joins the panel; once the player has moved since the
        tips on it were given, they make room for the new ones."""
        session = self.guided
        if session is None or self.done:
            return
        view = session.match.view(ME)
        new: list[Tip] = []
        while (tip := next_tip(view, self.told)) is not None:
            self.told.append(tip.code)
            new.append(tip)
        moves = _moves(view)
        if not new:
            if moves != self.moves and any(tip.cards for tip in self.batch):
                self._draw()  # its suggestion was for a move now made: the tips stay, the suggestion goes
            return
        if moves != self.moves:
            self.batch, self.moves = [], moves
        self.batch += new
        self.tip = new[-1]
        self._draw()
        pointed = [tip for tip in new if tip.cards]
        if pointed:
            self.view.hint(pointed[-1].cards)  # the guide points; the player plays

    async def _ended(self, session: Session, resumed: bool) -> None:
        if session is not self.guided:
            return
        self._update()  # the end of the hand
        self.done = True
        self._draw()
        button = qs('#guide [data-action="guided-leave"]')
        if button is not None:
            button.focus()

    def _panel(self) -> Element:
        panel = by_id("guide")
        if is_none(panel):
            panel = document.createElement("aside")
            panel.id = "guide"
            panel.className = "guide"
            panel.setAttribute("aria-labelledby", "guide-title")
            panel.setAttribute("aria-live", "polite")
            table = by_id("table")
            table.parentNode.insertBefore(panel, table)
        return panel

    def _draw(self) -> None:
        session = self.guided
        if session is None:
            return
        rules, seating = session.match.rules, self.view.seating
        if self.done:
            html = guide_done(
                self.tip if self.tip is not None and self.tip.code == "hand_over" else None, seating, rules
            )
        elif self.tip is not None:
            passing = session.match.phase is Phase.PASSING
            current = _moves(session.match.view(ME)) == self.moves  # the suggestion is for the move to make now
            html = guide_panel(self.batch, seating, rules, passing, suggest=current)
        else:
            return
        panel = self._panel()
        panel.innerHTML = html
        panel.setAttribute("data-told", " ".join(self.told))  # every tip given in this hand

    # ------------------------------------------------------------------ the first visit
    def welcome(self) -> None:
        """Offer "How to play" and the guided hand (a notice the player may close)."""
        self.welcoming = True
        self.notices.show("welcome", welcome_html)

    def hide_welcome(self) -> None:
        if self.welcoming:
            self.welcoming = False
            self.notices.hide("welcome")

    # ------------------------------------------------------------------ a new language
    def relabel(self) -> None:
        """Everything this feature shows, again in the page's language."""
        self._draw()
        if self.dialogs.is_open and qs("#dlg-body [data-rules-page]") is not None:
            self.open_rules()


def _moves(view: SeatView) -> int:
    """How many moves the player has made in the hand: the pass and each card played."""
    played = [seat for trick in view.tricks for seat, _ in trick.plays] + [seat for seat, _ in view.current_trick]
    return (view.passed is not None) + played.count(view.seat)
