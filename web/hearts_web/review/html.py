"""The hand review's HTML and sentences: a replay of one hand, step by step, and the verdicts on the
player's own decisions (pure: no DOM; :mod:`hearts_web.review.dialog` puts it on the page)."""

from __future__ import annotations

from collections.abc import Sequence

from hearts import Card, Hand, Seat
from hearts.review import REVIEW_THRESHOLD, Verdict

from ..core import i18n
from ..core.html import card_face, esc
from ..core.i18n import t
from ..screen.table_state import Seating

__all__ = [
    "step_count",
    "step_html",
    "verdicts_html",
    "reason_sentence",
    "REASONS_EN",
    "REASONS_DE",
    "MOON_EN",
    "MOON_DE",
]

REASONS_EN: dict[str, str] = {
    "risked_queen": "Playing the {card} while the queen of spades was still out gave {seat} the chance to drop "
    "her on you.",
    "took_points": "The {card} won a trick with {points}; the {best} would have stayed under.",
    "kept_danger": "Discarding the {card} kept the {best} in your hand: a chance to get rid of it was lost.",
    "broke_void": "The {best} was the last card of its suit: playing it instead of the {card} would have "
    "left you a void to discard points on later.",
    "lead_suit": "Leading {suit} here gave the others an easy way to hand you points; the {best} was safer.",
    "pass_kept_queen": "Passing {cards} kept the queen of spades with too few spades to hide her.",
    "pass_kept_high_hearts": "Passing {cards} kept high hearts that tend to win tricks full of points.",
    "pass_kept_spades": "Passing {cards} kept the high spades that catch the queen.",
    "moon": "{seat} shot the moon: the {best} would have kept a way to stop it (one point is enough); "
    "the {card} gave it up.",
    "search_prefers": "The search expects the {best} to cost about {cost} points less.",
}
REASONS_DE: dict[str, str] = {
    "risked_queen": "{card} zu spielen, während die Pik-Dame noch draußen war, gab {seat} die Gelegenheit, sie "
    "dir zuzuwerfen.",
    "took_points": "{card} gewann einen Stich mit {points}; {best} wäre darunter geblieben.",
    "kept_danger": "Mit dem Abwurf von {card} blieb {best} in deiner Hand: eine Gelegenheit, sie loszuwerden, "
    "war vertan.",
    "broke_void": "{best} war die letzte Karte ihrer Farbe: Sie statt {card} zu spielen, hätte dir eine "
    "Fehlfarbe gebracht, um später Punkte abzuwerfen.",
    "lead_suit": "{suit} anzuspielen machte es den anderen leicht, dir Punkte zu geben; {best} war sicherer.",
    "pass_kept_queen": "Mit der Weitergabe von {cards} bliebst du auf der Pik-Dame sitzen, mit zu wenig Pik, um "
    "sie zu schützen.",
    "pass_kept_high_hearts": "Mit der Weitergabe von {cards} behieltest du hohe Herz, die gern Stiche voller Punkte "
    "gewinnen.",
    "pass_kept_spades": "Mit der Weitergabe von {cards} behieltest du die hohen Pik, die die Dame fangen.",
    "moon": "{seat} hat den Mond geschossen: Mit {best} hättest du ihn noch verhindern können (ein "
    "Punkt genügt); {card} hat diese Chance vergeben.",
    "search_prefers": "Die Suche erwartet bei {best} etwa {cost} Punkte weniger.",
}
# the moon's three cases (the verdict's ``kind``): the seat shot it, let it happen, missed a stop
MOON_EN: dict[str, str] = {
    "shot": "You shot the moon, but the {card} was a gamble: the search expects the {best} to cost less on average.",
    "allowed": "{seat} was shooting the moon, and the {card} let this trick go: the {best} would have "
    "taken a point and stopped the moon.",
    "missed_stop": REASONS_EN["moon"],
}
MOON_DE: dict[str, str] = {
    "shot": "Du hast den Mond geschossen, aber {card} war ein Wagnis: Die Suche erwartet mit {best} im "
    "Schnitt weniger Punkte.",
    "allowed": "{seat} wollte den Mond schießen, und mit {card} ging dieser Stich an {seat}: {best} hätte "
    "einen Punkt genommen und den Mond verhindert.",
    "missed_stop": REASONS_DE["moon"],
}
_SUITS = ("clubs", "diamonds", "spades", "hearts")


def _cards_text(value: str) -> str:
    parts = []
    for text in value.replace(",", " ").split():
        try:
            parts.append(i18n.card_label(Card.parse(text)))
        except ValueError:
            parts.append(text)
    return i18n.join_list(parts)


