"""Bots: legal play in every preset, no peeking at hidden cards, determinism, the interface,
and the Medium rules of thumb in constructed positions."""

from __future__ import annotations

import dataclasses
import random

import pytest

from hearts import PRESETS, Action, Hand, Match, Phase, Seat, SeatView, parse_cards
from hearts.bots import LEVELS, Bot, Decision, make_bot
from hearts.bots.player import BotPlayer
from hearts.table import play, run_sync
from hearts.bots.hard import HardBot, sample_world
from hearts.bots.knowledge import Knowledge
from hearts.seats import PassDirection
from helpers import hold_hand, make_deal, play_all


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
    bots: list[Bot] = [make_bot("hard", iterations=3), make_bot("medium"), make_bot("hard", iterations=2), make_bot("easy")]
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


def _mid_hand(seed: str, tricks: int, extra: int = 0, rules_name: str = "standard") -> Hand:
    hand = Hand(Match(PRESETS[rules_name], seed=seed).hand.deal, PRESETS[rules_name], PassDirection.HOLD)
    rng = random.Random(seed)
    medium = make_bot("medium")
    while hand.trick_number < tricks or len(hand.current_trick) < extra:
        seat = hand.turn
        assert seat is not None
        hand.play(seat, medium.decide(hand.view(seat), rng).cards[0])
    return hand


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
    hand = _mid_hand(seed, 4, 1)
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
    hand = _mid_hand("no-reference", 5, 2)
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


def test_hard_is_deterministic_in_iterations_mode() -> None:
    hand = _mid_hand("determinism", 3, 1)
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    first = make_bot("hard", iterations=40).decide(view, random.Random(11))
    for _ in range(2):
        again = make_bot("hard", iterations=40).decide(view, random.Random(11))
        assert again.cards == first.cards and again.stats == first.stats and again.reason == first.reason


def test_a_play_schedule_sizes_each_play_by_the_cards_held() -> None:
    """``play_schedule`` (the arena's ``hard@worker``): a play with n cards in hand searches
    ``schedule[n]`` worlds, the pass keeps ``pass_iterations``."""
    schedule = (5,) + tuple(range(20, 150, 10))  # by cards held: 1 card 20 ... 13 cards 140
    bot = HardBot(iterations=7, pass_iterations=9, play_schedule=schedule)
    sizes = {}
    for seed, tricks, extra in (("sched-a", 1, 2), ("sched-b", 5, 1), ("sched-c", 8, 0)):
        hand = _mid_hand(seed, tricks, extra)
        view = hand.view(hand.turn)  # type: ignore[arg-type]
        assert len(view.legal) > 1, seed
        held = len(view.hand)
        sizes[held] = bot.decide(view, random.Random(2)).stats["worlds"]
        assert sizes[held] == schedule[held]
    assert len(set(sizes.values())) == 3
    assert bot.decide(_pass_view("2C 3C 4C 5C 6D 7D 8D 9D 2S 3S QS KS AS"), random.Random(1)).stats["worlds"] == 9
    for bad in ((), (5,) * 13, (5,) * 13 + (0,)):
        with pytest.raises(ValueError):
            HardBot(iterations=7, play_schedule=bad)
    with pytest.raises(ValueError):
        HardBot(play_schedule=(5,) * 14)  # needs iterations: the schedule is a deterministic size


def test_decide_steps_yields_slices_and_returns_the_decision() -> None:
    hand = _mid_hand("steps", 2, 0)
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    bot = make_bot("hard", iterations=60)
    steps = bot.decide_steps(view, random.Random(3))
    slices = 0
    while True:
        try:
            assert next(steps) is None
            slices += 1
        except StopIteration as done:
            decision = done.value
            break
    assert slices >= 2
    assert decision == bot.decide(view, random.Random(3))


class TickClock:
    """A fake ``perf_counter``: every reading is 1 ms later than the one before."""

    def __init__(self) -> None:
        self.now = 0.0
        self.readings = 0

    def __call__(self) -> float:
        self.now += 0.001
        self.readings += 1
        return self.now


