"""The daily game: golden deals, pass directions and par; results and streaks."""

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import Phase, Seat, deal_from_seed
from hearts.bots.player import decision_rng, seeded_rngs
from hearts.daily import (
    PLAYER,
    DailyResult,
    daily_fingerprint,
    daily_match,
    parse_date,
    pass_direction,
    share_markers,
    streaks,
)

GOLDEN = {
    "2026-11-29": "4a7426d4bb7a56d2-right",
    "2026-11-30": "52706d26dba8e704-across",
    "2026-12-01": "f123fa04a2d20489-hold",
    "2026-12-02": "778677c4835908b1-left",
    "2027-02-28": "b43d2f16cf58a90e-left",
}


@pytest.mark.parametrize("date", sorted(GOLDEN))
def test_golden_daily_deal_and_direction(date):
    assert daily_fingerprint(date) == GOLDEN[date]
    match = daily_match(date)
    assert match.hand.deal == deal_from_seed(date) and match.pass_direction is pass_direction(date)
    assert match.max_hands == 1


def test_directions_rotate_day_by_day():
    days = ["2026-11-29", "2026-11-30", "2026-12-01", "2026-12-02"]
    assert [pass_direction(d).value for d in days] == ["right", "across", "hold", "left"]


@pytest.mark.parametrize("bad", ["2026-13-01", "2026-02-30", "29.11.2026", "2026-1-1", "", "2026-11-29x"])
def test_bad_dates_are_refused(bad):
    with pytest.raises(ValueError):
        parse_date(bad)


def test_decision_rngs_are_stable_and_distinct():
    a = decision_rng("2026-11-29", 0, Seat.WEST, 5).random()
    assert a == decision_rng("2026-11-29", 0, Seat.WEST, 5).random()
    assert a != decision_rng("2026-11-29", 0, Seat.NORTH, 5).random()
    assert a != decision_rng("2026-11-30", 0, Seat.WEST, 5).random()
    match = daily_match("2026-11-29")
    rng_for = seeded_rngs("2026-11-29")
    assert rng_for(match.view(Seat.EAST)).random() == decision_rng("2026-11-29", 0, Seat.EAST, "pass").random()
    match.choose_pass(Seat.SOUTH, match.cards(Seat.SOUTH)[:3])
    assert rng_for(match.view(Seat.EAST)).random() == decision_rng("2026-11-29", 0, Seat.EAST, "pass").random()


def test_share_markers_one_per_trick():
    import random

    match = daily_match("2026-12-01")  # a hold day: straight into play
    rng = random.Random(1)
    while not match.is_over:
        match.play(match.turn, rng.choice(match.legal_plays()))
    markers = share_markers(match.hand, PLAYER)
    assert len(markers) == 13 and set(markers) <= {"none", "hearts", "queen"}
    taken = [t for t in match.hand.tricks if t.winner == PLAYER]
    assert markers.count("queen") == sum(t.marker == "queen" for t in taken)
    assert match.phase is Phase.MATCH_OVER


def _r(date, points, par):
    return DailyResult(date, points, par, ("none",) * 13)


def test_streaks():
    results = {
        d: _r(d, p, par)
        for d, p, par in [("2026-11-25", 0, 5), ("2026-11-27", 3, 5), ("2026-11-28", 9, 5), ("2026-11-29", 2, 5)]
    }
    s = streaks(results, "2026-11-29")
    assert (s.played, s.at_or_under_par, s.best_played, s.days_played, s.days_at_or_under_par) == (3, 1, 3, 4, 3)
    # today not played yet: the streak up to yesterday still counts
    s = streaks({k: v for k, v in results.items() if k != "2026-11-29"}, "2026-11-29")
    assert (s.played, s.at_or_under_par) == (2, 0)
    assert streaks({}, "2026-11-29").played == 0


def test_a_day_over_par_ends_the_par_streak_on_that_day():
    """Today played over par breaks the streak today: 0, not the run that ended yesterday."""
    results = {d: _r(d, p, par) for d, p, par in [("2026-01-29", 2, 4), ("2026-01-30", 4, 4), ("2026-01-31", 9, 4)]}
    s = streaks(results, "2026-01-31")
    assert (s.played, s.at_or_under_par) == (3, 0)
    s = streaks({"2026-02-03": _r("2026-02-03", 0, 0), "2026-02-04": _r("2026-02-04", 10, 0)}, "2026-02-04")
    assert (s.played, s.at_or_under_par) == (2, 0)
    # not played yet today: yesterday's streak is still alive
    assert streaks({"2026-02-03": _r("2026-02-03", 0, 0)}, "2026-02-04").at_or_under_par == 1
    # a day whose par is not known is no day at or under par
    assert streaks({"2026-02-04": _r("2026-02-04", 0, None)}, "2026-02-04").at_or_under_par == 0


