"""A turn of a political round: what a player may do, and doing it (rules §5, §6).

`turn_problem` says why a move is not allowed (or ``None``); `legal_turn_moves` lists the
allowed ones using the same checks; `apply_turn` carries a checked move out.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from .actions import Action
from .board import BOARD
from .cities import castle_citizens, city_at, room, services
from .components import (
    ARCHES,
    BREAD_COST,
    BUILDING_CARD_COST,
    BUILDINGS,
    CASTLES_PER_PLAYER,
    GOLDEN_COST,
    MASTER_COST,
    POLITICS_TITLES,
    POLL_ALL_COST,
    SIZE,
    SMALL,
    YEARS,
    Service,
)
from .construction import add_building, build_problem, found_city, found_source
from .events import Events
from .placement import (
    Table,
    building_sites,
    castle_problem,
    castle_sites,
    city_at_neighbour,
    city_building_problem,
    terrain_problem,
)
from .politics_row import draw_for_pass, take_from_row
from .state import City, GameState

TURN_VERBS = frozenset(
    {"gold", "found", "build", "palace", "hospital", "bath", "cathedral", "university",
     "master", "golden", "bread", "harvest", "poll", "pass"}
)  # fmt: skip


def card_cost(a: Action) -> int:
    """Gold a politics play costs (rules §6)."""
    v = a.verb
    if v in BUILDING_CARD_COST:
        return BUILDING_CARD_COST[v]
    if v == "master":
        return MASTER_COST[SIZE[a.building or "farm"]]
    if v == "golden":
        return GOLDEN_COST[a.n or 1]
    if v == "bread":
        return BREAD_COST[a.n or 1]
    if v == "poll":
        return POLL_ALL_COST if len(a.cards) == 3 else 0
    return 0


def built_kind(a: Action) -> str | None:
    """The building a move puts on the board, if any."""
    if a.verb in ("build", "master"):
        return a.building
    if a.verb in BUILDING_CARD_COST:
        return a.verb
    return None


# --- checks ---------------------------------------------------------------------------


def _action_card_problem(state: GameState, seat: int) -> str | None:
    if state.players[seat].action_cards <= 0:
        return "You have used all 3 action cards this year; play a politics card or pass."
    return None


def found_sources(state: GameState, seat: int) -> list[City]:
    """The cities of ``seat`` that can give a spare citizen to a new city (castle board order)."""
    spare = [c for c in state.cities_of(seat) if castle_citizens(c) >= 2]
    return sorted(spare, key=lambda c: BOARD.index[c.castle])


def _found_problem(t: Table, seat: int, label: str | None, source: str | None = None) -> str | None:
    state = t.state
    p = state.players[seat]
    if p.founded_this_year:
        return "You have already founded a city this year (at most one a year)."
    if len(state.cities_of(seat)) >= CASTLES_PER_PLAYER:
        return f"All {CASTLES_PER_PLAYER} of your castles are on the board."
    if found_source(state, seat) is None:
        return "Founding needs a spare citizen, and none of your castles has more than 1 citizen."
    if source is not None:
        city, problem = _own_city_at(t, seat, source)
        if city is None:
            return f"found … from {source}: {problem}"
        if castle_citizens(city) < 2:
            spare = ", ".join(f"{c.name} ({c.castle})" for c in found_sources(state, seat))
            return (
                f"{city.name} ({city.castle}) has {castle_citizens(city)} citizen in its castle, and "
                f"one must stay; take the citizen from {spare}."
            )
    return castle_problem(t, seat, label) if label else None


def _own_city_at(t: Table, seat: int, label: str) -> tuple[City | None, str | None]:
    city = city_at(t.state, label)
    if city is None:
        return None, f"There is no building at {label}; name a hex of one of your cities."
    if city.owner != seat:
        return None, f"{label} belongs to {t.describe_city(city, seat)}, not to you."
    return city, None


def _golden_problem(t: Table, seat: int, a: Action) -> str | None:
    assert a.hex is not None
    city, problem = _own_city_at(t, seat, a.hex)
    if city is None:
        return problem
    if t.state.supply_citizens <= 0:
        return "The citizen supply is empty: Golden Times would bring no one."
    if room(city) <= 0:
        return (
            f"{city.name} is at its population limit ({city.population}); no new citizen fits. "
            "A market lifts the limit from 5 to 8, a market with water removes it."
        )
    return None


def _bread_problem(t: Table, seat: int, a: Action) -> str | None:
    assert a.hex is not None and a.n is not None
    if t.state.players[seat].notables < a.n:
        left = t.state.players[seat].notables
        return f"Bread and Games {a.n} needs {a.n} notables; you have {left} left this year."
    city, problem = _own_city_at(t, seat, a.hex)
    if city is None:
        return problem
    b = next((b for b in city.buildings if b.hex == a.hex), None)
    if b is None or not ARCHES[b.kind]:
        what = "the castle" if b is None else f"the {b.kind}"
        return f"{what.capitalize()} at {a.hex} has no arches; choose a building with arches."
    arches = list(ARCHES[b.kind])
    if len(arches) > 1 and a.service is None:
        return f"Say which arch of the {b.kind}: bread {a.n} {a.hex} {' or '.join(arches)}."
    if a.service is not None and a.service not in arches:
        return f"The {b.kind} at {a.hex} has no {a.service} arch (it has {', '.join(arches)})."
    return None


def _harvest_problem(t: Table, seat: int, a: Action) -> str | None:
    assert a.hex is not None
    state = t.state
    if state.year >= YEARS:
        return "Rich Harvest cannot be played in the last year."
    if state.players[seat].notables < 1:
        return "Rich Harvest needs a notable; you have none left this year."
    city, problem = _own_city_at(t, seat, a.hex)
    if city is None:
        return problem
    b = next((b for b in city.buildings if b.hex == a.hex), None)
    if b is None or b.kind != "farm":
        return f"Rich Harvest goes on a farm, and {a.hex} is not one (a castle does not count)."
    if b.harvest:
        return f"The farm at {a.hex} already has a Rich Harvest this year."
    return None


def turn_problem(t: Table, seat: int, a: Action) -> str | None:
    """Why ``seat`` may not play ``a`` as its turn now, or ``None`` when it may."""
    state = t.state
    p = state.players[seat]
    v = a.verb
    if v not in TURN_VERBS:
        return f"'{a}' is not a move for your turn in a political round."
    if v in ("gold", "found", "build"):
        problem = _action_card_problem(state, seat)
        if problem:
            return problem
        if v == "gold":
            return None
        if v == "found":
            return _found_problem(t, seat, a.hex, a.source)
        assert a.building is not None and a.hex is not None
        return build_problem(t, seat, a.building, a.hex)
    if v == "pass":
        if p.action_cards > 0:
            return (
                f"You still have {p.action_cards} action card{'s' if p.action_cards > 1 else ''}; "
                "pass only when all are used (take 2 gold with 'gold' instead)."
            )
        return None
    # A politics card from the row.
    if v not in state.politics_row:
        return f"There is no {POLITICS_TITLES[v]} card in the face-up politics row."
    cost = card_cost(a)
    if p.gold < cost:
        return f"{POLITICS_TITLES[v]} ({a}) costs {cost} gold; you have {p.gold}."
    kind = built_kind(a)
    if kind is not None:
        assert a.hex is not None
        return build_problem(t, seat, kind, a.hex)
    if v == "golden":
        return _golden_problem(t, seat, a)
    if v == "bread":
        return _bread_problem(t, seat, a)
    if v == "harvest":
        return _harvest_problem(t, seat, a)
    return None  # poll: free or paid, checked above


# --- legal moves ----------------------------------------------------------------------


def legal_turn_moves(t: Table, seat: int) -> Iterator[Action]:
    """Every move ``seat`` may make as its turn, already in canonical (sorted) order."""
    state = t.state
    p = state.players[seat]
    row = set(state.politics_row)
    cities = sorted(state.cities_of(seat), key=lambda c: BOARD.index[c.castle])
    sites: dict[int, list[str]] = {}
    cache: dict[str, list[str]] = {}

    def buildable(kind: str) -> list[str]:
        if kind not in cache:
            if not sites:
                sites.update({c.id: building_sites(t, c) for c in cities})
            hexes = [
                h
                for c in cities
                if city_building_problem(t, c, kind) is None
                for h in sites[c.id]
                if terrain_problem(t, kind, h) is None
            ]
            cache[kind] = sorted(hexes, key=BOARD.index.__getitem__)
        return cache[kind]

    if p.action_cards > 0:
        yield Action("gold")
        if _found_problem(t, seat, None) is None:
            sources = [c.castle for c in found_sources(state, seat)]
            yield from (Action("found", hex=h, source=c) for h in castle_sites(t) for c in sources)
        for kind in SMALL:
            yield from (Action("build", hex=h, building=kind) for h in buildable(kind))
    for card, cost in BUILDING_CARD_COST.items():
        if card in row and p.gold >= cost:
            yield from (Action(card, hex=h) for h in buildable(card))
    if "master" in row:
        for kind in BUILDINGS:
            if p.gold >= MASTER_COST[SIZE[kind]]:
                yield from (Action("master", hex=h, building=kind) for h in buildable(kind))
    if "golden" in row and state.supply_citizens > 0:
        for n, cost in GOLDEN_COST.items():
            if p.gold >= cost:
                yield from (Action("golden", n=n, hex=c.castle) for c in cities if room(c) > 0)
    if "bread" in row:
        arched = sorted(
            (b for c in cities for b in c.buildings if ARCHES[b.kind]), key=lambda b: BOARD.index[b.hex]
        )
        for n, cost in BREAD_COST.items():
            if p.gold >= cost and p.notables >= n:
                for b in arched:
                    arches = list(ARCHES[b.kind])
                    if len(arches) == 1:
                        yield Action("bread", n=n, hex=b.hex)
                    else:
                        yield from (Action("bread", n=n, hex=b.hex, service=s) for s in arches)
    if "harvest" in row and state.year < YEARS and p.notables >= 1:
        farms = [b.hex for c in cities for b in c.buildings if b.kind == "farm" and not b.harvest]
        yield from (Action("harvest", hex=h) for h in sorted(farms, key=BOARD.index.__getitem__))
    if "poll" in row:
        yield from (Action("poll", cards=c) for c in ((1, 2), (1, 3), (2, 3)))
        if p.gold >= POLL_ALL_COST:
            yield Action("poll", cards=(1, 2, 3))
    if p.action_cards == 0:
        yield Action("pass")


# --- effects --------------------------------------------------------------------------


def apply_turn(state: GameState, seat: int, a: Action, ev: Events) -> None:
    """Carry out a checked turn move."""
    p = state.players[seat]
    v = a.verb
    if v in ("gold", "found", "build"):
        p.action_cards -= 1
    if v == "gold":
        p.gold += 2
        ev.add("gold", f"{p.name} takes 2 gold (now {p.gold}).", seat=seat)
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
    after = services(city)
    change = ", ".join(f"{s} {before[s]}→{after[s]}" for s in after if after[s] != before[s])
    how = "" if not a.is_politics else f" ({POLITICS_TITLES[a.verb]}, {cost} gold)"
    ev.add(
        "build",
        f"{state.players[seat].name} builds a {kind} at {a.hex} in {city.name}{how}"
        + (f": {change}." if change else "."),
        seat=seat,
        hexes=[a.hex],
        data={"kind": kind, "city": city.castle},
    )


def _golden(state: GameState, seat: int, a: Action, ev: Events) -> None:
    assert a.hex is not None and a.n is not None
    city = city_at(state, a.hex)
    assert city is not None
    gained = min(a.n, room(city), state.supply_citizens)
    city.population += gained
    state.supply_citizens -= gained
    lost = f" ({a.n - gained} did not fit)" if gained < a.n else ""
    ev.add(
        "golden",
        f"{state.players[seat].name} plays Golden Times: {gained} citizen"
        f"{'s' if gained != 1 else ''} for {city.name}{lost}.",
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
        f"{state.players[seat].name} plays Bread and Games: {a.n} notable"
        f"{'s' if a.n > 1 else ''} on the {b.kind} at {a.hex}, {city.name} {service} "
        f"{services(city)[service] - a.n}→{services(city)[service]}.",
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
        f"{state.players[seat].name} plays Rich Harvest on the farm at {a.hex}.",
        seat=seat,
        hexes=[a.hex],
    )


def _poll(state: GameState, seat: int, a: Action, ev: Events) -> None:
    p = state.players[seat]
    seen = {k: state.voice[k] for k in a.cards}
    for k, s in seen.items():
        p.peek[k] = s
    which = "all three" if len(a.cards) == 3 else f"cards {a.cards[0]} and {a.cards[1]}"
    ev.add(
        "poll",
        f"{p.name} polls the people ({which} of the face-down voice cards).",
        seat=seat,
        reveals=True,
    )
    ev.add(
        "peek",
        "You polled the people: " + ", ".join(f"card {k} is {s}" for k, s in seen.items()) + ".",
        seat=seat,
        private_to=seat,
        data={"cards": {str(k): s for k, s in seen.items()}},
    )
