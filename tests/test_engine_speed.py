"""What keeps an engine step quick must not change a result (issue 31, docs/engine.md "Speed"):
a turn's moves are picked without checking each (`engine.turn.legal_turn_moves`), events are made
without pydantic's validation (`engine.events.Events.add`), English texts without asking `English`.
These compare each with the plain way: every move the checks allow, events validated, texts told
through `Words`."""

from __future__ import annotations

import copy
import gc
import itertools
import json
import pickle
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter
from scenario import Scenario

from engine import (
    Action,
    Event,
    Game,
    cities,
    construction,
    decisions,
    demolition,
    events,
    feeding,
    flow,
    politics_row,
    relocation,
    state,
    turn_play,
)
from engine import game as game_module
from engine.actions import among
from engine.board import BOARD
from engine.cities import city_at, hexes_of, occupancy, opposing_neighbours, reach, room
from engine.components import (
    ACTION_CARDS,
    ARCHES,
    BUILDING_CARD_COST,
    BUILDINGS,
    NOTABLES_PER_PLAYER,
    SERVICES,
    SMALL,
    YEARS,
)
from engine.decisions import IN_ORDER, canonical, options, problem
from engine.events import Events
from engine.placement import Table, castle_sites, site_idx
from engine.relocation import Near, cities_needing_preference, first_choices
from engine.state import Building, City, Decision, GameState, new_building, turn_decision
from engine.words import ENGLISH, PHRASE, Words, _value, told

RECORDS_BEFORE_FIRST = Path(__file__).parent / "fixtures" / "records_before_first.json"


def random_games(count: int, players: int = 5) -> Iterator[tuple[Game, int]]:
    """Positions of random games (a new game per seed), with the seat to act; the game moves
    on when the position has been looked at."""
    for seed in range(count):
        rng = random.Random(seed)
        g = Game.new(
            [f"P{i}" for i in range(players)], seed=seed, setup="beginner" if seed % 2 else "experienced"
        )
        while not g.is_over:
            seat = g.pending_seats()[0]
            before = len(g.record().moves)
            yield g, seat
            if len(g.record().moves) == before:
                g.play(seat, rng.choice(g.legal_moves(seat)))


def played(count: int) -> Iterator[Event]:
    """The events of every move of random 5-player games."""
    for g, seat in random_games(count):
        yield from g.play(seat, random.Random(len(g.record().moves)).choice(g.legal_moves(seat)))


def every_turn_move(g: Game, seat: int) -> list[Action]:
    """Every move of the turn notation on every hex (the castles of the seat as sources), in
    canonical form (`engine.decisions.canonical`: a city named by its castle)."""
    labels = BOARD.labels
    castles = [c.castle for c in g.state.cities_of(seat)]
    arches = {b.hex: len(ARCHES[b.kind]) for c in g.state.cities for b in c.buildings}
    moves = [Action("gold"), Action("pass")]
    moves += [Action("poll", cards=c) for c in ((1, 2), (1, 3), (2, 3), (1, 2, 3))]
    for h in labels:
        moves += [Action("found", hex=h, source=c) for c in castles]
        moves += [Action("build", hex=h, building=k) for k in SMALL]
        moves += [Action(card, hex=h) for card in BUILDING_CARD_COST]
        moves += [Action("master", hex=h, building=k) for k in BUILDINGS]
        moves += [Action("harvest", hex=h)]
        for n in (1, 2, 3):
            moves += [Action("golden", n=n, hex=h), Action("bread", n=n, hex=h)]
            if arches.get(h, 0) > 1:  # (a building of one arch is named without it)
                moves += [Action("bread", n=n, hex=h, service=s) for s in SERVICES]
    return [a for a in moves if canonical(g.state, seat, a) == a]


def test_a_turns_legal_moves_are_every_move_its_checks_allow_in_canonical_order() -> None:
    turns = 0
    for k, (g, seat) in enumerate(random_games(3)):
        mine = g.pending_decisions(seat)
        if k % 4 or len(mine) > 1 or mine[0].kind != "turn":
            continue
        d = mine[0]
        t = Table(g.state)
        allowed = sorted(
            (a for a in every_turn_move(g, seat) if problem(t, d, a) is None), key=Action.sort_key
        )
        assert g.legal_moves(seat) == allowed
        turns += 1
    assert turns > 50


def test_the_engines_events_are_those_pydantic_validates(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Event] = []
    add = Events.add

    def checked(
        self: Events, kind: str, message: str, values: dict[str, Any] | None = None, **fields: Any
    ) -> Event:
        e = add(self, kind, message, values, **fields)
        if values is None:
            told_: dict[str, Any] = {"text": message}
        else:
            told_ = {"text": told(ENGLISH, message, values), "message": message, "values": values}
        validated = Event(kind=kind, **told_, **fields)
        assert e.model_fields_set == validated.model_fields_set
        assert e == validated  # (tells the event's text)
        assert list(e.__dict__.items()) == list(validated.__dict__.items())
        assert e.hexes is not fields.get("hexes") and e.data is not fields.get("data")
        assert e.values is not values
        made.append(e)
        return e

    monkeypatch.setattr(Events, "add", checked)
    for _ in played(2):
        pass
    assert len(made) > 100
    with_text = Events().add("note", "A finished text.", seat=1)  # (no values: a finished text)
    assert with_text == Event(kind="note", text="A finished text.", seat=1)
    assert with_text.model_fields_set == {"kind", "text", "seat"}


