"""hearts_web.data.settings and settings_ui: stored settings, and what a tap or a field changes."""

from __future__ import annotations

import pytest
from hearts_web.core import i18n
from hearts_web.data.registry import SETTINGS, SavedData
from hearts_web.data.settings import Settings
from hearts_web.data.store import MemoryStorage, Store, Unreadable
from hearts_web.settings.form import on_change, on_click, settings_html

from hearts import PRESETS


def test_settings_round_trip_through_the_store() -> None:
    store = Store(MemoryStorage())
    s = Settings(lang="de", difficulty="hard", look="classic", speed="fast", rules=PRESETS["king"])
    saved = SavedData(store, lambda notices: None, lambda: "easy")
    assert saved.write(SETTINGS, s)
    assert saved.get(SETTINGS) == s and store.get_json(SETTINGS.key)["preset"] == "king"  # type: ignore[index]


def test_unknown_values_fall_back_to_the_defaults_and_are_reported() -> None:
    decoded = Settings.decode({"difficulty": "godlike", "speed": "warp", "rules": {"target": -5}, "extra": 1})
    assert decoded.value == Settings() and decoded.repairs.made == {
        "unknown": 1,
        "difficulty": 1,
        "speed": 1,
        "rules": 1,
    }
    decoded = Settings.decode({"difficulty": "easy"})
    assert not decoded.repairs and decoded.value.difficulty == "easy"
    with pytest.raises(Unreadable):
        Settings.decode(["easy"])


def test_taps_and_fields_change_the_settings() -> None:
    s = Settings()
    assert on_click(s, "set-difficulty", "hard") == "difficulty" and s.difficulty == "hard"
    assert on_click(s, "set-difficulty", "hard") is None  # no change
    assert on_click(s, "set-look", "neon") is None and s.look == "modern"
    assert on_change(s, "preset", "king", False) == "rules" and s.rules == PRESETS["king"] and s.preset == "king"
    assert on_change(s, "jack_of_diamonds", "on", True) == "rules" and s.rules.jack_of_diamonds and s.preset == "custom"
    assert on_change(s, "target", "abc", False) is None
    assert on_change(s, "moon", "nonsense", False) is None and s.rules.jack_of_diamonds
    assert on_change(s, "speed", "fast", False) == "speed" and s.speed == "fast"


def test_the_dialog_shows_the_current_choices() -> None:
    i18n.set_lang("en")
    html = settings_html(Settings(difficulty="easy", rules=PRESETS["omnibus"]))
    assert 'data-value="easy" aria-pressed="true"' in html
    assert '<option value="omnibus" selected>' in html and 'name="jack_of_diamonds" checked' in html


def test_deck_and_auto_play_are_checked_and_kept() -> None:
    decoded = Settings.decode({"deck": "four", "autoplay": False})
    s = decoded.value
    assert not decoded.repairs and s.deck == "four" and s.autoplay is False
    assert Settings().autoplay is True and Settings().deck == "two"  # forced cards play themselves by default
    for bad in ({"deck": "rainbow"}, {"deck": 4}, {"autoplay": "yes"}, {"autoplay": 1}):
        decoded = Settings.decode(bad)
        assert decoded.repairs and decoded.value == Settings(), bad
    s = Settings()
    assert on_click(s, "set-deck", "four") == "look" and s.deck == "four"  # the deck is drawn with the look
