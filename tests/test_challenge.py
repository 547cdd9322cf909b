"""Challenge links (hearts.challenge): tokens that survive the round trip and refuse anything else,
and a one-hand match with the original deal, direction and bot seeds."""

from __future__ import annotations

import base64
import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import (
    PASS_CYCLES,
    PRESETS,
    Action,
    FirstTrick,
    IllegalAction,
    Match,
    MoonScoring,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    Seat,
    SeatView,
    TieRule,
    hand_seed,
)
from hearts.bots import LEVELS, make_bot
from hearts.bots.player import BotPlayer, seeded_rngs
from hearts.challenge import (
    MAX_BY,
    MAX_HAND,
    MAX_SEED,
    MAX_TOKEN,
    POINTS_RANGE,
    Challenge,
    ChallengeError,
    challenge_match,
    challenge_rngs,
    decode,
    encode,
)
from hearts.daily import SHARE_MARKERS, daily_match, daily_rules, share_markers
from hearts.table import play, run_sync

rules_strategy = st.builds(
    Rules,
    pass_cycle=st.sampled_from([PASS_CYCLES[k] for k in sorted(PASS_CYCLES)])
    | st.lists(st.sampled_from(PASS_CYCLES["left_right_across_hold"]), min_size=1, max_size=4).map(tuple),
    first_trick=st.sampled_from(list(FirstTrick)),
    queen_breaks_hearts=st.booleans(),
    jack_of_diamonds=st.booleans(),
    moon=st.sampled_from(list(MoonScoring)),
    target=st.integers(min_value=1, max_value=10_000),
    tie=st.sampled_from(list(TieRule)),
)
names = st.text(
    st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Zl", "Zp")), min_size=1, max_size=MAX_BY
).filter(lambda s: s.strip() != "")
challenges = st.builds(
    Challenge,
    seed=st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), min_size=1, max_size=MAX_SEED),
    hand=st.integers(0, MAX_HAND),
    rules=rules_strategy,
    level=st.sampled_from(LEVELS),
    by=st.none() | names,
    points=st.none() | st.integers(*POINTS_RANGE),
    markers=st.lists(st.sampled_from(SHARE_MARKERS), max_size=13).map(tuple),
)


def _token(payload: bytes, version: str = "1") -> str:
    """A token with a correct check around any payload bytes (to reach the field checks)."""
    body = base64.urlsafe_b64encode(payload).decode().rstrip("=")
    check = base64.urlsafe_b64encode(hashlib.sha256(b"hearts-challenge-v1:" + body.encode()).digest()[:6])
    return f"{version}.{body}.{check.decode().rstrip('=')}"


def _data(**changes) -> bytes:
    data = {"s": "2026-11-29", "h": 0, "r": {}, "l": "medium"}
    data.update(changes)
    return json.dumps(data).encode()


def _decodes_or_refuses(token: str) -> Challenge | None:
    try:
        return decode(token)
    except ChallengeError as exc:
        assert str(exc)  # always a reason
        return None


@settings(max_examples=150, deadline=None)
@given(ch=challenges)
def test_round_trip(ch):
    token = encode(ch)
    assert len(token) <= MAX_TOKEN and all(c.isascii() and (c.isalnum() or c in "-_.") for c in token)
    assert decode(token) == ch


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=1200) | st.from_regex(r"\A1\.[A-Za-z0-9_-]{0,80}\.[A-Za-z0-9_-]{0,10}\Z"))
def test_any_text_is_a_challenge_or_refused(text):
    _decodes_or_refuses(text)


@settings(max_examples=300, deadline=None)
@given(ch=challenges, data=st.data())
def test_damaged_tokens_are_refused(ch, data):
    token = encode(ch)
    i = data.draw(st.integers(0, len(token)))
    kind = data.draw(st.sampled_from(["replace", "delete", "insert", "truncate"]))
    char = data.draw(st.characters(max_codepoint=0x7F) | st.sampled_from("AZaz09-_."))
    if kind == "replace" and i < len(token):
        bad = token[:i] + char + token[i + 1 :]
    elif kind == "delete" and i < len(token):
        bad = token[:i] + token[i + 1 :]
    elif kind == "insert":
        bad = token[:i] + char + token[i:]
    else:
        bad = token[:i]
    result = _decodes_or_refuses(bad)
    if bad.strip() == token:
        assert result == ch
    else:
        assert result is None  # the check catches every single-character change


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values, key=st.sampled_from(["s", "h", "r", "l", "b", "p", "m", "x"]), raw=st.binary(max_size=60))
def test_checked_payloads_with_any_content(value, key, raw):
    """A token with a correct check around anything (a field's value, any JSON, any bytes): a valid
    challenge or ChallengeError."""
    _decodes_or_refuses(_token(_data(**{key: value})))
    _decodes_or_refuses(_token(json.dumps(value).encode()))
    _decodes_or_refuses(_token(raw))


