"""The hand review: what each of a seat's decisions in a finished hand cost, and why.

:func:`review_steps` walks a finished :class:`~hearts.Hand` and rebuilds the seat's
:class:`~hearts.SeatView` at each of its own decisions (the pass first, when the hand had one,
then each card it played). For each it yields ``None`` between short slices of work (like the
bots' ``decide_steps``: the browser gives the page a turn there) and then one :class:`Verdict`.

**The cost** of a decision is measured from the seat's view only, with Hard's search machinery
(:mod:`hearts.bots.evaluate`: worlds sampled from the view with the opponent model, heuristic
rollouts): the chosen option and every alternative are played out in the *same* sampled worlds
with the same random numbers, and ``cost`` is the best alternative's expected points minus the
chosen option's (0 when the chosen one is best), in points of this hand. The alternatives are
one card per class of equivalent legal cards for a play; for the pass, Medium's pass and every 3
of the 6 cards that most want to leave (Hard's pass candidates: Hard's own pass is the best of
them). A decision with a single legal card, or one after which the score can no longer change
(the claim rule), costs 0 without a search; so does the pass of a hand strong enough for Hard's
moon pass (the rollouts do not model a player's moon plan from the pass on). The search's RNG
is seeded from the view and ``seed``, so a review is the same every time (CPython and Pyodide).
The hidden cards of the hand are never used for the cost.

**The reason** (:data:`REASON_CODES`, with string ``params`` for the page's sentence) is chosen by
looking at what happened in the hand (here the hidden cards may be used: who dropped the Q♠, what
the trick held): ``risked_queen`` {card, seat}, ``took_points`` {card, points, best},
``kept_danger`` {card, best}, ``broke_void`` {card}, ``lead_suit`` {suit, best},
``pass_kept_queen`` / ``pass_kept_high_hearts`` / ``pass_kept_spades`` {cards}, ``moon`` {kind,
seat, card, best} when the hand's moon is the real cost (``kind``: ``shot`` by this seat,
``allowed``: the trick went to the shooter with points the best card would have taken, or
``missed_stop``: a costly decision in a hand another seat shot), or the fallback ``search_prefers``
{best, cost}. Cards are texts (``"QS"``; several space-separated).

A verdict is ``flagged`` when its cost exceeds the threshold (:data:`REVIEW_THRESHOLD`, see
``docs/engine.md`` for how it was chosen).
"""

from __future__ import annotations

import random
from collections.abc import Generator
from dataclasses import dataclass
from itertools import combinations

from .bots._bits import AS, HEARTS, KS, QS, QS_BIT, SUITS, bits, count, rank_of
from .bots.candidates import PASS_POOL, candidates, equivalent, keeps_queen, pass_ranking
from .bots.config import REVIEW
from .bots.evaluate import pass_values, play_values
from .bots.hint import view_seed
from .bots.knowledge import Knowledge
from .bots.medium import medium_pass
from .bots.moon import moon_pass
from .cards import Card, Suit, cards_of, mask_of
from .hand import Hand
from .phase import Phase
from .seats import SEATS, Seat
from .trick import rest_is_decided, trick_winner
from .view import SeatView

__all__ = [
    "Verdict",
    "review_steps",
    "review",
    "evaluate_play",
    "evaluate_pass",
    "pass_candidates",
    "review_rng",
    "explain_play",
    "explain_pass",
    "REVIEW_THRESHOLD",
    "REVIEW_ITERATIONS",
    "REASON_CODES",
    "decision_count",
]

REVIEW_THRESHOLD = REVIEW.threshold  # points of the hand: a decision that costs more is flagged
REVIEW_ITERATIONS = REVIEW.worlds  # sampled worlds per stage of a play decision (the pass: see evaluate_pass)
REASON_CODES: tuple[str, ...] = (
    "risked_queen",
    "took_points",
    "kept_danger",
    "broke_void",
    "lead_suit",
    "pass_kept_queen",
    "pass_kept_high_hearts",
    "pass_kept_spades",
    "moon",
    "search_prefers",
)
MOON_COST = 5.0  # in a hand another seat shot the moon, a decision that costs this much is about the moon

Params = tuple[tuple[str, str], ...]
Evaluation = Generator[None, None, tuple[tuple[Card, ...], float]]