@pytest.mark.parametrize("budget_ms", [30, 90])
def test_budget_mode_stops_when_the_budget_is_spent(budget_ms: int) -> None:
    hand = _mid_hand("budget", 1, 1)
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    clock = TickClock()
    decision = HardBot(budget_ms=budget_ms, clock=clock).decide(view, random.Random(1))
    assert decision.cards[0] in view.legal
    # one clock reading per world (plus the two that set the deadline and the first slice
    # and one per yield): the search stopped at the first reading past the deadline
    worlds = decision.stats["worlds"]
    assert clock.now >= budget_ms / 1000
    assert budget_ms * 0.6 <= worlds <= budget_ms, worlds


def test_decide_refuses_when_it_is_not_the_seats_turn() -> None:
    hand = _mid_hand("turn", 1, 1)
    seat = Seat((hand.turn + 1) % 4)  # type: ignore[operator]
    with pytest.raises(ValueError):
        make_bot("medium").decide(hand.view(seat), random.Random(1))


def test_sampled_worlds_respect_voids_sizes_and_passed_cards() -> None:
    match = Match(PRESETS["standard"], seed="sampling")
    rng = random.Random(2)
    bots = [make_bot("medium") for _ in range(4)]
    for seat in Seat:
        match.choose_pass(seat, bots[seat].decide(match.view(seat), rng).cards)
    while match.hand.trick_number < 6:
        seat = match.turn
        assert seat is not None
        match.play(seat, bots[seat].decide(match.view(seat), rng).cards[0])
    view = match.view(match.turn)  # type: ignore[arg-type]
    k = Knowledge(view)
    voids = view.voids()
    for i in range(200):
        world = sample_world(k, random.Random(i))
        assert world[k.me] == view.hand_mask
        union = 0
        for s in range(4):
            assert bin(world[s]).count("1") == view.hand_sizes[s]
            assert not union & world[s]
            union |= world[s]
            for suit in voids[s]:
                assert not world[s] >> (13 * suit) & 0x1FFF
            assert world[s] & k.known[s] == k.known[s]
        assert union == view.hand_mask | view.unseen_mask


# ----------------------------------------------------------------------------- Medium
def _pass_view(cards: str) -> SeatView:
    hand = Hand(make_deal({Seat.SOUTH: cards}), PRESETS["standard"], PassDirection.LEFT)
    return hand.view(Seat.SOUTH)


def test_medium_passes_the_queen_and_high_spades() -> None:
    view = _pass_view("2C 3C 4C 5C 6D 7D 8D 9D 2S 3S QS KS AS")
    d = make_bot("medium").decide(view, random.Random(1))
    assert set(d.cards) == set(parse_cards("QS KS AS")) and d.reason == "pass_queen"


def test_medium_passes_high_hearts() -> None:
    view = _pass_view("2C 3C 4C 5C 6D 7D 8D 9D 2S 3S AH KH 2H")
    d = make_bot("medium").decide(view, random.Random(1))
    assert set(parse_cards("AH KH")) <= set(d.cards)
    assert parse_cards("2H")[0] not in d.cards


def test_medium_empties_a_short_suit() -> None:
    view = _pass_view("TC 2D 3D 4D 5D 6D 2S 3S 4S 5S 2H 3H 4H")
    d = make_bot("medium").decide(view, random.Random(1))
    assert parse_cards("TC")[0] in d.cards and d.reason == "void_suit" and d.params["suit"] == "clubs"


def test_medium_keeps_the_queen_on_the_first_trick_and_dumps_it_later() -> None:
    hand = hold_hand({
        Seat.SOUTH: "2D 3D 4D 5D 6D 7D 8D 2S QS 2H 3H 4H 5H",  # no clubs
        Seat.WEST: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",   # every club: West wins the club tricks
        Seat.NORTH: "9D TD JD QD KD AD 3S 4S 5S 6S 7S 8S 9S",
    })
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


def _follow_view(south: str, plays: str, west: str = "", north: str = "", east: str = "") -> SeatView:
    spec = {Seat.SOUTH: south}
    for seat, text in ((Seat.WEST, west), (Seat.NORTH, north), (Seat.EAST, east)):
        if text:
            spec[seat] = text
    hand = hold_hand(spec)
    play_all(hand, plays)
    assert hand.turn == Seat.SOUTH
    return hand.view(Seat.SOUTH)