@pytest.mark.parametrize(
    "token, why",
    [
        (_token(_data(l="expert")), "level"),
        (_token(_data(h=True)), "hand number"),
        (_token(_data(h=-1)), "hand number"),
        (_token(_data(h=1.0)), "hand number"),
        (_token(_data(p=27)), "points"),
        (_token(_data(m="nnx")), "markers"),
        (_token(_data(m="n" * 14)), "markers"),
        (_token(_data(b="")), "name"),
        (_token(_data(b="x" * 25)), "name"),
        (_token(_data(b="evil\u202egnp")), "control character"),
        (_token(_data(b="a\nb")), "control character"),
        (_token(_data(s="")), "seed"),
        (_token(_data(s="ä")), "seed"),
        (_token(_data(r={"target": 0})), "rules"),
        (_token(_data(r={"colour": "red"})), "rules"),
        (_token(_data(r={"pass_cycle": []})), "rules"),
        (_token(_data(r=[])), "rules"),
        (_token(_data(x=1)), "unknown field"),
        (_token(b'{"s":"a","h":0,"r":{},"l":"easy","p":NaN}'), "not a number"),
        (_token(b'{"s":"a","h":0,"r":{"a":[[[[1]]]]},"l":"easy"}'), "nested"),
        (_token(b'{"s":"a","h":0,"r":{},"l":"easy"'), "JSON"),
        (_token(b"\xff\xfe"), "not readable"),
        (_token(b"[1, 2]"), "object"),
        (_token(b'{"s":"a","h":0,"l":"easy"}'), "missing"),
        (_token(_data(), version="2"), "version"),
        ("1." + "A" * (MAX_TOKEN) + ".AAAAAAAA", "too long"),
        ("", "empty"),
        ("1.abc", "damaged"),
        ("1.a+b.abcdefgh", "damaged"),
    ],
)
def test_refusals_say_why(token, why):
    with pytest.raises(ChallengeError, match=why):
        decode(token)


def test_invalid_challenges_are_not_encoded():
    good = Challenge(seed="x", hand=0, rules=Rules(), level="easy")
    for bad in (
        Challenge(seed="x", hand=0, rules=Rules(), level="expert"),
        Challenge(seed="", hand=0, rules=Rules(), level="easy"),
        Challenge(seed="x", hand=0, rules=Rules(), level="easy", markers=("moon",)),
        Challenge(seed="x", hand=0, rules=Rules(pass_cycle=PASS_CYCLES["left_right_across_hold"] * 60), level="easy"),
    ):
        with pytest.raises(ChallengeError):
            encode(bad)
    assert decode(encode(good)) == good
    with pytest.raises(ChallengeError):
        decode(None)  # a stored token may be missing


# ----------------------------------------------------------------------------- the game
class Scripted:
    """A seat that makes exactly the given decisions (a person repeating their game)."""

    def __init__(self, passed: tuple | None, plays: list) -> None:
        self.passed = passed
        self.plays = list(plays)

    async def choose(self, view: SeatView) -> Action:
        if view.phase is Phase.PASSING:
            return PassCards(view.seat, self.passed)
        return PlayCard(view.seat, self.plays.pop(0))

    def refused(self, action: Action, error: IllegalAction) -> None:
        raise AssertionError(error)


def _original(seed: str, rules: Rules, level: str, upto: int) -> Match:
    """A seeded match played by seeded bots (south: Medium with its own seed) through hand ``upto``."""
    match = Match(rules, seed=seed, max_hands=upto + 1)
    players = [BotPlayer(make_bot("medium"), seed="the player")] + [
        BotPlayer(make_bot(level, iterations=4) if level == "hard" else make_bot(level), seed=seed) for _ in range(3)
    ]
    run_sync(play(match, players))
    return match


