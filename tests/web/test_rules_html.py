"""hearts_web.learn.rules_html: "How to play" follows the rules in force, in both languages."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

import pytest
from hearts_web.core import i18n
from hearts_web.learn.rules_html import learn_t, plural_points, rules_page
from hearts_web.learn.text import TEXT

from hearts import PASS_CYCLES, PRESETS, FirstTrick, MoonScoring, Rules, TieRule


def setup_function() -> None:
    i18n.set_lang("en")


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


class Balanced(HTMLParser):
    VOID = {"br", "img", "input", "meta", "link", "hr"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-3:])
        self.stack.pop()


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_makes_a_whole_page(lang: str, preset: str) -> None:
    html = rules_page(PRESETS[preset], lang)
    parser = Balanced()
    parser.feed(html)
    assert parser.stack == []
    assert html.startswith("<div") and "data-rules-page" in html and f'lang="{lang}"' in html
    assert 'data-action="guided-hand"' in html and 'class="card' in html  # our own card faces
    for part in ("aim", "tricks", "pass", "play", "hearts", "score", "moon", "end", "faq"):
        assert f'data-rules-part="{part}"' in html
    assert html.count("<details") >= 6


def test_the_standard_rules_in_english() -> None:
    text = text_of(rules_page(PRESETS["standard"], "en"))
    assert "Standard" in text
    assert "Hand 1: to the player on your left" in text and "Hand 2: to the player on your right" in text
    assert "Hand 3: to the player across the table" in text and "Hand 4: no passing" in text
    assert "nobody may play a heart or the queen of spades" in text
    assert "does not break hearts" in text and "jack of diamonds" not in text
    assert "reaches 100 points" in text and "scores 0 and each of the other three scores 26" in text
    assert "another hand is played" in text
    assert "1 point" in text and "13 points" in text and "1 points" not in text
    assert (
        "Why can't I play this heart?" in text
        and "What if I have no club?" in text
        and "What is shooting the moon?" in text
    )


def test_the_jack_and_the_queen_breaking_hearts_in_german() -> None:
    rules = PRESETS["omnibus"].replace(queen_breaks_hearts=True, target=75)
    html = rules_page(rules, "de")
    text = text_of(html)
    assert "deine eigene Auswahl" in text  # not a preset any more
    assert "Der Karo-Bube zieht 10 Punkte ab" in text and "-10 Punkte" in text
    assert "auch die Pik-Dame Herz" in text and 'data-rule="hearts-queen"' in html
    assert "75 Punkte erreicht" in text
    assert 'data-card="JD"' in html and 'aria-label="B♦, Karo-Bube"' in html
    assert "1 Punkt" in text and "1 Punkte" not in text


def test_each_option_changes_the_page() -> None:
    base = rules_page(Rules(), "en")
    changes = {
        "pass_cycle": PASS_CYCLES["none"],
        "first_trick": FirstTrick.QUEEN_ONLY,
        "queen_breaks_hearts": True,
        "jack_of_diamonds": True,
        "moon": MoonScoring.SHOOTERS_CHOICE,
        "target": 50,
        "tie": TieRule.SHARED_WIN,
    }
    for name, value in changes.items():
        assert rules_page(Rules().replace(**{name: value}), "en") != base, name
    assert "nobody passes" in text_of(rules_page(Rules(pass_cycle=PASS_CYCLES["none"]), "en"))
    king = text_of(rules_page(PRESETS["king"], "en"))
    assert "Hand 2: to the player across the table" in king and "reaches 50 points" in king
    choice = text_of(rules_page(Rules(moon=MoonScoring.SHOOTERS_CHOICE), "en"))
    assert "unless that would end the match" in choice
    minus = text_of(rules_page(Rules(moon=MoonScoring.SUBTRACT_FROM_SHOOTER), "en"))
    assert "(−26)" in minus
    classic = text_of(rules_page(PRESETS["classic"], "en"))
    assert "only the queen of spades is barred" in classic and "hearts are allowed" in classic
    assert "they all win" in text_of(rules_page(Rules(tie=TieRule.SHARED_WIN), "en"))


def test_the_page_language_is_left_as_it_was() -> None:
    i18n.set_lang("en")
    rules_page(Rules(), "de")
    assert i18n.lang() == "en"


def test_both_languages_have_every_sentence_and_plurals() -> None:
    assert set(TEXT["en"]) == set(TEXT["de"])
    for lang in ("en", "de"):
        for key, text in TEXT[lang].items():
            assert text.strip(), (lang, key)
    assert (
        plural_points(1, "en") == "1 point"
        and plural_points(2, "en") == "2 points"
        and plural_points(0, "en") == "0 points"
    )
    assert plural_points(1, "de") == "1 Punkt" and plural_points(13, "de") == "13 Punkte"
    assert learn_t("pass_hand", "de", n=2, where="x") == "Runde 2: x"
