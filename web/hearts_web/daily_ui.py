"""The daily game's browser side: open by date, par in slices, one counted attempt, share, history.

Deal, pass direction, bot seeds, par, share markers and streaks all come from ``hearts.daily``.
"""

from __future__ import annotations

import asyncio
import datetime
from typing import Any

from hearts import Phase
from hearts.daily import (
    OPPONENT_LEVEL,
    DailyResult,
    daily_fingerprint,
    daily_match,
    par_steps,
    parse_date,
    share_markers,
    streaks,
)

from . import render, store
from .bots import Seatbot, drive
from .dom import by_id, document, esc, is_none, window
from .i18n import t

SHARE_GLYPH = {"none": "○", "hearts": "♥", "queen": "♠", "jack": "♦"}


def local_date() -> str:
    d = window.Date.new()
    return f"{int(d.getFullYear()):04d}-{int(d.getMonth()) + 1:02d}-{int(d.getDate()):02d}"


class DailyUI:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.active = False
        self.date = local_date()
        self.par: dict[str, int] = {}
        self.par_tasks: dict[str, Any] = {}
        data, _ = store.load_dict(store.DAILY_KEY)
        self.data = data
        # par is recomputed on every visit (about a second, after the table is ready): a cached
        # value could come from older bots and differ from everyone else's
        self.last_share = ""
        self.show_result_on_ready = False  # a finished daily was reopened: show its result once ready

    # ------------------------------------------------------------------ storage
    def results(self) -> dict[str, DailyResult]:
        out: dict[str, DailyResult] = {}
        for d, raw in (self.data.get("results") or {}).items():
            try:
                out[d] = DailyResult.from_dict(raw)
            except ValueError:
                continue
        return out

    def attempted(self, date: str) -> bool:
        return date in (self.data.get("results") or {}) or date in (self.data.get("attempts") or {})

    def _save_data(self) -> None:
        self.data.pop("par", None)
        store.set_json(store.DAILY_KEY, self.data)

    # ------------------------------------------------------------------ par
    def ensure_par(self, date: str) -> None:
        if date in self.par or date in self.par_tasks:
            return
        self.par_tasks[date] = asyncio.ensure_future(self._compute_par_safely(date))

    async def _compute_par_safely(self, date: str) -> None:
        try:
            await self._compute_par(date)
        except Exception as exc:  # noqa: BLE001 - a par is optional; never break the table
            self.par_tasks.pop(date, None)
            window.console.warn(f"hearts: par for {date} failed: {exc!r}")

    async def _compute_par(self, date: str) -> None:
        loop = asyncio.get_event_loop()
        started = loop.time()
        await asyncio.sleep(0.05)
        par = await drive(par_steps(date), budget=0.025)
        self.par[date] = int(par)
        self.data.setdefault("par_ms", {})[date] = int((loop.time() - started) * 1000)
        self._save_data()
        self.par_tasks.pop(date, None)
        document.documentElement.dataset.dailyPar = str(par)
        if self.active:
            self.app.render_badge()
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
        result = self.results().get(date)
        saved, _ = self.app.load_saved(store.DAILY_GAME_KEY)
        if saved is not None and saved[1].get("date") == date and saved[0].phase is not Phase.MATCH_OVER:
            self._enter(saved[0], saved[1])
        elif result is not None and saved is not None and saved[1].get("date") == date:
            # finished: show the table as it ended and the stored result
            self._enter(saved[0], saved[1])
            self.show_result_on_ready = True
        else:
            self.start(date, practice=self.attempted(date) or date != local_date())

    def start(self, date: str, practice: bool) -> None:
        app = self.app
        app.gen += 1
        match = daily_match(date)
        meta = {"mode": "daily", "date": date, "practice": practice, "counted": False, "difficulty": OPPONENT_LEVEL}
        if not practice:
            self.data.setdefault("attempts", {})[date] = "started"
            self._save_data()
        self._enter(match, meta)
        app.save()

    def _enter(self, match: Any, meta: dict[str, Any]) -> None:
        app = self.app
        app.m = match
        app.meta = meta
        app.selected, app.hinted, app.received = [], set(), set()
        app.bots = {s: Seatbot(OPPONENT_LEVEL, match.seed, s) for s in (1, 2, 3)}
        self.active = True
        self.date = meta["date"]
        root = document.documentElement
        root.dataset.dailyDate = self.date
        root.dataset.dailyFingerprint = daily_fingerprint(self.date)
        url = f"{window.location.pathname}?daily={self.date}"
        if str(window.location.search or "").find("speed=") >= 0 and app.speed_override:
            url += f"&speed={app.speed_override}"
        window.history.replaceState(None, "", url)

    def after_ready(self) -> None:
        self.ensure_par(self.date)
        if self.show_result_on_ready:
            self.show_result_on_ready = False
            asyncio.ensure_future(self._show_result(self.date, stored=True))
        elif self.app.m is not None and self.app.m.hand.plays == () and self.app.m.phase is Phase.PASSING:
            self.toast_intro()
        asyncio.ensure_future(self.app._midnight_watch())

    def toast_intro(self) -> None:
        meta = self.app.meta
        head = t("daily_title", date=self.date)
        if meta.get("practice"):
            head += f" · {t('practice')}"
        self.app.toast("", seconds=6, html=f"<div>{esc(head)}</div><div data-par-for=\"{esc(self.date)}\">{esc(self.par_text(self.date))}</div>")

    # ------------------------------------------------------------------ panel
    def show_panel(self) -> None:
        today = local_date()
        self.ensure_par(today)
        results = self.results()
        result = results.get(today)
        parts = [f'<p>{esc(t("daily_intro"))}</p>']
        parts.append(
            f'<div class="daily-head"><span class="par" data-par-for="{today}">{esc(self.par_text(today))}</span></div>'
        )
        if result is not None:
            parts.append(self._result_html(result))
            parts.append(
                '<div class="dlg-actions">'
                f'<button type="button" class="secondary" data-action="daily-practice">{esc(t("daily_practice"))}</button>'
                f'<button type="button" class="primary" data-action="daily-share" data-date="{today}" autofocus>{esc(t("share"))}</button></div>'
            )
        else:
            label = t("daily_practice") if self.attempted(today) else t("daily_play")
            action = "daily-practice" if self.attempted(today) else "daily-play"
            parts.append(
                f'<div class="dlg-actions"><button type="button" class="primary" data-action="{action}" autofocus>{esc(label)}</button></div>'
            )
        parts.append(self._history_html(results, today))
        self.app.open_dialog(t("daily_title", date=today), "".join(parts))

    def _result_html(self, r: DailyResult) -> str:
        par = r.par if r.par is not None else "?"
        if r.par is None:
            verdict = ""
        elif r.points < r.par:
            verdict = t("daily_beat")
        elif r.points == r.par:
            verdict = t("daily_equal")
        else:
            verdict = t("daily_over")
        line = "".join(SHARE_GLYPH.get(m, "○") for m in r.markers)
        return (
            f'<p class="result-big" data-daily-points="{r.points}">{esc(t("daily_result", pts=r.points, par=par))}</p>'
            f'<p class="hint-line"><span>{esc(verdict)}</span></p>'
            f'<p class="par" aria-label="{esc(t("markers_label", list=""))}">{esc(line)}</p>'
        )

    def _history_html(self, results: dict[str, DailyResult], today: str) -> str:
        if not results:
            return f'<h3>{esc(t("history"))}</h3><p class="note">{esc(t("no_history"))}</p>'
        s = streaks(results, today)
        day = parse_date(today)
        cells = []
        for i in range(27, -1, -1):
            d = (day - datetime.timedelta(days=i)).isoformat()
            r = results.get(d)
            cls = "par" if r is not None and r.at_or_under_par else ("played" if r is not None else "")
            title = f"{d}: {r.points}/{r.par}" if r is not None else d
            cells.append(f'<span class="{cls}" title="{esc(title)}">{int(d[-2:])}</span>')
        items = []
        for d in sorted(results, reverse=True)[:10]:
            r = results[d]
            good = ' class="good"' if r.at_or_under_par else ""
            items.append(f"<li><span>{esc(d)}</span><span{good}>{r.points} / {r.par if r.par is not None else '?'}</span></li>")
        return (
            f'<h3>{esc(t("history"))}</h3>'
            f'<p>{esc(t("streak_one") if s.played == 1 else t("streak", n=s.played))} · '
            f'{esc(t("streak_par_one") if s.at_or_under_par == 1 else t("streak_par", n=s.at_or_under_par))} · '
            f'{esc(t("played_days", n=s.days_played))}</p>'
            f'<div class="cal" aria-hidden="true">{"".join(cells)}</div><ul class="history">{"".join(items)}</ul>'
        )

    # ------------------------------------------------------------------ actions
    def on_action(self, action: str, el: Any, event: Any) -> None:
        app = self.app
        if action == "daily-play":
            app.close_dialog()
            self.start(local_date(), practice=self.attempted(local_date()))
            self._after_switch()
        elif action == "daily-practice":
            app.close_dialog()
            date = self.date if self.active else local_date()
            self.start(date, practice=True)
            self._after_switch()
        elif action == "daily-open-today":
            app.close_dialog()
            by_id("toast").hidden = True
            today = local_date()
            self.start(today, practice=self.attempted(today))
            self._after_switch()
        elif action == "daily-share":
            date = el.getAttribute("data-date") or self.date
            self.share(str(date))

    def _after_switch(self) -> None:
        app = self.app
        app.set_thinking(None)
        app.render()
        app.focus_first_card()
        self.ensure_par(self.date)
        self.toast_intro()
        app.kick()

    # ------------------------------------------------------------------ end of the hand
    def on_events(self, events: list[Any]) -> None:
        pass

    async def on_hand_over(self, ev: Any) -> None:
        app = self.app
        m = app.m
        date = app.meta.get("date") or self.date
        markers = share_markers(m.hand)
        points = int(ev.points[0])
        counted = not app.meta.get("practice") and not app.meta.get("counted") and date not in (self.data.get("results") or {})
        if counted:
            app.meta["counted"] = True
            app.save()
        by_id("dlg-title").textContent = t("daily_title", date=date)
        app.open_dialog(t("daily_title", date=date), f'<p class="par">{esc(t("par_computing"))}</p>')
        par = await self.wait_par(date)
        result = DailyResult(date, points, par, tuple(markers), moon=ev.moon is not None and int(ev.moon) == 0)
        if counted:
            self.data.setdefault("results", {})[date] = result.to_dict()
            self._save_data()
        await self._show_result(date, stored=False, result=result, practice=not counted)

    async def _show_result(self, date: str, stored: bool, result: DailyResult | None = None, practice: bool = False) -> None:
        app = self.app
        if result is None:
            result = self.results().get(date)
            if result is None:
                return
        parts = []
        if practice:
            parts.append(f'<p class="note">{esc(t("practice"))}</p>')
        parts.append(self._result_html(result))
        parts.append(
            '<div class="dlg-actions">'
            f'<button type="button" class="secondary" data-action="back-to-match">{esc(t("back_to_match"))}</button>'
            f'<button type="button" class="secondary" data-action="daily-practice">{esc(t("daily_practice"))}</button>'
            f'<button type="button" class="primary" data-action="daily-share" data-date="{esc(date)}" autofocus>{esc(t("share"))}</button></div>'
            '<div id="share-out"></div>'
        )
        self._share_result = result
        app.open_dialog(t("daily_title", date=date), "".join(parts))

    # ------------------------------------------------------------------ sharing
    def share_text(self, result: DailyResult) -> str:
        line = "".join(SHARE_GLYPH.get(m, "○") for m in result.markers)
        par = result.par if result.par is not None else "?"
        loc = window.location
        link = f"{loc.origin}{loc.pathname}?daily={result.date}"
        return "\n".join([t("share_title", date=result.date), t("share_points", pts=result.points, par=par), line, link])

    def share(self, date: str) -> None:
        """Called synchronously from the click (the Web Share API needs the user's gesture)."""
        result = self.results().get(date) or getattr(self, "_share_result", None)
        if result is None:
            return
        text = self.share_text(result)
        self.last_share = text
        document.documentElement.dataset.shareText = text
        nav = window.navigator
        force = self.app.params.get("share")
        if force != "clipboard" and force != "manual" and not is_none(getattr(nav, "share", None)) and hasattr(nav, "share"):
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
                promise = clipboard.writeText(text)
                asyncio.ensure_future(self._settle_copy(promise, text))
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
        self.app.toast(t("copied"))
        out = by_id("share-out")
        if not is_none(out) and out is not None:
            out.innerHTML = f'<p class="note" role="status">{esc(t("copied"))}</p>'

    def show_manual(self, text: str) -> None:
        out = by_id("share-out")
        html = f'<p>{esc(t("copy_manual"))}</p><textarea class="share-text" readonly id="share-text">{esc(text)}</textarea>'
        if out is None or is_none(out):
            self.app.open_dialog(t("share"), html)
        else:
            out.innerHTML = html
        area = by_id("share-text")
        area.focus()
        area.select()

    # ------------------------------------------------------------------ midnight
    def on_new_day(self, date: str) -> None:
        self.ensure_par(date)
        html = (
            f"<div>{esc(t('new_daily'))}</div>"
            f'<div class="dlg-actions"><button type="button" class="primary" data-action="daily-open-today">{esc(t("open_new_daily"))}</button></div>'
        )
        self.app.toast("", seconds=3600, html=html)
        if self.active:
            # the open game keeps its own date; it is labelled so dates never mix silently
            self.app.render_badge()

    def badge_text(self) -> str:
        return render.seat_name(0)
