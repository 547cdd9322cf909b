"""Keyboard and screen readers: the whole game can be played with the keyboard, focus is visible."""

from __future__ import annotations

import json
import re

import pytest
from conftest import goto_ready, shot
from playwright.sync_api import Page, expect
from ui_helpers import PLAYABLE, hand_cards, open_game, open_tool, pass_three, use_settings, wait_my_turn_or_dialog

FOCUSED = (
    "() => document.activeElement && document.activeElement.dataset ? "
    "document.activeElement.dataset.card || null : null"
)
ACTIVE_ID = "() => document.activeElement ? document.activeElement.id || document.activeElement.className : null"
UNPLAYABLE = '#hand button[data-card][aria-disabled="true"]'


def _focused_card(page: Page) -> str | None:
    return page.evaluate(FOCUSED)


def _arrow_to(page: Page, card: str) -> None:
    """Move the focus to ``card`` with the arrow keys only (Home, then ArrowRight)."""
    page.keyboard.press("Home")
    for _ in range(14):
        if _focused_card(page) == card:
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"{card} not reachable with the arrow keys")


def _reason_of(page: Page, card: str) -> str:
    """The sentence a card that cannot be played is described by (aria-describedby)."""
    return page.evaluate(
        """c => {
        const el = document.querySelector(`#hand button[data-card="${c}"]`);
        const id = el.getAttribute("aria-describedby");
        return id ? document.getElementById(id).textContent : "";
    }""",
        card,
    )


