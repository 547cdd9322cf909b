"""The worlds of a search (hearts.bots.worlds): consistent deals, weights, the play and pass loops."""

from __future__ import annotations

import random

from helpers import mid_hand, pass_view

from hearts import PRESETS, Match, Seat
from hearts.bots import make_bot
from hearts.bots.config import PAR, PLAY, REVIEW
from hearts.bots.knowledge import Knowledge
from hearts.bots.moon import RunnerWatch, find_runner, made_moon
from hearts.bots.rollout import Start, split_hands
from hearts.bots.worlds import PassWorlds, PlayWorlds, WorldSampler, playout_randoms, sample_world


def test_sampled_worlds_respect_voids_sizes_and_passed_cards() -> None:
    match = Match(PRESETS["standard"], seed="sampling")
    rng = random.Random(2)
    bots = [make_bot("medium") for _ in range(4)]
    for seat in Seat:
        match.choose_pass(seat, bots[seat].decide(match.view(seat), rng).cards)
    while match.hand.trick_number < 6:
        seat = match.turn
        assert seat is not None
        match.play(seat, bots[seat].decide(match.view(seat), rng).cards[0])
    view = match.view(match.turn)  # type: ignore[arg-type]
    k = Knowledge(view)
    voids = view.voids()
    for i in range(200):
        world = sample_world(k, random.Random(i))
        assert world[k.me] == view.hand_mask
        union = 0
        for s in range(4):
            assert bin(world[s]).count("1") == view.hand_sizes[s]
            assert not union & world[s]
            union |= world[s]
            for suit in voids[s]:
                assert not world[s] >> (13 * suit) & 0x1FFF
            assert world[s] & k.known[s] == k.known[s]
        assert union == view.hand_mask | view.unseen_mask


def test_a_weighed_seat_is_dealt_more_of_the_weighed_cards() -> None:
    hand = mid_hand("boost", 1, 1)
    k = Knowledge(hand.view(hand.turn))  # type: ignore[arg-type]
    seat = (k.me + 1) % 4
    high = sum(1 << c for c in range(52) if c % 13 >= 10) & k.unseen
    plain, boosted = WorldSampler(k), WorldSampler(k)
    boosted.weigh(seat, high, 3.0)

    def share(sampler: WorldSampler) -> float:
        got = [bin(sampler(random.Random(i))[seat] & high).count("1") for i in range(400)]
        return sum(got) / len(got)

    assert share(boosted) > share(plain) + 0.5
    for i in range(50):  # still a consistent deal: hand sizes, every unseen card once
        world = boosted(random.Random(i))
        assert [bin(m).count("1") for m in world] == list(k.view.hand_sizes)
        assert sum(world) == k.hand | k.unseen
    weighed_by_one = WorldSampler(k)
    weighed_by_one.weigh(seat, high, 1.0)  # the weighted deal with weight 1 deals exactly the even one
    assert all(weighed_by_one(random.Random(i)) == plain(random.Random(i)) for i in range(50))


def _runner_position() -> Knowledge:
    hand = mid_hand("runner-3", 5, 1)
    k = Knowledge(hand.view(hand.turn))  # type: ignore[arg-type]
    assert find_runner(k, RunnerWatch.LONE_TAKER) >= 0
    return k


def test_play_worlds_read_a_stretch_of_one_pool_or_a_stream_per_world() -> None:
    k = _runner_position()
    cards = [int(c) for c in k.view.legal]
    runner = find_runner(k, RunnerWatch.LONE_TAKER)
    pooled = PlayWorlds(k, REVIEW.loop, cards, runner, cards[0], random.Random(1))
    worlds = [pooled.draw() for _ in range(40)]
    assert all(w.randoms is pooled.pool and len(w.hands) == 16 for w in worlds)
    assert {w.runner_shoots for w in worlds} == {True, False}  # the runner shoots in about half of them
    streams = PlayWorlds(k, PAR.loop, cards, runner, cards[0], random.Random(1))
    world = streams.draw()
    assert not streams.pool and world.at == 0 and len(world.randoms) == playout_randoms(k.trick_number)
    before = list(worlds[0].hands)
    for card in cards:
        hearts, _, _ = pooled.play(worlds[0], card, False)
        assert sum(hearts) == 13
    assert worlds[0].hands == before  # every candidate plays the same world


def test_in_strong_runner_worlds_the_runners_moon_goes_through_with_mediums_card() -> None:
    k = _runner_position()
    cards = [int(c) for c in k.view.legal]
    runner = find_runner(k, PLAY.loop.runner_watch)
    worlds = PlayWorlds(k, PLAY.loop, cards, runner, cards[0], random.Random(3))
    shooting = [w for w in (worlds.draw() for _ in range(60)) if w.runner_shoots]
    assert shooting
    assert all(made_moon(worlds.play(w, cards[0], False), runner) for w in shooting)


class _Spy:
    """Stands for a :class:`~hearts.bots.rollout.Rollouts`: records the hands and the leader of each playout."""

    def __init__(self, rollouts: object) -> None:
        self.rollouts = rollouts
        self.seen: list[tuple[list[int], int]] = []

    def play(self, hands: list[int], start: Start, *rest: object) -> object:
        self.seen.append((list(hands), start.leader))
        return self.rollouts.play(hands, start, *rest)  # type: ignore[attr-defined]


def test_pass_worlds_pass_the_cards_and_lead_from_the_two_of_clubs() -> None:
    view = pass_view("2C 9C JC 5D 6D KD 3S 8S QS 2H 7H JH AH")
    me, west = int(view.seat), (int(view.seat) + 1) % 4  # a pass to the left
    worlds = PassWorlds(view, PLAY.loop, random.Random(5))
    world = worlds.draw()
    assert [bin(h).count("1") for h in world.hands] == [16, 10, 13, 13]  # the others have passed, we have not
    assert world.hands[me] & view.hand_mask == view.hand_mask
    spy = _Spy(worlds.rollouts)
    worlds.rollouts = spy  # type: ignore[assignment]
    for passed, leader in ((1 | 1 << 36 | 1 << 51, west), (1 << 7 | 1 << 36 | 1 << 51, me)):  # 2♣ Q♠ A♥; 9♣ Q♠ A♥
        hearts, _, _ = worlds.play(world, passed, False)
        hands, led_by = spy.seen[-1]
        assert sum(hearts) == 13 and led_by == leader
        assert hands[me * 4 : me * 4 + 4] == split_hands([world.hands[me] & ~passed])
        assert hands[west * 4 : west * 4 + 4] == split_hands([world.hands[west] | passed])
    assert world.hands[me] & view.hand_mask == view.hand_mask  # the world itself is not changed
