"""Daily game UI (placeholder until hearts.daily lands)."""

from __future__ import annotations

from typing import Any

from .dom import window


def local_date() -> str:
    d = window.Date.new()
    return f"{int(d.getFullYear()):04d}-{int(d.getMonth()) + 1:02d}-{int(d.getDate()):02d}"


class DailyUI:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.active = False

    def open_from_link(self, date: str) -> None:
        self.app.resume_or_new()

    def after_ready(self) -> None:
        pass

    def show_panel(self) -> None:
        pass

    def on_action(self, action: str, el: Any, event: Any) -> None:
        pass

    def on_events(self, events: list[Any]) -> None:
        pass

    async def on_hand_over(self, ev: Any) -> None:
        pass

    def on_new_day(self, date: str) -> None:
        pass
