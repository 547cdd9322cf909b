"""The comforts in the browser, clicked through like a player: the hand review (flags with a cost and a
reason, steps with the keyboard), undo in practice, auto-play of a forced card, claiming the rest,
the four-colour deck, reduced motion, and a challenge link opened in a second browser."""

from __future__ import annotations

import re

import pytest
from conftest import Guard, shot
from playwright.sync_api import Browser, Page, expect
from ui_helpers import (
    hand_cards,
    open_game,
    pass_three,
    playable_cards,
    stored,
    use_settings,
    wait_my_turn_or_dialog,
)

from hearts import PRESETS
from hearts.challenge import Challenge, encode

RANKS = "23456789TJQKA"
MATCH_KEY = "hearts.match.v1"
REVIEW_THRESHOLD = 1.5  # hearts.review.REVIEW_THRESHOLD: only decisions that cost more are flagged
REVIEW_TIMEOUT = 120_000  # the whole review in Chromium: ~10 s quiet, much longer when the machine is loaded


def rank(card: str) -> int:
    return RANKS.index(card[0])


def play_card(page: Page, card: str) -> None:
    page.click(f'#hand button[data-card="{card}"]')
    page.wait_for_selector(f'#hand button[data-card="{card}"]', state="detached")


def play_hand_badly(page: Page) -> list[str]:
    """Pass the three lowest cards (keeps the dangerous ones) and play the highest legal card each
    turn: a hand with mistakes the review should find. Returns the cards played."""
    played = []
    for _ in range(16):
        state = wait_my_turn_or_dialog(page)
        if state == "dialog":
            return played
        if state == "pass":
            pass_three(page, sorted(hand_cards(page), key=rank)[:3])
            continue
        card = max(playable_cards(page), key=rank)
        play_card(page, card)
        played.append(card)
    page.wait_for_selector("dialog[open]", timeout=30_000)
    return played


def record_plays(page: Page, hand: int = 0) -> list[str]:
    """The cards played in ``hand`` of the saved match, in order."""
    return list(stored(page, MATCH_KEY)["record"]["hands"][hand].get("plays", []))