def test_medium_dumps_queen_when_void_in_the_led_suit() -> None:
    view = _follow_view(
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
    view = _follow_view(
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
    hand = hold_hand({
        Seat.SOUTH: "2C AC 2D 3D 4D 2S 3S QS 2H 3H 4H 5H 6H",
        Seat.WEST: "3C 6D 7D 8D 9D TD JD QD KD AD 4S 5S 6S",
        Seat.NORTH: "4C 7S 8S 9S TS JS KS AS 7H 8H 9H TH JH",
    })
    play_all(hand, "2C 3C 4C 5C")  # east's 5♣ wins
    seat = hand.turn
    assert seat == Seat.EAST
    # east leads a club, south wins with the ace and must lead
    play_all(hand, "6C AC 6D 7S")
    assert hand.turn == Seat.SOUTH and not hand.current_trick
    d = make_bot("medium").decide(hand.view(Seat.SOUTH), random.Random(1))
    assert d.cards[0].suit.name != "SPADES" and d.reason.startswith("lead")


# ----------------------------------------------------------------------------- properties
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6), tricks=st.integers(min_value=0, max_value=11))
def test_hard_candidates_cover_the_legal_cards(seed: int, tricks: int) -> None:
    from hearts.bots.hard import candidates

    hand = _mid_hand(f"cand-{seed}", tricks, seed % 4)
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    k = Knowledge(view)
    cands = candidates(k)
    assert set(cands) <= set(view.legal) and cands
    for card in view.legal:
        # every legal card is a candidate or equivalent to one (same suit, nothing unseen between)
        ok = card in cands or any(
            c // 13 == card // 13 and not (((1 << max(c, card)) - 1) & ~((1 << (min(c, card) + 1)) - 1) & k.unseen)
            for c in cands
        )
        assert ok, (card, cands)


def _duck_or_win_view() -> SeatView:
    """South follows the 3♠ with 2♠ 4♠: one ducks, the other wins, nothing unseen between them."""
    return _follow_view(
        "2C 3C 4C 5C 8C JC 2S 4S 2H 3H 4H 5H 6H",
        "2C 9C 7C AC 3S",  # east wins the first trick with the A♣ and leads the 3♠
        west="9C 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
        north="7C QC KC 2D 5S 6S 7S 8S 9S TS JS QS KS",
        east="AC TC 6C 3S 7H 8H 9H TH JH QH KH AH AS",
    )


def test_a_card_of_the_trick_between_two_of_mine_keeps_them_apart() -> None:
    from hearts.bots.hard import candidates

    view = _duck_or_win_view()
    k = Knowledge(view)
    assert [str(c) for c in view.legal] == ["2S", "4S"]
    assert candidates(k) == [26, 28]  # 2♠ ducks under the 3♠, 4♠ wins
    assert candidates(k, trick_split=False) == [28]  # versions 1 to 4: one card, the higher
    v5 = make_bot("hard", iterations=40, version=5).decide(view, random.Random(1))
    assert {"2S", "4S"} <= set(v5.stats["values"])  # both searched
    v4 = make_bot("hard", iterations=40, version=4).decide(view, random.Random(1))
    assert str(v4.cards[0]) == "4S" and v4.stats == {"worlds": 0}  # v4 could not duck (frozen as it was)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**6), tricks=st.integers(min_value=0, max_value=11),
       extra=st.integers(min_value=1, max_value=3))
def test_equivalent_candidates_never_mix_a_duck_with_a_win(seed: int, tricks: int, extra: int) -> None:
    from hearts.bots.hard import _equivalent, candidates

    hand = _mid_hand(f"duck-{seed}", tricks, extra)  # a follower: 1 to 3 cards of the trick are down
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    k = Knowledge(view)
    cands = candidates(k)
    best = k.trick_best()[1]
    for card in view.legal:
        same = [c for c in cands if _equivalent(k, c, card)]
        assert same, (card, cands)
        if card // 13 == k.led:  # the card that stands for it wins the trick exactly when it would
            assert all((c > best) == (card > best) for c in same), (card, same, best)


