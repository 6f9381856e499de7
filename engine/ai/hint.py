"""A hint for a player: the move the ``strong`` computer player would make, and one line on why.

The move is `choose(game, seat, "strong")`, which sees only the seat's view. The reason is
made of what the move does (`engine.describe`) and of what the seat may know: the public
board, the seat's own gold and food, and of the voice only the face-up card, the cards the
seat polled and a revealed voice — never another seat's polls, a face-down card it has not
seen, the politics pile or the seed.

>>> from engine import Game
>>> g = Game.new(["Ann", "Bob"], seed=7)
>>> h = hint(g, 1)
>>> h.move in g.legal_moves(1) and h.text().startswith("💡 ")
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..actions import Action
from ..board import BOARD
from ..cities import (
    UNLIMITED,
    city_at,
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
    VOICE_COPIES,
    YEARS,
    Service,
)
from ..construction import found_source
from ..describe import describe
from ..game import Game
from ..placement import city_at_neighbour
from ..relocation import outcome, winners_against
from ..state import Building, City, GameState
from ..turn import built_kind
from ..views import View
from . import choose
from .knowledge import _odds

LEVEL = "strong"
MIN_CARD_COST = {**BUILDING_CARD_COST, "master": MASTER_COST["small"]}
"""The least gold each politics card costs to play (the others have a free use)."""


@dataclass(frozen=True)
class Hint:
    """The suggested move, what it does (`describe`) and why, in one line each."""

    move: Action
    what: str
    why: str

    def text(self) -> str:
        """Two lines: ``💡 <move> — <what it does>`` and the reason."""
        return f"💡 {self.what}\n{self.why[:1].upper()}{self.why[1:]}."


def hint(game: Game, seat: int, *, seed: int = 0) -> Hint:
    """The ``strong`` player's move for ``seat`` and why; ValueError when nothing is asked of it."""
    moves = game.legal_moves(seat)
    if not moves:
        raise ValueError(f"Seat {seat} has nothing to decide now.")
    move = choose(game, seat, LEVEL, seed=seed)
    view = game.view(seat)
    if len(moves) == 1:
        why = "it is the only move you can make"
    else:
        try:
            why = _why(game.state, view, seat, move)
        except (AssertionError, KeyError, LookupError, ValueError):
            why = ""
        why = why or "the computer player rates it best of your moves"
    return Hint(move, describe(game, seat, move), why)


# --- what the seat knows of the voice --------------------------------------------------


def _known_cards(view: View) -> list[Service]:
    """This year's voice cards the viewer has seen (face up, revealed or polled)."""
    known = [s if s is not None else view.peek[k] for k, s in enumerate(view.voice)]
    return [s for s in known if s is not None]


def wanted_odds(view: View, service: Service) -> float | None:
    """The chance, by what the viewer knows, that the voice of this year asks for ``service``
    (alone or tied); None before the voice is drawn."""
    if view.voice_result:
        return 1.0 if service in view.voice_result else 0.0
    if not view.voice or view.voice[0] is None:
        return None
    known = tuple(s if s is not None else view.peek[k] for k, s in enumerate(view.voice))
    unseen: Counter[str] = Counter({s: VOICE_COPIES for s in SERVICES})
    unseen.subtract(view.voice_discard)
    unseen.subtract(_known_cards(view))
    odds = _odds(known, tuple(max(0, unseen[s]) for s in SERVICES))
    return sum(p for outcome, p in odds if service in outcome)


def voice_reason(view: View, service: Service) -> str:
    """What the viewer knows of ``service`` in this year's voice, e.g. ``education is face up``."""
    if view.voice_result:
        wanted = " and ".join(view.voice_result)
        if service in view.voice_result:
            return f"the people want {wanted}"
        return f"{service} lasts for later years"
    if not view.voice or view.voice[0] is None:
        return ""
    polled = [p for k, p in enumerate(view.peek) if k > 0 and view.voice[k] is None and p is not None]
    mine = polled.count(service)
    face = view.voice[0] == service
    odds = wanted_odds(view, service) or 0.0
    if face and mine:
        known = f"{service} is face up and you polled {_times(mine, 'another', 'two more')}"
    elif face:
        known = f"{service} is face up"
    elif mine:
        known = f"you polled {service} {_times(mine, 'once', 'twice')}"
    else:
        seen = f"{view.voice[0]} is face up" + (f" and you polled {', '.join(polled)}" if polled else "")
        if odds < 0.005:
            return f"{service} lasts for later years ({seen})"
        return f"{seen}: {service} is {odds:.0%} likely by what you know"
    if odds > 0.995:
        return f"{known}, so the people want {service}"
    return f"{known} ({odds:.0%} likely by what you know)"


