"""Demolishing unmanned buildings (rules §7 demolition, §8).

A city with P citizens keeps its castle and P−1 other buildings. The owner picks which go;
the kept buildings and the castle must stay connected. The castle goes last: only a city
with no citizen loses it (handled where the last citizen leaves).
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import BOARD
from .cities import area_map, hex_food
from .components import ARCHES
from .events import Events
from .state import City, GameState
from .words import N_, PHRASE, Phrase


def excess_buildings(city: City) -> int:
    """How many buildings the city cannot man: it must demolish that many."""
    return max(0, len(city.buildings) - (city.population - 1))


def _connected_keeps(city: City, keep: int) -> Iterator[frozenset[str]]:
    """Every set of ``keep`` buildings that stays connected to the castle.

    Each connected set is found once: candidates are taken in order and either joined
    (adding their unseen neighbours) or banned for the rest of that branch.
    """
    hexes = {b.hex for b in city.buildings}
    adj = {h: [n for n in BOARD.neighbors(h) if n in hexes] for h in [city.castle, *hexes]}
    size = keep

    def rec(chosen: frozenset[str], cands: list[str], banned: frozenset[str]) -> Iterator[frozenset[str]]:
        if len(chosen) == size:
            yield chosen
            return
        if not cands:
            return
        v, rest = cands[0], cands[1:]
        ext = [n for n in adj[v] if n not in chosen and n not in banned and n not in rest]
        yield from rec(chosen | {v}, rest + ext, banned)
        yield from rec(chosen, rest, banned | {v})

    yield from rec(frozenset(), list(adj[city.castle]), frozenset({city.castle}))


def iter_demolish_options(city: City) -> Iterator[tuple[str, ...]]:
    """Every legal set of hexes to demolish (each sorted in board order), in no set order."""
    k = excess_buildings(city)
    if k == 0:
        return
    all_hexes = [b.hex for b in city.buildings]
    for kept in _connected_keeps(city, len(city.buildings) - k):
        yield tuple(sorted((h for h in all_hexes if h not in kept), key=BOARD.sort_key))


def demolish_options(city: City) -> list[tuple[str, ...]]:
    """Every legal set of hexes to demolish, sorted."""
    return sorted(iter_demolish_options(city), key=lambda hs: [BOARD.sort_key(h) for h in hs])


def demolish_problem(city: City, hexes: tuple[str, ...]) -> Phrase | None:
    k = excess_buildings(city)
    mine = {b.hex for b in city.buildings}
    if city.castle in hexes:
        return PHRASE.t(
            "The castle of {city} stays while the city has a citizen; demolish other buildings.",
            city=city.name,
        )
    stray = [h for h in hexes if h not in mine]
    if len(stray) == 1:
        return PHRASE.t("{hex} is not a building of {city}.", hex=stray[0], city=city.name)
    if stray:
        return PHRASE.t("{hexes} are not a building of {city}.", hexes=stray, city=city.name)
    if len(hexes) != k:
        return PHRASE.t(
            "{city} has {citizens} for {built} buildings besides the castle: demolish exactly {count}, "
            "not {given}.",
            city=city.name, citizens=PHRASE.n("{count} citizen", "{count} citizens", city.population),
            built=len(city.buildings), count=k, given=len(hexes),
        )  # fmt: skip
    if hexes not in demolish_options(city):
        return PHRASE.t(
            "Keeping the other buildings would cut {city} apart: the kept buildings must stay connected to "
            "the castle (demolish from the edges inward).",
            city=city.name,
        )
    return None


def harm(state: GameState, city: City, hexes: tuple[str, ...]) -> tuple[int, int, int]:
    """What demolishing ``hexes`` costs the owner: (food, service points, buildings with arches)."""
    areas = area_map(state)
    food = points = arched = 0
    for b in city.buildings:
        if b.hex not in hexes:
            continue
        if b.kind == "farm":
            food += hex_food(areas, b.hex) * (2 if b.harvest else 1)
        points += sum(ARCHES[b.kind].values()) + sum(b.notables.values())
        arched += bool(ARCHES[b.kind])
    return food, points, arched


def least_harmful(state: GameState, city: City) -> tuple[str, ...]:
    """**Decision** (rules §7): when the owner does not choose, keep what loses the least —
    food first, then service points — still keeping the city connected."""
    options = demolish_options(city)
    return min(options, key=lambda hs: harm(state, city, hs))


def demolish(state: GameState, city: City, hexes: tuple[str, ...], ev: Events, *, auto: bool) -> None:
    kinds = []
    for h in hexes:
        k = next(k for k, b in enumerate(city.buildings) if b.hex == h)
        b = city.buildings.pop(k)  # (by place: `remove` would compare models field by field)
        kinds.append(PHRASE.t("{building} {hex}", building=b.kind, hex=h))
    if auto:
        message = N_("{name}'s {city} demolishes {buildings} (the only possible choice).")
    else:
        message = N_("{name}'s {city} demolishes {buildings}.")
    ev.add(
        "demolish",
        message,
        {"name": state.players[city.owner].name, "city": city.name, "buildings": kinds},
        seat=city.owner,
        hexes=list(hexes),
    )
