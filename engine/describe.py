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
    population_limit,
    room,
    service_points,
    terrain_sum,
)
from .components import ARCHES, SERVICES, WATER
from .construction import found_source
from .game import Game
from .placement import city_at_neighbour
from .relocation import winners_against
from .state import City, GameState
from .turn import built_kind, card_cost

MAX_LEN = 100
"""Discord's limit for an autocomplete choice name; descriptions are cut to fit."""


def describe(game: Game, seat: int, action: Action) -> str:
    """``"<move> — <what it does>"`` for ``seat`` in the current position (at most 100 characters)."""
    try:
        what = _what(game.state, seat, action)
    except (AssertionError, KeyError, LookupError, ValueError, IndexError):
        what = ""
    text = f"{action} — {what}" if what else str(action)
    return text if len(text) <= MAX_LEN else text[: MAX_LEN - 1] + "…"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cost(state: GameState, seat: int, cost: int) -> str:
    if cost == 0:
        return "free"
    return f"{cost} gold (you have {state.players[seat].gold})"


def _limit_text(limit: int) -> str:
    return "no limit" if limit >= UNLIMITED else str(limit)


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
        source = found_source(state, seat)
        src = f", a citizen from {source.name}" if source else ""
        return f"new city, food {hex_food(area_map(state), a.hex)}{src}"
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
    elif kind == "market":
        effects.append(f"+1 citizen, limit {population_limit(city)}→8")
    if kind in WATER and any(b.kind == "market" for b in city.buildings):
        effects.append(f"limit {_limit_text(population_limit(city))}→none")
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
