"""Accessibility in every state of the game: axe-core finds no critical or serious violation.

One parametrized test over the states in ``STATES``. States of one kind of browser (``desktop``,
``phone``, ``de``) share one page, in the listed order, so the suite loads the game only once per
kind; each ``reach`` function brings the page into its state from wherever the previous state left
it (and from a fresh page too, so ``-k review`` works alone). Adding a state is one line:

    State("rules page", "desktop", open_rules),     # open_rules(page) reaches the state

axe-core runs with the WCAG 2.1 A/AA and best-practice tags (``e2e/axe.py``). Two moderate rules
are held too: one ``<h1>`` (``page-has-heading-one``) and all content inside landmarks (``region``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from axe import describe, serious_violations, violations
from conftest import Guard, _screenshot_on_failure, goto_ready, shot
from playwright.sync_api import Browser, Page
from ui_helpers import PLAYABLE, pass_three, play_first, play_until_dialog, use_settings, wait_my_turn_or_dialog

SEED = "a11y-states"
HELD_MODERATE = {"page-has-heading-one", "region"}


# ------------------------------------------------------------------ reaching the states
def fresh(page: Page) -> None:
    """A new match from SEED (stored data cleared; the settings come back from use_settings)."""
    if page.url.startswith("http"):
        page.evaluate("localStorage.clear()")
    goto_ready(page, f"/?speed=instant&seed={SEED}")


def close_dialog(page: Page) -> None:
    if page.url.startswith("http") and page.query_selector("dialog[open]"):
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog[open]", state="detached")


def ensure_table(page: Page) -> None:
    if not page.url.startswith("http") or page.query_selector("html.ready") is None:
        fresh(page)
    close_dialog(page)


def pass_step(page: Page) -> None:
    fresh(page)
    page.wait_for_selector("#pass-btn:not([hidden])")


def mid_hand(page: Page) -> None:
    """The player's turn with two tricks played (some cards unplayable: a suit to follow)."""
    ensure_table(page)
    if page.query_selector("#pass-btn:not([hidden])") is None and page.query_selector(PLAYABLE) is None:
        fresh(page)
    played = 0
    while played < 2:
        state = wait_my_turn_or_dialog(page)
        if state == "pass":
            pass_three(page)
        elif state == "dialog":
            fresh(page)
        else:
            play_first(page)
            played += 1
    wait_my_turn_or_dialog(page)


def dialog_from(action: str, ready: str) -> Callable[[Page], None]:
    """Open the dialog of a toolbar button; ``ready``: a selector inside it once it is drawn."""

    def reach(page: Page) -> None:
        ensure_table(page)
        page.click(f".tools [data-action='{action}']")
        page.wait_for_selector(f"dialog[open] {ready}")

    return reach


def online_panel(page: Page) -> None:
    page._hearts_guard.online = True  # the panel may load the online table's code
    dialog_from("online", "[data-action^='online-']")(page)


def hand_summary(page: Page) -> None:
    if page.query_selector("dialog[open] [data-action='review']") is not None:
        return
    ensure_table(page)
    play_until_dialog(page)
    page.wait_for_selector("dialog[open] [data-action='review']")


def review(page: Page) -> None:
    hand_summary(page)
    page.click("dialog[open] [data-action='review']")
    page.wait_for_selector("#review-stage")
    page.wait_for_selector("[data-review-status='done']", timeout=120_000)


@dataclass(frozen=True)
class State:
    name: str
    kind: str  # which shared page: a key of KINDS
    reach: Callable[[Page], None]


STATES = [
    State("pass step", "desktop", pass_step),
    State("settings", "desktop", dialog_from("settings", "[data-form]")),
    State("daily", "desktop", dialog_from("daily", "[data-action]")),
    State("online panel", "desktop", online_panel),
    State("mid-hand", "desktop", mid_hand),
    State("hand summary", "desktop", hand_summary),
    State("review", "desktop", review),
    State("phone mid-hand", "phone", mid_hand),
    State("German mid-hand", "de", mid_hand),
]
KINDS: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}, "locale": "en-US"},
    "phone": {"viewport": {"width": 390, "height": 844}, "locale": "en-US", "is_mobile": True, "has_touch": True},
    "de": {"viewport": {"width": 1280, "height": 800}, "locale": "de-DE"},
}


# ------------------------------------------------------------------ one page per kind
@dataclass
class Shared:
    page: Page
    guard: Guard


@pytest.fixture(scope="module")
def shared_pages(browser: Browser, base_url: str) -> Iterator[Callable[[str], Shared]]:
    pages: dict[str, Shared] = {}

    def open_kind(kind: str) -> Shared:
        if kind not in pages:
            guard = Guard()
            ctx = browser.new_context(base_url=base_url, **KINDS[kind])
            guard.watch(ctx, route=True)
            page = ctx.new_page()
            use_settings(page)
            pages[kind] = Shared(page, guard)
        return pages[kind]

    yield open_kind
    for shared in pages.values():
        shared.page.context.close()


@pytest.fixture
def state_page(
    request: pytest.FixtureRequest, shared_pages: Callable[[str], Shared]
) -> Iterator[Callable[[str], Page]]:
    opened: list[Page] = []

    def get(kind: str) -> Page:
        shared = shared_pages(kind)
        request.node._hearts_guards = [*getattr(request.node, "_hearts_guards", []), shared.guard]
        opened.append(shared.page)
        return shared.page

    yield get
    _screenshot_on_failure(request, opened)


@pytest.mark.parametrize("state", STATES, ids=[s.name.replace(" ", "-") for s in STATES])
def test_no_serious_accessibility_violation(state: State, state_page: Callable[[str], Page]) -> None:
    page = state_page(state.kind)
    state.reach(page)
    shot(page, f"a11y-{state.name.replace(' ', '-')}")
    found = serious_violations(page)
    assert found == [], f"{state.name}:\n{describe(found)}"
    held = [v for v in violations(page, ("moderate",)) if v["id"] in HELD_MODERATE]
    assert held == [], f"{state.name}:\n{describe(held)}"
