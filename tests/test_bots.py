"""Bots: legal play in every preset, no peeking at hidden cards, determinism, the interface,
and the Medium rules of thumb in constructed positions."""

from __future__ import annotations

import dataclasses
import random

import pytest
from helpers import follow_view, hold_hand, mid_hand, pass_view, play_all

from hearts import PRESETS, Action, Hand, Match, Phase, Seat, SeatView, parse_cards
from hearts.bots import LEVELS, Bot, Decision, make_bot
from hearts.bots.knowledge import Knowledge
from hearts.bots.player import BotPlayer
from hearts.bots.worlds import sample_world
from hearts.seats import PassDirection
from hearts.table import play, run_sync


class CheckedBot(BotPlayer):
    """A bot seat that also checks each decision against its view (the engine re-checks it)."""

    async def choose(self, view: SeatView) -> Action:
        action = await super().choose(view)
        decision = self.last
        assert isinstance(decision, Decision) and decision.reason
        if view.phase is Phase.PASSING:
            assert len(decision.cards) == 3 and set(decision.cards) <= set(view.hand)
        else:
            assert len(decision.cards) == 1 and decision.cards[0] in view.legal
        return action


def play_match_with(bots: list[Bot], rules_name: str, seed: str, rng: random.Random, max_hands: int) -> Match:
    match = Match(PRESETS[rules_name], seed=seed, max_hands=max_hands)
    run_sync(play(match, [CheckedBot(bot, rng=lambda _view: rng) for bot in bots]))
    assert match.is_over
    return match


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_cheap_bots_play_only_legal_cards_in_every_preset(rules_name: str) -> None:
    rng = random.Random(rules_name)
    hands = i = 0
    while hands < 500:  # 2,000 hands across the presets, plus the Hard games below
        names = ["easy", "medium", "random", "medium"] if i % 2 else ["random", "easy", "medium", "easy"]
        match = play_match_with([make_bot(n) for n in names], rules_name, f"legal-{rules_name}-{i}", rng, 16)
        hands += len(match.hands)
        i += 1


@pytest.mark.parametrize("rules_name", sorted(PRESETS))
def test_hard_plays_only_legal_cards_in_every_preset(rules_name: str) -> None:
    rng = random.Random(rules_name)
    bots: list[Bot] = [
        make_bot("hard", iterations=3),
        make_bot("medium"),
        make_bot("hard", iterations=2),
        make_bot("easy"),
    ]
    for i in range(4):
        play_match_with(bots, rules_name, f"hard-legal-{rules_name}-{i}", rng, 3)


def test_levels_and_factory() -> None:
    assert LEVELS == ("easy", "medium", "hard")
    for name in LEVELS + ("random",):
        assert make_bot(name).level == name
    with pytest.raises(ValueError):
        make_bot("grandmaster")
    with pytest.raises(ValueError):
        make_bot("hard", iterations=0)


def _other_world(hand: Hand, seat: Seat, seed: int) -> Hand:
    """The same history seen from ``seat`` but different hidden cards for the other seats."""
    view = hand.view(seat)
    world = sample_world(Knowledge(view), random.Random(seed))
    played = [0, 0, 0, 0]
    for trick in view.tricks:
        for s, c in trick.plays:
            played[s] |= 1 << c
    for s, c in view.current_trick:
        played[s] |= 1 << c
    deal = [[c for c in range(52) if (world[s] | played[s]) >> c & 1] for s in range(4)]
    other = Hand(deal, hand.rules, PassDirection.HOLD)
    for card in hand.plays:
        turn = other.turn
        assert turn is not None
        other.play(turn, card)
    return other


@pytest.mark.parametrize("seed", ["peek-1", "peek-2", "peek-3"])
def test_hidden_cards_do_not_change_the_decision(seed: str) -> None:
    hand = mid_hand(seed, 4, 1)
    seat = hand.turn
    assert seat is not None
    view = hand.view(seat)
    for world_seed in range(3):
        other = _other_world(hand, seat, world_seed)
        assert other.view(seat) == view
        assert any(other.cards(s) != hand.cards(s) for s in Seat if s != seat) or world_seed == 0
        for level in ("medium", "hard"):
            bot = make_bot(level, iterations=20) if level == "hard" else make_bot(level)
            a = bot.decide(view, random.Random(7))
            b = bot.decide(other.view(seat), random.Random(7))
            assert a.cards == b.cards


def test_a_view_holds_no_reference_to_the_game() -> None:
    hand = mid_hand("no-reference", 5, 2)
    view = hand.view(hand.turn)  # type: ignore[arg-type]

    def walk(value: object, depth: int = 0) -> None:
        assert not isinstance(value, (Hand, Match)), value
        assert depth < 8
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                walk(getattr(value, f.name), depth + 1)
        elif isinstance(value, (tuple, list, frozenset, set)):
            for item in value:
                walk(item, depth + 1)

    walk(view)
    hidden = [c for s in Seat if s != view.seat for c in hand.cards(s)]
    assert not set(hidden) & set(view.hand)


