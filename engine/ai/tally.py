"""The end of a year played out on the evaluation's facts, for every voice the seat thinks possible.

At the end of the political rounds the `strong` player's play-outs stop before the tally. This
module carries each possible voice (weighted by the odds the seat knows, `knowledge.voice_odds`)
through relocation (rules §7: seat by seat from the start player, a tied voice chosen per city
to take the most), the demolition of unmanned buildings (the least harmful first: food, then
service points; the connection rule is left out), feeding (§8: the hungry lose citizens from
the cities with the most spare ones, then more buildings) and the hunger penalty. What is left
is valued as the position of the next year, or in the last year as the final scores: the
margin over the best other player plus a bonus for the win, ties going to the most gold
(§9) — so gold counts exactly as much as the tie-break makes it worth.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..cities import hex_food
from ..components import ARCHES, ROUNDS, YEARS
from ..feeding import HUNGER_VP
from ..scoring import COMPLETE_CITY_VP
from ..state import Area, City, GameState
from .evaluate import HUNGER_TURN_VP, SERVICE_INDEX, CityFacts, Context, Evaluator, FactsCache
from .knowledge import voice_odds

WIN_VP = 10.0
"""A won game over its score margin (a win shared by k players counts 1/k)."""
MIN_ODDS = 0.01
"""Voices less likely than this are left out (the others weighted up to a whole)."""


@dataclass
class YearEnd:
    """The cities of a position at the end of the political rounds, and who neighbours whom."""

    state: GameState
    cities: list[City]
    facts: list[CityFacts]
    neighbours: list[list[int]]
    order: list[int]
    """City indices in relocation order: seats from the start player, each in founding order."""

    @property
    def pops(self) -> tuple[int, ...]:
        return tuple(f.pop for f in self.facts)


def year_end(state: GameState, cache: FactsCache) -> YearEnd:
    """The cities of ``state`` and their neighbours, for `relocated` and `year_end_value`."""
    areas = state.area_map()
    cities = list(state.cities)
    facts = [cache.facts(c, areas) for c in cities]
    neighbours = [
        [j for j, b in enumerate(facts) if j != i and b.owner != a.owner and not a.near.isdisjoint(b.hexes)]
        for i, a in enumerate(facts)
    ]
    n = state.n_players
    seats = [(state.start_player + k) % n for k in range(n)]
    order = [i for s in seats for i, c in enumerate(cities) if c.owner == s]
    return YearEnd(state, cities, facts, neighbours, order)


def relocated(year: YearEnd, voice: tuple[int, ...]) -> tuple[int, ...]:
    """Every city's population after relocation with ``voice`` (service indices)."""
    facts, pops = year.facts, [f.pop for f in year.facts]
    for i in year.order:
        if pops[i] == 0:
            continue
        mine = facts[i].serv
        k = voice[0]
        if len(voice) > 1:  # a tied voice: the service that takes from more neighbours
            k = max(
                voice,
                key=lambda s: sum(1 for j in year.neighbours[i] if pops[j] and facts[j].serv[s] < mine[s]),
            )
        for j in year.neighbours[i]:
            if pops[j] and facts[j].serv[k] < mine[k]:
                pops[j] -= 1
                if pops[i] < facts[i].limit:
                    pops[i] += 1
    return tuple(pops)


def _harm(areas: dict[str, Area], city: City) -> list[tuple[int, int, str]]:
    """The city's buildings, least harmful to lose first: (food, service points, hex)."""
    out = []
    for b in city.buildings:
        food = hex_food(areas, b.hex) * (2 if b.harvest else 1) if b.kind == "farm" else 0
        out.append((food, sum(ARCHES[b.kind].values()) + sum(b.notables.values()), b.hex))
    out.sort()
    return out


def _after(year: YearEnd, i: int, pop: int, cache: FactsCache) -> CityFacts | None:
    """City ``i`` with ``pop`` citizens and its unmanned buildings demolished (None: it is lost)."""
    if pop <= 0:
        return None
    cf = year.facts[i]
    excess = cf.buildings - (pop - 1)
    if excess <= 0:
        return cf if pop == cf.pop else replace(cf, pop=pop)
    city = year.cities[i]
    areas = year.state.area_map()
    drop = frozenset(h for _, _, h in _harm(areas, city)[:excess])
    return replace(cache.facts(city, areas, drop), pop=pop)


