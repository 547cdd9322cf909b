"""hearts_web.daily_view: the daily's stored data (bad entries left out) and the share text."""

from __future__ import annotations

from hearts.daily import DailyResult
from hearts_web import i18n
from hearts_web.daily_view import DailyData, history_html, share_text

GOOD = {"date": "2026-11-29", "points": 3, "par": 5, "markers": ["none"] * 12 + ["hearts"], "moon": False}


def test_stored_results_round_trip_and_bad_entries_are_left_out() -> None:
    data = DailyData.from_dict({
        "results": {"2026-11-29": GOOD, "yesterday": GOOD, "2026-11-30": {"points": "x"}, "2026-12-01": [1]},
        "attempts": {"2026-11-29": "started"}, "par_ms": {"2026-11-29": 900, "x": "slow"},
    })
    assert list(data.results) == ["2026-11-29"] and data.dropped == 3
    assert data.attempted("2026-11-29") and not data.attempted("2026-11-30")
    again = DailyData.from_dict(data.to_dict())
    assert again.results == data.results and again.par_ms == {"2026-11-29": 900} and again.dropped == 0
    assert DailyData.from_dict({"results": [GOOD]}).dropped == 1


def test_share_text_is_spoiler_free() -> None:
    i18n.set_lang("en")
    result = DailyResult.from_dict(GOOD)
    text = share_text(result, "https://hearts.example/")
    lines = text.splitlines()
    assert lines[1] == "3 points · par 5" and lines[2] == "○" * 12 + "♥"
    assert lines[3] == "https://hearts.example/?daily=2026-11-29"
    assert "3" in history_html({"2026-11-29": result}, "2026-11-30")
