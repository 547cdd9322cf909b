"""The daily game in the browser: open a day by link, par in slices, one counted attempt, the
result, sharing, history, and the new day at midnight. Deal, direction, bots, par and markers come
from :mod:`hearts.daily`.

Registers ``daily`` (the toolbar's panel), ``daily-play``, ``daily-open-today``, ``daily-practice``
and ``daily-share``, and ends a daily game with its result.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

from hearts import PassDirection, Phase, Seat
from hearts.daily import DailyResult, daily_fingerprint, daily_match, parse_date, play_par, share_markers

from ..core.commands import Commands, Press
from ..core.dom import by_id, call, document, is_none, local_date, window
from ..core.html import esc
from ..core.i18n import t
from ..data.daily import DailyData, is_date
from ..data.registry import DAILY, DAILY_GAME, SavedData
from ..data.session import Mode, Session, SessionState
from ..screen.dialogs import Dialogs
from ..table.door import SessionDoor
from ..table.players import Pacer
from ..table.view import TableView
from . import html as daily_html

__all__ = ["DailyGame", "ParBook", "TableDoor", "local_date"]

DAILY_MARKS = ("dailyDate", "dailyFingerprint", "dailyPar", "shareText")  # <html data-...> while a daily is open


class ParBook:
    """Par of each date, computed once per page (about a second each, after the table is ready): a
    stored value could come from older bots and differ from everyone else's."""

    def __init__(self) -> None:
        self.known: dict[str, int] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def get(self, date: str) -> int | None:
        return self.known.get(date)


class TableDoor(SessionDoor, Protocol):
    """What the daily needs of the table (:class:`~hearts_web.table.loop.TableLoop`)."""

    def enter(self, session: Session) -> None: ...

    def save(self) -> None: ...

    def show_badge(self) -> None: ...

    def ending(self, mode: Mode, end: Callable[[Session, bool], Awaitable[None]]) -> None: ...


