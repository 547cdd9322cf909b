"""The controller: start-up, the table loop, and switching between a match and the daily game.

It owns the :class:`~hearts_web.session.Session` and runs :func:`hearts.table.play` over four seats
(the person here and three :class:`~hearts_web.players.WebBot`), hearing the table as its
:class:`~hearts.table.Listener`: it saves after every action, keeps the statistics, has the
:class:`~hearts_web.table_view.TableView` animate the events, and shows the hand summary before the
next hand is dealt. Commands from :mod:`hearts_web.input` arrive here.
"""

from __future__ import annotations

import asyncio
from typing import Any
from urllib.parse import parse_qsl

from hearts import Deal, Event, HandOver, IllegalAction, Match, PassDirection, Phase, Seat, SeatView
from hearts.challenge import Challenge, challenge_rngs
from hearts.table import Game, Listener, Player, play

from . import bot_worker, dom_input, i18n, page, settings_form, store_checks
from .daily_game import DailyUI, local_date
from .daily_data import is_date
from .dialogs import Dialogs
from .dom import by_id, document, is_none, listen, qs, window
from .i18n import t
from .keeper import Keeper
from .online.guest import GuestTable
from .comforts import Comforts
from .players import HumanPlayer, WebBot
from .hand_controls import TableInput, explain, explain_code
from .session import Mode, Session, SessionState, encode_save
from .settings import MIN_THINK, TIMINGS, Settings
from .stats import Statistics, note_events
from .store import MATCH_KEY
from .table_state import Seating
from .table_view import TableView

__all__ = ["Controller"]

ME = Seat.SOUTH


def _query() -> dict[str, str]:
    return dict(parse_qsl(str(window.location.search or "").lstrip("?"), keep_blank_values=True))


