"""A turn of a political round carried out (rules §5, §6): `apply_turn` does what a move checked by
`engine.turn` (`turn_problem`, `legal_turn_moves`) says — gold, a city founded, a building, a
politics card played, a poll, a pass.
"""

from typing import Any, cast

from .actions import POLITICS_VERBS, Action
from .board import BOARD
from .cities import city_at, fitting, service_points, services
from .components import (
    ARCHES,
    POLITICS_TITLES,
    SERVICES,
    TOKEN_STACK,
    Service,
)
from .construction import add_building, found_city, found_source
from .events import Events
from .placement import WITHIN2, Table, city_at_neighbour
from .politics_row import draw_for_pass, take_from_row
from .state import City, GameState, put
from .turn import built_kind, card_cost
from .words import N_, PHRASE

BUILT = {
    (False, False): N_("{name} builds a {building} at {hex} in {city}."),
    (False, True): N_("{name} builds a {building} at {hex} in {city}: {changes}."),
    (True, False): N_("{name} builds a {building} at {hex} in {city} ({card}, {cost} gold)."),
    (True, True): N_("{name} builds a {building} at {hex} in {city} ({card}, {cost} gold): {changes}."),
}
"""A building placed, by whether a politics card built it and whether a service changed."""


def apply_turn(state: GameState, seat: int, a: Action, ev: Events, t: Table | None = None) -> None:
    """Carry out a checked turn move.

    ``t``: the lookups of the position the move is played in, if any; they are kept up to date
    (`carry`), so that they are the lookups of the position after it."""
    p = state.players[seat]
    v = a.verb
    if v in ("gold", "found", "build"):
        put(p, "action_cards", p.action_cards - 1)
    if v == "gold":
        put(p, "gold", p.gold + 2)
        ev.add("gold", N_("{name} takes 2 gold (now {gold})."), {"name": p.name, "gold": p.gold}, seat=seat)
        return
    if v == "found":
        assert a.hex is not None
        source = city_at(state, a.source) if a.source else found_source(state, seat)
        assert source is not None
        city = found_city(state, seat, a.hex, source, ev)
        if t is not None:
            carry(t, city, a.hex, None)
        return
    if v == "pass":
        draw_for_pass(state, seat, ev)
        return
    if v == "build":  # (the most played: a small building, no card, no cost)
        kind, cost = a.building, 0
    else:
        kind, cost = built_kind(a), card_cost(a)
    if cost:  # (a field already set: paying nothing leaves it as it is)
        put(p, "gold", p.gold - cost)
    if kind is not None:
        _build(state, seat, kind, a, cost=cost, ev=ev, t=t)
    elif v == "golden":
        _golden(state, seat, a, ev)
    elif v == "bread":
        _bread(state, seat, a, ev)
    elif v == "harvest":
        _harvest(state, seat, a, ev)
    elif v == "poll":
        _poll(state, seat, a, ev)
    if v in POLITICS_VERBS:  # (`Action.is_politics`, without the property)
        take_from_row(state, v, ev)


def _build(state: GameState, seat: int, kind: str, a: Action, cost: int, ev: Events, t: Table | None) -> None:
    label = a.hex
    assert label is not None
    city = _joined(t, seat, label) if t is not None else None
    if city is None:
        city = city_at_neighbour(state, seat, label)
    arches = ARCHES[kind]  # (what the new building adds: its arches, no notables yet)
    before = {s: service_points(city, s) for s in SERVICES if arches.get(s)}
    add_building(state, city, kind, label)
    if t is not None:
        carry(t, city, label, kind)
    changes = [
        PHRASE.t("{service} {before}→{after}", service=s, before=n, after=n + arches[s])
        for s, n in before.items()
    ]
    values: dict[str, Any] = {
        "name": state.players[seat].name,
        "building": kind,
        "hex": label,
        "city": city.name,
    }
    card = a.verb in POLITICS_VERBS
    if card:
        values |= {"card": POLITICS_TITLES[a.verb], "cost": cost}
    if changes:
        values["changes"] = changes
    ev.add(
        "build",
        BUILT[card, bool(changes)],
        values,
        seat=seat,
        hexes=[label],
        data={"kind": kind, "city": city.castle},
    )


def _joined(t: Table, seat: int, label: str) -> City | None:
    """The city of ``seat`` a building on ``label`` joins, read from the occupancy of ``t`` when
    it is made (a checked placement touches that one city only, `engine.placement.site_city`)."""
    occ: dict[int, City] | None = t.__dict__.get("occ")
    if occ is None:
        return None
    for n in BOARD.neighbour_idx[BOARD.index[label]]:
        c = occ.get(n)
        if c is not None and c.owner == seat:
            return c
    return None


def carry(t: Table, city: City, label: str, kind: str | None) -> None:
    """Keep the lookups of ``t`` that are made (the occupancy and its masks of taken and free
    hexes, the token stacks, the hexes too near for a castle) up to date with a castle (``kind``
    None) or a building of ``kind`` just placed on ``label`` for ``city``; the castle sites are
    found again when the hexes too near for one changed.

    **Decision**: a turn changes the board by one hex at most, so the next turn's search
    (`engine.decisions.open_decision`) starts from these lookups instead of making them again
    over every city (`Table.cities_of`); tests/test_engine_speed.py compares them with fresh
    ones after every move of random games. So for the building sites of each city found so far
    (`Table.sites`): a hex taken changes those of the cities with a building at most 2 steps
    from it (a site is next to its city, and no site is next to another city), which are
    found again when next asked; and the cities of each seat (`Table.mine`), of which a new
    castle changes its owner's."""
    d, i = t.__dict__, BOARD.index[label]
    occ = d.get("occ")
    if occ is not None:
        occ[i] = city
    taken, free = d.get("taken"), d.get("free")
    if taken is not None:
        d["taken"] = taken | 1 << i
    if free is not None:
        d["free"] = free & ~(1 << i)
    sites = d.get("sites")
    if sites:
        if occ is None:
            sites.clear()
        else:
            for m in WITHIN2[i]:
                c = occ.get(m)
                if c is not None:
                    sites.pop(c.id, None)
    if kind is None:
        mine = d.get("mine")
        if mine:
            mine.pop(city.owner, None)
    blocked = d.get("blocked")
    if blocked is not None and blocked | BOARD.within3_mask[i] != blocked:
        d["blocked"] = blocked | BOARD.within3_mask[i]
        d.pop("castle_idx", None)
    used = d.get("stacks_used")
    if used is not None and kind is not None:
        used[TOKEN_STACK[kind]] += 1


def _golden(state: GameState, seat: int, a: Action, ev: Events) -> None:
    assert a.hex is not None and a.n is not None
    city = city_at(state, a.hex)
    assert city is not None
    gained = fitting(state, city, a.n)
    put(city, "population", city.population + gained)
    put(state, "supply_citizens", state.supply_citizens - gained)
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
    put(state.players[seat], "notables", state.players[seat].notables - a.n)
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
    put(b, "harvest", True)
    put(state.players[seat], "notables", state.players[seat].notables - 1)
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
