"""The voice of the people and citizen relocation (rules §4.6, §7).

Relocation goes seat by seat from the start player. On a seat's turn each of its cities
compares one service with every opposing neighbour; each neighbour with strictly fewer
points gives it one citizen. With a tied voice the owner picks the service per city — asked
(`prefer HEX S`) only when the two services would not take from the same neighbours. When two
of the seat's cities would take the last citizen of the same opposing city, the owner picks
which checks first (`first HEX`, see `first_choices`); otherwise they check in founding order.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations

from .board import BOARD
from .cities import opposing_neighbours, population_limit, room, service_points
from .components import SERVICES, Service
from .construction import remove_city
from .events import Events
from .state import City, GameState, put
from .words import N_


def tally(state: GameState, ev: Events) -> None:
    """Reveal the face-down cards and find the voice: the service with more cards than each
    other, or the two services at 2–2 (§4.6)."""
    put(state, "voice_revealed", True)
    counts = Counter(state.voice)
    top = max(counts.values())
    result = [s for s in SERVICES if counts[s] == top]
    put(state, "voice_result", result)
    if len(result) == 1:
        message = N_("The voice of the people is revealed ({services}): the people want {service}.")
    else:  # 2 and 2 of 4 cards
        message = N_(
            "The voice of the people is revealed ({services}): the people want {service} and {service2} "
            "(tied: each player chooses per city)."
        )
    ev.add(
        "tally",
        message,
        {
            "services": list(state.voice),
            "service": result[0],
            **({"service2": result[1]} if result[1:] else {}),
        },
        reveals=True,
        data={"voice": list(state.voice), "result": result},
    )


class Near(dict[int, list[City]]):
    """Opposing neighbours by city id, found once for the questions asked of one relocation
    phase (`near`); ``rows``: every city with its owner and its hexes, a bit mask of board
    indexes (made when first needed; a city lost leaves them).

    **Decision**: a relocation moves citizens, never a building, so a city's neighbours stay
    the same for the whole phase but for the cities lost on the way (`_forget`); they are
    found for every city of every seat, so they are found with bit masks of the board: each
    city's reach (`Board.within3_mask` of its hexes) against each city's hexes, made once
    (tests/test_engine_speed.py compares with `opposing_neighbours`)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[tuple[City, int, int]] | None = None
        """Each city (in the order of the state's cities), its owner and its hexes as a bit mask."""
        self.won: dict[tuple[int, str], list[City]] = {}
        """`winners_against` by city id and service, found once (a city lost leaves them)."""


def near(state: GameState, city: City, known: Near | None) -> list[City]:
    """`opposing_neighbours` of ``city``; kept in ``known`` (when given) for the next question
    about the same relocation phase (the cities' buildings do not change while it lasts)."""
    if known is None:
        return opposing_neighbours(state, city)
    found = known.get(city.id)
    if found is None:
        rows = known.rows
        idx = BOARD.index
        if rows is None:
            rows = known.rows = []
            for c in state.cities:
                mask = 1 << idx[c.castle]
                for b in c.buildings:
                    mask |= 1 << idx[b.hex]
                rows.append((c, c.owner, mask))
        within3 = BOARD.within3_mask
        reach = within3[idx[city.castle]]
        for b in city.buildings:
            reach |= within3[idx[b.hex]]
        owner = city.owner
        found = known[city.id] = [c for c, o, mask in rows if o != owner and reach & mask]
    return found


def winners_against(state: GameState, city: City, service: Service, known: Near | None = None) -> list[City]:
    """Opposing neighbours with strictly fewer points than ``city`` in ``service``; with
    ``known``, found once for the relocation phase (`Near.won`: the points come from the
    buildings and their notables, which a relocation does not change; a city lost leaves the
    lists, `_forget`). The list is not to be changed."""
    if known is None:
        mine = service_points(city, service)
        return [n for n in opposing_neighbours(state, city) if service_points(n, service) < mine]
    key = (city.id, service)
    found = known.won.get(key)
    if found is None:
        mine = service_points(city, service)
        found = known.won[key] = [n for n in near(state, city, known) if service_points(n, service) < mine]
    return found


def choice_matters(state: GameState, city: City, known: Near | None = None) -> bool:
    """With a tied voice: would the two services take from different neighbours?"""
    a, b = state.voice_result
    return [c.id for c in winners_against(state, city, a, known)] != [
        c.id for c in winners_against(state, city, b, known)
    ]


def cities_needing_preference(state: GameState, seat: int, known: Near | None = None) -> list[City]:
    """Cities of ``seat`` whose tied-voice service must be chosen by the player now."""
    if len(state.voice_result) < 2:
        return []
    return [
        c for c in state.cities_of(seat) if c.id not in state.preferred and choice_matters(state, c, known)
    ]


def service_for(state: GameState, city: City) -> Service:
    """The service a city compares this year (its owner's choice when the voice is tied)."""
    return state.preferred.get(city.id, state.voice_result[0])


