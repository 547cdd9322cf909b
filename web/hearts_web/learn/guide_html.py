"""The guided hand's panel: one tip of :mod:`hearts.guide` as sentences in the page's language,
with the suggested move and its reason (the hint's sentences), an example of a card the rule
refuses (the refusal's sentence), and the panel's buttons. Pure: no DOM."""

from __future__ import annotations

from collections.abc import Sequence

from hearts import Rules, Seat
from hearts.bots import Hint
from hearts.guide import Tip

from ..core import i18n
from ..core.hints import hint_text
from ..core.html import esc
from ..core.refusals import explain_code
from ..screen.table_state import Seating
from .rules_html import FIRST_KEY, cards_row, learn_t, plural_points

__all__ = ["tip_text", "guide_panel", "guide_done", "welcome_html"]

_SUITS = ("clubs", "diamonds", "spades", "hearts")


def _suit(name: object) -> str:
    return i18n.t(f"suit_{_SUITS.index(str(name))}") if name in _SUITS else str(name)


def _seat(seating: Seating, key: object) -> str:
    try:
        return seating.name(Seat.parse(str(key)))
    except ValueError:
        return str(key)


def _card(text: object) -> str:
    from hearts import Card

    try:
        return i18n.card_label(Card.parse(str(text)))
    except ValueError:
        return str(text)


def tip_text(tip: Tip, seating: Seating, rules: Rules) -> str:
    """The tip's main sentence(s)."""
    p = tip.params
    code = tip.code
    if code == "pass":
        where = learn_t(f"tip_pass_{p.get('direction')}", name=_seat(seating, p.get("seat")))
        return learn_t("tip_pass", where=where)
    if code == "first_trick":
        return learn_t(f"tip_first_trick_{p.get('first_trick')}")
    if code in ("follow_suit", "no_card_of_suit"):
        key = "tip_no_card_of_suit_first" if code == "no_card_of_suit" and p.get("first") else f"tip_{code}"
        text = learn_t(key, suit=_suit(p.get("suit")))
        return text[:1].upper() + text[1:]
    if code == "queen_fell":
        key = (
            "tip_queen_fell_you"
            if p.get("you")
            else "tip_queen_fell_self"
            if p.get("seat") == seating.me.key
            else "tip_queen_fell"
        )
        return learn_t(key, seat=_seat(seating, p.get("seat")), taker=_seat(seating, p.get("taker")))
    if code == "hearts_broken":
        return learn_t(
            "tip_hearts_broken_queen" if p.get("queen") else "tip_hearts_broken", seat=_seat(seating, p.get("seat"))
        )
    if code == "jack_fell":
        return learn_t("tip_jack_fell", taker=_seat(seating, p.get("taker")))
    if code == "moon_threat":
        return learn_t("tip_moon_threat_you" if p.get("you") else "tip_moon_threat", seat=_seat(seating, p.get("seat")))
    if code == "void_shown":
        return learn_t(
            "tip_void_shown", seat=_seat(seating, p.get("seat")), suit=_suit(p.get("suit")), card=_card(p.get("card"))
        )
    if code == "hand_over":
        points = int(p.get("points", 0))
        out = learn_t("tip_hand_over", points=plural_points(points))
        moon = str(p.get("moon") or "")
        if moon:
            out += " " + (
                learn_t("tip_hand_over_moon_you")
                if moon == seating.me.key
                else learn_t("tip_hand_over_moon", seat=_seat(seating, moon))
            )
        return f"{out} {learn_t('tip_hand_over_end', target=rules.target)}"
    return learn_t(f"tip_{code}")


def _example(tip: Tip, rules: Rules) -> str:
    if tip.example is None or tip.rule is None:
        return ""
    if tip.rule.value == "no_points_on_first_trick":  # in the words of the rules in force
        why = learn_t("first_" + FIRST_KEY[rules.first_trick])
    else:
        why = explain_code(tip.rule.value)
    return esc(learn_t("guide_refused", card=i18n.card_label(tip.example), why=why))


def _suggestion(tip: Tip, passing: bool) -> str:
    if not tip.cards:
        return ""
    return esc(hint_text(Hint(tip.cards, tip.reason, tip.reason_params), passing))


def guide_panel(tips: Sequence[Tip], seating: Seating, rules: Rules, passing: bool, suggest: bool = True) -> str:
    """The panel's inside for ``tips`` (all those given since the player's last move, oldest
    first, so that news is not gone before it was read): each sentence with its example, the
    latest suggestion (unless ``suggest`` is False: that move is made) and "leave"."""
    parts = []
    for tip in tips:
        parts.append(f'<p class="guide-tip" data-tip="{esc(tip.code)}">{esc(tip_text(tip, seating, rules))}</p>')
        example = _example(tip, rules)
        if example:
            parts.append(f'<p class="guide-example">{example}</p>')
    pointing = [tip for tip in tips if tip.cards]
    suggestion = _suggestion(pointing[-1], passing) if pointing and suggest else ""
    if suggestion:
        parts.append(f'<div class="guide-suggest">{cards_row(pointing[-1].cards)}<p>{suggestion}</p></div>')
    return _frame("".join(parts), done=False)


def guide_done(tip: Tip | None, seating: Seating, rules: Rules) -> str:
    """The panel at the end of the guided hand: what happened, then what next."""
    said = f'<p class="guide-tip" data-tip="hand_over">{esc(tip_text(tip, seating, rules))}</p>' if tip else ""
    return _frame(said + f"<p>{esc(learn_t('guide_done'))}</p>", done=True)


def _frame(body: str, done: bool) -> str:
    if done:
        buttons = (
            f'<button type="button" class="secondary" data-action="guided-hand">{esc(learn_t("guide_again"))}</button>'
            f'<button type="button" class="primary" data-action="guided-leave">{esc(learn_t("guide_back"))}</button>'
        )
    else:
        buttons = (
            f'<button type="button" class="secondary" data-action="guided-leave">{esc(learn_t("guide_leave"))}</button>'
        )
    title = learn_t("guide_done_title") if done else learn_t("guide_title")
    # folds to its title with a tap on it (a phone's table has no room beside the trick)
    return (
        f'<details class="guide-fold" open><summary><h2 id="guide-title" class="guide-title">{esc(title)}</h2>'
        f'</summary>{body}<div class="guide-actions">{buttons}</div></details>'
    )


def welcome_html() -> str:
    """The first visit's offer (a notice card): read how to play, or play a guided hand."""
    actions = (
        f'<button type="button" class="secondary" data-action="rules">{esc(learn_t("guide_read"))}</button>'
        f'<button type="button" class="primary" data-action="guided-hand">{esc(learn_t("guided_start"))}</button>'
    )
    return (
        f'<div class="notice welcome" role="status" data-notice="welcome">'
        f'<div class="notice-body"><p><strong>{esc(learn_t("guide_welcome"))}</strong> '
        f"{esc(learn_t('guide_welcome_text'))}</p></div>"
        f'<div class="notice-actions">{actions}'
        f'<button type="button" class="notice-x" data-close-notice="welcome" aria-label="{esc(learn_t("close"))}" '
        f'title="{esc(learn_t("close"))}">×</button></div></div>'
    )
