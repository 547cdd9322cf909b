"""The daily game in the browser: open a day by link, par in slices, one counted attempt, the
result, sharing, history. Deal, direction, bots, par and markers come from :mod:`hearts.daily`."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from hearts import HandOver, Phase, Seat
from hearts.daily import DailyResult, daily_fingerprint, daily_match, parse_date, play_par, share_markers

from . import daily_html
from .daily_data import DailyData
from .dialogs import Dialogs
from .dom import by_id, document, is_none, window
from .i18n import t
from .players import Pacer
from .table_html import esc
from .session import Mode, Session, SessionState
from .store import DAILY_GAME_KEY, DAILY_KEY, Store
from .table_view import TableView

__all__ = ["DailyUI", "DailyHost", "local_date"]


# Par of each date, computed once per page (about a second each, after the table is ready): a
# stored value could come from older bots and differ from everyone else's.
_PAR: dict[str, int] = {}
_PAR_TASKS: dict[str, asyncio.Task[None]] = {}


def local_date() -> str:
    d = window.Date.new()
    return f"{int(d.getFullYear()):04d}-{int(d.getMonth()) + 1:02d}-{int(d.getDate()):02d}"


class DailyHost(Protocol):
    """What the daily needs from the page (the controller)."""

    store: Store
    dialogs: Dialogs
    view: TableView
    params: dict[str, str]
    speed_override: str | None

    @property
    def session(self) -> Session | None: ...

    def enter(self, session: Session) -> None: ...

    def leave_daily(self, new: bool = False) -> None: ...

    def load_session(self, key: str) -> Session | None: ...

    def render_badge(self) -> None: ...

    def save(self) -> None: ...


class DailyUI:
    def __init__(self, host: DailyHost) -> None:
        self.host = host
        self.date = local_date()
        self.par, self.par_tasks = _PAR, _PAR_TASKS
        self.retired = False  # replaced by a new DailyUI (take-over, import): it writes nothing more
        data, _ = host.store.load_dict(DAILY_KEY)
        self.data = DailyData.from_dict(data)
        self.show_result_on_ready = False  # a finished daily was reopened: show its result once ready
        self._share_result: DailyResult | None = None

    @property
    def active(self) -> bool:
        session = self.host.session
        return session is not None and session.state.mode is Mode.DAILY

    def _save_data(self) -> None:
        self.host.store.set_json(DAILY_KEY, self.data.to_dict())

    # ------------------------------------------------------------------ par
    def ensure_par(self, date: str) -> None:
        if date not in self.par and date not in self.par_tasks:
            self.par_tasks[date] = asyncio.ensure_future(self._compute_par(date))

    async def _compute_par(self, date: str) -> None:
        try:
            loop = asyncio.get_event_loop()
            started = loop.time()
            await asyncio.sleep(0.05)
            self.par[date] = par = await play_par(date, pace=Pacer(0.025))
            if not self.retired:
                self.data.par_ms[date] = int((loop.time() - started) * 1000)
                self._save_data()
        except Exception as exc:  # noqa: BLE001 - a par is optional; never break the table
            window.console.warn(f"hearts: par for {date} failed: {exc!r}")
            return
        finally:
            self.par_tasks.pop(date, None)
        document.documentElement.dataset.dailyPar = str(par)
        if self.active:
            self.host.render_badge()
        for el in document.querySelectorAll("[data-par-for]"):
            if el.getAttribute("data-par-for") == date:
                el.textContent = t("par", par=par)

    async def wait_par(self, date: str) -> int | None:
        self.ensure_par(date)
        task = self.par_tasks.get(date)
        if task is not None:
            await task
        return self.par.get(date)

    def par_text(self, date: str) -> str:
        return t("par", par=self.par[date]) if date in self.par else t("par_computing")

    # ------------------------------------------------------------------ entering a daily game
    def open_from_link(self, date: str) -> None:
        try:
            parse_date(date)
        except ValueError:
            date = local_date()
        self.date = date
        saved = self.host.load_session(DAILY_GAME_KEY)
        if saved is not None and saved.state.date == date:
            if saved.match.phase is not Phase.MATCH_OVER:
                self._enter(saved)
                return
            if date in self.data.results:  # finished: show the table as it ended, and the result
                self._enter(saved)
                self.show_result_on_ready = True
                return
        self.start(date, practice=self.data.attempted(date) or date != local_date())

    def start(self, date: str, practice: bool) -> None:
        if not practice:
            self.data.attempts.add(date)
            self._save_data()
        state = SessionState(mode=Mode.DAILY, date=date, practice=practice, difficulty="medium")
        self._enter(Session(daily_match(date), state))
        self.host.save()

    def _enter(self, session: Session) -> None:
        assert session.state.date is not None
        self.date = session.state.date
        root = document.documentElement
        root.dataset.dailyDate = self.date
        root.dataset.dailyFingerprint = daily_fingerprint(self.date)
        url = f"{window.location.pathname}?daily={self.date}"
        if self.host.speed_override and "speed" in self.host.params:
            url += f"&speed={self.host.speed_override}"
        window.history.replaceState(None, "", url)
        self.host.enter(session)

    def after_ready(self) -> None:
        self.ensure_par(self.date)
        session = self.host.session
        if self.show_result_on_ready:
            self.show_result_on_ready = False
            asyncio.ensure_future(self._show_result(self.date))
        elif session is not None and not session.match.hand.plays and session.match.phase is Phase.PASSING:
            self.toast_intro()

    def toast_intro(self) -> None:
        session = self.host.session
        head = t("daily_title", date=self.date)
        if session is not None and session.state.practice:
            head += f" · {t('practice')}"
        html = f'<div>{esc(head)}</div><div data-par-for="{esc(self.date)}">{esc(self.par_text(self.date))}</div>'
        self.host.view.toast("", seconds=6, html=html)

    # ------------------------------------------------------------------ panel
    def show_panel(self) -> None:
        today = local_date()
        self.ensure_par(today)
        result = self.data.results.get(today)
        parts = [f'<p>{esc(t("daily_intro"))}</p>',
                 f'<div class="daily-head"><span class="par" data-par-for="{today}">{esc(self.par_text(today))}</span></div>']
        if result is not None:
            parts.append(daily_html.result_html(result))
            parts.append(
                '<div class="dlg-actions">'
                f'<button type="button" class="secondary" data-action="daily-practice">{esc(t("daily_practice"))}</button>'
                f'<button type="button" class="primary" data-action="daily-share" data-date="{today}" autofocus>{esc(t("share"))}</button></div>'
            )
        else:
            again = self.data.attempted(today)
            label, action = (t("daily_practice"), "daily-practice") if again else (t("daily_play"), "daily-play")
            parts.append(f'<div class="dlg-actions"><button type="button" class="primary" data-action="{action}" autofocus>{esc(label)}</button></div>')
        parts.append(daily_html.history_html(self.data.results, today))
        self.host.dialogs.open(t("daily_title", date=today), "".join(parts))

    def on_action(self, action: str, el: Any) -> None:
        today = local_date()
        if action in ("daily-play", "daily-open-today"):
            self.host.dialogs.close()
            by_id("toast").hidden = True
            self.start(today, practice=self.data.attempted(today))
        elif action == "daily-practice":
            self.host.dialogs.close()
            self.start(self.date if self.active else today, practice=True)
        elif action == "daily-share":
            date = el.getAttribute("data-date") if el is not None else None
            self.share(str(date or self.date))
            return
        else:
            return
        self.ensure_par(self.date)
        self.toast_intro()

    # ------------------------------------------------------------------ end of the hand
    async def on_hand_over(self, ev: HandOver) -> None:
        session = self.host.session
        assert session is not None and session.state.date is not None
        state, date = session.state, session.state.date
        markers = share_markers(session.match.hand)
        points = ev.points[Seat.SOUTH]
        counted = not state.practice and not state.counted and date not in self.data.results
        if counted:
            state.counted = True
            self.host.save()
        self.host.dialogs.open(t("daily_title", date=date), f'<p class="par">{esc(t("par_computing"))}</p>')
        par = await self.wait_par(date)
        result = DailyResult(date, points, par, markers, moon=ev.moon == Seat.SOUTH)
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
            f'<button type="button" class="primary" data-action="daily-share" data-date="{esc(date)}" autofocus>{esc(t("share"))}</button></div>'
            '<div id="share-out"></div>'
        )
        self._share_result = result
        self.host.dialogs.open(t("daily_title", date=date), "".join(parts))

    # ------------------------------------------------------------------ sharing
    def share(self, date: str) -> None:
        """Called synchronously from the click (the Web Share API needs the user's gesture)."""
        result = self.data.results.get(date) or self._share_result
        if result is None:
            return
        loc = window.location
        text = daily_html.share_text(result, f"{loc.origin}{loc.pathname}")
        document.documentElement.dataset.shareText = text
        nav = window.navigator
        force = self.host.params.get("share")
        if force not in ("clipboard", "manual") and hasattr(nav, "share") and not is_none(getattr(nav, "share", None)):
            try:
                from pyscript.ffi import to_js  # type: ignore[import-not-found]

                promise = nav.share(to_js({"text": text}, dict_converter=window.Object.fromEntries))
                asyncio.ensure_future(self._settle_share(promise, text))
                return
            except Exception:  # noqa: BLE001 - fall back to the clipboard
                pass
        clipboard = getattr(nav, "clipboard", None)
        if force != "manual" and clipboard is not None and not is_none(clipboard):
            try:
                asyncio.ensure_future(self._settle_copy(clipboard.writeText(text), text))
                return
            except Exception:  # noqa: BLE001
                pass
        self.show_manual(text)

    async def _settle_share(self, promise: Any, text: str) -> None:
        try:
            await promise
        except Exception as exc:  # noqa: BLE001
            if "AbortError" not in str(exc):
                self.show_manual(text)

    async def _settle_copy(self, promise: Any, text: str) -> None:
        try:
            await promise
        except Exception:  # noqa: BLE001
            self.show_manual(text)
            return
        self.host.view.toast(t("copied"))
        out = by_id("share-out")
        if not is_none(out) and out is not None:
            out.innerHTML = f'<p class="note" role="status">{esc(t("copied"))}</p>'

    def show_manual(self, text: str) -> None:
        out = by_id("share-out")
        html = f'<p>{esc(t("copy_manual"))}</p><textarea class="share-text" readonly id="share-text">{esc(text)}</textarea>'
        if out is None or is_none(out):
            self.host.dialogs.open(t("share"), html)
        else:
            out.innerHTML = html
        area = by_id("share-text")
        area.focus()
        area.select()

    # ------------------------------------------------------------------ midnight
    def on_new_day(self, date: str) -> None:
        self.ensure_par(date)
        html = (f"<div>{esc(t('new_daily'))}</div>"
                f'<div class="dlg-actions"><button type="button" class="primary" data-action="daily-open-today">{esc(t("open_new_daily"))}</button></div>')
        self.host.view.toast("", seconds=3600, html=html)
        if self.active:  # the open game keeps its own date; it is labelled so dates never mix silently
            self.host.render_badge()
