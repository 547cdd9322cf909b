"""What a played-out hand is worth to the searching seat (higher is better)."""

from __future__ import annotations

from ..rules import MoonScoring, Rules
from ..view import SeatView

__all__ = ["MATCH_WEIGHT", "hand_points", "Utility"]

MATCH_WEIGHT = 0.3  # near the match's end: worth of a point landing on the chosen opponent


def hand_points(hearts: list[int], queen: int, jack: int, rules: Rules, scores: tuple[int, ...]) -> list[int]:
    """The hand's points per seat from the hearts each seat took and who took the Q♠ and the
    J♦ (-1: nobody): :func:`hearts.hand.score_hand` without building card masks."""
    pen = [hearts[s] + (13 if s == queen else 0) for s in range(4)]
    moon = pen.index(26) if 26 in pen else -1
    if moon < 0:
        points = pen
    else:
        scoring = rules.moon
        if scoring is MoonScoring.SHOOTERS_CHOICE:
            added = [scores[s] + (0 if s == moon else 26) for s in range(4)]
            if max(added) >= rules.target and added[moon] > min(added):
                scoring = MoonScoring.SUBTRACT_FROM_SHOOTER
        if scoring is MoonScoring.SUBTRACT_FROM_SHOOTER:
            points = [-26 if s == moon else 0 for s in range(4)]
        else:
            points = [0 if s == moon else 26 for s in range(4)]
    if jack >= 0 and rules.jack_of_diamonds:
        points[jack] -= 10
    return points


class Utility:
    """Scores a finished hand for the searching seat ``me`` (higher is better).

    Its own points count fully. When the match can end in this hand (someone within 26 of the
    target), points that land on one chosen opponent count a little in its favour
    (``MATCH_WEIGHT``): a non-leader wants the match leader to take them ("feed the leader"),
    the leader wants them on the seat closest to the target ("wants it over"). The weight is
    small so Hard never takes points itself to steer the match.
    """

    __slots__ = ("me", "rules", "scores", "target_seat", "jack_rule")

    def __init__(self, me: int, view: SeatView) -> None:
        self.me = me
        self.rules = view.rules
        self.scores = view.scores
        self.jack_rule = view.rules.jack_of_diamonds
        self.target_seat = -1
        if max(view.scores) + 26 >= view.rules.target:
            scores = view.scores
            others = [s for s in range(4) if s != me]
            leader = min(others, key=lambda s: (scores[s], s))
            if scores[me] <= scores[leader]:
                self.target_seat = max(others, key=lambda s: (scores[s], -s))  # we lead: end it
            else:
                self.target_seat = leader  # feed the leader

    def __call__(self, hearts: list[int], queen: int, jack: int) -> float:
        """The value of a hand that ended with these hearts taken and these seats taking the Q♠
        and the J♦ (a rollout's :data:`~hearts.bots.rollout.Result`)."""
        me, target = self.me, self.target_seat
        if queen >= 0 and hearts[queen] == 13:  # a moon: its scoring depends on the rules and the scores
            points = hand_points(hearts, queen, jack, self.rules, self.scores)
            mine, theirs = points[me], points[target]
        else:
            mine = self._points(me, hearts, queen, jack)
            theirs = self._points(target, hearts, queen, jack) if target >= 0 else 0
        value = -float(mine)
        if target >= 0:
            value += MATCH_WEIGHT * theirs
        return value

    def own_points(self, hearts: list[int], queen: int, jack: int) -> int:
        """The hand's points of the searching seat alone (what the hand review measures)."""
        if queen >= 0 and hearts[queen] == 13:
            return hand_points(hearts, queen, jack, self.rules, self.scores)[self.me]
        return self._points(self.me, hearts, queen, jack)

    def _points(self, seat: int, hearts: list[int], queen: int, jack: int) -> int:
        """``seat``'s points of a hand without a moon."""
        return hearts[seat] + (13 if queen == seat else 0) - (10 if jack == seat and self.jack_rule else 0)
