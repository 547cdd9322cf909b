"""Golden deals: these must never change (the daily game depends on them, in CPython and Pyodide)."""

import pytest

from hearts import deal_fingerprint, deal_from_seed, format_cards
from hearts.deal import validate_deal

GOLDEN = {
    "2026-11-29": (
        "4a7426d4bb7a56d2",
        [
            "9C TC AC 2D 5D JD KD 3S 5S 2H 4H 6H KH",
            "2C 5C 6D 7D 9D QD 2S 7S 8S 9S JS KS 3H",
            "3C 4D 8D TD AD 4S 6S TS QS AS 7H 9H AH",
            "4C 6C 7C 8C JC QC KC 3D 5H 8H TH JH QH",
        ],
    ),
    "2026-01-01": (
        "518b8d1e92584fa4",
        [
            "5C TC AC 7D 4S 8S TS JS QS KS 3H 7H 8H",
            "2C 3C 9C 8D 9D KD 2S 3S 9S AS 2H QH AH",
            "4C 6C 7C 2D 5D 6D JD QD 7S 4H 5H JH KH",
            "8C JC QC KC 3D 4D TD AD 5S 6S 6H 9H TH",
        ],
    ),
    "hearts": ("fd8ba5b69e5cfd1e", None),
    "": ("e03f01a83a6b475a", None),
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_deals(seed):
    fingerprint, hands = GOLDEN[seed]
    deal = deal_from_seed(seed)
    assert deal_fingerprint(deal) == fingerprint
    if hands:
        assert [format_cards(h) for h in deal] == hands


def test_deal_is_a_partition_of_the_deck():
    for seed in ["a", "b", "2030-02-28", "ü"]:
        deal = deal_from_seed(seed)
        assert sorted(c for h in deal for c in h) == list(range(52))
        assert all(len(h) == 13 and list(h) == sorted(h) for h in deal)


def test_different_seeds_differ():
    assert len({deal_fingerprint(deal_from_seed(f"s{i}")) for i in range(200)}) == 200


@pytest.mark.parametrize(
    "hands, message",
    [
        ([[0] * 13] * 4, "twice"),
        ([list(range(13))] * 3, "4 hands"),
        ([list(range(12)), *[list(range(13 * i, 13 * i + 13)) for i in range(1, 4)]], "12 cards"),
    ],
)
def test_bad_deals_are_refused(hands, message):
    with pytest.raises(ValueError, match=message):
        validate_deal(hands)


def test_seed_must_be_text():
    with pytest.raises(ValueError):
        deal_from_seed(123)  # type: ignore[arg-type]
