"""Where things may stand: building sites, the founding distance, token stacks (rules §5.1, §5.3).

Every check returns ``None`` when the placement is allowed, or the message a player reads
when it is not (a `Phrase`, told in the reader's language). Both `legal_moves` and `play` use
these same checks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar, overload

from .actions import Action
from .board import BOARD
from .cities import (
    area_map,
    castle_citizens,
    has_market,
    occupancy,
    touches,
)
from .components import NEEDS_LAKE, STACK_SIZE, TOKEN_STACK
from .state import Area, City, Decision, GameState
from .words import N_, PHRASE, Phrase, chain

FOUND_MIN_STEPS = 4
"""A new castle is at least 4 steps (3 empty hexes) from every building of every other city."""
PHRASE_AND = N_("{first} and {second}")
CASTLE_TOO_CLOSE = {
    (False, False): N_(
        "{hex} is next to {city}; a castle needs at least 3 empty hexes along the paths to every other city."
    ),
    (False, True): N_(
        "{hex} is next to {city} (its {building} at {at}); a castle needs at least 3 empty hexes along the "
        "paths to every other city."
    ),
    (True, False): N_(
        "{hex} is only {gap} away from {city}; a castle needs at least 3 empty hexes along the paths to "
        "every other city."
    ),
    (True, True): N_(
        "{hex} is only {gap} away from {city} (its {building} at {at}); a castle needs at least 3 empty "
        "hexes along the paths to every other city."
    ),
}
"""Why a castle may not stand so close (`castle_problem`): by whether there is an empty hex
between, and whether the nearest building is not the castle."""


WITHIN2: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({i, *near, *(m for n in near for m in BOARD.neighbour_idx[n])}))
    for i, near in enumerate(BOARD.neighbour_idx)
)
"""The hexes (board indexes) at most 2 steps from each hex, itself included."""


T = TypeVar("T")


class _Lazy(Generic[T]):
    """A lookup of `Table` made when first read and kept in the instance, whose own attribute
    then hides this one (a descriptor without ``__set__``): reading it again costs no call.
    (`functools.cached_property` would do, but takes a lock on every first read in Python
    3.11; a ``__getattr__`` would do, but makes every attribute of `Table` slower to read.)"""

    def __init__(self, make: Callable[[Table], T]) -> None:
        self.make = make

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, t: None, owner: type | None = None) -> _Lazy[T]: ...
    @overload
    def __get__(self, t: Table, owner: type | None = None) -> T: ...
    def __get__(self, t: Table | None, owner: type | None = None) -> T | _Lazy[T]:
        if t is None:  # (read on the class: the descriptor, as `property` gives itself)
            return self
        value = t.__dict__[self.name] = self.make(t)
        return value


class Table:
    """Derived lookups of one position, each made when first asked (a question that needs no
    occupancy, such as a starvation's answers, does not pay for it) and kept while the
    position is asked about (`_Lazy`)."""

    state: GameState
    playable: _Lazy[frozenset[int]] = _Lazy(lambda t: BOARD.playable_idx(len(t.state.players)))
    """The hexes (board indexes) that may be used (not for a starvation's or a demolition's
    answers: made when first read too)."""
    occ: _Lazy[dict[int, City]] = _Lazy(lambda t: occupancy(t.state))
    """Every occupied hex (board index) and its city (`engine.cities.occupancy`)."""
    taken: _Lazy[int] = _Lazy(lambda t: sum(1 << i for i in t.occ))
    """The occupied hexes (``occ``) as a bit mask of board indexes."""
    free: _Lazy[int] = _Lazy(lambda t: BOARD.playable_mask(len(t.state.players)) & ~t.taken)
    """The playable hexes not occupied, a bit mask of board indexes."""
    areas: _Lazy[dict[str, Area]] = _Lazy(lambda t: area_map(t.state))
    lake: _Lazy[frozenset[int]] = _Lazy(lambda t: t.state.lake_idx())
    """The hexes (board indexes) that touch a lake (the terrain never changes in a game)."""
    stacks_used: _Lazy[dict[str, int]] = _Lazy(lambda t: _stacks_used(t))
    """Tokens of each stack on the board."""
    blocked: _Lazy[int] = _Lazy(lambda t: _blocked(t))
    """The hexes too near a building for a castle (at most 3 steps from one), a bit mask of
    board indexes."""
    castle_idx: _Lazy[list[int]] = _Lazy(
        lambda t: BOARD.indexes(BOARD.playable_mask(len(t.state.players)) & ~t.blocked)
    )
    """Where a castle may stand (`castle_site_idx`)."""
    sites: _Lazy[dict[int, list[int]]] = _Lazy(lambda t: {})
    """The building sites of each city asked about so far (`site_idx`), by city id."""
    mine: _Lazy[dict[int, list[City]]] = _Lazy(lambda t: {})
    """The cities of each seat asked about so far (`cities_of`), by seat."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def owner_name(self, city: City) -> str:
        return self.state.players[city.owner].name

    def describe_city(self, city: City, seat: int) -> Phrase:
        """``your city Siena (I9)``, ``Bob's city Siena (I9)``."""
        if city.owner == seat:
            return PHRASE.t("your city {city} ({hex})", city=city.name, hex=city.castle)
        return PHRASE.t(
            "{name}'s city {city} ({hex})", name=self.owner_name(city), city=city.name, hex=city.castle
        )

    def tokens_left(self, kind: str) -> int:
        stack = TOKEN_STACK[kind]
        return STACK_SIZE[stack] - self.stacks_used[stack]

    def cities_of(self, seat: int) -> list[City]:
        """The cities of ``seat`` in the board order of their castles.

        **Decision**: a turn asks this, the occupancy and the token stacks of the same position
        (`engine.turn.legal_turn_moves`), so the first of them to be asked makes all three in
        one pass over the cities (`_survey`) instead of three. The list is kept (`mine`): not
        to be changed."""
        known = self.mine
        found = known.get(seat)
        if found is None:
            d = self.__dict__
            if "occ" in d and "stacks_used" in d:
                found = [c for c in self.state.cities if c.owner == seat]
            else:
                found = _survey(self, seat)
            if len(found) > 1:
                index = BOARD.index
                found.sort(key=lambda c: index[c.castle])
            known[seat] = found
        return found


@dataclass(slots=True)
class Lookahead:
    """A decision just asked, the lookups of its position and its answers found so far (at
    least the two that showed it was a choice, `engine.decisions.open_decision`), with the
    rest still to find. `Game` keeps it while the position stays the same, so that the next
    `legal_moves` finishes this search instead of starting another."""

    decision: Decision
    table: Table
    found: list[Action]
    rest: Iterator[list[Action]]
    """The batches still to find (`engine.decisions.iter_options`)."""

    def answers(self) -> list[Action]:
        """Every answer, in the order they are found (the rest found now, once)."""
        found = self.found  # (extended in place: one read of each attribute)
        for batch in self.rest:
            found += batch
        return found


def _survey(t: Table, seat: int) -> list[City]:
    """The cities of ``seat`` (founding order), and the position's occupancy and token stacks
    made on the way (`occupancy`, `_stacks_used`), kept in ``t``."""
    occ: dict[int, City] = {}
    used = dict.fromkeys(STACK_SIZE, 0)
    stack, idx = TOKEN_STACK, BOARD.index
    mine = []
    for c in t.state.cities:
        if c.owner == seat:
            mine.append(c)
        occ[idx[c.castle]] = c
        for b in c.buildings:
            occ[idx[b.hex]] = c
            used[stack[b.kind]] += 1
    d = t.__dict__
    d.setdefault("occ", occ)
    d.setdefault("stacks_used", used)
    return mine


def _stacks_used(t: Table) -> dict[str, int]:
    used = dict.fromkeys(STACK_SIZE, 0)
    for c in t.state.cities:
        for b in c.buildings:
            used[TOKEN_STACK[b.kind]] += 1
    return used


def _blocked(t: Table) -> int:
    masks = BOARD.within3_mask
    blocked = 0
    for i in t.occ:
        blocked |= masks[i]
    return blocked


def empty_playable_problem(t: Table, label: str) -> Phrase | None:
    i = BOARD.index[label]
    if i not in t.playable:
        return PHRASE.t(
            "{hex} is outside the playable area for {players} players (zone {zone}); "
            "the muted hexes of the board cannot be used.",
            hex=label, players=t.state.n_players, zone=BOARD.zone_idx[i],
        )  # fmt: skip
    if i in t.occ:
        city = t.occ[i]
        what = "castle" if city.castle == label else next(b.kind for b in city.buildings if b.hex == label)
        return PHRASE.t(
            "{hex} is taken by the {building} of {name}'s city {city}.",
            hex=label, building=what, name=t.owner_name(city), city=city.name,
        )  # fmt: skip
    return None


def site_city(t: Table, seat: int, label: str) -> tuple[City | None, Phrase | None]:
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
            return None, PHRASE.t(
                "{hex} is next to {city}, not to one of yours; build next to a building of one of "
                "your cities.",
                hex=label, city=t.describe_city(touching[0], seat),
            )  # fmt: skip
        return None, PHRASE.t(
            "{hex} is not next to any of your buildings; build next to one of your cities.", hex=label
        )
    if len(touching) > 1:
        names = chain(PHRASE_AND, [t.describe_city(c, seat) for c in touching])
        return None, PHRASE.t(
            "{hex} touches {cities}; an empty hex must always separate two cities.", hex=label, cities=names
        )
    return own[0], None


def city_at_neighbour(state: GameState, seat: int, label: str) -> City:
    """The city of ``seat`` a building on ``label`` joins, for a placement already checked by `site_city`."""
    labels = BOARD.labels
    near = {labels[n] for n in BOARD.neighbour_idx[BOARD.index[label]]}
    for c in state.cities_of(seat):
        if c.castle in near or any(b.hex in near for b in c.buildings):
            return c
    raise LookupError(label)


def building_problem(t: Table, city: City, kind: str, label: str) -> Phrase | None:
    """Everything but the site itself: tokens, water, the market rule, the spare citizen."""
    return city_building_problem(t, city, kind) or terrain_problem(t, kind, label)


def city_building_problem(t: Table, city: City, kind: str) -> Phrase | None:
    """What the city and the supply must allow: a token, the market rule, a spare citizen."""
    if t.tokens_left(kind) <= 0:
        kinds = TOKEN_STACK[kind].split("/")
        if len(kinds) == 1:
            return PHRASE.t(
                "No {building} token is left in the supply ({building} tokens are all on the board).",
                building=kind,
            )
        return PHRASE.t(
            "No {building} token is left in the supply ({building1}/{building2} tokens are all on the "
            "board).",
            building=kind, building1=kinds[0], building2=kinds[1],
        )  # fmt: skip
    if kind == "market":
        if has_market(city):
            return PHRASE.t("{city} already has a market (at most one per city).", city=city.name)
        if t.state.supply_citizens <= 0:
            return PHRASE.t("A market's citizen comes from the supply, and the supply is empty.")
        return None
    spare = castle_citizens(city)
    if spare < 2:
        return PHRASE.t(
            "A {building} needs a spare citizen in the castle of {city} ({hex}); it has {count}, and "
            "one must stay.",
            building=kind, city=city.name, hex=city.castle, count=spare,
        )  # fmt: skip
    return None


def terrain_problem(t: Table, kind: str, label: str) -> Phrase | None:
    """A fountain or bath must stand next to a lake (§2)."""
    if kind in NEEDS_LAKE and not touches(t.areas, label, "lake"):
        return PHRASE.t(
            "A {building} must stand next to a lake; {hex} does not touch one.", building=kind, hex=label
        )
    return None


def building_sites(t: Table, city: City) -> list[str]:
    """Every hex where this city may place a building (before kind-specific rules)."""
    return [BOARD.labels[i] for i in site_idx(t, city)]


def site_idx(t: Table, city: City) -> list[int]:
    """`building_sites` as board indexes, in board order: the empty playable hexes next to the
    city with no other city next to them (bit masks of board indexes: `Table.free`,
    `Table.taken`, `Board.neighbour_mask`). The sites of two cities never overlap: a hex next
    to two cities is no site (an empty hex must separate them)."""
    idx, near = BOARD.index, BOARD.neighbour_mask
    i = idx[city.castle]
    own, around = 1 << i, near[i]
    for b in city.buildings:
        i = idx[b.hex]
        own |= 1 << i
        around |= near[i]
    others, left = t.taken & ~own, around & t.free
    out: list[int] = []
    while left:  # (a bit at a time, lowest first: a city has a few empty hexes around it)
        bit = left & -left
        left ^= bit
        n = bit.bit_length() - 1
        if not near[n] & others:
            out.append(n)
    return out


def castle_problem(t: Table, seat: int, label: str) -> Phrase | None:
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
    hit = BOARD.labels[i]
    values = {"hex": label, "city": t.describe_city(city, seat)}
    if hit != city.castle:
        values |= {"building": next(b.kind for b in city.buildings if b.hex == hit), "at": hit}
    if between:
        values["gap"] = PHRASE.n("{count} empty hex", "{count} empty hexes", between)
    return PHRASE.t(CASTLE_TOO_CLOSE[bool(between), hit != city.castle], **values)


def castle_sites(t: Table) -> list[str]:
    """Every hex where a new castle may stand now."""
    labels = BOARD.labels
    return [labels[i] for i in castle_site_idx(t)]


def castle_site_idx(t: Table) -> list[int]:
    """`castle_sites` as board indexes, in board order (the list of ``t``: not to be changed)."""
    return t.castle_idx
