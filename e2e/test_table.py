"""The table: a whole hand through clicks (passing included) to the score sheet; illegal cards; last trick."""

from __future__ import annotations

import re

from conftest import Guard, shot, wait_ready
from playwright.sync_api import Locator, Page, expect
from ui_helpers import (
    PLAYABLE,
    hand_cards,
    open_game,
    pass_three,
    play_first,
    play_until_dialog,
    playable_cards,
    press_continue,
    trick_cards,
    wait_my_turn_or_dialog,
)

KNOWN_REASONS = re.compile(
    r"must follow suit|two of clubs must open|Hearts are not broken|No hearts and no queen of spades"
)


def test_whole_hand_with_passing_to_the_score_sheet(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-table")
    expect(page.locator("#prompt")).to_have_text("Pass 3 cards to the left (to Pip)")
    assert len(hand_cards(page)) == 13
    shot(page, "table-desktop-pass-en")
    expect(page.locator("#pass-btn")).to_be_disabled()
    before = set(hand_cards(page))
    given = pass_three(page)
    # the received cards light up, the passed ones are gone
    page.wait_for_selector("#hand .card.received")
    after = set(hand_cards(page))
    received = after - before
    assert len(received) == 3 and not (set(given) & after)
    assert set(page.eval_on_selector_all("#hand .card.received", "e => e.map(x => x.dataset.card)")) == received
    shot(page, "table-desktop-received-en")
    play_until_dialog(page)
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("#dlg-title")).to_have_text("Hand 1 is over")
    cells = dialog.locator("table.sheet tbody tr").first.locator("td")
    points = [int(cells.nth(i).inner_text().split()[0]) for i in range(4)]
    assert sum(points) in (26, 78), points
    shot(page, "table-desktop-score-sheet-en")
    # closing the tab on the summary and coming back shows the same summary again
    page.reload(wait_until="commit")
    wait_ready(page)
    dialog = page.locator("dialog[open]")
    expect(dialog.locator("#dlg-title")).to_have_text("Hand 1 is over")
    cells = dialog.locator("table.sheet tbody tr").first.locator("td")
    assert [int(cells.nth(i).inner_text().split()[0]) for i in range(4)] == points
    shot(page, "table-desktop-summary-after-reload-en")
    dialog.get_by_role("button", name="Next hand").click()
    expect(page.locator("#prompt")).to_have_text("Pass 3 cards to the right (to Shelly)")
    # once dismissed, the next hand is dealt and saved: the summary stays dismissed
    page.wait_for_function("""() => JSON.parse(localStorage.getItem('hearts.match.v1')).record.hands.length === 2""")
    page.reload(wait_until="commit")
    wait_ready(page)
    expect(page.locator("#prompt")).to_have_text("Pass 3 cards to the right (to Shelly)")
    expect(page.locator("dialog[open]")).to_have_count(0)
    assert len(hand_cards(page)) == 13
    # the match totals are shown at each seat
    assert page.locator(".seat[data-seat='0'] .pts").inner_text() == str(points[0])


def test_a_fourth_card_picked_to_pass_puts_back_the_first(page: Page) -> None:
    open_game(page, "/de/?speed=instant&seed=e2e-table")
    cards, button = hand_cards(page), page.locator("#pass-btn")

    def card(c: str) -> Locator:
        return page.locator(f'#hand button[data-card="{c}"]')

    def picked() -> tuple[list[str], list[str]]:
        return (
            page.eval_on_selector_all('#hand [aria-pressed="true"]', "e => e.map(x => x.dataset.card)"),
            page.eval_on_selector_all("#hand .card.selected", "e => e.map(x => x.dataset.card)"),
        )

    for n, c in enumerate(cards[:4], 1):
        card(c).click()
        expect(card(c)).to_have_attribute("aria-pressed", "true")  # the game has taken the tap
        expect(button).to_have_text(f"Karten geben ({min(n, 3)}/3)")
    expect(card(cards[0])).to_have_attribute("aria-pressed", "false")
    assert picked() == (cards[1:4], cards[1:4])
    expect(button).to_be_enabled()
    card(cards[2]).click()  # put back
    expect(card(cards[2])).to_have_attribute("aria-pressed", "false")
    assert picked() == ([cards[1], cards[3]], [cards[1], cards[3]])
    expect(button).to_have_text("Karten geben (2/3)")
    expect(button).to_be_disabled()
    page.click("[data-action='hint']")  # the hand drawn anew, with the hint: the same picks
    expect(page.locator("#hand .card.hinted")).to_have_count(3)
    assert picked() == ([cards[1], cards[3]], [cards[1], cards[3]])