_DAY0 = datetime.date(2026, 1, 1)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.integers(0, 20), st.tuples(st.integers(0, 26), st.one_of(st.none(), st.integers(0, 26))), max_size=21
    ),
    st.integers(0, 20),
)
def test_streaks_follow_their_rule(days, today_index):
    """Each streak counts the qualifying days that end today, or yesterday while today is not
    played; a played day that does not qualify ends it; a gap ends it."""
    today = (_DAY0 + datetime.timedelta(days=today_index)).isoformat()
    results = {}
    for i, (points, par) in days.items():
        if i <= today_index:
            d = (_DAY0 + datetime.timedelta(days=i)).isoformat()
            results[d] = _r(d, points, par)
    s = streaks(results, today)

    def expected(ok):
        i = today_index if today in results else today_index - 1
        count = 0
        while i >= 0 and (d := (_DAY0 + datetime.timedelta(days=i)).isoformat()) in results and ok(results[d]):
            count, i = count + 1, i - 1
        return count

    assert s.played == expected(lambda r: True)
    assert s.at_or_under_par == expected(lambda r: r.at_or_under_par)
    assert s.at_or_under_par <= s.played <= s.best_played <= s.days_played
    if today in results and not results[today].at_or_under_par:
        assert s.at_or_under_par == 0


def test_result_round_trip_and_validation():
    result = DailyResult("2026-11-29", 4, 6, ("none", "hearts") + ("none",) * 11, False)
    assert DailyResult.from_dict(result.to_dict()) == result and result.at_or_under_par
    for bad in [
        {},
        {"date": "x", "points": 1, "markers": []},
        {"date": "2026-11-29", "points": "1", "markers": []},
        {"date": "2026-11-29", "points": 1, "markers": ["boom"]},
    ]:
        with pytest.raises(ValueError):
            DailyResult.from_dict(bad)


GOLDEN_PAR = {"2026-11-29": 0, "2026-12-01": 4, "2027-02-28": 6}


@pytest.mark.parametrize("date", sorted(GOLDEN_PAR))
def test_golden_par(date):
    """Par pins the deal, the day's seeds and the bots' deterministic mode together.

    If a bot change moves these numbers, the day's par changes for every player: update
    the values deliberately (and say so in the change), never silently.
    """
    from hearts.daily import compute_par

    assert compute_par(date) == GOLDEN_PAR[date]


def test_par_is_pinned_to_its_version_not_to_the_latest_hard(monkeypatch):
    """A new Hard must not move the par: make the latest Hard play differently (it then
    scores differently on this day) and the par stays what par v1 says."""
    import dataclasses

    import hearts.bots
    from hearts.bots import config
    from hearts.bots.gate import Gate
    from hearts.daily import PAR_BOTS, PAR_VERSION, ParBot, compute_par

    assert PAR_BOTS[1] == ParBot(hard_version=1, iterations=200) and PAR_VERSION >= 1
    date = "2027-02-28"
    patched = dataclasses.replace(config.PLAY, label=99, gate=Gate(head_start=-50.0))  # shuns Medium's card
    monkeypatch.setitem(config.CONFIGS, 99, patched)
    monkeypatch.setattr(hearts.bots, "PLAY", patched)
    assert compute_par(date, version=1) == GOLDEN_PAR[date]
    monkeypatch.setitem(PAR_BOTS, 99, ParBot(hard_version=99, iterations=200))
    assert compute_par(date, version=99) != GOLDEN_PAR[date]  # the patched Hard does play differently
    with pytest.raises(ValueError):
        compute_par(date, version=12345)


def test_results_remember_their_par_version():
    result = DailyResult("2026-11-29", 4, 6, ("none",) * 13, par_version=3)
    assert DailyResult.from_dict(result.to_dict()).par_version == 3
    legacy = {"date": "2026-11-29", "points": 4, "par": 6, "markers": ["none"] * 13, "moon": False}
    assert DailyResult.from_dict(legacy).par_version == 1  # stored before versions: par v1
    for bad in (0, "1", True, None):
        with pytest.raises(ValueError):
            DailyResult.from_dict({**legacy, "par_version": bad})
