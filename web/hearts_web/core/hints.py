"""One-sentence reasons for the "Show me" hint, keyed by the bots' reason codes (docs/bots.md)."""

from __future__ import annotations

from collections.abc import Mapping

from hearts import Card, Seat
from hearts.bots import Hint

from . import i18n
from .i18n import t

REASONS_EN: dict[str, str] = {
    "pass_queen": "The queen of spades is worth 13 points: pass it on.",
    "pass_high_spades": "High spades tend to catch the queen: pass them on.",
    "pass_high_hearts": "High hearts win tricks full of points.",
    "void_suit": "Without {suit} you can discard dangerous cards later.",
    "pass_high_cards": "High cards win tricks you do not want.",
    "shoot_moon": "You have a real chance to shoot the moon.",
    "only_legal_card": "It is the only card you may play.",
    "block_moon": "{seat} may be shooting the moon: take a point to stop it.",
    "feed_leader": "The match is nearly over: give the points to {seat}, who is leading.",
    "lead_spades_flush_queen": "A low spade helps to flush out the queen.",
    "lead_low": "A low {suit} is unlikely to win the trick.",
    "lead_safe_winner": "This wins a trick without points while that is still safe.",
    "dump_queen": "Get rid of the queen of spades while someone else takes the trick.",
    "dump_queen_under": "{under} is higher: the queen of spades goes to someone else.",
    "duck": "Play under {under} so you do not win the trick.",
    "win_cheaply": "There are no points in this trick: win it cheaply.",
    "unload_high": "You will take this trick anyway: unload a high card.",
    "keep_low_heart": "Keep {low} as a low heart for later.",
    "follow_low": "Follow suit with a low card.",
    "dump_high_heart": "You cannot follow suit: discard your highest heart.",
    "dump_high_card": "You cannot follow suit: get rid of a dangerous high card.",
    "make_void": "Play your last {suit} so you can discard later.",
    "random": "",
}

REASONS_DE: dict[str, str] = {
    "pass_queen": "Die Pik-Dame zählt 13 Punkte: Gib sie weiter.",
    "pass_high_spades": "Hohe Pik fangen leicht die Pik-Dame: Gib sie weiter.",
    "pass_high_hearts": "Hohe Herz gewinnen Stiche voller Punkte.",
    "void_suit": "Ohne {suit} kannst du später gefährliche Karten abwerfen.",
    "pass_high_cards": "Hohe Karten gewinnen Stiche, die du nicht willst.",
    "shoot_moon": "Du hast eine echte Chance, den Mond zu schießen.",
    "only_legal_card": "Es ist die einzige Karte, die du spielen darfst.",
    "block_moon": "{seat} versucht vielleicht den Mond: Nimm einen Punkt, um es zu verhindern.",
    "feed_leader": "Die Partie ist fast vorbei: Gib die Punkte {seat}, der vorne liegt.",
    "lead_spades_flush_queen": "Ein kleines Pik lockt die Pik-Dame heraus.",
    "lead_low": "Ein kleines {suit} gewinnt den Stich kaum.",
    "lead_safe_winner": "Damit gewinnst du einen Stich ohne Punkte, solange das noch sicher ist.",
    "dump_queen": "Wirf die Pik-Dame ab, den Stich nimmt jemand anderes.",
    "dump_queen_under": "{under} ist höher: Die Pik-Dame geht an jemand anderen.",
    "duck": "Spiel unter {under}, dann nimmst du den Stich nicht.",
    "win_cheaply": "In diesem Stich sind keine Punkte: Nimm ihn günstig.",
    "unload_high": "Den Stich bekommst du sowieso: Wirf eine hohe Karte ab.",
    "keep_low_heart": "Behalte {low} als kleines Herz für später.",
    "follow_low": "Bediene mit einer kleinen Karte.",
    "dump_high_heart": "Du kannst nicht bedienen: Wirf dein höchstes Herz ab.",
    "dump_high_card": "Du kannst nicht bedienen: Wirf eine gefährliche hohe Karte ab.",
    "make_void": "Spiel dein letztes {suit}, dann kannst du später abwerfen.",
    "random": "",
}

_SUITS = ("clubs", "diamonds", "spades", "hearts")


def _param(name: str, value: object) -> str:
    if name == "suit" and isinstance(value, str) and value in _SUITS:
        return t(f"suit_{_SUITS.index(value)}")
    if name == "seat" and isinstance(value, str):
        try:
            return t(f"seat_name_{int(Seat.parse(value))}")
        except ValueError:
            return value
    if isinstance(value, str) and len(value) in (2, 3):
        try:
            card = Card.parse(value)
        except ValueError:
            return value
        return i18n.card_label(card)
    return str(value)


def reason_text(code: str, params: Mapping[str, object]) -> str:
    table = REASONS_DE if i18n.lang() == "de" else REASONS_EN
    if code == "dump_queen" and "under" in params:
        code = "dump_queen_under"
    text = table.get(code, "")
    if not text:
        return ""
    values = {k: _param(k, v) for k, v in params.items() if not isinstance(v, (list, tuple))}
    try:
        out = text.format(**values)
    except (KeyError, IndexError, ValueError):
        return ""
    return out[:1].upper() + out[1:]


def hint_text(hint: Hint, passing: bool) -> str:
    """ "Pass the Q♠, K♠ and A♠. The queen of spades is worth 13 points: pass it on." """
    names = i18n.join_list([i18n.card_label(c) for c in sorted(hint.cards)])
    head = t("hint_pass", cards=names) if passing else t("hint_play", card=names)
    return f"{head} {reason_text(hint.reason, hint.params)}".strip()
