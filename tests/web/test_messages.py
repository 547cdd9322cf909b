"""hearts_web.online.messages and .decoder: every message of the online table is a typed value; what the decoder
accepts encodes back to the very same JSON data, and anything else is refused with a reason."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hearts_web.data.session import Snapshot
from hearts_web.online import decoder as d
from hearts_web.online import messages as m
from helpers import played, random_action
from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import PRESETS, PassCards, PlayCard, Seat

TOKEN = "0123456789abcdef0123456789abcdef"


def _states() -> list[m.State]:
    """Real table states: a seat's snapshot and the events of the action that led to it."""
    out = []
    for seed, steps in (("wire-a", 0), ("wire-b", 7), ("wire-c", 40), ("wire-d", 60)):
        match = played(seed, steps)
        if match.to_act:
            seat = match.to_act[0]
            events = tuple(match.apply(random_action(match.view(seat), random.Random(seed))))
        else:
            events = ()
        for viewer in (Seat.SOUTH, Seat.WEST):
            snap = Snapshot(match.view(viewer), match.scores, tuple(match.score_sheet), match.winners, match.phase)
            out.append(m.State(snap, events))
    return out


STATES = _states()
seats = st.sampled_from(list(Seat))
names = st.text(max_size=24)
tokens = st.sampled_from([TOKEN, "deadbeef", "ab" * 32])
hands = st.integers(0, 10**6)
actions = st.sampled_from(
    [PlayCard(Seat.WEST, c) for c in played("acts", 0).cards(Seat.WEST)[:3]]
    + [PassCards(Seat.NORTH, played("acts", 0).cards(Seat.NORTH)[:3])]
)
lobby_seats = st.tuples(*[st.builds(m.LobbySeat, st.just(s), st.sampled_from(m.SEAT_KINDS), names) for s in Seat])
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
keys = st.text(B64, min_size=87, max_size=87)
signatures = st.text(B64, min_size=16, max_size=200)
heir_lists = st.lists(st.builds(m.Heir, seats, keys), max_size=3, unique_by=lambda h: h.seat).map(tuple)
chains = st.lists(
    st.builds(m.Succession, st.integers(2, 9), seats, keys, heir_lists, signatures, signatures), max_size=3
).map(tuple)
messages: st.SearchStrategy[m.Message] = st.one_of(
    st.just(m.Probe()),
    st.just(m.Ping()),
    st.just(m.Bye()),
    st.just(m.Closed()),
    st.builds(m.Hello, st.none() | tokens, names, st.none() | keys, st.none() | signatures),
    st.builds(m.Sit, seats, names),
    st.builds(m.Act, actions),
    st.builds(m.Contrib, hands, tokens),
    st.builds(m.HostProof, signatures, chains),
    st.builds(m.Heirs, st.integers(1, 9), heir_lists, signatures),
    st.builds(m.Claim, chains),
    st.builds(
        m.Lobby,
        lobby_seats,
        st.booleans(),
        st.sampled_from(list(PRESETS.values())),
        st.sampled_from(list(PRESETS)),
        st.sampled_from(["easy", "medium", "hard"]),
    ),
    st.builds(m.Welcome, seats, tokens, names),
    st.sampled_from(STATES),
    st.builds(m.Refused, st.sampled_from(["act", "sit"]), st.sampled_from(["must_follow_suit", "seat_taken"])),
    st.builds(m.Commit, hands, st.just("f" * 64)),
    st.builds(m.Reveal, hands, tokens, st.tuples(*[st.just("") | tokens] * 4)),
    st.builds(m.Version, st.integers(0, 99)),
)
seqs = st.integers(0, 2**53 - 1)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 2**54) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["v", "t", "seq", "seat", "name", "token", "hand", "kind", "x"]) | st.text(max_size=4),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@st.composite
def altered(draw: st.DrawFn) -> object:
    """A message's JSON with one part changed: a field dropped, replaced, added, or a nested value replaced."""
    data: dict[str, Any] = m.to_data(draw(messages), draw(seqs))
    key = draw(st.sampled_from(sorted(data)))
    how = draw(st.sampled_from(["drop", "replace", "add", "nested"]))
    if how == "drop":
        del data[key]
    elif how == "replace":
        data[key] = draw(json_values)
    elif how == "add":
        data[draw(st.text(min_size=1, max_size=5))] = draw(json_values)
    else:
        inner = data[key]
        if isinstance(inner, dict) and inner:
            inner[draw(st.sampled_from(sorted(inner)))] = draw(json_values)
        elif isinstance(inner, list) and inner:
            inner[draw(st.integers(0, len(inner) - 1))] = draw(json_values)
    return data


def check(data: object) -> m.Envelope[m.Message] | m.Refusal:
    text = json.dumps(data)
    got = d.decode(text, d.ALL_MESSAGES)
    if isinstance(got, m.Refusal):
        assert got.reason
    else:
        assert m.same_json(m.to_data(got.message, got.seq), json.loads(text)), text[:200]
    return got


@settings(max_examples=400, deadline=None)
@given(message=messages, seq=seqs)
def test_every_message_round_trips(message: m.Message, seq: int) -> None:
    text = m.encode(message, seq)
    assert d.decode(text, d.ALL_MESSAGES) == m.Envelope(seq, message)
    assert check(json.loads(text)) == m.Envelope(seq, message)


