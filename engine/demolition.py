"""Demolishing unmanned buildings (rules §7 demolition, §8).

A city with P citizens keeps its castle and P−1 other buildings. The owner picks which go;
the kept buildings and the castle must stay connected. The castle goes last: only a city
with no citizen loses it (handled where the last citizen leaves).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from .board import BOARD
from .cities import area_map, hex_food
from .components import ARCHES
from .events import Events
from .state import City, GameState
from .words import N_, PHRASE, Phrase


def excess_buildings(city: City) -> int:
    """How many buildings the city cannot man: it must demolish that many."""
    k = len(city.buildings) - (city.population - 1)
    return k if k > 0 else 0  # (no call to `max`: asked of every city at a year's end)


def iter_demolish_options(city: City) -> Iterator[tuple[str, ...]]:
    """Every legal set of hexes to demolish (each sorted in board order), in canonical order
    (`demolish_options`)."""
    k = excess_buildings(city)
    if k == 0:
        return
    yield from _demolitions(city.castle, tuple([b.hex for b in city.buildings]), k)


def demolish_options(city: City) -> list[tuple[str, ...]]:
    """Every legal set of hexes to demolish, sorted (by the board indexes of their hexes)."""
    return list(iter_demolish_options(city))


@lru_cache(maxsize=256)
def _demolitions(castle: str, hexes: tuple[str, ...], k: int) -> tuple[tuple[str, ...], ...]:
    """The ways for a city of castle ``castle`` and buildings ``hexes`` to demolish ``k`` of
    them, keeping the others connected to the castle; sorted.

    **Decision**: a demolition's ways depend only on these, and they are asked more than once
    (when it is opened, by `legal_moves`, by `least_harmful`), so they are kept for the last
    256 cities asked. The buildings are bits in board order (``adj``: each one's neighbours among
    them); each connected set of kept buildings is found once: candidates are taken in order
    and either joined (adding their neighbours not yet seen) or banned for the rest of that
    branch (tests/test_engine_speed.py compares with every choice of ``k`` buildings)."""
    index = BOARD.index
    at = sorted([index[h] for h in hexes])
    bit = {x: 1 << i for i, x in enumerate(at)}
    home = index[castle]
    adj = [0] * len(at)
    roots = 0
    for i, x in enumerate(at):
        for n in BOARD.neighbour_idx[x]:
            if n in bit:
                adj[i] |= bit[n]
            elif n == home:
                roots |= 1 << i
    kept: list[int] = []
    _grow(adj, len(at) - k, kept, 0, 0, roots, 0)
    every, labels = (1 << len(at)) - 1, BOARD.labels
    ways = [[at[i] for i in range(len(at)) if gone >> i & 1] for gone in [every & ~m for m in kept]]
    ways.sort()
    return tuple([tuple([labels[x] for x in way]) for way in ways])


def _grow(
    adj: list[int], keep: int, kept: list[int], chosen: int, size: int, cands: int, banned: int
) -> None:
    """`_demolitions`' search: each connected set of ``keep`` buildings that holds ``chosen``
    (``size`` of them), may add ``cands`` and not ``banned``, into ``kept``.

    **Decision**: a function of its own, as `engine.feeding._take` is: no cycle of garbage."""
    if size == keep:
        kept.append(chosen)
        return
    while cands:
        v = cands & -cands
        cands ^= v
        _grow(
            adj,
            keep,
            kept,
            chosen | v,
            size + 1,
            cands | (adj[v.bit_length() - 1] & ~chosen & ~banned & ~v),
            banned,
        )
        banned |= v


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
