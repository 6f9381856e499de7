"""Feeding the people (rules §8): citizens beyond a player's food leave for the supply."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Any

from .board import BOARD
from .cities import city_at, player_citizens, player_food
from .components import YEARS
from .construction import remove_city
from .events import Events
from .state import City, GameState, put
from .words import N_, PHRASE, Phrase

HUNGER_VP = 5


def shortage(state: GameState, seat: int) -> int:
    """How many citizens the player cannot feed this year."""
    return max(0, player_citizens(state, seat) - player_food(state, seat))


def starve_options(state: GameState, seat: int, count: int) -> list[tuple[str, ...]]:
    """Every way to take ``count`` citizens from the player's cities (castle hexes, repeated), in
    canonical order: each way's hexes in board order, the ways in the order of their hexes'
    board indexes (`Action.sort_key`), so that the answers need no sorting.

    **Decision**: the ways depend only on the cities' castles and populations and the count,
    and a starvation's are asked twice (when it is opened, then by `legal_moves` when another
    seat starves too), so they are kept for the last 256 positions asked (`_ways`; random
    games' largest has about a hundred ways)."""
    return list(_ways(starve_key(state, seat), count))


def starve_key(state: GameState, seat: int) -> tuple[tuple[str, int], ...]:
    """What the ways to starve depend on: the castle and the population of each city of
    ``seat``, in the board order of the castles (`_ways`)."""
    index = BOARD.index
    cities = [c for c in state.cities if c.owner == seat]
    if len(cities) > 1:
        cities.sort(key=lambda c: index[c.castle])
    return tuple([(c.castle, c.population) for c in cities])


def starve_ways(cities: tuple[tuple[str, int], ...], count: int) -> tuple[tuple[str, ...], ...]:
    """The ways of `starve_options` from ``cities`` (castle and population, in board order):
    from the first city most first, then from the others; a city is not asked for more than
    the cities from it on hold (``room``), nor for less than what they cannot give, and the
    last city gives the rest."""
    if count == 0:
        return ((),)
    last = len(cities) - 1
    room = [0] * (len(cities) + 1)
    for i in range(last, -1, -1):
        room[i] = room[i + 1] + cities[i][1]
    out: list[tuple[str, ...]] = []
    if room[0] >= count:
        _take(cities, room, out, 0, count, ())
    return tuple(out)


_ways = lru_cache(maxsize=256)(starve_ways)
"""`starve_ways`, kept for the last positions asked (`starve_options`)."""


def _take(
    cities: tuple[tuple[str, int], ...], room: list[int], out: list[tuple[str, ...]], i: int, left: int,
    prefix: tuple[str, ...],
) -> None:  # fmt: skip
    """`starve_ways`' search from city ``i`` on, ``left`` citizens still to take after ``prefix``.

    **Decision**: a function of its own, not one nested in `starve_ways` (which would refer to itself:
    a cycle of garbage after each search, which the garbage collector must find, and whose
    count sets it off: tests/test_engine_speed.py)."""
    castle, cap = cities[i]
    if i == len(cities) - 1:  # (asked only for what it holds)
        out.append(prefix + (castle,) * left)
        return
    for m in range(min(cap, left), max(0, left - room[i + 1]) - 1, -1):
        if m == left:
            out.append(prefix + (castle,) * m)
        else:
            _take(cities, room, out, i + 1, left - m, prefix + (castle,) * m)


def starve_problem(state: GameState, seat: int, count: int, hexes: tuple[str, ...]) -> Phrase | None:
    if len(hexes) != count:
        return PHRASE.t(
            "You must send away exactly {citizens}, not {given}.",
            citizens=PHRASE.n("{count} citizen", "{count} citizens", count), given=len(hexes),
        )  # fmt: skip
    taken: Counter[int] = Counter()
    for h in hexes:
        city = city_at(state, h)
        if city is None or city.owner != seat:
            return PHRASE.t("{hex} is not a building of one of your cities.", hex=h)
        taken[city.id] += 1
    for cid, n in taken.items():
        city = state.city_by_id(cid)
        if n > city.population:
            return PHRASE.t(
                "{city} has only {population} citizens; it cannot lose {count}.",
                city=city.name, population=city.population, count=n,
            )  # fmt: skip
    return None


def starve(state: GameState, seat: int, hexes: tuple[str, ...], ev: Events) -> None:
    """Send the named citizens to the supply and mark the hunger penalty (§8)."""
    p = state.players[seat]
    castles = {c.castle: c for c in state.cities}  # (a starvation names castles: `starve_options`)
    taken: dict[int, list[Any]] = {}  # city and count by city id, in the order first named
    for h in hexes:
        city = castles.get(h) or city_at(state, h)
        assert city is not None
        seen = taken.get(city.id)
        if seen is None:
            taken[city.id] = [city, 1]
        else:
            seen[1] += 1
    parts = []
    for city, n in taken.values():
        put(city, "population", city.population - n)
        put(state, "supply_citizens", state.supply_citizens + n)
        parts.append(PHRASE.t("{count} from {city}", count=n, city=city.name))
        if city.population == 0:
            remove_city(
                state, city, ev, N_("{name}'s {city} has no citizen left and is lost (its people starved).")
            )
    if state.year >= YEARS:
        message = N_("{name} cannot feed {citizens} ({parts}) and loses 5 victory points.")
    else:
        message = N_("{name} cannot feed {citizens} ({parts}) and loses their first turn next year.")
    citizens = PHRASE.n("{count} citizen", "{count} citizens", len(hexes))
    ev.add("starve", message, {"name": p.name, "citizens": citizens, "parts": parts}, seat=seat)
    if state.year >= YEARS:
        put(p, "hunger_vp", p.hunger_vp + HUNGER_VP)
    else:
        put(p, "hunger", True)


def least_harmful_starve(state: GameState, seat: int, count: int) -> tuple[str, ...]:
    """**Decision** (default when the player does not answer): take each citizen from the
    city with the most spare citizens on its castle, so that as few buildings as possible
    fall; on a tie, from the larger city, then the earliest founded."""
    pops: dict[int, int] = {c.id: c.population for c in state.cities_of(seat)}
    cities: dict[int, City] = {c.id: c for c in state.cities_of(seat)}
    out = []
    for _ in range(count):
        cid = max(
            (i for i in pops if pops[i] > 0),
            key=lambda i: (pops[i] - len(cities[i].buildings), pops[i], -i),
        )
        pops[cid] -= 1
        out.append(cities[cid].castle)
    return tuple(sorted(out, key=BOARD.sort_key))
