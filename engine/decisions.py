"""Pending decisions: who must decide what, the allowed answers, and carrying an answer out.

Every decision — a castle in setup, a turn, which city checks first in relocation, a
tied-voice preference, a demolition, a starvation — goes through the same four questions:
which moves answer it (`answers`), why a move is refused (`problem`), the allowed moves
(`options`) and the effect (`resolve`).
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from .actions import Action
from .board import BOARD
from .cities import city_at, hex_food, room
from .construction import found_source, place_starting_castle
from .demolition import demolish, demolish_problem, excess_buildings, iter_demolish_options, least_harmful
from .events import Events
from .feeding import least_harmful_starve, starve, starve_options, starve_problem
from .placement import Table, castle_problem, castle_sites
from .relocation import relocate_city, winners_against
from .state import City, Decision, GameState
from .turn import TURN_VERBS, apply_turn, legal_turn_moves, turn_problem

VERB_KIND: dict[str, str] = {
    "castle": "castle",
    "first": "first",
    "prefer": "prefer",
    "demolish": "demolish",
    "starve": "starve",
    **{v: "turn" for v in TURN_VERBS},
}

WHAT: dict[str, str] = {
    "castle": "place a starting castle",
    "turn": "play a turn",
    "first": "choose which city takes first in relocation",
    "prefer": "choose the service for a city",
    "demolish": "choose buildings to demolish",
    "starve": "choose which cities lose citizens to hunger",
}
"""What each kind of decision asks, in words (`ASKED` adds the notation)."""
HOW: dict[str, str] = {
    "castle": "castle HEX",
    "turn": "gold, found HEX from HEX2, build B HEX, a politics card, or pass",
    "first": "first HEX",
    "prefer": "prefer HEX S",
    "demolish": "demolish HEX …",
    "starve": "starve HEX …",
}
ASKED: dict[str, str] = {k: f"{WHAT[k]} ({HOW[k]})" for k in WHAT}


FOR_CITIES: dict[str, str] = {
    "first": "choose which city takes first in relocation: {}",
    "prefer": "choose the service for {}",
    "demolish": "choose buildings of {} to demolish",
}
"""The same, naming the cities a decision is about."""


def asked_of(state: GameState, seat: int) -> list[str]:
    """What ``seat`` is asked now: one phrase per kind of decision, each city named once.

    >>> from engine import Game
    >>> asked_of(Game.new(["Ann", "Bob"], seed=7).state, 1)
    ['play a turn (gold, found HEX from HEX2, build B HEX, a politics card, or pass)']
    """
    by_kind: dict[str, list[str]] = {}
    for d in state.pending:
        if d.seat == seat:
            by_kind.setdefault(d.kind, []).extend(h for h in [d.city, *d.cities] if h)
    out = []
    for kind, hexes in by_kind.items():
        cities = [c for c in (city_at(state, h) for h in dict.fromkeys(hexes)) if c is not None]
        if kind not in FOR_CITIES or not cities:
            out.append(ASKED[kind])
            continue
        names = [f"{c.name} ({c.castle})" for c in cities]
        last = names.pop()
        joined = f"{', '.join(names)} {'or' if kind == 'first' else 'and'} {last}" if names else last
        out.append(f"{FOR_CITIES[kind].format(joined)} ({HOW[kind]})")
    return out


def decision_city(state: GameState, d: Decision, label: str | None = None) -> City:
    """The city the decision is about (or, for ``first``, the one at ``label``)."""
    city = city_at(state, label or d.city or "")
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


def canonical(state: GameState, seat: int, a: Action) -> Action:
    """The same move with each city named by its castle hex (any hex of a city names it), and
    ``found HEX`` completed with the castle that gives the citizen (see `found_source`)."""
    if a.verb == "found":
        source = city_at(state, a.source) if a.source else found_source(state, seat)
        return a if source is None else a._replace(source=source.castle)
    if a.verb in ("golden", "prefer", "first"):
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
    elif d.kind == "first":
        yield from (Action("first", hex=h) for h in d.cities)
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
    if d.kind == "first":
        return _first_problem(state, d, a)
    if d.kind == "prefer":
        if a.service not in d.services:
            return f"The voice this year is {' and '.join(d.services)}; choose one of those."
        return None
    if d.kind == "demolish":
        return demolish_problem(decision_city(state, d), a.hexes)
    return starve_problem(state, d.seat, d.count, a.hexes)


def _first_problem(state: GameState, d: Decision, a: Action) -> str | None:
    city = city_at(state, a.hex or "")
    if city is not None and city.owner == d.seat and city.castle in d.cities:
        return None
    choices = " or ".join(f"{decision_city(state, d, h).name} ({h})" for h in d.cities)
    what = "no building" if city is None else f"{city.name}, which does not compete for a last citizen"
    return f"At {a.hex} stands {what}; choose which of your cities takes first: {choices}."


def resolve(state: GameState, d: Decision, a: Action, ev: Events, *, auto: bool = False) -> None:
    """Carry out a checked answer; the decision is already off the pending list.

    ``auto``: the engine answers because no other answer is possible; the answer's first
    event says so (``data["auto"]``), so that it can be shown as the seat's own move.
    """
    first = len(ev)
    _carry_out(state, d, a, ev, auto=auto)
    if auto and len(ev) > first:
        ev[first].data["auto"] = True


def _carry_out(state: GameState, d: Decision, a: Action, ev: Events, *, auto: bool) -> None:
    if d.kind == "turn":
        first = len(ev)
        apply_turn(state, d.seat, a, ev)
        if auto:
            text = ev[first].text.removesuffix(".")
            ev[first].text = f"{text} (the only possible move)."
        state.turn_index += 1
    elif d.kind == "castle":
        assert a.hex is not None
        place_starting_castle(state, d.seat, a.hex, ev)
        state.placement.pop(0)
        if not state.placement:
            state.start_player = (d.seat + 1) % state.n_players
    elif d.kind == "first":
        city = decision_city(state, d, a.hex)
        ev.add(
            "first",
            f"{state.players[d.seat].name}'s {city.name} takes first.",
            seat=d.seat,
            hexes=[city.castle],
        )
        relocate_city(state, city, ev)
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

    **Decision** (rules §7) for ``first``: the city that is not at its limit goes first (the
    citizen it takes then stays in the player's city), then the earliest founded.
    """
    state = t.state
    if d.kind == "turn":
        return Action("gold") if state.players[d.seat].action_cards else Action("pass")
    if d.kind == "castle":
        return max(options(t, d), key=lambda a: (hex_food(t.areas, a.hex or ""), -BOARD.index[a.hex or ""]))
    if d.kind == "first":
        cities = [decision_city(state, d, h) for h in d.cities]
        return Action("first", hex=next((c for c in cities if room(c) > 0), cities[0]).castle)
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
