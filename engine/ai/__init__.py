"""Computer players: choose a move for a seat from what that seat may see.

>>> from engine import Game
>>> g = Game.new(["Ann", "Bob"], seed=7)
>>> seat = g.pending_seats()[0]
>>> choose(g, seat, "random", seed=1) in g.legal_moves(seat)
True
"""

from __future__ import annotations

import hashlib
import random

from ..actions import Action
from ..game import Game
from .determinize import determinize
from .heuristic import basic_move
from .search import strong_move

LEVELS: tuple[str, ...] = ("random", "basic", "strong")


def position_rng(game: Game, seat: int, seed: int) -> random.Random:
    """A generator seeded by ``seed`` and the seat's view (so never by hidden information)."""
    digest = hashlib.sha256(game.view(seat).model_dump_json().encode()).hexdigest()
    return random.Random(f"{seed}:{seat}:{digest}")


def choose(game: Game, seat: int, level: str = "basic", *, seed: int = 0) -> Action:
    """A legal move for ``seat`` at ``level`` (one of `LEVELS`), using only the seat's view.

    Deterministic: the same view, level and seed give the same move. Raises ValueError when
    the seat has nothing to decide or the level is unknown.
    """
    if level not in LEVELS:
        raise ValueError(f"Unknown computer level {level!r}; choose one of {', '.join(LEVELS)}.")
    moves = game.legal_moves(seat)
    if not moves:
        raise ValueError(f"Seat {seat} has nothing to decide now.")
    if len(moves) == 1:
        return moves[0]
    rng = position_rng(game, seat, seed)
    if level == "random":
        return rng.choice(moves)
    view = game.view(seat)
    if level == "strong":
        return strong_move(view, moves, rng)
    return basic_move(determinize(view, rng), seat, moves, rng)


__all__ = ["LEVELS", "choose"]
