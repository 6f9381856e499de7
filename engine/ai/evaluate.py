"""A static evaluation of a position for one seat, in victory points, built to be changed fast.

`Evaluator` sums what each city and each pair of opposing neighbour cities is worth to
their owners: citizens, the 3-service bonus, room to grow, the expected relocation of this
year (from the voice odds the seat knows) and service strength for later years, then
per player the food balance, gold and quarry income. A move usually changes one city, so
`value_with` recomputes only that city's terms (added straight into per-seat sums), and a
`FactsCache` lets a search build each city's facts once for the thousands of positions it
meets. It reads only public facts and the seat's own polled cards (through
`knowledge.voice_odds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..board import BOARD
from ..cities import UNLIMITED, hex_food, population_limit, terrain_sum
from ..components import ARCHES, ROUNDS, SERVICES, WATER, YEARS
from ..scoring import COMPLETE_CITY_VP
from ..state import Area, City, GameState
from .knowledge import Outcome, voice_odds

PARTIAL = (0.0, 0.5, 1.3, float(COMPLETE_CITY_VP))
"""Worth of a city with 0–3 of the services' arches (the last is the real bonus)."""
GROWTH_VP = 0.7
FUTURE_RELOCATION = 0.25
HUNGER_TURN_VP = 1.5
HUNGER_LAST_YEAR_VP = 5.0
SHORT_VP = 1.5
NEXT_YEAR_VP = 0.6
NEXT_LAST_YEAR_VP = 1.5
"""Per citizen the food of next year will not cover (more when next year is the last)."""
SERVICE_INDEX = {s: i for i, s in enumerate(SERVICES)}

# Per-player aggregate slots.
POP, RELOC, FOOD, BASE_FOOD, GROWTH_NEXT, BONUS, QUARRY, GAINS = range(8)
SLOTS = 8


@dataclass(frozen=True, slots=True)
class CityFacts:
    """What the evaluation needs of one city."""

    owner: int
    pop: int
    limit: int
    buildings: int
    food: int
    base_food: int
    """Food without this year's Rich Harvest."""
    serv: tuple[int, int, int]
    """Culture, education, health with this year's notables."""
    arch: tuple[int, int, int]
    """The same from arches only (what lasts)."""
    quarry: int
    hexes: frozenset[int]
    near: frozenset[int]

    @property
    def room(self) -> int:
        return max(0, self.limit - self.pop)


def city_facts(city: City, areas: dict[str, Area], drop: frozenset[str] = frozenset()) -> CityFacts:
    """Facts of ``city``, optionally without the buildings on the hexes in ``drop``."""
    kept = [b for b in city.buildings if b.hex not in drop]
    serv = [0, 0, 0]
    arch = [0, 0, 0]
    base_food = hex_food(areas, city.castle)
    food = base_food
    quarry = 0
    for b in kept:
        for s, n in ARCHES[b.kind].items():
            arch[SERVICE_INDEX[s]] += n
            serv[SERVICE_INDEX[s]] += n
        for s, n in b.notables.items():
            serv[SERVICE_INDEX[s]] += n
        if b.kind == "farm":
            f = hex_food(areas, b.hex)
            base_food += f
            food += 2 * f if b.harvest else f
        elif b.kind == "quarry":
            quarry += terrain_sum(areas, b.hex, "mountain")
    hexes = frozenset(BOARD.index[h] for h in (city.castle, *(b.hex for b in kept)))
    probe = city.model_copy(update={"buildings": kept})
    return CityFacts(
        owner=city.owner, pop=city.population, limit=population_limit(probe), buildings=len(kept),
        food=food, base_food=base_food, serv=(serv[0], serv[1], serv[2]), arch=(arch[0], arch[1], arch[2]),
        quarry=quarry, hexes=hexes, near=_near(hexes),
    )  # fmt: skip


CityKey = tuple[object, ...]


def city_key(city: City) -> CityKey:
    """What `city_facts` reads of a city (the terrain never changes during a game)."""
    return (
        city.owner, city.castle, city.population,
        tuple((b.hex, b.kind, b.harvest, tuple(b.notables.items())) for b in city.buildings),
    )  # fmt: skip


