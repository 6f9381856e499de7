"""Why a move is good for a seat, in a clause (`reason`): what the move does for it, told from the
public board and what the seat's view lets it know — of the voice only the face-up card, the cards
it polled and a revealed voice (`wanted_odds`, `voice_reason`), never another seat's polls, a
face-down card it has not seen, the politics pile or the seed. The hint (`engine.ai.hint`) and the
judgement of a move made (`engine.ai.judge`) give it."""

from __future__ import annotations

from collections import Counter

from ..actions import Action
from ..board import BOARD
from ..cities import (
    UNLIMITED,
    city_at,
    fitting,
    has_all_services,
    hex_food,
    opposing_neighbours,
    population_limit,
    room,
    service_points,
    terrain_sum,
    touches,
)
from ..components import (
    ARCHES,
    BUILDING_CARD_COST,
    MASTER_COST,
    POLITICS_TITLES,
    SERVICES,
    YEARS,
    Service,
)
from ..construction import found_source
from ..placement import city_at_neighbour
from ..relocation import outcome, winners_against
from ..state import Building, City, GameState
from ..turn import built_kind
from ..views import View
from ..words import ENGLISH, Words, term
from .voice_words import known_cards, voice_reason, wanted_odds

MIN_CARD_COST = {**BUILDING_CARD_COST, "master": MASTER_COST["small"]}
"""The least gold each politics card costs to play (the others have a free use)."""


def reason(state: GameState, view: View, seat: int, move: Action, words: Words = ENGLISH) -> str:
    """Why ``move`` is good for ``seat``, in a clause (no capital, no full stop), from the public
    board of ``state`` and what ``view`` lets the seat know; "" when there is nothing particular
    to say. ``state`` may be the real one or a sample consistent with ``view``
    (`engine.ai.determinize`): only what they share is read."""
    try:
        return _why(state, view, seat, move, words)
    except (AssertionError, KeyError, LookupError, ValueError):
        return ""


# --- why, per kind of move -------------------------------------------------------------


def _why(state: GameState, view: View, seat: int, a: Action, words: Words = ENGLISH) -> str:
    v = a.verb
    kind = built_kind(a)
    if v == "gold":
        return _gold(state, view, seat, words)
    if v == "pass":
        if state.players[seat].action_cards == 0:
            return words.t(
                "you have no action card left, and no politics card in the row is worth its price to you"
            )
        return words.t("nothing you can do now is worth more than keeping your cards")
    if v in ("castle", "found"):
        return _site(state, seat, a, words)
    if kind is not None:
        return _build(state, view, seat, kind, a, words)
    if v == "golden":
        return _golden(state, view, seat, a, words)
    if v == "bread":
        return _bread(state, view, a, words)
    if v == "harvest":
        assert a.hex is not None
        return _food(view, seat, hex_food(state.area_map(), a.hex), words)
    if v == "poll":
        return _poll(state, view, seat, words)
    if v == "prefer":
        return _prefer(state, seat, a, words)
    if v == "first":
        return _first(state, seat, a, words)
    if v == "demolish":
        return _demolish(state, a, words)
    if v == "starve":
        return _starve(state, view, seat, a, words)
    return ""


def _gold(state: GameState, view: View, seat: int, words: Words) -> str:
    gold = state.players[seat].gold
    dear = sorted(
        (MIN_CARD_COST[c], POLITICS_TITLES[c]) for c in dict.fromkeys(view.politics_row)
        if MIN_CARD_COST.get(c, 0) > gold
    )  # fmt: skip
    if dear:
        cost, title = dear[0]
        return words.t(
            "you have {gold} gold and {card} costs {cost}", gold=gold, card=term(words, title), cost=cost
        )
    if view.year >= YEARS:
        return words.t("you have {gold} gold, and gold breaks a tie on points at the end", gold=gold)
    return words.t("you have {gold} gold; the politics cards to come cost gold", gold=gold)


def _food(view: View, seat: int, more: int, words: Words, citizens: int = 0) -> str:
    me = view.players[seat]
    need = me.citizens + citizens
    if need > me.food:
        return words.t(
            "you have {food} food for {need} citizens, short by {short}; this makes it {total}",
            food=me.food, need=need, short=need - me.food, total=me.food + more,
        )  # fmt: skip
    return words.t(
        "you have {food} food for {need} citizens; this makes it {total}",
        food=me.food,
        need=need,
        total=me.food + more,
    )


