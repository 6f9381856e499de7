"""Pending decisions: who must decide what, the allowed answers, and carrying an answer out.

Every decision — a castle in setup, a turn, a tied-voice preference, a demolition, a
starvation — goes through the same four questions: which moves answer it (`answers`), why a
move is refused (`problem`), the allowed moves (`options`) and the effect (`resolve`).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from .actions import Action
from .board import BOARD
from .cities import city_at, hex_food
from .construction import place_starting_castle
from .demolition import demolish, demolish_problem, excess_buildings, iter_demolish_options, least_harmful
from .events import Events
from .feeding import least_harmful_starve, starve, starve_options, starve_problem
from .placement import Table, castle_problem, castle_sites
from .relocation import winners_against
from .state import City, Decision, GameState
from .turn import TURN_VERBS, apply_turn, legal_turn_moves, turn_problem

VERB_KIND: dict[str, str] = {
    "castle": "castle",
    "prefer": "prefer",
    "demolish": "demolish",
    "starve": "starve",
    **{v: "turn" for v in TURN_VERBS},
}

ASKED: dict[str, str] = {
    "castle": "place a starting castle (castle HEX)",
    "turn": "play a turn (gold, found HEX, build B HEX, a politics card, or pass)",
    "prefer": "choose the service for a city (prefer HEX S)",
    "demolish": "choose buildings to demolish (demolish HEX …)",
    "starve": "choose which cities lose citizens to hunger (starve HEX …)",
}


def decision_city(state: GameState, d: Decision) -> City:
    assert d.city is not None
    city = city_at(state, d.city)
    assert city is not None
    return city


def answers(state: GameState, d: Decision, a: Action) -> bool:
    """Whether ``a`` is meant for decision ``d`` (same kind, and same city if it has one)."""
    if VERB_KIND.get(a.verb) != d.kind:
        return False
    if d.kind == "prefer":
        return a.hex is not None and city_at(state, a.hex) is decision_city(state, d)
    if d.kind == "demolish":
        return bool(a.hexes) and city_at(state, a.hexes[0]) is decision_city(state, d)
    return True


def canonical(state: GameState, a: Action) -> Action:
    """The same move with each city named by its castle hex (any hex of a city names it)."""
    if a.verb in ("golden", "prefer"):
        city = city_at(state, a.hex or "")
        return a if city is None else a._replace(hex=city.castle)
    if a.verb == "starve":
        cities = [city_at(state, h) for h in a.hexes]
        if any(c is None for c in cities):
            return a
        return a._replace(hexes=tuple(sorted((c.castle for c in cities if c), key=BOARD.index.__getitem__)))
    return a


def iter_options(t: Table, d: Decision) -> Iterator[Action]:
    """Every move that answers ``d``, found lazily (a turn's in canonical order)."""
    state = t.state
    if d.kind == "turn":
        yield from legal_turn_moves(t, d.seat)
    elif d.kind == "castle":
        yield from (Action("castle", hex=h) for h in castle_sites(t))
    elif d.kind == "prefer":
        city = decision_city(state, d)
        yield from (Action("prefer", hex=city.castle, service=s) for s in d.services)
    elif d.kind == "demolish":
        yield from (Action("demolish", hexes=hs) for hs in iter_demolish_options(decision_city(state, d)))
    else:
        yield from (Action("starve", hexes=hs) for hs in starve_options(state, d.seat, d.count))


def options(t: Table, d: Decision) -> list[Action]:
    """Every move that answers ``d``."""
    return list(iter_options(t, d))


def problem(t: Table, d: Decision, a: Action) -> str | None:
    """Why ``a`` does not answer ``d``, or ``None`` when it is allowed."""
    state = t.state
    if d.kind == "turn":
        return turn_problem(t, d.seat, a)
    if d.kind == "castle":
        assert a.hex is not None
        return castle_problem(t, d.seat, a.hex)
    if d.kind == "prefer":
        if a.service not in d.services:
            return f"The voice this year is {' and '.join(d.services)}; choose one of those."
        return None
    if d.kind == "demolish":
        return demolish_problem(decision_city(state, d), a.hexes)
    return starve_problem(state, d.seat, d.count, a.hexes)


def resolve(state: GameState, d: Decision, a: Action, ev: Events, *, auto: bool = False) -> None:
    """Carry out a checked answer; the decision is already off the pending list."""
    if d.kind == "turn":
        first = len(ev)
        apply_turn(state, d.seat, a, ev)
        if auto:
            ev[first].text += " (the only possible move)"
        state.turn_index += 1
    elif d.kind == "castle":
        assert a.hex is not None
        place_starting_castle(state, d.seat, a.hex, ev)
        state.placement.pop(0)
        if not state.placement:
            state.start_player = (d.seat + 1) % state.n_players
    elif d.kind == "prefer":
        city = decision_city(state, d)
        assert a.service is not None
        state.preferred[city.id] = a.service  # type: ignore[assignment]
        ev.add(
            "prefer",
            f"{state.players[d.seat].name}'s {city.name} compares {a.service}.",
            seat=d.seat,
            hexes=[city.castle],
        )
    elif d.kind == "demolish":
        demolish(state, decision_city(state, d), a.hexes, ev, auto=auto)
    else:
        starve(state, d.seat, a.hexes, ev)
        for city in state.cities_of(d.seat):
            if excess_buildings(city):
                open_decision(
                    state,
                    Decision(seat=d.seat, kind="demolish", city=city.castle, count=excess_buildings(city)),
                    ev,
                )


def default(t: Table, d: Decision) -> Action:
    """The least harmful answer, for a player who does not answer in time.

    A turn takes 2 gold (or passes); a castle goes where it yields the most food; a tied
    voice picks the service that takes from more neighbours; demolition and starvation
    keep what loses the least (see `least_harmful` and `least_harmful_starve`).
    """
    state = t.state
    if d.kind == "turn":
        return Action("gold") if state.players[d.seat].action_cards else Action("pass")
    if d.kind == "castle":
        return max(options(t, d), key=lambda a: (hex_food(t.areas, a.hex or ""), -BOARD.index[a.hex or ""]))
    if d.kind == "prefer":
        city = decision_city(state, d)
        best = max(d.services, key=lambda s: (len(winners_against(state, city, s)), -d.services.index(s)))
        return Action("prefer", hex=city.castle, service=best)
    if d.kind == "demolish":
        return Action("demolish", hexes=least_harmful(state, decision_city(state, d)))
    return Action("starve", hexes=least_harmful_starve(state, d.seat, d.count))


def open_decision(state: GameState, d: Decision, ev: Events) -> None:
    """Ask for a decision, or take it at once when only one answer is possible (rules §10)."""
    choices = list(islice(iter_options(Table(state), d), 2))
    if len(choices) == 1:
        resolve(state, d, choices[0], ev, auto=True)
    else:
        state.pending.append(d)
