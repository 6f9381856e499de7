"""The course of a game year (rules §4): everything the engine does by itself between decisions."""

from __future__ import annotations

from .cities import area_map, quarry_gold, room
from .components import ACTION_CARDS, NOTABLES_PER_PLAYER, ROUNDS, YEARS
from .decisions import Played, open_decision
from .demolition import excess_buildings
from .events import Events
from .feeding import shortage
from .politics_row import end_of_year as discard_politics
from .relocation import Near, cities_needing_preference, first_choices, relocate, tally
from .scoring import final_scores
from .state import City, GameState, new_decision, no_peek, put, turn_decision
from .words import N_

VOICE_CARDS = 4


def advance(state: GameState, ev: Events) -> None:
    """Run the automatic steps until someone must decide or the game is over."""
    while not state.pending:
        phase = state.phase  # (read once: each read of a model's attribute costs)
        if phase == "politics":  # (most steps)
            _politics_step(state, ev)
        elif phase == "over":
            break
        else:
            _step(state, ev)


def _step(state: GameState, ev: Events) -> None:
    phase = state.phase
    if phase == "setup":
        if state.placement:
            open_decision(state, new_decision(state.placement[0], "castle"), ev)
        else:
            start_year(state, 1, ev)
    elif phase == "politics":
        _politics_step(state, ev)
    elif phase == "relocation":
        _relocation_step(state, ev)
    elif phase == "demolition":
        _enter_feeding(state, ev)
    elif phase == "feeding":
        _end_year(state, ev)


def start_year(state: GameState, year: int, ev: Events) -> None:
    """Phases 1–4: start player, voice of the people, quarry income, growth."""
    put(state, "year", year)
    names = [p.name for p in state.players]
    if year > 1:
        put(state, "start_player", (state.start_player + 1) % len(state.players))
    ev.add(
        "year",
        N_("Year {year} begins; {name} is start player."),
        {"year": year, "name": names[state.start_player]},
        data={"year": year, "start_player": state.start_player},
    )
    put(state, "voice", state.voice_pile[:VOICE_CARDS])
    put(state, "voice_pile", state.voice_pile[VOICE_CARDS:])
    put(state, "voice_revealed", False)
    put(state, "voice_result", [])
    ev.add(
        "voice",
        N_("Voice of the people: {service} face up, three cards face down."),
        {"service": state.voice[0]},
        reveals=True,
        data={"face_up": state.voice[0]},
    )
    areas = area_map(state)
    mine = by_seat(state)
    for seat in state.seats_from_start():
        gold = sum(quarry_gold(areas, c) for c in mine[seat])
        if gold:
            put(state.players[seat], "gold", state.players[seat].gold + gold)
            ev.add(
                "income",
                N_("{name} earns {gold} gold from quarries."),
                {"name": names[seat], "gold": gold},
                seat=seat,
                data={"gold": gold},
            )
    grown = _grow(state, mine)
    if grown:
        ev.add(
            "growth", N_("Growth: {cities} gain a citizen."), {"cities": list(grown)}, data={"cities": grown}
        )
    put(state, "phase", "politics")
    put(state, "round", 1)
    put(state, "turn_index", 0)


def by_seat(state: GameState) -> list[list[City]]:
    """`GameState.cities_of` of every seat, in one pass over the cities (founding order)."""
    mine: list[list[City]] = [[] for _ in state.players]
    for c in state.cities:
        mine[c.owner].append(c)
    return mine


def _grow(state: GameState, mine: list[list[City]] | None = None) -> list[str]:
    """Phase 4: each city with room gains a citizen from the supply while it lasts, from the
    start player on; the names of those that grew. (Written as `_new_year` writes: the supply
    once, the populations without pydantic's assignment.) ``mine``: `by_seat`, if found."""
    grown = []
    supply = state.supply_citizens
    if mine is None:
        mine = by_seat(state)
    for seat in state.seats_from_start():
        for city in mine[seat]:
            if room(city) > 0 and supply > 0:
                city.__dict__["population"] += 1
                city.__pydantic_fields_set__.add("population")
                supply -= 1
                grown.append(city.name)
    if grown:
        put(state, "supply_citizens", supply)
    return grown


