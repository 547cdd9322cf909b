"""hearts.fairdeal: the host cannot choose the deal, and every guest can check its hand."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hearts import deal_from_seed
from hearts.fairdeal import commitment, deal_seed, is_token, verify

tokens = st.text(alphabet="0123456789abcdef", min_size=8, max_size=32)


@settings(max_examples=60, deadline=None)
@given(secret=tokens, contributions=st.lists(tokens | st.just(""), min_size=4, max_size=4), seat=st.integers(0, 3))
def test_an_honest_deal_verifies_for_every_seat(secret, contributions, seat) -> None:  # type: ignore[no-untyped-def]
    deal = deal_from_seed(deal_seed(secret, contributions))
    assert verify(commitment(secret), secret, contributions, seat=seat, mine=contributions[seat], dealt=deal[seat])


def test_cheating_is_caught() -> None:
    secret, other = "0123456789abcdef", "fedcba9876543210"
    contributions = ["", "aaaa1111", "bbbb2222", "cccc3333"]
    deal = deal_from_seed(deal_seed(secret, contributions))
    commit = commitment(secret)
    assert verify(commit, secret, contributions, seat=1, mine="aaaa1111", dealt=deal[1])
    # another secret than the one committed to
    assert not verify(
        commit, other, contributions, seat=1, mine="aaaa1111", dealt=deal_from_seed(deal_seed(other, contributions))[1]
    )
    # a guest's contribution left out or replaced
    dropped = ["", "", "bbbb2222", "cccc3333"]
    assert not verify(
        commit, secret, dropped, seat=1, mine="aaaa1111", dealt=deal_from_seed(deal_seed(secret, dropped))[1]
    )
    # a hand that is not the one the seed deals
    assert not verify(commit, secret, contributions, seat=1, mine="aaaa1111", dealt=deal[2])
    assert is_token("00ff00ff") and not is_token("xyz") and not is_token("00FF00FF") and not is_token(None)
