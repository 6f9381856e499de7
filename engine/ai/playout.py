"""Play-outs of the ``strong`` player: a move, then the rest of the year's political rounds with
the ``basic`` player in every seat, valued once the year's voice, relocation and feeding are
weighed over the voice odds the seat knows (`tally.year_end_value`)."""

from __future__ import annotations

from typing import Any

from ..actions import Action
from ..components import ROUNDS
from ..decisions import resolve
from ..events import Events
from ..game import Game, Record
from ..state import GameState
from .evaluate import Evaluator, FactsCache
from .heuristic import basic_move
from .tally import year_end_value

DECISION_COST = 15
"""A play-out decision costs about as much as scoring this many moves (state, legal moves)."""


def game_of(state: GameState) -> Game:
    """A game around ``state`` (no record: it is not replayed)."""
    names = [p.name for p in state.players]
    return Game(state, Record(players=names, seed=0, setup=state.setup), [])


def is_last_turn(state: GameState) -> bool:
    return state.phase == "politics" and state.round == ROUNDS and state.turn_index == state.n_players - 1


def play_without_advancing(game: Game, seat: int, move: Action) -> None:
    """Carry out ``move`` and stop: no next turn, and after the year's last turn no tally."""
    action, decision = game.check(seat, move)
    game.state.pending = [d for d in game.state.pending if d is not decision]
    resolve(game.state, decision, action, Events())
    game._changed()


def after_move(data: dict[str, Any], seat: int, move: Action) -> GameState:
    """The state ``data`` once ``seat`` has made ``move`` (nothing else happens)."""
    game = game_of(GameState.model_validate(data))
    play_without_advancing(game, seat, move)
    return game.state


def rollout(data: dict[str, Any], seat: int, first: Action, cache: FactsCache) -> tuple[float, int]:
    """Play ``first`` and the rest of the political rounds with ``basic`` everywhere; the seat's
    value at the end of the year (relocation and feeding over the voice odds it knows, not one
    sampled voice), and the work done (moves scored)."""
    game = game_of(GameState.model_validate(data))
    who, move = seat, first
    work = 0
    while True:
        if is_last_turn(game.state):
            play_without_advancing(game, who, move)
            break
        game.play(who, move)
        if game.state.phase != "politics" or game.is_over:
            # A skipped (hungry) last turn went on to the tally by itself.
            return Evaluator.of(game.state, seat, cache).value(), work
        who = game.pending_seats()[0]
        legal = game.legal_moves(who)
        work += len(legal) + DECISION_COST
        move = basic_move(game.state, who, legal, cache=cache)
    return year_end_value(game.state, seat, cache), work