class FactsCache:
    """`city_facts` of the cities of one game, remembered by what they depend on: a search
    meets the same cities in thousands of positions."""

    def __init__(self) -> None:
        self._facts: dict[tuple[CityKey, frozenset[str]], CityFacts] = {}

    def facts(self, city: City, areas: dict[str, Area], drop: frozenset[str] = frozenset()) -> CityFacts:
        key = (city_key(city), drop)
        found = self._facts.get(key)
        if found is None:
            if len(self._facts) > 50_000:
                self._facts.clear()
            found = self._facts[key] = city_facts(city, areas, drop)
        return found


def _near(hexes: frozenset[int]) -> frozenset[int]:
    out: set[int] = set()
    for h in hexes:
        out |= BOARD.within3[h]
    return frozenset(out)


def with_building(cf: CityFacts, kind: str, label: str, areas: dict[str, Area]) -> CityFacts:
    """The facts after building ``kind`` on ``label`` (a market brings its citizen)."""
    i = BOARD.index[label]
    serv, arch = list(cf.serv), list(cf.arch)
    for s, n in ARCHES[kind].items():
        serv[SERVICE_INDEX[s]] += n
        arch[SERVICE_INDEX[s]] += n
    food = hex_food(areas, label) if kind == "farm" else 0
    limit = cf.limit
    if kind == "market":
        limit = 8 if limit == 5 else limit
    elif kind in WATER and limit == 8:
        limit = UNLIMITED
    return CityFacts(
        owner=cf.owner, pop=cf.pop + (kind == "market"), limit=limit, buildings=cf.buildings + 1,
        food=cf.food + food, base_food=cf.base_food + food,
        serv=(serv[0], serv[1], serv[2]), arch=(arch[0], arch[1], arch[2]),
        quarry=cf.quarry + (terrain_sum(areas, label, "mountain") if kind == "quarry" else 0),
        hexes=cf.hexes | {i}, near=cf.near | BOARD.within3[i],
    )  # fmt: skip


def new_city_facts(owner: int, label: str, pop: int, areas: dict[str, Area]) -> CityFacts:
    """Facts of a city just founded on ``label`` with ``pop`` citizens."""
    i = BOARD.index[label]
    food = hex_food(areas, label)
    return CityFacts(
        owner=owner, pop=pop, limit=5, buildings=0, food=food, base_food=food, serv=(0, 0, 0),
        arch=(0, 0, 0), quarry=0, hexes=frozenset({i}), near=BOARD.within3[i],
    )  # fmt: skip


