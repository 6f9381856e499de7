"""Short human descriptions of legal moves, for autocomplete lists and confirmation prompts.

`describe(game, seat, action)` reads the position and says what the move would do, in one
line that starts with the move's notation text:

>>> from engine import Game
>>> g = Game.new(["Ann", "Bob"], seed=7)
>>> describe(g, 1, Action.parse("gold"))
'gold — take 2 gold (you have 1)'

Pure: no I/O, no imports from ``bot`` or ``render``. It assumes the move is legal for the
seat (it is meant for entries of `Game.legal_moves`); for anything else it still returns
the notation text, with as much description as it can give.
"""

from __future__ import annotations

from collections import Counter

from .actions import Action
from .cities import (
    UNLIMITED,
    area_map,
    city_at,
    hex_food,
    player_citizens,
    player_food,
    population_limit,
    room,
    service_points,
    terrain_sum,
)
from .components import ARCHES, SERVICES
from .construction import found_source
from .game import Game
from .placement import city_at_neighbour
from .relocation import takes_from, winners_against
from .state import Building, City, GameState
from .turn import built_kind, card_cost

MAX_LEN = 100
"""Discord's limit for an autocomplete choice name; descriptions are cut to fit."""


def describe(game: Game, seat: int, action: Action) -> str:
    """``"<move> — <what it does>"`` for ``seat`` in the current position (at most 100 characters).

    A move that leaves the player more citizens than food for this year's feeding (or more
    short than before) ends with a warning, which is kept when the text is cut to fit.
    """
    try:
        what = _what(game.state, seat, action)
        warning = _hunger_warning(game.state, seat, action)
    except (AssertionError, KeyError, LookupError, ValueError, IndexError):
        what = warning = ""
    head = f"{action} — {what}" if what else str(action)
    room = MAX_LEN - len(warning)
    if len(head) > room:
        head = head[: room - 1] + "…"
    return head + warning


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cost(state: GameState, seat: int, cost: int) -> str:
    if cost == 0:
        return "free"
    return f"{cost} gold (you have {state.players[seat].gold})"


def _limit_text(limit: int) -> str:
    return "none" if limit >= UNLIMITED else str(limit)


def _what(state: GameState, seat: int, a: Action) -> str:
    v = a.verb
    if v == "gold":
        return f"take 2 gold (you have {state.players[seat].gold})"
    if v == "pass":
        return "draw a politics card face down (no effect)"
    if v == "castle":
        assert a.hex is not None
        return f"starting castle, food {hex_food(area_map(state), a.hex)}"
    if v == "found":
        assert a.hex is not None
        source = city_at(state, a.source) if a.source else found_source(state, seat)
        src = (
            f", a citizen from {source.name} ({source.population}→{source.population - 1})" if source else ""
        )
        return f"new city, food {hex_food(area_map(state), a.hex)}{src}"
    if v == "first":
        return _first(state, a)
    kind = built_kind(a)
    if kind is not None:
        return _build(state, seat, kind, a)
    if v == "golden":
        return _golden(state, seat, a)
    if v == "bread":
        return _bread(state, seat, a)
    if v == "harvest":
        assert a.hex is not None
        food = hex_food(area_map(state), a.hex)
        return f"this farm's food counts twice this year (+{food}), 1 notable"
    if v == "poll":
        if len(a.cards) == 3:
            return f"look at all three face-down voice cards; {_cost(state, seat, card_cost(a))}"
        return f"look at face-down voice cards {a.cards[0]} and {a.cards[1]} (free)"
    if v == "prefer":
        return _prefer(state, a)
    if v == "demolish":
        return _demolish(state, a)
    if v == "starve":
        return _starve(state, a)
    return ""


def _build(state: GameState, seat: int, kind: str, a: Action) -> str:
    assert a.hex is not None
    city = city_at_neighbour(state, seat, a.hex)
    areas = area_map(state)
    effects: list[str] = []
    for s, n in ARCHES[kind].items():
        before = service_points(city, s)
        effects.append(f"{s} {before}→{before + n}")
    if kind == "farm":
        effects.append(f"food +{hex_food(areas, a.hex)}")
    elif kind == "quarry":
        effects.append(f"+{terrain_sum(areas, a.hex, 'mountain')} gold a year")
    if kind == "market":
        effects.append("+1 citizen")
    before = population_limit(city)
    after = population_limit(
        city.model_copy(update={"buildings": [*city.buildings, Building(hex=a.hex, kind=kind)]})
    )
    if after != before:
        effects.append(f"limit {_limit_text(before)}→{_limit_text(after)}")
    text = f"{city.name} " + ", ".join(effects) if effects else f"{city.name} gets a {kind}"
    if a.is_politics:
        text += f"; {_cost(state, seat, card_cost(a))}"
    return text


