"""Learning the game in the game: "How to play" follows the rules, the first visit's offer, the
guided hand to its end (by clicks and by keyboard), and the notices in a new language."""

from __future__ import annotations

import re

import pytest
from axe import describe, serious_violations
from conftest import goto_ready, shot
from playwright.sync_api import Page, expect
from ui_helpers import PLAYABLE, hand_cards, open_game, open_tool, pass_three, playable_cards, stored

MATCH_KEY = "hearts.match.v1"
STATS_KEY = "hearts.stats.v1"
GUIDED = "html[data-guided='on']"
# what the guided hand adds to the table (the hand's own markup is checked with the table's states)
GUIDE_PARTS = "#guide, .topbar, #prompt"
DONE = "#guide [data-action='guided-hand']"  # "play it again": the guided hand is over


def open_rules(page: Page) -> None:
    open_tool(page, "rules")
    expect(page.locator("dialog[open] [data-rules-page]")).to_be_visible()


def no_serious(page: Page, context: str | None = None) -> None:
    found = serious_violations(page, context)
    assert found == [], describe(found)


def adds_no_violation(page: Page, table: set[str]) -> None:
    """The whole page breaks no serious rule that the table alone does not break already (``table``:
    the rules broken before; the hand's own markup is the table's), and the guide's parts none."""
    no_serious(page, GUIDE_PARTS)
    found = [v for v in serious_violations(page) if v["id"] not in table]
    assert found == [], describe(found)