@dataclass(frozen=True)
class Context:
    """The moment of the game the evaluation is made at, and the voice odds the seat knows."""

    seat: int
    players: int
    year: int
    odds: dict[Outcome, float]
    relocation_ahead: bool
    feeding_ahead: bool
    turns_left: int
    """Political turns the seat still has in the game (this one included)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "years_after", YEARS - self.year)
        object.__setattr__(self, "gold_vp", 0.02 + 0.4 * min(1.0, self.turns_left / 4))

    years_after: int = 0
    gold_vp: float = 0.0


def context(state: GameState, seat: int) -> Context:
    phase = state.phase
    politics_left = ROUNDS - state.round + 1 if phase == "politics" else 0
    if phase == "setup":
        politics_left = ROUNDS
    return Context(
        seat=seat,
        players=state.n_players,
        year=max(1, state.year),
        odds=voice_odds(state, seat) if phase == "politics" else {},
        relocation_ahead=phase == "politics",
        feeding_ahead=phase in ("setup", "politics", "relocation", "demolition", "feeding"),
        turns_left=politics_left + ROUNDS * (YEARS - max(1, state.year)),
    )


class Evaluator:
    """Terms of every city and neighbour pair of a position, and the seat's value of it."""

    def __init__(self, ctx: Context, facts: list[CityFacts], gold: list[int], hunger_vp: list[int]) -> None:
        self.ctx = ctx
        self.facts = facts
        self.gold = gold
        self.hunger_vp = hunger_vp
        self.outcomes = [([SERVICE_INDEX[s] for s in out], p) for out, p in ctx.odds.items()]
        self._removal: dict[int, list[list[float]]] = {}
        self._takes_memo: dict[tuple[tuple[int, int, int], tuple[int, int, int]], tuple[float, float]] = {}
        self._nb: dict[int, list[int]] = {}
        self._partial = min(1.0, ctx.turns_left / 5)
        self._future = FUTURE_RELOCATION * ctx.years_after / 3
        self.agg = self._zero()
        for i, cf in enumerate(facts):
            self._city(self.agg, cf, 1.0)
            for other in facts[i + 1 :]:
                self._pair(self.agg, cf, other, 1.0)
        self.values = [self.player_value(s, self.agg[s], self.gold[s]) for s in range(ctx.players)]

    @classmethod
    def of(cls, state: GameState, seat: int, cache: FactsCache | None = None) -> Evaluator:
        areas = state.area_map()
        facts = [cache.facts(c, areas) if cache else city_facts(c, areas) for c in state.cities]
        return cls(
            context(state, seat), facts, [p.gold for p in state.players], [p.hunger_vp for p in state.players]
        )

    # --- terms: each adds ``sign`` times its amounts to per-seat slots -------------------

    def _zero(self) -> list[list[float]]:
        return [[0.0] * SLOTS for _ in range(self.ctx.players)]

    def _city(self, agg: list[list[float]], cf: CityFacts, sign: float) -> None:
        """One city on its own."""
        kinds = (cf.arch[0] > 0) + (cf.arch[1] > 0) + (cf.arch[2] > 0)
        partial = PARTIAL[kinds] if kinds == 3 else PARTIAL[kinds] * self._partial
        room = cf.room
        a = agg[cf.owner]
        a[POP] += sign * cf.pop
        a[FOOD] += sign * cf.food
        a[BASE_FOOD] += sign * cf.base_food
        a[GROWTH_NEXT] += sign * min(1, room)
        a[BONUS] += sign * (partial + min(room, self.ctx.years_after) * GROWTH_VP)
        a[QUARRY] += sign * cf.quarry

    def _pair(self, agg: list[list[float]], a: CityFacts, b: CityFacts, sign: float) -> None:
        """Two cities: the relocation expected this year between them, and their edge in arches."""
        if a.owner == b.owner or a.near.isdisjoint(b.hexes):
            return
        aa, ab = agg[a.owner], agg[b.owner]
        a_takes, b_takes = self._takes(a.serv, b.serv)
        if a_takes or b_takes:
            a_gain = a_takes if a.pop < a.limit else 0.0
            b_gain = b_takes if b.pop < b.limit else 0.0
            aa[RELOC] += sign * (a_gain - b_takes)
            ab[RELOC] += sign * (b_gain - a_takes)
            aa[GAINS] += sign * a_gain
            ab[GAINS] += sign * b_gain
        if self._future:
            x, y = a.arch, b.arch
            edge = (
                (x[0] > y[0]) - (x[0] < y[0]) + (x[1] > y[1]) - (x[1] < y[1]) + (x[2] > y[2]) - (x[2] < y[2])
            )
            if edge:
                w = sign * self._future * edge
                aa[BONUS] += w
                ab[BONUS] -= w

    def _takes(self, sa: tuple[int, int, int], sb: tuple[int, int, int]) -> tuple[float, float]:
        """The odds that a city with services ``sa`` takes a citizen from one with ``sb``, and back."""
        if sa == sb or not self.outcomes:
            return 0.0, 0.0
        key = (sa, sb)
        found = self._takes_memo.get(key)
        if found is None:
            a_takes = b_takes = 0.0
            for idx, p in self.outcomes:
                for k in idx:
                    if sa[k] > sb[k]:
                        a_takes += p
                        break
                for k in idx:
                    if sb[k] > sa[k]:
                        b_takes += p
                        break
            found = self._takes_memo[key] = (a_takes, b_takes)
        return found

    def _all(self, agg: list[list[float]], cf: CityFacts, others: list[CityFacts], sign: float) -> None:
        """One city and its pairs with ``others``."""
        self._city(agg, cf, sign)
        for other in others:
            self._pair(agg, cf, other, sign)

    # --- values -----------------------------------------------------------------------

    def player_value(self, seat: int, agg: list[float], gold: int) -> float:
        ctx = self.ctx
        pop = agg[POP] + agg[RELOC]
        value = pop + agg[BONUS] + gold * ctx.gold_vp - self.hunger_vp[seat]
        value += agg[QUARRY] * ctx.years_after * 0.4
        if ctx.feeding_ahead:
            # Counting on losses to feed one's people is a gamble: only the gains count here.
            short = agg[POP] + agg[GAINS] - agg[FOOD]
            if short > 0.05:
                # The citizen lost, the buildings it may take along, and the penalty.
                value -= SHORT_VP * short + (HUNGER_LAST_YEAR_VP if ctx.year >= YEARS else HUNGER_TURN_VP)
        if ctx.years_after:
            short_next = pop + agg[GROWTH_NEXT] - agg[BASE_FOOD]
            if short_next > 0:
                value -= short_next * (NEXT_LAST_YEAR_VP if ctx.years_after == 1 else NEXT_YEAR_VP)
        return value

    def relative(self, values: list[float]) -> float:
        """The seat's value less the mean of the others'."""
        seat = self.ctx.seat
        others = sum(values) - values[seat]
        return values[seat] - others / max(1, len(values) - 1)

    def value(self) -> float:
        return self.relative(self.values)

    def _changed_value(self, delta: list[list[float]], gold: int) -> float:
        """The value once per-seat aggregate changes (and the seat's gold change) are applied."""
        seat = self.ctx.seat
        values = list(self.values)
        for s, d in enumerate(delta):
            if (s == seat and gold) or any(d):
                agg = [a + b for a, b in zip(self.agg[s], d, strict=True)]
                values[s] = self.player_value(s, agg, self.gold[s] + (gold if s == seat else 0))
        return self.relative(values)

    def value_with(
        self,
        changes: Mapping[int, CityFacts | None] | None = None,
        new: CityFacts | None = None,
        gold: int = 0,
    ) -> float:
        """The value after changing some cities (``None``: the city is gone), adding one,
        and changing the seat's gold."""
        changes = changes or {}
        if len(changes) == 1 and new is None:
            ((i, cf),) = changes.items()
            removal = self._removal.get(i)
            if removal is None:
                removal = self._removal[i] = self._zero()
                self._all(removal, self.facts[i], [self.facts[j] for j in self._neighbours(i)], -1.0)
            delta = [list(r) for r in removal]
            if cf is not None:
                self._city(delta, cf, 1.0)
                for j, other in enumerate(self.facts):
                    if j != i:
                        self._pair(delta, cf, other, 1.0)
            return self._changed_value(delta, gold)
        delta = self._zero()
        facts: list[CityFacts | None] = list(self.facts)
        for i in changes:
            self._all(delta, self.facts[i], self._others(facts, i), -1.0)
            facts[i] = None  # its pairs with other changed cities are taken off only once
        for i, cf in changes.items():
            if cf is not None:
                facts[i] = cf
                self._all(delta, cf, self._others(facts, i), 1.0)
        if new is not None:
            self._all(delta, new, self._others(facts, -1), 1.0)
        return self._changed_value(delta, gold)

    def _neighbours(self, i: int) -> list[int]:
        """Cities of other owners within reach of city ``i``."""
        if i not in self._nb:
            a = self.facts[i]
            self._nb[i] = [
                j for j, b in enumerate(self.facts)
                if j != i and b.owner != a.owner and not a.near.isdisjoint(b.hexes)
            ]  # fmt: skip
        return self._nb[i]

    @staticmethod
    def _others(facts: list[CityFacts | None], i: int) -> list[CityFacts]:
        return [f for j, f in enumerate(facts) if j != i and f is not None]
