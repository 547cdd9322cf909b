"""A table that outlives its host (hearts_web.online.handover): heirs, the chain of passings-on,
the turned seats and score sheet, a seat claimed by its key, and a whole carry-on over the fake
transport of test_online (the host vanishes mid-hand; a guest carries the table on with the scores
so far and a fresh fair deal that the other guest checks)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import random

from hearts_web.online.guest import GuestTable
from hearts_web.online.handover import HANDOVER_AFTER, CarryOn, chain_key, outranks, succeeds, turned, turned_sheet
from hearts_web.online.host import FREE_AFTER, HostTable
from hearts_web.online.messages import Claim, Heir, Heirs, Hello, Succession, encode
from hearts_web.online.protocol import MAX_CHAIN_MESSAGE, MAX_GUEST_MESSAGE, claim_text, heirs_text, seat_proof_text
from hypothesis import given
from hypothesis import strategies as st
from test_online import Clock, Net, make_guest, make_host, settle

from hearts import SEATS, HandScore, Match, Phase, Rules, Seat
from hearts.bots import make_bot
from hearts.bots.player import BotPlayer
from hearts.table import play

ROOM = "a" * 20


def key_of(name: str) -> str:
    """A public key as the link carries one (87 base64url characters); here it is its own secret."""
    return base64.urlsafe_b64encode(hashlib.sha512(name.encode()).digest() + b"xx").decode()[:87]


def sign(key: str, text: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(f"{key}|{text}".encode()).digest() * 2).decode().rstrip("=")[:86]


async def verify(key: str, text: str, sig: str) -> bool:
    return sign(key, text) == sig


ADA, BEN, CLEO = key_of("ada"), key_of("ben"), key_of("cleo")


def heirs(term: int, signer: str, *pairs: tuple[Seat, str]) -> Heirs:
    listed = tuple(Heir(s, k) for s, k in pairs)
    return Heirs(term, listed, sign(signer, heirs_text(ROOM, term, listed)))


def link(term: int, seat: Seat, key: str, named: Heirs) -> Succession:
    return Succession(term, seat, key, named.heirs, named.sig, sign(key, claim_text(ROOM, term, seat, key)))


def test_a_chain_leads_from_the_links_key_to_the_host_that_carries_on() -> None:
    first = heirs(1, ADA, (Seat.WEST, BEN), (Seat.EAST, CLEO))
    ben = link(2, Seat.WEST, BEN, first)
    second = heirs(2, BEN, (Seat.SOUTH, CLEO))  # Ben's own numbering: Cleo sits at his South's left
    cleo = link(3, Seat.SOUTH, CLEO, second)

    async def check() -> None:
        assert await chain_key(ADA, ROOM, (), verify) == ADA
        assert await chain_key(ADA, ROOM, (ben,), verify) == BEN
        assert await chain_key(ADA, ROOM, (ben, cleo), verify) == CLEO
        assert await chain_key(ADA, ROOM, (cleo,), verify) is None  # terms in order from 2
        assert await chain_key(BEN, ROOM, (ben,), verify) is None  # not named by the link's host
        mallory = key_of("mallory")
        assert await chain_key(ADA, ROOM, (link(2, Seat.NORTH, mallory, first),), verify) is None  # not an heir
        forged = heirs(1, mallory, (Seat.NORTH, mallory))
        assert await chain_key(ADA, ROOM, (link(2, Seat.NORTH, mallory, forged),), verify) is None
        unsigned = Succession(
            2, Seat.WEST, BEN, first.heirs, first.sig, sign(CLEO, claim_text(ROOM, 2, Seat.WEST, BEN))
        )
        assert await chain_key(ADA, ROOM, (unsigned,), verify) is None  # the claim not signed by its own key

    asyncio.run(check())


def test_two_heirs_who_carry_on_at_once_agree_on_one_host() -> None:
    """Ben and Cleo accept the offer at the same moment: Ben, named first, hosts; Cleo yields."""
    first = heirs(1, ADA, (Seat.WEST, BEN), (Seat.EAST, CLEO))
    ben, cleo = link(2, Seat.WEST, BEN, first), link(2, Seat.EAST, CLEO, first)
    assert outranks((ben,), (cleo,)) and not outranks((cleo,), (ben,))
    assert not outranks((ben,), (ben,)) and not outranks((ben,), ())  # the same claim; nothing to compare
    later = link(3, Seat.SOUTH, CLEO, heirs(2, BEN, (Seat.SOUTH, CLEO)))
    assert not outranks((ben, later), (cleo,))  # another term: not a rival


def test_a_host_who_comes_back_yields_to_the_host_who_carried_its_table_on() -> None:
    """Ada comes back to a table Ben carried on: Ben's own proof tells her (no guest needs to meet
    her); a host of an earlier term, an unrelated chain or the same term named later does not."""
    first = heirs(1, ADA, (Seat.WEST, BEN), (Seat.EAST, CLEO))
    ben, cleo = link(2, Seat.WEST, BEN, first), link(2, Seat.EAST, CLEO, first)
    later = link(3, Seat.SOUTH, CLEO, heirs(2, BEN, (Seat.SOUTH, CLEO)))
    assert succeeds((ben,), ()) and succeeds((ben, later), ()) and succeeds((ben, later), (ben,))
    assert succeeds((ben,), (cleo,)) and not succeeds((cleo,), (ben,))  # rivals: the one named first
    assert not succeeds((), ()) and not succeeds((ben,), (ben,))  # this host's own term
    assert not succeeds((), (ben,)) and not succeeds((ben,), (ben, later))  # an earlier term
    assert not succeeds((cleo, later), (ben,))  # a later term that went on from another table


def test_a_claim_after_four_passings_on_reaches_the_host_who_comes_back() -> None:
    """A table passed on four times, three heirs named each time: the claim that tells its first
    host is over 2,048 characters (a guest's usual limit), yet the host's table admits it and its
    chain checks out; a message as long that carries no chain is still dropped."""
    dan, eve = key_of("dan"), key_of("eve")
    chain, signer = [], ADA
    for term, key in enumerate((BEN, CLEO, dan, eve), start=2):
        named = heirs(
            term - 1, signer, (Seat.WEST, key), (Seat.NORTH, key_of(f"n{term}")), (Seat.EAST, key_of(f"e{term}"))
        )
        chain.append(link(term, Seat.WEST, key, named))
        signer = key
    claim = encode(Claim(tuple(chain)), 1)
    assert MAX_GUEST_MESSAGE < len(claim) <= MAX_CHAIN_MESSAGE
    host = make_host(Net(Clock()), Clock())
    claims: list[tuple[str, Claim]] = []
    host.on_claim = lambda peer, got: claims.append((peer, got))
    host.on_message("peer-9", claim)
    assert claims == [("peer-9", Claim(tuple(chain)))]
    assert asyncio.run(chain_key(ADA, ROOM, claims[0][1].chain, verify)) == eve
    long_hello = encode(Hello(None, "Mallory"), 2)[:-1] + " " * len(claim) + "}"
    host.on_message("peer-9", long_hello)
    assert any("oversized" in line for line in host.log)


@given(
    st.lists(st.tuples(st.integers(0, 13), st.integers(0, 13), st.integers(0, 13)), min_size=1, max_size=6),
    st.sampled_from(SEATS),
)
def test_turning_the_sheet_keeps_every_seats_points_with_its_seat(points: list[tuple[int, int, int]], by: Seat) -> None:
    rows, totals = [], (0, 0, 0, 0)
    for n, (a, b, c) in enumerate(points):
        hand = (a, b, c, 26 - a - b - c if a + b + c <= 26 else 0)
        totals = tuple(x + y for x, y in zip(totals, hand))  # type: ignore[assignment]
        rows.append(HandScore(n, hand, hand, Seat.NORTH if n % 3 == 0 else None, None, totals))
    new = turned_sheet(rows, by)
    for old_row, new_row in zip(rows, new):
        for seat in SEATS:
            assert new_row.points[turned(seat, by)] == old_row.points[seat]
            assert new_row.totals[turned(seat, by)] == old_row.totals[seat]
        assert new_row.moon == (None if old_row.moon is None else turned(old_row.moon, by))
    assert turned(by, by) is Seat.SOUTH
    Match(Rules(target=10_000), seed="x", earlier=new)  # the turned rows still add up


def test_a_seat_is_claimed_with_its_key_only_by_the_keys_owner() -> None:
    async def scenario() -> None:
        clock = Clock()
        net = Net(clock)
        pump = asyncio.ensure_future(net.pump())
        host = signing_host(net, clock, None)
        host.seats[1].kind, host.seats[1].key = "remote", BEN
        good = seat_proof_text(ROOM, "host", "peer-b")
        host.on_message(
            "peer-x", _hello(None, "Eve", BEN, sign(key_of("eve"), seat_proof_text(ROOM, "host", "peer-x")))
        )
        await settle()
        assert host.seats[1].peer is None and any("does not check out" in line for line in host.log)
        host.on_message("peer-b", _hello(None, "Ben", BEN, sign(BEN, good)))
        await settle()
        assert host.seats[1].peer == "peer-b" and host.seats[1].token is not None
        pump.cancel()

    asyncio.run(scenario())


def _hello(token: str | None, name: str, key: str, proof: str) -> str:
    from hearts_web.online.messages import encode

    return encode(Hello(token, name, key, proof), 1)


def _heirs_signed_by(host: HostTable, key: str) -> None:
    """What the host's page does: sign the heirs whenever they change."""
    host.on_heirs = lambda listed: host.heirs_signed(
        Heirs(host.term, listed, sign(key, heirs_text(ROOM, host.term, listed)))
    )


def signing_host(net: Net, clock: Clock, key: str | None) -> HostTable:
    """Ada's table as her page runs it: it checks signatures, and signs its heirs with ``key``."""
    host = make_host(net, clock)
    host.room, host.self_peer, host.verify = ROOM, "host", verify
    if key is not None:
        _heirs_signed_by(host, key)
    return host


def test_a_guest_carries_the_table_on_when_its_host_is_gone_for_good() -> None:
    async def scenario() -> None:
        clock = Clock()
        net = Net(clock)
        pump = asyncio.ensure_future(net.pump())
        host = signing_host(net, clock, ADA)
        ben, ben_page = make_guest(net, "peer-b", "Ben", random.Random(1), clock)
        cleo, cleo_page = make_guest(net, "peer-c", "Cleo", random.Random(2), clock)
        ben.key, cleo.key = BEN, CLEO
        for guest, seat, name in ((ben, Seat.WEST, "Ben"), (cleo, Seat.EAST, "Cleo")):
            guest.hello()
            await settle()
            guest.sit(seat, name)
            await settle()
        assert [h.key for h in host.heirs()] == [BEN, CLEO] and ben.heirs is not None and cleo.heirs == ben.heirs
        match = await host.start(Rules(target=100))
        players = host.players(BotPlayer(make_bot("medium"), seed="host"))
        first = asyncio.ensure_future(play(match, players, host))
        await _until(
            lambda: len(match.score_sheet) == 1 and match.hand_number == 1 and len(match.hand.plays) > 8, clock
        )
        first.cancel()  # Ada's browser goes away for good, mid-hand
        net.host = _Gone()  # type: ignore[assignment]
        sheet_before = match.score_sheet[:]
        while not ben.may_carry_on:
            clock.now += 2.0
            ben.tick()
            cleo.tick()
            await settle(5)
        assert clock.now - ben.away_since >= HANDOVER_AFTER
        assert ben_page.lobbies and ben.lobby_seen is not None and ben.snap is not None
        info = CarryOn(
            ROOM,
            ADA,
            ben.chain,
            ben.heirs,
            Seat.WEST,
            BEN,
            ben.lobby_seen.seats,
            ben.lobby_seen.rules,
            ben.lobby_seen.preset,
            ben.lobby_seen.level,
            ben.snap.sheet,
        )  # type: ignore[arg-type]
        new_host = HostTable(
            net.host_send,
            host_name="Ben",
            bot_names=["Pip", "Hops", "Shelly"],
            stand_in=lambda s: BotPlayer(make_bot("medium"), seed=f"new-{s.key}"),
            preset=info.preset,
            level=info.level,
            clock=clock,
        )
        new_host.seats, new_host.term = info.seat_infos(), info.term
        new_host.chain = (info.succession(sign(BEN, info.claim_text())),)
        new_host.room, new_host.self_peer, new_host.verify = ROOM, "peer-b", verify
        _heirs_signed_by(new_host, BEN)
        # Ben at South: his left is Hops (a bot), across Cleo, his right Ada (a bot plays until she is back)
        assert [i.kind for i in new_host.seats] == ["local", "bot", "remote", "remote"]
        assert new_host.seats[2].key == CLEO and new_host.seats[3].key == ADA and new_host.seats[3].peer is None
        net.host = new_host
        assert await chain_key(ADA, ROOM, new_host.chain, verify) == BEN  # what Cleo's page checks
        assert cleo.away
        cleo.follow("host", new_host.chain, sign(CLEO, seat_proof_text(ROOM, "peer-b", "peer-c")))
        # the table has a host again at once: nothing says "waiting for the host" over the page's
        # "Ben carries the table on", nor hides it when the new host's first message comes
        assert not cleo.away
        await settle()
        assert cleo.seat is Seat.NORTH and cleo.term == 2 and new_host.seats[2].peer == "peer-c", (
            new_host.log,
            cleo.log,
        )
        carried = await new_host.start(info.rules, earlier=info.earlier())
        assert carried.hand_number == 1 and carried.first_hand == 1  # the hand under way is dealt afresh
        assert carried.scores == tuple(sheet_before[-1].totals[(i + 1) % 4] for i in range(4))  # scores kept, turned
        going = asyncio.ensure_future(
            play(carried, new_host.players(BotPlayer(make_bot("medium"), seed="ben")), new_host)
        )
        await _until(lambda: 1 in cleo_page.verified_hands, clock)  # type: ignore[attr-defined]
        going.cancel()
        assert cleo_page.verified_hands[1] is True  # type: ignore[attr-defined]  (the new deal checks out)
        assert cleo_page.snap is not None and cleo_page.snap.view.seat is Seat.NORTH
        assert cleo_page.snap.sheet[0] == turned_sheet(sheet_before, Seat.WEST)[0] and not net.audit_failures
        # Ada comes back on another device, without her key: she is a newcomer to a match under way.
        # Hops's seat is free at once; hers once she has been gone a minute; she takes it from the
        # next hand
        ada, ada_page = make_guest(net, "peer-a2", "Ada", random.Random(4), clock)
        ada.hello()
        await settle()
        assert [s.kind for s in ada_page.lobbies[-1]] == ["local", "free", "remote", "bot"]
        clock.now += FREE_AFTER
        cleo.tick()
        ada.tick()
        await settle()
        new_host.tick()
        await settle()
        assert [s.kind for s in ada_page.lobbies[-1]] == ["local", "free", "remote", "free"]
        ada.sit(Seat.EAST, "Ada")
        await settle()
        assert ada.seat is Seat.EAST and new_host.seats[Seat.EAST].key is None  # her old key no longer claims it
        assert new_host.seats[Seat.EAST].from_hand == carried.hand_number + 1
        pump.cancel()

    asyncio.run(scenario())


class _Gone:
    """A host whose browser went away: what it is sent goes nowhere."""

    match = None

    def on_message(self, peer: str, text: str) -> None:
        pass


async def _until(done, clock: Clock, limit: int = 20000) -> None:  # type: ignore[no-untyped-def]
    for _ in range(limit):
        if done():
            return
        clock.now += 0.1
        await asyncio.sleep(0)
    raise AssertionError("not reached in time")


_ = (GuestTable, Phase)