class Spelled:
    """English through the general path of `told` (not `ENGLISH`): the texts must be the same."""

    def t(self, message: str, /, **values: object) -> str:
        return message.format(**values) if values else message

    def n(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        return (singular if count == 1 else plural).format(count=count, **values)


def test_english_texts_are_told_as_through_words() -> None:
    spelled: Words = Spelled()
    phrases = [
        PHRASE.t("{service} {before}→{after}", service="culture", before=1, after=2),
        PHRASE.n("{count} citizen", "{count} citizens", 1),
        PHRASE.n("{count} citizen in {city}", "{count} citizens in {city}", 3, city="Pisa"),
        PHRASE.t("no values {here}"),
        ["farm", PHRASE.t("{building} {hex}", building="bath", hex="I9")],
        ("education", 3),
        True,
        None,
        {"not": "a phrase"},
    ]
    for value in phrases:
        assert told(ENGLISH, "{x}!", {"x": value}) == told(spelled, "{x}!", {"x": value})
        assert _value(ENGLISH, "building", value) == _value(spelled, "building", value)
    for e in played(2):
        assert e.text == (told(spelled, e.message, e.values) if e.message else e.text)


def test_the_answers_found_in_canonical_order_need_no_sorting() -> None:
    asked: dict[str, int] = {}
    for g, _seat in random_games(4):
        t = Table(g.state)
        for d in g.pending_decisions():
            answers = options(t, d)
            if d.kind in IN_ORDER:
                assert answers == sorted(answers, key=Action.sort_key)
                asked[d.kind] = asked.get(d.kind, 0) + 1
    assert asked.keys() == IN_ORDER and min(asked.values()) > 5


def test_the_answers_picked_from_rows_or_kept_are_the_answers_made_afresh() -> None:
    """A castle's answers are picked from a row of `engine.actions.placed`, a starvation's made
    as tuples (`engine.decisions._starve_answers`), a demolition's kept as moves
    (`_demolish_answers`): at
    every position of random games, every pending decision's answers are the moves made afresh
    from the sites or ways."""
    asked: Counter[str] = Counter()
    for g, _seat in random_games(6):
        t = Table(g.state)
        for d in g.pending_decisions():
            answers = options(t, d)
            if d.kind == "castle":
                fresh = [Action("castle", hex=h) for h in castle_sites(Table(g.state))]
            elif d.kind == "starve":
                fresh = [Action("starve", hexes=hs) for hs in every_way_to_starve(g, d.seat, d.count)]
            elif d.kind == "demolish":
                city = decisions.decision_city(g.state, d)
                hexes = tuple(b.hex for b in city.buildings)
                ways = every_way_to_demolish(city.castle, hexes, demolition.excess_buildings(city))
                fresh = [Action("demolish", hexes=hs) for hs in ways]
            else:
                continue
            assert answers == fresh and all(type(a) is Action for a in answers)
            asked[d.kind] += 1
    assert min(asked[k] for k in ("castle", "starve", "demolish")) > 20, asked


def test_the_lookups_written_as_plain_loops_answer_as_comprehensions() -> None:
    """`has_market`, `population_limit`, `player_citizens`, `player_food` and
    `Game.pending_seats` are plain loops (cheaper than generators): at positions of random
    games they answer what the comprehensions do."""
    checked = 0
    for g, _seat in random_games(4):
        st = g.state
        assert g.pending_seats() == sorted({d.seat for d in st.pending})
        areas = st.area_map()
        for seat in range(st.n_players):
            mine = [c for c in st.cities if c.owner == seat]
            assert cities.player_citizens(st, seat) == sum(c.population for c in mine)
            for harvest in (True, False):
                food = sum(cities.city_food(areas, c, with_harvest=harvest) for c in mine)
                assert cities.player_food(st, seat, with_harvest=harvest) == food
        for city in st.cities:
            kinds = {b.kind for b in city.buildings}
            assert cities.has_market(city) == ("market" in kinds)
            for adding in (None, *BUILDINGS):
                with_it = kinds | ({adding} if adding else set())
                limit = 5 if "market" not in with_it else 8 if not with_it & {"fountain", "bath"} else 10_000
                assert cities.population_limit(city, adding=adding) == limit
                checked += limit == 10_000
    assert checked > 100


def test_a_move_is_among_the_listed_moves_as_in_finds_it() -> None:
    """`engine.actions.among` (the very object looked for first) answers as ``in``: for the
    listed moves themselves, equal moves made again from their text, and moves not listed."""
    checked = 0
    for k, (g, seat) in enumerate(random_games(2)):
        listed = g.legal_moves(seat)
        for move in listed[:: 1 + k % 5]:
            again = Action.parse(str(move))
            assert again is not move
            assert among(move, listed) and among(again, listed) == (again in listed)
        for text in ("gold", "pass", "build farm I9", "poll 1 2", "master palace K5"):
            move = Action.parse(text)
            assert among(move, listed) == (move in listed)
            checked += move in listed
    assert checked > 50


def test_the_opposing_neighbours_are_the_cities_within_reach() -> None:
    """`opposing_neighbours`, and those a relocation phase finds with bit masks and keeps
    (`engine.relocation.near`, one `Near` for every city of the position), are the cities of
    other seats within reach, in founding order."""
    checked = 0
    for g, _seat in random_games(2):
        known = Near()
        for city in g.state.cities:
            near = reach(city)
            expected = [
                c
                for c in g.state.cities
                if c.owner != city.owner and near & {BOARD.index[h] for h in hexes_of(c)}
            ]
            assert opposing_neighbours(g.state, city) == expected
            for _ in range(2):
                assert [id(c) for c in relocation.near(g.state, city, known)] == [id(c) for c in expected]
            checked += bool(expected)
    assert checked > 100


def test_a_relocation_steps_questions_answer_alike_with_the_neighbours_found_once() -> None:
    asked = 0
    for g, _seat in random_games(6, players=4):
        state = g.state
        if state.phase != "relocation" or not state.relocation_queue:
            continue
        seat = state.relocation_queue[0]
        known = Near()
        assert cities_needing_preference(state, seat, known) == cities_needing_preference(state, seat)
        assert first_choices(state, seat, known) == first_choices(state, seat)
        asked += bool(known)
    assert asked > 10


def plain_first_choices(g: GameState, seat: int) -> list[City]:
    """`first_choices` the plain way: every city's takings looked at afresh, and the outcome of
    every order of the competing cities tried, even of none."""
    cities = relocation.unchecked(g, seat)
    if len(cities) < 2:
        return []
    takers: dict[int, list[City]] = {}
    for city in cities:
        for other in relocation.takes_from(g, city):
            takers.setdefault(other.id, []).append(city)
    competing = {
        c.id for other_id, cs in takers.items() if len(cs) > g.city_by_id(other_id).population for c in cs
    }
    choices = [c for c in cities if c.id in competing]
    if len({relocation.outcome(g, list(order)) for order in itertools.permutations(choices)}) < 2:
        return []
    return choices


def two_take_the_last(population: int) -> Game:
    """P0's two cities of ``population`` (5: full) would take the last citizen of P1's Pisa, on
    the year's last turn (P1's; tests/test_relocation_order.py)."""
    sc = Scenario()
    for castle in ("K6", "N5"):
        sc.hex_terrain(castle, ("farmland", 3), ("farmland", 3))
    sc.city(0, "K6", population, [("statue", "L7")])
    sc.city(0, "N5", population, [("statue", "N6")])
    sc.city(1, "N9", 1)
    sc.voice("culture", "culture", "culture", "health")
    return sc.turn(1, last=True).game()


def test_a_relocation_phases_takings_found_once_are_those_found_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A relocation phase finds each city's takings in a service once (`Near.won`: the
    neighbours with fewer points, which come from buildings and notables that a relocation does
    not change; a city lost leaves them) for every question of the phase, and `first_choices`
    tries no order when no cities compete: in random games, every takings and every question
    answers as a fresh look at the position then."""
    seen = Counter[str]()
    winners, choose, prefer = relocation.winners_against, first_choices, cities_needing_preference

    def won(g: GameState, city: City, service: Any, known: Near | None = None) -> list[City]:
        if known is not None:
            seen["kept" if (city.id, service) in known.won else "found"] += 1
        found = winners(g, city, service, known)
        if known is not None:
            assert found == winners(g, city, service)
        return found

    def first(g: GameState, seat: int, known: Near | None = None) -> list[City]:
        found = choose(g, seat, known)
        assert found == plain_first_choices(g, seat)
        seen["choices"] += bool(found)
        return found

    def needed(g: GameState, seat: int, known: Near | None = None) -> list[City]:
        found = prefer(g, seat, known)
        assert found == prefer(g, seat)
        return found

    monkeypatch.setattr(relocation, "winners_against", won)
    monkeypatch.setattr(flow, "first_choices", first)
    monkeypatch.setattr(flow, "cities_needing_preference", needed)
    for players in (3, 5):
        for _ in played_games(10, players):
            pass
    for kept in json.loads(RECORDS_BEFORE_FIRST.read_text())["games"]:  # (contested: rare in random games)
        Game.replay(kept["record"])
    for population in (3, 5):  # two cities take the same last citizen: a question; none when both are full
        before = seen["choices"]
        events = two_take_the_last(population).play(1, "gold")
        assert seen["choices"] == before + (population < 5)
        assert (
            population < 5 or [e.kind for e in events].count("relocate") == 1
        )  # (the city lost gives no more)
    assert seen["choices"] >= 2 and seen["found"] > 500 and seen["kept"] > 500, seen


def test_buildings_and_turns_made_without_validation_are_those_validation_makes() -> None:
    pairs: list[tuple[BaseModel, BaseModel]] = [
        (new_building("I9", "farm"), Building(hex="I9", kind="farm")),
        (turn_decision(2), Decision(seat=2, kind="turn")),
        (state.new_decision(2, "castle"), Decision(seat=2, kind="castle")),
        (
            state.new_decision(0, "first", cities=["I9", "K5"]),
            Decision(seat=0, kind="first", cities=["I9", "K5"]),
        ),
        (
            state.new_decision(1, "prefer", city="I9", services=["culture", "health"]),
            Decision(seat=1, kind="prefer", city="I9", services=["culture", "health"]),
        ),
        (
            state.new_city(3, "Siena", 1, "I9", 2, 4),
            City(id=3, name="Siena", owner=1, castle="I9", population=2, founded_year=4),
        ),
    ]
    for made, validated in pairs:
        assert made == validated and made.model_fields_set == validated.model_fields_set
        assert list(made.__dict__.items()) == list(validated.__dict__.items())
        assert made.model_dump_json() == validated.model_dump_json() and repr(made) == repr(validated)
    first, second = new_building("I9", "farm"), new_building("I9", "farm")
    first.notables["culture"] = 1
    assert second.notables == {}  # each has its own defaults
    one, other = turn_decision(1), turn_decision(1)
    one.cities.append("I9")
    assert other.cities == []


def test_the_engines_decisions_and_cities_are_those_pydantic_validates(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`engine.state.new_decision` and `new_city` make, in random games (2-5 players, both
    setups), what validation makes of the same fields: every kind of decision, every city."""
    seen: Counter[str] = Counter()
    decide, found = state.new_decision, state.new_city

    def decision(seat: int, kind: Any, **given: Any) -> Decision:
        made, validated = decide(seat, kind, **given), Decision(seat=seat, kind=kind, **given)
        assert made == validated and made.model_fields_set == validated.model_fields_set
        assert list(made.__dict__.items()) == list(validated.__dict__.items())
        assert all(made.__dict__[k] is not v for k, v in given.items() if isinstance(v, list))
        seen[kind] += 1
        return made

    def city(*fields: Any) -> City:
        made = found(*fields)
        validated = City(
            **dict(zip(("id", "name", "owner", "castle", "population", "founded_year"), fields, strict=True))
        )
        assert made == validated and made.model_fields_set == validated.model_fields_set
        assert list(made.__dict__.items()) == list(validated.__dict__.items())
        seen["city"] += 1
        return made

    for module in (flow, decisions):
        monkeypatch.setattr(module, "new_decision", decision)
    monkeypatch.setattr(construction, "new_city", city)
    for players in (2, 3, 4, 5):
        for _ in played_games(8, players):
            pass
    assert min(seen[k] for k in ("castle", "first", "prefer", "demolish", "starve", "city")) > 0, seen
    with pytest.raises(TypeError):
        state.new_decision(1, "starve", hexes=["I9"])


