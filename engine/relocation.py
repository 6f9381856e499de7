"""The voice of the people and citizen relocation (rules §4.6, §7).

Relocation goes seat by seat from the start player. On a seat's turn each of its cities
compares one service with every opposing neighbour; each neighbour with strictly fewer
points gives it one citizen. With a tied voice the owner picks the service per city — asked
(`prefer HEX S`) only when the two services would not take from the same neighbours.
"""

from __future__ import annotations

from collections import Counter

from .cities import opposing_neighbours, room, service_points
from .components import SERVICES, Service
from .construction import remove_city
from .events import Events
from .state import City, GameState


def tally(state: GameState, ev: Events) -> None:
    """Reveal the face-down cards and find the voice: the service with more cards than each
    other, or the two services at 2–2 (§4.6)."""
    state.voice_revealed = True
    counts = Counter(state.voice)
    top = max(counts.values())
    result = [s for s in SERVICES if counts[s] == top]
    state.voice_result = result
    want = " and ".join(result) + (" (tied: each player chooses per city)" if len(result) > 1 else "")
    ev.add(
        "tally",
        f"The voice of the people is revealed ({', '.join(state.voice)}): the people want {want}.",
        reveals=True,
        data={"voice": list(state.voice), "result": result},
    )


def winners_against(state: GameState, city: City, service: Service) -> list[City]:
    """Opposing neighbours with strictly fewer points than ``city`` in ``service``."""
    mine = service_points(city, service)
    return [n for n in opposing_neighbours(state, city) if service_points(n, service) < mine]


def choice_matters(state: GameState, city: City) -> bool:
    """With a tied voice: would the two services take from different neighbours?"""
    a, b = state.voice_result
    return [c.id for c in winners_against(state, city, a)] != [c.id for c in winners_against(state, city, b)]


def cities_needing_preference(state: GameState, seat: int) -> list[City]:
    """Cities of ``seat`` whose tied-voice service must be chosen by the player now."""
    if len(state.voice_result) < 2:
        return []
    return [c for c in state.cities_of(seat) if c.id not in state.preferred and choice_matters(state, c)]


def service_for(state: GameState, city: City) -> Service:
    """The service a city compares this year (its owner's choice when the voice is tied)."""
    return state.preferred.get(city.id, state.voice_result[0])


def relocate(state: GameState, seat: int, ev: Events) -> None:
    """One seat's relocation turn: every city of ``seat`` takes from weaker neighbours."""
    name = state.players[seat].name
    for city in list(state.cities_of(seat)):
        if not any(c is city for c in state.cities):
            continue  # lost earlier this turn
        service = service_for(state, city)
        for other in winners_against(state, city, service):
            other.population -= 1
            if room(city) > 0:
                city.population += 1
                where = f"moves to {city.name}"
            else:
                state.supply_citizens += 1
                where = f"leaves for the supply ({city.name} is full)"
            ev.add(
                "relocate",
                f"{service.capitalize()}: a citizen of {state.players[other.owner].name}'s "
                f"{other.name} {where} ({name}).",
                seat=seat,
                hexes=[other.castle, city.castle],
                data={"service": service, "from": other.castle, "to": city.castle},
            )
            if other.population == 0:
                remove_city(state, other, ev, f"its citizens left for {city.name}")
