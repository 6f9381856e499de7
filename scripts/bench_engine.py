"""Engine benchmark: prints the time of whole random 5-player games and of single steps.

Usage: python scripts/bench_engine.py [GAMES]

A step is one `legal_moves` of the player to act plus one `play` of a random legal move.
Target on the project's machine: a whole game, with legal moves at every step, < 100 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(games: int) -> None:
    game_ms: list[float] = []
    step_us: list[float] = []
    steps_per_game: list[int] = []
    for seed in range(games):
        rng = random.Random(seed)
        start = time.perf_counter()
        g = Game.new([f"P{i}" for i in range(5)], seed=seed, setup="beginner" if seed % 2 else "experienced")
        steps = 0
        while not g.is_over:
            t0 = time.perf_counter()
            seat = g.pending_seats()[0]
            g.play(seat, rng.choice(g.legal_moves(seat)))
            step_us.append((time.perf_counter() - t0) * 1e6)
            steps += 1
        game_ms.append((time.perf_counter() - start) * 1000)
        steps_per_game.append(steps)
    print(f"{games} random 5-player games, {statistics.mean(steps_per_game):.0f} decisions each on average")
    print(
        f"whole game (legal moves at every step): median {statistics.median(game_ms):.1f} ms, "
        f"p95 {percentile(game_ms, 0.95):.1f} ms  (target < 100 ms)"
    )
    print(
        f"one legal_moves + play step: median {statistics.median(step_us):.0f} us, "
        f"p95 {percentile(step_us, 0.95):.0f} us"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
