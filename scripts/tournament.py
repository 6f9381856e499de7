"""Tournament: computer levels play many seeded games; prints win rates and the strong level's speed.

Usage: python scripts/tournament.py [--games N] [--workers W] [--match strong,basic ...]

Each match is a list of levels, one per seat; seats rotate from game to game so that every
level plays every position, and setups alternate beginner / experienced. A shared win (a
tie on points and on gold) counts as 1/k of a win for each of the k winners. Win rates are
printed with Wilson 95% intervals; "share" is 1/players, what a level of equal strength
would win. The time per move of every non-random level is printed (median, p95, max).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game
from engine.ai import choose

DEFAULT_MATCHES = ("basic,random", "strong,basic", "strong,basic,basic,basic")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(levels: list[str], seed: int) -> tuple[list[float], list[int], dict[str, list[float]]]:
    """One game; returns each level-slot's win share and score, and move times per level."""
    n = len(levels)
    shift = seed % n
    seats = [levels[(s + shift) % n] for s in range(n)]  # seat s plays slot (s + shift) % n
    game = Game.new(
        [f"P{s}" for s in range(n)], seed=seed, setup="beginner" if seed % 2 == 0 else "experienced"
    )
    times: dict[str, list[float]] = {}
    while not game.is_over:
        seat = game.pending_seats()[0]
        start = time.perf_counter()
        move = choose(game, seat, seats[seat], seed=seed * 7 + seat)
        times.setdefault(seats[seat], []).append(time.perf_counter() - start)
        game.play(seat, move)
    wins, scores = [0.0] * n, [0] * n
    winners = game.winners or []
    for seat in range(n):
        slot = (seat + shift) % n
        scores[slot] = (game.scores or [0] * n)[seat]
        if seat in winners:
            wins[slot] = 1 / len(winners)
    return wins, scores, times


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_match(levels: list[str], games: int, workers: int, first_seed: int) -> None:
    n = len(levels)
    wins, scores = [0.0] * n, [0] * n
    times: dict[str, list[float]] = {}
    start = time.perf_counter()
    seeds = range(first_seed, first_seed + games)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for w, s, t in pool.map(play, [levels] * games, seeds):
            for k in range(n):
                wins[k] += w[k]
                scores[k] += s[k]
            for level, ts in t.items():
                times.setdefault(level, []).extend(ts)
    took = time.perf_counter() - start
    print(f"\n{' vs '.join(levels)}: {games} games, {n} players (share {1 / n:.0%}), {took:.0f} s")
    seen: set[str] = set()
    for level in levels:
        if level in seen:
            continue
        seen.add(level)
        slots = [j for j, lv in enumerate(levels) if lv == level]
        won = sum(wins[j] for j in slots) / len(slots)
        lo, hi = wilson(won, games)
        mean = sum(scores[j] for j in slots) / len(slots) / games
        print(f"  {level:>7}: wins {won:5.1f}/{games} = {won / games:6.1%}  (95% CI {lo:.1%}–{hi:.1%}), "
              f"mean score {mean:.1f}")  # fmt: skip
    for level, ts in sorted(times.items()):
        if level != "random":
            med, p95, top = (1000 * x for x in (statistics.median(ts), pct(ts, 0.95), max(ts)))
            print(f"  {level:>7} time per move: median {med:.0f} ms, p95 {p95:.0f} ms, max {top:.0f} ms "
                  f"({len(ts)} moves)")  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--seed", type=int, default=1000, help="first game seed")
    p.add_argument(
        "--match", nargs="*", default=list(DEFAULT_MATCHES), help="comma-separated levels per seat"
    )
    args = p.parse_args()
    for match in args.match:
        run_match(match.split(","), args.games, args.workers, args.seed)


if __name__ == "__main__":
    main()