def _times(n: int, one: str, two: str) -> str:
    return one if n == 1 else two if n == 2 else f"{n}"


# --- why, per kind of move -------------------------------------------------------------


def _why(state: GameState, view: View, seat: int, a: Action) -> str:
    v = a.verb
    kind = built_kind(a)
    if v == "gold":
        return _gold(state, view, seat)
    if v == "pass":
        if state.players[seat].action_cards == 0:
            return "you have no action card left, and no politics card in the row is worth its price to you"
        return "nothing you can do now is worth more than keeping your cards"
    if v in ("castle", "found"):
        return _site(state, seat, a)
    if kind is not None:
        return _build(state, view, seat, kind, a)
    if v == "golden":
        return _golden(state, view, seat, a)
    if v == "bread":
        return _bread(state, view, a)
    if v == "harvest":
        assert a.hex is not None
        return _food(view, seat, hex_food(state.area_map(), a.hex))
    if v == "poll":
        return _poll(state, view, seat)
    if v == "prefer":
        return _prefer(state, seat, a)
    if v == "first":
        return _first(state, seat, a)
    if v == "demolish":
        return _demolish(state, a)
    if v == "starve":
        return _starve(state, view, seat, a)
    return ""


def _gold(state: GameState, view: View, seat: int) -> str:
    gold = state.players[seat].gold
    dear = sorted(
        (MIN_CARD_COST[c], POLITICS_TITLES[c]) for c in dict.fromkeys(view.politics_row)
        if MIN_CARD_COST.get(c, 0) > gold
    )  # fmt: skip
    if dear:
        cost, title = dear[0]
        return f"you have {gold} gold and {title} costs {cost}"
    if view.year >= YEARS:
        return f"you have {gold} gold, and gold breaks a tie on points at the end"
    return f"you have {gold} gold; the politics cards to come cost gold"


def _food(view: View, seat: int, more: int, citizens: int = 0) -> str:
    me = view.players[seat]
    need = me.citizens + citizens
    short = f", short by {need - me.food}" if need > me.food else ""
    return f"you have {me.food} food for {need} citizens{short}; this makes it {me.food + more}"


def _site(state: GameState, seat: int, a: Action) -> str:
    assert a.hex is not None
    areas = state.area_map()
    playable = BOARD.playable_idx(state.n_players)
    near = [BOARD.labels[n] for n in BOARD.neighbour_idx[BOARD.index[a.hex]] if n in playable]
    near = [h for h in near if city_at(state, h) is None]
    parts = [f"{hex_food(areas, a.hex)} food on {a.hex}"]
    farm = max((hex_food(areas, h) for h in near), default=0)
    if farm:
        parts.append(f"a farm site with {farm} food next to it")
    if any(touches(areas, h, "lake") for h in near):
        parts.append("a lake for a fountain")
    if any(touches(areas, h, "mountain") for h in near):
        parts.append("a mountain for a quarry")
    text = ", ".join(parts)
    if a.verb == "found":
        source = city_at(state, a.source) if a.source else found_source(state, seat)
        if source is not None and source.population >= population_limit(source):
            text += f"; {source.name} is full ({source.population}), so the citizen it gives is not lost"
    return text


def _with(city: City, kind: str, label: str) -> City:
    return city.model_copy(update={"buildings": [*city.buildings, Building(hex=label, kind=kind)]})


def _rivals(state: GameState, city: City, service: Service, after: int) -> str:
    """``Siena would have 2 education against Firenze's 0`` (the rival cities within reach)."""
    rivals = opposing_neighbours(state, city)
    if not rivals:
        return f"{city.name} would have {after} {service} (no rival city within reach)"
    theirs = [f"{c.name}'s {service_points(c, service)}" for c in rivals[:3]]
    more = f" and {len(rivals) - 3} more" if len(rivals) > 3 else ""
    return f"{city.name} would have {after} {service} against {', '.join(theirs)}{more}"


