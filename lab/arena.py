"""Bot-vs-bot tournaments with duplicate deals: ``python3 -m lab.arena``.

Every match seed is played once per rotation of the bots through the seats (with four
bots: four times, each bot in each seat), so every bot plays every deal from every seat
and the luck of the cards cancels. Matches are played to the rules' target.

A rotation moves every bot one seat on and so keeps its neighbours: with three or four
different bots, the bot A passes to (on its left, playing after it) is the same in every
rotation. That bias is not small (about 0.4 points a hand between two Hard versions,
lab/RESULTS.md), so consecutive match seeds take the bots in each of their cyclic orders in
turn (``seat_orders``: six with four bots, two with three, one with two) and a run plays
whole blocks of them: every bot sits left of, right of and across from every other
equally often. ``--fixed-order`` plays every seed in the order given, as runs did before
2026-12-04.

The report gives, per bot, the mean points per hand with a 95% confidence interval, the paired
difference between bots per duplicate deal (much tighter), moons shot / allowed /
blocked (also per 1,000 seat-hands), and match wins.

Bots: ``easy``, ``medium``, ``random``, ``hard`` (the game's configuration, version 7) and
``hard-vN`` (a configuration by its version: ``hard-v1`` is the daily par's), with changed switches
as ``hard~significance=2`` (``switches()``). Hard searches a fixed
number of worlds per decision (deterministic, whatever the machine's load): by default
the number it reaches in Chromium within the UI's 250 ms (``BROWSER_WORLDS``, measured
with ``python3 -m lab.browser.hard_bench``), or ``--hard-iterations``; a spec may pin its own size:
``hard@600/60`` (600 worlds per play, 60 per pass), or ``hard@worker``: the sizes the game's
Web Worker really reaches, growing as the hand shortens (``WORKER_PLAY_WORLDS``, measured with
``python3 -m lab.browser.hard_hand``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields, is_dataclass, replace
from enum import Enum
from itertools import permutations
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypedDict, TypeVar, get_type_hints

from hearts.bots import make_bot
from hearts.bots.base import Bot
from hearts.bots.config import CONFIGS, PLAY, HardConfig
from hearts.bots.hard import HardBot
from hearts.bots.player import BotPlayer, RngSource
from hearts.bots.rollout import NEVER, SeenAt
from hearts.cards import Card
from hearts.events import CardPlayed, Event, HandOver
from hearts.match import Match
from hearts.rules import PRESETS, Rules
from hearts.seats import Seat
from hearts.table import Game, Listener, play, run_sync
from lab.moon_sight import MoonEyedHard
from lab.seeing import SeeingHard
from lab.weighted import WeighedHard

if TYPE_CHECKING:
    from multiprocessing.pool import AsyncResult

    from _typeshed import DataclassInstance

__all__ = [
    "ArenaConfig",
    "BotSpec",
    "bot_spec",
    "bot_list",
    "switch_setting",
    "hard_config",
    "switches",
    "play_match",
    "run_arena",
    "main",
    "BROWSER_WORLDS",
    "WORKER_PLAY_WORLDS",
    "WORKER_PASS_WORLDS",
    "WORKER_VERSIONS",
]

# Worlds per (play, pass) decision each Hard configuration reaches in the browser within the UI's
# 250 ms (headless Chromium 156, Pyodide 314, main thread: python3 -m lab.browser.hard_bench --iterations
# 200 --calibrate 3, each decision's fastest of three runs converted to worlds per 250 ms, median over
# the searched decisions). The arena plays Hard at these sizes, as fixed iterations. Version 1 as it
# was shipped, before the faster rollouts.
BROWSER_WORLDS: dict[int, tuple[int, int]] = {1: (850, 85), 7: (1150, 270)}

# What the game really gives Hard: the bots' Web Worker searches each play for 300 ms, so a world
# costs less and more of them fit as the hand shortens, up to the search's 4,000. Worlds per searched
# play indexed by the cards the bot holds (1 to 13; index 0 is unused, and a single card is never
# searched), and per pass when the player passes at once (the worker's 500 ms after the player's
# pass). Medians over 12 Hard hands, 316 searched plays and 27 passes on the idle 2-core dev machine
# (Chromium 156, Pyodide 314: python3 -m lab.browser.hard_hand). The arena plays ``hard@worker`` at
# these sizes; they hold for the configurations of WORKER_VERSIONS (the same cost per world).
WORKER_PLAY_WORLDS: tuple[int, ...] = (0, 4000, 4000, 4000, 4000, 3050, 2380, 2270, 1710, 1490, 1210, 1130, 1090, 1210)
WORKER_PASS_WORLDS = 710
WORKER_VERSIONS = (7,)


@dataclass(frozen=True)
class ArenaConfig:
    bots: tuple[str, ...]
    hands: int = 2000
    seed: int = 1
    rules: str = "standard"
    hard_iterations: int | None = None  # None: BROWSER_WORLDS of each version
    hard_budget_ms: float | None = None  # search by time instead (not reproducible)
    jobs: int = 1
    hard_pass_iterations: int | None = None
    sets: int | None = None  # play exactly this many duplicate sets (match seeds), instead of ``hands``
    fixed_order: bool = False  # every set in the order given (runs before 2026-12-04), not each cyclic order in turn


@dataclass
class HandRow:
    seed: int
    rotation: int
    hand_number: int
    seat_bots: tuple[str, ...]
    points: tuple[int, ...]
    penalty: tuple[int, ...]
    moon: int  # seat, or -1
    attempts: tuple[int, ...] = ()  # seats that chose a moon plan at least once in the hand
    plays: str = ""  # the hand's plays, space-separated ``play_text`` ("02C 1JC ..."), as lab.seat_bench writes


@dataclass
class MatchRow:
    seed: int
    rotation: int
    seat_bots: tuple[str, ...]
    winners: tuple[int, ...]
    hands: list[HandRow] = field(default_factory=list)
    seconds: float = 0.0  # how long the match took to play (0: saved before this was recorded)


@dataclass(frozen=True)
class BotSpec:
    level: str
    version: int | None = None  # Hard only
    iterations: int | None = None  # Hard only: worlds per play decision (None: search by time)
    pass_iterations: int | None = None
    overrides: tuple[tuple[str, str], ...] = ()  # Hard only: experimental changes of its switches (``switches``)
    worker: bool = False  # Hard only: plays at WORKER_PLAY_WORLDS by cards held (``hard@worker``)
    sees: bool = False  # Hard only: the all-seeing Hard (``seeing-hard...``: lab.seeing), told the real deal
    # Hard only: its play worlds weighed by the others' plays, (draws, eps) (``weigh4e50-hard``: lab.weighted)
    weigh: tuple[int, float] | None = None
    # Hard only: a runner watch that also reads weighed worlds, at this moon share (``eye30-hard``: lab.moon_sight)
    eye: float | None = None


def bot_spec(name: str, cfg: ArenaConfig) -> BotSpec:
    """``medium`` / ``hard`` / ``hard-v1`` / ``hard@600/60`` / ``hard@worker`` -> what to build;
    ValueError if unknown.

    Experiments: ``hard~significance=2~runner_worlds=even@600/60`` changes switches of the
    configuration (any name of ``switches()``; an enum's member by its name).
    ``seeing-`` before a Hard spec: the same Hard, every world it samples the real deal
    (:class:`lab.seeing.SeeingHard`, the measure of what Hard loses by not seeing the cards).
    ``weighMeN-`` before a Hard spec: its play worlds weighed by how likely the others' plays are
    in them, one of M drawn worlds, the seats' policy with noise N/100 (:class:`lab.weighted.WeighedHard`).
    ``eyeT-`` before a Hard spec: a seat whose weighed worlds' moon share reaches T/100 is a moon
    runner too (:class:`lab.moon_sight.MoonEyedHard`).
    """
    eyed = re.match(r"eye(\d+)-", name)
    if eyed:
        spec = bot_spec(name[eyed.end() :], cfg)
        eye = int(eyed.group(1)) / 100
        if spec.level != "hard" or spec.sees or spec.weigh is not None or not 0 < eye <= 1:
            raise ValueError(f"{name!r}: eyeT- needs a plain Hard and 0 < T <= 100")
        return replace(spec, eye=eye)
    weighed = re.match(r"weigh(\d+)e(\d+)-", name)
    if weighed:
        spec = bot_spec(name[weighed.end() :], cfg)
        draws, eps = int(weighed.group(1)), int(weighed.group(2)) / 100
        if spec.level != "hard" or spec.sees or draws < 1 or not 0 < eps <= 1:
            raise ValueError(f"{name!r}: weighMeN- needs a Hard, M >= 1 and 0 < N <= 100")
        return replace(spec, weigh=(draws, eps))
    if name.startswith("seeing-"):
        spec = bot_spec(name.removeprefix("seeing-"), cfg)
        if spec.level != "hard":
            raise ValueError(f"{name!r}: only Hard can be all-seeing")
        return replace(spec, sees=True)
    base, _, size = name.partition("@")
    base, *changes = base.split("~")
    overrides = []
    known = switches()
    for change in changes:
        key, _, value = change.partition("=")
        if key not in known:
            raise ValueError(f"unknown Hard switch {key!r} in {name!r}: choose from {sorted(known)}")
        overrides.append((key, value))
    level, _, version_text = base.partition("-v")
    if level != "hard":
        if size or version_text or overrides or level not in ("medium", "easy", "random"):
            raise ValueError(f"unknown bot {name!r}")
        return BotSpec(level)
    version = int(version_text) if version_text.isdigit() else PLAY.label if not version_text else -1
    if version not in CONFIGS:
        raise ValueError(f"unknown Hard version in {name!r}: choose from {sorted(CONFIGS)}")
    spec = BotSpec("hard", version, overrides=tuple(overrides))
    hard_config(spec)  # a bad value fails here
    play, pass_ = BROWSER_WORLDS[version]
    if size == "worker":
        if version not in WORKER_VERSIONS:
            raise ValueError(
                f"{name!r}: the worker's sizes were measured for Hard v{'/v'.join(map(str, WORKER_VERSIONS))}"
                " (another version costs a different time per world)"
            )
        return replace(spec, iterations=play, pass_iterations=WORKER_PASS_WORLDS, worker=True)
    if size:
        play_text, _, pass_text = size.partition("/")
        if not play_text.isdigit() or (pass_text and not pass_text.isdigit()):
            raise ValueError(f"bad size in {name!r}: use hard@PLAY or hard@PLAY/PASS")
        play = int(play_text)
        pass_ = int(pass_text) if pass_text else play
    elif cfg.hard_budget_ms:
        return spec
    elif cfg.hard_iterations:
        play = cfg.hard_iterations
        pass_ = cfg.hard_pass_iterations or cfg.hard_iterations
    return replace(spec, iterations=play, pass_iterations=pass_)


def bot_list(text: str) -> str:
    """An argparse type: comma-separated bot specs, each checked by :func:`bot_spec` (the text is kept)."""
    for name in text.split(","):
        name = name.strip().lower()
        if name:
            try:
                bot_spec(name, ArenaConfig((name,)))
            except ValueError as exc:
                raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def switch_setting(text: str) -> str:
    """An argparse type: ``name=value``, a switch of :func:`switches` and a value it takes (in ``PLAY``)."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"{text!r}: use name=value")
    bot_list(f"hard~{text}")
    return text


def switches(
    config: DataclassInstance | type[DataclassInstance] = PLAY, path: tuple[str, ...] = ()
) -> dict[str, tuple[str, ...]]:
    """Every switch of a Hard configuration by its name, with its path in the configuration."""
    out: dict[str, tuple[str, ...]] = {}
    for f in fields(config):
        value = getattr(config, f.name)
        if is_dataclass(value):
            out.update(switches(value, path + (f.name,)))
        elif f.name != "label":
            out[f.name] = path + (f.name,)
    return out


_Config = TypeVar("_Config", bound="DataclassInstance")


def _switched(config: _Config, path: Sequence[str], text: str) -> _Config:
    """``config`` with the switch at ``path`` set to ``text`` read as the switch's type (an enum's
    member by name, 0/1 for on/off, a number; ``never`` for a switch that may be ``NEVER``)."""
    head, rest = path[0], path[1:]
    current = getattr(config, head)
    if rest:
        return replace(config, **{head: _switched(current, rest, text)})
    kind = get_type_hints(type(config))[head]
    try:
        if isinstance(current, Enum):
            value: object = type(current)[text.upper()]
        elif kind is bool:
            value = bool(float(text))
        elif kind == SeenAt:
            value = NEVER if text == "never" else _whole(text)
        else:
            value = kind(float(text))
        return replace(config, **{head: value})
    except (KeyError, ValueError) as exc:
        raise ValueError(f"bad value {text!r} for the Hard switch {head!r} ({exc})") from None


def _whole(text: str) -> int:
    number = float(text)
    if not number.is_integer():
        raise ValueError(text)
    return int(number)


def hard_config(spec: BotSpec) -> HardConfig:
    """The configuration of a Hard spec: its version's, with the spec's experimental changes."""
    assert spec.level == "hard" and spec.version is not None
    config = CONFIGS[spec.version]
    known = switches()
    for key, text in spec.overrides:
        config = _switched(config, known[key], text)
    return config


def _make(name: str, cfg: ArenaConfig) -> Bot:
    spec = bot_spec(name, cfg)
    if spec.level != "hard":
        return make_bot(spec.level)
    options: dict[str, Any] = {
        "budget_ms": cfg.hard_budget_ms,
        "iterations": spec.iterations,
        "pass_iterations": spec.pass_iterations,
        "config": hard_config(spec),
        "play_schedule": WORKER_PLAY_WORLDS if spec.worker else None,
    }
    if spec.weigh is not None:
        return WeighedHard(draws=spec.weigh[0], eps=spec.weigh[1], **options)
    if spec.eye is not None:
        return MoonEyedHard(eye=spec.eye, **options)
    return (SeeingHard if spec.sees else HardBot)(**options)


def seat_assignment(bots: Sequence[str], rotation: int) -> tuple[str, ...]:
    """Seats 0-3 with the bots in ``rotation`` (four bots: each bot in each seat over the rotations;
    fewer fill the table in turn: ``a,b`` gives ``a b a b`` and ``b a b a``)."""
    n = len(bots)
    return tuple(bots[(s + rotation) % n] for s in range(4))


def seat_orders(bots: Sequence[str]) -> list[tuple[str, ...]]:
    """The bots' cyclic orders round the table, the given order first: the first bot stays
    first and the others take every order after it (four bots: 6, three: 2, two: 1). Over all
    of them each bot has each other bot on its left, on its right and (four bots) across
    equally often."""
    first, rest = bots[0], bots[1:]
    return [(first, *p) for p in permutations(rest)]


def run_orders(cfg: ArenaConfig) -> list[tuple[str, ...]]:
    """The orders a run's sets take in turn: every cyclic order, or with ``cfg.fixed_order``
    only the one given."""
    return [tuple(cfg.bots)] if cfg.fixed_order else seat_orders(cfg.bots)


def order_block(cfg: ArenaConfig) -> int:
    """How many consecutive sets take the bots once in each of the run's orders."""
    return len(run_orders(cfg))


def order_index(cfg: ArenaConfig, seed: int) -> int:
    """The order (in :func:`run_orders`) the set of ``seed`` takes."""
    return seed % order_block(cfg)


def seating(cfg: ArenaConfig, seed: int, rotation: int) -> tuple[str, ...]:
    """Who sits where in the match of ``seed`` in ``rotation``."""
    return seat_assignment(run_orders(cfg)[order_index(cfg, seed)], rotation)


def play_text(seat: int, card: Card) -> str:
    """One play as the benches log it: the seat's number and the card ("0QS"); a hand's plays are
    these, space-separated, in play order (``HandRow.plays``, lab.seat_bench's rows)."""
    return f"{seat}{card.text}"


class _Recorder(Listener):
    """Writes one :class:`HandRow` per finished hand into ``row``, with the seats whose bot
    chose a moon plan in that hand (``Decision.stats["plan"]``)."""

    def __init__(self, row: MatchRow, players: Sequence[BotPlayer]) -> None:
        self.row = row
        self.players = players
        self.attempts: set[int] = set()
        self.plays: list[str] = []

    async def on_events(self, game: Game, events: list[Event]) -> None:
        assert isinstance(game, Match)
        for ev in events:
            if isinstance(ev, CardPlayed):
                self.plays.append(play_text(int(ev.seat), ev.card))
                last = self.players[ev.seat].last
                if last is not None and last.stats.get("plan") == "moon":
                    self.attempts.add(int(ev.seat))
            if isinstance(ev, HandOver):
                sheet = game.score_sheet[-1]
                self.row.hands.append(
                    HandRow(
                        self.row.seed,
                        self.row.rotation,
                        ev.hand_number,
                        self.row.seat_bots,
                        sheet.points,
                        sheet.penalty,
                        -1 if sheet.moon is None else int(sheet.moon),
                        tuple(sorted(self.attempts)),
                        " ".join(self.plays),
                    )
                )
                self.attempts.clear()
                self.plays.clear()


def play_match(task: tuple[int, int, ArenaConfig]) -> MatchRow:
    """Play one match (``seed``) with the bots in ``rotation``."""
    seed, rotation, cfg = task
    rules: Rules = PRESETS[cfg.rules]
    names = seating(cfg, seed, rotation)
    players = [
        BotPlayer(_make(n, cfg), rng=_seat_rng(random.Random(f"arena|{cfg.seed}|{seed}|{rotation}|{s}")))
        for s, n in enumerate(names)
    ]
    match = Match(rules, seed=f"arena-{cfg.seed}-{seed}", max_hands=60)
    for player in players:
        if isinstance(player.bot, SeeingHard):
            player.bot.truth = lambda: [match.hand.cards_mask(s) for s in Seat]
    row = MatchRow(seed, rotation, names, ())
    start = time.perf_counter()
    run_sync(play(match, players, _Recorder(row, players)))
    row.winners = tuple(int(s) for s in match.winners)
    row.seconds = time.perf_counter() - start
    return row


def _seat_rng(rng: random.Random) -> RngSource:
    """One RNG stream per seat for the whole match (the arena's duplicate seeding)."""
    return lambda _view: rng


def _set_tasks(cfg: ArenaConfig, seed: int) -> list[tuple[int, int, ArenaConfig]]:
    """One duplicate set: the match of `seed` in every rotation of the bots."""
    return [(seed, r, cfg) for r in range(len(cfg.bots))]


HANDS_PER_MATCH = 11.0  # a first guess for planning, until matches of this run are known (measured: 11.1)


def _progress(done: int, total: int, hands: int, start: float, out: TextIO) -> None:
    width = 30
    filled = int(width * done / max(total, 1))
    rate = hands / max(time.perf_counter() - start, 1e-9)
    out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} matches, {hands} hands, {rate:.1f} hands/s ")
    out.flush()