def test_a_relocation_turn_with_the_neighbours_found_once_does_what_a_fresh_look_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`relocate` takes the neighbours its turn's questions found (`Near`, `engine.flow`); a city
    lost on the way leaves them (`engine.relocation._forget`), so that every relocation turn of
    random games ends as one that looks afresh."""
    seen = {"turns": 0, "lost": 0}

    def compared(state: GameState, seat: int, ev: Events, known: Near | None = None) -> None:
        fresh, by_fresh = state.model_copy(deep=True), Events()
        relocation.relocate(fresh, seat, by_fresh)
        first = len(ev)
        relocation.relocate(state, seat, ev, known)
        assert ev[first:] == by_fresh and state == fresh
        on_board = {id(c) for c in state.cities}  # what is known of a lost city is forgotten
        assert all(id(c) in on_board for cities in (known or {}).values() for c in cities)
        if known is not None:
            assert all(id(row[0]) in on_board for row in (known.rows or ()))
        seen["turns"] += 1
        seen["lost"] += any(e.kind == "city_lost" for e in by_fresh)

    monkeypatch.setattr(flow, "relocate", compared)
    for players in (2, 3, 4, 5):
        for _ in played_games(10, players):
            pass
    assert seen["turns"] > 500 and seen["lost"] > 0


def played_games(count: int, players: int) -> Iterator[Game]:
    """Random games played to the end, both setups."""
    for seed in range(count):
        rng = random.Random(seed)
        g = Game.new(
            [f"P{i}" for i in range(players)], seed=seed, setup="beginner" if seed % 2 else "experienced"
        )
        while not g.is_over:
            seat = g.pending_seats()[0]
            g.play(seat, rng.choice(g.legal_moves(seat)))
        yield g


def test_a_turns_one_pass_over_the_cities_finds_what_each_lookup_finds_alone() -> None:
    """`Table.cities_of` makes the seat's cities, the occupancy and the token stacks in one pass
    (`engine.placement._survey`): at every position of random games, both setups, 2-5 players,
    they are what `occupancy`, the stacks counted alone and the seat's sorted cities are."""
    checked = 0
    for players in (2, 3, 4, 5):
        for g, _seat in random_games(3, players=players):
            alone = Table(g.state)
            for asked in range(players):
                t = Table(g.state)
                mine = t.cities_of(asked)
                assert mine == sorted(g.state.cities_of(asked), key=lambda c: BOARD.index[c.castle])
                assert t.occ == occupancy(g.state) and t.stacks_used == alone.stacks_used
                assert Table(g.state).cities_of(asked) == t.cities_of(asked)  # made once or asked again
            checked += 1
    assert checked > 300