def _pass_by_keyboard(page: Page) -> None:
    """Skip link, the roving tab stop, every card reached by the arrows, three chosen, Tab to Pass."""
    cards = hand_cards(page)
    assert _focused_card(page) is None, "nothing takes the focus before the player does anything"
    page.keyboard.press("Tab")  # the first Tab stop is the skip link
    expect(page.locator(".skip-link")).to_be_focused()
    box = page.locator(".skip-link").bounding_box()
    assert box is not None and box["y"] >= 0, box  # it shows itself while focused
    shot(page, "keyboard-skip-link-en")
    page.keyboard.press("Enter")
    expect(page.locator(f'#hand button[data-card="{cards[0]}"]')).to_be_focused()  # (the game's worker moves it)
    assert page.eval_on_selector_all("#hand button[data-card][tabindex='0']", "e => e.length") == 1
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", outline  # focus is visible
    seen = [_focused_card(page)]
    for _ in range(len(cards) - 1):
        page.keyboard.press("ArrowRight")
        seen.append(_focused_card(page))
    assert seen == cards, "every card is reached with the arrow keys"
    page.keyboard.press("Home")
    assert _focused_card(page) == cards[0]
    page.keyboard.press("End")
    assert _focused_card(page) == cards[-1]
    page.keyboard.press("Space")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Space")
    expect(page.locator("#hand .card.selected")).to_have_count(3)
    shot(page, "keyboard-pass-selected-en")
    page.keyboard.press("Tab")  # one Tab stop for the whole hand: next is the pass button
    expect(page.locator("#pass-btn")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_selector("#pass-btn", state="hidden")


def test_a_whole_hand_by_keyboard_alone(page: Page) -> None:
    """Pass and play a whole hand with the keyboard: every card reachable, every card that cannot
    be played says why when chosen (the same sentence it is described by), tricks and points in
    the live region."""
    open_game(page, "/?speed=instant&seed=e2e-keys")
    _pass_by_keyboard(page)
    plays = refusals = 0
    while True:
        if wait_my_turn_or_dialog(page) == "dialog":
            break
        page.wait_for_function("sel => document.activeElement && document.activeElement.matches(sel)", arg=PLAYABLE)
        for card in page.eval_on_selector_all(UNPLAYABLE, "e => e.map(x => x.dataset.card)"):
            reason = _reason_of(page, card)
            assert reason, f"{card} is not described by why it cannot be played"
            _arrow_to(page, card)
            page.keyboard.press("Enter")
            expect(page.locator("#prompt.error")).to_have_text(reason)
            assert card in hand_cards(page)
            refusals += 1
        playable = page.eval_on_selector(PLAYABLE, "e => e.dataset.card")
        _arrow_to(page, playable)
        n = len(hand_cards(page))
        page.keyboard.press("Enter")
        page.wait_for_function("n => document.querySelectorAll('#hand button[data-card]').length < n", arg=n)
        plays += 1
        if plays == 1:
            expect(page.locator("#sr-live p").filter(has_text=re.compile("takes? the trick")).first).to_have_text(
                re.compile(
                    r"(You take|\w+ takes) the trick with \w+ of \w+, .+ and \w+ of \w+: (no points|1 "
                    r"point|-?\d+ points)\.$"
                )
            )
    assert plays == 13 and refusals > 0, (plays, refusals)
    expect(page.locator("#sr-live p").last).to_have_text(
        re.compile(r"^Hand 1 is over\. Points this hand: You -?\d+, Pip -?\d+, Hops -?\d+, Shelly -?\d+\.$")
    )
    shot(page, "keyboard-hand-over-en")


def test_screen_reader_names_and_live_region(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-sr")
    expect(page.locator("#hand")).to_have_attribute("role", "group")
    expect(page.locator("#hand")).to_have_attribute("aria-label", "Your hand")
    expect(page.locator("#prompt")).to_have_attribute("aria-live", "polite")
    names = page.eval_on_selector_all(".tools button", "e => e.map(x => x.getAttribute('aria-label'))")
    assert all(names), names
    # seat markers are announced in words
    label = page.locator(".seat[data-seat='1'] .markers").get_attribute("aria-label")
    assert label == "Tricks this hand: no tricks yet"


TOOLS_IN_VIEW = """() => [...document.querySelectorAll('.tools button')].filter(b => !b.hidden).map(b => {
  const r = b.getBoundingClientRect();
  return {action: b.dataset.action, inside: r.left >= 0 && r.right <= innerWidth && r.width > 0,
          label: b.getAttribute('aria-label')};
})"""


@pytest.mark.context(viewport={"width": 1280, "height": 720})
@pytest.mark.parametrize(
    "lang",
    [pytest.param("en", marks=pytest.mark.locale("en-US")), pytest.param("de", marks=pytest.mark.locale("de-DE"))],
)
def test_the_toolbar_fits_its_row_in_a_daily_game_at_1280x720(page: Page, lang: str) -> None:
    """The daily's long badge and "Back to your match" used to push "Fullscreen" off the right edge:
    when the labelled toolbar does not fit, it shows icons (labels stay as tooltips and names)."""
    use_settings(page)
    goto_ready(page, "/?daily=2026-11-29&speed=instant")
    expect(page.locator("#mode-badge")).to_be_visible()
    tools = page.evaluate(TOOLS_IN_VIEW)
    assert len(tools) >= 7 and all(t["inside"] and t["label"] for t in tools), tools
    shot(page, f"toolbar-daily-1280-{lang}")


MOVING = """() => document.getAnimations().filter(a => a.playState !== "finished")
    .map(a => (a.effect && a.effect.target ? a.effect.target.className || a.effect.target.tagName : "?") + ": "
         + (a.animationName || a.transitionProperty || a.constructor.name))"""


@pytest.mark.context(reduced_motion="reduce")
def test_reduced_motion_leaves_nothing_moving(page: Page) -> None:
    """prefers-reduced-motion: no card flies or shakes, no notice slides in: no running animation
    or transition at all, after a refused card and while a trick is played out."""
    use_settings(page, speed="normal")
    goto_ready(page, "/?daily=not-a-day&seed=e2e-motion")  # a notice about the bad link appears
    page.wait_for_selector("#notices .notice")
    assert page.evaluate(MOVING) == []
    pass_three(page)
    assert wait_my_turn_or_dialog(page) == "play"
    refused = page.eval_on_selector(UNPLAYABLE, "e => e.dataset.card")
    page.click(f'#hand button[data-card="{refused}"]', force=True)  # aria-disabled: Playwright would wait
    expect(page.locator("#prompt.error")).to_be_visible()
    assert page.eval_on_selector(f'#hand button[data-card="{refused}"]', "e => e.classList.contains('refused')")
    assert page.evaluate(MOVING) == []
    card = page.eval_on_selector(PLAYABLE, "e => e.dataset.card")
    page.click(f'#hand button[data-card="{card}"]')
    for _ in range(10):  # the trick being played out
        assert page.evaluate(MOVING) == []
        page.wait_for_timeout(60)


# ------------------------------------------------------------------ focus indicators
# What the focused element shows: an outline (style, width, colour, its contrast with what is
# behind it) that no ancestor's overflow cuts off, or a box-shadow it has only while focused.
FOCUS_SEEN = r"""() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  if (!el.dataset.focusSeen) el.dataset.focusSeen = String(document.querySelectorAll('[data-focus-seen]').length + 1);
  const cs = getComputedStyle(el);
  const rgba = c => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  let behind = null;
  for (let a = el.parentElement; a && !behind; a = a.parentElement) {
    const bg = rgba(getComputedStyle(a).backgroundColor);
    if (bg[3] >= 0.9) behind = bg;
  }
  if (!behind) behind = rgba(getComputedStyle(document.documentElement).getPropertyValue('--felt').trim()
                              .replace(/^#(..)(..)(..)$/, (_, r, g, b) => `rgb(${parseInt(r, 16)}, ${parseInt(g, 16)}, ${parseInt(b, 16)})`));
  const width = parseFloat(cs.outlineWidth) || 0, offset = parseFloat(cs.outlineOffset) || 0;
  const colour = rgba(cs.outlineColor);
  const [l1, l2] = [lum(colour), lum(behind)].sort((x, y) => y - x);
  const contrast = (l1 + 0.05) / (l2 + 0.05);
  const outline = cs.outlineStyle !== 'none' && width >= 2 && colour[3] >= 0.6;
  const shadow = cs.boxShadow !== 'none' && el.matches(':focus-visible') && cs.boxShadow !== el.dataset.restShadow;
  const r = el.getBoundingClientRect(), grow = Math.max(0, width + offset);
  const ring = {left: r.left - grow, top: r.top - grow, right: r.right + grow, bottom: r.bottom + grow};
  const clipped = [];
  for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const b = a.getBoundingClientRect();
    const box = {left: b.left + a.clientLeft, top: b.top + a.clientTop};
    box.right = box.left + a.clientWidth; box.bottom = box.top + a.clientHeight;
    const cut = Math.max(box.left - ring.left, box.top - ring.top, ring.right - box.right, ring.bottom - box.bottom);
    if (cut > 0.5) clipped.push(`${a.tagName.toLowerCase()}.${[...a.classList].join('.')} cuts ${cut.toFixed(1)}px`);
  }
  const name = (el.getAttribute('aria-label') || el.textContent || el.getAttribute('name') || el.tagName).trim().slice(0, 30);
  return {key: el.dataset.focusSeen, name: `${el.tagName.toLowerCase()} "${name}"`, visible: r.width > 0 && r.height > 0,
          outline, shadow, contrast: Math.round(contrast * 10) / 10, clipped};
}"""


def _walk_focus(page: Page, where: str, most: int = 70) -> list[str]:
    """Tab through every stop (until the focus comes back round) and say what shows no focus."""
    problems: list[str] = []
    seen: set[str] = set()
    for _ in range(most):
        page.keyboard.press("Tab")
        info = page.evaluate(FOCUS_SEEN)
        if info is None:
            continue
        if info["key"] in seen:
            break
        seen.add(info["key"])
        if not info["visible"]:
            continue
        if not (info["outline"] and info["contrast"] >= 3) and not info["shadow"]:
            problems.append(
                f"{where}: {info['name']}: no visible focus (outline {info['outline']}, contrast {info['contrast']})"
            )
        if info["clipped"]:
            problems.append(f"{where}: {info['name']}: ring cut off: {'; '.join(info['clipped'])}")
    assert seen, f"{where}: Tab reached no control"
    return problems


def _dialog(page: Page, action: str, ready: str) -> None:
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[open]", state="detached")
    open_tool(page, action)
    page.wait_for_selector(f"dialog[open] {ready}")


@pytest.mark.parametrize(
    "lang, look, phone",
    [
        pytest.param("en", "modern", False, marks=pytest.mark.locale("en-US")),
        pytest.param(
            "de",
            "classic",
            True,
            marks=[
                pytest.mark.locale("de-DE"),
                pytest.mark.context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True),
            ],
        ),
    ],
)
def test_every_focusable_control_shows_its_focus(page: Page, lang: str, look: str, phone: bool) -> None:
    """WCAG 2.4.7: the table, Settings, How to play, the statistics, the daily panel, the score
    sheet and the guided hand's panel: every Tab stop shows a focus ring that nothing cuts off."""
    stats = {
        "v": 2,
        "levels": {
            "easy": {
                "standard": {
                    "matches": 1,
                    "won": 1,
                    "hands": 5,
                    "points": 30,
                    "moons_shot": 0,
                    "moons_allowed": 0,
                    "queens": 1,
                }
            }
        },
        "online": {},
        "history": [
            {
                "date": "2026-12-01",
                "level": "easy",
                "preset": "standard",
                "online": False,
                "hands": 5,
                "points": 30,
                "place": 1,
                "shared": False,
            }
        ],
    }
    page.add_init_script(
        "localStorage.getItem('hearts.stats.v1') || localStorage.setItem('hearts.stats.v1', "
        f"{json.dumps(json.dumps(stats))})"
    )
    open_game(page, "/?speed=instant&seed=e2e-focus", lang=lang, look=look)
    problems = _walk_focus(page, "table")
    if page.locator("#more-btn").is_visible():  # a phone: the toolbar's "More" menu, open
        page.click("#more-btn")
        problems += _walk_focus(page, "more menu")
        page.keyboard.press("Escape")
    for action, ready in (
        ("settings", "[data-form]"),
        ("rules", "[data-rules-page]"),
        ("stats", "[data-stats-level]"),
        ("daily", ".par"),
        ("scores", "#dlg-body"),
    ):
        _dialog(page, action, ready)
        if action == "rules":
            page.locator("dialog[open] details summary").first.click()  # an open question too
        problems += _walk_focus(page, action)
        if action == "settings":
            shot(page, f"focus-settings-{lang}-{look}")
    page.keyboard.press("Escape")
    open_tool(page, "rules")
    page.click("[data-rules-page] [data-action='guided-hand']")
    page.wait_for_selector("#guide [data-action='guided-leave']")
    problems += _walk_focus(page, "guided hand")
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("path", ["/?speed=instant&seed=e2e-first-tab", "/?daily=2026-01-03&speed=instant"])
@pytest.mark.parametrize(
    "lang",
    [pytest.param("en", marks=pytest.mark.locale("en-US")), pytest.param("de", marks=pytest.mark.locale("de-DE"))],
)
def test_the_first_tab_reaches_skip_to_your_hand(page: Page, path: str, lang: str) -> None:
    """Nothing takes the focus when the page starts (a pass to choose, or a hold day's 2♣ to lead):
    the first Tab is "Skip to your hand", and Enter puts the focus on the hand."""
    open_game(page, path, lang=lang)
    page.wait_for_selector(f"{PLAYABLE}, #pass-btn:not([hidden])")
    assert page.evaluate("document.activeElement === document.body"), page.evaluate(
        "document.activeElement.outerHTML.slice(0, 80)"
    )
    page.keyboard.press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.matches('#hand button[data-card]')", timeout=5000)