def _param(name: str, value: object, seating: Seating) -> str:
    text = str(value)
    if name in ("card", "best", "cards", "kept", "danger") or name.endswith("_card"):
        return _cards_text(text)
    if name == "seat":
        try:
            return seating.name(Seat.parse(text))
        except ValueError:
            return text
    if name == "suit" and text in _SUITS:
        return t(f"suit_{_SUITS.index(text)}")
    if name == "cost":
        try:
            return number(float(text))
        except ValueError:
            return text
    if name == "points" and text.lstrip("-").isdigit():
        n = int(text)
        if i18n.lang() == "de":
            return "1 Punkt" if n == 1 else f"{n} Punkten"
        return "1 point" if n == 1 else f"{n} points"
    return text


def number(value: float, digits: int = 1) -> str:
    """A decimal in the page's language ("4.5" in English, "4,5" in German)."""
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if i18n.lang() == "de" else text


def reason_sentence(verdict: Verdict, seating: Seating) -> str:
    """One sentence (German or English) that says why the decision cost points."""
    table = REASONS_DE if i18n.lang() == "de" else REASONS_EN
    params: dict[str, str] = {k: _param(k, v, seating) for k, v in dict(verdict.params).items()}
    params.setdefault("card", _cards_text(" ".join(c.text for c in verdict.chosen)))
    params.setdefault("cards", _cards_text(" ".join(c.text for c in verdict.chosen)))
    params.setdefault("best", _cards_text(" ".join(c.text for c in verdict.best)))
    params.setdefault("cost", number(verdict.cost))
    moon = (MOON_DE if i18n.lang() == "de" else MOON_EN).get(str(dict(verdict.params).get("kind", "")), "")
    for code in (verdict.reason, "search_prefers"):
        template = moon if code == "moon" and moon else table.get(code)
        if template:
            try:
                text = template.format(**params)
            except (KeyError, IndexError, ValueError):
                continue
            return text[:1].upper() + text[1:]
    return ""


def step_count(hand: Hand) -> int:
    """Step 0 is the pass (or the deal of a hold hand), then one step per trick."""
    return 1 + len(hand.tricks)


def step_html(hand: Hand, step: int, seating: Seating) -> str:
    """What the table looked like at ``step``: the passes, or the four cards of one trick where
    they were played (the player at the bottom, then clockwise), the winner marked."""
    me, seat_name, slot = seating.me, seating.name, seating.slot

    if step == 0:
        passes = hand.passes
        if all(p is None for p in passes):
            return f'<p class="review-note">{esc(t("review_hold"))}</p>'
        gave = passes[me] or ()
        source = hand.pass_direction.source(me)
        got = hand.received(me)
        passed = t("review_you_passed", name=seat_name(hand.pass_direction.target(me)))
        return (
            f'<div class="review-pass"><p>{esc(passed)}</p>'
            f'<div class="review-cards">{"".join(card_face(c) for c in gave)}</div>'
            f"<p>{esc(t('review_you_got', name=seat_name(source)))}</p>"
            f'<div class="review-cards">{"".join(card_face(c) for c in got)}</div></div>'
        )
    trick = hand.tricks[step - 1]
    cells = []
    for seat, card in trick.plays:
        won = " won" if seat == trick.winner else ""
        lead = " lead" if seat == trick.leader else ""
        cells.append(
            f'<figure class="review-slot at-{slot(seat)}{won}{lead}" data-review-seat="{seat.key}">'
            f"{card_face(card)}<figcaption>{esc(seat_name(seat))}</figcaption></figure>"
        )
    who = t("you_take_trick") if trick.winner == me else t("takes_trick", name=seat_name(trick.winner))
    return (
        f'<div class="review-trick" data-review-step="{step}">{"".join(cells)}</div>'
        f'<p class="review-note">{esc(t("review_trick", n=step, of=len(hand.tricks)))} · {esc(who)}</p>'
    )


def verdicts_html(verdicts: Sequence[Verdict], total: int, done: bool, seating: Seating) -> str:
    flagged = [v for v in verdicts if v.flagged]
    head = (
        t("review_done", n=len(verdicts), flagged=len(flagged))
        if done
        else t("review_checking", n=len(verdicts), of=total)
    )
    items = []
    for v in flagged:
        where = t("review_pass") if v.kind == "pass" else t("review_trick_short", n=(v.trick or 0) + 1)
        items.append(
            f'<li data-review-flag data-cost="{v.cost:.2f}"><button type="button" class="review-jump" '
            f'data-action="review-step" data-review-step="{0 if v.trick is None else v.trick + 1}">'
            f"<b>{esc(where)}</b> · "
            f"{esc(t('review_cost', cost=number(v.cost)))}<br>{esc(reason_sentence(v, seating))}</button></li>"
        )
    if done and not flagged:
        items.append(f'<li class="review-clean">{esc(t("review_clean", limit=number(REVIEW_THRESHOLD)))}</li>')
    return (
        f'<p class="note" data-review-status="{"done" if done else "running"}" data-review-count="{len(verdicts)}">'
        f'{esc(head)}</p><ol class="review-flags">{"".join(items)}</ol>'
    )