@dataclass(frozen=True)
class Verdict:
    """One decision of the reviewed seat: what it chose, what the search thinks was best, the cost."""

    index: int  # 0-based among the seat's decisions in this hand (the pass, when there is one, is 0)
    kind: str  # "pass" or "play"
    trick: int | None  # 0-based trick of a play; None for the pass
    view: SeatView  # what the seat saw when deciding
    chosen: tuple[Card, ...]  # the card played, or the 3 cards passed
    best: tuple[Card, ...]  # the search's best option (== chosen when the chosen one was best)
    cost: float  # expected points lost against ``best`` (>= 0), in points of this hand
    flagged: bool  # cost > threshold
    reason: str  # one of REASON_CODES
    params: Params  # (name, text) pairs for the reason's sentence


def review_rng(view: SeatView, seed: str | None = None) -> random.Random:
    """The search's RNG for one decision: seeded from the view (and ``seed``), nothing else."""
    return random.Random(f"hearts-review-v1|{seed or ''}|{view_seed(view)}")


# ----------------------------------------------------------------------------- evaluation (view only)
def evaluate_play(
    view: SeatView, chosen: Card, *, iterations: int = REVIEW_ITERATIONS, seed: str | None = None
) -> Evaluation:
    """``(best, cost)`` of playing ``chosen`` in ``view`` (a generator, see :func:`review_steps`)."""
    if view.phase is not Phase.PLAYING or view.turn != view.seat or chosen not in view.legal:
        raise ValueError(f"{Card(chosen).text} is not a legal play for {view.seat.key} in this view")
    if len(view.legal) == 1 or _decided(view):
        return (chosen,), 0.0
    k = Knowledge(view)
    cands = candidates(k, REVIEW.trick_split)
    mine = next((i for i, c in enumerate(cands) if equivalent(k, c, int(chosen), REVIEW.trick_split)), -1)
    if mine < 0:  # pragma: no cover - every legal card has its class among the candidates
        cands.append(int(chosen))
        mine = len(cands) - 1
    if len(cands) == 1:
        return (chosen,), 0.0
    rng = review_rng(view, seed)
    values = yield from play_values(view, cands, rng, iterations)
    best = max(range(len(cands)), key=lambda i: (values[i], i == mine, -i))
    if best == mine:
        return (chosen,), 0.0
    # Measure the winner against the chosen card on fresh worlds: the maximum of several noisy
    # means overstates the winner, a second sample of just the two does not.
    pair = yield from play_values(view, [cands[mine], cands[best]], rng, iterations)
    if pair[1] <= pair[0]:
        return (chosen,), 0.0
    return (Card(cands[best]),), pair[1] - pair[0]


def pass_candidates(view: SeatView, chosen: tuple[Card, ...]) -> list[tuple[int, ...]]:
    """The chosen pass, Medium's, and every 3 of the 6 cards that most want to leave."""
    keep_queen = keeps_queen(view.hand_mask)
    ranked = pass_ranking(view.hand_mask, view.rules.jack_of_diamonds, keep_queen)
    out = [tuple(sorted(int(c) for c in chosen)), medium_pass(view, keep_queen=keep_queen)[0]]
    out += list(combinations(sorted(ranked[:PASS_POOL]), 3))
    return list(dict.fromkeys(tuple(sorted(c)) for c in out))


def evaluate_pass(
    view: SeatView, chosen: tuple[Card, ...], *, iterations: int = REVIEW_ITERATIONS, seed: str | None = None
) -> Evaluation:
    """``(best, cost)`` of passing ``chosen`` in ``view``: every candidate on ``iterations`` times
    ``REVIEW.pass_screen`` deals (each plays the whole hand out), then the winner against ``chosen``
    on ``iterations`` times ``REVIEW.pass_confirm`` fresh deals."""
    if (
        view.phase is not Phase.PASSING
        or view.passed is not None
        or len(set(chosen)) != 3
        or mask_of(chosen) & ~view.hand_mask
    ):
        raise ValueError("not a pass this seat can make in this view")
    chosen = tuple(sorted(chosen))
    if moon_pass(view.hand_mask) is not None:
        return chosen, 0.0
    cands = pass_candidates(view, chosen)
    rng = review_rng(view, seed)
    values = yield from pass_values(view, cands, rng, max(1, int(iterations * REVIEW.pass_screen)))
    best = max(range(len(cands)), key=lambda i: (values[i], i == 0, -i))
    if best == 0:
        return chosen, 0.0
    # fresh deals, see evaluate_play
    pair = yield from pass_values(view, [cands[0], cands[best]], rng, int(iterations * REVIEW.pass_confirm))
    if pair[1] <= pair[0]:
        return chosen, 0.0
    return cards_of(mask_of(cands[best])), pair[1] - pair[0]