def test_how_to_play_follows_the_standard_rules_in_both_languages(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=learn-rules")
    expect(page.locator("[data-notice='welcome']")).to_have_count(0)  # settings stored: not a first visit
    open_rules(page)
    rules = page.locator("[data-rules-page]")
    expect(rules).to_have_attribute("data-preset", "standard")
    expect(rules).to_contain_text("Hand 2: to the player on your right")
    expect(rules).to_contain_text("nobody may play a heart or the queen of spades")
    expect(rules).to_contain_text("The queen of spades does not break hearts")
    expect(rules).to_contain_text("reaches 100 points")
    expect(rules).not_to_contain_text("jack of diamonds")
    assert rules.locator(".mini-cards .card").count() >= 8  # small card pictures, our own faces
    rules.locator("[data-faq='heart'] summary").click()
    expect(rules.locator("[data-faq='heart'] p")).to_be_visible()
    expect(rules.locator("[data-faq='no_club'] summary")).to_have_text("What if I have no club?")
    no_serious(page)
    shot(page, "learn-rules-en")
    page.click("dialog[open] [data-action='close-dialog']")
    page.click(".langs button[data-lang='de']")
    open_rules(page)
    expect(rules).to_contain_text("Runde 2: an den Spieler rechts von dir")
    expect(rules).to_contain_text("Im ersten Stich darf niemand Herz oder die Pik-Dame spielen")
    expect(rules).to_contain_text("Was, wenn ich kein Kreuz habe?")
    expect(page.locator("#dlg-title")).to_have_text("So wird gespielt")
    no_serious(page)


@pytest.mark.locale("de-DE")
def test_how_to_play_with_the_jack_and_the_queen_breaking_hearts(page: Page) -> None:
    rules = {
        "jack_of_diamonds": True,
        "queen_breaks_hearts": True,
        "target": 50,
        "moon": "shooters_choice",
        "pass_cycle": ["left", "across", "right", "hold"],
    }
    open_game(page, "/?speed=instant&seed=learn-omnibus", rules=rules)
    open_rules(page)
    page_ = page.locator("[data-rules-page]")
    expect(page_).to_have_attribute("data-preset", "custom")
    expect(page_).to_contain_text("Der Karo-Bube zieht 10 Punkte ab")
    expect(page_).to_contain_text("bricht auch die Pik-Dame Herz")
    expect(page_).to_contain_text("Runde 2: an den Spieler gegenüber")
    expect(page_).to_contain_text("50 Punkte erreicht")
    expect(page_).to_contain_text("außer die Partie endet dadurch")
    expect(page_.locator("[data-rule='jack']").first).to_be_visible()
    expect(page_.locator(".mini-cards [data-card='JD']").first).to_be_visible()
    no_serious(page)
    shot(page, "learn-rules-de-omnibus")


def test_a_first_visit_offers_how_to_play_once(page: Page) -> None:
    goto_ready(page, "/?speed=instant")
    welcome = page.locator("[data-notice='welcome']")
    expect(welcome).to_be_visible()
    expect(welcome.locator("[data-action='guided-hand']")).to_be_visible()
    welcome.locator("[data-action='rules']").click()
    expect(page.locator("[data-rules-page]")).to_be_visible()
    expect(welcome).to_have_count(0)
    page.reload()
    page.wait_for_selector("html.ready", state="attached")
    expect(page.locator("#hand button[data-card]").first).to_be_visible()
    expect(page.locator("[data-notice='welcome']")).to_have_count(0)  # only once


def test_a_daily_link_on_a_first_visit_is_not_interrupted(page: Page) -> None:
    goto_ready(page, "/?speed=instant&daily=2026-01-02")
    expect(page.locator("#mode-badge")).to_contain_text(re.compile("Daily|Täglich"))
    expect(page.locator("[data-notice='welcome']")).to_have_count(0)


def tab_to_hand(page: Page) -> None:
    for _ in range(40):
        if page.evaluate(
            "() => !!(document.activeElement && document.activeElement.matches('#hand button[data-card]'))"
        ):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the hand")


def _play_guided_to_the_end(page: Page, keyboard: bool = False) -> set[str]:
    """Pass and play the guided hand (the player makes every move) until the guide says it is over;
    the tips seen on the way."""
    for _ in range(40):
        page.wait_for_selector(f"{PLAYABLE}, #pass-btn:not([hidden]), {DONE}", timeout=30_000)
        if page.locator(DONE).count():
            return set((page.get_attribute("#guide", "data-told") or "").split())
        if page.locator("#pass-btn:not([hidden])").count():
            if keyboard:
                tab_to_hand(page)
                for key in ("Space", "ArrowRight", "Enter", "ArrowRight", "Space"):
                    page.keyboard.press(key)
                expect(page.locator("#hand .card.selected")).to_have_count(3)
                page.keyboard.press("p")
                page.wait_for_selector("#pass-btn", state="hidden")
            else:
                hinted = page.eval_on_selector_all("#hand .card.hinted", "e => e.map(x => x.dataset.card)")
                pass_three(page, hinted if len(hinted) == 3 else None)
            continue
        n = len(hand_cards(page))
        if keyboard:
            page.wait_for_function(
                "() => document.activeElement && document.activeElement.matches('#hand button[data-card]:enabled')"
            )
            page.keyboard.press("Enter")
        else:
            hinted = [
                c
                for c in page.eval_on_selector_all("#hand .card.hinted", "e => e.map(x => x.dataset.card)")
                if c in playable_cards(page)
            ]
            card = hinted[0] if hinted else playable_cards(page)[0]
            page.click(f'#hand button[data-card="{card}"]')
        page.wait_for_function(
            "n => document.querySelectorAll('#hand button[data-card]').length < n || "
            "document.querySelector(\"#guide [data-action='guided-hand']\")",
            arg=n,
        )
    raise AssertionError("the guided hand did not end")


def test_the_guided_hand_by_clicks_keeps_the_match_and_never_counts(page: Page) -> None:
    open_game(page, "/?speed=fast&seed=learn-guided")
    pass_three(page)
    page.wait_for_selector(PLAYABLE)  # the bots wait for the player: nothing moves now
    table = {v["id"] for v in serious_violations(page)}
    before_hand = hand_cards(page)
    saved_before = stored(page, MATCH_KEY)
    open_rules(page)
    page.click("[data-rules-page] [data-action='guided-hand']")
    expect(page.locator(GUIDED)).to_have_count(1)
    expect(page.locator("#guide")).to_be_visible()
    expect(page.locator("#guide [data-tip='pass']")).to_contain_text("Pip")
    expect(page.locator("#hand .card.hinted")).to_have_count(3)  # the guide points at three cards
    expect(page.locator("#mode-badge")).to_have_text("Guided hand")
    adds_no_violation(page, table)
    shot(page, "learn-guided-pass")
    pass_three(page)  # a pass taken back: the guided hand is practice, Undo asks nothing
    page.wait_for_selector("#pass-btn", state="hidden")
    expect(page.locator("[data-action='undo']")).to_be_enabled()
    page.click("[data-action='undo']")
    expect(page.locator("#pass-btn")).to_be_visible()
    expect(page.locator("#hand button[data-card]")).to_have_count(13)
    expect(page.locator(GUIDED)).to_have_count(1)
    seen = _play_guided_to_the_end(page)
    assert {"pass", "lead_two_of_clubs", "first_trick", "follow_suit", "hearts_broken", "queen_fell"} <= seen, seen
    expect(page.locator("#guide")).to_contain_text("does not count in your statistics")
    adds_no_violation(page, table)
    shot(page, "learn-guided-done")
    assert stored(page, MATCH_KEY) == saved_before  # never saved over the match
    assert stored(page, STATS_KEY) is None  # never counted
    page.click("#guide [data-action='guided-leave']")
    expect(page.locator(GUIDED)).to_have_count(0)
    expect(page.locator("#guide")).to_be_hidden()
    page.wait_for_selector(PLAYABLE)
    assert hand_cards(page) == before_hand  # the match is back as it was


def test_the_guided_hand_by_keyboard_alone_and_left_midway(page: Page) -> None:
    open_game(page, "/?speed=fast&seed=learn-keys")
    open_tool(page, "rules")
    page.locator("[data-rules-page] [data-action='guided-hand']").focus()
    page.keyboard.press("Enter")
    expect(page.locator(GUIDED)).to_have_count(1)
    seen = _play_guided_to_the_end(page, keyboard=True)
    assert "pass" in seen and "hand_over" in seen
    page.locator("#guide [data-action='guided-hand']").focus()
    page.keyboard.press("Enter")  # again, from its first card
    expect(page.locator("#guide [data-tip='pass']")).to_be_visible()
    expect(page.locator("#hand button[data-card]")).to_have_count(13)
    page.locator("#guide [data-action='guided-leave']").focus()
    page.keyboard.press("Enter")  # left at any time
    expect(page.locator(GUIDED)).to_have_count(0)
    expect(page.locator("#pass-btn")).to_be_visible()


def test_undo_after_a_forced_card_goes_back_to_the_last_real_decision(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=autoplay-e2e", autoplay=True)
    pass_three(page)
    for _ in range(13):
        page.wait_for_selector(PLAYABLE, timeout=30_000)
        cards = playable_cards(page)
        if len(cards) == 1:
            page.wait_for_selector(f'#hand button[data-card="{cards[0]}"]', state="detached", timeout=10_000)
            forced = cards[0]
            break
        chosen = cards[-1]
        held = hand_cards(page)
        page.click(f'#hand button[data-card="{chosen}"]')
        page.wait_for_selector(f'#hand button[data-card="{chosen}"]', state="detached")
    else:
        raise AssertionError("no forced card in this hand")
    page.click("[data-action='undo']")
    page.click("dialog[open] [data-action='undo-now']")
    page.wait_for_selector(f'#hand button[data-card="{chosen}"]')
    page.wait_for_selector(PLAYABLE)
    assert sorted(hand_cards(page)) == sorted(held)  # the forced card and the choice before it are back
    assert forced in hand_cards(page) and len(playable_cards(page)) > 1
    page.wait_for_timeout(1500)  # nothing plays itself
    assert sorted(hand_cards(page)) == sorted(held)
    page.click(f'#hand button[data-card="{chosen}"]')  # the player decides again
    page.wait_for_selector(f'#hand button[data-card="{chosen}"]', state="detached")


def test_undo_back_to_a_forced_first_card_waits_for_the_player(page: Page) -> None:
    """A hold day whose 2♣ is the player's: the lead is forced and plays itself; Undo takes it back
    (the player had no choice before it) and then it waits for the player's tap."""
    open_game(page, "/?daily=2026-01-03&speed=instant", autoplay=True)
    page.wait_for_selector('#hand button[data-card="2C"]', state="detached", timeout=10_000)  # it played itself
    page.click("[data-action='undo']")
    page.wait_for_selector('#hand button[data-card="2C"]:not([aria-disabled="true"])')
    page.wait_for_timeout(1500)
    assert "2C" in hand_cards(page), "the forced card played itself again after the undo"
    page.click('#hand button[data-card="2C"]')
    page.wait_for_selector('#hand button[data-card="2C"]', state="detached")


def test_a_notice_follows_a_language_switch(page: Page) -> None:
    goto_ready(page, "/?speed=instant&seed=learn-notice")  # a first visit: the welcome notice is open
    expect(page.locator("[data-notice='welcome']")).to_contain_text("New to Hearts?")
    page.click(".langs button[data-lang='de']")
    expect(page.locator("[data-notice='welcome']")).to_contain_text("Neu bei Hearts?")
    page.click(".langs button[data-lang='en']")
    page.click("[data-notice='welcome'] [data-close-notice='welcome']")
    pass_three(page)
    toast = page.locator("#toast")
    expect(toast).to_contain_text(re.compile(r"You received .* from Shelly"))
    page.click(".langs button[data-lang='de']")
    expect(toast).to_contain_text(re.compile(r"Du hast .* von Shelly bekommen"))


@pytest.mark.locale("de-DE")
@pytest.mark.context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
def test_the_guided_hand_on_a_phone_in_german(page: Page) -> None:
    open_game(page, "/?speed=fast&seed=learn-phone")
    open_tool(page, "rules")  # on a phone: from the toolbar's "More" menu
    expect(page.locator("[data-rules-page]")).to_contain_text("Häufige Fragen")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    page.click("[data-rules-page] [data-action='guided-hand']")
    guide = page.locator("#guide")
    expect(guide.locator("[data-tip='pass']")).to_contain_text("deine gehen an Pip")
    box, hand = guide.bounding_box(), page.locator("#hand").bounding_box()
    assert box is not None and hand is not None and box["y"] + box["height"] <= hand["y"], (box, hand)
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    shot(page, "learn-guided-phone-de")
    hinted = page.eval_on_selector_all("#hand .card.hinted", "e => e.map(x => x.dataset.card)")
    pass_three(page, hinted)
    page.wait_for_selector(PLAYABLE)
    expect(guide.locator("[data-tip='lead_two_of_clubs']")).to_contain_text("Kreuz-2")
    # the panel sits over the other seats: the cards of the trick the player answers stay in sight
    for _ in range(13):
        page.wait_for_selector(PLAYABLE)
        if page.locator("#trick .card").count():
            break
        n = len(hand_cards(page))
        page.click(f'#hand button[data-card="{playable_cards(page)[0]}"]', position={"x": 12, "y": 14})
        page.wait_for_function("n => document.querySelectorAll('#hand button[data-card]').length < n", arg=n)
    box = guide.bounding_box()
    trick = page.eval_on_selector_all(
        "#trick .card", "e => e.map(c => { const r = c.getBoundingClientRect(); return [r.top, r.bottom]; })"
    )
    assert box is not None and trick, (box, trick)
    assert all(top >= box["y"] + box["height"] for top, _ in trick), (box, trick)
    shot(page, "learn-guided-phone-trick-de")
    # a tap on its title folds it to that line; the next tips open it again
    page.click("#guide summary")
    expect(guide.locator(".guide-tip").first).to_be_hidden()
    folded = guide.bounding_box()
    assert folded is not None and folded["height"] < 50, folded
    n = len(hand_cards(page))
    page.click(f'#hand button[data-card="{playable_cards(page)[0]}"]', position={"x": 12, "y": 14})
    page.wait_for_function("n => document.querySelectorAll('#hand button[data-card]').length < n", arg=n)
    expect(guide.locator(".guide-tip").first).to_be_visible()


TOLD = (
    "() => (document.querySelector('#guide') || {}).dataset ? "
    "(document.querySelector('#guide').dataset.told || '') : ''"
)
# the tips on screen at full size (not the smaller line of the one before), inside the panel's visible part
SHOWN = """() => { const panel = document.querySelector('#guide'); const box = panel.getBoundingClientRect();
    return [...panel.querySelectorAll('.guide-tip')].filter(el => {
        const r = el.getBoundingClientRect(), size = parseFloat(getComputedStyle(el).fontSize);
        return r.height > 0 && size >= 14 && r.top >= box.top - 1 && r.top < box.bottom && r.top < innerHeight;
    }).map(el => el.dataset.tip); }"""


@pytest.mark.parametrize(
    "lang, phone, path",
    [
        pytest.param("en", False, "/", marks=pytest.mark.locale("en-US")),
        pytest.param(  # on a phone at the fast pace: the tips come sooner, and the test takes half the time
            "de",
            True,
            "/?speed=fast",
            marks=[
                pytest.mark.locale("de-DE"),
                pytest.mark.context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True),
            ],
        ),
    ],
)
def test_the_guided_hand_with_default_settings_waits_for_every_move(
    page: Page, lang: str, phone: bool, path: str
) -> None:
    """A fresh profile (a forced card plays itself by default), at the page's own pace and at the
    fast one: the guided hand still waits for the player's own tap for each of the 13 cards, and
    every tip the guide gives stays on screen, at full size, until the player's next move."""
    goto_ready(page, path)
    page.locator("[data-notice='welcome'] [data-action='guided-hand']").click()
    expect(page.locator(GUIDED)).to_have_count(1)
    read: set[str] = set()  # the tips told before the player's last move
    plays, forced = 0, 0
    for _ in range(40):
        page.wait_for_selector(f"{PLAYABLE}, #pass-btn:not([hidden]), {DONE}", timeout=60_000)
        if page.locator(DONE).count():
            break
        told = set(page.evaluate(TOLD).split())
        shown = set(page.evaluate(SHOWN))
        assert told - read <= shown, f"told since the last move: {sorted(told - read)}, on screen: {sorted(shown)}"
        if page.locator("#pass-btn:not([hidden])").count():
            hinted = page.eval_on_selector_all("#hand .card.hinted", "e => e.map(x => x.dataset.card)")
            shot(page, f"learn-guided-default-pass-{lang}")
            pass_three(page, hinted if len(hinted) == 3 else None)
            read = told
            continue
        n = len(hand_cards(page))
        if len(playable_cards(page)) == 1:  # a forced card: it waits for the player all the same
            forced += 1
            page.wait_for_timeout(1500)
            assert len(hand_cards(page)) == n, f"a forced card played itself (card {14 - n})"
        if {"queen_fell", "hearts_broken"} <= told - read:
            shot(page, f"learn-guided-default-queen-{lang}{'-phone' if phone else ''}")
        told = set(page.evaluate(TOLD).split())
        hinted = [
            c
            for c in page.eval_on_selector_all("#hand .card.hinted", "e => e.map(x => x.dataset.card)")
            if c in playable_cards(page)
        ]
        card = hinted[0] if hinted else playable_cards(page)[0]
        page.click(
            f'#hand button[data-card="{card}"]', position={"x": 12, "y": 14}
        )  # its corner: a phone's rows overlap
        page.wait_for_function("n => document.querySelectorAll('#hand button[data-card]').length < n", arg=n)
        plays, read = plays + 1, told
    assert plays == 13 and forced > 0, (plays, forced)
    expect(page.locator("#guide [data-tip='hand_over']")).to_be_visible()
    shot(page, f"learn-guided-default-done-{lang}")
