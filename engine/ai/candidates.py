"""The moves the ``strong`` player plays out: the ``basic`` player's best, the best for the
year's end as the board stands (which sees what a voice would cost: a city lost with its farms,
the hunger after), and taking gold (the later cards and the tie-break)."""

from __future__ import annotations

from ..actions import Action
from ..state import GameState
from .evaluate import FactsCache
from .heuristic import ranked
from .playout import after_move
from .tally import year_end_value

YEAR_END_CANDIDATES = 2
"""How many of the best moves for the year's end join the basic player's best..."""
YEAR_END_POOL = 16
"""...chosen among so many of the basic player's best (a hundred places to found a city are not
worth looking at one by one)."""


def year_end_ranked(state: GameState, seat: int, moves: list[Action], cache: FactsCache) -> list[Action]:
    """``moves`` by the seat's value at the end of this year if nothing else were played."""
    data = state.model_dump()
    values = [year_end_value(after_move(data, seat, a), seat, cache) for a in moves]
    order = sorted(range(len(moves)), key=lambda k: (-values[k], k))
    return [moves[k] for k in order]


def candidates(
    state: GameState, seat: int, moves: list[Action], basic: int, cache: FactsCache
) -> list[Action]:
    """The basic player's ``basic`` best moves, then the best for the year's end among its
    `YEAR_END_POOL` best, and gold."""
    order = [a for _, a in ranked(state, seat, moves, cache)]
    cands = order[:basic]
    for a in year_end_ranked(state, seat, order[:YEAR_END_POOL], cache)[:YEAR_END_CANDIDATES]:
        if a not in cands:
            cands.append(a)
    gold = next((a for a in moves if a.verb == "gold"), None)
    if gold is not None and gold not in cands:
        cands.append(gold)
    return cands