def _politics_step(state: GameState, ev: Events) -> None:
    players = state.players
    if state.turn_index >= len(players):
        put(state, "turn_index", 0)
        put(state, "round", state.round + 1)
        if state.round > ROUNDS:
            put(state, "round", 0)
            tally(state, ev)
            put(state, "phase", "relocation")
            put(state, "relocation_queue", state.seats_from_start())
        return
    seat = state.turn_seat()
    player = players[seat]
    if player.hunger:
        # Rules §5: the hungry player's first turn turns an action card face down.
        put(player, "hunger", False)
        put(player, "action_cards", player.action_cards - 1)
        put(state, "turn_index", state.turn_index + 1)
        ev.add(
            "hunger",
            N_("{name} loses this turn to last year's hunger (an action card is turned face down)."),
            {"name": player.name},
            seat=seat,
            data={"auto": True},
        )
        return
    open_decision(state, turn_decision(seat), ev)


def _relocation_step(state: GameState, ev: Events) -> None:
    if not state.relocation_queue:
        _enter_demolition(state, ev)
        return
    seat = state.relocation_queue[0]
    known = _near(state, ev)  # (the questions below change nothing: their neighbours are found once)
    needed = cities_needing_preference(state, seat, known)
    if needed:
        for city in needed:
            state.pending.append(new_decision(seat, "prefer", city=city.castle, services=state.voice_result))
        return
    choices = first_choices(state, seat, known)
    if choices:
        state.pending.append(new_decision(seat, "first", cities=[c.castle for c in choices]))
        return
    relocate(state, seat, ev, known)
    state.relocation_queue.pop(0)


def _near(state: GameState, ev: Events) -> Near:
    """The opposing neighbours found so far in this relocation phase: kept by the events of the
    move (`Played`) for the next seat's relocation turn (the buildings stay, and a city lost on
    the way leaves them: `engine.relocation.relocate_city`), else none."""
    if isinstance(ev, Played):
        known = ev.near
        if known is None or ev.near_state is not state or ev.near_year != state.year:
            known = ev.near = Near()
            ev.near_state, ev.near_year = state, state.year
        return known
    return Near()


def _open_demolitions(state: GameState, seats: list[int], ev: Events) -> None:
    """(A demolition, even one the engine answers at once, takes buildings, never a city: each
    seat's cities are found in one pass, `by_seat`.)"""
    mine = by_seat(state)
    for seat in seats:
        for city in mine[seat]:
            if excess_buildings(city):
                open_decision(
                    state,
                    new_decision(seat, "demolish", city=city.castle, count=excess_buildings(city)),
                    ev,
                )


def _enter_demolition(state: GameState, ev: Events) -> None:
    put(state, "phase", "demolition")
    _open_demolitions(state, state.seats_from_start(), ev)


def _enter_feeding(state: GameState, ev: Events) -> None:
    put(state, "phase", "feeding")
    for seat in state.seats_from_start():
        short = shortage(state, seat)
        if short:
            open_decision(state, new_decision(seat, "starve", count=short), ev)


PLAYER_RESET = ("action_cards", "notables", "founded_this_year", "peek")
BUILDING_RESET = ("notables", "harvest")


def _new_year(state: GameState) -> None:
    """Every player's action cards, notables and polled cards back, no city founded this year;
    no notable and no harvest on a building.

    **Decision**: a year's end sets a few fields of every player and of every building (a
    score of models), so they are written as pydantic's assignment writes them, without it
    (no validation on assignment: the value in the model's dict, the field marked as set);
    tests/test_engine_speed.py compares with assigning them."""
    for p in state.players:
        d = p.__dict__
        d["action_cards"] = ACTION_CARDS
        d["notables"] = NOTABLES_PER_PLAYER
        d["founded_this_year"] = False
        d["peek"] = no_peek()
        p.__pydantic_fields_set__.update(PLAYER_RESET)
    for city in state.cities:
        for b in city.buildings:
            d = b.__dict__
            d["notables"] = {}
            d["harvest"] = False
            b.__pydantic_fields_set__.update(BUILDING_RESET)


def _end_year(state: GameState, ev: Events) -> None:
    """Phase 9: cards back, notables home, then the next year or the final scoring."""
    state.voice_used.extend(state.voice)
    put(state, "voice", [])
    put(state, "voice_revealed", False)
    put(state, "voice_result", [])
    put(state, "preferred", {})
    discard_politics(state)
    _new_year(state)
    ev.add("end_year", N_("Year {year} ends."), {"year": state.year}, data={"year": state.year})
    if state.year >= YEARS:
        final_scores(state, ev)
    else:
        start_year(state, state.year + 1, ev)
