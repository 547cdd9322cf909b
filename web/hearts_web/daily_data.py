"""What the daily game stores: each day's counted result, the days attempted, how long par took.

Read field by field: entries that cannot be read are left out and counted. Pure: no DOM.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from hearts.daily import DailyResult, parse_date

__all__ = ["DailyData", "is_date"]


@dataclass
class DailyData:
    """What the daily stores: each day's counted result, the days attempted, how long par took."""

    results: dict[str, DailyResult] = field(default_factory=dict)
    attempts: set[str] = field(default_factory=set)
    par_ms: dict[str, int] = field(default_factory=dict)
    dropped: int = 0  # entries that could not be read (not dates, wrong types): left out

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> "DailyData":
        """The stored data; entries that cannot be read (not dates, wrong types, unknown keys)
        are left out and counted in ``dropped``."""
        out = cls()
        out.dropped = len(set(data) - {"results", "attempts", "par_ms"})
        results = data.get("results", {})
        if isinstance(results, Mapping):
            for date, raw in results.items():
                try:
                    parse_date(date)
                    result = DailyResult.from_dict(raw) if isinstance(raw, Mapping) else None
                except ValueError:
                    result = None
                if result is None or result.date != date or not _sane(result):
                    out.dropped += 1
                else:
                    out.results[date] = result
        else:
            out.dropped += 1
        attempts = data.get("attempts", {})
        if isinstance(attempts, Mapping):
            for date in attempts:
                if is_date(date):
                    out.attempts.add(date)
                else:
                    out.dropped += 1
        else:
            out.dropped += 1
        par_ms = data.get("par_ms", {})
        if isinstance(par_ms, Mapping):
            for date, ms in par_ms.items():
                if is_date(date) and isinstance(ms, int) and not isinstance(ms, bool) and 0 <= ms < 10**9:
                    out.par_ms[date] = ms
                else:
                    out.dropped += 1
        else:
            out.dropped += 1
        return out

    def to_dict(self) -> dict[str, object]:
        return {"results": {d: r.to_dict() for d, r in sorted(self.results.items())},
                "attempts": {d: "started" for d in sorted(self.attempts)},
                "par_ms": dict(sorted(self.par_ms.items()))}

    def attempted(self, date: str) -> bool:
        return date in self.results or date in self.attempts


def is_date(text: object) -> bool:
    """Whether ``text`` is a real date written ``YYYY-MM-DD``."""
    try:
        parse_date(text)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True


def _sane(r: DailyResult) -> bool:
    """Points and par of one hand lie within -26..26 (moon rules) and there are at most 13 tricks."""
    return (not isinstance(r.points, bool) and -26 <= r.points <= 26 and len(r.markers) <= 13
            and (r.par is None or (not isinstance(r.par, bool) and -26 <= r.par <= 26)))
