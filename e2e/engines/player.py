"""A player at the table, in any engine: the moves of the smoke path, by clicks (see driver.py)."""

from __future__ import annotations

from .driver import Driver, SmokeFailure, wait

__all__ = [
    "PLAYABLE",
    "VISIBLE",
    "hand",
    "open_tool",
    "pass_three",
    "play_card",
    "play_until_dialog",
    "state",
    "stored_hands",
]

PLAYABLE = "#hand button[data-card]:not([aria-disabled='true'])"
STATE = """(playable) => {
  if (document.querySelector('dialog[open]')) return 'dialog';
  const pass = document.querySelector('#pass-btn');
  if (pass && !pass.hidden) return 'pass';
  return document.querySelector(playable) ? 'play' : '';
}"""


def state(driver: Driver, timeout_s: float = 60.0) -> str:
    """'pass', 'play' or 'dialog': what the player is asked now (waits until it is one of them)."""
    return str(wait(driver, STATE, "the player's turn or a dialog", PLAYABLE, timeout_s=timeout_s))


def hand(driver: Driver) -> list[str]:
    return list(driver.js("() => [...document.querySelectorAll('#hand button[data-card]')].map(e => e.dataset.card)"))


def stored_hands(driver: Driver) -> int:
    """How many hands the saved match has begun."""
    return int(driver.js("() => JSON.parse(localStorage.getItem('hearts.match.v1')).record.hands.length"))


def pass_three(driver: Driver) -> list[str]:
    """Pick the three highest cards and press "Pass cards"."""
    chosen = hand(driver)[-3:]
    for card in chosen:
        driver.click(f'#hand button[data-card="{card}"]')
    wait(driver, "() => !document.querySelector('#pass-btn').disabled", "Pass cards enabled after three picks")
    driver.click("#pass-btn")
    wait(driver, "() => document.querySelector('#pass-btn').hidden", "the pass made")
    return chosen


def play_card(driver: Driver) -> str:
    """Play the first playable card; it leaves the hand."""
    card = str(wait(driver, "(css) => document.querySelector(css)?.dataset.card", "a playable card", PLAYABLE))
    try:
        driver.click(f'#hand button[data-card="{card}"]')
    except Exception:  # a forced card may have played itself meanwhile (Settings: on by default)
        if card in hand(driver):
            raise
    gone = "(card) => !document.querySelector(`#hand button[data-card='${card}']`)"
    wait(driver, gone, f"{card} played", card)
    return card


def play_until_dialog(driver: Driver, max_moves: int = 16) -> None:
    """Pass when asked, play the first playable card on each turn, until a dialog opens (the hand's
    summary)."""
    for _ in range(max_moves):
        now = state(driver)
        if now == "dialog":
            return
        if now == "pass":
            pass_three(driver)
        else:
            play_card(driver)
    raise SmokeFailure(f"{driver.engine}: no dialog after {max_moves} moves")


VISIBLE = "(css) => { const e = document.querySelector(css); return !!e && e.getClientRects().length > 0; }"


def open_tool(driver: Driver, action: str) -> None:
    """Press a toolbar button, from the "More" menu when the toolbar has no room for it."""
    button = f".tools .tool[data-action='{action}']"
    if not driver.js(VISIBLE, button):
        driver.click("#more-btn")
        button = f"#more-menu .tool[data-action='{action}']"
    driver.click(button)


NO_DIALOG = "() => !document.querySelector('dialog[open]')"


def close_dialog(driver: Driver) -> None:
    """Press the open dialog's ✕ and wait until the game has closed it (the game's worker answers
    the click a moment later)."""
    driver.click("#dlg .dlg-x")
    wait(driver, NO_DIALOG, "the dialog closed")