# ----------------------------------------------------------------------------- Hard's pass
def test_hard_searches_the_pass_over_medium_and_its_alternatives() -> None:
    view = _pass_view("2C 3C 4C 5C 6D 7D 8D 9D 2S 3S QS KS AS")
    d = make_bot("hard", iterations=30).decide(view, random.Random(5))
    assert len(set(d.cards)) == 3 and set(d.cards) <= set(view.hand) and d.reason.startswith("pass_")
    values = d.stats["values"]
    assert d.stats["worlds"] == 30
    assert "QS KS AS" in values and len(values) == 20  # Medium's pass + the other 19 of C(6, 3)
    chosen = " ".join(str(c) for c in sorted(d.cards))
    # the choice is the best average once Medium's pass has its head start
    assert values[chosen] + (0.5 if chosen == "QS KS AS" else 0) >= max(values.values()) - 1e-9


def test_hard_pass_is_deterministic_and_does_not_peek() -> None:
    view = _pass_view("2C 9C JC 5D 6D KD 3S 8S QS 2H 7H JH AH")
    first = make_bot("hard", iterations=20).decide(view, random.Random(8))
    mine = list(parse_cards("2C 9C JC 5D 6D KD 3S 8S QS 2H 7H JH AH"))
    rest = [c for c in range(52) if c not in mine]
    random.Random(3).shuffle(rest)  # other hidden hands than make_deal's
    hand = Hand([mine, rest[:13], rest[13:26], rest[26:]], PRESETS["standard"], PassDirection.LEFT)
    other = make_bot("hard", iterations=20).decide(hand.view(Seat.SOUTH), random.Random(8))
    assert first == other  # other hidden cards, same view: same decision


def test_hard_keeps_a_moon_hand_together_without_a_search() -> None:
    view = _pass_view("2C 3C 2D AD KD AS KS AH KH QH JH TH 9H")
    d = make_bot("hard", iterations=30).decide(view, random.Random(2))
    assert d.reason == "shoot_moon" and set(d.cards) == set(parse_cards("2C 3C 2D"))


# ----------------------------------------------------------------------------- Hard v3 (issue 11)
def test_hard_v3_plays_out_void_and_moon_passes_and_a_moon_pass_needs_a_majority() -> None:
    from hearts.bots.hard import VERSIONS

    view = _pass_view("4C 9D 2S 5S 8S AS KS 2H 6H TH QH KH AH")  # one club, one diamond, moon cards
    d = HardBot(iterations=60, params=VERSIONS[3]).decide(view, random.Random(4))
    values = d.stats["values"]
    assert "4C KS AS" in values and "9D KS AS" in values  # empty the clubs (added), the diamonds (Medium's)
    moon = [k for k in values if k.endswith("*")]
    assert moon == ["4C 2S 2H*", "4C 2S 5S*"]  # the three lowest cards; the three lowest side cards
    assert len(values) == len(set(values))
    if d.stats.get("plan") == "moon":
        assert d.reason == "shoot_moon"
    d1 = make_bot("hard", iterations=60, version=1).decide(view, random.Random(4))
    assert not any(k.endswith("*") for k in d1.stats["values"])  # version 1 never plays moon passes out


def test_the_gate_lets_a_card_leave_mediums_only_when_clearly_better() -> None:
    from hearts.bots.hard import _gated

    plans = [(0, False), (1, False), (2, False), (2, True)]  # Medium's card is plan 0
    worlds = [100] * 4
    # paired advantages over Medium's card: plan 1 +1.0 (sd 1), plan 2 +0.2 (sd 3), the moon plan +2 (sd 25)
    diffs = [0.0, 100 * 1.0, 100 * 0.2, 100 * 2.0]
    squares = [0.0, 100 * (1.0 + 1.0), 100 * (0.04 + 9.0), 100 * (4.0 + 625.0)]
    assert _gated([0, 1, 2, 3], plans, 0, diffs, squares, worlds, 0.0, 1.5, False) == [0, 1]
    assert _gated([0, 1, 2, 3], plans, 0, diffs, squares, worlds, 0.0, 1.5, True) == [0, 1, 3]  # moon plans: own bar
    assert _gated([0, 1, 2, 3], plans, 0, diffs, squares, worlds, 0.9, 1.5, False) == [0]  # a margin first
    assert _gated([1, 2], plans, 0, diffs, squares, worlds, 0.0, 0.01, False) == [1, 2]
    assert _gated([0, 1], plans, 0, diffs, squares, [1, 1, 1, 1], 0.0, 1.5, False) == [0]  # one world proves nothing