def _play_time(rows: Sequence[MatchRow]) -> str:
    timed = [r.seconds for r in rows if r.seconds > 0]
    if not timed:
        return ""
    untimed = len(rows) - len(timed)
    return f"; {sum(timed):.0f} s of play in {len(timed)} timed matches (summed over processes)" + (
        f", {untimed} saved without a time" if untimed else ""
    )


def row_to_json(row: MatchRow) -> str:
    return json.dumps(asdict(row))


def row_from_json(text: str) -> MatchRow:
    data = json.loads(text)
    hands = [
        HandRow(
            h["seed"],
            h["rotation"],
            h["hand_number"],
            tuple(h["seat_bots"]),
            tuple(h["points"]),
            tuple(h["penalty"]),
            h["moon"],
            tuple(h.get("attempts", ())),
            h.get("plays", ""),
        )
        for h in data["hands"]
    ]
    return MatchRow(
        data["seed"],
        data["rotation"],
        tuple(data["seat_bots"]),
        tuple(data["winners"]),
        hands,
        float(data.get("seconds", 0.0)),
    )


def run_arena(
    cfg: ArenaConfig,
    progress: TextIO | None = sys.stderr,
    saved: Sequence[MatchRow] = (),
    on_row: Callable[[MatchRow], None] | None = None,
) -> list[MatchRow]:
    """Play whole duplicate sets (one match seed in every rotation), seeds in order from 0.

    ``cfg.sets``: exactly that many sets (seeds ``0 .. sets - 1``). Otherwise sets are started
    while the hands played plus the hands expected from the matches not yet finished (at this
    run's mean hands per match) stay below ``cfg.hands``; every started set is finished, and
    so is every started block of sets (one per cyclic seat order, :func:`order_block`), so a
    run ends at ``cfg.hands`` or a little above it (a block or two), never short of it.

    ``saved``: matches played before (same configuration), not played again (with ``cfg.sets``,
    only those of the first ``sets`` seeds count); ``on_row`` sees every new match."""
    if cfg.sets is not None:  # exactly these sets, even from the file of a bigger run
        saved = [r for r in saved if r.seed < cfg.sets]
    rows: list[MatchRow] = list(saved)
    done = {(r.seed, r.rotation) for r in saved}
    hands = sum(len(r.hands) for r in rows)
    queue: deque[tuple[int, int, ArenaConfig]] = deque()
    # matches under way, oldest first: with a pool their results to come, else the tasks themselves
    running: deque[AsyncResult[MatchRow] | tuple[int, int, ArenaConfig]] = deque()
    next_seed = 0
    start = time.perf_counter()
    pool = None
    if cfg.jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(cfg.jobs)
    window = 2 * cfg.jobs if pool is not None else 1  # matches under way: every process has the next one waiting

    def more_sets() -> bool:
        if cfg.sets is not None:
            return next_seed < cfg.sets
        if next_seed % order_block(cfg):  # finish the block: every cyclic order as often as the others
            return True
        per_match = hands / len(rows) if rows else HANDS_PER_MATCH
        return hands + per_match * (len(running) + len(queue)) < cfg.hands

    try:
        while True:
            while len(running) < window:
                if not queue:
                    if not more_sets():
                        break
                    queue.extend(t for t in _set_tasks(cfg, next_seed) if (t[0], t[1]) not in done)
                    next_seed += 1
                    continue
                task = queue.popleft()
                running.append(pool.apply_async(play_match, (task,)) if pool is not None else task)
            if not running:
                break
            head = running.popleft()
            row = play_match(head) if isinstance(head, tuple) else head.get()
            rows.append(row)
            hands += len(row.hands)
            if on_row is not None:
                on_row(row)
            if progress is not None:
                _progress(len(rows), len(rows) + len(running) + len(queue), hands, start, progress)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    if progress is not None:
        progress.write("\n")
    return rows


