"""The "How to play" page: HTML built from a :class:`~hearts.Rules` value and a language, so the
page always says what the table plays (pass cycle, first trick, breaking hearts, the Q♠, the J♦,
moon scoring, target, ties). Small card pictures are the game's own card faces. Pure: no DOM."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from hearts import FirstTrick, MoonScoring, PassDirection, Rules, TieRule, preset_name
from hearts.cards import JACK_OF_DIAMONDS, QUEEN_OF_SPADES, TWO_OF_CLUBS, Card, parse_cards

from ..core import i18n
from ..core.html import card_face, esc
from .text import TEXT

__all__ = ["rules_page", "learn_t", "plural_points", "in_lang", "cards_row"]

FIRST_KEY = {
    FirstTrick.HEARTS_AND_QUEEN: "hearts_and_queen",
    FirstTrick.QUEEN_ONLY: "queen_only",
    FirstTrick.NONE: "none",
}
MOON_KEY = {
    MoonScoring.ADD_TO_OTHERS: "moon_add",
    MoonScoring.SUBTRACT_FROM_SHOOTER: "moon_subtract",
    MoonScoring.SHOOTERS_CHOICE: "moon_choice",
}


def learn_t(key: str, lang: str | None = None, **params: object) -> str:
    """A sentence of the rules page or the guide in ``lang`` (the page's language by default)."""
    table = TEXT.get(lang or i18n.lang(), TEXT["en"])
    text = table.get(key) or TEXT["en"].get(key) or key
    return text.format(**params) if params else text


def plural_points(n: int, lang: str | None = None) -> str:
    """ "1 point" / "2 points" ("1 Punkt" / "2 Punkte")."""
    one, many = learn_t("n_points", lang).split("|")
    return (one if abs(n) == 1 else many).format(n=n)


@contextmanager
def in_lang(lang: str) -> Iterator[None]:
    """Card faces and names in ``lang`` while building (the page's language comes back after)."""
    before = i18n.lang()
    i18n.set_lang(lang)
    try:
        yield
    finally:
        i18n.set_lang(before)


def cards_row(cards: str | tuple[Card, ...], label: str = "") -> str:
    """A few small card faces in a row."""
    picked = parse_cards(cards) if isinstance(cards, str) else cards
    faces = "".join(card_face(c, "mini") for c in picked)
    aria = f' aria-label="{esc(label)}"' if label else ""
    return f'<div class="mini-cards"{aria}>{faces}</div>'


def _section(key: str, body: str, name: str) -> str:
    return f'<section class="rules-part" data-rules-part="{name}"><h3>{esc(learn_t("h_" + key))}</h3>{body}</section>'


def _p(text: str, attr: str = "") -> str:
    return f"<p{attr}>{esc(text)}</p>"


def _aim(rules: Rules) -> str:
    items = [
        _p(learn_t("aim_1")),
        cards_row("5H QS" + (" JD" if rules.jack_of_diamonds else "")),
        "<ul>",
        f"<li>{esc(learn_t('aim_hearts'))}</li>",
        f"<li>{esc(learn_t('aim_queen'))}</li>",
    ]
    if rules.jack_of_diamonds:
        items.append(f'<li data-rule="jack">{esc(learn_t("aim_jack"))}</li>')
    items += ["</ul>", _p(learn_t("aim_end", target=rules.target), ' data-rule="target"')]
    return _section("aim", "".join(items), "aim")


def _tricks() -> str:
    body = _p(learn_t("tricks_1")) + cards_row("2S 9S JS AS 3D") + _p(learn_t("tricks_2"))
    return _section("tricks", body, "tricks")


def _pass(rules: Rules) -> str:
    cycle = rules.pass_cycle
    if all(d is PassDirection.HOLD for d in cycle):
        return _section("pass", _p(learn_t("pass_none"), ' data-rule="pass-none"'), "pass")
    steps = "".join(
        f"<li>{esc(learn_t('pass_hand', n=i + 1, where=learn_t('where_' + d.value)))}</li>" for i, d in enumerate(cycle)
    )
    again = _p(learn_t("pass_again")) if len(cycle) > 1 else ""
    body = (
        _p(learn_t("pass_intro"))
        + f'<ol class="pass-cycle" data-rule="pass-cycle">{steps}</ol>'
        + again
        + cards_row("QS AS KH")
        + _p(learn_t("pass_advice"))
    )
    return _section("pass", body, "pass")


def _play(rules: Rules) -> str:
    first = FIRST_KEY[rules.first_trick]
    body = (
        cards_row((TWO_OF_CLUBS,))
        + _p(learn_t("play_two"))
        + _p(learn_t("play_follow"))
        + _p(learn_t("play_void"))
        + _p(learn_t("first_" + first), f' data-rule="first-{first}"')
    )
    return _section("play", body, "play")


def _hearts(rules: Rules) -> str:
    queen = "hearts_queen" if rules.queen_breaks_hearts else "hearts_no_queen"
    body = (
        cards_row("4H")
        + _p(learn_t("hearts_1"))
        + _p(learn_t(queen), f' data-rule="{queen.replace("_", "-")}"')
        + _p(learn_t("hearts_only"))
    )
    return _section("hearts", body, "hearts")


def _score(rules: Rules) -> str:
    rows: list[tuple[str | tuple[Card, ...], str, str]] = [
        ("KH", learn_t("score_heart"), plural_points(1)),
        ((QUEEN_OF_SPADES,), learn_t("score_queen"), plural_points(13)),
    ]
    if rules.jack_of_diamonds:
        rows.append(((JACK_OF_DIAMONDS,), learn_t("score_jack"), plural_points(-10)))
    rows.append(("7C", learn_t("score_other"), plural_points(0)))
    body = "".join(
        f"<tr{' data-rule=jack' if c == (JACK_OF_DIAMONDS,) else ''}><td>{cards_row(c)}</td>"
        f"<td>{esc(what)}</td><td>{esc(points)}</td></tr>"
        for c, what, points in rows
    )
    table = f'<table class="rules-score"><tbody>{body}</tbody></table>'
    return _section("score", _p(learn_t("score_intro")) + table + _p(learn_t("score_total")), "score")


def _moon(rules: Rules) -> str:
    key = MOON_KEY[rules.moon]
    body = _p(learn_t("moon_1")) + _p(learn_t(key), f' data-rule="{key.replace("_", "-")}"')
    if rules.jack_of_diamonds:
        body += _p(learn_t("moon_jack"), ' data-rule="jack"')
    return _section("moon", body + _p(learn_t("moon_risk")), "moon")


def _end(rules: Rules) -> str:
    tie = "tie_play_on" if rules.tie is TieRule.PLAY_ON else "tie_shared"
    body = _p(learn_t("end_1", target=rules.target), ' data-rule="target"') + _p(
        learn_t(tie), f' data-rule="{tie.replace("_", "-")}"'
    )
    return _section("end", body, "end")


def _faq(rules: Rules) -> str:
    first = FIRST_KEY[rules.first_trick]
    moon = f"{learn_t('moon_1')} {learn_t(MOON_KEY[rules.moon])}"
    pairs = [
        ("q_heart", f"{learn_t('a_heart', first=learn_t('a_heart_first_' + first))} {learn_t('a_heart_tap')}"),
        ("q_no_club", learn_t("a_no_club", first=learn_t("a_no_club_first_" + first))),
        ("q_moon", moon),
        ("q_first", learn_t("a_first")),
        (
            "q_queen_lead",
            learn_t("a_queen_lead") + (f" {learn_t('hearts_queen')}" if rules.queen_breaks_hearts else ""),
        ),
        ("q_high_other", learn_t("a_high_other")),
        ("q_received", learn_t("a_received")),
        ("q_points_good", learn_t("a_points_good")),
    ]
    items = "".join(
        f'<details data-faq="{q[2:]}"><summary>{esc(learn_t(q))}</summary>{_p(a)}</details>' for q, a in pairs
    )
    return _section("faq", items, "faq")


def rules_page(rules: Rules, lang: str, guided: bool = True) -> str:
    """The whole page for ``rules`` in ``lang``; ``guided``: offer the guided hand."""
    with in_lang(lang):
        preset = preset_name(rules)
        name = learn_t(f"preset_{preset}") if preset else learn_t("these_rules_custom")
        offer = ""
        if guided:
            offer = (
                f'<div class="rules-offer">{_p(learn_t("guided_offer"))}'
                '<button type="button" class="primary" '
                f'data-action="guided-hand">{esc(learn_t("guided_start"))}</button></div>'
            )
        parts = [
            _aim(rules),
            _tricks(),
            _pass(rules),
            _play(rules),
            _hearts(rules),
            _score(rules),
            _moon(rules),
            _end(rules),
            _faq(rules),
        ]
        close = (
            f'<div class="dlg-actions"><button type="button" class="secondary" data-action="close-dialog">'
            f"{esc(learn_t('close'))}</button></div>"
        )
        return (
            f'<div class="rules-page" data-rules-page data-preset="{esc(preset or "custom")}" lang="{esc(lang)}">'
            f"{_p(learn_t('these_rules', name=name), ' class=rules-name')}{offer}{''.join(parts)}{close}</div>"
        )
