"""Feeding the people (rules §8): citizens beyond a player's food leave for the supply."""

from __future__ import annotations

from collections import Counter

from .board import BOARD
from .cities import city_at, player_citizens, player_food
from .components import YEARS
from .construction import remove_city
from .events import Events
from .state import City, GameState
from .words import N_, PHRASE, Phrase

HUNGER_VP = 5


def shortage(state: GameState, seat: int) -> int:
    """How many citizens the player cannot feed this year."""
    return max(0, player_citizens(state, seat) - player_food(state, seat))


def starve_options(state: GameState, seat: int, count: int) -> list[tuple[str, ...]]:
    """Every way to take ``count`` citizens from the player's cities (castle hexes, repeated), in
    canonical order: each way's hexes in board order, the ways in the order of their hexes'
    board indexes (`Action.sort_key`), so that the answers need no sorting.

    The ways from the ``i``-th city on, for each number of citizens left to take, are made
    once, from the last city back to the first (most from the ``i``-th first: the ways that
    begin with its castle more often come first); a list, not a generator per city: the
    ways are few, and a generator's steps cost more than the list."""
    cities = sorted(state.cities_of(seat), key=lambda c: BOARD.index[c.castle])
    done: list[tuple[str, ...]] = [()]
    after: list[list[tuple[str, ...]]] = [done] + [[] for _ in range(count)]  # by citizens left
    for city in reversed(cities):
        castle, cap = city.castle, city.population
        now: list[list[tuple[str, ...]]] = [done]
        for left in range(1, count + 1):
            ways: list[tuple[str, ...]] = []
            for m in range(min(cap, left), -1, -1):
                rest = after[left - m]
                if rest:
                    head = (castle,) * m
                    ways += [head + r for r in rest] if m else rest
            now.append(ways)
        after = now
    return after[count]


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
    taken: Counter[int] = Counter()
    for h in hexes:
        city = city_at(state, h)
        assert city is not None
        taken[city.id] += 1
    parts = []
    for cid, n in taken.items():
        city = state.city_by_id(cid)
        city.population -= n
        state.supply_citizens += n
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
        p.hunger_vp += HUNGER_VP
    else:
        p.hunger = True


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