def _fed(
    year: YearEnd, after: list[CityFacts | None], cache: FactsCache
) -> tuple[list[CityFacts | None], set[int]]:
    """The cities once every player has fed their people, and the seats that went hungry."""
    hungry: set[int] = set()
    for seat in range(year.state.n_players):
        mine = {i: cf for i, cf in enumerate(after) if cf is not None and cf.owner == seat}
        short = sum(cf.pop - cf.food for cf in mine.values())
        if short <= 0:
            continue
        hungry.add(seat)
        pops = {i: cf.pop for i, cf in mine.items()}
        for _ in range(short):  # from the city with the most spare citizens (`least_harmful_starve`)
            i = max(pops, key=lambda i: (pops[i] - mine[i].buildings, pops[i], -i))
            pops[i] -= 1
            if pops[i] == 0:
                del pops[i]
                after[i] = None
        for i, pop in pops.items():
            if pop != mine[i].pop:  # rebuilt from the city as it stood, fewer buildings kept
                after[i] = _after(year, i, pop, cache)
    return after, hungry


def _outcome_facts(
    year: YearEnd, pops: tuple[int, ...], cache: FactsCache
) -> tuple[list[CityFacts], set[int]]:
    after = [_after(year, i, pop, cache) for i, pop in enumerate(pops)]
    fed, hungry = _fed(year, after, cache)
    return [cf for cf in fed if cf is not None], hungry


def final_scores(state: GameState, facts: list[CityFacts], hungry: set[int]) -> list[int]:
    """Rules §9 on the facts: citizens, +3 per city with every service's arch, year-6 hunger."""
    scores = [p.hunger_vp + (HUNGER_VP if p.seat in hungry else 0) for p in state.players]
    scores = [-s for s in scores]
    for cf in facts:
        scores[cf.owner] += cf.pop + (COMPLETE_CITY_VP if all(cf.arch) else 0)
    return scores


def final_value(state: GameState, seat: int, scores: list[int]) -> float:
    """The seat's margin over the best other player, and its share of the win (gold breaks ties)."""
    gold = [p.gold for p in state.players]
    best = max(scores)
    tied = [s for s, v in enumerate(scores) if v == best]
    most = max(gold[s] for s in tied)
    winners = [s for s in tied if gold[s] == most]
    others = max((v for s, v in enumerate(scores) if s != seat), default=0)
    won = WIN_VP / len(winners) if seat in winners else 0.0
    return scores[seat] - others + won


def _next_year_value(state: GameState, seat: int, facts: list[CityFacts], hungry: set[int]) -> float:
    ctx = Context(
        seat=seat, players=state.n_players, year=max(1, state.year), odds={}, relocation_ahead=False,
        feeding_ahead=False, turns_left=ROUNDS * (YEARS - max(1, state.year)),
    )  # fmt: skip
    ev = Evaluator(ctx, facts, [p.gold for p in state.players], [p.hunger_vp for p in state.players])
    values = [v - (HUNGER_TURN_VP if s in hungry else 0.0) for s, v in enumerate(ev.values)]
    return ev.relative(values)


def year_end_value(state: GameState, seat: int, cache: FactsCache) -> float:
    """The seat's expected value once this year's voice, relocation and feeding are over, from
    a position at the end of the political rounds (the voice not yet revealed to it)."""
    year = year_end(state, cache)
    odds = [(o, p) for o, p in voice_odds(state, seat).items() if p >= MIN_ODDS] or [((), 1.0)]
    last = state.year >= YEARS
    memo: dict[tuple[int, ...], float] = {}
    total = weight = 0.0
    for out, p in odds:
        pops = relocated(year, tuple(SERVICE_INDEX[s] for s in out)) if out else year.pops
        value = memo.get(pops)
        if value is None:
            facts, hungry = _outcome_facts(year, pops, cache)
            if last:
                value = final_value(state, seat, final_scores(state, facts, hungry))
            else:
                value = _next_year_value(state, seat, facts, hungry)
            memo[pops] = value
        total += p * value
        weight += p
    return total / weight
