"""HTML builders for cards, seats, the hand and the score tables: strings only, no DOM.

The browser layer puts these strings into the page; the unit tests read them in CPython.
Everything shown comes from the engine's values (cards, views, score rows): no rules here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from hearts import Card, HandScore, Seat

from ..core.html import card_face, esc
from ..core.i18n import t
from .table_state import Seating

__all__ = ["seat_box", "hand_buttons", "score_sheet", "trick_review", "hand_summary", "MARKER_GLYPH"]

MARKER_GLYPH = {"none": "", "hearts": "♥", "queen": "♠", "jack": "J"}


def _markers(markers: Sequence[str], skip_none: bool = False) -> str:
    return "".join(
        f'<li class="m-{esc(m)}" aria-hidden="true">{MARKER_GLYPH.get(m, "")}</li>'
        for m in markers
        if not (skip_none and m == "none")
    )


def seat_box(
    seat: Seat | int, score: int, markers: Sequence[str], cards_left: int, thinking: bool, seating: Seating
) -> str:
    """Avatar, name, direction, match total, the tricks won this hand and the cards held."""
    name = seating.name(seat)
    spoken = ", ".join(t(f"marker_{m}") for m in markers) if markers else t("no_tricks")
    direction = "" if Seat(seat) == seating.me else f'<span class="dir">{esc(t(f"compass_{int(seat)}"))}</span>'
    think = esc(t("thinking", name=name)) if thinking else ""
    return (
        f'<div class="avatar" aria-hidden="true">{esc(name[:1])}</div>'
        f'<div class="who"><span class="name">{esc(name)}</span>{direction}'
        f'<span class="pts" title="{esc(t("total"))}">{score}</span></div>'
        f'<ol class="markers" aria-label="{esc(t("markers_label", list=spoken))}">{_markers(markers)}</ol>'
        f'<div class="backs" aria-hidden="true">{"<i></i>" * cards_left}</div>'
        f'<div class="thinking" aria-hidden="true">{think}</div>'
    )


def hand_buttons(
    cards: Sequence[Card],
    enabled: Iterable[Card],
    classes: dict[Card, str],
    pressed: Iterable[Card] | None = None,
    tab_stop: Card | None = None,
    reasons: Mapping[Card, str] | None = None,
) -> str:
    """The player's hand as buttons; ``gc-N`` / ``r2`` classes place each card in the phone's
    two-row grid (classes, not style attributes: the layout must not need inline styles).
    ``pressed`` (while passing) marks the chosen cards with ``aria-pressed``.

    Every card stays a focusable button: one that cannot be played now is
    ``aria-disabled="true"``, described by why (``reasons``: a sentence per card, one hidden
    element per distinct sentence). The hand is one Tab stop (a roving ``tabindex``): ``tab_stop``
    (the first card if it is not in the hand) has ``tabindex="0"``, the others ``-1``."""
    enabled_set = set(enabled)
    chosen = None if pressed is None else set(pressed)
    why = list(dict.fromkeys((reasons or {}).values()))
    stop = tab_stop if tab_stop in cards else (cards[0] if cards else None)
    first_row = (len(cards) + 1) // 2
    out = []
    for i, card in enumerate(cards):
        if i < first_row:
            col, row2 = 1 + 2 * i + (7 - first_row), ""
        else:
            col, row2 = 2 + 2 * (i - first_row) + (7 - first_row), " r2"
        attrs = f'tabindex="{0 if card == stop else -1}"'
        if card not in enabled_set:
            attrs += ' aria-disabled="true"'
            if reasons and card in reasons:
                attrs += f' aria-describedby="hand-why-{why.index(reasons[card])}"'
        if chosen is not None:
            attrs += f' aria-pressed="{"true" if card in chosen else "false"}"'
        out.append(card_face(card, f"gc-{col}{row2} {classes.get(card, '')}".strip(), attrs, tag="button"))
    out += [f'<span id="hand-why-{i}" hidden>{esc(text)}</span>' for i, text in enumerate(why)]
    return "".join(out)


def score_sheet(sheet: Sequence[HandScore], seating: Seating) -> str:
    """Points per hand and seat, the moon marked, and the totals (the lowest highlighted)."""
    heads = "".join(f'<th scope="col">{esc(seating.name(s))}</th>' for s in range(4))
    rows = []
    for row in sheet:
        cells = []
        for s in range(4):
            moon = row.moon is not None and int(row.moon) == s
            cls, mark = (' class="moon-cell"', " ☾") if moon else ("", "")
            cells.append(f"<td{cls}>{row.points[s]}{mark}</td>")
        rows.append(f'<tr><th scope="row">{row.hand_number + 1}</th>{"".join(cells)}</tr>')
    totals = sheet[-1].totals if sheet else (0, 0, 0, 0)
    low = min(totals)
    foot = "".join(f'<td class="{"low" if v == low and sheet else ""}">{v}</td>' for v in totals)
    return (
        '<div class="sheet-wrap"><table class="sheet"><thead><tr><th '
        f'scope="col">{esc(t("hand_col"))}</th>{heads}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody><tfoot><tr><td>{esc(t('total'))}</td>{foot}</tr></tfoot></table></div>"
    )


def trick_review(plays: Sequence[tuple[Seat, Card]], winner: Seat, seating: Seating) -> str:
    figs = []
    for seat, card in plays:
        won = " won" if seat == winner else ""
        figs.append(
            f'<figure class="{won}">{card_face(card)}<figcaption>{esc(seating.name(seat))}</figcaption></figure>'
        )
    return f'<div class="trick-review">{"".join(figs)}</div>'


def hand_summary(points: Sequence[int], markers: Sequence[Sequence[str]], seating: Seating) -> str:
    """Who took what this hand: the point tricks as markers and the hand's score per seat."""
    items = []
    for s in range(4):
        spoken = ", ".join(t(f"marker_{m}") for m in markers[s] if m != "none")
        items.append(
            f'<li><span class="sum-name">{esc(seating.name(s))}</span>'
            f'<ol class="markers" aria-label="{esc(spoken)}">{_markers(markers[s], skip_none=True)}</ol>'
            f'<span class="sum-pts">{esc(t("points_n", n=points[s]))}</span></li>'
        )
    return f'<ul class="hand-summary">{"".join(items)}</ul>'
