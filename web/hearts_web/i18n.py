"""German and English strings for the browser layer.

Strings live in plain dicts (no fetch at start-up); ``t(key, **params)`` formats one in the
current language.  Rule explanations are keyed by the engine's stable IllegalAction codes and
hint reasons by the bots' reason codes, so the engine never has to know a language.
"""

from __future__ import annotations

from hearts.cards import CARDS

LANGS = ("de", "en")

EN: dict[str, str] = {
    "app_name": "Hearts",
    "loading": "Loading…",
    "seat_0": "You",
    "seat_1": "West",
    "seat_2": "North",
    "seat_3": "East",
    "seat_name_0": "You",
    "seat_name_1": "Pip",
    "seat_name_2": "Hops",
    "seat_name_3": "Shelly",
    "your_hand": "Your hand",
    "trick": "Current trick",
    "points_short": "{n} pts",
    "cards_left": "{n} cards",
    "markers_label": "Tricks this hand: {list}",
    "marker_none": "no points",
    "marker_hearts": "hearts",
    "marker_queen": "queen of spades",
    "marker_jack": "jack of diamonds",
    "no_tricks": "no tricks yet",
    # passing
    "pass_left": "Pass 3 cards to the left (to {name})",
    "pass_right": "Pass 3 cards to the right (to {name})",
    "pass_across": "Pass 3 cards across (to {name})",
    "pass_hold": "No passing this hand: keep your cards.",
    "pass_chosen": "{n} of 3 chosen",
    "pass_button": "Pass cards",
    "pass_waiting": "Waiting for the others…",
    "received": "You received {cards} from {name}.",
    # play
    "your_turn": "Your turn.",
    "your_lead": "Your turn: lead a card.",
    "lead_two_clubs": "Your turn: lead the two of clubs.",
    "thinking": "{name} is thinking…",
    "plays": "{name} plays {card}.",
    "takes_trick": "{name} takes the trick.",
    "you_take_trick": "You take the trick.",
    "hearts_broken": "Hearts are broken!",
    "tap_again": "Tap the card again to play it.",
    # illegal actions (engine codes)
    "err_wrong_phase": "That is not possible right now.",
    "err_not_your_turn": "Wait for your turn.",
    "err_card_not_in_hand": "That card is not in your hand.",
    "err_must_lead_two_of_clubs": "The two of clubs must open the first trick.",
    "err_must_follow_suit": "You must follow suit: play a {suit}.",
    "err_must_follow_suit_plain": "You must follow suit.",
    "err_hearts_not_broken": "Hearts are not broken yet: lead another suit.",
    "err_no_points_on_first_trick": "No hearts and no queen of spades on the first trick.",
    "err_wrong_pass_count": "Choose exactly three cards to pass.",
    "err_duplicate_cards": "Choose three different cards.",
    "err_already_passed": "You have already passed.",
    "err_match_over": "The match is over: start a new one.",
    "err_unknown_card": "Unknown card.",
    "err_other": "That card cannot be played now.",
    # suits (plural, for sentences)
    "suit1_0": "club",
    "suit1_1": "diamond",
    "suit1_2": "spade",
    "suit1_3": "heart",
    "suit_0": "clubs",
    "suit_1": "diamonds",
    "suit_2": "spades",
    "suit_3": "hearts",
    # hand over / score sheet
    "hand_over": "Hand {n} is over",
    "moon": "{name} shot the moon! Everyone else takes 26.",
    "moon_you": "You shot the moon! Everyone else takes 26.",
    "took_points": "{name}: {pts}",
    "continue": "Continue",
    "next_hand": "Next hand",
    "score_sheet": "Score sheet",
    "hand_col": "Hand",
    "total": "Total",
    "close": "Close",
    "match_over": "Match over",
    "winner_you": "You win the match!",
    "winner": "{name} wins the match.",
    "winners": "Shared win: {names}.",
    "standings": "Final standings",
    "new_match": "New match",
    "new_match_confirm": "Start a new match? The current match will be abandoned.",
    "practice": "Practice",
    "practice_note": "You used a hint: this match counts as practice.",
    "target": "Match to {n} points",
    # toolbar
    "menu": "Menu",
    "hint": "Show me",
    "last_trick": "Last trick",
    "no_last_trick": "No trick has been played yet in this hand.",
    "scores": "Scores",
    "settings": "Settings",
    "stats": "Statistics",
    "fullscreen": "Fullscreen",
    "daily": "Daily",
    "language": "Language",
    # settings
    "difficulty": "Difficulty",
    "diff_easy": "Easy",
    "diff_medium": "Medium",
    "diff_hard": "Hard",
    "look": "Look",
    "look_modern": "Modern",
    "look_classic": "Classic (green felt)",
    "speed": "Animation speed",
    "speed_slow": "Slow",
    "speed_normal": "Normal",
    "speed_fast": "Fast",
    "speed_instant": "Instant",
    "rules": "Rules",
    "preset": "Rule set",
    "preset_standard": "Standard (100 points)",
    "preset_classic": "Classic",
    "preset_king": "King of Hearts (50 points)",
    "preset_omnibus": "Omnibus (J♦ −10)",
    "preset_custom": "Custom",
    "opt_target": "Match ends at",
    "opt_pass_cycle": "Passing",
    "cycle_left_right_across_hold": "left, right, across, hold",
    "cycle_left_across_right_hold": "left, across, right, hold",
    "cycle_none": "never pass",
    "cycle_custom": "custom",
    "opt_first_trick": "First trick",
    "ft_hearts_and_queen": "no hearts, no Q♠",
    "ft_queen_only": "no Q♠",
    "ft_none": "anything goes",
    "opt_queen_breaks": "Queen of spades breaks hearts",
    "opt_jack": "Jack of diamonds counts −10",
    "opt_moon": "Shooting the moon",
    "moon_add_to_others": "others +26",
    "moon_shooters_choice": "others +26, or you −26 if that would lose",
    "moon_subtract_from_shooter": "you −26",
    "opt_tie": "Tie for lowest at the end",
    "tie_play_on": "play another hand",
    "tie_shared_win": "shared win",
    "points_n": "{n} points",
    "rules_next_match": "Rule changes apply from the next match.",
    "apply_new_match": "Start new match with these rules",
    "save": "Done",
    # stats
    "st_played": "Matches played",
    "st_won": "Matches won",
    "st_hands": "Hands played",
    "st_avg": "Average points per hand",
    "st_moons": "Moons shot",
    "st_note": "Practice matches (with hints) and daily games are not counted.",
    # persistence
    "save_corrupt": "Your saved game could not be read (it may come from an older version). "
    "A new match has started; the old data was kept as a backup.",
    "error": "Something went wrong. Your game is saved after every move; reload the page to continue.",
    "reload": "Reload",
    # hints
    "hint_title": "Hops suggests",
    "hint_pass": "Pass {cards}.",
    "hint_play": "Play {card}.",
    "hint_thinking": "Hops is thinking…",
    # daily
    "daily_title": "Daily game · {date}",
    "daily_intro": "Everyone gets the same deal today. Play one hand and try to beat par: the points Hops scores in your seat.",
    "par": "Par: {par}",
    "par_computing": "Par: …",
    "daily_play": "Play today's hand",
    "daily_practice": "Play again (practice)",
    "daily_result": "You took {pts} points · par {par}",
    "daily_beat": "You beat par!",
    "daily_equal": "You matched par.",
    "daily_over": "Par was better this time.",
    "share": "Share result",
    "copied": "Result copied to the clipboard.",
    "copy_manual": "Copy this text:",
    "history": "History",
    "streak": "Streak: {n} days",
    "streak_one": "Streak: 1 day",
    "streak_par": "At or under par: {n} days in a row",
    "streak_par_one": "At or under par: 1 day in a row",
    "played_days": "Days played: {n}",
    "no_history": "No daily games yet.",
    "new_daily": "A new daily game is ready.",
    "open_new_daily": "Open today's game",
    "daily_practice_badge": "Daily · practice",
    "daily_badge": "Daily",
    "back_to_match": "Back to your match",
    "share_title": "Hearts daily {date}",
    "share_points": "{pts} points · par {par}",
}

