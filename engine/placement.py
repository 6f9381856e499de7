"""Where things may stand: building sites, the founding distance, token stacks (rules §5.1, §5.3).

Every check returns ``None`` when the placement is allowed, or the message a player reads
when it is not. Both `legal_moves` and `play` use these same checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .board import BOARD
from .cities import (
    area_map,
    castle_citizens,
    has_market,
    occupancy,
    touches,
)
from .components import NEEDS_LAKE, STACK_SIZE, TOKEN_STACK
from .state import Area, City, GameState

FOUND_MIN_STEPS = 4
"""A new castle is at least 4 steps (3 empty hexes) from every building of every other city."""


@dataclass
class Table:
    """Derived lookups of one position, computed once per question asked of it."""

    state: GameState
    occ: dict[int, City] = field(init=False)
    areas: dict[str, Area] = field(init=False)
    playable: frozenset[int] = field(init=False)
    stacks_used: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.occ = occupancy(self.state)
        self.areas = area_map(self.state)
        self.playable = BOARD.playable_idx(self.state.n_players)
        used = dict.fromkeys(STACK_SIZE, 0)
        for c in self.state.cities:
            for b in c.buildings:
                used[TOKEN_STACK[b.kind]] += 1
        self.stacks_used = used

    def owner_name(self, city: City) -> str:
        return self.state.players[city.owner].name

    def describe_city(self, city: City, seat: int) -> str:
        whose = "your" if city.owner == seat else f"{self.owner_name(city)}'s"
        return f"{whose} city {city.name} ({city.castle})"

    def tokens_left(self, kind: str) -> int:
        stack = TOKEN_STACK[kind]
        return STACK_SIZE[stack] - self.stacks_used[stack]


def empty_playable_problem(t: Table, label: str) -> str | None:
    i = BOARD.index[label]
    if i not in t.playable:
        n = t.state.n_players
        return (
            f"{label} is outside the playable area for {n} players (zone {BOARD.zone_idx[i]}); "
            "the muted hexes of the board cannot be used."
        )
    if i in t.occ:
        city = t.occ[i]
        what = "castle" if city.castle == label else next(b.kind for b in city.buildings if b.hex == label)
        return f"{label} is taken by the {what} of {t.owner_name(city)}'s city {city.name}."
    return None


def site_city(t: Table, seat: int, label: str) -> tuple[City | None, str | None]:
    """The city of ``seat`` a building on ``label`` would join, or the reason there is none."""
    problem = empty_playable_problem(t, label)
    if problem:
        return None, problem
    touching: list[City] = []
    for n in BOARD.neighbour_idx[BOARD.index[label]]:
        c = t.occ.get(n)
        if c is not None and all(c is not x for x in touching):
            touching.append(c)
    own = [c for c in touching if c.owner == seat]
    if not own:
        if touching:
            return None, (
                f"{label} is next to {t.describe_city(touching[0], seat)}, not to one of yours; "
                "build next to a building of one of your cities."
            )
        return (
            None,
            f"{label} is not next to any of your buildings; build next to one of your cities.",
        )
    if len(touching) > 1:
        names = " and ".join(t.describe_city(c, seat) for c in touching)
        return None, (f"{label} touches {names}; an empty hex must always separate two cities.")
    return own[0], None


def city_at_neighbour(state: GameState, seat: int, label: str) -> City:
    """The city of ``seat`` a building on ``label`` joins, for a placement already checked by `site_city`."""
    near = set(BOARD.neighbors(label))
    for c in state.cities_of(seat):
        if c.castle in near or any(b.hex in near for b in c.buildings):
            return c
    raise LookupError(label)


def building_problem(t: Table, city: City, kind: str, label: str) -> str | None:
    """Everything but the site itself: tokens, water, the market rule, the spare citizen."""
    return city_building_problem(t, city, kind) or terrain_problem(t, kind, label)


def city_building_problem(t: Table, city: City, kind: str) -> str | None:
    """What the city and the supply must allow: a token, the market rule, a spare citizen."""
    if t.tokens_left(kind) <= 0:
        return f"No {kind} token is left in the supply ({TOKEN_STACK[kind]} tokens are all on the board)."
    if kind == "market":
        if has_market(city):
            return f"{city.name} already has a market (at most one per city)."
        if t.state.supply_citizens <= 0:
            return "A market's citizen comes from the supply, and the supply is empty."
        return None
    spare = castle_citizens(city)
    if spare < 2:
        return (
            f"A {kind} needs a spare citizen in the castle of {city.name} ({city.castle}); "
            f"it has {spare}, and one must stay."
        )
    return None


def terrain_problem(t: Table, kind: str, label: str) -> str | None:
    """A fountain or bath must stand next to a lake (§2)."""
    if kind in NEEDS_LAKE and not touches(t.areas, label, "lake"):
        return f"A {kind} must stand next to a lake; {label} does not touch one."
    return None


def building_sites(t: Table, city: City) -> list[str]:
    """Every hex where this city may place a building (before kind-specific rules)."""
    idx = BOARD.index
    seen: set[int] = set()
    out: list[int] = []
    for h in (city.castle, *(b.hex for b in city.buildings)):
        for n in BOARD.neighbour_idx[idx[h]]:
            if n in seen:
                continue
            seen.add(n)
            if n in t.occ or n not in t.playable:
                continue
            if all(t.occ.get(m, city) is city for m in BOARD.neighbour_idx[n]):
                out.append(n)
    return [BOARD.labels[i] for i in sorted(out)]


def castle_problem(t: Table, seat: int, label: str) -> str | None:
    """A castle (founding or starting) on ``label``: empty, playable, far from every city."""
    problem = empty_playable_problem(t, label)
    if problem:
        return problem
    row = BOARD.dist[BOARD.index[label]]
    near = [i for i in t.occ if row[i] < FOUND_MIN_STEPS]
    if not near:
        return None
    i = min(near, key=lambda i: (row[i], i))
    city = t.occ[i]
    between = row[i] - 1
    gap = "next to" if between == 0 else f"only {between} empty hex{'es' if between != 1 else ''} away from"
    hit = BOARD.labels[i]
    part = (
        ""
        if hit == city.castle
        else f" (its {next(b.kind for b in city.buildings if b.hex == hit)} at {hit})"
    )
    return (
        f"{label} is {gap} {t.describe_city(city, seat)}{part}; a castle needs at least "
        "3 empty hexes along the paths to every other city."
    )


def castle_sites(t: Table) -> list[str]:
    """Every hex where a new castle may stand now."""
    blocked: set[int] = set()
    for i in t.occ:
        blocked |= BOARD.within3[i]
    return [BOARD.labels[i] for i in sorted(t.playable - blocked)]
