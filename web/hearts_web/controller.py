"""The controller: puts the page together, starts it, and switches between games.

It makes the shared parts (the command registry, the :class:`~hearts_web.table.view.TableView`,
the dialogs, the :class:`~hearts_web.table.loop.TableLoop`), hands each feature the few operations
it needs, and binds the input. Every feature registers its own commands; the controller registers
only the mode switches: a new match, back from a daily or challenge game to the saved match. It
owns the start-up (once this tab owns the game, after a take-over or an import: :meth:`Controller.begin`) and
the stop when another tab takes the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import parse_qsl

from hearts import Match, Phase

from .core import dom_input, i18n
from .core.commands import Commands
from .core.dom import by_id, local_storage, window
from .core.i18n import t
from .daily.game import DailyGame, ParBook
from .data.daily import is_date
from .data.registry import MATCH, SETTINGS, SavedData
from .data.session import Mode, Session, SessionState
from .data.settings import Settings
from .data.store import Store
from .learn.feature import Learn
from .online.door import Door
from .online.start import Online
from .screen import extras, page
from .screen.dialogs import Dialogs
from .settings.dialog import Preferences, SettingsDialog
from .stats.dialog import StatsDialog
from .table.bot_seats import BotSeats
from .table.hand_controls import HandControls
from .table.loop import TableLoop
from .table.take_back import TakeBack
from .table.toolbar import Toolbar
from .table.view import TableView
from .tabs.owner import TabOwner
from .transfer.dialog import DataTransfer
from .transfer.keeping import Keeping
from .transfer.notices import DataNotices

if TYPE_CHECKING:
    from .challenge.links import ChallengeLinks

__all__ = ["Controller"]


def _query() -> dict[str, str]:
    return dict(parse_qsl(str(window.location.search or "").lstrip("?"), keep_blank_values=True))


class Controller:
    def __init__(self) -> None:
        self.params = _query()  # the page's address; read again at every begin
        self._challenge_links: ChallengeLinks | None = None
        self.commands = commands = Commands(warn=lambda text: window.console.warn(text))
        i18n.report_missing_with(lambda text: window.console.warn(text))
        self.notices = DataNotices()
        storage = local_storage()
        store = Store(storage, on_status=self.notices.storage_status, on_backup_lost=self.notices.backup_lost)
        if storage is not None:
            storage.store = store  # the page's late answers: a write refused, room again
        self.saved = saved = SavedData(store, self.notices.notify, lambda: self.prefs.settings.difficulty)
        self.owner = owner = TabOwner(commands, self.notices, saved, self.begin, self.stop)
        self.prefs = prefs = Preferences(owner.settings, self.params)
        self.view = view = TableView(prefs.timings)
        self.dialogs = dialogs = Dialogs(lambda: view.seating, commands)
        pars = ParBook()
        self.bots = BotSeats(view.set_thinking, prefs.min_think, self.params)
        self.table = table = TableLoop(view, dialogs, saved, self.bots, pars.get)
        self.hand = HandControls(commands, table, view, lambda: prefs.settings.autoplay)
        self.keeping = Keeping(commands, self.notices.cards, saved, lambda: self.prefs.settings)
        SettingsDialog(commands, prefs, saved, dialogs, view, table, self._relabel, lambda: self.keeping.state)
        Toolbar(commands, table, dialogs)
        StatsDialog(commands, saved, dialogs)
        TakeBack(commands, table, view, dialogs, self.hand.hold)
        extras.later(commands, ("review",), self._review)
        DataTransfer(commands, store, dialogs, self.notices.cards, lambda: owner.begin(None))
        extras.later(commands, ("challenge",), self._challenges)
        self.daily = DailyGame(commands, table, saved, dialogs, view, pars, self.params, self._link_speed)
        self.online = Online(commands, self._online_door)
        self.learn = Learn(
            commands,
            table,
            view,
            dialogs,
            self.notices.cards,
            lambda: prefs.settings.rules,
            lambda: self.online.active,
            self.resume_or_new,
        )
        commands.add("new-match", lambda _: self.new_match_asked())
        commands.add("new-match-now", lambda _: self.new_match_now())
        commands.add("apply-rules", lambda _: self.new_match_now(online_too=True))
        commands.add("back-to-match", lambda _: self.back_to_match())

    def _relabel(self) -> None:
        """A new language: the notices and what the learning feature shows, in it."""
        self.notices.cards.relabel()
        self.learn.relabel()

    # ------------------------------------------------------------------ features of the second archive
    def _review(self) -> object:
        from .review.dialog import ReviewDialog

        return ReviewDialog(self.commands, self.table, self.dialogs, lambda: self.view.seating, self.view.show_error)

    def _challenges(self) -> ChallengeLinks:
        from .challenge.links import ChallengeLinks

        if self._challenge_links is None:
            self._challenge_links = ChallengeLinks(self.commands, self.table, self.saved, self.view, self.dialogs)
        return self._challenge_links

    def _link_speed(self) -> str | None:
        """The ``?speed=`` a daily game's address keeps (tests), unless the player changed the speed."""
        return self.prefs.speed_override if "speed" in self.params else None

    def _online_door(self) -> Door:
        return Door(
            self.dialogs,
            self.view,
            self.table,
            self.saved,
            self.bots.stand_in,
            lambda: self.prefs.settings,
            self.params,
            self.resume_or_new,
        )

    # ------------------------------------------------------------------ start-up
    def start(self) -> None:
        self.prefs.apply()
        dom_input.bind(self.commands, self.hand, page.show_failure, self.view.player_here)
        self.owner.start()  # begin() once this tab owns the game

    async def begin(self, settings: Settings) -> None:
        """This tab owns the game (again, after a take-over or an import): load it, draw it and play."""
        returning = self.saved.stored(SETTINGS) or self.saved.stored(MATCH)  # (before this start writes)
        self.prefs.settings = settings
        self.params.clear()
        self.params.update(_query())  # after a take-over: what the address says now
        self.prefs.apply()
        self.daily.forget()  # its data may be older than what is stored now
        daily = self._daily_from_link()
        if daily is not None:
            self.daily.open_from_link(daily)
        elif "challenge" in self.params:
            await extras.load()  # a friend's deal: challenge links come with the second archive
            if not self._challenges().open(self.params.pop("challenge")):
                self.resume_or_new()
        elif not await self.online.open_from_link():
            first = not self.saved.stored(SETTINGS) and not self.saved.stored(MATCH)
            self.resume_or_new()
            if first:  # a first visit without a link: offer "How to play" and the guided hand, once
                self.learn.welcome()
                self.saved.write(SETTINGS, self.prefs.settings)
        page.apply_texts(self.view.seating)
        by_id("app").hidden = False
        page.set_ready()
        if daily is not None:
            self.daily.after_ready()
        self.daily.watch_midnight()
        session = self.table.session
        if session is not None:
            self.bots.worker_for(session.state.difficulty)  # Hard plays: start its worker now
        page.guard(self.keeping.start(returning))  # may the browser delete the data? (after ready)

    def _daily_from_link(self) -> str | None:
        """``?daily=`` names a day to open; anything that is not a date opens the match (never a
        counted attempt) with a notice that offers the daily panel."""
        link = self.params.get("daily")
        if link is not None and not is_date(link):
            raw = str(window.location.search).partition("daily=")[2].partition("&")[0]  # as typed
            self.notices.notice(
                "link", lambda: t("bad_daily_link", value=raw[:40]), lambda: [("daily", t("open_daily"))]
            )
            self.params.pop("daily")
            window.history.replaceState(None, "", window.location.pathname)
        return self.params.get("daily")

    def stop(self) -> None:
        """Another tab owns the game now: stop the table (the tab owner already stopped all writes)."""
        self.table.stop()
        self.dialogs.close()

    # ------------------------------------------------------------------ mode switches
    def resume_or_new(self) -> None:
        saved = self.saved.load(MATCH)
        if saved is not None:
            self.table.enter(saved)
        else:
            self.new_match()

    def new_match(self) -> None:
        seed = self.params.pop("seed", None) or None  # ?seed= deals the first match only (tests)
        settings = self.prefs.settings
        self.table.enter(Session(Match(settings.rules, seed), SessionState(difficulty=settings.difficulty)))
        self.table.save()

    def _away_from_match(self) -> bool:
        session = self.table.session
        return session is not None and session.state.mode in (Mode.DAILY, Mode.CHALLENGE)

    def new_match_asked(self) -> None:
        """The toolbar's New match (Back to the match in a daily or challenge game)."""
        session = self.table.session
        if self.learn.active:
            self.learn.leave()
        elif self.online.active:
            self.online.show_panel()  # leaving an online table is done from its panel
        elif self._away_from_match():
            self.leave_daily()
        elif session is not None and session.match.phase is Phase.MATCH_OVER:
            self.dialogs.close()
            self.new_match()
        else:
            self.dialogs.confirm_new_match()

    def new_match_now(self, online_too: bool = False) -> None:
        """A new match at once (confirmed, or the settings' "apply and start a new match", which
        leaves an online table too)."""
        if self.online.active and not online_too:
            self.online.show_panel()  # leaving an online table is done from its panel
            return
        self.dialogs.close()
        if self._away_from_match():
            self.leave_daily(new=True)
        else:
            self.new_match()

    def back_to_match(self) -> None:
        self.dialogs.close()
        self.leave_daily()

    def leave_daily(self, new: bool = False) -> None:
        """Back from a daily or challenge game to the saved match (each stays saved under its own key)."""
        self.daily.clear_marks()
        window.history.replaceState(None, "", window.location.pathname)
        self.params.pop("daily", None)
        self.params.pop("challenge", None)
        if new:
            self.new_match()
        else:
            self.resume_or_new()
