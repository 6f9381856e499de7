"""Final scoring (rules §9): citizens, complete cities, hunger, and the gold tiebreak."""

from __future__ import annotations

from .cities import has_all_services
from .events import Events
from .state import GameState
from .words import N_, chain

COMPLETE_CITY_VP = 3


def city_bonus(state: GameState, seat: int) -> int:
    """+3 VP for each of the seat's cities with all three services."""
    return COMPLETE_CITY_VP * sum(1 for c in state.cities_of(seat) if has_all_services(c))


def score_of(state: GameState, seat: int) -> int:
    """1 VP per citizen, +3 per city with all three services, minus year-6 hunger."""
    citizens = sum(c.population for c in state.cities_of(seat))
    return citizens + city_bonus(state, seat) - state.players[seat].hunger_vp


def winners_of(state: GameState, scores: list[int]) -> list[int]:
    """Highest score wins; a tie goes to the most gold; a remaining tie is shared."""
    best = max(scores)
    tied = [s for s, v in enumerate(scores) if v == best]
    most_gold = max(state.players[s].gold for s in tied)
    return [s for s in tied if state.players[s].gold == most_gold]


def final_scores(state: GameState, ev: Events) -> None:
    scores = [score_of(state, p.seat) for p in state.players]
    state.scores = scores
    state.winners = winners_of(state, scores)
    state.phase = "over"
    names = [state.players[s].name for s in state.winners]
    table = [f"{p.name} {scores[p.seat]}" for p in state.players]
    if len(names) == 1:
        message, values = N_("The game is over: {scores}. {name} wins!"), {"scores": table, "name": names[0]}
    else:
        message = N_("The game is over: {scores}. {names} win!")
        values = {"scores": table, "names": chain(N_("{first} and {second}"), names)}
    ev.add("game_over", message, values, data={"scores": scores, "winners": state.winners})