# --- moves and positions


def test_a_turns_lookups_carried_to_the_next_turn_are_the_fresh_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lookups a turn leaves (`engine.decisions.Played`, kept up to date by
    `engine.turn_play.carry`) are, wherever the next turn is searched with them, what a new
    `Table` makes of that position (the same city objects on the same hexes, the same stacks,
    the same hexes too near for a castle and castle sites, the same building sites of each
    city kept and the same cities of each seat kept);
    and random games, 2-5 players, both setups, play out to the same legal moves, events and
    states as when every turn is searched with new lookups and a building finds its city
    without them."""
    seen = {"carried": 0, "sites": 0, "mine": 0}
    made = decisions._lookups

    def checked(state: GameState, d: Decision, ev: Events) -> Table:
        t = made(state, d, ev)
        if isinstance(ev, decisions.Played) and t is ev.table:
            fresh, kept = Table(state), t.__dict__
            lookups = ("occ", "taken", "free", "stacks_used", "blocked", "castle_idx", "sites", "mine")
            made_now = [k for k in lookups if k in kept]
            assert made_now
            for k in made_now:
                if k == "occ":
                    assert {i: id(c) for i, c in kept[k].items()} == {i: id(c) for i, c in fresh.occ.items()}
                elif k == "sites":
                    by_id = {c.id: c for c in state.cities}
                    assert kept[k] == {i: sorted(site_idx(fresh, by_id[i])) for i in kept[k]}
                    seen["sites"] += len(kept[k])
                elif k == "mine":
                    ids = {seat: [id(c) for c in fresh.cities_of(seat)] for seat in kept[k]}
                    assert {seat: [id(c) for c in cities] for seat, cities in kept[k].items()} == ids
                    seen["mine"] += len(kept[k])
                else:
                    assert kept[k] == getattr(fresh, k), k
            seen["carried"] += 1
        return t

    def every_step(players: int) -> list[Any]:
        out: list[Any] = []
        for seed in range(6):
            rng = random.Random(seed)
            g = Game.new(
                [f"P{i}" for i in range(players)], seed=seed, setup="beginner" if seed % 2 else "experienced"
            )
            while not g.is_over:
                seat = g.pending_seats()[0]
                moves = g.legal_moves(seat)
                out += [moves, g.play(seat, rng.choice(moves))]
            out.append(g.state)
        return out

    monkeypatch.setattr(decisions, "_lookups", checked)
    carried = {players: every_step(players) for players in (2, 3, 4, 5)}
    assert seen["carried"] > 1000
    monkeypatch.setattr(decisions.Played, "carry", lambda self, t: None)
    monkeypatch.setattr(turn_play, "_joined", lambda t, seat, label: None)  # `city_at_neighbour`
    assert {players: every_step(players) for players in (2, 3, 4, 5)} == carried
    assert seen["carried"] > 1000 and seen["sites"] > 1000 and seen["mine"] > 1000, seen


def test_a_kept_search_of_any_decision_lists_what_a_fresh_search_lists(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`Game._keep` keeps the search of a turn or castle asked last and of every starvation and
    demolition pending: asked for every pending seat, in a random order, at every position of
    random games (2-5 players, both setups), the legal moves are those of a game that searches
    afresh (`Game.restore` keeps no search), and the kept searches were used."""
    used: Counter[str] = Counter()
    kept = Game._kept

    def counted(g: Game, d: Decision) -> list[Action] | None:
        found = kept(g, d)
        used[d.kind] += found is not None
        return found

    monkeypatch.setattr(Game, "_kept", counted)
    for players in (2, 3, 4, 5):
        for seed in range(4):
            rng = random.Random(seed)
            g = Game.new(
                [f"P{i}" for i in range(players)], seed=seed, setup="beginner" if seed % 2 else "experienced"
            )
            while not g.is_over:
                seats = g.pending_seats()
                fresh = Game.restore(g.snapshot(), g.record())
                for seat in rng.sample(seats, len(seats)):
                    assert g.legal_moves(seat) == fresh.legal_moves(seat)
                seat = seats[0]
                g.play(seat, rng.choice(g.legal_moves(seat)))
    assert min(used[k] for k in ("turn", "castle", "starve", "demolish")) > 10, used


