import pytest

from hearts import CARDS, Card, Suit, cards_of, format_cards, mask_of, parse_cards, sort_cards


def test_every_card_text_round_trips():
    texts = [c.text for c in CARDS]
    assert len(set(texts)) == 52
    for card in CARDS:
        assert Card.parse(str(card)) is card
        assert Card.parse(card.text.lower()) is card


@pytest.mark.parametrize(
    "text, symbol, suit, rank",
    [
        ("2C", "2♣", Suit.CLUBS, 2),
        ("TC", "10♣", Suit.CLUBS, 10),
        ("JC", "J♣", Suit.CLUBS, 11),
        ("QS", "Q♠", Suit.SPADES, 12),
        ("AH", "A♥", Suit.HEARTS, 14),
        ("KD", "K♦", Suit.DIAMONDS, 13),
    ],
)
def test_text_and_display_forms(text, symbol, suit, rank):
    card = Card.parse(text)
    assert (card.symbol, card.suit, card.rank, str(card)) == (symbol, suit, rank, text)
    assert Card.of(suit, rank) is card


def test_ten_may_be_written_10():
    assert Card.parse("10H") is Card.parse("TH")


@pytest.mark.parametrize("bad", ["", "Q", "1C", "QX", "ZZ", "QSS", "11H"])
def test_bad_card_text_is_refused(bad):
    with pytest.raises(ValueError):
        Card.parse(bad)


def test_hands_sort_clubs_diamonds_spades_hearts_low_to_high():
    cards = parse_cards("AH 2S KD 3C QS 2H AC 2D")
    assert format_cards(sort_cards(cards)) == "3C AC 2D KD 2S QS 2H AH"


def test_masks_round_trip():
    cards = parse_cards("AH 2C QS JD")
    assert cards_of(mask_of(cards)) == sort_cards(cards)
    assert cards_of(0) == ()


def test_cards_pickle_as_cards():
    import pickle

    assert pickle.loads(pickle.dumps(Card.parse("QS"))) == Card.parse("QS")
    assert type(pickle.loads(pickle.dumps(Card.parse("QS")))) is Card