def _decided(view: SeatView) -> bool:
    """After the first trick, can nothing this seat does change the score? (the claim rule)"""
    if not view.tricks:
        return False
    on_table = mask_of(c for _, c in view.current_trick)
    return rest_is_decided(view.hand_mask, view.unseen_mask, on_table, view.rules)


# ----------------------------------------------------------------------------- the walk
def review_steps(
    hand: Hand,
    seat: Seat,
    *,
    iterations: int = REVIEW_ITERATIONS,
    threshold: float = REVIEW_THRESHOLD,
    seed: str | None = None,
) -> Generator[Verdict | None, None, None]:
    """Yield ``None`` between slices of work and one :class:`Verdict` per decision of ``seat`` in
    the finished ``hand`` (its pass first, then its plays in order). ``ValueError`` at once if
    the hand is not finished."""
    if hand.result is None:
        raise ValueError("only a finished hand can be reviewed")
    if iterations < 1:
        raise ValueError("iterations must be at least 1")
    return _walk(hand, Seat(seat), iterations, threshold, seed)


def decision_count(hand: Hand, seat: Seat) -> int:
    """How many verdicts :func:`review_steps` yields for ``seat``: its pass (if the hand had
    one), then each of its plays."""
    return (hand.passes[seat] is not None) + sum(1 for trick in hand.tricks for s, _ in trick.plays if s == seat)


def _walk(
    hand: Hand, seat: Seat, iterations: int, threshold: float, seed: str | None
) -> Generator[Verdict | None, None, None]:
    replay = Hand(
        hand.deal, hand.rules, hand.pass_direction, hand_number=hand.hand_number, scores_before=hand.scores_before
    )
    index = 0
    passed = hand.passes[seat]
    if passed is not None:
        view = replay.view(seat)
        best, cost = yield from evaluate_pass(view, passed, iterations=iterations, seed=seed)
        reason, params = explain_pass(view, passed, best, cost)
        yield Verdict(index, "pass", None, view, tuple(sorted(passed)), best, cost, cost > threshold, reason, params)
        index += 1
        for s in SEATS:
            chosen = hand.passes[s]
            assert chosen is not None
            replay.choose_pass(s, chosen)
    for card in hand.plays:
        turn = replay.turn
        assert turn is not None
        if turn == seat:
            view = replay.view(seat)
            best, cost = yield from evaluate_play(view, card, iterations=iterations, seed=seed)
            reason, params = explain_play(hand, view, card, best[0], cost)
            yield Verdict(index, "play", view.trick_number, view, (card,), best, cost, cost > threshold, reason, params)
            index += 1
        replay.play(turn, card)


def review(
    hand: Hand,
    seat: Seat,
    *,
    iterations: int = REVIEW_ITERATIONS,
    threshold: float = REVIEW_THRESHOLD,
    seed: str | None = None,
) -> list[Verdict]:
    """All verdicts at once (:func:`review_steps` without the pauses)."""
    steps = review_steps(hand, seat, iterations=iterations, threshold=threshold, seed=seed)
    return [v for v in steps if v is not None]


