"""Short human descriptions of legal moves, for autocomplete lists and confirmation prompts.

`describe(game, seat, action)` reads the position and says what the move would do, in one
line that starts with the move's notation text (the rest in the language of ``words``, English
unless another is given):

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
    fitting,
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
from .state import City, GameState
from .turn import built_kind, card_cost
from .words import ENGLISH, Words, term

MAX_LEN = 100
"""Discord's limit for an autocomplete choice name; descriptions are cut to fit."""


def describe(
    game: Game, seat: int, action: Action, words: Words = ENGLISH, *, limit: int | None = MAX_LEN
) -> str:
    """``"<move> — <what it does>"`` for ``seat`` in the current position, in ``words``' language
    (at most ``limit`` characters; None: not cut).

    A move that leaves the player more citizens than food for this year's feeding (or more
    short than before) ends with a warning, which is kept when the text is cut to fit.
    """
    try:
        what = _what(game.state, seat, action, words)
        warning = _hunger_warning(game.state, seat, action, words)
    except (AssertionError, KeyError, LookupError, ValueError, IndexError):
        what = warning = ""
    head = f"{action} — {what}" if what else str(action)
    if limit is not None and len(head) > limit - len(warning):
        head = head[: limit - len(warning) - 1] + "…"
    return head + warning


def _citizens(words: Words, n: int) -> str:
    return words.n("{count} citizen", "{count} citizens", n)


def _cost(state: GameState, seat: int, cost: int, words: Words) -> str:
    if cost == 0:
        return words.t("free")
    return words.t("{cost} gold (you have {gold})", cost=cost, gold=state.players[seat].gold)


def _what(state: GameState, seat: int, a: Action, words: Words) -> str:
    v = a.verb
    if v == "gold":
        return words.t("take 2 gold (you have {gold})", gold=state.players[seat].gold)
    if v == "pass":
        return words.t("draw a politics card face down (no effect)")
    if v == "castle":
        assert a.hex is not None
        return words.t("starting castle, food {food}", food=hex_food(area_map(state), a.hex))
    if v == "found":
        assert a.hex is not None
        source = city_at(state, a.source) if a.source else found_source(state, seat)
        food = hex_food(area_map(state), a.hex)
        if source is None:
            return words.t("new city, food {food}", food=food)
        return words.t(
            "new city, food {food}, a citizen from {city} ({before}→{after})",
            food=food, city=source.name, before=source.population, after=source.population - 1,
        )  # fmt: skip
    if v == "first":
        return _first(state, a, words)
    kind = built_kind(a)
    if kind is not None:
        return _build(state, seat, kind, a, words)
    if v == "golden":
        return _golden(state, seat, a, words)
    if v == "bread":
        return _bread(state, seat, a, words)
    if v == "harvest":
        assert a.hex is not None
        food = hex_food(area_map(state), a.hex)
        return words.t("this farm's food counts twice this year (+{food}), 1 notable", food=food)
    if v == "poll":
        if len(a.cards) == 3:
            cost = _cost(state, seat, card_cost(a), words)
            return words.t("look at all three face-down voice cards; {cost}", cost=cost)
        return words.t(
            "look at face-down voice cards {first} and {second} (free)", first=a.cards[0], second=a.cards[1]
        )
    if v == "prefer":
        return _prefer(state, a, words)
    if v == "demolish":
        return _demolish(state, a, words)
    if v == "starve":
        return _starve(state, a, words)
    return ""


def _build(state: GameState, seat: int, kind: str, a: Action, words: Words) -> str:
    assert a.hex is not None
    city = city_at_neighbour(state, seat, a.hex)
    areas = area_map(state)
    effects: list[str] = []
    for s, n in ARCHES[kind].items():
        before = service_points(city, s)
        effects.append(
            words.t("{service} {before}→{after}", service=term(words, s), before=before, after=before + n)
        )
    if kind == "farm":
        effects.append(words.t("food +{food}", food=hex_food(areas, a.hex)))
    elif kind == "quarry":
        effects.append(words.t("+{gold} gold a year", gold=terrain_sum(areas, a.hex, "mountain")))
    if kind == "market":
        effects.append(words.t("+1 citizen"))
    before = population_limit(city)
    after = population_limit(city, adding=kind)
    if after != before:  # a limit only grows (or goes)
        if after >= UNLIMITED:
            effects.append(words.t("limit {before}→none", before=before))
        else:
            effects.append(words.t("limit {before}→{after}", before=before, after=after))
    if not a.is_politics:
        if effects:
            return words.t("{city} {effects}", city=city.name, effects=", ".join(effects))
        return words.t("{city} gets a {building}", city=city.name, building=term(words, kind))
    cost = _cost(state, seat, card_cost(a), words)
    if effects:
        return words.t("{city} {effects}; {cost}", city=city.name, effects=", ".join(effects), cost=cost)
    return words.t("{city} gets a {building}; {cost}", city=city.name, building=term(words, kind), cost=cost)