# --- events and the year's end


def fresh(e: Event) -> Event:
    """``e`` made again by `Events.add`, its text not told yet."""
    others = {k: getattr(e, k) for k in e.model_fields_set - {"kind", "text", "message", "values"}}
    made = Events().add(e.kind, e.message, e.values, **others)
    assert type(made.__dict__["text"]) is events.Later
    return made


def test_an_events_text_told_when_first_read_is_the_text_told_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`Events.add` leaves the English text to tell (`engine.events.Later`): read when the game
    is over, each is the text told from the message and values at the moment it was made."""
    at_once: dict[int, tuple[str, str]] = {}
    add = Events.add

    def adding(self: Events, kind: str, message: str, /, values: Any = None, **kw: Any) -> Event:
        e = add(self, kind, message, values, **kw)
        if values is not None:
            assert type(e.__dict__["text"]) is events.Later
            at_once[id(e)] = message, told(ENGLISH, message, values)
        return e

    monkeypatch.setattr(Events, "add", adding)
    later = 0
    for players in (2, 5):
        for seed in range(3):
            rng = random.Random(seed)
            g = Game.new(
                [f"P{i}" for i in range(players)], seed=seed, setup="beginner" if seed % 2 else "experienced"
            )
            kept: list[Event] = []
            while not g.is_over:
                seat = g.pending_seats()[0]
                kept += g.play(seat, rng.choice(g.legal_moves(seat)))
            for e in kept:
                message, text = at_once.get(id(e), ("", ""))
                if message and e.message == message:  # (not an automatic turn's, told again)
                    later += 1
                    assert e.text == text and type(e.__dict__["text"]) is str
            at_once.clear()
    assert later > 1000


def test_an_automatic_turns_event_told_later_is_the_one_told_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first event of a turn the engine played (`engine.decisions._say_only_move`) says so,
    its text told when first read: in random games it is, field for field and set for set, the
    event with the message and the text told at once assigned."""
    say, checked = decisions._say_only_move, Counter[str]()

    def compared(e: Event) -> None:
        plain = e.model_copy(deep=True)
        plain.message = decisions.AUTO_TURN[plain.message]
        plain.text = told(ENGLISH, plain.message, plain.values)
        say(e)
        assert type(e.__dict__["text"]) is events.Later
        assert e == plain and e.model_fields_set == plain.model_fields_set
        assert list(e.__dict__.items()) == list(plain.__dict__.items())
        checked[e.kind] += 1

    monkeypatch.setattr(decisions, "_say_only_move", compared)
    for players in (2, 5):
        for _ in played_games(3, players):
            pass
    assert checked["gold"] > 5 and checked["pass"] > 50, checked