def _build(state: GameState, view: View, seat: int, kind: str, a: Action) -> str:
    assert a.hex is not None
    city = city_at_neighbour(state, seat, a.hex)
    after = _with(city, kind, a.hex)
    arches = ARCHES[kind]
    if arches:
        service = max(arches, key=lambda s: (wanted_odds(view, s) or 0.0, arches[s], -SERVICES.index(s)))
        text = f"{voice_reason(view, service)}; " if view.phase == "politics" else ""
        text += _rivals(state, after, service, service_points(after, service))
        if has_all_services(after) and not has_all_services(city):
            text += f", and it gives {city.name} all three services (+3 VP at the end)"
        return text
    areas = state.area_map()
    if kind == "farm":
        return _food(view, seat, hex_food(areas, a.hex))
    if kind == "quarry":
        gold = terrain_sum(areas, a.hex, "mountain")
        years = YEARS - view.year
        return f"+{gold} gold a year for the {years} years to come" if years else f"+{gold} gold a year"
    if kind == "market":
        limit = population_limit(city)
        if city.population >= limit:
            return (
                f"{city.name} is full at {limit}: a market brings one more citizen and lifts the limit to 8"
            )
        return f"a market brings {city.name} a citizen and lifts its limit from {limit} to 8"
    return ""


def _golden(state: GameState, view: View, seat: int, a: Action) -> str:
    assert a.hex is not None and a.n is not None
    city = city_at(state, a.hex)
    assert city is not None
    gained = min(a.n, room(city), state.supply_citizens)
    me = view.players[seat]
    need = me.citizens + gained
    fed = "and you can feed them" if need <= me.food else f"but you have {me.food} food for {need} citizens"
    space = "no population limit" if room(city) >= UNLIMITED // 2 else f"room for {room(city)}"
    return f"each citizen is a victory point: {city.name} has {space}, {fed}"


def _bread(state: GameState, view: View, a: Action) -> str:
    assert a.hex is not None and a.n is not None
    city = city_at(state, a.hex)
    assert city is not None
    b = next(b for b in city.buildings if b.hex == a.hex)
    service: Service = a.service or next(iter(ARCHES[b.kind]))  # type: ignore[assignment]
    after = service_points(city, service) + a.n
    reason = voice_reason(view, service)
    rivals = _rivals(state, city, service, after)
    return f"{reason}; {rivals} this year" if reason else f"{rivals} this year"


def _poll(state: GameState, view: View, seat: int) -> str:
    known = len(_known_cards(view))
    stakes = [c.name for c in state.cities_of(seat) if opposing_neighbours(state, c)]
    where = f"{', '.join(stakes[:3])} {'has' if len(stakes) == 1 else 'have'} rival cities within reach"
    knows = f"you know {known} of the 4 voice cards"
    return f"{knows}, and {where}" if stakes else knows


def _prefer(state: GameState, seat: int, a: Action) -> str:
    assert a.hex is not None and a.service is not None
    city = city_at(state, a.hex)
    assert city is not None
    asked = [d for d in state.pending if d.seat == seat and d.kind == "prefer"]
    decision = next(d for d in asked if d.city == city.castle)
    counts = [(s, len(winners_against(state, city, s))) for s in decision.services]
    text = "; ".join(f"{s} takes {_citizens(n)}" for s, n in counts)
    full = f" ({city.name} is full: they go to the supply)" if room(city) == 0 else ""
    return f"in {city.name}, {text}{full}"


def _citizens(n: int) -> str:
    return "no citizen" if n == 0 else "1 citizen" if n == 1 else f"{n} citizens"


def _first(state: GameState, seat: int, a: Action) -> str:
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
        return (
            f"either way your cities end with {mine} citizens, and this way {city.name} grows "
            f"({city.population}→{grown})"
        )
    alt = ", ".join(f"{n} if {name} goes first" for name, n in others.items())
    return f"your cities end with {mine} citizens this way ({alt})"


def _demolish(state: GameState, a: Action) -> str:
    city = city_at(state, a.hexes[0])
    assert city is not None
    kept = [b.kind for b in city.buildings if b.hex not in a.hexes]
    keeps = ", ".join(kept) if kept else "nothing but its castle"
    citizens = _citizens(city.population)
    return f"{city.name} has {citizens} for {len(city.buildings)} buildings; it keeps {keeps}"


def _starve(state: GameState, view: View, seat: int, a: Action) -> str:
    me = view.players[seat]
    taken: Counter[str] = Counter(a.hexes)
    parts = []
    for label, n in taken.items():
        city = city_at(state, label)
        assert city is not None
        left = city.population - n
        lost = max(0, len(city.buildings) - max(0, left - 1))
        parts.append(f"{city.name} {city.population}→{left}" + (f" (loses {lost} building{'s' * (lost > 1)})"
                                                               if lost else ""))  # fmt: skip
    return f"you have {me.food} food for {me.citizens} citizens; this costs the least: {', '.join(parts)}"