def test_illegal_card_is_refused_with_its_reason(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-illegal")
    pass_three(page)
    assert wait_my_turn_or_dialog(page) == "play"
    legal = set(playable_cards(page))
    illegal = [c for c in hand_cards(page) if c not in legal]
    assert illegal, "the first trick always restricts the player's cards"
    trick_before = trick_cards(page)
    card = page.locator(f'#hand button[data-card="{illegal[0]}"]')
    expect(card).to_be_disabled()
    card.click(force=True)
    prompt = page.locator("#prompt.error")
    expect(prompt).to_have_text(KNOWN_REASONS)
    shot(page, "table-illegal-card-en")
    # nothing was played
    assert trick_cards(page) == trick_before
    assert illegal[0] in hand_cards(page)


def test_cards_are_labelled_buttons_and_last_trick_can_be_reviewed(page: Page) -> None:
    open_game(page, "/?speed=instant&seed=e2e-labels")
    labels = page.eval_on_selector_all("#hand button[data-card]", "e => e.map(x => x.getAttribute('aria-label'))")
    # what the face shows first, then the spoken name ("6♣, six of clubs")
    assert all(
        re.fullmatch(
            r"(\d+|[JQKA])[♣♦♠♥], (two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) "
            r"of (clubs|diamonds|spades|hearts)",
            x,
        )
        for x in labels
    ), labels
    page.click("[data-action='last-trick']")
    expect(page.locator("dialog[open]")).to_contain_text("No trick has been played yet")
    page.keyboard.press("Escape")
    pass_three(page)
    for _ in range(2):
        assert wait_my_turn_or_dialog(page) == "play"
        play_first(page)
    page.wait_for_function("() => document.querySelectorAll('.markers li').length >= 1")
    page.click("[data-action='last-trick']")
    review = page.locator("dialog[open] .trick-review figure")
    expect(review).to_have_count(4)
    expect(page.locator("dialog[open]")).to_contain_text(re.compile(r"takes the trick|You take the trick"))
    shot(page, "table-last-trick-en")


def test_match_end_shows_the_winner_and_starts_a_new_match(page: Page) -> None:
    short = {
        "pass_cycle": ["left", "right", "across", "hold"],
        "first_trick": "hearts_and_queen",
        "queen_breaks_hearts": False,
        "jack_of_diamonds": False,
        "moon": "add_to_others",
        "target": 10,
        "tie": "shared_win",
    }
    open_game(page, "/?speed=instant&seed=e2e-end", rules=short, preset="custom")
    for _ in range(8):
        play_until_dialog(page, max_plays=20)
        title = page.locator("dialog[open] #dlg-title").inner_text()
        if title == "Match over":
            break
        press_continue(page)
    else:
        raise AssertionError("the match to 10 points did not end")
    dialog = page.locator("dialog[open]")
    expect(dialog.locator(".result-big")).to_have_text(re.compile(r"You win the match!|wins the match\.|Shared win"))
    expect(dialog.locator("table.sheet").first.locator("tbody tr")).to_have_count(4)
    shot(page, "table-match-over-en")
    # a reload at the end of a match shows the result again
    page.reload(wait_until="commit")
    wait_ready(page)
    expect(dialog.locator(".result-big")).to_have_text(re.compile(r"You win the match!|wins the match\.|Shared win"))
    dialog.get_by_role("button", name="New match").click()
    expect(page.locator("#prompt")).to_have_text("Pass 3 cards to the left (to Pip)")
    assert page.eval_on_selector_all(".seat .pts", "e => e.map(x => x.textContent)") == ["0", "0", "0", "0"]
    stats = page.evaluate("JSON.parse(localStorage.getItem('hearts.stats.v1'))")
    assert len(stats["history"]) == 1 and stats["levels"]["easy"]["custom"]["hands"] >= 1
    page.click("[data-action='stats']")
    expect(page.locator("dialog[open] [data-stats-level='easy']")).to_contain_text("1 match")
    shot(page, "stats-en")


def test_python_error_shows_a_friendly_message_not_a_stack_trace(page: Page, page_guard: Guard) -> None:
    """A bug in the game's Python (here: a message it cannot read, as a broken page would send)
    shows the friendly banner, not a stack trace; the trace goes to the console."""
    open_game(page, "/?speed=instant")
    page_guard.allow(r"the game's worker failed|'not a number'")
    page.evaluate("window.heartsGame.post({t: 'reply', id: 'not a number'})")
    expect(page.locator("#fatal")).to_be_visible()
    expect(page.locator("#fatal")).to_contain_text("Something went wrong")
    assert "Traceback" not in page.inner_text("body")
    shot(page, "friendly-error-en")


def test_hold_hand_skips_passing_with_a_notice(page: Page) -> None:
    never = {"pass_cycle": ["hold"]}
    open_game(page, "/?speed=instant&seed=e2e-hold", rules=never, preset="custom")
    expect(page.locator("#toast")).to_have_text("No passing this hand: keep your cards.")
    expect(page.locator("#pass-btn")).to_be_hidden()
    assert wait_my_turn_or_dialog(page) == "play"
    shot(page, "table-hold-hand-en")


def _moon_position() -> tuple[dict, str]:
    """A saved match one card before South shoots the moon (found with a greedy policy; engine-checked)."""
    from hearts import Match, Phase, Rules, Seat, match_to_record

    m = Match(Rules.from_dict({"pass_cycle": ["hold"]}), seed="moon-1021")
    before: dict = {}
    final = ""
    while m.phase is Phase.PLAYING and m.hand_number == 0:
        seat = m.turn
        legal = m.legal_plays(seat)
        card = max(legal) if seat == Seat.SOUTH else min(legal, key=lambda c: (c.rank, c))
        if seat == Seat.SOUTH and m.hand.trick_number == 12 and len(m.current_trick) == 3:
            before, final = match_to_record(m), str(card)
        m.play(seat, card)
    assert m.score_sheet[0].moon == Seat.SOUTH and final
    return before, final


def test_shooting_the_moon_is_announced_with_fanfare(page: Page) -> None:
    import json

    record, final = _moon_position()
    saved = {
        "v": 1,
        "record": record,
        "meta": {
            "mode": "match",
            "practice": False,
            "difficulty": "easy",
            "pending": {"hands": 0, "points": 0, "moons": 0},
        },
    }
    page.add_init_script(
        "localStorage.getItem('seeded') || (localStorage.setItem('hearts.match.v1', "
        f"{json.dumps(json.dumps(saved))}), localStorage.setItem('seeded', '1'))"
    )
    open_game(page, "/?speed=instant")
    expect(page.locator(PLAYABLE)).to_have_count(1)
    assert len(trick_cards(page)) == 3
    page.click(f'#hand button[data-card="{final}"]')
    dialog = page.locator("dialog[open]")
    expect(dialog.locator(".moon")).to_have_text(re.compile(r"You shot the moon! Everyone else takes 26\."))
    cells = dialog.locator("table.sheet tbody tr").first.locator("td")
    assert [cells.nth(i).inner_text().split()[0] for i in range(4)] == ["0", "26", "26", "26"]
    shot(page, "table-moon-en")


def test_the_player_passes_while_hard_bots_are_still_choosing(page: Page) -> None:
    """The pass step is offered at once; the exchange happens when the last bot has chosen."""
    open_game(page, "/?speed=instant&seed=e2e-hard-pass", difficulty="hard")
    before = set(hand_cards(page))
    given = pass_three(page)  # Hard's bots search their passes (about 250 ms each) meanwhile
    page.wait_for_selector("#hand .card.received", timeout=30_000)
    after = set(hand_cards(page))
    assert len(after) == 13 and not (set(given) & after) and len(after - before) == 3
    assert wait_my_turn_or_dialog(page) == "play"  # and the hand goes on
