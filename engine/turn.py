"""A turn of a political round: what a player may do (rules §5, §6).

`turn_problem` says why a move is not allowed (or ``None``); `legal_turn_moves` lists the
allowed ones using the same checks; `engine.turn_play.apply_turn` carries a checked move out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from operator import itemgetter

from .actions import BREAD, FOUNDING, GOLDEN, LINES, Action, Line, placed
from .board import BOARD
from .cities import castle_citizens, city_at, has_market, room
from .components import (
    ARCHES,
    BREAD_COST,
    BUILDING_CARD_COST,
    CASTLES_PER_PLAYER,
    GOLDEN_COST,
    MASTER_COST,
    POLITICS_TITLES,
    POLL_ALL_COST,
    SIZE,
    YEARS,
)
from .construction import build_problem, found_source
from .placement import (
    Table,
    castle_problem,
    castle_site_idx,
    site_idx,
)
from .state import City, GameState
from .words import N_, PHRASE, Phrase, chain

PHRASE_OR = N_("{first} or {second}")

TURN_VERBS = frozenset(
    {"gold", "found", "build", "palace", "hospital", "bath", "cathedral", "university",
     "master", "golden", "bread", "harvest", "poll", "pass"}
)  # fmt: skip


def card_cost(a: Action) -> int:
    """Gold a politics play costs (rules §6)."""
    v = a.verb
    if v in BUILDING_CARD_COST:
        return BUILDING_CARD_COST[v]
    if v == "master":
        return MASTER_COST[SIZE[a.building or "farm"]]
    if v == "golden":
        return GOLDEN_COST[a.n or 1]
    if v == "bread":
        return BREAD_COST[a.n or 1]
    if v == "poll":
        return POLL_ALL_COST if len(a.cards) == 3 else 0
    return 0


def built_kind(a: Action) -> str | None:
    """The building a move puts on the board, if any."""
    if a.verb in ("build", "master"):
        return a.building
    if a.verb in BUILDING_CARD_COST:
        return a.verb
    return None


# --- checks ---------------------------------------------------------------------------


def _action_card_problem(state: GameState, seat: int) -> Phrase | None:
    if state.players[seat].action_cards <= 0:
        return PHRASE.t("You have used all 3 action cards this year; play a politics card or pass.")
    return None


def found_sources(state: GameState, seat: int) -> list[City]:
    """The cities of ``seat`` that can give a spare citizen to a new city (castle board order)."""
    spare = [c for c in state.cities_of(seat) if castle_citizens(c) >= 2]
    return sorted(spare, key=lambda c: BOARD.index[c.castle])


def _found_problem(t: Table, seat: int, label: str | None, source: str | None = None) -> Phrase | None:
    state = t.state
    p = state.players[seat]
    if p.founded_this_year:
        return PHRASE.t("You have already founded a city this year (at most one a year).")
    if len(state.cities_of(seat)) >= CASTLES_PER_PLAYER:
        return PHRASE.t("All {count} of your castles are on the board.", count=CASTLES_PER_PLAYER)
    if found_source(state, seat) is None:
        return PHRASE.t("Founding needs a spare citizen, and none of your castles has more than 1 citizen.")
    if source is not None:
        city, problem = _own_city_at(t, seat, source)
        if city is None:
            return PHRASE.t("found … from {hex}: {problem}", hex=source, problem=problem)
        if castle_citizens(city) < 2:
            spare = [f"{c.name} ({c.castle})" for c in found_sources(state, seat)]
            return PHRASE.t(
                "{city} ({hex}) has {count} citizen in its castle, and one must stay; take the citizen "
                "from {sources}.",
                city=city.name, hex=city.castle, count=castle_citizens(city), sources=spare,
            )  # fmt: skip
    return castle_problem(t, seat, label) if label else None


def _own_city_at(t: Table, seat: int, label: str) -> tuple[City | None, Phrase | None]:
    city = city_at(t.state, label)
    if city is None:
        return None, PHRASE.t("There is no building at {hex}; name a hex of one of your cities.", hex=label)
    if city.owner != seat:
        return None, PHRASE.t(
            "{hex} belongs to {city}, not to you.", hex=label, city=t.describe_city(city, seat)
        )
    return city, None


def _golden_problem(t: Table, seat: int, a: Action) -> Phrase | None:
    assert a.hex is not None
    city, problem = _own_city_at(t, seat, a.hex)
    if city is None:
        return problem
    if t.state.supply_citizens <= 0:
        return PHRASE.t("The citizen supply is empty: Golden Times would bring no one.")
    if room(city) <= 0:
        return PHRASE.t(
            "{city} is at its population limit ({population}); no new citizen fits. A market lifts the "
            "limit from 5 to 8, a market with water removes it.",
            city=city.name, population=city.population,
        )  # fmt: skip
    return None


def _bread_problem(t: Table, seat: int, a: Action) -> Phrase | None:
    assert a.hex is not None and a.n is not None
    if t.state.players[seat].notables < a.n:
        left = t.state.players[seat].notables
        return PHRASE.t(
            "Bread and Games {n} needs {n} notables; you have {left} left this year.", n=a.n, left=left
        )
    city, problem = _own_city_at(t, seat, a.hex)
    if city is None:
        return problem
    b = next((b for b in city.buildings if b.hex == a.hex), None)
    if b is None:
        return PHRASE.t("The castle at {hex} has no arches; choose a building with arches.", hex=a.hex)
    if not ARCHES[b.kind]:
        return PHRASE.t(
            "The {building} at {hex} has no arches; choose a building with arches.",
            building=b.kind,
            hex=a.hex,
        )
    arches = list(ARCHES[b.kind])
    if len(arches) > 1 and a.service is None:
        return PHRASE.t(
            "Say which arch of the {building}: bread {n} {hex} {arches}.",
            building=b.kind, n=a.n, hex=a.hex, arches=chain(PHRASE_OR, arches),
        )  # fmt: skip
    if a.service is not None and a.service not in arches:
        return PHRASE.t(
            "The {building} at {hex} has no {service} arch (it has {services}).",
            building=b.kind, hex=a.hex, service=a.service, services=arches,
        )  # fmt: skip
    return None


def _harvest_problem(t: Table, seat: int, a: Action) -> Phrase | None:
    assert a.hex is not None
    state = t.state
    if state.year >= YEARS:
        return PHRASE.t("Rich Harvest cannot be played in the last year.")
    if state.players[seat].notables < 1:
        return PHRASE.t("Rich Harvest needs a notable; you have none left this year.")
    city, problem = _own_city_at(t, seat, a.hex)
    if city is None:
        return problem
    b = next((b for b in city.buildings if b.hex == a.hex), None)
    if b is None or b.kind != "farm":
        return PHRASE.t(
            "Rich Harvest goes on a farm, and {hex} is not one (a castle does not count).", hex=a.hex
        )
    if b.harvest:
        return PHRASE.t("The farm at {hex} already has a Rich Harvest this year.", hex=a.hex)
    return None


def turn_problem(t: Table, seat: int, a: Action) -> Phrase | None:
    """Why ``seat`` may not play ``a`` as its turn now, or ``None`` when it may."""
    state = t.state
    p = state.players[seat]
    v = a.verb
    if v not in TURN_VERBS:
        return PHRASE.t("`{move}` is not a move for your turn in a political round.", move=str(a))
    if v in ("gold", "found", "build"):
        problem = _action_card_problem(state, seat)
        if problem:
            return problem
        if v == "gold":
            return None
        if v == "found":
            return _found_problem(t, seat, a.hex, a.source)
        assert a.building is not None and a.hex is not None
        return build_problem(t, seat, a.building, a.hex)
    if v == "pass":
        if p.action_cards > 0:
            return PHRASE.t(
                "You still have {action_cards}; pass only when all are used (take 2 gold with `gold` "
                "instead).",
                action_cards=PHRASE.n("{count} action card", "{count} action cards", p.action_cards),
            )
        return None
    # A politics card from the row.
    if v not in state.politics_row:
        return PHRASE.t("There is no {card} card in the face-up politics row.", card=POLITICS_TITLES[v])
    cost = card_cost(a)
    if p.gold < cost:
        return PHRASE.t(
            "{card} ({move}) costs {cost} gold; you have {gold}.",
            card=POLITICS_TITLES[v], move=str(a), cost=cost, gold=p.gold,
        )  # fmt: skip
    kind = built_kind(a)
    if kind is not None:
        assert a.hex is not None
        return build_problem(t, seat, kind, a.hex)
    if v == "golden":
        return _golden_problem(t, seat, a)
    if v == "bread":
        return _bread_problem(t, seat, a)
    if v == "harvest":
        return _harvest_problem(t, seat, a)
    return None  # poll: free or paid, checked above


# --- legal moves ----------------------------------------------------------------------

GOLD, PASS = Action("gold"), Action("pass")
POLL_TWO = [Action("poll", cards=c) for c in ((1, 2), (1, 3), (2, 3))]
POLL_ANY = [*POLL_TWO, Action("poll", cards=(1, 2, 3))]
"""The moves that are the same in every position: made once (a batch is never changed)."""


def _sites(t: Table, ok: list[City], of: dict[int, list[int]]) -> list[int]:
    """The building sites (board indexes, in board order) of the cities ``ok``: those that may
    build a market (none yet and a citizen in the supply) or another kind (a spare citizen);
    ``of``: each city's sites (`site_idx`) by its id, as found so far (`Table.sites`,
    kept up to date from one turn to the next: `engine.turn_play.carry`).
    (Two cities' sites never overlap: a hex next to both is no site.)"""
    lists = []
    for c in ok:
        cid = c.id  # (read once: each read of a model's attribute costs)
        found = of.get(cid)
        if found is None:
            found = of[cid] = site_idx(t, c)
        lists.append(found)
    if len(lists) == 1:
        return lists[0]
    hexes: list[int] = []
    for found in lists:
        hexes += found
    hexes.sort()
    return hexes


def _picker(hexes: list[int]) -> Callable[[tuple[Action, ...]], Sequence[Action]]:
    """What picks the moves on ``hexes`` (board indexes) from a row of `placed`, in one call."""
    if not hexes:
        return lambda line: ()
    if len(hexes) == 1:
        i = hexes[0]
        return lambda line: (line[i],)
    return itemgetter(*hexes)


class _Builder:
    """The building moves of a seat's turn (`legal_turn_moves`): per kind of building, the
    sites of the cities `city_building_problem` lets build it (a token left; a spare citizen,
    or for a market none yet and a citizen in the supply) and, for a fountain or bath, those
    by a lake (`terrain_problem`), each city's sites found once for all kinds; the moves picked
    from rows made once (`engine.actions.LINES`), in one call per kind (`operator.itemgetter`
    of the sites of its group of kinds, `engine.actions.Line`, found when first asked)."""

    __slots__ = ("cities", "merged", "pickers", "spare", "t")

    def __init__(self, t: Table, cities: list[City], spare: list[City]) -> None:
        self.t, self.cities, self.spare = t, cities, spare
        self.pickers: dict[tuple[bool, bool], Callable[[tuple[Action, ...]], Sequence[Action]]] = {}
        self.merged: dict[bool, list[int]] = {}
        """The sites of the cities that may build a market, or another kind, by ``market`` (a
        fountain's or bath's: the others' by a lake)."""

    def moves(self, lines: list[Line], gold: int, row: list[str] | None = None) -> list[Action]:
        """The moves of ``lines`` that cost at most ``gold`` (and whose card is in ``row``, if
        given), on the sites of each kind."""
        used, pickers = self.t.stacks_used, self.pickers
        out: list[Action] = []
        for kind, cost, pile, size, group, line in lines:
            if cost > gold or size <= used[pile] or (row is not None and kind not in row):
                continue
            pick = pickers.get(group)
            if pick is None:
                pick = self._picker(group)
            out += pick(line)
        return out

    def _picker(self, group: tuple[bool, bool]) -> Callable[[tuple[Action, ...]], Sequence[Action]]:
        t = self.t
        market, lake = group
        hexes = self.merged.get(market)
        if hexes is None:
            if market:
                ok = [c for c in self.cities if not has_market(c)] if t.state.supply_citizens > 0 else []
            else:
                ok = self.spare
            hexes = self.merged[market] = _sites(t, ok, t.sites)
        if lake:
            water = t.lake
            hexes = [i for i in hexes if i in water]
        pick = self.pickers[group] = _picker(hexes)
        return pick


def legal_turn_moves(t: Table, seat: int) -> Iterator[list[Action]]:
    """Every move ``seat`` may make as its turn, already in canonical (sorted) order, in
    batches (taking gold; founding; the small buildings; the building cards and the master
    builder; then a batch per other kind of move), each found when the one before is used up.

    The moves are the ones `turn_problem` allows, found without asking it move by move: the
    building moves by `_Builder`; the seat's cities, the occupancy and the token stacks come
    from one pass over the cities (`Table.cities_of`), and founding is checked as
    `_found_problem` does, on those cities."""
    state = t.state
    p = state.players[seat]
    row = state.politics_row
    gold, cards, notables = p.gold, p.action_cards, p.notables  # (each read of a model's costs)
    cities = t.cities_of(seat)
    spare = [c for c in cities if c.population - len(c.buildings) >= 2]  # (`found_sources`)
    build = _Builder(t, cities, spare)
    if cards > 0:
        yield [GOLD]
        if spare and not p.founded_this_year and len(cities) < CASTLES_PER_PLAYER:
            sources = [FOUNDING[c.castle] for c in spare]
            yield [r[i] for i in castle_site_idx(t) for r in sources]
        yield build.moves(LINES["build"], gold)
    batch = build.moves(LINES["card"], gold, row)
    if "master" in row:
        batch += build.moves(LINES["master"], gold)
    yield batch
    if "golden" in row and state.supply_citizens > 0:
        index = BOARD.index
        roomy = [index[c.castle] for c in cities if room(c) > 0]  # (board order, as ``cities``)
        for n, cost in GOLDEN_COST.items():
            if gold >= cost:
                line = GOLDEN[n]
                yield [line[i] for i in roomy]
    if "bread" in row:
        index = BOARD.index
        arched = sorted(
            (b for c in cities for b in c.buildings if ARCHES[b.kind]), key=lambda b: index[b.hex]
        )
        for n, cost in BREAD_COST.items():
            if gold >= cost and notables >= n:
                line, batch = BREAD[n], []
                for b in arched:
                    arches = ARCHES[b.kind]
                    if len(arches) == 1:
                        batch.append(line[index[b.hex]])
                    else:
                        batch += [Action("bread", n=n, hex=b.hex, service=s) for s in arches]
                yield batch
    if "harvest" in row and state.year < YEARS and notables >= 1:
        farms = [
            BOARD.index[b.hex] for c in cities for b in c.buildings if b.kind == "farm" and not b.harvest
        ]
        line = placed("harvest")
        yield [line[i] for i in sorted(farms)]
    if "poll" in row:
        yield POLL_TWO if gold < POLL_ALL_COST else POLL_ANY
    if cards == 0:
        yield [PASS]


# --- effects --------------------------------------------------------------------------
