"""hearts_web.screen.table_html: the HTML of cards, seats, the hand and the score sheet (no browser needed)."""

from __future__ import annotations

from hearts_web.core import i18n
from hearts_web.screen import table_html
from hearts_web.screen.table_state import Seating

from hearts import Card, HandScore, Seat, parse_cards


def setup_function() -> None:
    i18n.set_lang("en")


def test_a_card_face_names_the_card_and_carries_its_text() -> None:
    """The accessible name begins with what the face shows (voice control users say what they see)."""
    html = table_html.card_face(Card.parse("QS"), tag="button", attrs='aria-disabled="true"')
    assert 'data-card="QS"' in html and 'aria-label="Q♠, queen of spades"' in html and 'aria-disabled="true"' in html
    assert 'aria-label="10♥, ten of hearts"' in table_html.card_face(Card.parse("TH"))
    assert "red" not in html.split(">")[0]
    assert " red" in table_html.card_face(Card.parse("TH")).split(">")[0]
    i18n.set_lang("de")
    assert 'aria-label="D♠, Pik-Dame"' in table_html.card_face(Card.parse("QS")) and "<b>D</b>" in table_html.card_face(
        Card.parse("QS")
    )


def test_the_hand_enables_only_the_given_cards_and_marks_chosen_ones() -> None:
    cards = parse_cards("2C 5C 9D QS AH")
    html = table_html.hand_buttons(cards, enabled=cards[:2], classes={cards[1]: "selected"}, pressed=[cards[1]])
    buttons = html.split("</button>")[:-1]
    assert len(buttons) == 5
    assert ['aria-disabled="true"' not in b.split(">")[0] for b in buttons] == [True, True, False, False, False]
    assert " disabled" not in html  # every card stays focusable
    assert 'aria-pressed="true"' in buttons[1] and 'aria-pressed="false"' in buttons[0]
    assert "selected" in buttons[1].split(">")[0]
    # two rows on a phone: the first three cards in row one, the rest in row two
    assert [" r2" in b.split(">")[0] for b in buttons] == [False, False, False, True, True]


def test_the_hand_is_one_tab_stop_and_each_unplayable_card_says_why() -> None:
    cards = parse_cards("2C 5C 9D QS AH")
    why = {cards[2]: "Follow suit.", cards[3]: "Follow suit.", cards[4]: "Not hearts yet."}
    html = table_html.hand_buttons(cards, enabled=cards[:2], classes={}, tab_stop=cards[1], reasons=why)
    heads = [b.split(">")[0] for b in html.split("</button>")[:-1]]
    assert ['tabindex="0"' in h for h in heads] == [False, True, False, False, False]
    assert all('tabindex="-1"' in h for i, h in enumerate(heads) if i != 1)
    assert ['aria-describedby="hand-why-0"' in h for h in heads] == [False, False, True, True, False]
    assert 'aria-describedby="hand-why-1"' in heads[4]
    assert '<span id="hand-why-0" hidden>Follow suit.</span><span id="hand-why-1" hidden>Not hearts yet.</span>' in html
    # the tab stop falls back to the first card when the given one is not in the hand
    first = table_html.hand_buttons(cards, enabled=(), classes={}, tab_stop=None).split(">")[0]
    assert 'tabindex="0"' in first


def test_the_score_sheet_marks_the_moon_and_the_lowest_total() -> None:
    rows = [
        HandScore(0, (0, 26, 26, 26), (26, 0, 0, 0), Seat.SOUTH, None, (0, 26, 26, 26)),
        HandScore(1, (5, 8, 13, 0), (5, 8, 13, 0), None, None, (5, 34, 39, 26)),
    ]
    html = table_html.score_sheet(rows, Seating())
    assert html.count("<tr>") == 4  # head, two hands, totals
    assert 'class="moon-cell">0 ☾' in html
    assert '<td class="low">5</td>' in html and html.count('class="low"') == 1


def test_seat_boxes_show_markers_cards_left_and_who_is_thinking() -> None:
    html = table_html.seat_box(Seat.WEST, 17, ("hearts", "queen"), 9, thinking=True, seating=Seating())
    assert html.count("<i></i>") == 9 and '<span class="pts"' in html and ">17<" in html
    assert 'class="m-hearts"' in html and 'class="m-queen"' in html and "Pip is thinking" in html
    assert "hearts, queen of spades" in html


def test_names_come_from_the_seating_of_the_table() -> None:
    seating = Seating(Seat.WEST, {Seat.SOUTH: "<b>Ada</b>"}, {Seat.SOUTH: "remote"})
    assert seating.name(Seat.WEST) == "You" and seating.name(Seat.NORTH) == "Hops" and seating.kind(Seat.NORTH) == "bot"
    assert seating.slot(Seat.WEST) == 0 and seating.slot(Seat.SOUTH) == 3
    html = table_html.seat_box(Seat.SOUTH, 0, (), 13, thinking=False, seating=seating)
    assert "&lt;b&gt;Ada&lt;/b&gt;" in html and '<span class="dir">' in html
    assert "&lt;b&gt;Ada" in table_html.score_sheet([], seating) and ">You<" in table_html.score_sheet([], seating)


def test_text_from_outside_is_escaped() -> None:
    assert table_html.esc('<img src=x onerror="alert(1)">') == "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"
