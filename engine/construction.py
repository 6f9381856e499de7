"""Putting buildings and castles on the board, and taking them off (rules §3.5, §5.1, §7)."""

from __future__ import annotations

from typing import Any

from .cities import area_map, castle_citizens, hex_food
from .components import START_CITIZENS, city_name
from .events import Events
from .placement import Table, building_problem, site_city
from .state import City, GameState, new_building, new_city, put
from .words import N_, Phrase


def add_building(state: GameState, city: City, kind: str, label: str) -> None:
    """Place a building; its citizen comes from the castle, a market's from the supply."""
    if kind == "market":
        put(state, "supply_citizens", state.supply_citizens - 1)
        put(city, "population", city.population + 1)
    city.buildings.append(new_building(label, kind))


def add_castle(state: GameState, seat: int, label: str, citizens: int) -> City:
    """A new city with ``citizens`` on its castle (taken by the caller from wherever)."""
    city = new_city(state.next_city_id, city_name(state.next_city_id), seat, label, citizens, state.year)
    put(state, "next_city_id", state.next_city_id + 1)
    state.cities.append(city)
    return city


def place_starting_castle(state: GameState, seat: int, label: str, ev: Events) -> City:
    """A starting castle with 3 citizens from the supply (§3.5)."""
    city = add_castle(state, seat, label, START_CITIZENS)
    put(state, "supply_citizens", state.supply_citizens - START_CITIZENS)
    food = hex_food(area_map(state), label)
    ev.add(
        "castle",
        N_("{name} founds {city} at {hex} (food {food})."),
        {"name": state.players[seat].name, "city": city.name, "hex": label, "food": food},
        seat=seat,
        hexes=[label],
    )
    return city


def found_source(state: GameState, seat: int) -> City | None:
    """The castle that gives the spare citizen when a move does not say (``found HEX`` alone).

    Rules §5: the player chooses the castle (``found HEX from HEX2``). ``found HEX`` alone is
    still read, so that records made before the source was named replay as they were played:
    it takes the citizen from the castle with the most spare citizens, on a tie from the
    earliest founded city (what the engine always did then).
    """
    best: City | None = None
    for c in state.cities_of(seat):
        if castle_citizens(c) >= 2 and (best is None or castle_citizens(c) > castle_citizens(best)):
            best = c
    return best


def found_city(state: GameState, seat: int, label: str, source: City, ev: Events) -> City:
    """Found a city (§5 action 2): a spare citizen of ``source`` moves in, 2 more come from the supply.

    **Decision**: when the supply holds fewer than 2 citizens, the new castle gets what is left.
    """
    put(source, "population", source.population - 1)
    extra = min(2, state.supply_citizens)
    put(state, "supply_citizens", state.supply_citizens - extra)
    city = add_castle(state, seat, label, 1 + extra)
    put(state.players[seat], "founded_this_year", True)
    food = hex_food(area_map(state), label)
    ev.add(
        "found",
        N_(
            "{name} founds {city} at {hex} with a citizen from {source} and {extra} from the supply "
            "(food {food})."
        ),
        {
            "name": state.players[seat].name,
            "city": city.name,
            "hex": label,
            "source": source.name,
            "extra": extra,
            "food": food,
        },
        seat=seat,
        hexes=[label, source.castle],
        data={"source": source.castle},
    )
    return city


def build_problem(t: Table, seat: int, kind: str, label: str) -> Phrase | None:
    """Every rule of §5.1 for ``kind`` on ``label`` by ``seat``."""
    city, problem = site_city(t, seat, label)
    if city is None:
        return problem
    return building_problem(t, city, kind, label)


def remove_city(state: GameState, city: City, ev: Events, message: str, **values: Any) -> None:
    """A city that lost its last citizen: the castle returns to its owner, the buildings go.

    ``message`` says so and why, with ``{name}`` (the owner) and ``{city}``, and ``values``."""
    del state.cities[next(k for k, c in enumerate(state.cities) if c is city)]  # (`remove` compares models)
    ev.add(
        "city_lost",
        message,
        {"name": state.players[city.owner].name, "city": city.name, **values},
        seat=city.owner,
        hexes=[city.castle, *(b.hex for b in city.buildings)],
    )
