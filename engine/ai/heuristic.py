"""The ``basic`` computer player: each legal move scored by the evaluation of its result.

Moves are not played out: their effect on the one city they touch (or the new city) is
applied to the evaluation's facts (`Evaluator.value_with`), which makes scoring a hundred
moves cost a few milliseconds. Reads only public facts and the seat's own polled cards.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from ..actions import Action
from ..board import BOARD
from ..cities import city_at, hex_food, room, touches
from ..components import ARCHES, NEEDS_LAKE, SERVICES, WATER
from ..construction import found_source
from ..placement import city_at_neighbour
from ..relocation import outcome, winners_against
from ..state import GameState
from ..turn import built_kind, card_cost
from .evaluate import CityFacts, Evaluator, FactsCache, city_facts, new_city_facts, with_building

POLL_VP = 0.3
"""What knowing two more voice cards is worth when relocation is at stake."""


def site_potential(state: GameState, label: str) -> float:
    """What the free hexes around a castle site promise: food, water, quarries."""
    areas = state.area_map()
    playable = BOARD.playable_idx(state.n_players)
    near = [n for n in BOARD.neighbour_idx[BOARD.index[label]] if n in playable]
    labels = [BOARD.labels[n] for n in near]
    farm = max((hex_food(areas, h) for h in labels), default=0)
    lake = any(touches(areas, h, "lake") for h in labels)
    mountain = any(touches(areas, h, "mountain") for h in labels)
    return 0.4 * farm + 0.3 * lake + 0.3 * mountain + 0.05 * len(near)


class Scorer:
    """Scores the legal moves of one seat in one position."""

    def __init__(self, state: GameState, seat: int, cache: FactsCache | None = None) -> None:
        self.state = state
        self.seat = seat
        self.ev = Evaluator.of(state, seat, cache)
        self.areas = state.area_map()
        self.index = {c.id: i for i, c in enumerate(state.cities)}
        self.base = self.ev.value()
        self._joins: dict[str, int] = {}
        """The city a building on a hex joins, by hex."""

    def _city_index(self, label: str) -> int:
        city = city_at(self.state, label)
        assert city is not None
        return self.index[city.id]

    def score(self, a: Action) -> float:
        """The evaluation after the move, less the evaluation before it."""
        return self._value(a) - self.base

    def _value(self, a: Action) -> float:
        v, ev, state = a.verb, self.ev, self.state
        if v == "gold":
            return ev.value_with(gold=2)
        if v == "pass":
            return ev.value()
        if v in ("found", "castle"):
            return self._castle(a)
        kind = built_kind(a)
        cost = -card_cost(a)
        if kind is not None:
            assert a.hex is not None
            i = self._joins.get(a.hex, -1)
            if i < 0:
                i = self._joins[a.hex] = self.index[city_at_neighbour(state, self.seat, a.hex).id]
            new = with_building(ev.facts[i], kind, a.hex, self.areas)
            return ev.value_with({i: new}, gold=cost) + self._build_extra(kind, a.hex, ev.facts[i])
        if v == "golden":
            assert a.hex is not None and a.n is not None
            i = self._city_index(a.hex)
            cf = ev.facts[i]
            gained = min(a.n, cf.room, state.supply_citizens)
            return ev.value_with({i: _replace_pop(cf, cf.pop + gained)}, gold=cost)
        if v == "bread":
            return self._bread(a, cost)
        if v == "harvest":
            assert a.hex is not None
            i = self._city_index(a.hex)
            cf = ev.facts[i]
            food = hex_food(self.areas, a.hex)
            return ev.value_with({i: _replace_food(cf, cf.food + food)})
        if v == "poll":
            return ev.value_with(gold=cost) + self._poll_value(a)
        if v == "first":
            return self._first(a)
        if v == "prefer":
            return ev.value() + self._prefer(a)
        if v == "demolish":
            i = self._city_index(a.hexes[0])
            city = state.cities[i]
            return ev.value_with({i: city_facts(city, self.areas, frozenset(a.hexes))})
        if v == "starve":
            return self._starve(a)
        return ev.value()

    def _castle(self, a: Action) -> float:
        assert a.hex is not None
        state, ev = self.state, self.ev
        if a.verb == "castle":
            new = new_city_facts(self.seat, a.hex, 3, self.areas)
            return ev.value_with(new=new) + site_potential(state, a.hex)
        source = city_at(state, a.source) if a.source else found_source(state, self.seat)
        assert source is not None
        i = self.index[source.id]
        extra = min(2, state.supply_citizens)
        new = new_city_facts(self.seat, a.hex, 1 + extra, self.areas)
        changes = {i: _replace_pop(ev.facts[i], ev.facts[i].pop - 1)}
        return ev.value_with(changes, new=new) + 0.5 * site_potential(state, a.hex)

    def _build_extra(self, kind: str, label: str, cf: CityFacts) -> float:
        """Small preferences the evaluation does not see: keep lake hexes for water."""
        if kind in NEEDS_LAKE or kind in WATER:
            return 0.0
        if touches(self.areas, label, "lake") and cf.limit <= 8:
            return -0.05
        return 0.0

    def _bread(self, a: Action, cost: int) -> float:
        assert a.hex is not None and a.n is not None
        i = self._city_index(a.hex)
        city = self.state.cities[i]
        b = next(b for b in city.buildings if b.hex == a.hex)
        service = a.service or next(iter(ARCHES[b.kind]))
        k = SERVICES.index(service)
        cf = self.ev.facts[i]
        serv = list(cf.serv)
        serv[k] += a.n
        new = _replace_serv(cf, (serv[0], serv[1], serv[2]))
        return self.ev.value_with({i: new}, gold=cost) - 0.05 * a.n

    def _poll_value(self, a: Action) -> float:
        state = self.state
        if state.voice_revealed:
            return 0.0
        peek = state.players[self.seat].peek
        unknown = [k for k in a.cards if peek[k] is None]
        stakes = sum(1 for i, cf in enumerate(self.ev.facts) if cf.owner == self.seat and self._contested(i))
        if not stakes:
            return 0.0
        return POLL_VP * min(3, stakes) * len(unknown) / 2

    def _contested(self, i: int) -> bool:
        cf = self.ev.facts[i]
        return any(o.owner != cf.owner and cf.near & o.hexes for o in self.ev.facts)

    def _prefer(self, a: Action) -> float:
        assert a.hex is not None and a.service is not None
        city = city_at(self.state, a.hex)
        assert city is not None
        won = winners_against(self.state, city, a.service)  # type: ignore[arg-type]
        return len(won) * (1.0 if room(city) > 0 else 0.6) + 0.01 * len(won)

    def _first(self, a: Action) -> float:
        """The position once the chosen city, then the other competing ones, have checked."""
        state = self.state
        decision = next(d for d in state.pending if d.kind == "first" and d.seat == self.seat)
        first = self._city_index(a.hex or "")
        rest = [self._city_index(h) for h in decision.cities]
        order = [state.cities[i] for i in [first, *(i for i in rest if i != first)]]
        pops = outcome(state, order)
        changes: dict[int, CityFacts | None] = {}
        for i, (cf, pop) in enumerate(zip(self.ev.facts, pops, strict=True)):
            if pop != cf.pop:
                changes[i] = None if pop == 0 else _replace_pop(cf, pop)
        return self.ev.value_with(changes)

    def _starve(self, a: Action) -> float:
        taken: Counter[int] = Counter(self._city_index(h) for h in a.hexes)
        changes: dict[int, CityFacts | None] = {}
        lost_buildings = 0
        for i, n in taken.items():
            cf = self.ev.facts[i]
            pop = cf.pop - n
            changes[i] = None if pop <= 0 else _replace_pop(cf, pop)
            lost_buildings += max(0, cf.buildings - max(0, pop - 1))
        return self.ev.value_with(changes) - 0.8 * lost_buildings


def _replace_pop(cf: CityFacts, pop: int) -> CityFacts:
    return replace(cf, pop=pop)


def _replace_food(cf: CityFacts, food: int) -> CityFacts:
    return replace(cf, food=food)


def _replace_serv(cf: CityFacts, serv: tuple[int, int, int]) -> CityFacts:
    return replace(cf, serv=serv)


def ranked(
    state: GameState, seat: int, moves: list[Action], cache: FactsCache | None = None
) -> list[tuple[float, Action]]:
    """The moves with their scores, best first (ties in the moves' canonical order)."""
    scorer = Scorer(state, seat, cache)
    scored = [(scorer.score(a), a) for a in moves]
    order = sorted(range(len(scored)), key=lambda k: (-scored[k][0], k))
    return [scored[k] for k in order]


def basic_move(
    state: GameState,
    seat: int,
    moves: list[Action],
    rng: random.Random | None = None,
    cache: FactsCache | None = None,
) -> Action:
    """The best-scored move; ``rng`` breaks near ties (within 0.01 VP) at random."""
    best = ranked(state, seat, moves, cache)
    if rng is None or len(best) == 1:
        return best[0][1]
    top = best[0][0]
    near = [a for s, a in best if s >= top - 0.01]
    return near[rng.randrange(len(near))]
