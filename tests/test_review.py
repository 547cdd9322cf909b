"""The hand review (hearts.review): one verdict per decision, from the seat's view only, with a
cost that flags clear mistakes and a reason the page can put into words."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from helpers import hold_hand, make_deal, play_all

from hearts import PRESETS, FirstTrick, Hand, PassDirection, Rules, Seat, deal_from_seed, parse_cards
from hearts.bots import make_bot
from hearts.bots.candidates import candidates
from hearts.bots.evaluate import pass_values, play_values
from hearts.bots.knowledge import Knowledge
from hearts.bots.player import BotPlayer
from hearts.cards import Card, Suit
from hearts.review import (
    REASON_CODES,
    REVIEW_THRESHOLD,
    Verdict,
    decision_count,
    evaluate_play,
    explain_pass,
    explain_play,
    review,
    review_steps,
)
from hearts.table import play, run_steps, run_sync
from hearts.trick import trick_winner

IT = 24  # sampled worlds per decision in these tests (the default is much larger)
QUEEN_ON_SELF = {  # south is void in clubs and holds the Q♠ with one small spade
    Seat.SOUTH: "QS 2S 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
    Seat.WEST: "2C 3C 4C 5C 3S 7S 8S 9S 2H 3H 4H 5H 6H",
    Seat.NORTH: "AC 5S KD AD 7H 8H 9H TH JH QH KH AH 6C",
}


def _finish(hand: Hand) -> Hand:
    """Play the hand out, every seat its lowest legal card."""
    while hand.result is None:
        hand.play(hand.turn, hand.legal_plays()[0])
    return hand


def _bot_hand(seed: str, direction: PassDirection = PassDirection.LEFT) -> Hand:
    hand = Hand(deal_from_seed(seed), Rules(), direction)
    players = [BotPlayer(make_bot("easy"), seed="review-player")] + [BotPlayer(make_bot("medium"), seed=seed)] * 3
    run_sync(play(hand, players))
    return hand


def _verdict(hand: Hand, index: int, **kw) -> Verdict:
    return review(hand, Seat.SOUTH, iterations=IT, **kw)[index]


def test_only_finished_hands_are_reviewed():
    hand = hold_hand(QUEEN_ON_SELF)
    play_all(hand, "2C AC 7C 2D")
    with pytest.raises(ValueError, match="finished"):
        review_steps(hand, Seat.SOUTH)  # at once, before the first step
    with pytest.raises(ValueError, match="iterations"):
        review_steps(_finish(hand), Seat.SOUTH, iterations=0)


def test_one_verdict_per_decision_between_pauses():
    hand = _bot_hand("review-walk")
    items = list(review_steps(hand, Seat.SOUTH, iterations=IT))
    verdicts = [v for v in items if v is not None]
    assert items.count(None) > len(verdicts)  # the work comes in slices
    assert [v.index for v in verdicts] == list(range(14))
    assert [v.kind for v in verdicts] == ["pass"] + ["play"] * 13
    assert [v.trick for v in verdicts] == [None] + list(range(13))
    assert verdicts[0].chosen == hand.passes[Seat.SOUTH] and set(verdicts[0].best) <= set(verdicts[0].view.hand)
    plays = [c for t in hand.tricks for s, c in t.plays if s is Seat.SOUTH]
    for v, card in zip(verdicts[1:], plays):
        assert v.chosen == (card,) and v.best[0] in v.view.legal and v.view.turn is Seat.SOUTH
    for v in verdicts:
        assert v.view.seat is Seat.SOUTH and v.cost >= 0 and v.flagged == (v.cost > REVIEW_THRESHOLD)
        assert (v.best == v.chosen) == (v.cost == 0)
        assert v.reason in REASON_CODES
        assert all(isinstance(k, str) and isinstance(x, str) for k, x in v.params) and hash(v.params) is not None
    assert decision_count(hand, Seat.SOUTH) == len(verdicts) == 14
    hold = _bot_hand("review-walk", PassDirection.HOLD)
    assert [v.kind for v in review(hold, Seat.WEST, iterations=4)] == ["play"] * 13
    assert decision_count(hold, Seat.WEST) == 13


def test_same_seed_same_verdicts():
    hand = _bot_hand("review-same")
    assert review(hand, Seat.SOUTH, iterations=IT, seed="x") == review(hand, Seat.SOUTH, iterations=IT, seed="x")


def test_forced_and_decided_plays_cost_nothing_without_a_search(monkeypatch):
    import hearts.review as module

    searched = []
    real = module.play_values

    def spy(view, cards, rng, iterations):
        searched.append(view)
        return (yield from real(view, cards, rng, iterations))

    monkeypatch.setattr(module, "play_values", spy)
    hand = _bot_hand("review-forced-3")
    verdicts = review(hand, Seat.SOUTH, iterations=8)
    forced = [v for v in verdicts if v.kind == "play" and len(candidates(Knowledge(v.view))) == 1]
    # after the first trick with the rest decided (the claim rule): no choice can change the score
    decided = [v for v in verdicts if v.kind == "play" and v.view.can_claim and v not in forced]
    assert forced and verdicts[-1] in forced and decided  # the last card is always forced
    for v in forced + decided:
        assert v.cost == 0 and v.best == v.chosen and not v.flagged and v.view not in searched
    assert any(v.view in searched for v in verdicts if v not in forced + decided)


def _swapped_twin(hand: Hand, cut: int) -> Hand:
    """The same hand with two cards of one suit swapped between west and north, both unplayed in
    the first ``cut`` plays (so the same plays stay legal and south sees the same), the same
    ``cut + 1``-th card (south's), then finished by lowest legal cards."""
    played = set(hand.plays[:cut])
    deal = [list(h) for h in hand.deal]
    for suit in range(4):
        west = [c for c in deal[Seat.WEST] if c // 13 == suit and c not in played]
        north = [c for c in deal[Seat.NORTH] if c // 13 == suit and c not in played]
        if west and north:
            w, n = west[0], north[0]
            deal[Seat.WEST][deal[Seat.WEST].index(w)] = n
            deal[Seat.NORTH][deal[Seat.NORTH].index(n)] = w
            break
    else:  # pragma: no cover - the seed below has a pair
        raise AssertionError("no cards to swap")
    twin = Hand(deal, hand.rules, hand.pass_direction)
    for card in hand.plays[: cut + 1]:
        twin.play(twin.turn, card)
    return _finish(twin)


def test_every_option_sees_the_same_worlds():
    """Common random numbers: the same option twice gets exactly the same value."""
    hand = _bot_hand("review-crn")
    view = next(v.view for v in review(hand, Seat.SOUTH, iterations=2)[3:] if len(v.view.legal) > 1)
    a, b = int(view.legal[0]), int(view.legal[-1])
    values = run_steps(play_values(view, [a, b, a], random.Random(1), IT))
    assert values[0] == values[2] and values != [values[0]] * 3
    start = Hand(hand.deal, hand.rules, hand.pass_direction).view(Seat.SOUTH)
    mine = tuple(int(c) for c in start.hand)
    values = run_steps(pass_values(start, [mine[:3], mine[-3:], mine[:3]], random.Random(1), IT))
    assert values[0] == values[2] and values[0] != values[1]


def test_only_the_seats_view_is_used():
    hand = _bot_hand("review-view", PassDirection.HOLD)
    first = review(hand, Seat.SOUTH, iterations=IT)
    tried = 0
    for v in first[3:10]:
        if len(candidates(Knowledge(v.view))) < 2:
            continue
        cut = v.view.cards_played
        twin = _swapped_twin(hand, cut)
        assert twin.deal != hand.deal and twin.view(Seat.SOUTH) != hand.view(Seat.SOUTH)
        other = review(twin, Seat.SOUTH, iterations=IT)[v.index]
        assert other.view == v.view and other.chosen == v.chosen  # what south saw and did is the same ...
        assert (other.best, other.cost) == (v.best, v.cost)  # ... and so is the evaluation
        assert run_steps(evaluate_play(v.view, v.chosen[0], iterations=IT)) == (v.best, v.cost)
        tried += 1
    assert tried >= 2


def test_dumping_the_queen_on_yourself_is_flagged():
    hand = hold_hand(QUEEN_ON_SELF)
    play_all(hand, "2C AC 7C 2D 5S 4S QS 3S")  # south wins its own Q♠ with the 2♠ in hand
    v = _verdict(_finish(hand), 1)
    assert v.chosen == (Card.parse("QS"),) and v.best == (Card.parse("2S"),)
    assert v.flagged and v.cost > 3
    assert v.reason == "took_points" and dict(v.params) == {"card": "QS", "points": "13", "best": "2S"}


def test_keeping_the_queen_when_it_could_go_is_flagged():
    hand = hold_hand(QUEEN_ON_SELF)
    play_all(hand, "2C AC 7C 2D 5S 4S 2S 3S 6C")  # north leads a club: south (void) keeps the Q♠
    hand.play(Seat.EAST, "8C")
    hand.play(Seat.SOUTH, "3D")
    v = _verdict(_finish(hand), 2)
    assert v.chosen == (Card.parse("3D"),) and v.best == (Card.parse("QS"),) and v.flagged
    assert v.reason == "kept_danger" and dict(v.params) == {"card": "3D", "best": "QS"}


def test_leading_the_ace_of_spades_into_the_queen_is_flagged():
    hand = hold_hand(
        {Seat.SOUTH: "AC AS 3S 4S 5S 6S 2D 3D 4D 5D 6D 2H 3H", Seat.WEST: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC 2S QS"}
    )
    play_all(hand, "2C")
    hand.play(Seat.NORTH, hand.legal_plays()[0])
    hand.play(Seat.EAST, hand.legal_plays()[0])
    play_all(hand, "AC AS")  # south wins the clubs and leads the A♠ with four low spades in hand
    v = _verdict(_finish(hand), 1)
    assert v.chosen == (Card.parse("AS"),) and v.flagged and v.cost > 3
    assert v.reason == "risked_queen" and dict(v.params) == {"card": "AS", "seat": "west"}


def test_a_pass_that_keeps_the_queen_unprotected_is_flagged():
    deal = make_deal({Seat.SOUTH: "2C 3C 4C 5D 6D 7D 8D 9D 3S QS QH KH AH"})
    hand = Hand(deal, Rules(), PassDirection.LEFT)
    hand.choose_pass(Seat.SOUTH, "2C 3C 4C")
    for seat in (Seat.WEST, Seat.NORTH, Seat.EAST):
        hand.choose_pass(seat, hand.cards(seat)[-3:])
    v = _verdict(_finish(hand), 0)
    assert v.kind == "pass" and v.flagged and Card.parse("QS") in v.best
    assert v.reason == "pass_kept_queen" and dict(v.params) == {"cards": "2C 3C 4C"}


def test_good_play_is_not_flagged():
    hand = hold_hand(QUEEN_ON_SELF)
    play_all(hand, "2C AC 7C 2D 5S 4S 2S 3S 6C 8C QS")  # ducks the spade, then dumps the Q♠
    verdicts = review(_finish(hand), Seat.SOUTH, iterations=IT)
    assert not verdicts[1].flagged and not verdicts[2].flagged


# ----------------------------------------------------------------------------- reasons
def _at(hand: Hand, n: int) -> tuple[Hand, object]:
    """South's view before the ``n``-th card of the finished ``hand`` is replayed."""
    again = Hand(hand.deal, hand.rules, hand.pass_direction)
    for card in hand.plays[:n]:
        again.play(again.turn, card)
    assert again.turn is Seat.SOUTH
    return again.view(Seat.SOUTH)


def test_reason_risked_queen_names_who_dropped_her_or_held_her():
    # east has only the Q♠ in spades: south's A♠ on north's spade lead catches her
    hand = hold_hand(
        {
            Seat.SOUTH: "AS 2S 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD",
            Seat.WEST: "2C 3C 4C 5C 3S 7S 8S 9S 2H 3H 4H 5H 6H",
            Seat.NORTH: "AC 5S KD AD 7H 8H 9H TH JH QH KH AH 6C",
            Seat.EAST: "QS 7C 8C 9C TC JC QC KC 4S 6S TS JS KS",
        }
    )
    play_all(hand, "2C AC 7C 2D 5S QS")
    n = len(hand.plays)
    play_all(hand, "AS 3S")
    _finish(hand)
    code, params = explain_play(hand, _at(hand, n), Card.parse("AS"), Card.parse("2S"), 5.0)
    assert (code, dict(params)) == ("risked_queen", {"card": "AS", "seat": "east"})
    # a high spade led while the queen is out: the seat that held her
    hand = hold_hand(
        {Seat.SOUTH: "AC KS 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD", Seat.WEST: "2C QS 3C 4C 5C 7S 8S 9S 2H 3H 4H 5H 6H"}
    )
    play_all(hand, "2C")
    hand.play(Seat.NORTH, hand.legal_plays()[0])
    hand.play(Seat.EAST, hand.legal_plays()[0])
    hand.play(Seat.SOUTH, "AC")  # south wins and leads
    n = len(hand.plays)
    hand.play(Seat.SOUTH, "KS")
    _finish(hand)
    code, params = explain_play(hand, _at(hand, n), Card.parse("KS"), Card.parse("2D"), 3.0)
    assert (code, dict(params)) == ("risked_queen", {"card": "KS", "seat": "west"})


def test_reason_took_points_only_when_the_best_card_stays_under():
    hand = hold_hand(
        {Seat.SOUTH: "KC AC 3C 2D 3D 4D 5D 6D 7D 8D 9D TD JD", Seat.WEST: "2C 4C 5C 7C 8C 9C TC JC QC 2S 3S 4S 5S"},
        Rules(first_trick=FirstTrick.NONE),
    )
    play_all(hand, "2C 6C 2H KC")  # east (all hearts) discards one; south's K♣ takes it
    _finish(hand)
    view = _at(hand, 3)
    code, params = explain_play(hand, view, Card.parse("KC"), Card.parse("3C"), 1.5)
    assert (code, dict(params)) == ("took_points", {"card": "KC", "points": "1", "best": "3C"})
    code, _ = explain_play(hand, view, Card.parse("KC"), Card.parse("AC"), 1.5)
    assert code == "search_prefers"  # the A♣ would have won it too


def test_reason_lead_suit_and_broke_void_and_fallback():
    hand = hold_hand(
        {Seat.SOUTH: "AC 9C 8C 2D 3D 4D 5D 6D 7D 8D 9D TD 2S", Seat.WEST: "2C QS 3C 4C 5C 7S 8S 9S 2H 3H 4H 5H 6H"}
    )
    play_all(hand, "2C")
    hand.play(Seat.NORTH, hand.legal_plays()[0])
    hand.play(Seat.EAST, hand.legal_plays()[0])
    hand.play(Seat.SOUTH, "AC")
    n = len(hand.plays)
    _finish(hand)
    view = _at(hand, n)
    lead = hand.plays[n]  # south's lead (lowest legal: the 8♣)
    code, params = explain_play(hand, view, Card.parse("2D"), Card.parse("8C"), 2.0)
    assert (code, dict(params)) == ("lead_suit", {"suit": "diamonds", "best": "8C"})
    code, params = explain_play(hand, view, Card.parse("3D"), Card.parse("2S"), 2.0)
    assert (code, dict(params)) == ("broke_void", {"card": "3D"})  # the lone 2♠ could have gone
    code, params = explain_play(hand, view, lead, lead, 0.0)
    assert code == "search_prefers" and dict(params)["best"] == lead.text


def test_reason_of_passes():
    hand = Hand(make_deal({Seat.SOUTH: "2C 3C 4C 5D 6D 7D 8D AS KS 3S QH KH AH"}), Rules(), PassDirection.LEFT)
    view = hand.view(Seat.SOUTH)
    cards = parse_cards
    assert explain_pass(view, cards("2C 3C 4C"), cards("AS KS 4C"), 2.0) == (
        "pass_kept_spades",
        (("cards", "2C 3C 4C"),),
    )
    assert explain_pass(view, cards("2C 3C 4C"), cards("KH AH 4C"), 2.0) == (
        "pass_kept_high_hearts",
        (("cards", "2C 3C 4C"),),
    )
    assert explain_pass(view, cards("2C 3C 4C"), cards("2C 3C 5D"), 1.25) == (
        "search_prefers",
        (("best", "2C 3C 5D"), ("cost", "1.2")),
    )


def test_every_reason_code_is_listed():
    source = (Path(__file__).resolve().parent.parent / "hearts" / "review.py").read_text(encoding="utf-8")
    emitted = set(re.findall(r'return "(\w+)"', source)) | {"search_prefers"}
    assert emitted == set(REASON_CODES)
    assert len(REASON_CODES) == len(set(REASON_CODES))


def test_reviews_of_random_hands_use_listed_codes():
    rng = random.Random(13)
    for i in range(3):
        hand = _bot_hand(f"review-random-{i}", rng.choice(list(PassDirection)))
        for seat in Seat:
            for v in review(hand, seat, iterations=4):
                assert v.reason in REASON_CODES
                assert set(dict(v.params)) <= {"card", "seat", "points", "best", "suit", "cards", "cost"}


def test_presets_with_the_jack_are_reviewed():
    hand = Hand(deal_from_seed("review-jack"), PRESETS["omnibus"], PassDirection.ACROSS)
    players = [BotPlayer(make_bot("medium"), seed="review-jack")] * 4
    run_sync(play(hand, players))
    assert len(review(hand, Seat.NORTH, iterations=4)) == 14


def _hold_hand_of_bots(seed: str) -> Hand:
    """A hold hand: an Easy South against Medium (the seeds below end in a moon)."""
    hand = Hand(deal_from_seed(seed), Rules(), PassDirection.HOLD)
    players = [BotPlayer(make_bot("easy"), seed="review-player")] + [BotPlayer(make_bot("medium"), seed=seed)] * 3
    run_sync(play(hand, players))
    return hand


def _south_plays(hand: Hand) -> list[int]:
    return [i for i, (s, _) in enumerate(p for t in hand.tricks for p in t.plays) if s == Seat.SOUTH]


def test_reason_moon_when_another_seat_shot_it():
    hand = _hold_hand_of_bots("moon-17")  # north shoots the moon
    assert hand.result is not None and hand.result.moon == Seat.NORTH
    allowed = missed = 0
    for n in _south_plays(hand):
        view = _at(hand, n)
        chosen = hand.plays[n]
        trick = hand.tricks[view.trick_number]
        winners = [
            c
            for c in view.legal
            if c != chosen
            and trick_winner([(int(s), int(c if s == Seat.SOUTH else x)) for s, x in trick.plays])[0] == Seat.SOUTH
        ]
        if (
            trick.winner == Seat.NORTH
            and any(c.suit is Suit.HEARTS or c.text == "QS" for _, c in trick.plays)
            and winners
        ):
            code, params = explain_play(hand, view, chosen, winners[0], 2.0)
            assert (code, dict(params)) == (
                "moon",
                {"kind": "allowed", "seat": "north", "card": chosen.text, "best": winners[0].text},
            )
            allowed += 1
        others = [c for c in view.legal if c != chosen and c not in winners]
        if others:
            code, params = explain_play(hand, view, chosen, others[0], 22.2)
            assert (code, dict(params)["kind"]) == ("moon", "missed_stop")
            assert explain_play(hand, view, chosen, others[0], 1.0)[0] != "moon"  # a small cost is not the moon's
            missed += 1
    assert allowed and missed


def test_reason_moon_when_the_seat_shot_it_and_never_without_a_moon():
    hand = _hold_hand_of_bots("moon-50")  # south shoots the moon
    assert hand.result is not None and hand.result.moon == Seat.SOUTH
    n = next(i for i in _south_plays(hand) if len(_at(hand, i).legal) > 1)
    view = _at(hand, n)
    other = next(c for c in view.legal if c != hand.plays[n])
    code, params = explain_play(hand, view, hand.plays[n], other, 3.0)
    assert code == "moon" and dict(params)["kind"] == "shot"
    plain = _hold_hand_of_bots("moon-16")
    assert plain.result is not None and plain.result.moon is None
    for i in _south_plays(plain):
        v = _at(plain, i)
        for c in v.legal:
            assert explain_play(plain, v, plain.plays[i], c, 22.2)[0] != "moon"
