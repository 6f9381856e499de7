"""Why, at each move: the ``strong`` computer player's view of a move that was made (issue 33).

`judge` looks at the position before a move from the mover's own view only (`Game.view`, and
states sampled consistent with it by `determinize`: never the real face-down cards, the pile
order, another seat's polls or the seed). It runs the ``strong`` player's search
(`search.search`) with the move played out beside its candidates, on the same sampled states,
and reports the move the strong player makes (`Judgement.best`), the value it expects of that
move and of the move played, and their difference. Measured on the same samples, the
difference is the moves', not the luck of the draw.

**The unit** is the strong player's own: victory points relative to the rivals, as it values a
position at the end of this year's political rounds (the rest of them played by the ``basic``
player in every seat), once this year's voice — every voice the mover thinks possible, by the
odds it knows —, relocation, demolition and feeding are weighed (`tally.year_end_value`):

- in the last year, the final scores: the mover's points less the best rival's, plus
  `tally.WIN_VP` (10) for a win (10/k for a win shared by k; gold breaks a tie on points, rules
  §9). A difference near 10 is a win given away.
- in years 1–5, the worth of the position the next year starts with, in victory points
  (`evaluate.Evaluator`: citizens, services' arches, room to grow, food, gold, quarries), less
  the mean of the rivals'.

So a difference of 2 reads "the computer expects this move to leave you about 2 points worse
off against your rivals than its own".

**Decisions**:

- A move that was the only one possible is not judged (None).
- Decisions outside the political rounds (a castle at setup, which service or city goes first
  in relocation, a demolition, a hunger) are the ``basic`` player's in the strong player too
  (`search`): their `Judgement` names basic's move, without values or difference. They are
  valued by the static evaluation only, not by play-outs, so a difference would be in
  another measure than the turns'.
- The difference may be below 0: the move played was not among the strong player's
  candidates and did better in the play-outs, or it was one within the candidates' tie-break
  (0.01 a place).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..game import Game, Record
from ..words import ENGLISH, Words
from . import position_rng
from .reasons import reason
from .search import MAX_SAMPLES, search

GAME_SAMPLES = 2
"""Samples per judgement in `judge_game`'s whole-game pass (the full search draws up to
`search.MAX_SAMPLES`): the first two samples of the full search, at about half its CPU at the
median (scripts/bench_judge.py: the same best move in 7 of 8 political turns, the difference
0.3 points off on average)."""
DECISIVE_LEAST = 0.5
"""`decisive` leaves out differences smaller than this (points): no moment decided a game by less."""


@dataclass(frozen=True)
class Judgement:
    """The strong player's view of ``seat``'s move ``played``, before it was made."""

    seat: int
    played: Action
    best: Action
    """The move the strong player makes there."""
    best_value: float | None
    """What it expects of ``best``, in points (see the module); None when nothing was played out."""
    played_value: float | None
    """What it expects of ``played`` on the same samples."""
    samples: int
    """The sampled states the values are means over (0 when nothing was played out)."""
    why: str
    """Why ``best``, in a clause (`reasons.reason`), in the language asked; "" when nothing particular."""

    @property
    def agrees(self) -> bool:
        """The move played is the strong player's."""
        return self.played == self.best

    @property
    def difference(self) -> float | None:
        """``best_value`` less ``played_value``: 0 for the strong move itself, > 0 when the move
        played is expected to do worse; None where the moves were not valued."""
        if self.best_value is None or self.played_value is None:
            return None
        return self.best_value - self.played_value


def judge(
    game: Game,
    seat: int,
    played: Action | str,
    *,
    seed: int,
    samples: int = MAX_SAMPLES,
    words: Words = ENGLISH,
) -> Judgement | None:
    """The strong player's view of ``played`` by ``seat`` in ``game`` as it stands (before the
    move); None when it was the seat's only move. Deterministic: the same view, move, seed and
    ``samples`` give the same judgement. With the full ``samples`` its ``best`` is the move
    `choose(game, seat, "strong", seed=seed)` makes (the same generator, `position_rng`);
    fewer samples (`GAME_SAMPLES`) cost less and may pick another.

    ValueError when nothing is asked of the seat; IllegalMove (as `Game.check`) when
    ``played`` is not one of its moves. The game is not changed.
    """
    moves = game.legal_moves(seat)
    if not moves:
        raise ValueError(f"Seat {seat} has nothing to decide now.")
    action, _decision = game.check(seat, played)
    if len(moves) == 1:
        return None
    view = game.view(seat)
    found = search(view, moves, position_rng(game, seat, seed), also=action, max_samples=samples)
    return Judgement(
        seat=seat,
        played=action,
        best=found.best,
        best_value=found.values.get(found.best),
        played_value=found.values.get(action),
        samples=found.samples,
        why=reason(found.first, view, seat, found.best, words),
    )


def judge_game(
    record: Record | dict[str, Any],
    *,
    seed: int,
    samples: int = GAME_SAMPLES,
    words: Words = ENGLISH,
) -> list[Judgement | None]:
    """`judge` of every move of ``record``, in order (one entry per move), each from the
    position before it as `Game.walk` reaches it; ``samples`` per judgement (a cheaper pass than
    one on request by default)."""
    rec = Record.model_validate(record)
    out: list[Judgement | None] = []
    for game, _events in Game.walk(rec):
        if len(out) == len(rec.moves):
            break
        seat, text = rec.moves[len(out)]
        out.append(judge(game, seat, text, seed=seed, samples=samples, words=words))
    return out


def decisive(judgements: list[Judgement | None], count: int = 5, least: float = DECISIVE_LEAST) -> list[int]:
    """The decisive moments of a game: the indices (in the record's moves) of the ``count``
    moves with the largest differences, largest first (the earlier move first on a tie).

    **Decision**: the expected result changed most where a move lost the most against the
    strong player's move, measured on the same samples — the difference, not a change of the
    value from one position to the next, which mixes the movers' seats and the luck of
    different samples. Differences under ``least`` points are left out, so a game played well
    lists fewer (or none)."""
    scored = [
        (j.difference, k)
        for k, j in enumerate(judgements)
        if j is not None and j.difference is not None and j.difference >= least
    ]
    scored.sort(key=lambda dk: (-dk[0], dk[1]))
    return [k for _d, k in scored[:count]]


__all__ = ["GAME_SAMPLES", "Judgement", "decisive", "judge", "judge_game"]