@settings(max_examples=600, deadline=None)
@given(data=json_values | altered())
def test_any_json_decodes_into_a_message_that_encodes_back_to_it_or_is_refused_with_a_reason(data: object) -> None:
    check(data)


@pytest.mark.parametrize(
    "data, reason",
    [
        ({"v": True, "t": "ping", "seq": 1}, "version True"),
        ({"v": 2.0, "t": "ping", "seq": 1}, "version 2.0"),
        ({"v": 2, "t": "ping", "seq": 1.0}, "no sequence number"),
        ({"v": 2, "t": "ping", "seq": True}, "no sequence number"),
        ({"v": 2, "t": "ping", "seq": 1, "x": 0}, "unexpected field 'x'"),
        ({"v": 2, "t": "contrib", "seq": 1, "hand": True, "value": TOKEN}, "hand is not a whole number"),
        ({"v": 2, "t": "sit", "seq": 1, "seat": "West", "name": "Ben"}, "seat is not a seat"),
        ({"v": 2, "t": "act", "seq": 1, "action": {"type": "play", "seat": "west", "card": "ZZ"}}, "bad action"),
        ({"v": 2, "t": "act", "seq": 1, "action": {"type": "play", "seat": "west", "card": "10h"}}, "not in the form"),
        ({"v": 2, "t": "welcome", "seq": 1, "seat": "west", "token": "XYZ", "name": "Ben"}, "token is not a token"),
    ],
)
def test_near_misses_are_refused_with_their_reason(data: dict[str, object], reason: str) -> None:
    got = check(data)
    assert isinstance(got, m.Refusal) and reason in got.reason


def test_each_side_reads_only_the_messages_sent_to_it() -> None:
    state = m.encode(STATES[0], 3)
    assert isinstance(d.decode(state, d.HOST_MESSAGES), m.Envelope)
    assert d.decode(state, d.GUEST_MESSAGES) == m.Refusal("unknown type 'state'")
    hello = m.encode(m.Hello(None, "Ben"), 4)
    assert d.decode(hello, d.GUEST_MESSAGES) == m.Envelope(4, m.Hello(None, "Ben"))
    assert isinstance(d.decode(hello, d.HOST_MESSAGES), m.Refusal)
    assert d.decode("x" * 100, d.ALL_MESSAGES, limit=99) == m.Refusal("oversized (100 characters)")


def test_only_a_message_that_carries_a_chain_may_be_longer_than_the_limit() -> None:
    """A claim or another host's proof carries the chain of passings-on (about 660 characters
    each): up to ``chain_limit``; any other message only up to ``limit``."""
    key, sig = "K" * 87, "S" * 86
    heirs = tuple(m.Heir(s, key) for s in (Seat.WEST, Seat.NORTH, Seat.EAST))
    chain = tuple(m.Succession(n + 2, Seat.WEST, key, heirs, sig, sig) for n in range(4))
    claim, proof = m.encode(m.Claim(chain), 5), m.encode(m.HostProof(sig, chain), 5)
    hello = m.encode(m.Hello(None, "Ben"), 5)
    padded = hello[:-1] + " " * (len(claim) - len(hello)) + "}"  # JSON with spaces: as long, still a hello
    assert len(claim) > 2048 and len(padded) == len(claim)
    size = len(claim)
    assert d.decode(claim, d.GUEST_MESSAGES, 2048, size) == m.Envelope(5, m.Claim(chain))
    assert d.decode(proof, d.HOST_MESSAGES, 2048, len(proof)) == m.Envelope(5, m.HostProof(sig, chain))
    assert d.decode(padded, d.GUEST_MESSAGES, 2048, size) == m.Refusal(f"oversized ({size} characters)")
    assert d.decode(padded, d.GUEST_MESSAGES, size) == m.Envelope(5, m.Hello(None, "Ben"))
    assert d.decode(claim, d.GUEST_MESSAGES, 2048, size - 1) == m.Refusal(f"oversized ({size} characters)")
    assert d.decode(claim, d.GUEST_MESSAGES, 2048) == m.Refusal(f"oversized ({size} characters)")


def test_a_state_whose_view_is_not_in_the_engines_form_is_refused() -> None:
    for change in (
        lambda view: view.update(hearts_broken=0),  # a number where the engine writes false
        lambda view: view.update(note="hi"),  # a field the engine does not write
        lambda view: view["hand"].__setitem__(0, view["hand"][0].lower()),
    ):  # "qs" for "QS"
        data: dict[str, Any] = m.to_data(STATES[1], 9)
        change(data["snap"]["view"])
        assert isinstance(check(data), m.Refusal)
    events: list[dict[str, Any]] = [e.to_dict() for e in STATES[1].events]
    assert events, "the fixture has events"
    data = m.to_data(STATES[1], 9)
    data["events"] = [dict(events[0], extra=1)] + events[1:]
    assert isinstance(check(data), m.Refusal)


def test_same_json_tells_types_apart() -> None:
    assert m.same_json({"a": [1, "x", None]}, {"a": [1, "x", None]})
    assert not m.same_json(True, 1) and not m.same_json(1.0, 1) and not m.same_json([1], [1, 2])
    assert not m.same_json({"a": 1}, {"b": 1})
