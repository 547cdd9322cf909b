"""HTML builders for cards, seats and tables (strings only; app.py puts them into the DOM)."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from hearts.cards import CARDS

from .dom import esc
from .i18n import SUIT_SYMBOL, card_label, rank_text, t

# Chess figures stand in for the court cards' portraits (drawn by the font; no images needed).
FACE_FIGURE = {11: "\u265e\ufe0e", 12: "\u265b\ufe0e", 13: "\u265a\ufe0e"}
MARKER_GLYPH = {"none": "", "hearts": "♥", "queen": "♠", "jack": "J"}


def card_face(card: Any, extra_class: str = "", attrs: str = "", tag: str = "div") -> str:
    """One card face drawn with HTML/CSS and Unicode suit symbols (own work, no images)."""
    suit = int(CARDS[card].suit)
    rank = CARDS[card].rank
    sym = SUIT_SYMBOL[suit] + "\ufe0e"
    r = rank_text(rank)
    red = " red" if suit in (1, 3) else ""
    face = " face" if rank in (11, 12, 13) else ""
    if face:
        figure = FACE_FIGURE[rank]
        mid = f'<span class="pip" aria-hidden="true"><em>{figure}</em><small>{sym}</small></span>'
    else:
        mid = f'<span class="pip" aria-hidden="true">{sym}</span>'
    corner = f"<b>{r}</b><i>{sym}</i>"
    label = esc(card_label(card))
    if tag == "button":
        return (
            f'<button type="button" class="card{red}{face} {extra_class}" data-card="{card}" '
            f'aria-label="{label}" {attrs}>'
            f'<span class="ix" aria-hidden="true">{corner}</span>{mid}'
            f'<span class="ix br" aria-hidden="true">{corner}</span></button>'
        )
    return (
        f'<div class="card{red}{face} {extra_class}" data-card="{card}" role="img" aria-label="{label}" {attrs}>'
        f'<span class="ix" aria-hidden="true">{corner}</span>{mid}'
        f'<span class="ix br" aria-hidden="true">{corner}</span></div>'
    )


def seat_name(seat: int) -> str:
    return t(f"seat_name_{seat}")


def seat_box(seat: int, score: int, markers: Sequence[str], cards_left: int, thinking: bool) -> str:
    name = seat_name(seat)
    initial = name[:1]
    items = []
    for m in markers:
        items.append(f'<li class="m-{esc(m)}" aria-hidden="true">{MARKER_GLYPH.get(m, "")}</li>')
    spoken = ", ".join(t(f"marker_{m}") for m in markers) if markers else t("no_tricks")
    backs = "".join("<i></i>" for _ in range(cards_left))
    think = (
        f'{esc(t("thinking", name=name))}'
        if thinking
        else ""
    )
    direction = "" if seat == 0 else f'<span class="dir">{esc(t(f"seat_{seat}"))}</span>'
    return (
        f'<div class="avatar" aria-hidden="true">{esc(initial)}</div>'
        f'<div class="who"><span class="name">{esc(name)}</span>{direction}'
        f'<span class="pts" title="{esc(t("total"))}">{score}</span></div>'
        f'<ol class="markers" aria-label="{esc(t("markers_label", list=spoken))}">{"".join(items)}</ol>'
        f'<div class="backs" aria-hidden="true">{backs}</div>'
        f'<div class="thinking" aria-hidden="true">{think}</div>'
    )


def hand_buttons(cards: Sequence[Any], enabled: Iterable[Any], classes: dict[Any, str]) -> str:
    """The player's hand; ``gc-N`` / ``r2`` classes place each card in the phone's two-row grid."""
    enabled_set = set(int(c) for c in enabled)
    n = len(cards)
    first_row = (n + 1) // 2
    out = []
    for i, card in enumerate(cards):
        if i < first_row:
            row, col = 1, 1 + 2 * i + (7 - first_row)
        else:
            j = i - first_row
            row, col = 2, 2 + 2 * j + (7 - first_row)
        cls = classes.get(int(card), "") + f" gc-{col}"
        if row == 2:
            cls += " r2"
        disabled = "" if int(card) in enabled_set else "disabled"
        # classes, not style attributes: the layout must not depend on 'unsafe-inline' styles
        out.append(card_face(card, cls, disabled, tag="button"))
    return "".join(out)


def score_sheet(sheet: Sequence[Any], highlight_last: bool = False) -> str:
    heads = "".join(f"<th scope=\"col\">{esc(seat_name(s))}</th>" for s in range(4))
    rows = []
    for row in sheet:
        cells = []
        for s in range(4):
            cls = ' class="moon-cell"' if row.moon is not None and row.moon == s else ""
            moon = " ☾" if row.moon is not None and row.moon == s else ""
            cells.append(f"<td{cls}>{row.points[s]}{moon}</td>")
        rows.append(f'<tr><th scope="row">{row.hand_number + 1}</th>{"".join(cells)}</tr>')
    totals = sheet[-1].totals if sheet else (0, 0, 0, 0)
    low = min(totals)
    foot = "".join(f'<td class="{"low" if v == low and sheet else ""}">{v}</td>' for v in totals)
    return (
        f'<div class="sheet-wrap"><table class="sheet"><thead><tr><th scope="col">{esc(t("hand_col"))}</th>{heads}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody><tfoot><tr><td>{esc(t("total"))}</td>{foot}</tr></tfoot></table></div>'
    )


def trick_review(plays: Sequence[tuple[Any, Any]], winner: int) -> str:
    figs = []
    for seat, card in plays:
        won = " won" if int(seat) == winner else ""
        figs.append(f'<figure class="{won}">{card_face(card)}<figcaption>{esc(seat_name(int(seat)))}</figcaption></figure>')
    return f'<div class="trick-review">{"".join(figs)}</div>'


def hand_summary(points: Sequence[int], markers: Sequence[Sequence[str]]) -> str:
    """Who took what this hand: the point tricks as markers and the hand's score per seat."""
    items = []
    for s in range(4):
        marks = "".join(
            f'<li class="m-{esc(m)}" aria-hidden="true">{MARKER_GLYPH.get(m, "")}</li>' for m in markers[s] if m != "none"
        )
        spoken = ", ".join(t(f"marker_{m}") for m in markers[s] if m != "none")
        items.append(
            f'<li><span class="sum-name">{esc(seat_name(s))}</span>'
            f'<ol class="markers" aria-label="{esc(spoken)}">{marks}</ol>'
            f'<span class="sum-pts">{esc(t("points_n", n=points[s]))}</span></li>'
        )
    return f'<ul class="hand-summary">{"".join(items)}</ul>'