def _site(state: GameState, seat: int, a: Action, words: Words) -> str:
    assert a.hex is not None
    areas = state.area_map()
    playable = BOARD.playable_idx(state.n_players)
    near = [BOARD.labels[n] for n in BOARD.neighbour_idx[BOARD.index[a.hex]] if n in playable]
    near = [h for h in near if city_at(state, h) is None]
    parts = [words.t("{food} food on {hex}", food=hex_food(areas, a.hex), hex=a.hex)]
    farm = max((hex_food(areas, h) for h in near), default=0)
    if farm:
        parts.append(words.t("a farm site with {food} food next to it", food=farm))
    if any(touches(areas, h, "lake") for h in near):
        parts.append(words.t("a lake for a fountain"))
    if any(touches(areas, h, "mountain") for h in near):
        parts.append(words.t("a mountain for a quarry"))
    text = ", ".join(parts)
    if a.verb == "found":
        source = city_at(state, a.source) if a.source else found_source(state, seat)
        if source is not None and source.population >= population_limit(source):
            text = words.t(
                "{site}; {city} is full ({population}), so the citizen it gives is not lost",
                site=text, city=source.name, population=source.population,
            )  # fmt: skip
    return text


def _with(city: City, kind: str, label: str) -> City:
    return city.model_copy(update={"buildings": [*city.buildings, Building(hex=label, kind=kind)]})


def _rivals(state: GameState, city: City, service: Service, after: int, words: Words) -> str:
    """``Siena would have 2 education against Firenze's 0`` (the rival cities within reach)."""
    rivals = opposing_neighbours(state, city)
    values = {"city": city.name, "points": after, "service": term(words, service)}
    if not rivals:
        return words.t("{city} would have {points} {service} (no rival city within reach)", **values)
    theirs = ", ".join(
        words.t("{city}'s {points}", city=c.name, points=service_points(c, service)) for c in rivals[:3]
    )
    if len(rivals) > 3:
        return words.t(
            "{city} would have {points} {service} against {rivals} and {more} more",
            rivals=theirs, more=len(rivals) - 3, **values,
        )  # fmt: skip
    return words.t("{city} would have {points} {service} against {rivals}", rivals=theirs, **values)


def _build(state: GameState, view: View, seat: int, kind: str, a: Action, words: Words) -> str:
    assert a.hex is not None
    city = city_at_neighbour(state, seat, a.hex)
    after = _with(city, kind, a.hex)
    arches = ARCHES[kind]
    if arches:
        service = max(arches, key=lambda s: (wanted_odds(view, s) or 0.0, arches[s], -SERVICES.index(s)))
        text = _rivals(state, after, service, service_points(after, service), words)
        if has_all_services(after) and not has_all_services(city):
            text = words.t(
                "{rivals}, and it gives {city} all three services (+3 VP at the end)",
                rivals=text,
                city=city.name,
            )
        if view.phase == "politics":
            text = words.t("{reason}; {rivals}", reason=voice_reason(view, service, words), rivals=text)
        return text
    areas = state.area_map()
    if kind == "farm":
        return _food(view, seat, hex_food(areas, a.hex), words)
    if kind == "quarry":
        gold = terrain_sum(areas, a.hex, "mountain")
        years = YEARS - view.year
        if years:
            return words.t("+{gold} gold a year for the {years} years to come", gold=gold, years=years)
        return words.t("+{gold} gold a year", gold=gold)
    if kind == "market":
        limit = population_limit(city)
        if city.population >= limit:
            return words.t(
                "{city} is full at {limit}: a market brings one more citizen and lifts the limit to 8",
                city=city.name, limit=limit,
            )  # fmt: skip
        return words.t(
            "a market brings {city} a citizen and lifts its limit from {limit} to 8",
            city=city.name,
            limit=limit,
        )
    return ""


def _golden(state: GameState, view: View, seat: int, a: Action, words: Words) -> str:
    assert a.hex is not None and a.n is not None
    city = city_at(state, a.hex)
    assert city is not None
    gained = fitting(state, city, a.n)
    me = view.players[seat]
    need = me.citizens + gained
    if need <= me.food:
        fed = words.t("and you can feed them")
    else:
        fed = words.t("but you have {food} food for {need} citizens", food=me.food, need=need)
    if room(city) >= UNLIMITED // 2:
        space = words.t("no population limit")
    else:
        space = words.t("room for {count}", count=room(city))
    return words.t(
        "each citizen is a victory point: {city} has {space}, {fed}", city=city.name, space=space, fed=fed
    )


