"""The ``strong`` computer player: the best few moves played out to the end of the rounds.

For a turn in a political round it takes the ``basic`` player's best candidates and, over a
few sampled states consistent with its view (`determinize`), plays each candidate and then
the rest of the year's political rounds with every seat playing ``basic``; the candidate
with the best mean evaluation just before the tally wins. The evaluation weighs the
relocation and feeding to come over the voice odds the seat knows, which is less noisy than
playing out one sampled voice. The same samples serve every candidate, so their comparison
is not blurred by the luck of the draw. Other decisions (castles, tied voice, demolition,
hunger) are taken by the ``basic`` player.
"""

from __future__ import annotations

import random
from typing import Any

from ..actions import Action
from ..components import ROUNDS
from ..decisions import resolve
from ..events import Events
from ..game import Game, Record
from ..state import GameState
from ..views import View
from .determinize import determinize
from .evaluate import Evaluator
from .heuristic import basic_move, ranked

MIN_CANDIDATES, MAX_CANDIDATES = 2, 5
"""How many of the basic player's best moves are played out."""
MOVE_BUDGET = 7_000
"""Samples are added until the moves scored in play-outs reach this..."""
MOVE_LIMIT = 9_000
"""...and never when the next sample would take them past this. A count, not a clock, so
that a move is deterministic; at about 0.15 ms a scored move it keeps a move under 2 s on a
2-core machine (see scripts/tournament.py)."""
DECISION_COST = 15
"""A play-out decision costs about as much as scoring this many moves (state, legal moves)."""
MAX_SAMPLES = 8
WIN_VP = 10.0
"""Bonus of a won game over its score difference, when a play-out reaches the end."""


def _game_of(state: GameState) -> Game:
    names = [p.name for p in state.players]
    return Game(state, Record(players=names, seed=0, setup=state.setup), [])


def _rollout(data: dict[str, Any], seat: int, first: Action) -> tuple[float, int]:
    """Play ``first`` and the rest of the political rounds with ``basic`` everywhere; the seat's
    value just before the tally (its expected relocation and feeding, not one sampled voice),
    and the work done (moves scored)."""
    game = _game_of(GameState.model_validate(data))
    who, move = seat, first
    work = 0
    while True:
        if _is_last_turn(game.state):
            _play_without_advancing(game, who, move)
            break
        game.play(who, move)
        if game.state.phase != "politics" or game.is_over:
            break  # a skipped (hungry) last turn went on to the tally by itself
        who = game.pending_seats()[0]
        legal = game.legal_moves(who)
        work += len(legal) + DECISION_COST
        move = basic_move(game.state, who, legal)
    if game.is_over:
        return _final_value(game.state, seat), work
    return Evaluator.of(game.state, seat).value(), work


def _is_last_turn(state: GameState) -> bool:
    return state.phase == "politics" and state.round == ROUNDS and state.turn_index == state.n_players - 1


def _play_without_advancing(game: Game, seat: int, move: Action) -> None:
    """The year's last turn, stopping before the tally reveals the (sampled) voice."""
    action, decision = game.check(seat, move)
    game.state.pending = [d for d in game.state.pending if d is not decision]
    resolve(game.state, decision, action, Events())


def _final_value(state: GameState, seat: int) -> float:
    scores = state.scores or []
    others = [v for s, v in enumerate(scores) if s != seat]
    best_other = max(others) if others else 0
    won = WIN_VP * (1.0 / len(state.winners or [seat]) if seat in (state.winners or []) else 0.0)
    return scores[seat] - best_other + won


def _decisions_left(view: View) -> int:
    """Turns left in this year's political rounds, for all seats (an estimate of play-out length)."""
    n = view.player_count
    done = (view.round - 1) * n + ((view.turn or 0) - view.start_player) % n
    return max(1, 5 * n - done) + 2


def candidates_for(view: View, moves: int) -> int:
    """How many candidates fit two samples: fewer when the play-outs are long and crowded."""
    per_candidate = _decisions_left(view) * (moves + DECISION_COST)
    return max(MIN_CANDIDATES, min(MAX_CANDIDATES, MOVE_LIMIT // (2 * per_candidate)))


def strong_move(view: View, moves: list[Action], rng: random.Random) -> Action:
    """The candidate with the best mean value before the tally, over sampled states."""
    seat = view.viewer
    assert seat is not None
    first = determinize(view, rng)
    if view.phase != "politics" or len(moves) == 1:
        return basic_move(first, seat, moves, rng)
    cands = [a for _, a in ranked(first, seat, moves)[: candidates_for(view, len(moves))]]
    if len(cands) == 1:
        return cands[0]
    totals = [0.0] * len(cands)
    work = samples = 0
    state = first
    while samples == 0 or (work < MOVE_BUDGET and work + work // samples <= MOVE_LIMIT):
        data = state.model_dump()
        for k, a in enumerate(cands):
            value, done = _rollout(data, seat, a)
            totals[k] += value
            work += done
        samples += 1
        if samples == MAX_SAMPLES:
            break
        state = determinize(view, rng)  # drawn in the same order whatever the budget decides
    # A little trust in the heuristic order breaks near ties.
    scores = [t / samples - 0.01 * k for k, t in enumerate(totals)]
    return cands[max(range(len(cands)), key=scores.__getitem__)]