DE: dict[str, str] = {
    "app_name": "Hearts",
    "loading": "Lädt…",
    "seat_0": "Du",
    "seat_1": "West",
    "seat_2": "Nord",
    "seat_3": "Ost",
    "seat_name_0": "Du",
    "seat_name_1": "Pip",
    "seat_name_2": "Hops",
    "seat_name_3": "Shelly",
    "your_hand": "Deine Karten",
    "trick": "Aktueller Stich",
    "points_short": "{n} Pkt.",
    "cards_left": "{n} Karten",
    "markers_label": "Stiche in dieser Runde: {list}",
    "marker_none": "ohne Punkte",
    "marker_hearts": "Herz",
    "marker_queen": "Pik-Dame",
    "marker_jack": "Karo-Bube",
    "no_tricks": "noch keine Stiche",
    "pass_left": "Gib 3 Karten nach links (an {name})",
    "pass_right": "Gib 3 Karten nach rechts (an {name})",
    "pass_across": "Gib 3 Karten über den Tisch (an {name})",
    "pass_hold": "In dieser Runde wird nicht getauscht: Du behältst deine Karten.",
    "pass_chosen": "{n} von 3 gewählt",
    "pass_button": "Karten geben",
    "pass_waiting": "Warte auf die anderen…",
    "received": "Du hast {cards} von {name} bekommen.",
    "your_turn": "Du bist dran.",
    "your_lead": "Du bist dran: Spiel eine Karte aus.",
    "lead_two_clubs": "Du bist dran: Spiel die Kreuz-2 aus.",
    "thinking": "{name} überlegt…",
    "plays": "{name} spielt {card}.",
    "takes_trick": "{name} nimmt den Stich.",
    "you_take_trick": "Du nimmst den Stich.",
    "hearts_broken": "Herz ist gebrochen!",
    "tap_again": "Tippe die Karte noch einmal an, um sie zu spielen.",
    "err_wrong_phase": "Das geht gerade nicht.",
    "err_not_your_turn": "Warte, bis du dran bist.",
    "err_card_not_in_hand": "Diese Karte hast du nicht.",
    "err_must_lead_two_of_clubs": "Die Kreuz-2 muss den ersten Stich eröffnen.",
    "err_must_follow_suit": "Du musst bedienen: Spiel {suit}.",
    "err_must_follow_suit_plain": "Du musst bedienen.",
    "err_hearts_not_broken": "Herz ist noch nicht gebrochen: Spiel eine andere Farbe aus.",
    "err_no_points_on_first_trick": "Im ersten Stich weder Herz noch die Pik-Dame.",
    "err_wrong_pass_count": "Wähle genau drei Karten zum Weitergeben.",
    "err_duplicate_cards": "Wähle drei verschiedene Karten.",
    "err_already_passed": "Du hast schon weitergegeben.",
    "err_match_over": "Die Partie ist vorbei: Starte eine neue.",
    "err_unknown_card": "Unbekannte Karte.",
    "err_other": "Diese Karte kannst du jetzt nicht spielen.",
    "suit1_0": "Kreuz",
    "suit1_1": "Karo",
    "suit1_2": "Pik",
    "suit1_3": "Herz",
    "suit_0": "Kreuz",
    "suit_1": "Karo",
    "suit_2": "Pik",
    "suit_3": "Herz",
    "hand_over": "Runde {n} ist vorbei",
    "moon": "{name} hat den Mond geschossen! Alle anderen bekommen 26.",
    "moon_you": "Du hast den Mond geschossen! Alle anderen bekommen 26.",
    "took_points": "{name}: {pts}",
    "continue": "Weiter",
    "next_hand": "Nächste Runde",
    "score_sheet": "Punkteblatt",
    "hand_col": "Runde",
    "total": "Summe",
    "close": "Schließen",
    "match_over": "Partie beendet",
    "winner_you": "Du gewinnst die Partie!",
    "winner": "{name} gewinnt die Partie.",
    "winners": "Geteilter Sieg: {names}.",
    "standings": "Endstand",
    "new_match": "Neue Partie",
    "new_match_confirm": "Neue Partie starten? Die laufende Partie wird abgebrochen.",
    "practice": "Übung",
    "practice_note": "Du hast einen Tipp benutzt: Diese Partie zählt als Übung.",
    "target": "Partie bis {n} Punkte",
    "menu": "Menü",
    "hint": "Zeig's mir",
    "last_trick": "Letzter Stich",
    "no_last_trick": "In dieser Runde wurde noch kein Stich gespielt.",
    "scores": "Punkte",
    "settings": "Einstellungen",
    "stats": "Statistik",
    "fullscreen": "Vollbild",
    "daily": "Täglich",
    "language": "Sprache",
    "difficulty": "Schwierigkeit",
    "diff_easy": "Leicht",
    "diff_medium": "Mittel",
    "diff_hard": "Schwer",
    "look": "Aussehen",
    "look_modern": "Modern",
    "look_classic": "Klassisch (grüner Filz)",
    "speed": "Animationstempo",
    "speed_slow": "Langsam",
    "speed_normal": "Normal",
    "speed_fast": "Schnell",
    "speed_instant": "Sofort",
    "rules": "Regeln",
    "preset": "Regelwerk",
    "preset_standard": "Standard (100 Punkte)",
    "preset_classic": "Klassik",
    "preset_king": "King of Hearts (50 Punkte)",
    "preset_omnibus": "Omnibus (Karo-Bube −10)",
    "preset_custom": "Eigene Regeln",
    "opt_target": "Partie endet bei",
    "opt_pass_cycle": "Weitergeben",
    "cycle_left_right_across_hold": "links, rechts, gegenüber, keine",
    "cycle_left_across_right_hold": "links, gegenüber, rechts, keine",
    "cycle_none": "nie",
    "cycle_custom": "eigene",
    "opt_first_trick": "Erster Stich",
    "ft_hearts_and_queen": "kein Herz, keine Pik-Dame",
    "ft_queen_only": "keine Pik-Dame",
    "ft_none": "alles erlaubt",
    "opt_queen_breaks": "Pik-Dame bricht Herz",
    "opt_jack": "Karo-Bube zählt −10",
    "opt_moon": "Mond schießen",
    "moon_add_to_others": "andere +26",
    "moon_shooters_choice": "andere +26, oder du −26, wenn das verlieren würde",
    "moon_subtract_from_shooter": "du −26",
    "opt_tie": "Gleichstand am Ende",
    "tie_play_on": "weitere Runde spielen",
    "tie_shared_win": "geteilter Sieg",
    "points_n": "{n} Punkte",
    "rules_next_match": "Regeländerungen gelten ab der nächsten Partie.",
    "apply_new_match": "Neue Partie mit diesen Regeln",
    "save": "Fertig",
    "st_played": "Gespielte Partien",
    "st_won": "Gewonnene Partien",
    "st_hands": "Gespielte Runden",
    "st_avg": "Ø Punkte pro Runde",
    "st_moons": "Mond geschossen",
    "st_note": "Übungspartien (mit Tipps) und Tagesspiele zählen nicht.",
    "save_corrupt": "Dein gespeichertes Spiel konnte nicht gelesen werden (vielleicht stammt es aus einer "
    "älteren Version). Eine neue Partie hat begonnen; die alten Daten wurden als Sicherung aufbewahrt.",
    "error": "Etwas ist schiefgegangen. Dein Spiel wird nach jedem Zug gespeichert; lade die Seite neu, um weiterzuspielen.",
    "reload": "Neu laden",
    "hint_title": "Hops schlägt vor",
    "hint_pass": "Gib {cards} weiter.",
    "hint_play": "Spiel {card}.",
    "hint_thinking": "Hops überlegt…",
    "daily_title": "Tagesspiel · {date}",
    "daily_intro": "Heute bekommen alle dasselbe Blatt. Spiel eine Runde und versuch, das Par zu schlagen: die Punkte, die Hops auf deinem Platz bekommt.",
    "par": "Par: {par}",
    "par_computing": "Par: …",
    "daily_play": "Heutige Runde spielen",
    "daily_practice": "Nochmal spielen (Übung)",
    "daily_result": "Du hast {pts} Punkte · Par {par}",
    "daily_beat": "Du hast das Par geschlagen!",
    "daily_equal": "Du hast das Par erreicht.",
    "daily_over": "Diesmal war das Par besser.",
    "share": "Ergebnis teilen",
    "copied": "Ergebnis in die Zwischenablage kopiert.",
    "copy_manual": "Kopier diesen Text:",
    "history": "Verlauf",
    "streak": "Serie: {n} Tage",
    "streak_one": "Serie: 1 Tag",
    "streak_par": "Par oder besser: {n} Tage in Folge",
    "streak_par_one": "Par oder besser: 1 Tag",
    "played_days": "Gespielte Tage: {n}",
    "no_history": "Noch keine Tagesspiele.",
    "new_daily": "Ein neues Tagesspiel ist da.",
    "open_new_daily": "Heutiges Spiel öffnen",
    "daily_practice_badge": "Täglich · Übung",
    "daily_badge": "Täglich",
    "back_to_match": "Zurück zur Partie",
    "share_title": "Hearts täglich {date}",
    "share_points": "{pts} Punkte · Par {par}",
}

