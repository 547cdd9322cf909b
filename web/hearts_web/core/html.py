"""The HTML every part of the page writes with: text escaped for HTML, and a card's face drawn
with HTML/CSS and Unicode suit symbols (own work, no images). Strings only, no DOM."""

from __future__ import annotations

from html import escape

from hearts import CARDS, Card

from .i18n import SUIT_SYMBOL, card_name, rank_text

__all__ = ["esc", "card_face", "FACE_FIGURE"]

# Chess figures stand in for the court cards' portraits (drawn by the font; no images needed).
FACE_FIGURE = {11: "\u265e\ufe0e", 12: "\u265b\ufe0e", 13: "\u265a\ufe0e"}


def esc(text: object) -> str:
    """Text as HTML (quotes included): every string from outside goes through here."""
    return escape(str(text), quote=True)


def card_face(card: Card | int, extra_class: str = "", attrs: str = "", tag: str = "div") -> str:
    """One card face drawn with HTML/CSS and Unicode suit symbols (own work, no images)."""
    c = CARDS[card]
    suit, rank = int(c.suit), c.rank
    sym = SUIT_SYMBOL[suit] + "\ufe0e"
    red = (" red" if suit in (1, 3) else "") + f" s{suit}"  # s0..s3: the four-colour deck
    face = " face" if rank in (11, 12, 13) else ""
    if face:
        mid = f'<span class="pip" aria-hidden="true"><em>{FACE_FIGURE[rank]}</em><small>{sym}</small></span>'
    else:
        mid = f'<span class="pip" aria-hidden="true">{sym}</span>'
    corner = f"<b>{rank_text(rank)}</b><i>{sym}</i>"
    # The turned corner is drawn by CSS from data attributes: the face's text is then its index
    # once ("6♣"), which the accessible name begins with (voice control: say what you see).
    turned = f'<span class="ix br" aria-hidden="true" data-r="{rank_text(rank)}" data-s="{sym}"></span>'
    inner = f'<span class="ix" aria-hidden="true">{corner}</span>{mid}{turned}'
    label = esc(card_name(card))  # what the face shows first: "6♣, six of clubs"
    if tag == "button":
        return (
            f'<button type="button" class="card{red}{face} {extra_class}" data-card="{c.text}" '
            f'aria-label="{label}" {attrs}>{inner}</button>'
        )
    return (
        f'<div class="card{red}{face} {extra_class}" data-card="{c.text}" role="img" '
        f'aria-label="{label}" {attrs}>{inner}</div>'
    )
