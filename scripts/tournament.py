"""The computer levels' ladder: round-robin games, ratings with intervals, CPU time per move.

Usage: python scripts/tournament.py [--games N] [--seed FIRST] [--workers W] [--table LEVELS ...]

By default every pair of levels plays 2-player games (strong–basic, strong–random,
basic–random) and every level plays 4-player tables with the other two (one level takes two
seats: strong×2–basic–random, strong–basic×2–random, strong–basic–random×2). Each table plays
``--games`` games on the seeds ``--seed``, ``--seed``+1, … (the same deals on every table; the
default seeds start at 1 000 000, far from any seed the players were tuned on); seats rotate
from game to game and setups alternate beginner / experienced. ``--table`` plays other
tables instead (e.g. ``--table strong,basic strong,basic,basic,basic``).

Printed:

- **Ratings**: OpenSkill's Plackett–Luce model (the one the bot rates players with,
  `bot.service.ratings`) over every game, each game a free-for-all ranked by score, then gold,
  equal score and gold sharing a place; a level with several seats at a table plays each with
  its rating and moves by the average of their updates. The games are rated in the order
  played; the interval is the 2.5–97.5 percentile of ``mu`` over 200 bootstrap resamples of
  the games (each rated in a random order), so it holds both the luck of the deals and
  OpenSkill's dependence on order.
- **Tables**: each level's share of the wins (a win shared by k winners counts 1/k; a tie on
  score goes to the most gold, rules §9) with a Wilson 95% interval, against the share of a
  level of equal strength, and its mean score; and how many games the gold tie-break decided.
- **CPU time per move** for each level (``time.process_time`` around `engine.ai.choose`, in the
  worker process that decides): median, p95 and max over the decisions that had more than
  one legal move.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import PlackettLuce

from engine import Game
from engine.ai import LEVELS, choose
from engine.state import SetupKind

FIRST_SEED = 1_000_000
BOOTSTRAP = 200
MODEL = PlackettLuce()
Table = tuple[str, ...]


def round_robin(levels: Sequence[str] = LEVELS) -> list[Table]:
    """Every pair of levels at 2 players, and every level doubled at a 4-player table of all
    (the strongest first)."""
    order = sorted(levels, key=lambda lv: -LEVELS.index(lv))
    pairs = [tuple(p) for p in combinations(order, 2)]
    fours = [tuple(sorted([*order, extra], key=order.index)) for extra in order]
    return pairs + fours


@dataclass
class Result:
    """One game: the level of each seat, the scores and gold, the winners, the CPU times."""

    table: Table
    seed: int
    seats: list[str]
    scores: list[int]
    gold: list[int]
    winners: list[int]
    times: dict[str, list[float]] = field(default_factory=dict)


def play(table: Table, index: int, seed: int) -> Result:
    """Game ``index`` of a table on ``seed``: seat s plays slot (s + index) mod n of the table."""
    n = len(table)
    seats = [table[(s + index) % n] for s in range(n)]
    setup: SetupKind = "beginner" if index % 2 == 0 else "experienced"
    game = Game.new([f"P{s}" for s in range(n)], seed=seed, setup=setup)
    times: dict[str, list[float]] = defaultdict(list)
    while not game.is_over:
        seat = game.pending_seats()[0]
        choice = len(game.legal_moves(seat)) > 1
        start = time.process_time()
        move = choose(game, seat, seats[seat], seed=len(game.record().moves))
        took = time.process_time() - start
        if choice:
            times[seats[seat]].append(took)
        game.play(seat, move)
    return Result(
        table, seed, seats, list(game.scores or []), [p.gold for p in game.state.players],
        list(game.winners or []), dict(times),
    )  # fmt: skip


# --- statistics ---------------------------------------------------------------------------


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def places(r: Result) -> list[int]:
    """Each seat's place: higher score first, then more gold; equal both share a place."""
    keys = [(-s, -g) for s, g in zip(r.scores, r.gold, strict=True)]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def rate(results: Sequence[Result], levels: Sequence[str]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) of every level after rating the games in the given order."""
    ratings = {lv: (MODEL.mu, MODEL.sigma) for lv in levels}
    for r in results:
        teams = [[MODEL.rating(mu=ratings[lv][0], sigma=ratings[lv][1])] for lv in r.seats]
        rated = MODEL.rate(teams, ranks=[float(p) for p in places(r)])
        moved: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for lv, [new] in zip(r.seats, rated, strict=True):
            moved[lv].append((new.mu, new.sigma))
        for lv, updates in moved.items():
            ratings[lv] = (statistics.fmean(u[0] for u in updates), statistics.fmean(u[1] for u in updates))
    return ratings


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --- printing -----------------------------------------------------------------------------


def print_ratings(results: list[Result], levels: list[str]) -> None:
    point = rate(results, levels)
    rng = random.Random(0)
    samples: dict[str, list[float]] = defaultdict(list)
    for _ in range(BOOTSTRAP):
        resample = [results[rng.randrange(len(results))] for _ in results]
        for lv, (mu, _) in rate(resample, levels).items():
            samples[lv].append(mu)
    games = {lv: sum(lv in r.seats for r in results) for lv in levels}
    print(f"\nRatings (OpenSkill Plackett–Luce, start mu {MODEL.mu:.1f}; 95% bootstrap interval of mu):")
    for lv in sorted(levels, key=lambda lv: -point[lv][0]):
        mu, sigma = point[lv]
        lo, hi = pct(samples[lv], 0.025), pct(samples[lv], 0.975)
        print(f"  {lv:>7}: mu {mu:5.1f}  [{lo:5.1f} – {hi:5.1f}]  sigma {sigma:4.2f}  ({games[lv]} games)")


def print_table(table: Table, results: list[Result]) -> None:
    n, games = len(table), len(results)
    print(f"\n{' – '.join(table)} ({n} players, {games} games):")
    for lv in dict.fromkeys(table):
        seats = table.count(lv)
        won = sum(1 / len(r.winners) for r in results for w in r.winners if r.seats[w] == lv)
        lo, hi = wilson(won, games)
        mean = statistics.fmean(s for r in results for s, x in zip(r.scores, r.seats, strict=True) if x == lv)
        name = f"{lv} ×{seats}" if seats > 1 else lv
        print(f"  {name:>9}: wins {won:5.1f}/{games} = {won / games:6.1%} (95% CI {lo:.0%}–{hi:.0%}; "
              f"equal strength {seats / n:.0%}), mean score {mean:.1f}")  # fmt: skip
    level = [r for r in results if sum(s == max(r.scores) for s in r.scores) > 1]
    if level:
        won_on_gold = {lv: sum(1 / len(r.winners) for r in level for w in r.winners if r.seats[w] == lv)
                       for lv in dict.fromkeys(table)}  # fmt: skip
        who = ", ".join(f"{lv} {w:g}" for lv, w in won_on_gold.items())
        print(f"  {len(level)} games ended level on score and went to the gold tie-break (won: {who})")


def print_times(results: list[Result], levels: list[str]) -> None:
    print("\nCPU time per move (time.process_time in the deciding process; decisions with a choice):")
    for lv in levels:
        ts = [t for r in results for t in r.times.get(lv, [])]
        if ts:
            med, p95, top = (1000 * x for x in (statistics.median(ts), pct(ts, 0.95), max(ts)))
            print(f"  {lv:>7}: p50 {med:6.1f} ms, p95 {p95:6.1f} ms, max {top:6.1f} ms  ({len(ts)} moves)")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20, help="games per table (default: %(default)s)")
    p.add_argument(
        "--seed", "--seeds", type=int, default=FIRST_SEED, help="the first game seed (default: %(default)s)"
    )
    p.add_argument("--workers", type=int, default=2, help="processes playing at once (default: %(default)s)")
    p.add_argument("--table", nargs="*", default=None, metavar="LEVELS",
                   help="comma-separated levels, one per seat (default: the round robin)")  # fmt: skip
    args = p.parse_args(argv)
    tables = [tuple(t.split(",")) for t in args.table] if args.table else round_robin()
    for table in tables:
        if not 2 <= len(table) <= 5 or any(lv not in LEVELS for lv in table):
            p.error(f"a table is 2–5 of {', '.join(LEVELS)}, not {','.join(table)}")
    jobs = [(t, k, args.seed + k) for t in tables for k in range(args.games)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        results = list(pool.map(play, *zip(*jobs, strict=True)))
    levels = [lv for lv in LEVELS if any(lv in t for t in tables)]
    seeds = f"seeds {args.seed}–{args.seed + args.games - 1}"
    print(f"{len(results)} games on {len(tables)} tables ({seeds}), {time.perf_counter() - start:.0f} s")
    print_ratings(results, levels)
    for table in tables:
        print_table(table, [r for r in results if r.table == table])
    print_times(results, levels)


if __name__ == "__main__":
    main()
