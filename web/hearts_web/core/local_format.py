"""Numbers, shares and dates written the way the current language writes them.

German: ``5,3``, ``42 %``, ``3.12.2026``, weeks from Monday; English: ``5.3``, ``42%``,
``3 Dec 2026``, weeks from Sunday. A minus is the typographic ``−``. Pure: no DOM.
"""

from __future__ import annotations

import datetime

from .i18n import lang

__all__ = ["decimal", "percent", "signed", "date_text", "short_date", "month_title", "weekdays", "first_weekday"]

MONTHS = {
    "en": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    "de": (
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ),
}
# Monday first (datetime's weekday order): (short, full)
WEEKDAYS = {
    "en": (
        ("Mon", "Monday"),
        ("Tue", "Tuesday"),
        ("Wed", "Wednesday"),
        ("Thu", "Thursday"),
        ("Fri", "Friday"),
        ("Sat", "Saturday"),
        ("Sun", "Sunday"),
    ),
    "de": (
        ("Mo", "Montag"),
        ("Di", "Dienstag"),
        ("Mi", "Mittwoch"),
        ("Do", "Donnerstag"),
        ("Fr", "Freitag"),
        ("Sa", "Samstag"),
        ("So", "Sonntag"),
    ),
}
MINUS = "\u2212"


def _lang() -> str:
    return "de" if lang() == "de" else "en"


def decimal(value: float, digits: int = 1) -> str:
    text = f"{abs(value):.{digits}f}"
    if _lang() == "de":
        text = text.replace(".", ",")
    return (MINUS if round(value, digits) < 0 else "") + text


def whole(n: int) -> str:
    """A count with its thousands grouped: ``12,345`` / ``12.345`` (four digits stay whole)."""
    text = f"{abs(n):,}" if abs(n) >= 10_000 else str(abs(n))
    if _lang() == "de":
        text = text.replace(",", ".")
    return (MINUS if n < 0 else "") + text


def percent(fraction: float) -> str:
    """A share as a whole percentage (``0.425`` -> ``43 %`` / ``43%``)."""
    whole = int(100 * fraction + 0.5)  # half up: 42.5 % is 43 %
    return f"{whole}\u202f%" if _lang() == "de" else f"{whole}%"


def signed(n: int) -> str:
    """A difference: ``+3``, ``−2``, ``±0``."""
    return f"+{n}" if n > 0 else (f"{MINUS}{-n}" if n < 0 else "\u00b10")


def date_text(iso: str) -> str:
    d = datetime.date.fromisoformat(iso)
    if _lang() == "de":
        return f"{d.day}.{d.month}.{d.year}"
    return f"{d.day} {MONTHS['en'][d.month - 1][:3]} {d.year}"


def short_date(iso: str) -> str:
    d = datetime.date.fromisoformat(iso)
    if _lang() == "de":
        return f"{d.day}.{d.month}."
    return f"{d.day} {MONTHS['en'][d.month - 1][:3]}"


def month_title(year: int, month: int) -> str:
    return f"{MONTHS[_lang()][month - 1]} {year}"


def first_weekday() -> int:
    """The first column of a week (datetime's numbering: 0 = Monday, 6 = Sunday)."""
    return 0 if _lang() == "de" else 6


def weekdays() -> list[tuple[str, str]]:
    """(short, full) weekday names in the order of a week's columns."""
    names = WEEKDAYS[_lang()]
    start = first_weekday()
    return [names[(start + i) % 7] for i in range(7)]
