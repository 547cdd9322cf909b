"""hearts_web.daily.html: the daily's result, history and share text, for any stored shape."""

from __future__ import annotations

from hearts_web.core import i18n
from hearts_web.daily.html import history_html, share_text
from hearts_web.data.daily import DailyData

from hearts.daily import DailyResult

GOOD = {"date": "2026-11-29", "points": 3, "par": 5, "markers": ["none"] * 12 + ["hearts"], "moon": False}


def test_share_text_is_spoiler_free() -> None:
    i18n.set_lang("en")
    result = DailyResult.from_dict(GOOD)
    text = share_text(result, "https://hearts.example/")
    lines = text.splitlines()
    assert lines[1] == "3 points · par 5" and lines[2] == "○" * 12 + "♥"
    assert lines[3] == "https://hearts.example/?daily=2026-11-29"
    assert "3" in history_html({"2026-11-29": result}, "2026-11-30")


# ------------------------------------------------------------------ any stored shape
from hearts_web.daily.html import result_html  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

dates = st.sampled_from(["2026-11-29", "2026-11-28", "2026-02-30", "not-a-date", "0001-01-01", "9999-12-31", ""])
leaf = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6) | dates
shapes = st.recursive(
    leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(dates | st.text(max_size=4), inner, max_size=3),
    max_leaves=15,
)
result_like = st.fixed_dictionaries(
    {
        "date": dates,
        "points": leaf,
        "par": leaf,
        "markers": st.lists(st.sampled_from(["none", "hearts", "queen", "jack", "x"]), max_size=15) | leaf,
        "moon": leaf,
    }
)


@settings(max_examples=300, deadline=None)
@given(
    results=st.dictionaries(dates, result_like | shapes, max_size=4) | shapes,
    attempts=shapes,
    par_ms=st.dictionaries(dates, leaf, max_size=3) | shapes,
    extra=st.dictionaries(st.text(max_size=3), shapes, max_size=2),
)
def test_any_stored_shape_shows_the_panel(
    results: object, attempts: object, par_ms: object, extra: dict[str, object]
) -> None:
    data = DailyData.decode({**extra, "results": results, "attempts": attempts, "par_ms": par_ms}).value
    for lang in ("en", "de"):
        i18n.set_lang(lang)
        history_html(data.results, "2026-11-29")
        for r in data.results.values():
            result_html(r)
            share_text(r, "https://hearts.example/")
    again = DailyData.decode(data.to_dict())
    assert not again.repairs and again.value.results == data.results and again.value.attempts == data.attempts