@pytest.mark.parametrize("seed", ["gate-1", "gate-2", "gate-3"])
def test_a_gate_nothing_passes_plays_mediums_card(seed: str) -> None:
    from hearts.bots.hard import VERSIONS, _equivalent
    from hearts.bots.medium import medium_play

    shut = dataclasses.replace(VERSIONS[3], gate_k=1e9, medium_prior=0.0)
    for tricks, extra in ((2, 0), (4, 1), (6, 3), (9, 2)):
        hand = _mid_hand(seed, tricks, extra)
        view = hand.view(hand.turn)  # type: ignore[arg-type]
        k = Knowledge(view)
        d = HardBot(iterations=40, params=shut).decide(view, random.Random(tricks))
        assert _equivalent(k, d.cards[0], medium_play(view)[0][0]), (tricks, extra, d)


def test_the_calm_gate_is_off_while_a_moon_runner_is_about() -> None:
    from hearts.bots.hard import VERSIONS
    from hearts.bots.medium import medium_play

    hand = _mid_hand("runner-3", 5, 1)  # a position where Hard (no head start) leaves Medium's card
    view = hand.view(hand.turn)  # type: ignore[arg-type]
    assert Knowledge(view).moon_runner(early=True) >= 0
    plain = dataclasses.replace(VERSIONS[3], medium_prior=0.0)
    shut = dataclasses.replace(plain, gate_k=1e9)
    free = HardBot(iterations=60, params=plain).decide(view, random.Random(1))
    assert free.cards != medium_play(view)[0]
    assert HardBot(iterations=60, params=shut).decide(view, random.Random(1)).cards == medium_play(view)[0]
    assert HardBot(iterations=60, params=dataclasses.replace(shut, gate_calm=True)).decide(view, random.Random(1)) == free


def test_a_boosted_seat_is_dealt_more_of_the_boosted_cards() -> None:
    from hearts.bots.hard import WorldSampler

    hand = _mid_hand("boost", 1, 1)
    k = Knowledge(hand.view(hand.turn))  # type: ignore[arg-type]
    seat = (k.me + 1) % 4
    high = sum(1 << c for c in range(52) if c % 13 >= 10) & k.unseen
    plain, boosted = WorldSampler(k), WorldSampler(k, boost=(seat, high, 3.0))

    def share(sampler: WorldSampler) -> float:
        got = [bin(sampler(random.Random(i))[seat] & high).count("1") for i in range(400)]
        return sum(got) / len(got)

    assert share(boosted) > share(plain) + 0.5
    for i in range(50):  # still a consistent deal: hand sizes, every unseen card once
        world = boosted(random.Random(i))
        assert [bin(m).count("1") for m in world] == list(k.view.hand_sizes)
        assert sum(world) == k.hand | k.unseen


def test_pass_budget_is_its_own() -> None:
    view = _pass_view("2C 9C JC 5D 6D KD 3S 8S QS 2H 7H JH AH")
    clock = TickClock()
    d = HardBot(budget_ms=10, pass_budget_ms=60, clock=clock).decide(view, random.Random(1))
    assert 30 <= d.stats["worlds"] <= 60
    with pytest.raises(ValueError):
        HardBot(pass_budget_ms=0)


