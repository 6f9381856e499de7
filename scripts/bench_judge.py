"""Judgement benchmark: the CPU time of the strong player's view of a move (`engine.ai.judge`), on
request and for a whole game's pass, for the review's "why" (issue 33, point 2).

Usage: python scripts/bench_judge.py [POSITIONS] [SEED]

Plays one seeded game of ``basic`` players for each of 2, 3, 4 and 5 players to its end, then:

- **one judgement**: ``POSITIONS`` positions (default 40) drawn at random from those games' moves
  that had a choice, a quarter from each game; ``time.process_time`` around `judge` of the move
  played there, with the full search (what a review step asks for on request) and with the
  whole-game pass's budget (`judge.GAME_SAMPLES`). Median, p95 and max, over every position and
  over the political turns alone (the others are the ``basic`` player's and cost little); and
  how far the cheaper budget's judgement is from the full one (the same best move, the gap
  between their differences).
- **a whole game's pass**: `judge_game` of each game at its default budget: the CPU time, the
  moves, the time per move, and how many moves were judged with a difference.

The target (issue 33): one judgement on request well under 2 s of CPU, so that a review step
answers within Discord's 3 s; the whole-game pass runs in a background lane.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game
from engine.ai import choose
from engine.ai.judge import GAME_SAMPLES, decisive, judge, judge_game
from engine.ai.search import MAX_SAMPLES

PLAYERS = (2, 3, 4, 5)


def finished_game(players: int, seed: int) -> Game:
    """A seeded game of ``basic`` players played to its end."""
    g = Game.new(
        [f"P{k}" for k in range(players)], seed=seed, setup="beginner" if seed % 2 else "experienced"
    )
    while not g.is_over:
        seat = g.pending_seats()[0]
        g.play(seat, choose(g, seat, "basic", seed=seed))
    return g


def positions(game: Game, count: int, rng: random.Random) -> list[tuple[Game, int, str]]:
    """``count`` positions of ``game`` before a move that had a choice: (a copy, seat, move)."""
    record = game.record()
    found = []
    for k, (g, _events) in enumerate(Game.walk(record)):
        if k == len(record.moves):
            break
        seat, text = record.moves[k]
        if len(g.legal_moves(seat)) > 1:
            found.append((Game.restore(g.snapshot(), g.record()), seat, text))
    return rng.sample(found, min(count, len(found)))


def _summary(times: list[float]) -> str:
    if not times:
        return "none"
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"p50 {statistics.median(ordered):.3f} s, p95 {p95:.3f} s, max {ordered[-1]:.3f} s "
        f"({len(ordered)} positions)"
    )


def main(count: int, seed: int) -> None:
    rng = random.Random(seed)
    games = {n: finished_game(n, seed + n) for n in PLAYERS}
    for n, g in games.items():
        print(f"{n} players: {len(g.record().moves)} moves, scores {g.scores}")
    timed: dict[str, list[float]] = {"full": [], "full politics": [], "pass": [], "pass politics": []}
    gaps: list[float] = []
    same = 0
    for g in games.values():
        for game, seat, move in positions(g, count // len(PLAYERS), rng):
            politics = game.state.phase == "politics"
            judged = []
            for name, samples in (("full", MAX_SAMPLES), ("pass", GAME_SAMPLES)):
                cpu = time.process_time()
                judged.append(judge(game, seat, move, seed=seed, samples=samples))
                cpu = time.process_time() - cpu
                timed[name].append(cpu)
                if politics:
                    timed[f"{name} politics"].append(cpu)
            full, cheap = judged
            if full is not None and cheap is not None and full.difference is not None:
                assert cheap.difference is not None
                gaps.append(abs(full.difference - cheap.difference))
                same += full.best == cheap.best
    print("\nCPU time of one judgement (time.process_time):")
    print(f"  on request (full search), every move:   {_summary(timed['full'])}")
    print(f"  on request (full search), political turns: {_summary(timed['full politics'])}")
    print(f"  whole-game budget ({GAME_SAMPLES} samples), every move: {_summary(timed['pass'])}")
    print(f"  whole-game budget, political turns:      {_summary(timed['pass politics'])}")
    if gaps:
        print(
            f"  the whole-game budget against the full search, political turns: the same best move in "
            f"{same} of {len(gaps)}; difference off by {statistics.mean(gaps):.2f} points on average, "
            f"{max(gaps):.2f} at most"
        )
    print(f"\nCPU time of a whole game's pass (judge_game, {GAME_SAMPLES} samples a move):")
    for n, g in games.items():
        cpu = time.process_time()
        judged = judge_game(g.record(), seed=seed)
        cpu = time.process_time() - cpu
        moves = len(judged)
        valued = sum(1 for j in judged if j is not None and j.difference is not None)
        top = [f"{k}: {judged[k].difference:.1f}" for k in decisive(judged)]  # type: ignore[union-attr]
        print(
            f"  {n} players: {cpu:.1f} s for {moves} moves ({cpu / moves:.3f} s a move; "
            f"{valued} with a difference); decisive moves (index: points) {', '.join(top) or 'none'}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40, int(sys.argv[2]) if len(sys.argv) > 2 else 1)