def test_review_flags_a_costly_play_with_a_reason_and_steps_with_the_keyboard(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=review-e2e")
    play_hand_badly(page)
    dialog = page.locator("dialog[open]")
    dialog.locator("[data-action='review']").click()
    expect(page.locator("[data-review]")).to_be_visible()
    expect(page.locator("[data-review-status='done']")).to_be_attached(timeout=REVIEW_TIMEOUT)
    flags = page.locator("[data-review-flag]")
    assert flags.count() >= 1, "a hand played this badly has at least one costly decision"
    for i in range(flags.count()):
        flag = flags.nth(i)
        assert float(flag.get_attribute("data-cost") or 0) > REVIEW_THRESHOLD
        text = flag.inner_text()
        assert re.search(r"\d\.\d", text), text  # the cost in points
        assert len(text.split("\n")[-1]) > 20, text  # a sentence that says why
    # the replay: every card of a trick where it was played, forward and back by keyboard
    stage = page.locator("#review-stage")
    expect(stage.locator("[data-review-step='1'] [data-card]")).to_have_count(4)
    page.keyboard.press("ArrowRight")
    expect(stage.locator("[data-review-step='2'] [data-card]")).to_have_count(4)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(stage.locator(".review-pass")).to_be_visible()  # step 0: the passes, both ways
    expect(stage.locator(".review-pass [data-card]")).to_have_count(6)
    page.keyboard.press("End")
    expect(stage.locator("[data-review-step='13']")).to_be_visible()
    # a flag takes the replay to its trick
    step = flags.first.locator("button[data-review-step]").get_attribute("data-review-step")
    flags.first.click()
    expect(stage.locator(f"[data-review-step='{step}']" if step != "0" else ".review-pass")).to_be_visible()
    shot(page, "review-en")
    # "Back" returns to the hand summary it came from (the next hand is not dealt behind it)
    page.click("dialog[open] [data-action='review-back']")
    expect(page.locator("dialog[open] [data-action='challenge']")).to_be_visible()
    expect(page.locator("dialog[open] [data-action='continue']")).to_be_visible()


@pytest.mark.locale("de-DE")
def test_the_review_opens_from_the_score_sheet_in_german_on_a_phone(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=review-e2e")
    play_hand_badly(page)
    page.click("dialog[open] [data-action='continue']")
    page.click("[data-action='scores']")
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("dialog[open] [data-action='review']")
    status = page.locator("[data-review-status='done']")
    expect(status).to_be_attached(timeout=REVIEW_TIMEOUT)
    expect(status).to_contain_text("Entscheidungen geprüft")
    assert page.locator("[data-review-flag]").count() >= 1
    expect(page.locator("[data-review-flag]").first).to_contain_text("Punkte")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "review-de-phone")


def test_undo_takes_back_a_card_and_a_pass_and_makes_the_match_practice(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=undo-e2e")
    undo = page.locator("[data-action='undo']")
    expect(undo).to_be_disabled()
    dealt = hand_cards(page)
    passed = pass_three(page)
    wait_my_turn_or_dialog(page)
    after_pass = hand_cards(page)
    card = playable_cards(page)[0]
    before = [c for c in record_plays(page)]
    play_card(page, card)
    expect(undo).to_be_enabled()
    assert card in record_plays(page)
    undo.click()  # the match still counts: asked first
    expect(page.locator("dialog[open]")).to_contain_text("counts as practice")
    page.click("dialog[open] [data-action='undo-now']")
    page.wait_for_selector(f'#hand button[data-card="{card}"]')
    assert sorted(hand_cards(page)) == sorted(after_pass)
    assert record_plays(page) == before  # the card and the bots' replies after it are gone
    saved = stored(page, MATCH_KEY)
    assert saved["session"]["practice"] is True
    expect(page.locator("#badge, .badge")).to_contain_text(re.compile("Practice|Übung"))
    # and the pass too: the dealt hand is back, waiting for three cards
    undo.click()
    page.wait_for_selector("#pass-btn:not([hidden])")
    assert sorted(hand_cards(page)) == sorted(dealt)
    assert not stored(page, MATCH_KEY)["record"]["hands"][0].get("passes", {}).get("south")
    expect(undo).to_be_disabled()
    # playing on after an undo: the same cards again are accepted, the record stays consistent
    pass_three(page, passed)
    wait_my_turn_or_dialog(page)
    again = playable_cards(page)[0]
    play_card(page, again)
    page.reload()
    page.wait_for_selector("html.ready", state="attached")
    assert again in record_plays(page) and again not in hand_cards(page)


def test_a_forced_card_plays_itself_when_auto_play_is_on(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=autoplay-e2e", autoplay=True)
    clicks = 0
    for _ in range(16):
        state = wait_my_turn_or_dialog(page)
        if state == "dialog":
            break
        if state == "pass":
            pass_three(page)
            continue
        cards = playable_cards(page)
        if len(cards) == 1:
            # forced: it goes by itself after a short beat
            page.wait_for_selector(f'#hand button[data-card="{cards[0]}"]', state="detached", timeout=10_000)
            continue
        play_card(page, cards[0])
        clicks += 1
    expect(page.locator("dialog[open]")).to_be_visible()
    assert clicks <= 12, "the last card of the hand is always forced"
    assert len(record_plays(page)) == 52


def test_claim_the_rest_when_no_points_are_left(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=claim-0")
    claim = page.locator("#claim-btn")
    claimed = False
    for _ in range(16):
        state = wait_my_turn_or_dialog(page)
        if state == "dialog":
            break
        if state == "pass":
            pass_three(page, sorted(hand_cards(page), key=rank)[:3])
            continue
        if claim.is_visible():
            before = stored(page, MATCH_KEY)["record"]
            claim.click()
            page.wait_for_selector("dialog[open]", timeout=30_000)
            claimed = True
            break
        play_card(page, max(playable_cards(page), key=rank))  # high cards: the points go early
    assert claimed, "this deal reaches a point where nothing is left to score"
    assert len(record_plays(page, len(before["hands"]) - 1)) == 52, "the claimed tricks are played out in the record"
    shot(page, "claim-en")


def test_four_colour_deck(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=deck-e2e", deck="four")
    colours = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#hand [data-card]')]
             .map(e => [e.dataset.card.slice(-1), getComputedStyle(e).color]))"""
    )
    assert len(set(colours.values())) == len(colours), colours  # every suit in the hand has its own colour
    shot(page, "four-colour-deck")
    page.click("[data-action='settings']")
    two_colours = page.locator("dialog[open] [data-action='set-deck'][data-value='two']")
    two_colours.click()
    expect(two_colours).to_have_attribute("aria-pressed", "true")  # the game has taken the change
    page.click("dialog[open] [data-action='close-dialog']")
    two = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#hand [data-card]')]
             .map(e => [e.dataset.card.slice(-1), getComputedStyle(e).color]))"""
    )
    assert {"C", "S", "D", "H"} <= set(two), two  # this deal has every suit in the hand
    assert two["C"] == two["S"] and two["D"] == two["H"] and two["C"] != two["D"]


def test_reduced_motion_is_honoured(browser: Browser, base_url: str) -> None:
    ctx = browser.new_context(base_url=base_url, reduced_motion="reduce")
    guard = Guard()
    guard.watch(ctx, route=True)
    try:
        page = ctx.new_page()
        open_game(page, "/?seed=motion-e2e")  # the player's own speed: no ?speed override
        assert page.evaluate("document.documentElement.classList.contains('reduced-motion')")
        durations = page.evaluate(
            """() => [...document.querySelectorAll('#hand [data-card]')].map(e => getComputedStyle(e).transitionDuration)"""
        )
        assert all(all(float(d.rstrip("s")) <= 0.01 for d in value.split(",")) for value in durations), durations
        guard.check()
    finally:
        ctx.close()


def _other_challenge() -> str:
    """A link to another deal, at Medium."""
    return encode(Challenge(seed="challenge-e2e-other", hand=2, rules=PRESETS["standard"], level="medium"))


def test_a_challenge_link_gives_a_friend_the_same_deal_and_compares_results(
    page: Page, browser: Browser, base_url: str
) -> None:
    open_game(page, "/?speed=instant&seed=challenge-e2e")
    dealt = sorted(hand_cards(page))
    play_hand_badly(page)
    mine_points = int(
        page.locator("dialog[open] table.sheet tbody tr").last.locator("td").first.inner_text().split()[0]
    )
    page.click("dialog[open] [data-action='challenge']")
    link = page.locator("[data-challenge-link]").get_attribute("href")
    assert link and "?challenge=" in link
    expect(page.locator("[data-challenge-faces]")).to_contain_text("three Easy bots")
    shot(page, "challenge-link-en")

    friend_ctx = browser.new_context(base_url=base_url, locale="de-DE")
    guard = Guard()
    guard.watch(friend_ctx, route=True)
    try:
        friend = friend_ctx.new_page()
        use_settings(friend)
        friend.goto(link.replace(base_url, "") + "&speed=instant")
        friend.wait_for_selector("html.ready", state="attached", timeout=120_000)
        assert sorted(hand_cards(friend)) == dealt, "the friend gets the same cards"
        expect(friend.locator("#badge, .badge")).to_contain_text(re.compile("Herausforderung|Challenge"))
        pass_three(friend, sorted(hand_cards(friend), key=rank)[:3])  # as play_hand_badly does
        assert wait_my_turn_or_dialog(friend) == "play"
        play_card(friend, max(playable_cards(friend), key=rank))
        left = sorted(hand_cards(friend))
        friend.reload()  # a reload goes on with the same challenge game
        friend.wait_for_selector("html.ready", state="attached", timeout=120_000)
        assert sorted(hand_cards(friend)) == left
        # another link while this one is unfinished: asked first, and "finish the last one" keeps it
        other = f"/?challenge={_other_challenge()}&speed=instant"
        friend.goto(other)
        friend.wait_for_selector("html.ready", state="attached", timeout=120_000)
        ask = friend.locator("dialog[open]")
        expect(ask).to_contain_text("Herausforderungsspiel ist noch nicht zu Ende")
        expect(ask).to_contain_text("Stufe „Mittel“")  # what the new link's friend faces
        shot(friend, "challenge-unfinished-de")
        ask.get_by_role("button", name="Das letzte zu Ende spielen").click()
        expect(friend.locator("dialog[open]")).to_have_count(0)  # (the game's answer comes a moment later)
        friend.wait_for_url(re.compile(re.escape(link.split("?challenge=", 1)[1].split("&")[0])))
        assert sorted(hand_cards(friend)) == left
        play_hand_badly(friend)
        body = friend.locator("dialog[open]")
        expect(body.locator("[data-challenge-mine]")).to_be_visible()
        theirs = body.locator("[data-challenge-theirs]").inner_text()
        assert theirs.strip() == str(mine_points)
        # the same cards played the same way against bots with the same seeds: the same result
        expect(body.locator("[data-challenge-mine]")).to_have_text(str(mine_points))
        shot(friend, "challenge-result-de")
        # the finished game gives way to a new link without asking; then back to the first link, which
        # asks about the unfinished second one, and "play the new challenge" deals the first again
        friend.goto(other)
        friend.wait_for_selector("html.ready", state="attached", timeout=120_000)
        expect(friend.locator("[data-challenge-intro]")).to_contain_text("Stufe „Mittel“")
        expect(friend.locator("dialog[open]")).to_have_count(0)
        friend.goto(link.replace(base_url, "") + "&speed=instant")
        friend.wait_for_selector("html.ready", state="attached", timeout=120_000)
        friend.locator("dialog[open] [data-action='challenge-replace']").click()
        expect(friend.locator("[data-challenge-intro]")).to_contain_text(f"{mine_points} Punkt")
        assert sorted(hand_cards(friend)) == dealt
        # a tampered link: a clear message and a normal table
        token = link.split("?challenge=", 1)[1]
        bad = token[:-3] + ("A" if token[-3] != "A" else "B") + token[-2:]
        friend.goto(f"/?challenge={bad}&speed=instant")
        friend.wait_for_selector("html.ready", state="attached", timeout=120_000)
        expect(friend.locator(".toast, #toast")).to_contain_text(re.compile("Herausforderung|challenge", re.I))
        assert len(hand_cards(friend)) == 13 and "challenge=" not in friend.url
        guard.check()
    finally:
        friend_ctx.close()