class Controller(Listener):
    def __init__(self) -> None:
        self.view = TableView(self.timings)
        self.dialogs = Dialogs(lambda: self.view.seating)
        self.keeper = Keeper(self)  # stored data, tab ownership, export/import (hearts_web.keeper)
        self.store, self.settings = self.keeper.store, self.keeper.settings
        self.params = _query()
        self.speed_override: str | None = self.params["speed"] if self.params.get("speed") in TIMINGS else None
        self.human = HumanPlayer(self._on_asked, self._on_refused, on_passed=self._hurry_bots)
        self.table_input = TableInput(self, self.human)
        self.comforts = Comforts(self)
        self.extra: Listener | None = None  # an online host's table hears every action too
        self.online: Any = None  # hearts_web.online.lobby.OnlineUI, imported when a player goes online
        self._session: Session | None = None
        self.daily: DailyUI | None = None
        self.table_task: asyncio.Task[None] | None = None
        self.fresh = False  # the match was just dealt (for the hold-hand notice)
        self.watching = False  # the midnight watch runs
        self.bots: bot_worker.BotWorker | None = None  # Hard's Web Worker, started when Hard first plays
        self.bots_tried = False

    @property
    def session(self) -> Session | None:
        return self._session

    # ------------------------------------------------------------------ start-up
    def start(self) -> None:
        self.apply_settings()
        dom_input.bind(self.table_input, self)
        listen(window, "resize", lambda _event: page.fit_toolbar())
        self.keeper.start()  # begin() once this tab owns the game

    def apply_settings(self) -> None:
        i18n.set_lang(self.settings.lang or i18n.default_lang(str(window.navigator.language or "")))
        self.apply_look()
        self.apply_speed()

    def begin(self, settings: Settings) -> None:
        """This tab owns the game (again, after a take-over or an import): load it and play."""
        self.settings, self.params = settings, _query()  # after a take-over: what the address says now
        self.apply_settings()
        if self.daily is not None:
            self.daily.retired = True  # its data may be older than what is stored now
        self.daily = None
        link = self.params.get("daily")
        if link is not None and not is_date(link):  # never a counted attempt: the match instead
            raw = str(window.location.search).partition("daily=")[2].partition("&")[0]  # as typed
            self.keeper.notice("link", t("bad_daily_link", value=raw[:40]), [("daily", t("open_daily"))])
            self.params.pop("daily")
            window.history.replaceState(None, "", window.location.pathname)
        if "daily" in self.params:
            self.daily = DailyUI(self)
            self.daily.open_from_link(self.params["daily"])
        elif "challenge" in self.params:
            if not self.comforts.open_challenge(self.params.pop("challenge")):
                self.resume_or_new()
        elif not (str(window.location.hash or "").startswith(("#online=", "#host=")) and self.online_ui().open_from_link()):
            self.resume_or_new()
        self.apply_texts()
        by_id("app").hidden = False
        page.fit_toolbar()  # measurable only now that the table is shown
        document.documentElement.classList.remove("booting")
        document.documentElement.classList.add("ready")
        if self.daily is not None:
            self.daily.after_ready()
        if not self.watching:
            self.watching = True
            asyncio.ensure_future(self._midnight_watch())
        if self._session is not None:
            self.worker_for(self._session.state.difficulty)  # Hard plays: start its worker now

    def stop(self) -> None:
        """Another tab owns the game now: stop the table (the keeper already stopped all writes)."""
        if self.table_task is not None:
            self.table_task.cancel()
        self.table_task, self._session = None, None
        self.dialogs.close()

    def load_session(self, key: str) -> Session | None:
        """The saved session under ``key``, repaired if need be; data that cannot be used is kept
        under a backup key, and the notice says what happened (:mod:`hearts_web.stored`)."""
        session, notices = store_checks.load_session(self.store, key, self.settings.difficulty)
        self.keeper.notify(notices)
        return session

    def resume_or_new(self) -> None:
        saved = self.load_session(MATCH_KEY)
        if saved is not None:
            self.enter(saved)
        else:
            self.new_match()

    def new_match(self) -> None:
        seed = self.params.pop("seed", None) or None  # ?seed= deals the first match only (tests)
        self.fresh = True
        self.enter(Session(Match(self.settings.rules, seed), SessionState(difficulty=self.settings.difficulty)))
        self.save()

    def save(self) -> None:
        if self._session is not None:
            self.store.set_json(self._session.save_key, encode_save(self._session))

    # ------------------------------------------------------------------ the table
    def enter(self, session: Session, players: list[Player] | None = None, extra: Listener | None = None) -> None:
        """Put ``session`` on the table and (re)start the table loop for it (with the bots, unless
        ``players`` are given: an online table; ``extra`` then hears every action as well)."""
        if self.table_task is not None:
            self.table_task.cancel()
        self._session, self.extra, self.table_input.seat = session, extra, self.human
        self.view.clear()  # a claim is offered again when the engine says so, on the player's turn
        page.offer_undo(False)
        self.view.show(session.snapshot())
        self.render_badge()
        self.view.focus_first_card()
        if players is None:
            players = [self.human] + [self.stand_in(s, session.state.difficulty) for s in Seat if s != ME]
        self.table_task = asyncio.ensure_future(self._run(session, players))

    def challenge_players(self, challenge: Challenge) -> list[Player]:
        """The seats of a challenge game: its bots decide with the original match's seeds."""
        rngs = challenge_rngs(challenge)
        return [self.human] + [WebBot(lambda: challenge.level, challenge.seed, self.min_think, self.view.set_thinking, rngs,
                                      self.worker_for) for s in Seat if s != ME]

    def stand_in(self, seat: Seat, level: str) -> Player:
        """A bot for ``seat`` (also the stand-in for a guest who is away)."""
        session = self._session
        seed = (session.match.seed if session is not None else None) or "hearts"
        return WebBot(lambda: session.state.difficulty if session is not None else level, seed, self.min_think,
                      self.view.set_thinking, worker=self.worker_for)

    def worker_for(self, level: str) -> bot_worker.BotWorker | None:
        """The bots' Web Worker for ``level``, started at the first ask. Only Hard searches long
        enough to need one (Easy and Medium play by rules, without a search); ``?worker=off``
        keeps every bot on the page (benchmarks compare the two)."""
        if level != "hard" or self.params.get("worker") == "off":
            return None
        if not self.bots_tried:
            self.bots_tried = True
            self.bots = bot_worker.start()
        return self.bots

    def enter_guest(self, guest: GuestTable) -> None:
        """A guest at an online table: no match here; the host's states are drawn as they come."""
        if self.table_task is not None:
            self.table_task.cancel()
        self._session, self.extra, self.table_input.seat = None, None, guest
        self.view.clear()  # a guest's moves are the host's to judge: no claim, no undo
        page.offer_undo(False)
        self.render_badge()

    def leave_online(self) -> None:
        self.view.seat(Seating())
        document.documentElement.classList.remove("host-away")
        self.resume_or_new()

    async def _run(self, session: Session, players: list[Any]) -> None:
        try:
            if self.fresh and session.match.pass_direction is PassDirection.HOLD and not session.match.hand.plays:
                self.view.hold_notice()
            self.fresh = False
            resumed_over = session.match.is_over
            await play(session.match, players, self)
            if session.state.mode is Mode.CHALLENGE and session is self._session:
                self.view.show(session.snapshot())
                self.comforts.challenge_done(session)
            if session.state.mode in (Mode.MATCH, Mode.ONLINE) and session is self._session:
                if not resumed_over:
                    await self._hand_summary(session)  # the last hand's summary, then the result
                self.view.show(session.snapshot())
                m = session.match
                self.dialogs.match_over(m.winners, m.scores, m.score_sheet, session.state.practice)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a friendly message, keep the page alive
            self.fail(exc)

    def _on_asked(self, view: SeatView) -> None:
        if self._session is None:
            return
        self.view.show(self._session.snapshot(), view, claimable=self.comforts.claimable())
        page.offer_undo(self.comforts.can_undo())
        if view.phase is Phase.PLAYING:
            self.view.maybe_focus_hand()
        self.table_input.offer(view)

    def _hurry_bots(self) -> None:
        """The person has passed: Hard's passes in the worker stop thinking (BotWorker.hurry)."""
        if self.bots is not None:
            self.bots.hurry()

    def _on_refused(self, error: IllegalAction) -> None:
        self.view.show_error(explain(error))

    async def on_events(self, game: Game, events: list[Event]) -> None:
        session = self._session
        if session is None or game is not session.match:
            return
        note_events(session.state, events, self.store)
        self.save()
        await asyncio.sleep(0)  # a new browser task for the drawing: no task over 50 ms on a slow phone
        if session is not self._session:
            return
        if self.extra is not None:
            await self.extra.on_events(game, events)  # the guests see it at once
        await self.view.animate(events, session.snapshot())
        if session.state.mode is Mode.DAILY and self.daily is not None:
            for ev in events:
                if isinstance(ev, HandOver):
                    await self.daily.on_hand_over(ev)
        if session is self._session:
            page.offer_undo(self.comforts.can_undo())  # e.g. not any more once a result is counted

    async def on_hand_over(self, game: Match) -> Deal | None:
        session = self._session
        if session is not None and game is session.match:
            await self._hand_summary(session)
        return await self.extra.on_hand_over(game) if self.extra is not None else None

    async def _hand_summary(self, session: Session) -> None:
        """The hand summary; it stays open until dismissed (a reload shows it again: the match
        waits at the end of the hand until then)."""
        m = session.match
        row = m.score_sheet[-1]
        hand = m.hands[row.hand_number]
        self.view.show(session.snapshot())
        self.dialogs.hand_summary(row, [hand.trick_markers(s) for s in Seat], m.score_sheet,
                                  session.state.practice, last=m.is_over, challenge=Comforts.can_challenge(session))
        await self.dialogs.wait_closed()

    # ------------------------------------------------------------------ commands (hearts_web.input)
    @property
    def seat_input(self) -> HumanPlayer | GuestTable:
        return self.table_input.seat

    def explain_code(self, code: str) -> str:
        return explain_code(code)

    def action(self, name: str, el: Any) -> None:
        session = self._session
        if self.comforts.on_action(name, el):
            return
        if name.startswith("online"):
            self.online_ui().on_action(name, el)
            return
        if self.online is not None and self.online.side is not None and name in ("new-match", "new-match-now"):
            self.online_ui().show_panel()  # leaving an online table is done from its panel
            return
        if name == "last-trick" and session is not None:
            self.dialogs.last_trick(session.match.last_trick)
        elif name == "scores" and session is not None:
            self.dialogs.scores(session.match.rules.target, session.match.score_sheet)
        elif name == "stats":
            self.dialogs.statistics(Statistics.load(self.store))
        elif name == "settings":
            self.dialogs.open(t("settings"), settings_form.settings_html(self.settings))
        elif name == "fullscreen":
            if not is_none(document.fullscreenElement):
                document.exitFullscreen()
            else:
                document.documentElement.requestFullscreen()
        elif name in ("close-dialog", "continue"):
            self.dialogs.close()
        elif name == "new-match":
            if session is not None and session.state.mode in (Mode.DAILY, Mode.CHALLENGE):
                self.leave_daily()
            elif session is not None and session.match.phase is Phase.MATCH_OVER:
                self.dialogs.close()
                self.new_match()
            else:
                self.dialogs.confirm_new_match()
        elif name in ("new-match-now", "apply-rules"):
            self.dialogs.close()
            if session is not None and session.state.mode in (Mode.DAILY, Mode.CHALLENGE):
                self.leave_daily(new=True)
            else:
                self.new_match()
        elif name == "back-to-match":
            self.dialogs.close()
            self.leave_daily()
        elif name == "daily":
            self.daily_ui().show_panel()
        elif name.startswith("daily-"):
            self.daily_ui().on_action(name, el)
        elif name.startswith(("data-", "tab-")):
            self.keeper.on_action(name)
        elif name.startswith("set-"):
            self.apply_setting(settings_form.on_click(self.settings, name, str(el.getAttribute("data-value"))), el)

    def online_ui(self) -> Any:
        if self.online is None:
            from .online.panel import OnlineUI  # the online code is imported only when it is used

            self.online = OnlineUI(self)
        return self.online

    def daily_ui(self) -> DailyUI:
        if self.daily is None:
            self.daily = DailyUI(self)
        return self.daily

    def leave_daily(self, new: bool = False) -> None:
        """Back from a daily or challenge game to the saved match (each stays saved under its own key)."""
        for name in ("dailyDate", "dailyFingerprint", "dailyPar", "shareText"):
            document.documentElement.removeAttribute("data-" + "".join("-" + c.lower() if c.isupper() else c for c in name))
        window.history.replaceState(None, "", window.location.pathname)
        self.params.pop("daily", None)
        self.params.pop("challenge", None)
        if new:
            self.new_match()
        else:
            self.resume_or_new()

    # ------------------------------------------------------------------ settings
    def setting_changed(self, el: Any) -> None:
        name = str(el.getAttribute("name") or "")
        checked = str(el.type) == "checkbox" and bool(el.checked)
        self.apply_setting(settings_form.on_change(self.settings, name, str(el.value), checked), el)

    def apply_setting(self, changed: str | None, el: Any) -> None:
        if changed == "lang":
            self.set_lang(str(el.getAttribute("data-value")))
            return
        if changed == "look":
            self.apply_look()
        elif changed == "speed":
            self.speed_override = None
            self.apply_speed()
        elif changed == "difficulty" and self._session is not None and self._session.state.mode is Mode.MATCH:
            self._session.state.difficulty = self.settings.difficulty  # the bots' next decision uses it
            self.save()
        if changed is not None:
            self.settings.save(self.store)
            self.refresh_settings()

    def refresh_settings(self) -> None:
        active = document.activeElement
        focus = ""
        if not is_none(active) and hasattr(active, "getAttribute"):
            focus = str(active.getAttribute("name") or active.getAttribute("data-action") or "")
        by_id("dlg-body").innerHTML = settings_form.settings_html(self.settings)
        if focus:
            el = qs(f'#dlg-body [name="{focus}"]') or qs(f'#dlg-body [data-action="{focus}"][aria-pressed="true"]')
            if el is not None:
                el.focus()

    def set_lang(self, lang: str) -> None:
        self.settings.lang = lang if lang in i18n.LANGS else "en"
        self.settings.save(self.store)
        i18n.set_lang(self.settings.lang)
        self.apply_texts()
        self.view.render()
        self.render_badge()
        if self.dialogs.is_open and qs("#dlg-body [data-settings]") is not None:
            self.refresh_settings()  # the settings dialog follows the language at once

    def timings(self) -> tuple[float, float, float]:
        fly, pause, collect = TIMINGS[self.speed_override or self.settings.speed]
        if page.reduced_motion():  # no flying cards; the finished trick still stays a moment
            return 0.0, pause, 0.0
        return fly, pause, collect

    def min_think(self) -> float:
        return MIN_THINK[self.speed_override or self.settings.speed]

    def apply_look(self) -> None:
        page.apply_look(self.settings.look, self.settings.deck)

    def apply_speed(self) -> None:
        page.apply_speed(self.timings(), (self.speed_override or self.settings.speed) == "instant")

    def apply_texts(self) -> None:
        page.apply_texts(self.view.seating)

    def render_badge(self) -> None:
        session = self._session
        date = session.state.date if session is not None else None
        par = self.daily.par.get(date) if self.daily is not None and date is not None else None
        page.render_badge(session.state if session is not None else None, par)

    # ------------------------------------------------------------------ midnight, errors
    async def _midnight_watch(self) -> None:
        today = local_date()
        while True:
            await asyncio.sleep(5)
            now = local_date()
            if now != today:
                today = now
                self.daily_ui().on_new_day(now)

    def guard(self, coro: Any) -> None:
        async def run() -> None:
            try:
                await coro
            except Exception as exc:  # noqa: BLE001
                self.fail(exc)

        asyncio.ensure_future(run())

    def fail(self, exc: BaseException) -> None:
        page.show_failure(exc)