def nothing_untold(found: Any) -> bool:
    """Whether no text not told yet (`engine.events.Later`) is in ``found``."""
    if isinstance(found, events.Later):
        return False
    if isinstance(found, dict):
        return all(map(nothing_untold, found.values()))
    if isinstance(found, (list, tuple)):
        return all(map(nothing_untold, found))
    return nothing_untold(found.__dict__) if isinstance(found, Event) else True


def test_an_event_read_any_way_has_its_text_told() -> None:
    """Read by pydantic (a dump, JSON, ``==``, ``repr``, ``dict()``, copies, pickling, a list
    of events dumped), an event whose text is not told yet is the event made with it told."""
    readers: list[Any] = [
        lambda e: e.model_dump(),
        lambda e: e.model_dump(exclude_unset=True),
        lambda e: e.model_dump(mode="json", exclude={"seat"}),
        lambda e: e.model_dump_json(),
        lambda e: TypeAdapter(list[Event]).dump_json([e]),
        lambda e: TypeAdapter(list[Event]).dump_python([e]),
        repr,
        str,
        lambda e: dict(e),
        lambda e: list(e.__iter__()),
        lambda e: list(copy.copy(e).__dict__.items()),
        lambda e: list(copy.deepcopy(e).__dict__.items()),
        lambda e: list(e.model_copy().__dict__.items()),
        lambda e: list(e.model_copy(update={"values": {}}).__dict__.items()),
        lambda e: list(pickle.loads(pickle.dumps(e)).__dict__.items()),
        lambda e: e.told(),
        lambda e: e.text,
    ]
    assert not hasattr(Event, "text") and Event.model_fields["text"].is_required()  # (no default)
    seen = 0
    for e in played(2):
        if not e.message:
            continue
        others = {k: getattr(e, k) for k in e.model_fields_set - {"kind", "text", "message", "values"}}
        eager = Event(
            kind=e.kind, text=told(ENGLISH, e.message, e.values), message=e.message, values=e.values, **others
        )
        for read in readers:
            got = read(fresh(e))
            assert got == read(eager) and nothing_untold(got)
        assert fresh(e) == eager and eager == fresh(e) and fresh(e) == fresh(e)
        assert (fresh(e) != eager) is False and fresh(e).model_fields_set == e.model_fields_set
        seen += 1
    assert seen > 100