def _golden(state: GameState, seat: int, a: Action) -> str:
    assert a.hex is not None and a.n is not None
    city = _city(state, a.hex)
    fits = min(a.n, room(city), state.supply_citizens)
    cost = card_cost(a)
    paid = ", free" if cost == 0 else f" for {cost} gold"
    text = f"{city.name} +{_plural(a.n, 'citizen')}{paid}"
    if fits < a.n:
        text += f" (only {fits} fit{'s' if fits == 1 else ''})"
    return text


def _bread(state: GameState, seat: int, a: Action) -> str:
    assert a.hex is not None and a.n is not None
    city = _city(state, a.hex)
    b = next(b for b in city.buildings if b.hex == a.hex)
    service = a.service or next(iter(ARCHES[b.kind]))
    before = service_points(city, service)  # type: ignore[arg-type]
    cost = card_cost(a)
    paid = "free" if cost == 0 else f"for {cost} gold"
    return f"{city.name} {service} {before}→{before + a.n} this year, {_plural(a.n, 'notable')}, {paid}"


def _prefer(state: GameState, a: Action) -> str:
    assert a.hex is not None and a.service is not None
    city = _city(state, a.hex)
    losers = winners_against(state, city, a.service)  # type: ignore[arg-type]
    mine = service_points(city, a.service)  # type: ignore[arg-type]
    if not losers:
        return f"{city.name} compares {a.service} ({mine}): takes no citizen"
    names = ", ".join(c.name for c in losers)
    return f"{city.name} compares {a.service} ({mine}): takes a citizen from {names}"


def _first(state: GameState, a: Action) -> str:
    assert a.hex is not None
    city = _city(state, a.hex)
    taken = [
        f"{state.players[o.owner].name}'s {o.name}{' (last)' if o.population == 1 else ''}"
        for o in takes_from(state, city)
    ]
    if not taken:
        return f"{city.name} first: takes no citizen"
    full = "; full, to the supply" if room(city) == 0 else ""
    return f"{city.name} first: takes from {', '.join(taken)}{full}"


def _hunger_warning(state: GameState, seat: int, a: Action) -> str:
    """``"; ⚠ 14 citizens for 13 food"`` when the move makes the player short at feeding."""
    areas = area_map(state)
    citizens, food = player_citizens(state, seat), player_food(state, seat)
    more, grown = 0, 0
    v, kind = a.verb, built_kind(a)
    if v == "found" and a.hex is not None:
        more, grown = min(2, state.supply_citizens), hex_food(areas, a.hex)
    elif kind == "farm" and a.hex is not None:
        grown = hex_food(areas, a.hex)
    elif kind == "market":
        more = min(1, state.supply_citizens)
    elif v == "golden" and a.hex is not None and a.n is not None:
        more = min(a.n, room(_city(state, a.hex)), state.supply_citizens)
    elif v == "harvest" and a.hex is not None:
        grown = hex_food(areas, a.hex)
    elif v == "demolish":
        city = _city(state, a.hexes[0])
        grown = -sum(hex_food(areas, b.hex) * (2 if b.harvest else 1)
                     for b in city.buildings if b.kind == "farm" and b.hex in a.hexes)  # fmt: skip
    after = citizens + more - (food + grown)
    if after <= 0 or after <= citizens - food:
        return ""
    return f"; ⚠ {citizens + more} citizens for {food + grown} food"


def _demolish(state: GameState, a: Action) -> str:
    city = _city(state, a.hexes[0])
    kinds = {b.hex: b.kind for b in city.buildings}
    areas = area_map(state)
    lost_food = sum(hex_food(areas, h) for h in a.hexes if kinds.get(h) == "farm")
    lost: Counter[str] = Counter()
    for h in a.hexes:
        for s, n in ARCHES[kinds.get(h, "castle")].items():
            lost[s] += n
    parts = [f"{kinds.get(h, '?')} {h}" for h in a.hexes]
    losses = ([f"food −{lost_food}"] if lost_food else []) + [f"{s} −{lost[s]}" for s in SERVICES if lost[s]]
    tail = f" ({', '.join(losses)})" if losses else ""
    return f"{city.name} loses {', '.join(parts)}{tail}"


def _starve(state: GameState, a: Action) -> str:
    taken: Counter[str] = Counter()
    for h in a.hexes:
        taken[_city(state, h).name] += 1
    return ", ".join(f"{n} from {name}" for name, n in taken.items())


def _city(state: GameState, label: str) -> City:
    city = city_at(state, label)
    if city is None:
        raise LookupError(label)
    return city
