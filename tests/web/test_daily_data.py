"""hearts_web.data.daily: the daily's stored data (bad entries left out)."""

from __future__ import annotations

import pytest
from hearts_web.data.daily import DailyData, is_date
from hearts_web.data.store import Unreadable

GOOD = {"date": "2026-11-29", "points": 3, "par": 5, "markers": ["none"] * 12 + ["hearts"], "moon": False}


def test_stored_results_round_trip_and_bad_entries_are_left_out() -> None:
    decoded = DailyData.decode(
        {
            "results": {"2026-11-29": GOOD, "yesterday": GOOD, "2026-11-30": {"points": "x"}, "2026-12-01": [1]},
            "attempts": {"2026-11-29": "started"},
            "par_ms": {"2026-11-29": 900, "x": "slow"},
        }
    )
    data = decoded.value
    assert list(data.results) == ["2026-11-29"] and decoded.repairs.made == {"results": 3, "par_ms": 1}
    assert data.attempted("2026-11-29") and not data.attempted("2026-11-30")
    again = DailyData.decode(data.to_dict())
    assert again.value.results == data.results and again.value.par_ms == {"2026-11-29": 900} and not again.repairs
    assert DailyData.decode({"results": [GOOD]}).repairs.made == {"results": 1}
    with pytest.raises(Unreadable):
        DailyData.decode([GOOD])


def test_is_date_accepts_only_real_dates() -> None:
    assert is_date("2026-11-29") and is_date("2024-02-29")
    for text in ("2026-02-30", "2026-1-29", "%E0%A4%A", "", None, 20261129, "2026-11-29\n", "٢٠٢٦-١١-٢٩"):
        assert not is_date(text)
