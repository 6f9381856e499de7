"""What a city is worth and holds: food, gold, services, limits, neighbours (rules §2, §5)."""

from __future__ import annotations

from .board import BOARD
from .components import ARCHES, SERVICES, WATER, Service
from .state import Area, City, GameState

UNLIMITED = 10_000


def hexes_of(city: City) -> list[str]:
    """The castle hex first, then the buildings in the order they were built."""
    return [city.castle, *(b.hex for b in city.buildings)]


def occupancy(state: GameState) -> dict[int, City]:
    """Every occupied hex (board index) and the city whose building stands there."""
    occ: dict[int, City] = {}
    idx = BOARD.index
    for c in state.cities:
        occ[idx[c.castle]] = c
        for b in c.buildings:
            occ[idx[b.hex]] = c
    return occ


def city_at(state: GameState, label: str) -> City | None:
    """The city that has a building (or its castle) on ``label``.

    (Plain loops: asked often, and cheaper than a generator. The castles first: most often
    asked, each read of a model's attribute costs, and a hex holds one building.)"""
    cities = state.cities
    for c in cities:
        if c.castle == label:
            return c
    for c in cities:
        for b in c.buildings:
            if b.hex == label:
                return c
    return None


def castle_citizens(city: City) -> int:
    """Citizens on the castle: everyone not holding one of the other buildings."""
    return city.population - len(city.buildings)


def has_market(city: City) -> bool:
    for b in city.buildings:  # noqa: SIM110 (plain loops here: asked on every turn, cheaper than a generator)
        if b.kind == "market":
            return True
    return False


def population_limit(city: City, *, adding: str | None = None) -> int:
    """5 without a market, 8 with a market but no fountain or bath, else unlimited (§5.5);
    with ``adding``: once a building of that kind has joined the city."""
    market = adding == "market"
    water = adding in WATER
    for b in city.buildings:
        kind = b.kind
        if kind == "market":
            market = True
        elif kind in WATER:
            water = True
    if not market:
        return 5
    if not water:
        return 8
    return UNLIMITED


def room(city: City) -> int:
    """How many citizens the city can still gain."""
    return max(0, population_limit(city) - city.population)


def fitting(state: GameState, city: City, count: int) -> int:
    """How many of ``count`` new citizens ``city`` gains: those that fit under its population
    limit and are left in the supply (§5.5); the others stay in the supply."""
    return min(count, room(city), state.supply_citizens)


def terrain_sum(areas: dict[str, Area], label: str, terrain: str) -> int:
    """Wheat of the distinct farmland areas (or count of distinct `terrain` areas) touching a hex."""
    total = 0
    for a in BOARD.area_idx[BOARD.index[label]]:
        area = areas[a]
        if area.terrain == terrain:
            total += area.wheat if terrain == "farmland" else 1
    return total


def touches(areas: dict[str, Area], label: str, terrain: str) -> bool:
    return any(areas[a].terrain == terrain for a in BOARD.area_idx[BOARD.index[label]])


def area_map(state: GameState) -> dict[str, Area]:
    return state.area_map()


def hex_food(areas: dict[str, Area], label: str) -> int:
    """Food a castle or farm on this hex produces: wheat of the adjacent farmland (§2)."""
    return terrain_sum(areas, label, "farmland")


def city_food(areas: dict[str, Area], city: City, *, with_harvest: bool = True) -> int:
    """Food produced by the city's castle and farms (a Rich Harvest farm counts twice)."""
    food = hex_food(areas, city.castle)
    for b in city.buildings:
        if b.kind == "farm":
            f = hex_food(areas, b.hex)
            food += 2 * f if (b.harvest and with_harvest) else f
    return food


def player_food(state: GameState, seat: int, *, with_harvest: bool = True) -> int:
    areas = area_map(state)
    food = 0
    for c in state.cities:
        if c.owner == seat:
            food += city_food(areas, c, with_harvest=with_harvest)
    return food


def player_citizens(state: GameState, seat: int) -> int:
    citizens = 0
    for c in state.cities:
        if c.owner == seat:
            citizens += c.population
    return citizens


def quarry_gold(areas: dict[str, Area], city: City) -> int:
    """Gold the city's quarries earn: one per distinct adjacent mountain area each (§2)."""
    return sum(terrain_sum(areas, b.hex, "mountain") for b in city.buildings if b.kind == "quarry")


def service_points(city: City, service: Service) -> int:
    """Arches of that service plus this year's notables on them (§5.4)."""
    total = 0
    for b in city.buildings:
        total += ARCHES[b.kind].get(service, 0) + b.notables.get(service, 0)
    return total


def services(city: City) -> dict[Service, int]:
    return {s: service_points(city, s) for s in SERVICES}


def has_all_services(city: City) -> bool:
    """A building with a culture, one with an education and one with a health arch (§9)."""
    arches = {s for b in city.buildings for s in ARCHES[b.kind]}
    return len(arches) == 3


def reach(city: City) -> set[int]:
    """Board indexes at most 3 steps from some building of the city (its neighbourhood)."""
    within3, idx = BOARD.within3, BOARD.index
    return set(within3[idx[city.castle]]).union(*(within3[idx[b.hex]] for b in city.buildings))


def is_neighbour(a: City, b: City) -> bool:
    """Some building of one is at most 3 steps from some building of the other (§5.3)."""
    near = reach(a)
    return any(BOARD.index[h] in near for h in hexes_of(b))


def opposing_neighbours(state: GameState, city: City) -> list[City]:
    """Neighbouring cities of other players, in founding order (never the owner's own).

    (Written as plain loops: asked for every city of a relocation, and loops cost less than
    generators or bit masks of the board in Python.)"""
    within3, idx = BOARD.within3, BOARD.index
    near = set(within3[idx[city.castle]])
    for b in city.buildings:
        near.update(within3[idx[b.hex]])
    owner = city.owner
    out = []
    for c in state.cities:
        if c.owner == owner:
            continue
        if idx[c.castle] in near:
            out.append(c)
            continue
        for b in c.buildings:
            if idx[b.hex] in near:
                out.append(c)
                break
    return out
