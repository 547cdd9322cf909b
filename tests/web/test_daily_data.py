"""hearts_web.daily_data: the daily's stored data (bad entries left out)."""

from __future__ import annotations

from hearts_web.daily_data import DailyData, is_date

GOOD = {"date": "2026-11-29", "points": 3, "par": 5, "markers": ["none"] * 12 + ["hearts"], "moon": False}


def test_stored_results_round_trip_and_bad_entries_are_left_out() -> None:
    data = DailyData.from_dict({
        "results": {"2026-11-29": GOOD, "yesterday": GOOD, "2026-11-30": {"points": "x"}, "2026-12-01": [1]},
        "attempts": {"2026-11-29": "started"}, "par_ms": {"2026-11-29": 900, "x": "slow"},
    })
    assert list(data.results) == ["2026-11-29"] and data.dropped == 4  # 3 results, 1 par time
    assert data.attempted("2026-11-29") and not data.attempted("2026-11-30")
    again = DailyData.from_dict(data.to_dict())
    assert again.results == data.results and again.par_ms == {"2026-11-29": 900} and again.dropped == 0
    assert DailyData.from_dict({"results": [GOOD]}).dropped == 1



def test_is_date_accepts_only_real_dates() -> None:
    assert is_date("2026-11-29") and is_date("2024-02-29")
    for text in ("2026-02-30", "2026-1-29", "%E0%A4%A", "", None, 20261129, "2026-11-29\n", "٢٠٢٦-١١-٢٩"):
        assert not is_date(text)
