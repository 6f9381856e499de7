"""A turn of a political round carried out (rules §5, §6): `apply_turn` does what a move checked by
`engine.turn` (`turn_problem`, `legal_turn_moves`) says — gold, a city founded, a building, a
politics card played, a poll, a pass.
"""

from typing import Any, cast

from .actions import Action
from .cities import city_at, fitting, services
from .components import (
    ARCHES,
    POLITICS_TITLES,
    Service,
)
from .construction import add_building, found_city, found_source
from .events import Events
from .placement import (
    city_at_neighbour,
)
from .politics_row import draw_for_pass, take_from_row
from .state import GameState
from .turn import built_kind, card_cost
from .words import N_, PHRASE

BUILT = {
    (False, False): N_("{name} builds a {building} at {hex} in {city}."),
    (False, True): N_("{name} builds a {building} at {hex} in {city}: {changes}."),
    (True, False): N_("{name} builds a {building} at {hex} in {city} ({card}, {cost} gold)."),
    (True, True): N_("{name} builds a {building} at {hex} in {city} ({card}, {cost} gold): {changes}."),
}
"""A building placed, by whether a politics card built it and whether a service changed."""


def apply_turn(state: GameState, seat: int, a: Action, ev: Events) -> None:
    """Carry out a checked turn move."""
    p = state.players[seat]
    v = a.verb
    if v in ("gold", "found", "build"):
        p.action_cards -= 1
    if v == "gold":
        p.gold += 2
        ev.add("gold", N_("{name} takes 2 gold (now {gold})."), {"name": p.name, "gold": p.gold}, seat=seat)
        return
    if v == "found":
        assert a.hex is not None
        source = city_at(state, a.source) if a.source else found_source(state, seat)
        assert source is not None
        found_city(state, seat, a.hex, source, ev)
        return
    if v == "pass":
        draw_for_pass(state, seat, ev)
        return
    kind = built_kind(a)
    cost = card_cost(a)
    p.gold -= cost
    if kind is not None:
        _build(state, seat, kind, a, cost=cost, ev=ev)
    elif v == "golden":
        _golden(state, seat, a, ev)
    elif v == "bread":
        _bread(state, seat, a, ev)
    elif v == "harvest":
        _harvest(state, seat, a, ev)
    elif v == "poll":
        _poll(state, seat, a, ev)
    if a.is_politics:
        take_from_row(state, v, ev)


def _build(state: GameState, seat: int, kind: str, a: Action, cost: int, ev: Events) -> None:
    assert a.hex is not None
    city = city_at_neighbour(state, seat, a.hex)
    before = services(city)
    add_building(state, city, kind, a.hex)
    arches = ARCHES[kind]  # (what the new building adds: its arches, no notables yet)
    changes = [
        PHRASE.t("{service} {before}→{after}", service=s, before=n, after=n + arches[s])
        for s, n in before.items()
        if arches.get(s)
    ]
    values: dict[str, Any] = {
        "name": state.players[seat].name,
        "building": kind,
        "hex": a.hex,
        "city": city.name,
    }
    if a.is_politics:
        values |= {"card": POLITICS_TITLES[a.verb], "cost": cost}
    if changes:
        values["changes"] = changes
    ev.add(
        "build",
        BUILT[a.is_politics, bool(changes)],
        values,
        seat=seat,
        hexes=[a.hex],
        data={"kind": kind, "city": city.castle},
    )


def _golden(state: GameState, seat: int, a: Action, ev: Events) -> None:
    assert a.hex is not None and a.n is not None
    city = city_at(state, a.hex)
    assert city is not None
    gained = fitting(state, city, a.n)
    city.population += gained
    state.supply_citizens -= gained
    values: dict[str, Any] = {
        "name": state.players[seat].name,
        "citizens": PHRASE.n("{count} citizen", "{count} citizens", gained),
        "city": city.name,
    }
    if gained < a.n:
        message = N_("{name} plays Golden Times: {citizens} for {city} ({lost} did not fit).")
        values["lost"] = a.n - gained
    else:
        message = N_("{name} plays Golden Times: {citizens} for {city}.")
    ev.add(
        "golden",
        message,
        values,
        seat=seat,
        hexes=[city.castle],
    )


def _bread(state: GameState, seat: int, a: Action, ev: Events) -> None:
    assert a.hex is not None and a.n is not None
    city = city_at(state, a.hex)
    assert city is not None
    b = next(b for b in city.buildings if b.hex == a.hex)
    service = cast(Service, a.service or next(iter(ARCHES[b.kind])))
    b.notables[service] = b.notables.get(service, 0) + a.n
    state.players[seat].notables -= a.n
    ev.add(
        "bread",
        N_(
            "{name} plays Bread and Games: {notables} on the {building} at {hex}, {city} {service} "
            "{before}→{after}."
        ),
        {
            "name": state.players[seat].name,
            "notables": PHRASE.n("{count} notable", "{count} notables", a.n),
            "building": b.kind,
            "hex": a.hex,
            "city": city.name,
            "service": service,
            "before": services(city)[service] - a.n,
            "after": services(city)[service],
        },
        seat=seat,
        hexes=[a.hex],
    )


def _harvest(state: GameState, seat: int, a: Action, ev: Events) -> None:
    assert a.hex is not None
    city = city_at(state, a.hex)
    assert city is not None
    b = next(b for b in city.buildings if b.hex == a.hex)
    b.harvest = True
    state.players[seat].notables -= 1
    ev.add(
        "harvest",
        N_("{name} plays Rich Harvest on the farm at {hex}."),
        {"name": state.players[seat].name, "hex": a.hex},
        seat=seat,
        hexes=[a.hex],
    )


def _poll(state: GameState, seat: int, a: Action, ev: Events) -> None:
    p = state.players[seat]
    seen = {k: state.voice[k] for k in a.cards}
    for k, s in seen.items():
        p.peek[k] = s
    if len(a.cards) == 3:
        message = N_("{name} polls the people (all three of the face-down voice cards).")
        ev.add("poll", message, {"name": p.name}, seat=seat, reveals=True)
    else:
        ev.add(
            "poll",
            N_("{name} polls the people (cards {first} and {second} of the face-down voice cards)."),
            {"name": p.name, "first": a.cards[0], "second": a.cards[1]},
            seat=seat,
            reveals=True,
        )
    ev.add(
        "peek",
        N_("You polled the people: {cards}."),
        {"cards": [PHRASE.t("card {number} is {service}", number=k, service=s) for k, s in seen.items()]},
        seat=seat,
        private_to=seat,
        data={"cards": {str(k): s for k, s in seen.items()}},
    )
