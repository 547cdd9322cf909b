"""One sentence for each reason the table refuses a move (an ``IllegalAction`` code), in the
player's language. Pure: no DOM."""

from __future__ import annotations

from hearts import IllegalAction

from . import i18n
from .i18n import t

__all__ = ["explain", "explain_code"]


def explain_code(code: str) -> str:
    """One sentence for an ``IllegalAction`` code, in the current language."""
    if code == "must_follow_suit":
        return t("err_must_follow_suit_plain")
    key = f"err_{code}"
    return t(key) if key in i18n.EN else t("err_other")


def explain(exc: IllegalAction) -> str:
    suit = exc.details.get("suit")
    if exc.code.value == "must_follow_suit" and suit is not None:
        return t("err_must_follow_suit", suit=t(f"suit1_{int(suit)}"))
    if exc.code.value == "no_points_on_first_trick" and exc.details.get("barred") == "queen_only":
        return t("err_no_queen_on_first_trick")
    return explain_code(exc.code.value)
