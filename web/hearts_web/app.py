"""The table controller: turns engine events into DOM changes and clicks into engine actions.

No rules live here: legality, scoring, markers and the record all come from ``hearts``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from hearts import CARDS, IllegalAction, Match, PassDirection, Phase, Seat, match_from_record, match_to_record

from . import i18n, render, store
from .bots import Seatbot, hint as bot_hint
from .dom import by_id, closest, document, esc, is_none, listen, qs, qsa, window
from .i18n import t
from .settings import MIN_THINK, TIMINGS, Settings

SOUTH = Seat.SOUTH
SAVE_VERSION = 1


def _suit_index(name: object) -> int | None:
    names = ("clubs", "diamonds", "spades", "hearts")
    if isinstance(name, str) and name.lower() in names:
        return names.index(name.lower())
    if isinstance(name, int) and 0 <= name < 4:
        return int(name)
    return None


class App:
    def __init__(self) -> None:
        self.settings, settings_corrupt = Settings.load()
        self.notices: list[str] = []
        if settings_corrupt:
            self.notices.append(t("save_corrupt"))
        self.m: Match | None = None
        self.meta: dict[str, Any] = {}
        self.bots: dict[int, Seatbot] = {}
        self.selected: list[int] = []
        self.hinted: set[int] = set()
        self.received: set[int] = set()
        self.busy = False
        self.gen = 0
        self.loop_task: Any = None
        self.waiter: asyncio.Future[Any] | None = None
        self.thinking_seat: int | None = None
        self.speed_override: str | None = None
        self.prompt_error_task: Any = None
        self.daily: Any = None  # hearts_web.daily_ui.DailyUI, created lazily
        self.params = self._query_params()

    # ------------------------------------------------------------------ start-up
    @staticmethod
    def _query_params() -> dict[str, str]:
        params: dict[str, str] = {}
        search = str(window.location.search or "")
        for part in search.lstrip("?").split("&"):
            if "=" in part:
                k, v = part.split("=", 1)
                params[k] = str(window.decodeURIComponent(v))
            elif part:
                params[part] = ""
        return params

    def start(self) -> None:
        lang = self.settings.lang or i18n.default_lang(str(window.navigator.language or ""))
        i18n.set_lang(lang)
        if self.params.get("speed") in TIMINGS:
            self.speed_override = self.params["speed"]
        self.apply_look()
        self.apply_speed()
        self.bind()
        if "daily" in self.params:
            from .daily_ui import DailyUI

            self.daily = DailyUI(self)
            self.daily.open_from_link(self.params.get("daily") or "")
        else:
            self.resume_or_new()
        self.apply_texts()
        self.render()
        by_id("app").hidden = False
        document.documentElement.classList.remove("booting")
        document.documentElement.classList.add("ready")
        for notice in self.notices:
            self.toast(notice, warn=True, seconds=9)
        self.notices = []
        pending = self.pending_summary()
        if pending is not None:
            asyncio.ensure_future(self.resume_summary(pending))
        else:
            self.hold_notice_if_fresh()
            self.kick()
            if self.m is not None and self.m.phase is Phase.MATCH_OVER and self.meta.get("mode") == "match":
                asyncio.ensure_future(self.show_match_over())
        if self.daily is not None:
            self.daily.after_ready()
        else:
            asyncio.ensure_future(self._midnight_watch())

    def resume_or_new(self) -> None:
        saved, corrupt = self.load_saved(store.MATCH_KEY)
        if saved is not None:
            self.m, self.meta = saved
            self.make_bots()
        else:
            if corrupt:
                self.notices.append(t("save_corrupt"))
            self.new_match(save=True)

    def load_saved(self, key: str) -> tuple[tuple[Match, dict[str, Any]] | None, bool]:
        """Replay the saved record; unreadable data is backed up, never deleted."""
        try:
            data = store.get_json(key)
        except ValueError:
            store.backup(key)
            return None, True
        if data is None:
            return None, False
        try:
            if not isinstance(data, dict) or data.get("v") != SAVE_VERSION:
                raise ValueError(f"unknown save version {data.get('v') if isinstance(data, dict) else data!r}")
            match = match_from_record(data["record"])
            meta = data.get("meta") or {}
            if not isinstance(meta, dict):
                meta = {}
        except Exception:  # RecordError, KeyError, TypeError...: any unreadable save
            store.backup(key)
            return None, True
        return (match, meta), False

    def new_match(self, save: bool = True) -> None:
        self.gen += 1
        rules = self.settings.rules_obj()
        seed = self.params.pop("seed", None) or None  # ?seed= deals the first match only (tests)
        self.m = Match(rules, seed)
        self.meta = {
            "mode": "match",
            "practice": False,
            "difficulty": self.settings.difficulty,
            "pending": {"hands": 0, "points": 0, "moons": 0},
        }
        self.selected, self.hinted, self.received = [], set(), set()
        self.make_bots()
        if save:
            self.save()

    def make_bots(self) -> None:
        assert self.m is not None
        level = self.meta.get("difficulty") or self.settings.difficulty
        seed = str(self.meta.get("bot_seed") or self.m.seed or "hearts")
        self.bots = {s: Seatbot(level, seed, s) for s in (1, 2, 3)}

    def save_key(self) -> str:
        return store.DAILY_GAME_KEY if self.meta.get("mode") == "daily" else store.MATCH_KEY

    def save(self) -> None:
        if self.m is None:
            return
        store.set_json(self.save_key(), {"v": SAVE_VERSION, "record": match_to_record(self.m), "meta": self.meta})

    # ------------------------------------------------------------------ settings application
    def timings(self) -> tuple[float, float, float]:
        return TIMINGS[self.speed_override or self.settings.speed]

    def apply_look(self) -> None:
        cls = document.documentElement.classList
        if self.settings.look == "classic":
            cls.add("classic")
        else:
            cls.remove("classic")
        meta = qs('meta[name="theme-color"]')
        if meta is not None:
            meta.setAttribute("content", "#007f0e" if self.settings.look == "classic" else "#0f3b2e")

    def apply_speed(self) -> None:
        fly, _, collect = self.timings()
        root = document.documentElement
        root.style.setProperty("--dur", f"{int(max(fly, collect) * 1000)}ms")
        if (self.speed_override or self.settings.speed) == "instant":
            root.classList.add("instant")
        else:
            root.classList.remove("instant")

    def apply_texts(self) -> None:
        document.documentElement.lang = i18n.lang()
        document.title = t("app_name")
        for el in qsa("[data-i18n]"):
            el.textContent = t(el.getAttribute("data-i18n"))
        for el in qsa(".tool"):
            label = qs(".tl", el)
            if label is not None:
                el.setAttribute("title", label.textContent)
                el.setAttribute("aria-label", label.textContent)
        for el in qsa("[data-lang]"):
            el.setAttribute("aria-pressed", "true" if el.getAttribute("data-lang") == i18n.lang() else "false")
        by_id("hand").setAttribute("aria-label", t("your_hand"))
        by_id("trick").setAttribute("aria-label", t("trick"))
        qs(".langs").setAttribute("aria-label", t("language"))
        qs(".tools").setAttribute("aria-label", t("menu"))
        qs(".dlg-x").setAttribute("aria-label", t("close"))
        for s in range(4):
            el = qs(f'.seat[data-seat="{s}"]')
            if el is not None:
                el.setAttribute("aria-label", f"{render.seat_name(s)} ({t(f'seat_{s}')})")
        if not document.fullscreenEnabled:
            by_id("fullscreen-btn").hidden = True

    # ------------------------------------------------------------------ rendering
    def render(self) -> None:
        self.render_seats()
        self.render_trick()
        self.render_hand()
        self.render_prompt()
        self.render_badge()

    def render_badge(self) -> None:
        new_btn = qs('.tool[data-action="new-match"]')
        if new_btn is not None:
            key = "back_to_match" if self.meta.get("mode") == "daily" else "new_match"
            label = qs(".tl", new_btn)
            label.setAttribute("data-i18n", key)
            label.textContent = t(key)
            new_btn.setAttribute("title", t(key))
            new_btn.setAttribute("aria-label", t(key))
        badge = by_id("mode-badge")
        if self.meta.get("mode") == "daily":
            label = t("daily_practice_badge") if self.meta.get("practice") else t("daily_badge")
            text = f"{label} · {self.meta.get('date', '')}"
            par = self.daily.par.get(self.meta.get("date", "")) if self.daily is not None else None
            if par is not None:
                text += f" · {t('par', par=par)}"
            badge.textContent = text
            badge.hidden = False
        elif self.meta.get("practice"):
            badge.textContent = t("practice")
            badge.hidden = False
        else:
            badge.hidden = True

    def render_seats(self) -> None:
        m = self.m
        assert m is not None
        scores = m.scores
        for s in range(4):
            el = qs(f'.seat[data-seat="{s}"]')
            seat = Seat(s)
            el.innerHTML = render.seat_box(
                s, scores[s], m.trick_markers(seat), len(m.cards(seat)), self.thinking_seat == s
            )
            turn = m.phase is Phase.PLAYING and m.turn == seat
            if turn:
                el.classList.add("turn")
            else:
                el.classList.remove("turn")

    def set_thinking(self, seat: int | None) -> None:
        prev = self.thinking_seat
        self.thinking_seat = seat
        for s in {prev, seat}:
            if s is None:
                continue
            box = qs(f'.seat[data-seat="{s}"] .thinking')
            if box is not None:
                box.innerHTML = (
                    f'{esc(t("thinking", name=render.seat_name(s)))}'
                    if s == seat
                    else ""
                )

    def render_trick(self) -> None:
        m = self.m
        assert m is not None
        trick = by_id("trick")
        trick.classList.remove("collect", "to-0", "to-1", "to-2", "to-3")
        plays = {int(seat): card for seat, card in m.current_trick}
        for s in range(4):
            slot = qs(f'.slot[data-slot="{s}"]')
            slot.innerHTML = render.card_face(plays[s]) if s in plays else ""
        self.render_center()

    def render_center(self) -> None:
        m = self.m
        assert m is not None
        info = by_id("center-info")
        if m.phase is Phase.PLAYING and m.hand.hearts_broken:
            info.textContent = "♥\ufe0e " + t("hearts_broken").rstrip("!")
        else:
            info.textContent = ""

    def south_enabled(self) -> list[int]:
        m = self.m
        assert m is not None
        if self.busy or self.waiter is not None:
            return []
        if m.phase is Phase.PASSING and SOUTH in m.waiting_for_pass:
            return [int(c) for c in m.legal_pass_cards(SOUTH)]
        if m.phase is Phase.PLAYING and m.turn == SOUTH:
            return [int(c) for c in m.legal_plays(SOUTH)]
        return []

    def render_hand(self, keep_focus: bool = True) -> None:
        m = self.m
        assert m is not None
        hand = by_id("hand")
        focused = document.activeElement
        focus_card = None
        if keep_focus and not is_none(focused) and focused.getAttribute and hand.contains(focused):
            focus_card = focused.getAttribute("data-card")
        classes: dict[int, str] = {}
        for c in self.selected:
            classes[c] = classes.get(c, "") + " selected"
        for c in self.hinted:
            classes[c] = classes.get(c, "") + " hinted"
        for c in self.received:
            classes[c] = classes.get(c, "") + " received"
        enabled = self.south_enabled()
        hand.innerHTML = render.hand_buttons(m.cards(SOUTH), enabled, classes)
        hand.classList.add("rows2")
        if enabled:
            hand.classList.add("can-play")
            hand.classList.remove("waiting")
        else:
            hand.classList.remove("can-play")
            hand.classList.add("waiting")
        if m.phase is Phase.PASSING:
            for el in qsa("button[data-card]", hand):
                el.setAttribute("aria-pressed", "true" if int(CARDS_BY_TEXT[el.getAttribute("data-card")]) in self.selected else "false")
        if focus_card:
            el = qs(f'button[data-card="{focus_card}"]', hand)
            if el is not None and not el.disabled:
                el.focus()
            else:
                self.focus_first_card()
        pass_btn = by_id("pass-btn")
        passing = m.phase is Phase.PASSING and SOUTH in m.waiting_for_pass
        pass_btn.hidden = not passing
        pass_btn.disabled = not (passing and len(self.selected) == 3 and not self.busy)
        pass_btn.textContent = t("pass_button") + (f" ({len(self.selected)}/3)" if passing else "")

    def maybe_focus_hand(self) -> None:
        """Keyboard players land on a playable card when their turn comes (unless they are elsewhere)."""
        active = document.activeElement
        if by_id("dlg").open:
            return
        if is_none(active) or active == document.body or by_id("hand").contains(active):
            if is_none(active) or not active.matches("#hand button[data-card]:enabled"):
                self.focus_first_card()

    def focus_first_card(self) -> None:
        el = qs("#hand button[data-card]:not(:disabled)")
        if el is not None:
            el.focus()

    def prompt_text(self) -> str:
        m = self.m
        assert m is not None
        if m.phase is Phase.MATCH_OVER:
            return t("match_over")
        if m.phase is Phase.PASSING:
            if SOUTH in m.waiting_for_pass:
                direction = m.pass_direction
                target = direction.target(SOUTH)
                return t(f"pass_{direction.value}", name=render.seat_name(int(target)))
            return t("pass_waiting")
        if m.phase is Phase.PLAYING and m.turn == SOUTH and not self.busy:
            if not m.current_trick:
                if m.hand.trick_number == 0:
                    return t("lead_two_clubs")
                return t("your_lead")
            return t("your_turn")
        return ""

    def render_prompt(self, error: str | None = None) -> None:
        el = by_id("prompt")
        if error:
            el.textContent = error
            el.classList.add("error")
            return
        el.classList.remove("error")
        el.textContent = self.prompt_text()

    def show_error(self, text: str) -> None:
        self.render_prompt(error=text)
        if self.prompt_error_task is not None:
            self.prompt_error_task.cancel()
        self.prompt_error_task = asyncio.ensure_future(self._clear_error_later())

    async def _clear_error_later(self) -> None:
        await asyncio.sleep(4)
        self.prompt_error_task = None
        self.render_prompt()

    def announce(self, text: str) -> None:
        by_id("sr-live").textContent = text

    def toast(self, text: str, warn: bool = False, seconds: float = 3.5, html: str | None = None) -> None:
        el = by_id("toast")
        if html is not None:
            el.innerHTML = html
        else:
            el.textContent = text
        if warn:
            el.classList.add("warn")
        else:
            el.classList.remove("warn")
        el.hidden = False
        token = object()
        self._toast_token = token

        async def hide() -> None:
            await asyncio.sleep(seconds)
            if getattr(self, "_toast_token", None) is token:
                el.hidden = True

        asyncio.ensure_future(hide())

    # ------------------------------------------------------------------ events → animation
    async def animate(self, events: list[Any]) -> None:
        fly, pause, collect = self.timings()
        m = self.m
        assert m is not None
        # When a hand ended, the engine has already dealt the next one: until the summary is
        # dismissed the DOM is updated from the events alone, never re-rendered from the state.
        ahead = any(e.kind in ("hand_over", "match_over") for e in events)
        for ev in events:
            kind = ev.kind
            if kind == "card_played":
                seat = int(ev.seat)
                slot = qs(f'.slot[data-slot="{seat}"]')
                slot.innerHTML = render.card_face(ev.card, "fly-in")
                self.announce(t("plays", name=render.seat_name(seat), card=i18n.card_label(ev.card)))
                if seat == 0:
                    self.hinted = set()
                    self.received = set()
                    if ahead:
                        played = qs(f'#hand button[data-card="{ev.card}"]')
                        if played is not None:
                            played.remove()
                        for el in qsa("#hand button[data-card]"):
                            el.disabled = True
                    else:
                        self.render_hand()
                else:
                    backs = qs(f'.seat[data-seat="{seat}"] .backs i')
                    if backs is not None:
                        backs.remove()
                if fly:
                    await asyncio.sleep(fly)
            elif kind == "hearts_broken":
                by_id("center-info").textContent = "♥\ufe0e " + t("hearts_broken").rstrip("!")
            elif kind == "trick_won":
                winner = int(ev.seat)
                el = qs(f'.slot[data-slot="{winner}"] .card')
                if el is not None:
                    el.classList.add("winner")
                self.announce(t("you_take_trick") if winner == 0 else t("takes_trick", name=render.seat_name(winner)))
                if pause:
                    await asyncio.sleep(pause)
                trick = by_id("trick")
                trick.classList.add("collect", f"to-{winner}")
                if collect:
                    await asyncio.sleep(collect)
                for s in range(4):
                    qs(f'.slot[data-slot="{s}"]').innerHTML = ""
                trick.classList.remove("collect", f"to-{winner}")
                if ahead:
                    marks = qs(f'.seat[data-seat="{winner}"] .markers')
                    if marks is not None:
                        glyph = render.MARKER_GLYPH.get(ev.marker, "")
                        marks.insertAdjacentHTML("beforeend", f'<li class="m-{esc(ev.marker)}" aria-hidden="true">{glyph}</li>')
                else:
                    self.render_seats()
            elif kind == "moon_shot":
                self.meta["last_moon"] = int(ev.seat)
            elif kind == "cards_passed":
                direction = ev.direction
                source = direction.source(SOUTH)
                got = [int(c) for c in ev.given[int(source)]]
                self.received = set(got)
                self.selected = []
                self.render_seats()
                self.render_hand(keep_focus=False)
                names = i18n.join_list([i18n.card_label(c) for c in sorted(got)])
                self.toast(t("received", cards=names, name=render.seat_name(int(source))), seconds=4)
                self.announce(t("received", cards=names, name=render.seat_name(int(source))))
                asyncio.ensure_future(self._clear_received(set(got)))
            elif kind == "hand_over":
                self.set_thinking(None)
                await self.on_hand_over(ev)
            elif kind == "match_over":
                await self.on_match_over(ev)
            elif kind == "hand_started":
                self.selected, self.hinted, self.received = [], set(), set()
                self.render()
                if ev.pass_direction is PassDirection.HOLD:
                    self.toast(t("pass_hold"), seconds=4)
                    self.announce(t("pass_hold"))
                self.focus_first_card()

    async def _clear_received(self, cards: set[int]) -> None:
        await asyncio.sleep(2.6)
        if self.received == cards:
            self.received = set()
            for el in qsa("#hand .card.received"):
                el.classList.remove("received")

    # ------------------------------------------------------------------ the game loop
    def kick(self) -> None:
        if self.loop_task is None or self.loop_task.done():
            self.loop_task = asyncio.ensure_future(self._advance(self.gen))

    async def _advance(self, gen: int) -> None:
        try:
            await self._advance_inner(gen)
        except Exception as exc:  # noqa: BLE001 - show a friendly message, keep the page alive
            self.fatal(exc)

    async def _advance_inner(self, gen: int) -> None:
        while gen == self.gen and self.m is not None:
            m = self.m
            if m.phase is Phase.MATCH_OVER:
                return
            if m.phase is Phase.PASSING:
                if SOUTH in m.waiting_for_pass:
                    self.render_hand()  # the player picks cards while the bots think
                    self.render_prompt()
                for seat in list(m.waiting_for_pass):
                    if seat == SOUTH:
                        continue
                    cards = (await self.bots[int(seat)].decide(m, seat)).cards
                    if gen != self.gen:
                        return
                    events = m.choose_pass(seat, cards)
                    self.save()
                    await self.animate(events)
                if SOUTH in m.waiting_for_pass:
                    self.render_hand()
                    self.render_prompt()
                    return
                continue
            if m.phase is Phase.PLAYING:
                seat = m.turn
                if seat is None:
                    return
                if seat == SOUTH:
                    self.set_thinking(None)
                    self.render_seats()
                    self.render_hand()
                    self.render_prompt()
                    self.maybe_focus_hand()
                    return
                self.set_thinking(int(seat))
                self.render_seats()
                self.render_prompt()
                loop = asyncio.get_event_loop()
                started = loop.time()
                card = (await self.bots[int(seat)].decide(m, seat)).card
                remaining = MIN_THINK[self.speed_override or self.settings.speed] - (loop.time() - started)
                if remaining > 0:
                    await asyncio.sleep(remaining)
                if gen != self.gen:
                    return
                self.set_thinking(None)
                events = m.play(seat, card)
                self.on_events_for_stats(events)
                self.save()
                await self.animate(events)
                continue
            return

    # ------------------------------------------------------------------ player actions
    async def play_card(self, card: int) -> None:
        m = self.m
        assert m is not None
        try:
            m.verify_play(SOUTH, CARDS[card])
        except IllegalAction as exc:
            self.busy = False
            self.render_hand()
            self.explain(exc)
            return
        self.busy = True
        try:
            events = m.play(SOUTH, CARDS[card])
            self.on_events_for_stats(events)
            self.save()
            self.render_prompt()
            await self.animate(events)
        finally:
            self.busy = False
        self.kick()

    def explain(self, exc: IllegalAction) -> None:
        code = getattr(exc.code, "value", str(exc.code))
        details = exc.details or {}
        if code == "must_follow_suit":
            suit = _suit_index(details.get("suit"))
            text = t("err_must_follow_suit", suit=t(f"suit1_{suit}")) if suit is not None else t("err_must_follow_suit_plain")
        else:
            key = f"err_{code}"
            text = t(key) if key in i18n.EN else t("err_other")
        self.show_error(text)
        self.announce(text)

    def toggle_pass_card(self, card: int) -> None:
        if card in self.selected:
            self.selected.remove(card)
        else:
            if len(self.selected) >= 3:
                self.selected.pop(0)
            self.selected.append(card)
        self.render_hand()
        self.render_prompt()

    async def pass_cards(self) -> None:
        m = self.m
        assert m is not None
        if m.phase is not Phase.PASSING or SOUTH not in m.waiting_for_pass:
            return
        try:
            m.verify_pass(SOUTH, [CARDS[c] for c in self.selected])
        except IllegalAction as exc:
            self.explain(exc)
            return
        self.busy = True
        try:
            events = m.choose_pass(SOUTH, [CARDS[c] for c in self.selected])
            self.hinted = set()
            self.save()
            await self.animate(events)
        finally:
            self.busy = False
        self.render()
        self.focus_first_card()
        self.kick()

    # ------------------------------------------------------------------ stats
    def on_events_for_stats(self, events: list[Any]) -> None:
        """Hand results are held in the save until the match ends (practice never counts)."""
        if self.meta.get("mode") != "match":
            return
        pending = self.meta.setdefault("pending", {"hands": 0, "points": 0, "moons": 0})
        for ev in events:
            if ev.kind == "hand_over":
                pending["hands"] += 1
                pending["points"] += int(ev.points[0])
                if ev.moon is not None and int(ev.moon) == 0:
                    pending["moons"] += 1
            elif ev.kind == "match_over" and not self.meta.get("practice") and not self.meta.get("counted"):
                stats, _ = store.load_dict(store.STATS_KEY)
                stats["played"] = int(stats.get("played", 0)) + 1
                stats["won"] = int(stats.get("won", 0)) + (1 if any(int(w) == 0 for w in ev.winners) else 0)
                for k in ("hands", "points", "moons"):
                    stats[k] = int(stats.get(k, 0)) + int(pending.get(k, 0))
                store.set_json(store.STATS_KEY, stats)
                self.meta["counted"] = True
        if self.daily is not None and self.meta.get("mode") == "daily":
            self.daily.on_events(events)

    # ------------------------------------------------------------------ dialogs
    def open_dialog(self, title: str, body: str) -> None:
        dlg = by_id("dlg")
        by_id("dlg-title").textContent = title
        by_id("dlg-body").innerHTML = body
        if not dlg.open:
            dlg.showModal()
        first = qs("#dlg-body [autofocus]") or qs("#dlg-body button")
        if first is not None:
            first.focus()

    def close_dialog(self) -> None:
        dlg = by_id("dlg")
        if dlg.open:
            dlg.close()

    def on_dialog_closed(self, _event: Any = None) -> None:
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(True)
        by_id("dlg").classList.remove("dlg-hand", "dlg-end")

    async def wait_dialog(self) -> None:
        loop = asyncio.get_event_loop()
        self.waiter = loop.create_future()
        for el in qsa("#hand button[data-card]"):
            el.disabled = True
        by_id("pass-btn").hidden = True
        try:
            await self.waiter
        finally:
            self.waiter = None

    def pending_summary(self) -> Any:
        """The score-sheet row whose hand summary was open when the page was left, if any."""
        m = self.m
        n = self.meta.get("summary")
        if m is None or self.meta.get("mode") != "match" or not isinstance(n, int):
            return None
        return m.score_sheet[n] if 0 <= n < len(m.score_sheet) else None

    async def resume_summary(self, row: Any) -> None:
        """After a reload: show the hand summary again, then play on (or show the match end)."""
        try:
            await self.on_hand_over(row)
            m = self.m
            if m is not None and m.phase is Phase.MATCH_OVER:
                self.render()
                await self.show_match_over()
            else:
                self.render()
                self.hold_notice_if_fresh()
                self.kick()
        except Exception as exc:  # noqa: BLE001 - show a friendly message, keep the page alive
            self.fatal(exc)

    async def on_hand_over(self, ev: Any) -> None:
        """The hand summary. ``ev`` is a HandOver event or a score-sheet row (same fields)."""
        m = self.m
        assert m is not None
        for seat in range(4):
            pts = qs(f'.seat[data-seat="{seat}"] .pts')
            if pts is not None:
                pts.textContent = str(ev.totals[seat])
        if self.daily is not None and self.meta.get("mode") == "daily":
            self.render_seats()
            await self.daily.on_hand_over(ev)
            return
        parts = []
        moon = ev.moon
        if moon is not None:
            text = t("moon_you") if int(moon) == 0 else t("moon", name=render.seat_name(int(moon)))
            parts.append(f'<p class="moon" role="status">☾ {esc(text)}</p>')
        hand = m.hands[ev.hand_number]
        parts.append(render.hand_summary(ev.points, [hand.trick_markers(Seat(s)) for s in range(4)]))
        parts.append(render.score_sheet(m.score_sheet))
        if self.meta.get("practice"):
            parts.append(f'<p class="note">{esc(t("practice_note"))}</p>')
        label = t("continue") if m.phase is Phase.MATCH_OVER else t("next_hand")
        parts.append(f'<div class="dlg-actions"><button type="button" class="primary" data-action="continue" autofocus>{esc(label)}</button></div>')
        self.open_dialog(t("hand_over", n=ev.hand_number + 1), "".join(parts))
        by_id("dlg").classList.add("dlg-hand")
        self.meta["summary"] = ev.hand_number  # a reload shows this summary again
        self.save()
        await self.wait_dialog()
        if self.meta.get("summary") == ev.hand_number:
            del self.meta["summary"]
            self.save()

    async def on_match_over(self, ev: Any) -> None:
        m = self.m
        assert m is not None
        if self.meta.get("mode") == "daily":
            return
        self.render()
        await self.show_match_over()

    async def show_match_over(self) -> None:
        m = self.m
        assert m is not None
        winners = [int(w) for w in m.winners]
        if winners == [0]:
            head = t("winner_you")
        elif len(winners) == 1:
            head = t("winner", name=render.seat_name(winners[0]))
        else:
            head = t("winners", names=i18n.join_list([render.seat_name(w) for w in winners]))
        order = sorted(range(4), key=lambda s: m.scores[s])
        rows = "".join(
            f"<tr><td>{i + 1}. {esc(render.seat_name(s))}</td><td>{m.scores[s]}</td></tr>" for i, s in enumerate(order)
        )
        body = (
            f'<p class="result-big">{"🏆&#xFE0E; " if 0 in winners else ""}{esc(head)}</p>'
            f'<h3>{esc(t("standings"))}</h3><table class="sheet"><tbody>{rows}</tbody></table>'
            + (f'<p class="note">{esc(t("practice_note"))}</p>' if self.meta.get("practice") else "")
            + f'<details><summary>{esc(t("score_sheet"))}</summary>{render.score_sheet(m.score_sheet)}</details>'
            f'<div class="dlg-actions"><button type="button" class="primary" data-action="new-match-now" autofocus>{esc(t("new_match"))}</button></div>'
        )
        self.open_dialog(t("match_over"), body)
        by_id("dlg").classList.add("dlg-end")

    def show_scores(self) -> None:
        m = self.m
        assert m is not None
        body = (
            f'<p class="note">{esc(t("target", n=m.rules.target))}</p>'
            + render.score_sheet(m.score_sheet)
            + f'<div class="dlg-actions"><button type="button" class="primary" data-action="close-dialog">{esc(t("close"))}</button></div>'
        )
        self.open_dialog(t("score_sheet"), body)

    def show_last_trick(self) -> None:
        m = self.m
        assert m is not None
        trick = m.last_trick
        if trick is None:
            body = f'<p>{esc(t("no_last_trick"))}</p>'
        else:
            body = render.trick_review(trick.plays, int(trick.winner)) + (
                f'<p>{esc(t("you_take_trick") if int(trick.winner) == 0 else t("takes_trick", name=render.seat_name(int(trick.winner))))}</p>'
            )
        body += f'<div class="dlg-actions"><button type="button" class="primary" data-action="close-dialog">{esc(t("close"))}</button></div>'
        self.open_dialog(t("last_trick"), body)

    def show_stats(self) -> None:
        stats, _ = store.load_dict(store.STATS_KEY)
        played = int(stats.get("played", 0))
        won = int(stats.get("won", 0))
        hands = int(stats.get("hands", 0))
        points = int(stats.get("points", 0))
        avg = f"{points / hands:.1f}" if hands else "–"
        rows = [
            (t("st_played"), str(played)),
            (t("st_won"), f"{won}" + (f" ({round(100 * won / played)} %)" if played else "")),
            (t("st_hands"), str(hands)),
            (t("st_avg"), avg),
            (t("st_moons"), str(int(stats.get("moons", 0)))),
        ]
        body = '<dl class="stats">' + "".join(f"<dt>{esc(a)}</dt><dd>{esc(b)}</dd>" for a, b in rows) + "</dl>"
        body += f'<p class="note">{esc(t("st_note"))}</p>'
        body += f'<div class="dlg-actions"><button type="button" class="primary" data-action="close-dialog">{esc(t("close"))}</button></div>'
        self.open_dialog(t("stats"), body)

    def show_settings(self) -> None:
        from .settings_ui import settings_html

        self.open_dialog(t("settings"), settings_html(self.settings))

    # ------------------------------------------------------------------ hint
    async def show_hint(self) -> None:
        m = self.m
        assert m is not None
        passing = m.phase is Phase.PASSING and SOUTH in m.waiting_for_pass
        playing = m.phase is Phase.PLAYING and m.turn == SOUTH and not self.busy
        if not (passing or playing):
            self.show_error(t("err_not_your_turn"))
            return
        self.render_prompt()
        by_id("prompt").textContent = t("hint_thinking")
        cards, code, params = await bot_hint(m.view(SOUTH))
        if self.m is not m:
            return
        if not self.meta.get("practice"):
            self.meta["practice"] = True
            self.save()
            self.render_badge()
        self.hinted = {int(c) for c in cards}
        self.render_hand()
        names = i18n.join_list([i18n.card_label(c) for c in sorted(cards)])
        head = t("hint_pass", cards=names) if passing else t("hint_play", card=names)
        from .hints import reason_text

        reason = reason_text(code, params)
        text = f"{head} {reason}".strip()
        el = by_id("prompt")
        el.classList.remove("error")
        el.textContent = text
        self.announce(text)

    # ------------------------------------------------------------------ input
    def bind(self) -> None:
        listen(document, "click", self.on_click)
        listen(document, "change", self.on_change)
        listen(by_id("hand"), "pointerup", self.on_hand_pointerup)
        listen(by_id("hand"), "keydown", self.on_hand_key)
        listen(by_id("dlg"), "close", self.on_dialog_closed)
        listen(document, "keydown", self.on_key)

    def guard(self, coro: Any) -> None:
        async def run() -> None:
            try:
                await coro
            except Exception as exc:  # noqa: BLE001
                self.fatal(exc)

        asyncio.ensure_future(run())

    def on_click(self, event: Any) -> None:
        try:
            self._on_click(event)
        except Exception as exc:  # noqa: BLE001
            self.fatal(exc)

    def _on_click(self, event: Any) -> None:
        card_el = closest(event, "#hand button[data-card]")
        if card_el is not None:
            self.on_card(card_el)
            return
        lang_el = closest(event, "[data-lang]")
        if lang_el is not None:
            self.set_lang(lang_el.getAttribute("data-lang"))
            return
        el = closest(event, "[data-action]")
        if el is None:
            return
        action = el.getAttribute("data-action")
        m = self.m
        if action == "pass":
            el.disabled = True
            self.guard(self.pass_cards())
        elif action == "hint":
            self.guard(self.show_hint())
        elif action == "last-trick":
            self.show_last_trick()
        elif action == "scores":
            self.show_scores()
        elif action == "stats":
            self.show_stats()
        elif action == "settings":
            self.show_settings()
        elif action == "fullscreen":
            self.toggle_fullscreen()
        elif action in ("close-dialog", "continue"):
            self.close_dialog()
        elif action == "new-match":
            if m is not None and m.phase is Phase.MATCH_OVER:
                self.start_new_match()
            elif self.meta.get("mode") == "daily":
                self.leave_daily()
            else:
                self.confirm_new_match()
        elif action in ("new-match-now", "apply-rules"):
            self.close_dialog()
            if self.meta.get("mode") == "daily":
                self.leave_daily(new=True)
            else:
                self.start_new_match()
        elif action == "daily":
            from .daily_ui import DailyUI

            if self.daily is None:
                self.daily = DailyUI(self)
            self.daily.show_panel()
        elif action.startswith("daily-"):
            if self.daily is not None:
                self.daily.on_action(action, el, event)
        elif action == "back-to-match":
            self.close_dialog()
            self.leave_daily()
        elif action.startswith("set-"):
            from .settings_ui import on_setting_click

            on_setting_click(self, action, el)

    def confirm_new_match(self) -> None:
        body = (
            f"<p>{esc(t('new_match_confirm'))}</p>"
            f'<div class="dlg-actions"><button type="button" class="secondary" data-action="close-dialog">{esc(t("close"))}</button>'
            f'<button type="button" class="primary" data-action="new-match-now" autofocus>{esc(t("new_match"))}</button></div>'
        )
        self.open_dialog(t("new_match"), body)

    def start_new_match(self) -> None:
        self.close_dialog()
        self.new_match(save=True)
        self.set_thinking(None)
        self.render()
        self.focus_first_card()
        self.hold_notice_if_fresh()
        self.kick()

    def hold_notice_if_fresh(self) -> None:
        """A hold hand skips passing: say so when such a hand has just begun (the first hand of a
        match has no hand_started event; later ones are announced from the event)."""
        m = self.m
        if m is None or m.phase is not Phase.PLAYING or m.pass_direction is not PassDirection.HOLD:
            return
        if not m.hand.plays and not self.notices:
            self.toast(t("pass_hold"), seconds=4)
            self.announce(t("pass_hold"))

    def leave_daily(self, new: bool = False) -> None:
        """Back from a daily game to the saved match (the daily stays saved under its own key)."""
        self.gen += 1
        self.meta = {}
        if self.daily is not None:
            self.daily.active = False
        for name in ("dailyDate", "dailyFingerprint", "dailyPar", "shareText"):
            document.documentElement.removeAttribute("data-" + "".join("-" + ch.lower() if ch.isupper() else ch for ch in name))
        window.history.replaceState(None, "", window.location.pathname)
        self.params.pop("daily", None)
        if new:
            self.new_match(save=True)
        else:
            self.resume_or_new()
        self.selected, self.hinted, self.received = [], set(), set()
        self.set_thinking(None)
        self.render()
        self.kick()

    def on_card(self, el: Any) -> None:
        m = self.m
        assert m is not None
        card = int(CARDS_BY_TEXT[el.getAttribute("data-card")])
        if el.disabled or self.busy or self.waiter is not None:
            return
        if m.phase is Phase.PASSING:
            self.toggle_pass_card(card)
        elif m.phase is Phase.PLAYING and m.turn == SOUTH:
            # lock the hand at once so a double tap cannot play twice
            self.busy = True
            for other in qsa("#hand button[data-card]"):
                other.disabled = True
            self.guard(self.play_card(card))

    def on_hand_pointerup(self, event: Any) -> None:
        """Disabled cards get no click; a tap on one still explains why it cannot be played."""
        el = closest(event, "button[data-card]")
        if el is None or not el.disabled:
            return
        m = self.m
        if m is None or self.busy or self.waiter is not None:
            return
        if m.phase is Phase.PLAYING and m.turn == SOUTH:
            try:
                m.verify_play(SOUTH, CARDS_BY_TEXT[el.getAttribute("data-card")])
            except IllegalAction as exc:
                self.explain(exc)
                el.classList.add("refused")
                asyncio.ensure_future(self._unrefuse(el))
        elif m.phase is Phase.PLAYING:
            self.show_error(t("err_not_your_turn"))

    async def _unrefuse(self, el: Any) -> None:
        await asyncio.sleep(0.4)
        el.classList.remove("refused")

    def on_hand_key(self, event: Any) -> None:
        key = event.key
        if key not in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"):
            return
        cards = [el for el in qsa("#hand button[data-card]") if not el.disabled]
        if not cards:
            return
        current = document.activeElement
        idx = -1
        for i, el in enumerate(cards):
            if el == current or (not is_none(current) and el.getAttribute("data-card") == current.getAttribute("data-card")):
                idx = i
        if key in ("ArrowLeft", "ArrowUp"):
            idx = (idx - 1) % len(cards) if idx >= 0 else len(cards) - 1
        elif key in ("ArrowRight", "ArrowDown"):
            idx = (idx + 1) % len(cards)
        elif key == "Home":
            idx = 0
        else:
            idx = len(cards) - 1
        cards[idx].focus()
        event.preventDefault()

    def on_key(self, event: Any) -> None:
        """Shortcuts outside text fields: H hint, L last trick, S scores, P pass."""
        target = event.target
        tag = str(getattr(target, "tagName", "") or "").lower()
        if tag in ("input", "select", "textarea") or event.ctrlKey or event.metaKey or event.altKey:
            return
        if by_id("dlg").open:
            return
        key = str(event.key or "").lower()
        if key == "h":
            self.guard(self.show_hint())
        elif key == "l":
            self.show_last_trick()
        elif key == "p" and not by_id("pass-btn").disabled:
            self.guard(self.pass_cards())

    def on_change(self, event: Any) -> None:
        from .settings_ui import on_setting_change

        try:
            on_setting_change(self, event)
        except Exception as exc:  # noqa: BLE001
            self.fatal(exc)

    def set_lang(self, lang: str) -> None:
        self.settings.lang = lang
        self.settings.save()
        i18n.set_lang(lang)
        self.apply_texts()
        self.render()
        if by_id("dlg").open and not by_id("dlg").classList.contains("dlg-hand"):
            # re-open informational dialogs in the new language
            if qs("#dlg-body .form") is not None:
                self.show_settings()

    def toggle_fullscreen(self) -> None:
        if not is_none(document.fullscreenElement):
            document.exitFullscreen()
        else:
            document.documentElement.requestFullscreen()

    # ------------------------------------------------------------------ midnight / errors
    async def _midnight_watch(self) -> None:
        from .daily_ui import local_date

        today = local_date()
        while True:
            await asyncio.sleep(5)
            now = local_date()
            if now != today:
                today = now
                if self.daily is None:
                    from .daily_ui import DailyUI

                    self.daily = DailyUI(self)
                self.daily.on_new_day(now)

    def fatal(self, exc: BaseException) -> None:
        """A friendly message instead of a stack trace; details go to the console."""
        import traceback

        window.console.warn("hearts: " + "".join(traceback.format_exception(exc)))
        by_id("fatal-text").textContent = t("error")
        by_id("fatal-reload").textContent = t("reload")
        by_id("fatal").hidden = False


CARDS_BY_TEXT = {str(c): c for c in CARDS}