def takes_from(state: GameState, city: City, known: Near | None = None) -> list[City]:
    """The opposing neighbours ``city`` takes a citizen from on its owner's relocation turn."""
    return winners_against(state, city, service_for(state, city), known)


def unchecked(state: GameState, seat: int) -> list[City]:
    """The cities of ``seat`` that have not yet checked their neighbours this turn (founding order)."""
    done = state.relocated
    return [c for c in state.cities if c.owner == seat and c.id not in done]  # (one pass: `cities_of`)


def outcome(state: GameState, order: list[City], known: Near | None = None) -> tuple[int, ...]:
    """Every city's population after ``order`` checks its neighbours one city after another
    (the supply holds the rest, so this is the whole result)."""
    pops = {c.id: c.population for c in state.cities}
    for city in order:
        for other in takes_from(state, city, known):
            if pops[other.id] > 0:
                pops[other.id] -= 1
                if population_limit(city) > pops[city.id]:
                    pops[city.id] += 1
    return tuple(pops.values())


def first_choices(state: GameState, seat: int, known: Near | None = None) -> list[City]:
    """The cities of ``seat`` among which the player chooses which checks first, or ``[]``.

    Rules §7: the order of a player's cities matters only when more of them would take from
    the same opposing city than it has citizens (the first to check takes the last one). The
    player is asked only then, and only when the order changes the result (a full city sends
    the citizen to the supply, so two full cities competing give the same result either way).
    The choices are every city that competes for such a citizen.
    """
    cities = unchecked(state, seat)
    if len(cities) < 2:
        return []
    takers: dict[int, list[City]] = {}
    for city in cities:
        for other in takes_from(state, city, known):
            takers.setdefault(other.id, []).append(city)
    competing: set[int] = set()
    for other_id, cs in takers.items():
        if len(cs) > 1 and len(cs) > state.city_by_id(other_id).population:
            competing.update(c.id for c in cs)
    if not competing:  # (no order to choose: one outcome, found without trying it)
        return []
    choices = [c for c in cities if c.id in competing]
    if len({outcome(state, list(order), known) for order in permutations(choices)}) < 2:
        return []
    return choices


def relocate_city(state: GameState, city: City, ev: Events, known: Near | None = None) -> None:
    """One city checks its neighbours: each that has fewer points gives it a citizen (§7).

    ``known``: the neighbours found for the seat's earlier questions of this relocation turn
    (`near`); a city lost here leaves every list of it, as a fresh look would not find it."""
    state.relocated.append(city.id)
    for c in state.cities:  # (a plain loop: cheaper than a generator)
        if c is city:
            break
    else:
        return  # lost earlier this turn
    owner = state.players[city.owner].name
    service = service_for(state, city)
    for other in tuple(winners_against(state, city, service, known)):  # (a city lost leaves the list)
        put(other, "population", other.population - 1)
        kept = room(city) > 0
        if kept:
            put(city, "population", city.population + 1)
            message = N_("{service}: a citizen of {name}'s {city} moves to {owner}'s {to}.")
        else:
            put(state, "supply_citizens", state.supply_citizens + 1)
            message = N_(
                "{service}: a citizen of {name}'s {city} leaves for the supply ({owner}'s {to} is full)."
            )
        ev.add(
            "relocate",
            message,
            {
                "service": service.capitalize(),
                "name": state.players[other.owner].name,
                "city": other.name,
                "owner": owner,
                "to": city.name,
            },
            seat=city.owner,
            hexes=[other.castle, city.castle],
            data={"service": service, "from": other.castle, "to": city.castle, "to_supply": not kept},
        )
        if other.population == 0:
            if kept:
                message = N_(
                    "{name}'s {city} has no citizen left and is lost (its last citizen moved to {to})."
                )
                remove_city(state, other, ev, message, to=city.name)
            else:
                message = N_(
                    "{name}'s {city} has no citizen left and is lost (its last citizen left for the supply)."
                )
                remove_city(state, other, ev, message)
            if known is not None:
                _forget(known, other)


def relocate(state: GameState, seat: int, ev: Events, known: Near | None = None) -> None:
    """The rest of one seat's relocation turn: its unchecked cities, in founding order.

    ``known``: the neighbours its questions found (`_relocation_step` in `engine.flow`): a
    relocation moves citizens, never a building, so they stay the neighbours, but for a city
    lost on the way (`relocate_city`)."""
    for city in unchecked(state, seat):
        relocate_city(state, city, ev, known)
    put(state, "relocated", [])


def _forget(known: Near, lost: City) -> None:
    """``lost`` left the board: it is nobody's neighbour any more, nor gives anyone a citizen."""
    if known.rows is not None:
        known.rows = [r for r in known.rows if r[0] is not lost]
    for cities in (*known.values(), *known.won.values()):
        for k, c in enumerate(cities):
            if c is lost:
                del cities[k]
                break