STRINGS = {"en": EN, "de": DE}

_RANK_EN = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
_NUM_EN = {2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine", 10: "Ten"}
_SUIT_EN = ("clubs", "diamonds", "spades", "hearts")
_RANK_DE = {11: "Bube", 12: "Dame", 13: "König", 14: "Ass"}
_SUIT_DE = ("Kreuz", "Karo", "Pik", "Herz")
RANK_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}
RANK_TEXT_DE = {11: "B", 12: "D", 13: "K", 14: "A"}
SUIT_SYMBOL = ("♣", "♦", "♠", "♥")


class _Lang:
    current = "en"


def set_lang(lang: str) -> None:
    _Lang.current = lang if lang in STRINGS else "en"


def lang() -> str:
    return _Lang.current


def t(key: str, **params: object) -> str:
    table = STRINGS[_Lang.current]
    text = table.get(key) or EN.get(key) or key
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def default_lang(navigator_language: str | None) -> str:
    return "de" if (navigator_language or "").lower().startswith("de") else "en"


def card_label(card: int) -> str:
    """Full spoken name of a card (a ``Card`` or card number): "Queen of spades" / "Pik-Dame"."""
    suit, rank = int(CARDS[card].suit), CARDS[card].rank
    if _Lang.current == "de":
        name = _RANK_DE.get(rank, str(rank))
        return f"{_SUIT_DE[suit]}-{name}"
    name = _RANK_EN.get(rank) or _NUM_EN[rank]
    return f"{name} of {_SUIT_EN[suit]}"


def rank_text(rank: int) -> str:
    """Corner index of a card face (J/Q/K/A in English, B/D/K/A in German)."""
    table = RANK_TEXT_DE if _Lang.current == "de" else RANK_TEXT
    return table.get(rank, str(rank))


def join_list(items: list[str]) -> str:
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    word = " und " if _Lang.current == "de" else " and "
    return ", ".join(items[:-1]) + word + items[-1]
