"""The smoke path in Chromium, Firefox ESR and WebKitGTK: what every player does, in every engine.

First visit to ready, a whole hand by clicks, a reload that resumes, Hard's answers from its worker,
the dialogs opening at their top, and an offline start from the service worker.
"""

from __future__ import annotations

from pathlib import Path

from .cut import Forwarder
from .driver import Engine, wait, wait_ready
from .player import hand, pass_three, play_card, play_until_dialog, state, stored_hands
from .steps import Steps

SEED = "smoke"
WELCOME = "() => !!document.querySelector('#notices [data-notice=\"welcome\"]')"
DIALOG_TITLE = "() => document.querySelector('dialog[open] #dlg-title')?.textContent || ''"
SCORES = "() => [...document.querySelectorAll('.seat .pts')].map(e => e.textContent)"


def test_a_players_path(engine: Engine, site: Forwarder, artifacts: Path) -> None:
    driver = engine.open()
    step = Steps(driver, artifacts)
    try:
        with step("first visit to ready"):
            driver.goto(f"{site.url}?speed=instant&seed={SEED}")
            wait_ready(driver)
            wait(driver, WELCOME, "the first visit's welcome")
            step.shot("first-visit")
        with step("a whole hand by clicks"):
            driver.click("#notices [data-close-notice='welcome']")
            play_until_dialog(driver)
            assert "1" in driver.js(DIALOG_TITLE)
            step.shot("hand-summary")
        with step("reload resumes"):
            driver.click("#dlg [data-action='continue']")
            assert state(driver) == "pass"
            pass_three(driver)
            assert state(driver) == "play"
            play_card(driver)
            before = (hand(driver), driver.js(SCORES), stored_hands(driver))
            driver.reload()
            wait_ready(driver)
            state(driver)
            assert (hand(driver), driver.js(SCORES), stored_hands(driver)) == before
        with step("Hard answers"):
            driver.click(".tool[data-action='settings']")
            driver.click("#dlg [data-action='set-difficulty'][data-value='hard']")
            driver.click("#dlg .dlg-x")
            answers = "() => Number(document.documentElement.dataset.botWorkerAnswers || 0)"
            while driver.js(answers) == 0 and state(driver) != "dialog":
                play_card(driver)
            assert driver.js("() => document.documentElement.dataset.botWorker") == "ready"
        with step("offline start"):
            wait(driver, "() => !!navigator.serviceWorker.controller", "the service worker in control", timeout_s=60)
            site.cut()
            driver.reload()
            wait_ready(driver)
            assert driver.js("() => !!navigator.serviceWorker.controller")
            step.shot("offline")
    finally:
        print("\n" + step.report())
        driver.close()