@pytest.mark.parametrize("rules", [PRESETS["standard"], PRESETS["king"], daily_rules("2026-11-30")])
def test_challenge_match_has_the_original_deal_and_direction(rules):
    match = Match(rules, seed="chal-deal")
    for n in range(6):
        ch = Challenge(seed="chal-deal", hand=n, rules=rules, level="easy")
        one = challenge_match(ch)
        assert one.max_hands == 1 and one.hand_number == 0 and one.seed == hand_seed("chal-deal", n)
        assert one.hand.deal == match.deal_for(n)
        assert one.pass_direction is rules.pass_direction(n)
    daily = daily_match("2026-11-30")
    ch = Challenge(seed="2026-11-30", hand=0, rules=daily_rules("2026-11-30"), level="medium")
    assert challenge_match(ch).hand.deal == daily.hand.deal and challenge_match(ch).rules == daily.rules


def test_played_match_hand_matches_the_challenge():
    match = _original("chal-played", PRESETS["standard"], "easy", 2)
    assert match.is_over and len(match.hands) == 3
    for n, hand in enumerate(match.hands):
        one = challenge_match(Challenge(seed="chal-played", hand=n, rules=match.rules, level="easy"))
        assert one.hand.deal == hand.deal and one.pass_direction is hand.pass_direction


@pytest.mark.parametrize("level, n", [("easy", 2), ("easy", 1), ("hard", 1)])
def test_same_choices_give_the_same_bot_play(level, n):
    seed = f"chal-rng-{level}"
    original = _original(seed, PRESETS["standard"], level, n).hands[n]
    mine = [c for t in original.tricks for s, c in t.plays if s is Seat.SOUTH]
    ch = Challenge(
        seed=seed,
        hand=n,
        rules=PRESETS["standard"],
        level=level,
        points=original.result.points[0],
        markers=share_markers(original),
    )
    ch = decode(encode(ch))  # as the friend receives it

    def replay(rngs):
        one = challenge_match(ch)
        bots = [
            BotPlayer(make_bot(level, iterations=4) if level == "hard" else make_bot(level), rng=rngs) for _ in range(3)
        ]
        run_sync(play(one, [Scripted(original.passes[Seat.SOUTH], mine)] + bots))
        return one.hands[0]

    again = replay(challenge_rngs(ch))
    assert again.passes == original.passes and again.plays == original.plays
    assert again.result.points == original.result.points
    assert share_markers(again) == ch.markers
    if level == "easy":  # the seeds matter: with the challenge match's own seeds the bots play differently
        try:
            other = replay(seeded_rngs(hand_seed(seed, n)))
            same = other.passes == original.passes and other.plays == original.plays
        except (AssertionError, IndexError):  # the player's script no longer fits the game
            same = False
        assert not same


def test_fewer_points_wins_a_challenge():
    from hearts.challenge import compare

    assert compare(3, 7) == -1 and compare(7, 3) == 1 and compare(5, 5) == 0
    assert compare(0, 26) == -1  # a moon shot by the player: 0 for them, 26 for the others


def test_a_challenges_hard_bots_decide_alike_on_a_fast_and_a_slow_machine():
    """The challenge's Hard searches a fixed number of worlds: a machine whose clock runs fast (a
    slow machine, as a time budget sees it) gets the same passes and plays."""
    import itertools

    from hearts.challenge import CHALLENGE_HARD_WORLDS, challenge_bot, challenge_bot_options

    assert challenge_bot_options("easy") == {} and challenge_bot_options("medium") == {}
    ch = Challenge(seed="chal-machine", hand=2, rules=PRESETS["standard"], level="hard")
    rngs = challenge_rngs(ch)
    match = challenge_match(ch)
    views = [match.view(Seat.WEST)]  # a pass
    for seat in Seat:
        match.apply(PassCards(seat, tuple(match.legal_pass_cards(seat)[:3])))
    while len(views) < 4:
        seat = match.to_act[0]
        legal = match.legal_plays(seat)
        if seat is not Seat.SOUTH and len(legal) > 1:
            views.append(match.view(seat))
        match.apply(PlayCard(seat, min(legal)))

    def decisions(clock_step: float) -> list[tuple[object, ...]]:
        out = []
        for view in views:
            bot = challenge_bot("hard")
            ticks = itertools.count()
            bot.clock = lambda: next(ticks) * clock_step  # noqa: B023 (this bot, this iteration)
            out.append(bot.decide(view, rngs(view)).cards)
        return out

    fast, slow = decisions(1e-6), decisions(10.0)
    assert fast == slow
    assert challenge_bot("hard").iterations == CHALLENGE_HARD_WORLDS[0]
