"""What the daily game stores: each day's counted result, the days attempted, how long par took.

Read field by field: entries that cannot be read are left out, each counted among the repairs.
Pure: no DOM.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeGuard

from hearts.daily import DailyResult, parse_date

from .store import Decoded, Repairs, Unreadable

__all__ = ["DailyData", "is_date"]


@dataclass
class DailyData:
    """What the daily stores: each day's counted result, the days attempted, how long par took."""

    results: dict[str, DailyResult] = field(default_factory=dict)
    attempts: set[str] = field(default_factory=set)
    par_ms: dict[str, int] = field(default_factory=dict)

    @classmethod
    def decode(cls, data: object) -> Decoded[DailyData]:
        """The stored data (:mod:`hearts_web.data.registry`); entries that cannot be read (not dates,
        wrong types, unknown keys) are left out, each counted in the repairs. :class:`Unreadable`
        when it is no object."""
        if not isinstance(data, Mapping):
            raise Unreadable("daily data must be an object")
        out, repairs = cls(), Repairs()
        repairs.note("unknown", len(set(data) - {"results", "attempts", "par_ms"}))
        for date, raw in _entries(data.get("results", {}), "results", repairs):
            result = _result(date, raw)
            if is_date(date) and result is not None:
                out.results[date] = result
            else:
                repairs.note("results")
        for date, _ in _entries(data.get("attempts", {}), "attempts", repairs):
            if is_date(date):
                out.attempts.add(date)
            else:
                repairs.note("attempts")
        for date, ms in _entries(data.get("par_ms", {}), "par_ms", repairs):
            if is_date(date) and isinstance(ms, int) and not isinstance(ms, bool) and 0 <= ms < 10**9:
                out.par_ms[date] = ms
            else:
                repairs.note("par_ms")
        return Decoded(out, repairs)

    def to_dict(self) -> dict[str, object]:
        return {
            "results": {d: r.to_dict() for d, r in sorted(self.results.items())},
            "attempts": {d: "started" for d in sorted(self.attempts)},
            "par_ms": dict(sorted(self.par_ms.items())),
        }

    def attempted(self, date: str) -> bool:
        return date in self.results or date in self.attempts


def _entries(part: object, name: str, repairs: Repairs) -> list[tuple[object, object]]:
    """The entries of one part of the stored data (an object; anything else counts as one repair)."""
    if isinstance(part, Mapping):
        return list(part.items())
    repairs.note(name)
    return []


def _result(date: object, raw: object) -> DailyResult | None:
    """A day's result, if it can be true and is stored under its own date."""
    try:
        result = DailyResult.from_dict(raw) if isinstance(raw, Mapping) else None
    except ValueError:
        return None
    return result if result is not None and result.date == date and _sane(result) else None


def is_date(text: object) -> TypeGuard[str]:
    """Whether ``text`` is a real date written ``YYYY-MM-DD``."""
    try:
        parse_date(text)  # type: ignore[arg-type]
    except ValueError:
        return False
    return True


def _sane(r: DailyResult) -> bool:
    """Points and par of one hand lie within -26..26 (moon rules) and there are at most 13 tricks."""
    return (
        not isinstance(r.points, bool)
        and -26 <= r.points <= 26
        and len(r.markers) <= 13
        and (r.par is None or (not isinstance(r.par, bool) and -26 <= r.par <= 26))
    )
