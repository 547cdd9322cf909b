"""The smoke path in Chromium, Firefox ESR and WebKitGTK: what every player does, in every engine.

First visit to ready, a whole hand by clicks, a reload that resumes, Hard's answers from its worker,
the dialogs opening at their top, an offline start from the service worker; phone-sized windows
with every control whole (layout.py); the online table (a guest seated through the local relay,
or where there is no WebRTC the sentence that says why).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from .cut import Forwarder
from .driver import Driver, Engine, wait, wait_ready
from .layout import CONTROLS, LANDSCAPE, PORTRAIT
from .player import (
    NO_DIALOG,
    VISIBLE,
    close_dialog,
    hand,
    open_tool,
    pass_three,
    play_card,
    play_until_dialog,
    state,
    stored_hands,
)
from .steps import Steps

# WebRTC only inside a network namespace that has loopback alone (./scripts/test engines): outside
# one, a browser would connect its peers over the machine's own network. WebKitGTK has no WebRTC.
IN_NETNS = os.environ.get("HEARTS_NETNS") == "1"
needs_netns = pytest.mark.skipif(not IN_NETNS, reason="WebRTC runs only in a network namespace")

SEED = "smoke"
WELCOME = "() => !!document.querySelector('#notices [data-notice=\"welcome\"]')"
DIALOG_TITLE = "() => document.querySelector('dialog[open] #dlg-title')?.textContent || ''"
SCORES = "() => [...document.querySelectorAll('.seat .pts')].map(e => e.textContent)"
# the dialog's body is not scrolled, and its first element begins inside it (WebKit scrolled every
# dialog 14 px down when it focused the first control)
AT_TOP = """() => { const body = document.querySelector('dialog[open] #dlg-body');
  return [body.scrollTop, body.firstElementChild.getBoundingClientRect().top >= body.getBoundingClientRect().top]; }"""


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
            wait(driver, NO_DIALOG, "the hand's summary closed")
            assert state(driver) == "pass"
            pass_three(driver)
            assert state(driver) == "play"
            play_card(driver)
            before = (hand(driver), driver.js(SCORES), stored_hands(driver))
            # (the service worker's precaching done first: WebKit logs an interrupted one as an error)
            wait(driver, "() => !!navigator.serviceWorker.controller", "the service worker in control", timeout_s=60)
            driver.reload()
            wait_ready(driver)
            state(driver)
            assert (hand(driver), driver.js(SCORES), stored_hands(driver)) == before
        with step("told where the data may be deleted"):
            kept = str(wait(driver, "() => document.documentElement.dataset.storage", "what the browser promises"))
            notice = "() => !!document.querySelector(\"#notices [data-notice='keep']\")"
            if engine.name == "webkit":  # Safari's engine deletes it after 7 days without a visit
                assert kept == "seven_days"
                wait(driver, notice, "the notice that says so")
                driver.click("#notices [data-close-notice='keep']")
            else:  # asked (Chromium) or not (Firefox would prompt the player): either way no notice
                assert kept in ("space", "kept") and not driver.js(notice), kept
        with step("Hard answers"):
            driver.click(".tool[data-action='settings']")
            driver.click("#dlg [data-action='set-difficulty'][data-value='hard']")
            close_dialog(driver)
            answers = "() => Number(document.documentElement.dataset.botWorkerAnswers || 0)"
            while driver.js(answers) == 0 and state(driver) != "dialog":
                play_card(driver)
            assert driver.js("() => document.documentElement.dataset.botWorker") == "ready"
        with step("dialogs open at their top"):
            for action in ("stats", "rules", "settings"):
                open_tool(driver, action)
                wait(driver, "() => !!document.querySelector('dialog[open]')", f"the {action} dialog")
                driver.js(FRAMES)  # (the page's own scroll handlers have run by the next frame's paint)
                top = driver.js(AT_TOP)
                assert top == [0, True], f"{action}: scrolled {top[0]} px down, first line cut: {not top[1]}"
                close_dialog(driver)
        with step("offline start"):
            site.cut()
            driver.reload()
            wait_ready(driver)
            assert driver.js("() => !!navigator.serviceWorker.controller")
            step.shot("offline")
    finally:
        print("\n" + step.report())
        driver.close()


INVITATION = "#online=" + "a" * 20 + ".B" + "A" * 86  # a link's form: room, the host's public key
CONNECT_S = 120.0  # WebRTC through the local relay: seconds usually, much longer on a loaded machine
LINK = "() => document.querySelector('[data-table-link]')?.getAttribute('href') || ''"
FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


@needs_netns
def test_the_online_table_or_why_not(engine: Engine, site: Forwarder, relay: str, artifacts: Path) -> None:
    """Where WebRTC exists, a guest sits at a table through the local relay; where it does not, the
    page says why, for hosting and for an invitation, and the game goes on."""
    host = engine.open()
    step = Steps(host, artifacts)
    try:
        with step("online panel"):
            host.goto(f"{site.url}?speed=instant&relay={relay}")
            wait_ready(host)
            open_tool(host, "online")
        if not engine.has_webrtc:
            return no_webrtc(host, site, step)
        with step("a table through the local relay"):
            host.fill("#online-name", "Ada")
            host.click("[data-action='online-host']")
            link = str(wait(host, LINK, "the invitation link", timeout_s=CONNECT_S))
            guest = engine.open()
            try:
                guest.goto(link)
                wait_ready(guest)
                guest.fill("#online-name", "Ben")
                guest.click("[data-action='online-join']")
                sit = "[data-action='online-sit'][data-seat='west']"
                wait(guest, VISIBLE, "the host's table found", sit, timeout_s=CONNECT_S)
                guest.click(sit)
                seated = "() => !!document.querySelector(\"[data-lobby-seat='west'][data-kind='remote']\")"
                wait(host, seated, "the guest seated in the host's lobby", timeout_s=CONNECT_S)
                step.shot("online-lobby")
            finally:
                guest.close()
    finally:
        print("\n" + step.report())
        host.close()


def no_webrtc(driver: Driver, site: Forwarder, step: Steps) -> None:
    said = "() => document.querySelector('dialog[open] [data-no-webrtc]')?.textContent || ''"
    with step("hosting without WebRTC says why"):
        assert "WebRTC" in str(wait(driver, said, "the sentence on WebRTC"))
        assert not driver.js("() => !!document.querySelector(\"dialog[open] [data-action='online-host']\")")
        step.shot("no-webrtc")
        close_dialog(driver)
    with step("an invitation without WebRTC says why"):
        driver.goto(f"{site.url}?speed=instant{INVITATION}")
        wait_ready(driver)
        assert "WebRTC" in str(wait(driver, said, "the sentence on WebRTC"))
        close_dialog(driver)
        assert state(driver) == "pass"  # the player's own game
        pass_three(driver)
        assert not driver.js("() => !document.querySelector('#fatal').hidden")


def test_phone_sized_windows_keep_every_control_whole(engine: Engine, site: Forwarder, artifacts: Path) -> None:
    """Upright and sideways, 320 to 430 px wide, with the daily badge and without, in German (the
    longest words) and English; the "More" menu opened. (Chromium and Firefox every size each way;
    WebKit, whose window takes a while to resize, every size with the badge in German, and three
    without it in English.)"""
    every = PORTRAIT + LANDSCAPE
    few = every if engine.name != "webkit" else [(320, 568), (390, 844), (844, 390)]
    driver = engine.open()
    step = Steps(driver, artifacts)
    try:
        with step("phone sizes, daily badge"):
            driver.goto(f"{site.url}?speed=instant&daily=2026-11-30")
            wait_ready(driver)
            driver.click("[data-action='set-lang'][data-value='de']")
            check_sizes(driver, step, every, "de-daily")
            driver.click("[data-action='set-lang'][data-value='en']")
            check_sizes(driver, step, few, "en-daily")
        with step("phone sizes, a match"):
            driver.goto(f"{site.url}?speed=instant&seed=phone-sizes")
            wait_ready(driver)
            check_sizes(driver, step, few, "en-match")
            driver.click("[data-action='set-lang'][data-value='de']")
            check_sizes(driver, step, few, "de-match")
        with step("the More menu"):
            driver.viewport(390, 844)
            driver.click("#more-btn")
            wait(driver, "() => document.querySelector('#more-menu').matches(':popover-open')", "the menu open")
            assert settled(driver) == []
            step.shot("more-menu")
            driver.click("#more-menu .tool[data-action='rules']")
            wait(driver, "() => !!document.querySelector('dialog[open]')", "How to play from the menu")
            assert not driver.js("() => document.querySelector('#more-menu').matches(':popover-open')")
    finally:
        print("\n" + step.report())
        driver.close()


def settled(driver: Driver, timeout_s: float = 3.0) -> list[str]:
    """What the layout check finds once the page has answered the new size (the window's resize
    event, then the toolbar's refit in the next frame: a frame or two, later in Firefox)."""
    deadline = time.monotonic() + timeout_s
    while True:
        driver.js(FRAMES)
        found: list[str] = driver.js(CONTROLS)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def check_sizes(driver: Driver, step: Steps, sizes: list[tuple[int, int]], lang: str) -> None:
    problems = {}
    for width, height in sizes:
        driver.viewport(width, height)
        found = settled(driver)
        if found:
            problems[f"{width}x{height}"] = found
            step.shot(f"{lang}-{width}x{height}")
    assert problems == {}, problems
