"""A hint for a player: the move the ``strong`` computer player would make, and one line on why.

The move is `choose(game, seat, "strong")`, which sees only the seat's view. The reason is
made of what the move does (`engine.describe`) and of what the seat may know: the public
board, the seat's own gold and food, and of the voice only the face-up card, the cards the
seat polled and a revealed voice — never another seat's polls, a face-down card it has not
seen, the politics pile or the seed.

>>> from engine import Game
>>> g = Game.new(["Ann", "Bob"], seed=7)
>>> h = hint(g, 1)
>>> h.move in g.legal_moves(1) and h.text().startswith("💡 ")
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..describe import describe
from ..game import Game
from ..words import ENGLISH, Words
from . import choose
from .reasons import reason

LEVEL = "strong"


@dataclass(frozen=True)
class Hint:
    """The suggested move, what it does (`describe`) and why, in one line each."""

    move: Action
    what: str
    why: str

    def text(self) -> str:
        """Two lines: ``💡 <move> — <what it does>`` and the reason."""
        return f"💡 {self.what}\n{self.why[:1].upper()}{self.why[1:]}."


def hint(game: Game, seat: int, *, seed: int = 0, words: Words = ENGLISH) -> Hint:
    """The ``strong`` player's move for ``seat`` and why (in ``words``' language); ValueError when
    nothing is asked of it."""
    moves = game.legal_moves(seat)
    if not moves:
        raise ValueError(f"Seat {seat} has nothing to decide now.")
    move = choose(game, seat, LEVEL, seed=seed)
    view = game.view(seat)
    if len(moves) == 1:
        why = words.t("it is the only move you can make")
    else:
        why = reason(game.state, view, seat, move, words)
        why = why or words.t("the computer player rates it best of your moves")
    return Hint(move, describe(game, seat, move, words), why)