# ----------------------------------------------------------------------------- reasons (may look at the hand)
def _texts(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(Card(c).text for c in cards)


def _fallback(best: tuple[Card, ...], cost: float) -> tuple[str, Params]:
    return "search_prefers", (("best", _texts(best)), ("cost", f"{cost:.1f}"))


def explain_pass(view: SeatView, chosen: tuple[Card, ...], best: tuple[Card, ...], cost: float) -> tuple[str, Params]:
    """The reason code and parameters for passing ``chosen`` when ``best`` was better by ``cost``."""
    cards = (("cards", _texts(tuple(sorted(chosen)))),)
    gave, better = mask_of(chosen), mask_of(best)
    if better != gave:
        if better & QS_BIT and not gave & QS_BIT:
            return "pass_kept_queen", cards
        if better & ((1 << AS) | (1 << KS)) & ~gave:
            return "pass_kept_spades", cards
        if any(rank_of(c) >= 11 for c in bits(better & HEARTS & ~gave)):
            return "pass_kept_high_hearts", cards
    return _fallback(best, cost)


def _queen_holder(hand: Hand) -> Seat | None:
    """Who played the Q♠ in the hand (who held it after the pass)."""
    for trick in hand.tricks:
        for s, c in trick.plays:
            if c == QS:
                return s
    return None  # pragma: no cover - a finished hand played all 52 cards


def explain_play(hand: Hand, view: SeatView, chosen: Card, best: Card, cost: float) -> tuple[str, Params]:
    """The reason code and parameters for playing ``chosen`` in ``view`` when ``best`` was better
    by ``cost``; may look at the finished ``hand`` (what the trick held, who had the Q♠)."""
    if best == chosen:
        return _fallback((best,), cost)
    moon = _moon(hand, view, chosen, best, cost)
    if moon is not None:
        return moon
    me = view.seat
    trick = hand.tricks[view.trick_number]
    card, other = chosen.text, best.text
    queen_out = not (view.played_mask | view.hand_mask) & QS_BIT
    # would the best card have let this trick go? (against the cards really played to it)
    swapped = [(int(s), int(best if s == me else c)) for s, c in trick.plays]
    best_under = trick.winner == me and trick_winner(swapped)[0] != int(me)
    # the Q♠ landed on this seat in this trick, or it played a high spade while she was out
    dropper = next((s for s, c in trick.plays if c == QS and s != me), None)
    if best_under and dropper is not None:
        return "risked_queen", (("card", card), ("seat", dropper.key))
    if queen_out and int(chosen) in (AS, KS) and view.led_suit in (None, Suit.SPADES):
        holder = _queen_holder(hand)
        if holder is not None and holder != me:
            return "risked_queen", (("card", card), ("seat", holder.key))
    # it won a trick with points that the best card would have let go
    if best_under and trick.points > 0:
        return "took_points", (("card", card), ("points", str(trick.points)), ("best", other))
    led = view.led_suit
    hand_mask = view.hand_mask
    if led is not None and chosen.suit != led:  # a discard
        if _dangerous(best, view) and not _dangerous(chosen, view):
            return "kept_danger", (("card", card), ("best", other))
    if led is None or chosen.suit != led:
        if (
            count(hand_mask & SUITS[best.suit]) == 1
            and best.suit is not Suit.HEARTS
            and count(hand_mask & SUITS[chosen.suit]) > 1
        ):
            return "broke_void", (("card", card),)
    if led is None and chosen.suit != best.suit:
        return "lead_suit", (("suit", chosen.suit.name.lower()), ("best", other))
    return _fallback((best,), cost)


def _moon(hand: Hand, view: SeatView, chosen: Card, best: Card, cost: float) -> tuple[str, Params] | None:
    """The moon as the reason, when the hand had one: this seat shot it; or another seat did, and
    this trick went to the shooter with points that the best card would have taken (``allowed``);
    or the decision cost at least :data:`MOON_COST` (``missed_stop``: a way to stop it was given up)."""
    shooter = hand.result.moon if hand.result is not None else None
    if shooter is None:
        return None
    me = view.seat
    params = (("seat", shooter.key), ("card", chosen.text), ("best", best.text))
    if shooter == me:
        return "moon", (("kind", "shot"), *params)
    trick = hand.tricks[view.trick_number]
    penalty = any(c.suit is Suit.HEARTS or c == QS for _, c in trick.plays)
    swapped = [(int(s), int(best if s == me else c)) for s, c in trick.plays]
    if trick.winner == shooter and penalty and trick_winner(swapped)[0] == int(me):
        return "moon", (("kind", "allowed"), *params)
    if cost >= MOON_COST:
        return "moon", (("kind", "missed_stop"), *params)
    return None


def _dangerous(card: Card, view: SeatView) -> bool:
    """A card worth getting rid of: the Q♠, the A♠/K♠ while she is out elsewhere, a high heart."""
    c = int(card)
    if c == QS:
        return True
    queen_out = not (view.played_mask | view.hand_mask) & QS_BIT
    if c in (AS, KS):
        return queen_out
    return card.suit is Suit.HEARTS and rank_of(c) >= 11
