"""Builders shared by the engine tests: explicit deals and quick random play."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

from hearts import (
    CARDS,
    PRESETS,
    Action,
    Hand,
    IllegalAction,
    Match,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    Seat,
    SeatView,
    parse_cards,
)
from hearts.bots import make_bot
from hearts.bots.player import seeded_rngs
from hearts.guide import GUIDED_LEVEL, GUIDED_SEAT, GUIDED_SEED, Tip, guided_match, next_tip, suggestion
from hearts.seats import SEATS, PassDirection
from hearts.table import play, run_sync


def make_deal(spec: Mapping[Seat, str]) -> list[list[int]]:
    """Give the named seats exactly these cards; deal the rest in order to the other seats."""
    hands: dict[Seat, list[int]] = {seat: list(parse_cards(text)) for seat, text in spec.items()}
    used = {c for cards in hands.values() for c in cards}
    rest = [c for c in range(52) if c not in used]
    for seat in SEATS:
        if seat not in hands:
            hands[seat] = rest[:13]
            rest = rest[13:]
    assert not rest, "the spec must leave whole hands"
    return [hands[s] for s in SEATS]


def hold_hand(spec: Mapping[Seat, str], rules: Rules | None = None) -> Hand:
    return Hand(make_deal(spec), rules or Rules(), PassDirection.HOLD)


def play_all(hand: Hand, cards: str) -> None:
    for card in parse_cards(cards):
        seat = hand.turn
        assert seat is not None
        hand.play(seat, card)


class RandomPlayer:
    """A seat that passes three random cards and plays a random legal card (one shared RNG)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    async def choose(self, view: SeatView) -> Action:
        return random_action(view, self.rng)

    def refused(self, action: Action, error: IllegalAction) -> None:
        raise AssertionError(f"random player refused: {action}: {error}")


def random_action(view: SeatView, rng: random.Random) -> Action:
    if view.phase is Phase.PASSING:
        return PassCards(view.seat, tuple(rng.sample(view.hand, 3)))
    return PlayCard(view.seat, rng.choice(view.legal))


def random_match(rules: Rules, seed: str, rng: random.Random) -> Match:
    match = Match(rules, seed=seed)
    run_sync(play(match, [RandomPlayer(rng)] * 4))
    return match


def step(game: Match | Hand, rng: random.Random) -> None:
    """One action at random: the next seat's pass or play (or the next hand of a match)."""
    if game.phase is Phase.HAND_OVER and isinstance(game, Match):
        game.next_hand()
        return
    seat = game.to_act[0]
    game.apply(random_action(game.view(seat), rng))


def played(seed: str, steps: int) -> Match:
    """A standard match dealt from ``seed`` after ``steps`` random actions (seeded by ``seed``)."""
    match = Match(Rules(), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        step(match, rng)
    return match


__all__ = [
    "make_deal",
    "hold_hand",
    "play_all",
    "random_match",
    "step",
    "played",
    "random_action",
    "RandomPlayer",
    "CARDS",
    "mid_hand",
    "pass_view",
    "follow_view",
    "play_guided",
    "random_player",
    "suggested",
]


def mid_hand(seed: str, tricks: int, extra: int = 0, rules_name: str = "standard") -> Hand:
    """A hold hand dealt from ``seed``, played by Medium up to ``tricks`` tricks and ``extra``
    cards of the next one."""
    from hearts.bots import make_bot

    hand = Hand(Match(PRESETS[rules_name], seed=seed).hand.deal, PRESETS[rules_name], PassDirection.HOLD)
    rng = random.Random(seed)
    medium = make_bot("medium")
    while hand.trick_number < tricks or len(hand.current_trick) < extra:
        seat = hand.turn
        assert seat is not None
        hand.play(seat, medium.decide(hand.view(seat), rng).cards[0])
    return hand


def pass_view(cards: str) -> SeatView:
    """South's view of a pass to the left with these cards."""
    hand = Hand(make_deal({Seat.SOUTH: cards}), PRESETS["standard"], PassDirection.LEFT)
    return hand.view(Seat.SOUTH)


def follow_view(south: str, plays: str, west: str = "", north: str = "", east: str = "") -> SeatView:
    """South's view of a hold hand after ``plays``, South to play (the named seats hold these cards)."""
    spec = {Seat.SOUTH: south}
    for seat, text in ((Seat.WEST, west), (Seat.NORTH, north), (Seat.EAST, east)):
        if text:
            spec[seat] = text
    hand = hold_hand(spec)
    play_all(hand, plays)
    assert hand.turn == Seat.SOUTH
    return hand.view(Seat.SOUTH)


def stopper_view(south: str = "2C 3D 4D 5D 6D 7D 8D 9D TD 2S 3S KH 5H") -> SeatView:
    """Trick 2: North won the 2♣ trick with the A♣ and leads the K♣; East followed, South (void
    in clubs) is to play. Nobody has taken a point."""
    return follow_view(
        south,
        "2C 3C AC 4C KC 5C",
        west="3C 6C 7C 8C 9C TC JC QC 2D JD QD KD AD",
        north="AC KC 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    )


# ---------------------------------------------------------------------- the guided hand (hearts.guide)
Chooser = Callable[[SeatView], tuple[int, ...]]


def suggested(view: SeatView) -> tuple[int, ...]:
    """The player follows the guide: the move it points at (any tip on the seat's turn has one)."""
    tip = next_tip(view, ())
    if tip is not None and tip.cards:
        return tuple(tip.cards)
    return tuple(suggestion(view)[0])


def random_player(rng: random.Random) -> Chooser:
    def choose(view: SeatView) -> tuple[int, ...]:
        if view.phase is Phase.PASSING:
            return tuple(rng.sample(list(view.hand), 3))
        return (rng.choice(list(view.legal)),)

    return choose


def play_guided(
    choose: Chooser, rules: Rules | None = None, check: Callable[[Tip, SeatView, list[str]], None] | None = None
) -> tuple[list[Tip], Match]:
    """The guided hand with Easy bots on the game's seeds, the guide asked before every action."""
    match = guided_match(rules)
    bot, rngs = make_bot(GUIDED_LEVEL), seeded_rngs(GUIDED_SEED)
    tips: list[Tip] = []

    def look() -> None:
        while True:
            view = match.view(GUIDED_SEAT)
            tip = next_tip(view, [t.code for t in tips])
            if tip is None:
                return
            if check is not None:
                check(tip, view, [t.code for t in tips])
            tips.append(tip)

    while match.phase in (Phase.PASSING, Phase.PLAYING):
        look()
        if match.phase is Phase.PASSING:
            for seat in match.waiting_for_pass:
                view = match.view(seat)
                cards = choose(view) if seat == GUIDED_SEAT else bot.decide(view, rngs(view)).cards
                match.apply(PassCards(seat, cards))
        else:
            seat = match.turn
            assert seat is not None
            view = match.view(seat)
            card = choose(view)[0] if seat == GUIDED_SEAT else bot.decide(view, rngs(view)).card
            match.apply(PlayCard(seat, card))
    look()
    return tips, match
