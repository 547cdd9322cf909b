"""hearts_web.data.stats: finished matches are recorded per level and preset (online apart), the last 50
as a history; version 1's counters are kept; any stored value loads or is repaired with a reason."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hearts_web.core import i18n
from hearts_web.data.registry import STATS, Notice, SavedData
from hearts_web.data.session import Mode, Session, SessionState
from hearts_web.data.stats import HISTORY_LIMIT, Entry, Statistics, Totals, note_events
from hearts_web.data.store import MemoryStorage, Repairs, Store, Unreadable
from helpers import random_match
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import json_paths

from hearts import PRESETS, Match, Rules, Seat
from hearts.tally import MatchTally, match_tally

TODAY = "2026-12-03"
STATS_KEY = STATS.key


def saved(store: Store) -> SavedData:
    return SavedData(store, lambda notices: None, lambda: "medium")


def load(store: Store) -> Statistics:
    return saved(store).get(STATS)


def record(store: Store, tally: MatchTally, level: str, preset: str, date: str, online: bool) -> None:
    saved(store).update(STATS, lambda stats: stats.record(tally, level, preset, date, online))


def read(value: object) -> tuple[Statistics, Repairs]:
    decoded = Statistics.decode(value)
    return decoded.value, decoded.repairs


def check_stats(store: Store) -> list[Notice]:
    notice = STATS.check(store)[1]
    return [notice] if notice else []


def finished(rules: Rules = PRESETS["king"], seed: int = 1) -> Match:
    return random_match(rules, f"stats-{seed}", random.Random(seed))


def play_out(session: Session, store: Store, today: str = TODAY) -> bool:
    """Hand the match's events to the statistics as the table loop does (one call per hand)."""
    from hearts import HandOver, MatchOver

    wrote = False
    m = session.match
    for row in m.score_sheet:
        events = [HandOver(row.hand_number, row.points, row.moon, row.totals)]
        if row is m.score_sheet[-1]:
            events.append(MatchOver(m.winners, m.scores))
        counted = note_events(session, events, today)
        if counted is not None:
            wrote = saved(store).update(STATS, counted.add_to) or wrote
    return wrote


# ------------------------------------------------------------------ recording
def test_a_counted_match_is_recorded_once_under_its_level_and_preset() -> None:
    store, match = Store(MemoryStorage()), finished()
    session = Session(match, SessionState(difficulty="hard"))
    assert play_out(session, store)
    assert session.state.counted and session.state.pending.hands == len(match.score_sheet)
    stats = load(store)
    mine = match_tally(match, Seat.SOUTH)
    hard = stats.by_level("hard")
    assert (hard.matches, hard.hands, hard.points, hard.won) == (1, mine.hands, match.scores[0], int(mine.won))
    assert hard.queens == mine.queens and hard.moons_allowed == mine.moons_allowed
    assert stats.by_preset("king") == hard and stats.by_level("easy") == Totals() and stats.online == Totals()
    assert stats.history == [Entry(TODAY, "hard", "king", False, mine.hands, mine.points, mine.place, mine.shared)]
    assert not play_out(session, store)  # counted already
    assert load(store).overall.matches == 1


def test_practice_daily_and_challenge_games_are_not_recorded() -> None:
    store, match = Store(MemoryStorage()), finished()
    play_out(Session(match, SessionState(practice=True)), store)
    play_out(Session(match, SessionState(mode=Mode.DAILY, date="2026-11-29")), store)
    assert STATS_KEY not in store.storage.data  # type: ignore[union-attr]


def test_a_hosted_online_match_counts_in_the_online_section() -> None:
    store, match = Store(MemoryStorage()), finished(Rules(target=30), seed=4)
    play_out(Session(finished(), SessionState(difficulty="easy")), store)
    play_out(Session(match, SessionState(mode=Mode.ONLINE, difficulty="easy")), store)
    stats = load(store)
    assert stats.online.matches == 1 and stats.online.points == match.scores[0] and stats.overall.matches == 1
    assert [e.online for e in stats.history] == [False, True] and stats.history[1].preset == "custom"


