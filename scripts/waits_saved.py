"""How much waiting answers ahead save (issue 32): the decisions asked outside a turn in whole games
of computer players — each one a wait on a player who has set no standing answer
(`bot.service.ahead`), and none for one who has.

Usage: python scripts/waits_saved.py [GAMES] [LEVEL]

Plays GAMES seeded games (2 to 5 players, both setups, all seats at LEVEL: ``basic`` by default,
``random`` for careless play) and prints, per game, how many decisions outside a turn were asked
(``prefer``, ``first``, ``starve``, ``demolish``): the mean, the range, and each kind's share.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.service.ahead import KINDS
from engine import Game
from engine.ai import choose


def asked_outside(seed: int, level: str) -> Counter[str]:
    """The decisions outside a turn that one seeded game asked, by kind (each answered once)."""
    players = 2 + seed % 4
    game = Game.new(
        [f"P{i}" for i in range(players)], seed=seed, setup="beginner" if seed % 2 else "experienced"
    )
    asked: Counter[str] = Counter()
    while not game.is_over:
        seat = game.pending_seats()[0]
        kind = game.pending_decisions(seat)[0].kind
        if kind in KINDS:
            asked[kind] += 1
        game.play(seat, choose(game, seat, level, seed=seed))
    return asked


def main(games: int, level: str) -> None:
    per_game = [asked_outside(seed, level) for seed in range(games)]
    totals = [sum(c.values()) for c in per_game]
    kinds = sum(per_game, Counter())
    shares = ", ".join(f"{k} {kinds[k] / len(per_game):.1f}" for k in KINDS)
    print(f"{games} games of {level} computer players (2-5 players, both setups)")
    print(
        f"decisions asked outside a turn per game: mean {statistics.mean(totals):.1f}, "
        f"min {min(totals)}, max {max(totals)}  ({shares} per game)"
    )
    print("each is a wait on its player unless they answer ahead (/citta me ahead)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20, sys.argv[2] if len(sys.argv) > 2 else "basic")