def every_way_to_starve(g: Game, seat: int, count: int) -> list[tuple[str, ...]]:
    """Every way to take ``count`` citizens from the seat's cities, sorted as answers are."""
    cities = g.state.cities_of(seat)
    ways = [
        tuple(
            sorted(
                (c.castle for c, m in zip(cities, taken, strict=True) for _ in range(m)),
                key=BOARD.index.__getitem__,
            )
        )
        for taken in itertools.product(*(range(c.population + 1) for c in cities))
        if sum(taken) == count
    ]
    return sorted(ways, key=lambda w: [BOARD.index[h] for h in w])


def test_the_ways_to_starve_kept_are_every_way_in_canonical_order() -> None:
    """`engine.feeding.starve_options` keeps the ways of the last positions asked (`_ways`): at
    positions of random games, asked twice, they are every way, sorted as answers are."""
    checked = 0
    for k, (g, _seat) in enumerate(random_games(4, players=3)):
        if k % 3:
            continue
        for seat in range(3):
            total = sum(c.population for c in g.state.cities_of(seat))
            for count in range(min(total, 7) + 2):
                expected = every_way_to_starve(g, seat, count)
                assert feeding.starve_options(g.state, seat, count) == expected
                assert feeding.starve_options(g.state, seat, count) == expected
                moves = [Action("starve", hexes=hs) for hs in expected]
                for _ in range(2):  # the answers made as tuples (`engine.decisions._starve_answers`)
                    kept = decisions._starve_answers(feeding.starve_key(g.state, seat), count)
                    assert list(kept) == moves and all(type(a) is Action for a in kept)
                checked += bool(expected)
    assert checked > 1000


def every_way_to_demolish(castle: str, hexes: tuple[str, ...], k: int) -> list[tuple[str, ...]]:
    """Every ``k`` of ``hexes`` whose demolition keeps the others connected to the castle, each
    in board order, sorted."""
    ways = []
    for gone in itertools.combinations(sorted(hexes, key=BOARD.index.__getitem__), k):
        kept = set(hexes) - set(gone)
        reached, todo = {castle}, [castle]
        while todo:
            for n in BOARD.neighbors(todo.pop()):
                if n in kept and n not in reached:
                    reached.add(n)
                    todo.append(n)
        if kept <= reached:
            ways.append(gone)
    return sorted(ways, key=lambda w: [BOARD.index[h] for h in w])


def test_the_ways_to_demolish_kept_are_every_connected_choice_sorted() -> None:
    """`engine.demolition._demolitions` keeps the ways of the last cities asked, found as bits:
    for the cities of random games and every count, asked twice, they are every choice that
    keeps the city connected, sorted; a city's own count is `demolish_options`."""
    checked = 0
    for k, (g, _seat) in enumerate(random_games(4, players=4)):
        if k % 3:
            continue
        for city in g.state.cities:
            hexes = tuple(b.hex for b in city.buildings)
            for count in range(len(hexes) + 1):
                expected = every_way_to_demolish(city.castle, hexes, count)
                assert list(demolition._demolitions(city.castle, hexes, count)) == expected
                assert list(demolition._demolitions(city.castle, hexes, count)) == expected
                moves = [Action("demolish", hexes=hs) for hs in expected]
                for _ in range(2):  # the answers kept as moves (`engine.decisions._demolish_answers`)
                    assert list(decisions._demolish_answers(city.castle, hexes, count)) == moves
                checked += len(expected) > 1
            excess = demolition.excess_buildings(city)
            assert demolition.demolish_options(city) == (
                every_way_to_demolish(city.castle, hexes, excess) if excess else []
            )
    assert checked > 300


def test_every_demolition_asked_has_every_connected_choice_as_its_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every demolition the engine asks in random games, those it takes at once included (one
    way): a city that must demolish every building has that one way, found without a search
    (`engine.decisions._answers`); the others' are the ways kept (`_demolish_answers`)."""
    seen = Counter[str]()
    answers = decisions._answers

    def checked(t: Table, d: Decision) -> list[Action]:
        found = answers(t, d)
        if d.kind == "demolish":
            city = decisions.decision_city(t.state, d)
            hexes, k = tuple(b.hex for b in city.buildings), demolition.excess_buildings(city)
            assert found == [
                Action("demolish", hexes=hs) for hs in every_way_to_demolish(city.castle, hexes, k)
            ]
            seen["every" if k == len(hexes) > 1 else "one" if k == len(hexes) else "some"] += 1
        return found

    monkeypatch.setattr(decisions, "_answers", checked)
    for _ in played_games(8, 5):
        pass
    assert min(seen[k] for k in ("every", "one", "some")) > 20, seen


