"""hearts_web.review.html: the review's sentences and HTML (no browser needed)."""

from __future__ import annotations

import random
import string

import pytest
from hearts_web.core import i18n
from hearts_web.review import html as review_html
from hearts_web.screen.table_state import Seating
from helpers import step

from hearts import Match, Phase, Rules, Seat
from hearts.review import REASON_CODES, Verdict, review


def setup_function() -> None:
    i18n.set_lang("en")


def _finished_hand(seed: str) -> tuple[Match, int]:
    m = Match(Rules(), seed=seed)
    rng = random.Random(seed)
    while m.phase is not Phase.HAND_OVER:
        step(m, rng)
    return m, 0


@pytest.fixture(scope="module")
def verdicts() -> list[Verdict]:
    out: list[Verdict] = []
    for seed in ("view-a", "view-b", "view-c"):
        m, _ = _finished_hand(seed)
        out += review(m.hands[0], Seat.SOUTH, iterations=12, threshold=0.0, seed="t")
    return out


def test_every_reason_code_has_a_sentence_in_both_languages() -> None:
    assert set(review_html.REASONS_EN) == set(REASON_CODES) == set(review_html.REASONS_DE)
    fields = {
        code: {f for _, f, _, _ in string.Formatter().parse(text) if f} for code, text in review_html.REASONS_EN.items()
    }
    for code, text in review_html.REASONS_DE.items():
        assert {f for _, f, _, _ in string.Formatter().parse(text) if f} == fields[code], code


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_engines_verdicts_become_whole_sentences(verdicts: list[Verdict], lang: str) -> None:
    i18n.set_lang(lang)
    assert {v.kind for v in verdicts} == {"pass", "play"}
    for v in verdicts:
        text = review_html.reason_sentence(v, Seating())
        assert text and "{" not in text and text[0].isupper(), (v.reason, v.params, text)
        for card in v.chosen if v.reason != "search_prefers" else v.best:
            assert i18n.card_label(card) in text or v.reason in ("lead_suit", "risked_queen"), (text, card)


def test_flags_carry_their_cost_and_jump_to_their_trick(verdicts: list[Verdict]) -> None:
    html = review_html.verdicts_html(verdicts, len(verdicts), done=True, seating=Seating())
    flagged = [v for v in verdicts if v.flagged]
    assert html.count("data-review-flag") == len(flagged) > 0
    for v in flagged:
        assert f'data-cost="{v.cost:.2f}"' in html
        assert f'data-review-step="{0 if v.trick is None else v.trick + 1}"' in html
    assert 'data-review-status="done"' in html
    running = review_html.verdicts_html(verdicts[:2], len(verdicts), done=False, seating=Seating())
    assert 'data-review-status="running"' in running and f"2 of {len(verdicts)}" in running


def test_a_clean_hand_says_so() -> None:
    html = review_html.verdicts_html([], 14, done=True, seating=Seating())
    assert "review-clean" in html and "data-review-flag" not in html
    assert "more than 1.5 points" in html  # true to the threshold the engine flags at
    i18n.set_lang("de")
    assert "mehr als 1,5 Punkte" in review_html.verdicts_html([], 14, done=True, seating=Seating())


def test_each_step_shows_the_cards_where_they_were_played() -> None:
    m, _ = _finished_hand("steps")
    hand = m.hands[0]
    assert review_html.step_count(hand) == 14
    passed = review_html.step_html(hand, 0, Seating())
    assert passed.count("data-card=") == 6  # three given, three received
    for n, trick in enumerate(hand.tricks, start=1):
        html = review_html.step_html(hand, n, Seating())
        assert html.count("data-card=") == 4
        for seat, card in trick.plays:
            assert f'data-review-seat="{seat.key}"' in html and f'data-card="{card.text}"' in html
        winner = html.split(f'data-review-seat="{trick.winner.key}"')[0].rsplit("<figure", 1)[1]
        assert " won" in winner


def test_points_in_a_sentence_agree_with_their_number() -> None:
    from dataclasses import replace

    m, _ = _finished_hand("points")
    v = review(m.hands[0], Seat.SOUTH, iterations=4, seed="p")[1]
    one = replace(v, reason="took_points", params=(("card", "QH"), ("best", "2H"), ("points", "1")))
    assert "with 1 point;" in review_html.reason_sentence(one, Seating())
    assert "with 14 points;" in review_html.reason_sentence(
        replace(one, params=(("card", "QS"), ("best", "2S"), ("points", "14"))), Seating()
    )
    i18n.set_lang("de")
    assert "mit 1 Punkt;" in review_html.reason_sentence(one, Seating())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_moon_says_moon_in_each_of_its_three_cases(verdicts: list[Verdict], lang: str) -> None:
    from dataclasses import replace

    i18n.set_lang(lang)
    base = next(v for v in verdicts if v.kind == "play")
    word = "Mond" if lang == "de" else "moon"
    seen = set()
    for kind in ("shot", "allowed", "missed_stop"):
        v = replace(
            base,
            reason="moon",
            params=(("kind", kind), ("seat", "north"), ("card", base.chosen[0].text), ("best", base.chosen[0].text)),
            cost=22.2,
            flagged=True,
        )
        text = review_html.reason_sentence(v, Seating())
        assert word in text and "{" not in text and text not in seen, (kind, text)
        assert ("Hops" in text) == (kind != "shot")
        seen.add(text)
    for table in (review_html.MOON_EN, review_html.MOON_DE):
        assert set(table) == {"shot", "allowed", "missed_stop"}