def test_a_runners_share_of_the_worlds_rises_with_the_trick_and_its_points() -> None:
    from types import SimpleNamespace

    from hearts.bots.hard import _MOON_ODDS, _moon_odds

    def hearts(n: int) -> int:  # the n lowest hearts
        return (1 << n) - 1 << 39

    def odds(trick: int, taken: int) -> float:  # seat 1 alone has taken ``taken``, before ``trick``
        return _moon_odds(SimpleNamespace(taken=[0, taken, 0, 0], trick_number=trick - 1), 1)  # type: ignore[arg-type]

    assert odds(3, hearts(1)) == _MOON_ODDS[0][0] and odds(12, hearts(1) | 1 << 36) == _MOON_ODDS[3][3]
    assert odds(7, hearts(5)) == _MOON_ODDS[1][2] and odds(10, hearts(6) | 1 << 36) == _MOON_ODDS[2][5]
    for row in _MOON_ODDS:  # more points, likelier a moon; the Q♠ alone (13-15) is the exception
        assert list(row[:3]) == sorted(row[:3]) and list(row[3:]) == sorted(row[3:])
    for col in zip(*_MOON_ODDS):  # later, likelier
        assert list(col) == sorted(col)


def test_runner_gate_3_watches_any_other_seat_that_alone_has_points() -> None:
    from hearts.bots.hard import _runner

    hand = _mid_hand("runner-3", 5, 1)
    k = Knowledge(hand.view(hand.turn))  # type: ignore[arg-type]
    holders = [s for s in range(4) if k.taken[s] & ((0x1FFF << 39) | 1 << 36)]
    assert _runner(k, 1) == k.moon_runner() and _runner(k, 2) == k.moon_runner(early=True) == holders[0]
    assert _runner(k, 3) == holders[0]
    k.taken[(holders[0] + 1) % 4 if (holders[0] + 1) % 4 != k.me else (holders[0] + 2) % 4] |= 1 << 39
    assert _runner(k, 3) == -1  # two seats with points: nobody runs


def test_runner_gate_4_watches_a_lone_point_taker_from_the_seventh_trick_on() -> None:
    """Gate 4 (Hard v6): as gate 2, and a seat that alone has taken a single heart counts as
    a runner once six tricks are complete (gates 1 and 2 wait for more hearts)."""
    from hearts.bots.hard import _runner

    hand = _mid_hand("runner-3", 5, 1)
    k = Knowledge(hand.view(hand.turn))  # type: ignore[arg-type]
    other = (k.me + 1) % 4
    k.taken = [0, 0, 0, 0]
    k.taken[other] = 1 << 39  # the 2♥ alone
    for trick, gate4 in ((5, -1), (6, other), (9, other)):
        k.trick_number = trick
        assert _runner(k, 4) == gate4 and _runner(k, 3) == other
        assert _runner(k, 2) == _runner(k, 1) == -1


def _deal_435_trick_10() -> SeatView:
    """Deal 435 of the seat bench (bench/out/moon-report-v5.txt) at trick 10: North has taken six
    hearts and leads the Q♠; East, last to play, holds the K♠. North made the moon."""
    plays = ("02C 1KC 2JC 38C 1TS 28S 39S 0AS 05C 17C 29C 34C 26S 33S 0JS 1AH 0TD 16D 28D 39D "
             "0AC 1QC 2QH 33C 0AD 14D 2QD 35D 0KH 16H 28H 37H 0KD 12D 2JD 33D 0QS 1TC 25S 32S "
             "0JH 19H 23H 34H 0TH 15H 27D 3KS 02H 16C 24S 37S").split()
    deal: list[list[int]] = [[], [], [], []]
    for p in plays:
        deal[int(p[0])].append(int(parse_cards(p[1:])[0]))
    hand = Hand(deal, PRESETS["standard"], PassDirection.HOLD)
    for p in plays[:39]:
        hand.play(hand.turn, parse_cards(p[1:])[0])  # type: ignore[arg-type]
    view = hand.view(Seat.EAST)
    assert [str(c) for c in view.legal] == ["2S", "7S", "KS"]
    return view


def test_a_viable_runner_makes_ducking_under_its_queen_dear() -> None:
    """On deal 435 (``_deal_435_trick_10``) v5 ducks with the 2♠ at about -5 (in its worlds the
    last hearts are spread and the moon fails). With ``moon_viable`` the runner's worlds are ones
    where its moon goes through after the duck, so the duck costs about as much as taking the queen."""
    view = _deal_435_trick_10()

    def duck_minus_take(params: object) -> float:
        d = HardBot(iterations=400, params=params).decide(view, random.Random(7))  # type: ignore[arg-type]
        return float(d.stats["values"]["2S"] - d.stats["values"]["KS"])

    from hearts.bots.hard import VERSIONS

    plain = duck_minus_take(VERSIONS[5])
    viable = duck_minus_take(dataclasses.replace(VERSIONS[5], runner_odds=True, moon_viable=True))
    assert plain > 6.0  # v5: the duck looks far better than taking the queen
    assert viable < plain - 4.0 and viable < 3.0


