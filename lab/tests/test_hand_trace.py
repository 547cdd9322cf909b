"""lab.browser.hand_trace: what the page's main thread did over a hand, from a Chromium trace."""

from __future__ import annotations

from typing import Any

from lab.browser.hand_trace import busy, long_tasks, uncomposited

MAIN, OTHER = (1, 10), (1, 11)


def span(thread: tuple[int, int], name: str, ts: float, dur: float, **args: Any) -> dict[str, Any]:
    return {"pid": thread[0], "tid": thread[1], "ph": "X", "name": name, "ts": ts, "dur": dur, "args": args}


def a_trace() -> list[dict[str, Any]]:
    meta = [
        {"pid": p, "tid": t, "ph": "M", "name": "thread_name", "args": {"name": "CrRendererMain"}}
        for p, t in (MAIN, OTHER)
    ]
    return meta + [
        span(MAIN, "RunTask", 0, 60_000),
        span(MAIN, "Paint", 10_000, 20_000),
        span(MAIN, "RunTask", 100_000, 10_000),
        span(MAIN, "UpdateLayoutTree", 101_000, 4_000),
        span(MAIN, "RunTask", 200_000, 5_000),
        span(OTHER, "RunTask", 0, 900_000),  # another renderer, fewer events: not the page's
        {
            "name": "Animation",
            "ph": "n",
            "args": {"data": {"compositeFailed": 8224, "unsupportedProperties": ["box-shadow"]}},
        },
        {
            "name": "Animation",
            "ph": "n",
            "args": {"data": {"compositeFailed": 8224, "unsupportedProperties": ["box-shadow"]}},
        },
        {"name": "Animation", "ph": "n", "args": {"data": {"state": "running"}}},
    ]


def test_the_main_thread_is_busy_for_the_length_of_its_tasks() -> None:
    taken, length, parts = busy(a_trace())
    assert (taken, length) == (75.0, 205.0)
    assert parts["Paint"] == 20.0 and parts["UpdateLayoutTree"] == 4.0 and parts["RunTask"] == 51.0


def test_long_tasks_are_the_pages_own() -> None:
    tasks = long_tasks(a_trace(), 50)
    assert [length for length, _ in tasks] == [60.0]


def test_animations_the_compositor_could_not_run_are_counted_by_property() -> None:
    assert uncomposited(a_trace()) == {"box-shadow": 2}