def test_the_history_keeps_the_last_fifty() -> None:
    store = Store(MemoryStorage())
    for i in range(HISTORY_LIMIT + 5):
        tally = MatchTally(hands=5, points=i, moons_shot=0, moons_allowed=0, queens=1, won=False, shared=False, place=3)
        record(store, tally, "medium", "standard", TODAY, online=False)
    stats = load(store)
    assert len(stats.history) == HISTORY_LIMIT and stats.history[0].points == 5 and stats.history[-1].points == 54
    assert stats.by_level("medium").matches == HISTORY_LIMIT + 5  # the totals keep everything
    assert len(store.storage.data[STATS_KEY]) < 12_000  # type: ignore[union-attr]


# ------------------------------------------------------------------ version 1
v1_counters = st.integers(0, 10**6).flatmap(
    lambda played: st.fixed_dictionaries(
        {
            "played": st.just(played),
            "won": st.integers(0, played),
            "hands": st.integers(0, 10**7),
            "points": st.integers(-(10**8), 10**8),
        }
    ).flatmap(lambda d: st.integers(0, d["hands"]).map(lambda moons: {**d, "moons": moons}))
)


KING_TALLY = match_tally(finished(), Seat.SOUTH)


@settings(max_examples=200, deadline=None)
@given(old=v1_counters)
def test_any_old_counters_keep_their_totals(old: dict[str, int]) -> None:
    store = Store(MemoryStorage({STATS_KEY: json.dumps(old)}))
    assert check_stats(store) == []  # read as it is: no notice, nothing written
    assert store.storage.data[STATS_KEY] == json.dumps(old)  # type: ignore[union-attr]
    stats = load(store)
    total = stats.overall
    assert (total.matches, total.won, total.hands, total.points, total.moons_shot) == (
        old["played"],
        old["won"],
        old["hands"],
        old["points"],
        old["moons"],
    )
    assert all(stats.by_level(level) == Totals() for level in ("easy", "medium", "hard"))
    # the next recorded match writes the new form and the old counters stay in it
    record(store, KING_TALLY, "easy", "king", TODAY, online=False)
    again = load(store)
    assert again.earlier == stats.earlier or (old["played"] == 0 and again.earlier is None)
    assert again.overall.matches == old["played"] + 1
    assert json.loads(store.storage.data[STATS_KEY])["v"] == 2  # type: ignore[union-attr]


def test_old_counters_that_cannot_all_be_true_are_repaired() -> None:
    stats, repairs = read({"played": 2, "won": 7, "hands": 3, "points": 9, "moons": 5})
    assert (
        stats.earlier == Totals(matches=2, won=2, hands=3, points=9, moons_shot=3)
        and repairs.count("totals_fixed") == 2
    )