def test_stop_margin_takes_the_runners_point_trick_when_it_costs_at_most_the_margin() -> None:
    """``stop_margin`` (experimental): on deal 435 the runner's Q♠ is winning the trick. v5 ducks;
    with a margin above the duck's lead in the search, the K♠ takes the queen, below it the duck
    stays. The search itself is the same (same worlds, same values)."""
    from hearts.bots.hard import VERSIONS

    view = _deal_435_trick_10()

    def decide(margin: float) -> Decision:
        params = dataclasses.replace(VERSIONS[5], stop_margin=margin)
        return HardBot(iterations=400, params=params).decide(view, random.Random(7))

    plain = decide(0.0)
    values = plain.stats["values"]
    assert str(plain.cards[0]) == "2S"
    lead = values["2S"] - values["KS"]
    assert lead > 1.0
    wide, narrow = decide(lead + 0.5), decide(lead - 0.5)
    assert str(wide.cards[0]) == "KS" and str(narrow.cards[0]) == "2S"
    assert wide.stats["values"] == values == narrow.stats["values"]


def _stopper_view(south: str = "2C 3D 4D 5D 6D 7D 8D 9D TD 2S 3S KH 5H") -> SeatView:
    """Trick 2: North won the 2♣ trick with the A♣ and leads the K♣; East followed, South (void
    in clubs) is to play. Nobody has taken a point."""
    return _follow_view(
        south, "2C 3C AC 4C KC 5C",
        west="3C 6C 7C 8C 9C TC JC QC 2D JD QD KD AD",
        north="AC KC 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    )


def test_the_stopper_is_the_top_heart_a_void_seat_would_throw_while_the_moon_is_open() -> None:
    """``_stopper_throws`` (keep_stopper): on North's trick South could throw its K♥, the heart
    that could win a heart trick from a moon runner later (unseen hearts lie below it)."""
    from hearts.bots.hard import _stopper_throws

    k = Knowledge(_stopper_view())
    assert _stopper_throws(k) == 1 << 50  # the K♥
    north, west = int(Seat.NORTH), int(Seat.WEST)
    k.taken[north] |= 1 << 39
    assert _stopper_throws(k) == 1 << 50  # North alone has points: the moon is still open to it
    k.taken[west] |= 1 << 40
    assert _stopper_throws(k) == 0  # two seats have points: no moon to stop
    # the Q♥ next to the K♥ stops as well: throwing either keeps a stopper
    assert _stopper_throws(Knowledge(_stopper_view("2C 3D 4D 5D 6D 7D 8D 9D TD 2S 3S KH QH"))) == 0
    # only hearts (and the Q♠) to throw: no choice to make
    k = Knowledge(_stopper_view("2C 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"))
    assert _stopper_throws(k) == 0


def test_keep_stopper_charges_the_throw_in_every_world_and_nothing_else() -> None:
    """With the cost on, the K♥'s value is the same search's value minus the cost (same worlds;
    without halving every card sees every world) and the other cards' values are unchanged; a
    large cost keeps the K♥ in hand."""
    from hearts.bots.hard import VERSIONS

    view = _stopper_view()

    def decide(cost: float) -> Decision:
        params = dataclasses.replace(VERSIONS[6], halving=False, keep_stopper=cost)
        return HardBot(iterations=120, params=params).decide(view, random.Random(3))

    plain, charged, dear = decide(0.0), decide(0.75), decide(30.0)
    values = plain.stats["values"]
    for card, value in charged.stats["values"].items():
        assert value == pytest.approx(values[card] - (0.75 if card == "KH" else 0.0), abs=1e-3)
    assert str(dear.cards[0]) != "KH"