def test_decide_refuses_when_it_is_not_the_seats_turn() -> None:
    hand = mid_hand("turn", 1, 1)
    seat = Seat((hand.turn + 1) % 4)  # type: ignore[operator]
    with pytest.raises(ValueError):
        make_bot("medium").decide(hand.view(seat), random.Random(1))


# ----------------------------------------------------------------------------- Medium
def test_medium_passes_the_queen_and_high_spades() -> None:
    view = pass_view("2C 3C 4C 5C 6D 7D 8D 9D 2S 3S QS KS AS")
    d = make_bot("medium").decide(view, random.Random(1))
    assert set(d.cards) == set(parse_cards("QS KS AS")) and d.reason == "pass_queen"


def test_medium_passes_high_hearts() -> None:
    view = pass_view("2C 3C 4C 5C 6D 7D 8D 9D 2S 3S AH KH 2H")
    d = make_bot("medium").decide(view, random.Random(1))
    assert set(parse_cards("AH KH")) <= set(d.cards)
    assert parse_cards("2H")[0] not in d.cards


def test_medium_empties_a_short_suit() -> None:
    view = pass_view("TC 2D 3D 4D 5D 6D 2S 3S 4S 5S 2H 3H 4H")
    d = make_bot("medium").decide(view, random.Random(1))
    assert parse_cards("TC")[0] in d.cards and d.reason == "void_suit" and d.params["suit"] == "clubs"


def test_medium_keeps_the_queen_on_the_first_trick_and_dumps_it_later() -> None:
    hand = hold_hand(
        {
            Seat.SOUTH: "2D 3D 4D 5D 6D 7D 8D 2S QS 2H 3H 4H 5H",  # no clubs
            Seat.WEST: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",  # every club: West wins the club tricks
            Seat.NORTH: "9D TD JD QD KD AD 3S 4S 5S 6S 7S 8S 9S",
        }
    )
    play_all(hand, "2C 9D TS")
    assert hand.turn == Seat.SOUTH and hand.trick_number == 0
    first = make_bot("medium").decide(hand.view(Seat.SOUTH), random.Random(1))
    assert first.cards[0] != parse_cards("QS")[0]  # no points on the first trick
    hand.play(Seat.SOUTH, first.cards[0])
    assert hand.turn == Seat.WEST  # West's 2♣ won the first trick and leads clubs again
    play_all(hand, "3C TD JS")
    view = hand.view(Seat.SOUTH)
    assert view.led_suit is not None and not view.suit_cards(view.led_suit)
    d = make_bot("medium").decide(view, random.Random(1))
    assert str(d.cards[0]) == "QS" and d.reason == "dump_queen"


def test_medium_dumps_queen_when_void_in_the_led_suit() -> None:
    view = follow_view(
        "2C 3C 4C 5C 6C 7C 8C 2S QS 2H 3H 4H 5H",
        # trick 1: south leads 2C, others follow; south wins? no: east's AC wins, leads a diamond
        "2C 9C TC AC 2D",
        west="9C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        north="TC JC QC KC 3S 4S 5S 6S 7S 8S 9S TS JS",
        east="AC 2D 6H 7H 8H 9H TH JH QH KH AH KS AS",
    )
    d = make_bot("medium").decide(view, random.Random(1))
    assert str(d.cards[0]) == "QS" and d.reason == "dump_queen"


def test_medium_ducks_under_the_winning_card() -> None:
    view = follow_view(
        "2C 3C 4C 5C 8C JC 2S 3S 2H 3H 4H 5H 6H",
        # trick 1 won by east's AC; east leads TC: south has 8C (duck) and JC
        "2C 9C 7C AC TC",
        west="9C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        north="7C QC KC 2D 4S 5S 6S 7S 8S 9S TS JS QS",
        east="AC TC 6C 7H 8H 9H TH JH QH KH AH KS AS",
    )
    d = make_bot("medium").decide(view, random.Random(1))
    # west and north have not played yet; south is second: duck with the 8♣ under the 10♣
    assert str(d.cards[0]) == "8C" and d.reason == "duck" and d.params["under"] == "TC"


def test_medium_leads_low_not_its_own_queen_suit() -> None:
    hand = hold_hand(
        {
            Seat.SOUTH: "2C AC 2D 3D 4D 2S 3S QS 2H 3H 4H 5H 6H",
            Seat.WEST: "3C 6D 7D 8D 9D TD JD QD KD AD 4S 5S 6S",
            Seat.NORTH: "4C 7S 8S 9S TS JS KS AS 7H 8H 9H TH JH",
        }
    )
    play_all(hand, "2C 3C 4C 5C")  # east's 5♣ wins
    seat = hand.turn
    assert seat == Seat.EAST
    # east leads a club, south wins with the ace and must lead
    play_all(hand, "6C AC 6D 7S")
    assert hand.turn == Seat.SOUTH and not hand.current_trick
    d = make_bot("medium").decide(hand.view(Seat.SOUTH), random.Random(1))
    assert d.cards[0].suit.name != "SPADES" and d.reason.startswith("lead")