# ------------------------------------------------------------------ any stored value
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=8)
    | st.sampled_from(["easy", "hard", "king", "custom", TODAY, "2026-02-30"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)


def _real() -> dict[str, object]:
    store = Store(MemoryStorage())
    for i, level in enumerate(("easy", "hard", "easy")):
        record(store, match_tally(finished(seed=i), Seat.SOUTH), level, "king", TODAY, online=False)
    record(
        store, replace(match_tally(finished(seed=9), Seat.SOUTH), queens=None), "medium", "standard", TODAY, online=True
    )
    value = json.loads(store.storage.data[STATS_KEY])  # type: ignore[union-attr]
    value["earlier"] = {"matches": 4, "won": 1, "hands": 30, "points": 200, "moons_shot": 1}
    return value  # type: ignore[no-any-return]


REAL = _real()


@st.composite
def stored_values(draw: st.DrawFn) -> object:
    kind = draw(st.sampled_from(["mutate", "mutate", "mutate", "any"]))
    if kind == "any":
        return draw(json_values)
    value = json.loads(json.dumps(REAL))
    path = draw(st.sampled_from(json_paths(value)[1:]))
    target = value
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = draw(json_values)
    return value


@settings(max_examples=300, deadline=None)
@given(value=stored_values())
def test_any_stored_statistics_load_or_are_repaired_with_a_reason(value: object) -> None:
    raw = json.dumps(value)
    storage = MemoryStorage({STATS_KEY: raw})
    notices = check_stats(Store(storage))
    if not isinstance(value, dict):
        assert [n.kind for n in notices] == ["replaced"]  # JSON null too: only an absent key is "nothing stored"
        return
    try:
        stats, repairs = read(value)
    except Unreadable:
        assert value.get("v") != 2 and [n.kind for n in notices] == ["replaced"]
        return
    if repairs:
        [notice] = notices
        assert notice.kind == "repaired" and notice.told and storage.data[notice.backup or ""] == raw
        said = notice.text()
        assert all(i18n.t(key, n=n) in said for key, n in notice.told)
        assert {key for key, _ in notice.told} <= set(STATS.says)
    else:
        assert notices == [] and storage.data[STATS_KEY] == raw  # a good value is left as it is
        if "v" in value:  # and nothing of it was dropped without a word
            assert len(stats.history) == len(value.get("history", []))
            assert sum(map(len, stats.levels.values())) == sum(map(len, value.get("levels", {}).values()))
    # what is kept now reads back the same, with nothing more to repair
    again, more = read(json.loads(storage.data[STATS_KEY]))
    assert not more and again == stats
    assert_consistent(stats)


def assert_consistent(stats: Statistics) -> None:
    """Every figure of the dialog agrees with its neighbours: a level's figures are what the rules
    table's presets add up to (a preset without a match adds nothing), and the history holds no
    more matches, wins or hands of a level and preset than its totals."""
    for level in stats.levels:
        for preset, totals in stats.levels[level].items():
            if not totals.matches:
                assert totals == Totals(), (level, preset, totals)
    by_levels = Totals()
    for level in stats.levels:
        by_levels = by_levels.plus(stats.by_level(level))
    by_presets = Totals()
    for preset in stats.presets_played:
        by_presets = by_presets.plus(stats.by_preset(preset))
    assert by_levels == by_presets
    groups: dict[tuple[str, str, bool], list[Entry]] = {}
    for e in stats.history:
        groups.setdefault((e.level, e.preset, e.online), []).append(e)
    for (level, preset, online), entries in groups.items():
        totals = stats.online if online else stats.levels.get(level, {}).get(preset, Totals())
        assert len(entries) <= totals.matches and sum(e.won for e in entries) <= totals.won
        assert sum(e.hands for e in entries) <= totals.hands


def _notice_en(value: object) -> str:
    storage = MemoryStorage({STATS_KEY: json.dumps(value)})
    [notice] = check_stats(Store(storage))
    i18n.set_lang("en")
    return notice.text()


def test_a_total_without_matches_keeps_nothing_and_the_notice_says_so() -> None:
    """0 matches but 500 hands, 400 Q♠ and 100 moons allowed: not added into its level."""
    value = json.loads(json.dumps(REAL))
    value["levels"]["easy"]["standard"] = {
        "matches": 0,
        "won": 0,
        "hands": 500,
        "points": 2500,
        "moons_shot": 0,
        "moons_allowed": 100,
        "queens": 400,
    }
    stats, repairs = read(value)
    assert stats.by_level("easy") == read(REAL)[0].by_level("easy")
    assert repairs and "lowered to fit the matches played" in _notice_en(value)
    assert_consistent(stats)


def test_a_billion_hands_are_lowered_to_what_the_matches_can_hold() -> None:
    from hearts.tally import MAX_MATCH_HANDS

    value = json.loads(json.dumps(REAL))
    hard = value["levels"]["hard"]["king"]
    value["levels"]["hard"]["king"] = dict(hard, hands=10**9, queens=10**9, moons_allowed=10**9, moons_shot=10**9)
    stats, _ = read(value)
    totals = stats.by_level("hard")
    assert totals.hands == hard["matches"] * MAX_MATCH_HANDS and totals.queens + totals.moons_allowed <= totals.hands
    assert totals.moons_shot <= totals.queens
    assert "lowered to fit the matches played" in _notice_en(value)
    assert_consistent(stats)


def test_a_history_that_is_not_a_list_is_not_called_one_match() -> None:
    value = json.loads(json.dumps(REAL))
    value["history"] = {"oops": 1}
    said = _notice_en(value)
    assert "The history of your matches could not be read and was left out." in said
    assert "1 match" not in said
    i18n.set_lang("de")
    storage = MemoryStorage({STATS_KEY: json.dumps(value)})
    [notice] = check_stats(Store(storage))
    assert "Der Verlauf deiner Partien war unlesbar und wurde weggelassen." in notice.text()
    i18n.set_lang("en")


def test_history_entries_that_the_totals_do_not_hold_are_left_out() -> None:
    """Three Hard matches in the history, one in the totals: the trend would show matches that
    the figures beside it say were never played."""
    value = json.loads(json.dumps(REAL))
    hard = next(e for e in value["history"] if e["level"] == "hard")
    value["history"] = [dict(hard, date="2026-11-01"), dict(hard, date="2026-11-02")] + value["history"]
    stats, repairs = read(value)
    assert [e.date for e in stats.history if e.level == "hard"] == [hard["date"]]  # the newest stays
    said = _notice_en(value)
    assert "2 matches in the history did not agree with your totals and were left out." in said
    assert_consistent(stats)


def test_a_damaged_history_entry_is_left_out_and_the_notice_says_so() -> None:
    value = json.loads(json.dumps(REAL))
    value["history"][1]["place"] = 9
    value["history"][2]["date"] = "2026-02-30"
    storage = MemoryStorage({STATS_KEY: json.dumps(value)})
    [notice] = check_stats(Store(storage))
    stats = load(Store(storage))
    assert len(stats.history) == len(REAL["history"]) - 2  # type: ignore[arg-type]
    assert stats.by_level("easy").matches == 2  # the totals are kept
    i18n.set_lang("en")
    assert notice.text().startswith(
        "Some of your statistics could not be read or did not add up. 2 matches in the history"
    )
    i18n.set_lang("de")
    assert "2 Partien im Verlauf" in notice.text()
    i18n.set_lang("en")


@pytest.mark.parametrize(
    "entry, why",
    [
        ({"place": 2, "shared": True}, "a shared win is a win"),
        ({"points": 27, "hands": 1}, "more than a hand can give"),
        ({"points": -37, "hands": 1}, "less than a hand can give"),
        ({"hands": 0}, "a match has a hand"),
        ({"level": "godlike"}, "no such level"),
        ({"preset": "poker"}, "no such preset"),
        ({"online": 1}, "online is true or false"),
        ({"extra": 1}, "no other keys"),
    ],
)
def test_history_entries_that_cannot_be_true_are_left_out(entry: dict[str, object], why: str) -> None:
    good = {
        "date": TODAY,
        "level": "easy",
        "preset": "king",
        "online": False,
        "hands": 4,
        "points": 20,
        "place": 1,
        "shared": False,
    }
    assert Entry.read(good) is not None
    assert Entry.read({**good, **entry}) is None, why


def test_another_version_is_set_aside() -> None:
    for version in (3, True, 2.0, "2"):
        storage = MemoryStorage({STATS_KEY: json.dumps({"v": version, "history": []})})
        [notice] = check_stats(Store(storage))
        assert notice.kind == "replaced" and STATS_KEY not in storage.data
        assert load(Store(MemoryStorage({STATS_KEY: json.dumps({"v": version})}))) == Statistics()