class DailyGame:
    """``params``: the page's address (``?share=`` forces a way to share, for tests);
    ``link_speed()``: the ``?speed=`` that a daily's address keeps, if any."""

    def __init__(
        self,
        commands: Commands,
        table: TableDoor,
        saved: SavedData,
        dialogs: Dialogs,
        view: TableView,
        pars: ParBook,
        params: Mapping[str, str],
        link_speed: Callable[[], str | None],
    ) -> None:
        self.table, self.saved, self.dialogs, self.view = table, saved, dialogs, view
        self.pars, self.params, self.link_speed = pars, params, link_speed
        commands.add("daily", lambda _: self.show_panel())
        for action in ("daily-play", "daily-open-today", "daily-practice"):
            commands.add(action, self.play)
        commands.add("daily-share", lambda press: self.share(press.text("date") or self.date))
        commands.add("daily-replace", self._replace)
        table.ending(Mode.DAILY, self.game_over)
        self._data: DailyData | None = None
        self.date = local_date()
        self.show_result_on_ready = False  # a finished daily was reopened: show its result once ready
        self._share_result: DailyResult | None = None
        self._watching = False
        self._generation = 0  # which reading of the stored data this page is on (forget() starts a new one)

    @property
    def data(self) -> DailyData:
        """What the daily stores, read at the first use after this tab took the game."""
        if self._data is None:
            self._data = self.saved.get(DAILY)
        return self._data

    def forget(self) -> None:
        """The stored data may have changed (a take-over, an import): read it again when used."""
        self._data, self.date, self.show_result_on_ready, self._share_result = None, local_date(), False, None
        self._generation += 1

    def clear_marks(self) -> None:
        """Leaving the daily game: its marks on the page go."""
        for name in DAILY_MARKS:
            document.documentElement.removeAttribute(
                "data-" + "".join("-" + c.lower() if c.isupper() else c for c in name)
            )

    @property
    def active(self) -> bool:
        session = self.table.session
        return session is not None and session.state.mode is Mode.DAILY

    def _save_data(self) -> None:
        self.saved.write(DAILY, self.data)

    # ------------------------------------------------------------------ par
    def ensure_par(self, date: str) -> None:
        if date not in self.pars.known and date not in self.pars.tasks:
            self.pars.tasks[date] = asyncio.ensure_future(self._compute_par(date))

    async def _compute_par(self, date: str) -> None:
        generation = self._generation
        try:
            loop = asyncio.get_event_loop()
            started = loop.time()
            await asyncio.sleep(0.05)
            self.pars.known[date] = par = await play_par(date, pace=Pacer(0.025))
            if generation == self._generation:  # not over data stored since (a take-over, an import)
                self.data.par_ms[date] = int((loop.time() - started) * 1000)
                self._save_data()
        except Exception as exc:  # noqa: BLE001 - a par is optional; never break the table
            window.console.warn(f"hearts: par for {date} failed: {exc!r}")
            return
        finally:
            self.pars.tasks.pop(date, None)
        document.documentElement.dataset.dailyPar = str(par)
        if self.active:
            self.table.show_badge()
        for el in document.querySelectorAll("[data-par-for]"):
            if el.getAttribute("data-par-for") == date:
                el.textContent = t("par", par=par)

    async def wait_par(self, date: str) -> int | None:
        self.ensure_par(date)
        task = self.pars.tasks.get(date)
        if task is not None:
            await task
        return self.pars.get(date)

    def par_text(self, date: str) -> str:
        par = self.pars.get(date)
        return t("par", par=par) if par is not None else t("par_computing")

    # ------------------------------------------------------------------ entering a daily game
    def open_from_link(self, date: str) -> None:
        try:
            parse_date(date)
        except ValueError:
            date = local_date()
        self.date = date
        saved = self.saved.load(DAILY_GAME)
        if saved is not None and saved.state.date == date:
            if saved.match.phase is not Phase.MATCH_OVER:
                self._enter(saved)
                return
            if date in self.data.results:  # finished: show the table as it ended, and the result
                self._enter(saved)
                self.show_result_on_ready = True
                return
        elif saved is not None and saved.state.date is not None and saved.match.phase is not Phase.MATCH_OVER:
            self._enter(saved)  # another day's game is unfinished: it stays until the player chooses
            self._ask_replace(saved.state.date, date)
            return
        self.start(date, practice=self.data.attempted(date) or date != local_date())

    def _ask_replace(self, unfinished: str, wanted: str) -> None:
        body = (
            f'<p>{esc(t("daily_unfinished", old=unfinished, new=wanted))}</p><div class="dlg-actions">'
            f'<button type="button" class="secondary" data-action="daily-replace" data-date="{esc(wanted)}">'
            f"{esc(t('daily_play_other', date=wanted))}</button>"
            '<button type="button" class="primary" data-action="close-dialog" '
            f"autofocus>{esc(t('daily_keep', date=unfinished))}</button></div>"
        )
        self.dialogs.open(t("daily_title", date=unfinished), body)

    def _replace(self, press: Press) -> None:
        """The player chose the linked day's game over the unfinished one."""
        date = press.text("date")
        self.dialogs.close()
        if date is not None and is_date(date):
            self.start(date, practice=self.data.attempted(date) or date != local_date())
            self.ensure_par(date)
            self.toast_intro()

    def start(self, date: str, practice: bool) -> None:
        if not practice:
            self.data.attempts.add(date)
            self._save_data()
        state = SessionState(mode=Mode.DAILY, date=date, practice=practice, difficulty="medium")
        self._enter(Session(daily_match(date), state))
        self.table.save()

    def _enter(self, session: Session) -> None:
        assert session.state.date is not None
        self.date = session.state.date
        root = document.documentElement
        root.dataset.dailyDate = self.date
        root.dataset.dailyFingerprint = daily_fingerprint(self.date)
        url = f"{window.location.pathname}?daily={self.date}"
        speed = self.link_speed()
        if speed:
            url += f"&speed={speed}"
        window.history.replaceState(None, "", url)
        self.table.enter(session)

    def after_ready(self) -> None:
        self.ensure_par(self.date)
        session = self.table.session
        if self.show_result_on_ready:
            self.show_result_on_ready = False
            asyncio.ensure_future(self._show_result(self.date))
        elif session is not None and _not_begun(session):
            self.toast_intro()

    def toast_intro(self) -> None:
        """The day, its par and, on a hold day, that nobody passes (this toast replaces the table's)."""
        session = self.table.session
        parts = t("daily_title", date=self.date).split(" · ")
        if session is not None and session.state.practice:
            parts.append(t("practice"))
        head = " · ".join(f'<span class="part">{esc(part)}</span>' for part in parts)  # lines break between parts
        html = f'<div>{head}</div><div data-par-for="{esc(self.date)}">{esc(self.par_text(self.date))}</div>'
        if session is not None and session.match.pass_direction is PassDirection.HOLD and _not_begun(session):
            html += f"<div data-hold>{esc(t('pass_hold'))}</div>"
        self.view.toast("", seconds=6, html=html)

    # ------------------------------------------------------------------ panel
    def show_panel(self) -> None:
        today = local_date()
        self.ensure_par(today)
        result = self.data.results.get(today)
        parts = [
            f"<p>{esc(t('daily_intro'))}</p>",
            '<div class="daily-head"><span class="par" '
            f'data-par-for="{today}">{esc(self.par_text(today))}</span></div>',
        ]
        if result is not None:
            parts.append(daily_html.result_html(result))
            parts.append(
                '<div class="dlg-actions">'
                '<button type="button" class="secondary" '
                f'data-action="daily-practice">{esc(t("daily_practice"))}</button>'
                f'<button type="button" class="primary" data-action="daily-share" data-date="{today}" '
                f"autofocus>{esc(t('share'))}</button></div>"
            )
        else:
            again = self.data.attempted(today)
            button = (
                '<button type="button" class="primary" data-action="daily-practice" '
                f"autofocus>{esc(t('daily_practice'))}</button>"
                if again
                else '<button type="button" class="primary" data-action="daily-play" '
                f"autofocus>{esc(t('daily_play'))}</button>"
            )
            parts.append(f'<div class="dlg-actions">{button}</div>')
        parts.append(daily_html.history_html(self.data.results, today))
        self.dialogs.open(t("daily_title", date=today), "".join(parts))

    def play(self, press: Press) -> None:
        today = local_date()
        self.dialogs.close()
        if press.action == "daily-practice":
            self.start(self.date if self.active else today, practice=True)
        else:
            self.view.hide_toast()
            self.start(today, practice=self.data.attempted(today))
        self.ensure_par(self.date)
        self.toast_intro()

    # ------------------------------------------------------------------ end of the hand
    async def game_over(self, session: Session, resumed: bool) -> None:
        """The hand is over: count it (once a day), show the result against par. A finished
        daily that was loaded again shows its result when the page is ready instead."""
        if resumed:
            return
        assert session.state.date is not None
        state, date = session.state, session.state.date
        markers = share_markers(session.match.hand)
        row = session.match.score_sheet[-1]
        points = row.points[Seat.SOUTH]
        counted = not state.practice and not state.counted and date not in self.data.results
        if counted:
            state.counted = True
            self.table.save()
        self.dialogs.open(t("daily_title", date=date), f'<p class="par">{esc(t("par_computing"))}</p>')
        par = await self.wait_par(date)
        result = DailyResult(date, points, par, markers, moon=row.moon == Seat.SOUTH)
        if counted:
            self.data.results[date] = result
            self._save_data()
        await self._show_result(date, result=result, practice=not counted)

    async def _show_result(self, date: str, result: DailyResult | None = None, practice: bool = False) -> None:
        result = result or self.data.results.get(date)
        if result is None:
            return
        parts = [f'<p class="note">{esc(t("practice"))}</p>'] if practice else []
        parts.append(daily_html.result_html(result))
        parts.append(
            '<div class="dlg-actions">'
            f'<button type="button" class="secondary" data-action="back-to-match">{esc(t("back_to_match"))}</button>'
            f'<button type="button" class="secondary" data-action="daily-practice">{esc(t("daily_practice"))}</button>'
            f'<button type="button" class="secondary" data-action="review" data-hand="0">{esc(t("review"))}</button>'
            f'<button type="button" class="primary" data-action="daily-share" data-date="{esc(date)}" '
            f"autofocus>{esc(t('share'))}</button></div>"
            '<div id="share-out"></div>'
        )
        self._share_result = result
        self.dialogs.open(t("daily_title", date=date), "".join(parts))

    # ------------------------------------------------------------------ sharing
    def share(self, date: str) -> None:
        """The day's result to share: the Web Share sheet where the page has one, else the
        clipboard, else the text to copy by hand (``?share=clipboard|manual`` picks one)."""
        result = self.data.results.get(date) or self._share_result
        if result is None:
            return
        loc = window.location
        text = daily_html.share_text(result, f"{loc.origin}{loc.pathname}")
        document.documentElement.dataset.shareText = text
        asyncio.ensure_future(self._share(text, self.params.get("share")))

    async def _share(self, text: str, force: str | None) -> None:
        if force not in ("clipboard", "manual"):
            try:
                await call("share", {"text": text})
                return
            except RuntimeError as exc:
                if "AbortError" in str(exc):
                    return  # the player closed the share sheet
        if force != "manual":
            try:
                await call("clipboard", text)
            except RuntimeError:
                pass
            else:
                self.view.toast(t("copied"))
                out = by_id("share-out")
                if out is not None:
                    out.innerHTML = f'<p class="note" role="status">{esc(t("copied"))}</p>'
                return
        self.show_manual(text)

    def show_manual(self, text: str) -> None:
        out = by_id("share-out")
        html = (
            f'<p>{esc(t("copy_manual"))}</p><textarea class="share-text" readonly '
            f'id="share-text">{esc(text)}</textarea>'
        )
        if out is None or is_none(out):
            self.dialogs.open(t("share"), html)
        else:
            out.innerHTML = html
        by_id("share-text").focus()  # (the page selects a read-only text's words when it gets the focus)

    # ------------------------------------------------------------------ midnight
    def watch_midnight(self) -> None:
        """From now on a new day offers its daily game (once per page)."""
        if not self._watching:
            self._watching = True
            asyncio.ensure_future(self._midnight_watch())

    async def _midnight_watch(self) -> None:
        today = local_date()
        while True:
            await asyncio.sleep(5)
            now = local_date()
            if now != today:
                today = now
                self.on_new_day(now)

    def on_new_day(self, date: str) -> None:
        self.ensure_par(date)
        html = (
            f"<div>{esc(t('new_daily'))}</div>"
            '<div class="dlg-actions"><button type="button" class="primary" '
            f'data-action="daily-open-today">{esc(t("open_new_daily"))}</button></div>'
        )
        self.view.toast("", seconds=3600, html=html)
        if self.active:  # the open game keeps its own date; it is labelled so dates never mix silently
            self.table.show_badge()


def _not_begun(session: Session) -> bool:
    """The player has made no move in the day's hand yet (its pass, or on a hold day its first card)."""
    match = session.match
    if match.phase is Phase.PASSING:
        return not match.hand.plays
    view = match.view(Seat.SOUTH)
    return (
        match.phase is Phase.PLAYING and view.trick_number == 0 and all(s != Seat.SOUTH for s, _ in view.current_trick)
    )
