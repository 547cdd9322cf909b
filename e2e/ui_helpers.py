"""Helpers for the game-UI e2e tests: drive the table like a player (clicks on cards and buttons)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import goto_ready
from playwright.sync_api import Page

INSTANT = "/?speed=instant"
HAND = "#hand button[data-card]"
PLAYABLE = "#hand button[data-card]:not([aria-disabled='true'])"


def use_settings(page: Page, **settings: Any) -> None:
    """Seed the player's settings before the page loads (only when none are stored yet). Forced cards
    do not play themselves here (a test clicks them); test_comforts.py covers that setting."""
    value = json.dumps({"difficulty": "easy", "autoplay": False, **settings})
    page.add_init_script(
        f"""if (!localStorage.getItem("hearts.settings.v1")) localStorage.setItem("hearts.settings.v1", {json.dumps(value)});"""
    )


def open_game(page: Page, path: str = INSTANT, **settings: Any) -> None:
    use_settings(page, **settings)
    goto_ready(page, path)


def hand_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all(HAND, "els => els.map(e => e.dataset.card)")


def playable_cards(page: Page) -> list[str]:
    return page.eval_on_selector_all(PLAYABLE, "els => els.map(e => e.dataset.card)")


def trick_cards(page: Page) -> dict[str, str]:
    return page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#trick .slot')]
             .filter(s => s.querySelector('[data-card]'))
             .map(s => [s.dataset.slot, s.querySelector('[data-card]').dataset.card]))"""
    )


def drawn_as(page: Page, cards: list[str]) -> None:
    """Wait until ``page`` draws the hand ``cards``: a position the game loads (an import, a tab
    taking over) is drawn a moment after its notice, the old drawing still there until then."""
    page.wait_for_function(
        "(cards) => [...document.querySelectorAll('#hand button[data-card]')].map((e) => e.dataset.card).join() === cards",
        arg=",".join(cards),
    )


def pass_three(page: Page, cards: list[str] | None = None) -> list[str]:
    """Select three cards (the highest by default) and press "Pass cards"."""
    page.wait_for_selector("#pass-btn:not([hidden])")
    chosen = cards or hand_cards(page)[-3:]
    for card in chosen:
        page.click(f'#hand button[data-card="{card}"]')
    page.click("#pass-btn")
    page.wait_for_selector("#pass-btn", state="hidden")
    return chosen


def wait_my_turn_or_dialog(page: Page, timeout: float = 30_000) -> str:
    """'play' when a card can be played, 'pass' when cards must be passed, 'dialog' when a dialog is open."""
    page.wait_for_selector(f"{PLAYABLE}, dialog[open], #pass-btn:not([hidden])", timeout=timeout)
    if page.query_selector("dialog[open]"):
        return "dialog"
    if page.query_selector("#pass-btn:not([hidden])"):
        return "pass"
    return "play"


def play_until_dialog(page: Page, max_plays: int = 14) -> None:
    """Play the first playable card on each turn until a dialog (hand summary) opens."""
    for _ in range(max_plays):
        state = wait_my_turn_or_dialog(page)
        if state == "dialog":
            return
        if state == "pass":
            pass_three(page)
            continue
        play_first(page)
    page.wait_for_selector("dialog[open]", timeout=30_000)


def press_continue(page: Page, button: str = "[data-action='continue']") -> None:
    """Press the open dialog's "Continue" (or its ``button``) and wait for the game's answer: the
    dialog closed, or another in its place (the match's end after the last hand's summary)."""
    title = page.locator("dialog[open] #dlg-title").inner_text()
    page.locator(f"dialog[open] {button}").click()
    page.wait_for_function(
        "(title) => document.querySelector('dialog[open] #dlg-title')?.innerText !== title", arg=title
    )


def play_first(page: Page) -> str:
    """Play the first playable card and wait until it has left the hand."""
    found = page.wait_for_selector(PLAYABLE)
    card = found.get_attribute("data-card") if found else None
    page.click(f'#hand button[data-card="{card}"]')
    page.wait_for_selector(f'#hand button[data-card="{card}"]', state="detached")
    return card


def stored(page: Page, key: str) -> Any:
    raw = page.evaluate("k => localStorage.getItem(k)", key)
    return None if raw is None else json.loads(raw)


def import_file(page: Page, path: Path, text: str) -> None:
    """Write ``text`` to ``path`` and choose it in Settings → Import (the preview opens)."""
    path.write_text(text)
    page.click('.tool[data-action="settings"]')
    with page.expect_file_chooser() as chooser:
        page.click('#dlg [data-action="data-import"]')
    chooser.value.set_files(str(path))


def overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    """Whether two bounding boxes (Playwright's) share more than an edge."""
    assert a is not None and b is not None, "an element without a box"
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def open_tool(page: Page, action: str) -> None:
    """Press a toolbar button: in the row, or in the "More" menu where the row has no room for it."""
    button = page.locator(f".tools > .tool[data-action='{action}']")
    if not button.is_visible():
        page.click("#more-btn")
        button = page.locator(f"#more-menu .tool[data-action='{action}']")
    button.click()
