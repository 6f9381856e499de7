"""Engine benchmark: prints the time of whole random 5-player games and of single steps, and
an engine step beside a python-chess step measured in the same process.

Usage: python scripts/bench_engine.py [GAMES] [ROUNDS]

A step is one `legal_moves` of the player to act plus one `play` of a random legal move.
Target on the project's machine: a whole game, with legal moves at every step, < 100 ms.

The comparison (issue 31: "the engine at python-chess's pace", target ≤ 2×) times, in CPU time
(`time.process_time_ns`, so that other processes on a noisy machine do not count), an engine
step against a python-chess step (`list(board.legal_moves)` + `board.push` of a random one) in
random games of each, interleaved: ROUNDS rounds of a block of engine steps then a block of
chess steps, so that both see the same state of the machine. Only the steps are timed: setting a
game up (`Game.new`, `chess.Board()`) and checking whether a chess game is over are not. A chess
game ends with no legal move, insufficient material or the seventy-five-move rule. python-chess
is a dev dependency (``pip install -e .[dev]``); without it the comparison is skipped.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
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


BLOCK = 500
"""Steps of one kind timed in a row before the other kind's turn."""


def engine_steps() -> Iterator[Callable[[], object]]:
    """Endless engine steps of random 5-player games (a new game when one is over)."""
    seed = 10_000
    while True:
        rng = random.Random(seed)
        g = Game.new([f"P{i}" for i in range(5)], seed=seed, setup="beginner" if seed % 2 else "experienced")
        while not g.is_over:

            def step(g: Game = g, rng: random.Random = rng) -> object:
                seat = g.pending_seats()[0]
                return g.play(seat, rng.choice(g.legal_moves(seat)))

            yield step
        seed += 1


def chess_steps(chess: object) -> Iterator[Callable[[], object]]:
    """Endless python-chess steps of random games (legal moves + push)."""
    rng = random.Random(0)
    while True:
        board = chess.Board()  # type: ignore[attr-defined]
        while board.halfmove_clock < 150 and not board.is_insufficient_material():
            if not any(True for _ in board.legal_moves):
                break

            def step(board: object = board) -> object:
                moves = list(board.legal_moves)  # type: ignore[attr-defined]
                return board.push(rng.choice(moves))  # type: ignore[attr-defined]

            yield step


def timed(steps: Iterator[Callable[[], object]], count: int, into: list[int]) -> int:
    """CPU nanoseconds spent in the next ``count`` steps (nothing else counted); each step's
    time is added to ``into``."""
    clock = time.process_time_ns
    total = 0
    for _ in range(count):
        step = next(steps)
        t0 = clock()
        step()
        spent = clock() - t0
        into.append(spent)
        total += spent
    return total


def versus_chess(rounds: int) -> None:
    """An engine step beside a python-chess step, interleaved, in CPU time."""
    try:
        import chess
    except ImportError:
        print("python-chess is not installed (pip install chess): no comparison")
        return
    ours, theirs = engine_steps(), chess_steps(chess)
    timed(ours, BLOCK, []), timed(theirs, BLOCK, [])  # warm up
    ratios: list[float] = []
    engine_ns: list[int] = []
    chess_ns: list[int] = []
    for _ in range(rounds):
        ratios.append(timed(ours, BLOCK, engine_ns) / timed(theirs, BLOCK, chess_ns))
    engine_us, chess_us = statistics.mean(engine_ns) / 1000, statistics.mean(chess_ns) / 1000
    print(
        f"CPU time per step, {rounds} x {BLOCK} steps each, interleaved: engine {engine_us:.1f} us, "
        f"python-chess {chess_us:.1f} us (legal moves + push): {engine_us / chess_us:.2f}x "
        f"(per round: median {statistics.median(ratios):.2f}x, {min(ratios):.2f}-{max(ratios):.2f}x; "
        f"median step: engine {statistics.median(engine_ns) / 1000:.1f} us, "
        f"python-chess {statistics.median(chess_ns) / 1000:.1f} us)  (target <= 2x)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
    versus_chess(int(sys.argv[2]) if len(sys.argv) > 2 else 20)