# --------------------------------------------------------------------------- statistics
def _mean_ci(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    if n == 0:
        return float("nan"), float("nan")
    mean = sum(values) / n
    if n < 2:
        return mean, float("inf")
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


class Summary(TypedDict):
    """What :func:`summarize` finds in a run's matches, for :func:`format_report`: per bot (by
    name), and per pair of bots (``(a, b)`` in the order of ``cfg.bots``)."""

    bots: list[str]
    per_hand: dict[str, tuple[float, float]]  # points per hand: mean, 95% half-width
    hands: dict[str, int]  # seat-hands played
    shot: dict[str, int]  # moons shot
    allowed: dict[str, int]  # moons another seat shot
    allowed_strong: dict[str, int]  # ... another bot, Medium or better
    attempted: dict[str, int]  # hands in which the bot chose a moon plan
    attempts_made: dict[str, int]  # ... and shot the moon
    blocked: dict[str, int]  # moons stopped by taking the few points the shooter missed
    wins: dict[str, float]  # matches won (a shared win split)
    matches: dict[str, int]  # seats in matches
    pairs: dict[tuple[str, str], tuple[float, float, int]]  # a - b per deal: mean, 95% half-width, deals
    pairs_calm: dict[tuple[str, str], tuple[float, float, int]]  # ... the deals without a moon
    pairs_by_order: dict[tuple[str, str], list[tuple[float, float]]]  # ... each cyclic order alone
    pairs_even: dict[tuple[str, str], tuple[float, float, int]]  # ... the orders weighted equally
    deals_per_order: list[int]  # deals played in every rotation, per cyclic order
    deals: int  # distinct deals
    full_deals: int  # deals played in every rotation
    hand_plays: int  # hands played
    match_count: int
    sets_per_order: list[int]  # whole sets, per cyclic order


def summarize(cfg: ArenaConfig, rows: list[MatchRow]) -> Summary:
    bots = list(dict.fromkeys(cfg.bots))
    per_hand: dict[str, list[float]] = {b: [] for b in bots}
    shot = {b: 0 for b in bots}
    allowed = {b: 0 for b in bots}
    allowed_strong = {b: 0 for b in bots}  # the shooter was another bot, Medium or better
    attempted = {b: 0 for b in bots}  # hands in which the bot chose a moon plan
    attempts_made = {b: 0 for b in bots}  # ... and shot the moon
    blocked = {b: 0 for b in bots}
    wins = {b: 0.0 for b in bots}
    seats_in_matches = {b: 0 for b in bots}
    deals: dict[tuple[int, int], dict[int, HandRow]] = {}
    for row in rows:
        for bot in row.seat_bots:
            seats_in_matches[bot] += 1
        for w in row.winners:
            wins[row.seat_bots[w]] += 1.0 / len(row.winners)
        for h in row.hands:
            deals.setdefault((h.seed, h.hand_number), {})[h.rotation] = h
            for i in range(4):
                per_hand[h.seat_bots[i]].append(float(h.points[i]))
            for i in h.attempts:
                attempted[h.seat_bots[i]] += 1
                attempts_made[h.seat_bots[i]] += h.moon == i
            if h.moon >= 0:
                shooter = h.seat_bots[h.moon]
                shot[shooter] += 1
                for i in range(4):
                    if i != h.moon:
                        allowed[h.seat_bots[i]] += 1
                        if shooter != h.seat_bots[i] and shooter.startswith(("medium", "hard")):
                            allowed_strong[h.seat_bots[i]] += 1
            else:
                # A moon stopped: one seat took nearly all the points, and the blocker took the rest.
                total = sum(h.penalty)
                for i in range(4):
                    if h.penalty[i] >= 18:
                        for j in range(4):
                            if j != i and 0 < h.penalty[j] <= 8 and h.penalty[j] + h.penalty[i] == total:
                                blocked[h.seat_bots[j]] += 1
    full_keys = [k for k, d in deals.items() if len(d) == len(cfg.bots)]
    full = [deals[k] for k in full_keys]
    block = order_block(cfg)
    full_orders = [order_index(cfg, seed) for seed, _ in full_keys]
    deals_per_order = [full_orders.count(o) for o in range(block)]
    # the deals without a moon in any rotation: the ordinary play, without the moons' big swings
    calm = [not any(h.moon >= 0 for h in d.values()) for d in full]
    pairs: dict[tuple[str, str], tuple[float, float, int]] = {}
    pairs_calm: dict[tuple[str, str], tuple[float, float, int]] = {}
    pairs_by_order: dict[tuple[str, str], list[tuple[float, float]]] = {}
    pairs_even: dict[tuple[str, str], tuple[float, float, int]] = {}
    for n, a in enumerate(bots):
        for b in bots[n + 1 :]:
            diffs = []
            for d in full:
                vals = []
                for h in d.values():
                    pa = [h.points[i] for i in range(4) if h.seat_bots[i] == a]
                    pb = [h.points[i] for i in range(4) if h.seat_bots[i] == b]
                    vals.append(sum(pa) / len(pa) - sum(pb) / len(pb))
                diffs.append(sum(vals) / len(vals))
            m, ci = _mean_ci(diffs)
            pairs[(a, b)] = (m, ci, len(diffs))
            quiet = [v for v, c in zip(diffs, calm) if c]
            pairs_calm[(a, b)] = (*_mean_ci(quiet), len(quiet))
            if block > 1:  # each order alone, and the orders weighted equally (the deals per order differ)
                parts = [_mean_ci([v for v, o2 in zip(diffs, full_orders) if o2 == o]) for o in range(block)]
                pairs_by_order[(a, b)] = parts
                if all(math.isfinite(ci) for _, ci in parts):
                    pairs_even[(a, b)] = (
                        sum(m for m, _ in parts) / block,
                        math.sqrt(sum(ci * ci for _, ci in parts)) / block,
                        len(diffs),
                    )
    return {
        "bots": bots,
        "per_hand": {b: _mean_ci(per_hand[b]) for b in bots},
        "hands": {b: len(per_hand[b]) for b in bots},
        "shot": shot,
        "allowed": allowed,
        "allowed_strong": allowed_strong,
        "attempted": attempted,
        "attempts_made": attempts_made,
        "blocked": blocked,
        "wins": wins,
        "matches": {b: seats_in_matches[b] for b in bots},
        "pairs": pairs,
        "pairs_calm": pairs_calm,
        "pairs_by_order": pairs_by_order,
        "pairs_even": pairs_even,
        "deals_per_order": deals_per_order,
        "deals": len(deals),
        "full_deals": len(full),
        "hand_plays": sum(len(r.hands) for r in rows),
        "match_count": len(rows),
        "sets_per_order": _sets_per_order(cfg, rows),
    }


def _sets_per_order(cfg: ArenaConfig, rows: Sequence[MatchRow]) -> list[int]:
    """How many whole sets (every rotation played) took the bots in each cyclic order."""
    rotations: dict[int, set[int]] = {}
    for r in rows:
        rotations.setdefault(r.seed, set()).add(r.rotation)
    counts = [0] * order_block(cfg)
    for seed, played in rotations.items():
        if len(played) == len(cfg.bots):
            counts[order_index(cfg, seed)] += 1
    return counts


def _order_line(cfg: ArenaConfig, counts: Sequence[int]) -> str:
    if cfg.fixed_order:
        return "seat order: fixed (--fixed-order): each bot kept its neighbours in every set"
    if len(counts) == 1:
        return "seat order: one cyclic order (two bots)"
    if not any(counts):
        return f"seat orders: {len(counts)} cyclic orders, no whole set played yet"
    if len(set(counts)) == 1:
        return (
            f"seat orders: {len(counts)} cyclic orders, {counts[0]} set{'' if counts[0] == 1 else 's'} each (balanced)"
        )
    return (
        f"seat orders: {len(counts)} cyclic orders, sets per order {'/'.join(map(str, counts))}: NOT balanced "
        f"(whole blocks of {len(counts)} sets balance them)"
    )


def format_report(cfg: ArenaConfig, s: Summary, seconds: float, played: Sequence[MatchRow] = ()) -> str:
    """``seconds``: this run's wall time; ``played``: the matches, whose own play times (one
    process each, summed over all of them, resumed runs included) are reported beside it."""
    w = max(8, *(len(b) for b in cfg.bots))
    sizes = []
    for name in cfg.bots:
        spec = bot_spec(name, cfg)
        if spec.level == "hard":
            if spec.worker:
                size = (
                    f"the worker's worlds per play by cards held (13 down to 1: "
                    f"{'/'.join(map(str, WORKER_PLAY_WORLDS[:0:-1]))}), {spec.pass_iterations} per pass"
                )
            elif spec.iterations:
                size = f"{spec.iterations}/{spec.pass_iterations} worlds per play/pass"
            else:
                size = f"budget {cfg.hard_budget_ms} ms"
            sizes.append(f"{name} = Hard v{spec.version}, {size}")
    lines = [
        f"arena: bots={','.join(cfg.bots)} rules={cfg.rules} seed={cfg.seed} jobs={cfg.jobs} "
        + (f"plan: {cfg.sets} duplicate sets" if cfg.sets is not None else f"plan: about {cfg.hands} hands"),
        *(f"  {line}" for line in sizes),
        f"{s['match_count']} matches ({s['match_count'] // len(cfg.bots)} duplicate sets x {len(cfg.bots)} rotations), "
        f"{s['hand_plays']} hands played, {s['deals']} distinct deals ({s['full_deals']} played in every rotation), "
        f"{seconds:.0f} s this run" + _play_time(played),
        _order_line(cfg, s["sets_per_order"]),
        "",
        f"{'bot':<{w}} {'points/hand':>12} {'95% CI':>9} {'hands':>7} {'moons shot':>11} {'allowed':>8}"
        f" {'blocked':>8} {'match wins':>11}",
    ]
    order = sorted(s["bots"], key=lambda b: s["per_hand"][b][0])
    for b in order:
        m, ci = s["per_hand"][b]
        seat_matches = s["matches"][b]
        wins = s["wins"][b]
        pct = 100.0 * wins / seat_matches if seat_matches else 0.0
        lines.append(
            f"{b:<{w}} {m:12.3f} {'±' + format(ci, '.3f'):>9} {s['hands'][b]:>7} {s['shot'][b]:>11} "
            f"{s['allowed'][b]:>8} {s['blocked'][b]:>8} {wins:>6.1f} ({pct:4.1f}% of {seat_matches} seats)"
        )
    lines += [
        "",
        "moons per 1,000 seat-hands: shot; allowed (another seat shot); allowed to another bot that is "
        "Medium or better; hands with a moon plan (Hard's search chose one) and how many made it:",
    ]
    for b in order:
        n = max(s["hands"][b], 1)
        tried = s["attempted"][b]
        lines.append(
            f"  {b:<{w}} shot {1000 * s['shot'][b] / n:6.1f}   allowed {1000 * s['allowed'][b] / n:6.1f}   "
            f"allowed to Medium+ {1000 * s['allowed_strong'][b] / n:6.1f}   attempted {1000 * tried / n:6.1f}"
            + (f" (made {s['attempts_made'][b]} of {tried})" if tried else "")
        )
    lines += [
        "",
        "paired differences per duplicate deal (points/hand, A - B; negative: A better; 'no moon': only "
        "the deals without a moon in any rotation):",
    ]
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            key = (a, b) if (a, b) in s["pairs"] else (b, a)
            sign = 1 if key == (a, b) else -1
            m, ci, n = s["pairs"][key]
            lines.append(f"  {a:>{w}} - {b:<{w}} {_paired(sign * m, ci, n)}")
            if "pairs_calm" in s:
                m, ci, n = s["pairs_calm"][key]
                lines.append(f"  {'':>{w}}   {'no moon':<{w}} {_paired(sign * m, ci, n)}")
            if key in s["pairs_even"]:
                m, ci, n = s["pairs_even"][key]
                lines.append(f"  {'':>{w}}   {'balanced':<{w}} {_paired(sign * m, ci, n)}")
    if s["pairs_by_order"]:
        lines += [
            "",
            "the same differences in each cyclic seat order alone (the mean over that order's deals ± its "
            "95% interval; the spread is the seat-order effect plus each order's sampling noise, and Q with "
            "its p asks whether it is more than the noise (Cochran's Q, chi-square); 'balanced' above "
            "weights the orders equally, the first line of each pair weights them by their deals):",
        ]
        lines += [
            f"  order {o + 1}: {', '.join(names)} ({n} deals)"
            for o, (names, n) in enumerate(zip(run_orders(cfg), s["deals_per_order"]))
        ]
        for i, a in enumerate(order):
            for b in order[i + 1 :]:
                key = (a, b) if (a, b) in s["pairs_by_order"] else (b, a)
                sign = 1 if key == (a, b) else -1
                parts = s["pairs_by_order"][key]
                cells = "  ".join(
                    f"{sign * m:+6.2f} ±{ci:4.2f}" if math.isfinite(ci) else "    -   -  " for m, ci in parts
                )
                spread = ""
                if all(math.isfinite(ci) and ci > 0 for _, ci in parts):
                    q, p = spread_test(parts)
                    spread = f"   spread Q={q:.1f}, p={p:.2g}"
                lines.append(f"  {a:>{w}} - {b:<{w}} {cells}{spread}")
    return "\n".join(lines)


def spread_test(parts: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Do the per-order means differ by more than their noise? Cochran's Q (the squared
    deviations from the precision-weighted mean, over each part's variance) and its p-value
    on ``len(parts) - 1`` degrees of freedom (chi-square). ``parts``: (mean, 95% half-width)."""
    weights = [(1.96 / ci) ** 2 for _, ci in parts]
    mean = sum(w * m for w, (m, _) in zip(weights, parts)) / sum(weights)
    q = sum(w * (m - mean) ** 2 for w, (m, _) in zip(weights, parts))
    return q, _chi2_sf(q, len(parts) - 1)


def _chi2_sf(x: float, df: int) -> float:
    """P(chi-square with ``df`` degrees of freedom > x), for odd ``df`` (the orders of 2, 3 or 4
    bots give 0, 1 and 5): erfc plus the closed-form series."""
    if df % 2 != 1:
        raise ValueError(f"odd degrees of freedom only, not {df}")
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for k in range(1, (df - 1) // 2 + 1):
        total += term
        term *= x / (2 * k + 1)
    return total


def _paired(m: float, ci: float, n: int) -> str:
    sig = "significant" if abs(m) > ci else "not significant"
    p = math.erfc(abs(m) / (ci / 1.96) / math.sqrt(2)) if ci > 0 and math.isfinite(ci) else float("nan")
    return f"{m:+8.3f} ± {ci:.3f}  (n={n} deals; p={p:.2g}; {sig} at 95%)"


def cli() -> argparse.ArgumentParser:
    """The command line (``lab/tests/test_results.py`` parses lab/RESULTS.md's commands with it)."""
    parser = argparse.ArgumentParser(
        prog="python3 -m lab.arena", description=__doc__.splitlines()[0] if __doc__ else ""
    )
    add_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_from_args(cli().parse_args(argv))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bots",
        default="hard,medium,easy,random",
        type=bot_list,
        help="comma-separated: hard, hard-vN, hard@PLAY/PASS, medium, easy, random",
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=2000,
        help="start duplicate sets until about this many hands will have been played (a run ends "
        "at N or a block of sets above, never below: four bots take 6 sets, one per seat order)",
    )
    parser.add_argument(
        "--sets",
        type=int,
        default=None,
        help="play exactly this many duplicate sets (match seeds 0..SETS-1, each in every "
        "rotation) instead: a size fixed in advance (a multiple of the block of seat orders: "
        "6 with four bots, 2 with three)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="standard", choices=sorted(PRESETS))
    parser.add_argument(
        "--hard-iterations",
        type=int,
        default=None,
        help="Hard's sampled worlds per decision (default: what Chromium reaches in 250 ms, per version)",
    )
    parser.add_argument(
        "--hard-pass-iterations", type=int, default=None, help="worlds per pass (with --hard-iterations)"
    )
    parser.add_argument("--hard-budget-ms", type=float, default=None, help="search by time instead (not reproducible)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--fixed-order",
        action="store_true",
        help="play every set in the order given, so each bot keeps its neighbours (as runs did "
        "before 2026-12-04); by default consecutive sets take every cyclic order in turn",
    )
    parser.add_argument(
        "--save", default=None, help="JSON lines, one per match: a run resumes from it (same bots and seed)"
    )


def run_from_args(args: argparse.Namespace) -> int:
    bots = tuple(b.strip().lower() for b in args.bots.split(",") if b.strip())
    if args.sets is not None and args.sets < 1:
        print("--sets must be at least 1", file=sys.stderr)
        return 2
    cfg = ArenaConfig(
        bots,
        args.hands,
        args.seed,
        args.rules,
        args.hard_iterations or None,
        args.hard_budget_ms,
        max(1, args.jobs),
        args.hard_pass_iterations,
        args.sets,
        args.fixed_order,
    )
    for b in bots:
        try:
            bot_spec(b, cfg)
        except ValueError as exc:
            print(exc, file=sys.stderr)
            return 2
    if len(set(bots)) != len(bots) or not 2 <= len(bots) <= 4:
        print("give 2 to 4 different bots", file=sys.stderr)
        return 2
    if cfg.sets is not None and cfg.sets % order_block(cfg):
        print(
            f"note: --sets {cfg.sets} is not a multiple of {order_block(cfg)}: the seat orders will not be "
            "played equally often",
            file=sys.stderr,
        )
    start = time.perf_counter()
    saved: list[MatchRow] = []
    out = None
    if args.save:
        path = Path(args.save)
        if path.exists():
            saved = [row_from_json(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
            if any(r.seat_bots != seating(cfg, r.seed, r.rotation) for r in saved):
                print(
                    f"{path} holds matches of other bots or another seat order (--fixed-order): use another file",
                    file=sys.stderr,
                )
                return 2
        out = path.open("a", encoding="utf-8")

    def save(row: MatchRow) -> None:
        if out is not None:
            out.write(row_to_json(row) + "\n")
            out.flush()

    try:
        rows = run_arena(cfg, saved=saved, on_row=save)
    finally:
        if out is not None:
            out.close()
    print(format_report(cfg, summarize(cfg, rows), time.perf_counter() - start, played=rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