def test_the_searches_leave_no_cycles_for_the_garbage_collector() -> None:
    """A starvation's and a demolition's searches recurse in functions of their own
    (`engine.feeding._take`, `engine.demolition._grow`), not nested ones: a nested function
    that calls itself refers to itself, and such a cycle outlives the search until the garbage
    collector finds it, which the cycles' count sets off. With the collector off, the searches
    made afresh (not from their caches) and random games leave nothing for it to find (the
    ways are those of the plain search: the tests above)."""
    gc.collect()
    gc.disable()
    try:
        for count in range(12):
            for cities in ((("C4", 5),), (("C4", 3), ("H9", 4)), (("C4", 2), ("H9", 3), ("L2", 4))):
                feeding._ways.__wrapped__(cities, count)
        for g, _seat in random_games(3, players=4):
            for city in g.state.cities:
                hexes = tuple(b.hex for b in city.buildings)
                if len(g.record().moves) % 7 == 0 and hexes:
                    demolition._demolitions.__wrapped__(city.castle, hexes, 1)
        left = gc.collect()
    finally:
        gc.enable()
    assert left < 50  # (a few from elsewhere at most: a cycle a search leaves is 6 objects or more)


def as_assigned(model: Any) -> Any:
    """A model tree as comparable data: each model's fields in order, with the fields marked as
    set (`model_fields_set`)."""
    if isinstance(model, BaseModel):
        fields = [(k, as_assigned(v)) for k, v in model.__dict__.items()]
        return type(model).__name__, fields, sorted(model.model_fields_set)
    if isinstance(model, list):
        return [as_assigned(v) for v in model]
    if isinstance(model, dict):
        return {k: as_assigned(v) for k, v in model.items()}
    return model


def test_a_year_end_written_without_assignment_is_as_assigned() -> None:
    """A new year's resets (`engine.flow._new_year`), growth (`_grow`) and a starvation's
    (`engine.feeding.starve`) write the fields as pydantic's assignment does: at positions of
    random games, each does what the plain way does, field for field and set for set."""
    checked = 0
    for k, (g, seat) in enumerate(random_games(3, players=4)):
        if k % 4:
            continue
        fast, plain = g.state.model_copy(deep=True), g.state.model_copy(deep=True)
        flow._new_year(fast)
        for p in plain.players:
            p.action_cards, p.notables, p.founded_this_year, p.peek = (
                ACTION_CARDS,
                NOTABLES_PER_PLAYER,
                False,
                [None] * 4,
            )
        for city in plain.cities:
            for b in city.buildings:
                b.notables, b.harvest = {}, False
        assert as_assigned(fast) == as_assigned(plain)
        grown = flow._grow(fast)
        names = []
        for s in plain.seats_from_start():
            for city in plain.cities_of(s):
                if room(city) > 0 and plain.supply_citizens > 0:
                    city.population += 1
                    plain.supply_citizens -= 1
                    names.append(city.name)
        assert grown == names and as_assigned(fast) == as_assigned(plain)
        mine = [c for c in fast.cities if c.owner == seat and c.population]
        if mine:
            first, last = mine[0], mine[-1]
            hexes = (first.castle, *[b.hex for b in first.buildings[: first.population - 1][:1]])
            hexes += (last.castle,) if last is not first else ()
            feeding.starve(fast, seat, hexes, Events())
            taken: Counter[int] = Counter()
            for h in hexes:
                at = city_at(plain, h)
                assert at is not None
                taken[at.id] += 1
            for cid, n in taken.items():
                city = plain.city_by_id(cid)
                city.population -= n
                plain.supply_citizens += n
                if city.population == 0:
                    del plain.cities[next(i for i, c in enumerate(plain.cities) if c is city)]
            if plain.year >= YEARS:
                plain.players[seat].hunger_vp += 5
            else:
                plain.players[seat].hunger = True
            assert as_assigned(fast) == as_assigned(plain)
        checked += bool(grown) + bool(mine)
    assert checked > 50


def test_the_fields_written_without_assignment_are_as_assigned(monkeypatch: pytest.MonkeyPatch) -> None:
    """`engine.state.put` writes a field as pydantic's assignment does: random games (2-5
    players, both setups) play out to the same legal moves, events and states, field for field
    and set for set, as when every `put` assigns."""

    def trace() -> list[Any]:
        out: list[Any] = []
        for players in (2, 3, 4, 5):
            for seed in range(3):
                rng = random.Random(seed)
                g = Game.new(
                    [f"P{i}" for i in range(players)],
                    seed=seed,
                    setup="beginner" if seed % 2 else "experienced",
                )
                while not g.is_over:
                    seat = g.pending_seats()[0]
                    moves = g.legal_moves(seat)
                    played = g.play(seat, rng.choice(moves))
                    out.append((moves, [as_assigned(e) for e in played], as_assigned(g.state)))
        return out

    fast = trace()
    for module in (game_module, decisions, flow, turn_play, feeding, construction, relocation, politics_row):
        assert module.put is state.put
        monkeypatch.setattr(module, "put", setattr)
    assert trace() == fast