def _bread(state: GameState, view: View, a: Action, words: Words) -> str:
    assert a.hex is not None and a.n is not None
    city = city_at(state, a.hex)
    assert city is not None
    b = next(b for b in city.buildings if b.hex == a.hex)
    service: Service = a.service or next(iter(ARCHES[b.kind]))  # type: ignore[assignment]
    after = service_points(city, service) + a.n
    reason = voice_reason(view, service, words)
    rivals = _rivals(state, city, service, after, words)
    if reason:
        return words.t("{reason}; {rivals} this year", reason=reason, rivals=rivals)
    return words.t("{rivals} this year", rivals=rivals)


def _poll(state: GameState, view: View, seat: int, words: Words) -> str:
    known = len(known_cards(view))
    stakes = [c.name for c in state.cities_of(seat) if opposing_neighbours(state, c)]
    if not stakes:
        return words.t("you know {known} of the 4 voice cards", known=known)
    if len(stakes) == 1:
        return words.t(
            "you know {known} of the 4 voice cards, and {cities} has rival cities within reach",
            known=known, cities=stakes[0],
        )  # fmt: skip
    return words.t(
        "you know {known} of the 4 voice cards, and {cities} have rival cities within reach",
        known=known, cities=", ".join(stakes[:3]),
    )  # fmt: skip


def _prefer(state: GameState, seat: int, a: Action, words: Words) -> str:
    assert a.hex is not None and a.service is not None
    city = city_at(state, a.hex)
    assert city is not None
    asked = [d for d in state.pending if d.seat == seat and d.kind == "prefer"]
    decision = next(d for d in asked if d.city == city.castle)
    counts = [(s, len(winners_against(state, city, s))) for s in decision.services]
    takes = [
        words.t("{service} takes {citizens}", service=term(words, s), citizens=_citizens(taken, words))
        for s, taken in counts
    ]
    text = "; ".join(takes)
    if room(city) == 0:
        return words.t(
            "in {city}, {choices} ({city} is full: they go to the supply)", city=city.name, choices=text
        )
    return words.t("in {city}, {choices}", city=city.name, choices=text)


def _citizens(n: int, words: Words) -> str:
    return words.t("no citizen") if n == 0 else words.n("{count} citizen", "{count} citizens", n)


def _first(state: GameState, seat: int, a: Action, words: Words) -> str:
    assert a.hex is not None
    city = city_at(state, a.hex)
    assert city is not None
    decision = next(d for d in state.pending if d.seat == seat and d.kind == "first")
    cities = [c for c in (city_at(state, h) for h in decision.cities) if c is not None]

    def citizens_after(first: City) -> int:
        order = [first, *(c for c in cities if c is not first)]
        pops = outcome(state, order)
        return sum(p for c, p in zip(state.cities, pops, strict=True) if c.owner == seat)

    mine = citizens_after(city)
    others = {c.name: citizens_after(c) for c in cities if c is not city}
    if all(n == mine for n in others.values()):
        grown = dict(zip((c.id for c in state.cities), outcome(state, [city]), strict=True))[city.id]
        return words.t(
            "either way your cities end with {count} citizens, and this way {city} grows ({before}→{after})",
            count=mine, city=city.name, before=city.population, after=grown,
        )  # fmt: skip
    alt = ", ".join(words.t("{count} if {city} goes first", count=n, city=name) for name, n in others.items())
    return words.t(
        "your cities end with {count} citizens this way ({alternatives})", count=mine, alternatives=alt
    )


def _demolish(state: GameState, a: Action, words: Words) -> str:
    city = city_at(state, a.hexes[0])
    assert city is not None
    kept = [b.kind for b in city.buildings if b.hex not in a.hexes]
    keeps = term(words, kept) if kept else words.t("nothing but its castle")
    return words.t(
        "{city} has {citizens} for {built} buildings; it keeps {kept}",
        city=city.name, citizens=_citizens(city.population, words), built=len(city.buildings), kept=keeps,
    )  # fmt: skip


def _starve(state: GameState, view: View, seat: int, a: Action, words: Words) -> str:
    me = view.players[seat]
    taken: Counter[str] = Counter(a.hexes)
    parts = []
    for label, n in taken.items():
        city = city_at(state, label)
        assert city is not None
        left = city.population - n
        lost = max(0, len(city.buildings) - max(0, left - 1))
        if lost:
            loses = words.n("loses {count} building", "loses {count} buildings", lost)
            parts.append(
                words.t(
                    "{city} {before}→{after} ({loses})",
                    city=city.name,
                    before=city.population,
                    after=left,
                    loses=loses,
                )
            )
        else:
            parts.append(
                words.t("{city} {before}→{after}", city=city.name, before=city.population, after=left)
            )
    return words.t(
        "you have {food} food for {citizens} citizens; this costs the least: {parts}",
        food=me.food, citizens=me.citizens, parts=", ".join(parts),
    )  # fmt: skip