def _golden(state: GameState, seat: int, a: Action, words: Words) -> str:
    assert a.hex is not None and a.n is not None
    city = _city(state, a.hex)
    fits = fitting(state, city, a.n)
    cost = card_cost(a)
    values = {"city": city.name, "citizens": _citizens(words, a.n), "cost": cost}
    if fits >= a.n:
        if cost == 0:
            return words.t("{city} +{citizens}, free", **values)
        return words.t("{city} +{citizens} for {cost} gold", **values)
    fit = words.n("only {count} fits", "only {count} fit", fits)
    if cost == 0:
        return words.t("{city} +{citizens}, free ({fit})", fit=fit, **values)
    return words.t("{city} +{citizens} for {cost} gold ({fit})", fit=fit, **values)


def _bread(state: GameState, seat: int, a: Action, words: Words) -> str:
    assert a.hex is not None and a.n is not None
    city = _city(state, a.hex)
    b = next(b for b in city.buildings if b.hex == a.hex)
    service = a.service or next(iter(ARCHES[b.kind]))
    before = service_points(city, service)  # type: ignore[arg-type]
    cost = card_cost(a)
    values = {
        "city": city.name,
        "service": term(words, service),
        "before": before,
        "after": before + a.n,
        "notables": words.n("{count} notable", "{count} notables", a.n),
    }
    if cost == 0:
        return words.t("{city} {service} {before}→{after} this year, {notables}, free", **values)
    return words.t(
        "{city} {service} {before}→{after} this year, {notables}, for {cost} gold", cost=cost, **values
    )


def _prefer(state: GameState, a: Action, words: Words) -> str:
    assert a.hex is not None and a.service is not None
    city = _city(state, a.hex)
    losers = winners_against(state, city, a.service)  # type: ignore[arg-type]
    mine = service_points(city, a.service)  # type: ignore[arg-type]
    values = {"city": city.name, "service": term(words, a.service), "points": mine}
    if not losers:
        return words.t("{city} compares {service} ({points}): takes no citizen", **values)
    names = ", ".join(c.name for c in losers)
    return words.t(
        "{city} compares {service} ({points}): takes a citizen from {cities}", cities=names, **values
    )


def _first(state: GameState, a: Action, words: Words) -> str:
    assert a.hex is not None
    city = _city(state, a.hex)
    taken = [
        words.t("{name}'s {city} (last)", name=state.players[o.owner].name, city=o.name)
        if o.population == 1
        else words.t("{name}'s {city}", name=state.players[o.owner].name, city=o.name)
        for o in takes_from(state, city)
    ]
    if not taken:
        return words.t("{city} first: takes no citizen", city=city.name)
    if room(city) == 0:
        return words.t(
            "{city} first: takes from {cities}; full, to the supply", city=city.name, cities=", ".join(taken)
        )
    return words.t("{city} first: takes from {cities}", city=city.name, cities=", ".join(taken))


def _hunger_warning(state: GameState, seat: int, a: Action, words: Words) -> str:
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
        more = fitting(state, _city(state, a.hex), a.n)
    elif v == "harvest" and a.hex is not None:
        grown = hex_food(areas, a.hex)
    elif v == "demolish":
        city = _city(state, a.hexes[0])
        grown = -sum(hex_food(areas, b.hex) * (2 if b.harvest else 1)
                     for b in city.buildings if b.kind == "farm" and b.hex in a.hexes)  # fmt: skip
    after = citizens + more - (food + grown)
    if after <= 0 or after <= citizens - food:
        return ""
    return words.t(
        "; ⚠ {citizens} for {food} food", citizens=_citizens(words, citizens + more), food=food + grown
    )


def _demolish(state: GameState, a: Action, words: Words) -> str:
    city = _city(state, a.hexes[0])
    kinds = {b.hex: b.kind for b in city.buildings}
    areas = area_map(state)
    lost_food = sum(hex_food(areas, h) for h in a.hexes if kinds.get(h) == "farm")
    lost: Counter[str] = Counter()
    for h in a.hexes:
        for s, n in ARCHES[kinds.get(h, "castle")].items():
            lost[s] += n
    parts = ", ".join(
        words.t("{building} {hex}", building=term(words, kinds[h]), hex=h) if h in kinds else f"? {h}"
        for h in a.hexes
    )
    losses = [words.t("food −{food}", food=lost_food)] if lost_food else []
    losses += [
        words.t("{service} −{points}", service=term(words, s), points=lost[s]) for s in SERVICES if lost[s]
    ]
    if losses:
        return words.t(
            "{city} loses {buildings} ({losses})", city=city.name, buildings=parts, losses=", ".join(losses)
        )
    return words.t("{city} loses {buildings}", city=city.name, buildings=parts)


def _starve(state: GameState, a: Action, words: Words) -> str:
    taken: Counter[str] = Counter()
    for h in a.hexes:
        taken[_city(state, h).name] += 1
    return ", ".join(words.t("{count} from {city}", count=n, city=name) for name, n in taken.items())


def _city(state: GameState, label: str) -> City:
    city = city_at(state, label)
    if city is None:
        raise LookupError(label)
    return city
