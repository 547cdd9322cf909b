"""The "show me" hint: Hard's choice with a reason code for every kind of decision."""

from __future__ import annotations

import random
from pathlib import Path

from helpers import hold_hand, play_all

from hearts import PRESETS, Action, Match, Phase, Seat, SeatView, parse_cards
from hearts.bots import REASONS, Hint, hint, make_bot
from hearts.bots.knowledge import Knowledge
from hearts.bots.player import BotPlayer
from hearts.bots.reasons import PASS_REASONS, PLAY_REASONS, classify_play
from hearts.table import play, run_sync

DOCS = Path(__file__).resolve().parent.parent / "docs" / "bots.md"


def _kind(view: SeatView) -> str:
    if view.phase is Phase.PASSING:
        return "pass"
    if view.trick_number == 0:
        return "first_trick"
    if not view.current_trick:
        return "lead"
    if any(c.suit == view.led_suit for c in view.hand):
        return "follow"
    return "discard"


class _Collector(BotPlayer):
    """A Medium seat that keeps the views it decided on, by decision type."""

    def __init__(self, rng: random.Random, found: dict[str, list[SeatView]]) -> None:
        super().__init__(make_bot("medium"), rng=lambda _view: rng)
        self.found = found
        self.coin = rng

    async def choose(self, view: SeatView) -> Action:
        if view.phase is Phase.PASSING or len(view.legal) > 1 or self.coin.random() < 0.1:
            self.found.setdefault(_kind(view), []).append(view)
        return await super().choose(view)


def _positions() -> dict[str, list[SeatView]]:
    """Views of every decision type, from a few matches of Medium play."""
    found: dict[str, list[SeatView]] = {}
    rng = random.Random(4)
    for i in range(3):
        match = Match(PRESETS["standard"], seed=f"hint-{i}", max_hands=2)
        run_sync(play(match, [_Collector(rng, found) for _ in range(4)]))
    return found


ALLOWED = {
    "pass": set(PASS_REASONS),
    "first_trick": {
        "only_legal_card",
        "duck",
        "win_cheaply",
        "unload_high",
        "follow_low",
        "dump_high_card",
        "dump_high_heart",
        "make_void",
        "dump_queen",
        "shoot_moon",
        "feed_leader",
    },
    "lead": {"only_legal_card", "lead_low", "lead_safe_winner", "lead_spades_flush_queen", "shoot_moon", "block_moon"},
    "follow": {
        "only_legal_card",
        "duck",
        "dump_queen",
        "win_cheaply",
        "unload_high",
        "keep_low_heart",
        "follow_low",
        "shoot_moon",
        "block_moon",
    },
    "discard": {
        "only_legal_card",
        "dump_queen",
        "dump_high_heart",
        "dump_high_card",
        "make_void",
        "shoot_moon",
        "block_moon",
        "feed_leader",
    },
}


def test_every_decision_type_gets_a_reason() -> None:
    found = _positions()
    assert set(found) == set(ALLOWED)
    for kind, views in found.items():
        for view in views[:6]:
            h = hint(view, iterations=12)
            assert isinstance(h, Hint)
            assert h.reason in REASONS and h.reason in ALLOWED[kind], (kind, h)
            if kind == "pass":
                assert len(h.cards) == 3 and set(h.cards) <= set(view.hand)
            else:
                assert len(h.cards) == 1 and h.cards[0] in view.legal
                assert h.params["card"] == str(h.cards[0])


def test_hint_is_deterministic_for_the_same_view() -> None:
    views = _positions()["follow"][:3]
    for view in views:
        assert hint(view, iterations=20) == hint(view, iterations=20)


def test_hint_uses_hards_choice() -> None:
    view = _positions()["discard"][0]
    h = hint(view, rng=random.Random(9), iterations=25)
    d = make_bot("hard", iterations=25).decide(view, random.Random(9))
    assert h.cards == d.cards and h.reason == d.reason


def _moon_view() -> SeatView:
    # West has taken the Q♠ and two hearts and nobody else has a point: a moon threat.
    hand = hold_hand(
        {
            Seat.SOUTH: "2C 3D 4D 5D 6D 7D 8D 9D TD JD QD QH 2H",
            Seat.WEST: "AC KC QC JC TC AH KH JH TH 9H 8H AS KS",
            Seat.NORTH: "3C 4C 5C 6C 7C 8C 9C 2S 3S 4S 5S 6S 7S",
        }
    )
    play_all(hand, "2C AC 3C KD  KC 4C 6H 3D  QC 5C QS 4D  JC 6C 5H 5D  JH 2S 4H")
    return hand.view(Seat.SOUTH)


def test_taking_the_heart_trick_from_a_moon_runner_is_explained_as_a_block() -> None:
    view = _moon_view()
    k = Knowledge(view)
    assert k.moon_runner() == Seat.WEST
    reason, params = classify_play(k, parse_cards("QH")[0], False)
    assert reason == "block_moon" and params == {"card": "QH", "seat": "west"}
    reason, params = classify_play(k, parse_cards("2H")[0], False)
    assert reason == "duck" and params["under"] == "JH"


def test_reason_codes_are_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    for code in REASONS:
        assert f"`{code}`" in text, code
    assert set(PLAY_REASONS) | set(PASS_REASONS) == set(REASONS)
