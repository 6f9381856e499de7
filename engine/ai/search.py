"""The ``strong`` computer player: a few good moves played out to the end of the year.

For a turn in a political round it takes a few candidates (`candidates`: the ``basic``
player's best, the best for the year's end as the board stands, gold) and, over a few sampled
states consistent with its view (`determinize`), plays each candidate and then the rest of the
year's political rounds with every seat playing ``basic`` (`playout`); the candidate with the
best mean value at the end of the year wins. That value carries every voice the seat thinks
possible, weighted by the odds it knows, through relocation, demolition and feeding, and in
the last year ends in the final scores with the gold tie-break (`tally`), which is less noisy
than playing out one sampled voice. The same samples serve every candidate, so their
comparison is not blurred by the luck of the draw. Other decisions (castles, tied voice,
demolition, hunger) are taken by the ``basic`` player.

`search` is that search with the values it found, and a move of someone else's played out on the
same samples beside the candidates: the judgement of a move made (`engine.ai.judge`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from ..actions import Action
from ..state import GameState
from ..views import View
from .candidates import candidates
from .determinize import determinize
from .evaluate import FactsCache
from .heuristic import basic_move
from .playout import DECISION_COST, rollout

MIN_CANDIDATES, MAX_CANDIDATES = 2, 5
"""How many of the basic player's best moves are played out."""
MOVE_BUDGET = 7_000
"""Samples are added until the moves scored in play-outs reach this..."""
MOVE_LIMIT = 9_000
"""...and never when the next sample would take them past this. A count, not a clock, so
that a move is deterministic; it keeps a move's CPU time under 0.4 s at the 95th percentile
(see scripts/tournament.py)."""
MAX_SAMPLES = 8


def _decisions_left(view: View) -> int:
    """Turns left in this year's political rounds, for all seats (an estimate of play-out length)."""
    n = view.player_count
    done = (view.round - 1) * n + ((view.turn or 0) - view.start_player) % n
    return max(1, 5 * n - done) + 2


def candidates_for(view: View, moves: int) -> int:
    """How many candidates fit two samples: fewer when the play-outs are long and crowded."""
    per_candidate = _decisions_left(view) * (moves + DECISION_COST)
    return max(MIN_CANDIDATES, min(MAX_CANDIDATES, MOVE_LIMIT // (2 * per_candidate)))


@dataclass(frozen=True)
class Search:
    """What `search` found: the move the ``strong`` player makes, the first sampled state, and
    the mean value of every move played out over the same samples (empty when none was)."""

    best: Action
    first: GameState
    values: dict[Action, float] = field(default_factory=dict)
    samples: int = 0


def strong_move(view: View, moves: list[Action], rng: random.Random) -> Action:
    """The candidate with the best mean value at the end of the year, over sampled states."""
    return search(view, moves, rng).best


def search(
    view: View,
    moves: list[Action],
    rng: random.Random,
    *,
    also: Action | None = None,
    max_samples: int = MAX_SAMPLES,
) -> Search:
    """The ``strong`` player's search (`strong_move`), and the values of the moves it played out.

    ``also`` is played out too on every sample, but its work is not counted in the budget and
    it is never chosen: the strong move and the samples drawn are those without it (the same
    ``rng`` gives the same move), so its value is measured on the very states the candidates
    were (`engine.ai.judge`). ``max_samples`` (at most `MAX_SAMPLES`) stops the sampling sooner
    for a cheaper search; the samples it draws are the first ones of the full search.
    **Decision**: with ``also`` given, a lone candidate is played out as well (its value is
    wanted), though it is the move whatever the values.
    """
    seat = view.viewer
    assert seat is not None
    first = determinize(view, rng)
    if view.phase != "politics" or len(moves) == 1:
        return Search(basic_move(first, seat, moves, rng), first)
    cache = FactsCache()
    cands = candidates(first, seat, moves, candidates_for(view, len(moves)), cache)
    if len(cands) == 1 and also is None:
        return Search(cands[0], first)
    extra = [also] if also is not None and also not in cands else []
    totals = [0.0] * (len(cands) + len(extra))
    work = samples = 0
    state = first
    while samples == 0 or (work < MOVE_BUDGET and work + work // samples <= MOVE_LIMIT):
        data = state.model_dump()
        for k, a in enumerate(cands):
            value, done = rollout(data, seat, a, cache)
            totals[k] += value
            work += done
        for k, a in enumerate(extra, start=len(cands)):
            totals[k] += rollout(data, seat, a, cache)[0]
        samples += 1
        if samples >= min(MAX_SAMPLES, max_samples):
            break
        state = determinize(view, rng)  # drawn in the same order whatever the budget decides
    means = [t / samples for t in totals]
    values = dict(zip([*cands, *extra], means, strict=True))
    # A little trust in the candidates' order breaks near ties.
    scores = [means[k] - 0.01 * k for k in range(len(cands))]
    best = cands[max(range(len(cands)), key=scores.__getitem__)]
    return Search(best, first, values, samples)
