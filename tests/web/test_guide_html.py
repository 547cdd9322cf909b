"""hearts_web.learn.guide_html: every tip of the guided hand reads as a sentence in both languages."""

from __future__ import annotations

import random

import pytest
from hearts_web.core import i18n
from hearts_web.learn.guide_html import guide_done, guide_panel, tip_text, welcome_html
from hearts_web.screen.table_state import Seating
from helpers import play_guided, random_player, suggested

from hearts import Rules
from hearts.guide import TIPS, Tip, guided_match, next_tip


def setup_function() -> None:
    i18n.set_lang("en")


def all_tips() -> list[Tip]:
    tips: dict[str, Tip] = {}
    for chooser in [suggested] + [random_player(random.Random(k)) for k in range(6)]:
        for rules in (Rules(), Rules(jack_of_diamonds=True, queen_breaks_hearts=True)):
            for tip in play_guided(chooser, rules)[0]:
                tips.setdefault(tip.code, tip)
    return list(tips.values())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_tip_is_a_sentence(lang: str) -> None:
    i18n.set_lang(lang)
    tips = all_tips()
    assert len(tips) >= len(TIPS) - 2  # (the hold hand and the J♦ need other deals)
    for tip in tips:
        text = tip_text(tip, Seating(), Rules())
        assert text and "{" not in text and "tip_" not in text, (tip.code, text)
        html = guide_panel([tip], Seating(), Rules(), passing=tip.code == "pass")
        assert f'data-tip="{tip.code}"' in html and 'data-action="guided-leave"' in html
    for code in ("hold", "jack_fell"):
        assert "tip_" not in tip_text(Tip(code, {"taker": "west"}), Seating(), Rules())


def test_the_pass_tip_names_the_neighbour_and_suggests_the_queen() -> None:
    tip = next_tip(guided_match().view(0), ())
    assert tip is not None
    html = guide_panel([tip], Seating(), Rules(), passing=True)
    assert "Pip" in html and 'data-card="QS"' in html and "13 points" in html


def test_the_end_of_the_hand_counts_points_right() -> None:
    tip = Tip("hand_over", {"points": 1, "moon": ""})
    assert "you took 1 point." in tip_text(tip, Seating(), Rules())
    i18n.set_lang("de")
    assert "Du hast 1 Punkt bekommen." in tip_text(tip, Seating(), Rules())
    assert "Hops hat den Mond geschossen!" in tip_text(
        Tip("hand_over", {"points": 26, "moon": "north"}), Seating(), Rules()
    )
    done = guide_done(tip, Seating(), Rules())
    assert 'data-action="guided-hand"' in done and 'data-action="guided-leave"' in done


def test_the_welcome_offers_both_ways_to_learn() -> None:
    html = welcome_html()
    assert (
        'data-action="rules"' in html and 'data-action="guided-hand"' in html and 'data-close-notice="welcome"' in html
    )


def test_every_tip_since_the_last_move_is_in_the_panel_with_the_latest_suggestion() -> None:
    """The Q♠ fell, hearts are broken and a seat showed out, all before the player's next move:
    all three are in the panel, one after the other, none pushed out by the next."""
    tips = {tip.code: tip for tip in all_tips()}
    batch = [tips["queen_fell"], tips["hearts_broken"], tips["void_shown"], tips["your_lead"]]
    html = guide_panel(batch, Seating(), Rules(), passing=False)
    for tip in batch:
        assert f'<p class="guide-tip" data-tip="{tip.code}">' in html
    assert html.index('data-tip="queen_fell"') < html.index('data-tip="your_lead"') < html.index("guide-suggest")
    assert html.count("guide-suggest") == 1
    assert "guide-suggest" not in guide_panel(batch, Seating(), Rules(), passing=False, suggest=False)
