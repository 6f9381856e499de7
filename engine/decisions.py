"""Pending decisions: who must decide what, the allowed answers, and carrying an answer out.

Every decision — a castle in setup, a turn, which city checks first in relocation, a
tied-voice preference, a demolition, a starvation — goes through the same four questions:
which moves answer it (`answers`), why a move is refused (`problem`), the allowed moves
(`options`) and the effect (`resolve`).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from .actions import Action, placed
from .board import BOARD
from .cities import city_at, hex_food, room
from .construction import found_source, place_starting_castle
from .demolition import _demolitions, demolish, demolish_problem, excess_buildings, least_harmful
from .events import Event, Events, Later
from .feeding import least_harmful_starve, starve, starve_key, starve_problem, starve_ways
from .placement import PHRASE_AND, Lookahead, Table, castle_problem, castle_site_idx
from .relocation import Near, relocate_city, winners_against
from .state import City, Decision, GameState, new_decision, put
from .turn import PHRASE_OR, TURN_VERBS, legal_turn_moves, turn_problem
from .turn_play import apply_turn
from .words import ENGLISH, N_, PHRASE, Phrase, Words, chain, told

VERB_KIND: dict[str, str] = {
    "castle": "castle",
    "first": "first",
    "prefer": "prefer",
    "demolish": "demolish",
    "starve": "starve",
    **{v: "turn" for v in TURN_VERBS},
}

ASKED: dict[str, str] = {
    "castle": N_("place a starting castle (`castle HEX`)"),
    "turn": N_("play a turn (`gold`, `found HEX from HEX2`, `build B HEX`, a politics card, or `pass`)"),
    "first": N_("choose which city takes first in relocation (`first HEX`)"),
    "prefer": N_("choose the service for a city (`prefer HEX S`)"),
    "demolish": N_("choose buildings to demolish (`demolish HEX …`)"),
    "starve": N_("choose which cities lose citizens to hunger (`starve HEX …`)"),
}
"""What each kind of decision asks, in words and in the notation."""

FOR_CITIES: dict[str, str] = {
    "first": N_("choose which city takes first in relocation: {cities} (`first HEX`)"),
    "prefer": N_("choose the service for {cities} (`prefer HEX S`)"),
    "demolish": N_("choose buildings of {cities} to demolish (`demolish HEX …`)"),
}
"""The same, naming the cities a decision is about."""

AUTO_TURN: dict[str, str] = {
    N_("{name} takes 2 gold (now {gold})."): N_("{name} takes 2 gold (now {gold}) (the only possible move)."),
    N_("{name} passes and draws a politics card face down."): N_(
        "{name} passes and draws a politics card face down (the only possible move)."
    ),
    N_("{name} passes (no politics card is left to draw)."): N_(
        "{name} passes (no politics card is left to draw) (the only possible move)."
    ),
    N_("The politics discard is shuffled into a new draw pile."): N_(
        "The politics discard is shuffled into a new draw pile (the only possible move)."
    ),
}
"""The first event of a turn the engine played because no other move was possible, saying so.
Only taking gold or passing can be the only move (either is possible whenever a turn is)."""
TOLD = ("message", "text")


def asked(state: GameState, seat: int) -> list[Phrase]:
    """What ``seat`` is asked now: one phrase per kind of decision, each city named once."""
    by_kind: dict[str, list[str]] = {}
    for d in state.pending:
        if d.seat == seat:
            by_kind.setdefault(d.kind, []).extend(h for h in [d.city, *d.cities] if h)
    out = []
    for kind, hexes in by_kind.items():
        cities = [c for c in (city_at(state, h) for h in dict.fromkeys(hexes)) if c is not None]
        if kind not in FOR_CITIES or not cities:
            out.append(PHRASE.t(ASKED[kind]))
            continue
        names = [f"{c.name} ({c.castle})" for c in cities]
        last = names.pop()
        joint = PHRASE_OR if kind == "first" else PHRASE_AND
        out.append(
            PHRASE.t(FOR_CITIES[kind], cities=PHRASE.t(joint, first=names, second=last) if names else last)
        )
    return out


def asked_of(state: GameState, seat: int, words: Words = ENGLISH) -> list[str]:
    """What ``seat`` is asked now, in ``words``' language: one phrase per kind of decision, each
    city named once.

    >>> from engine import Game
    >>> asked_of(Game.new(["Ann", "Bob"], seed=7).state, 1)
    ['play a turn (`gold`, `found HEX from HEX2`, `build B HEX`, a politics card, or `pass`)']
    """
    return [told(words, p["message"], p["values"]) for p in asked(state, seat)]


def decision_city(state: GameState, d: Decision, label: str | None = None) -> City:
    """The city the decision is about (or, for ``first``, the one at ``label``)."""
    city = city_at(state, label or d.city or "")
    assert city is not None
    return city


def answers(state: GameState, d: Decision, a: Action) -> bool:
    """Whether ``a`` is meant for decision ``d`` (same kind, and same city if it has one)."""
    if VERB_KIND.get(a.verb) != d.kind:
        return False
    if d.kind == "prefer":
        return a.hex is not None and city_at(state, a.hex) is decision_city(state, d)
    if d.kind == "demolish":
        return bool(a.hexes) and city_at(state, a.hexes[0]) is decision_city(state, d)
    return True


def canonical(state: GameState, seat: int, a: Action) -> Action:
    """The same move with each city named by its castle hex (any hex of a city names it), and
    ``found HEX`` completed with the castle that gives the citizen (see `found_source`)."""
    if a.verb == "found":
        source = city_at(state, a.source) if a.source else found_source(state, seat)
        return a if source is None else a._replace(source=source.castle)
    if a.verb in ("golden", "prefer", "first"):
        city = city_at(state, a.hex or "")
        return a if city is None else a._replace(hex=city.castle)
    if a.verb == "starve":
        cities = [city_at(state, h) for h in a.hexes]
        if any(c is None for c in cities):
            return a
        return a._replace(hexes=tuple(sorted((c.castle for c in cities if c), key=BOARD.index.__getitem__)))
    return a


KEPT = frozenset({"starve", "demolish"})
"""The kinds of decision whose search `Game` keeps while they are pending (`Game._keep`)."""
IN_ORDER = frozenset({"turn", "castle", "starve", "demolish"})
"""The kinds of decision whose answers `iter_options` finds in canonical order (`Action.sort_key`)."""


def iter_options(t: Table, d: Decision) -> Iterator[list[Action]]:
    """Every move that answers ``d``, in batches (a turn's lazily, a batch per kind of move:
    `legal_turn_moves` itself; the others' all at once); in canonical order for `IN_ORDER`."""
    if d.kind == "turn":
        return legal_turn_moves(t, d.seat)
    return iter((_answers(t, d),))


def _answers(t: Table, d: Decision) -> list[Action]:
    """Every move that answers ``d``, a decision other than a turn."""
    state, kind = t.state, d.kind
    if kind == "castle":
        row = placed("castle")
        return [row[i] for i in castle_site_idx(t)]
    if kind == "first":
        return [Action("first", hex=h) for h in d.cities]
    if kind == "prefer":
        city = decision_city(state, d)
        return [Action("prefer", hex=city.castle, service=s) for s in d.services]
    if kind == "demolish":
        city = decision_city(state, d)
        k, hexes = excess_buildings(city), tuple([b.hex for b in city.buildings])
        if not k:
            return []
        if k == len(hexes):  # (every building goes, in board order: the one way, found without a search)
            return [Action("demolish", hexes=tuple(sorted(hexes, key=BOARD.index.__getitem__)))]
        return list(_demolish_answers(city.castle, hexes, k))
    return _starve_answers(starve_key(state, d.seat), d.count)


def _starve_answers(cities: tuple[tuple[str, int], ...], count: int) -> list[Action]:
    """``Action("starve", hexes=hs)`` for each way of `engine.feeding.starve_options` (``cities``:
    `starve_key`). **Decision**: found afresh (`starve_ways`, not the ways `_ways` keeps) and not
    kept: random games asked the same ones again in about 3 starvations of 100 (they depend on the
    populations), and keeping them cost more than it saved (in the garbage collector); a starvation
    keeps its answers while pending (`Game._keep`). tests/test_engine_speed.py compares the ways."""
    new, ways = tuple.__new__, starve_ways(cities, count)  # Action("starve", hexes=hs), made as a tuple
    return [new(Action, ("starve", None, None, None, None, hs, (), None)) for hs in ways]


@lru_cache(maxsize=256)
def _demolish_answers(castle: str, hexes: tuple[str, ...], k: int) -> tuple[Action, ...]:
    """``Action("demolish", hexes=hs)`` for each way of `engine.demolition.demolish_options` of
    the city of ``castle`` and buildings ``hexes`` that must demolish ``k`` (kept as its ways)."""
    return tuple([Action("demolish", hexes=hs) for hs in _demolitions(castle, hexes, k)])


def options(t: Table, d: Decision) -> list[Action]:
    """Every move that answers ``d``."""
    return [a for batch in iter_options(t, d) for a in batch]


def problem(t: Table, d: Decision, a: Action) -> Phrase | None:
    """Why ``a`` does not answer ``d``, or ``None`` when it is allowed."""
    state = t.state
    if d.kind == "turn":
        return turn_problem(t, d.seat, a)
    if d.kind == "castle":
        assert a.hex is not None
        return castle_problem(t, d.seat, a.hex)
    if d.kind == "first":
        return _first_problem(state, d, a)
    if d.kind == "prefer":
        if a.service not in d.services:
            return PHRASE.t(
                "The voice this year is {service} and {service2}; choose one of those.",
                service=d.services[0], service2=d.services[-1],
            )  # fmt: skip
        return None
    if d.kind == "demolish":
        return demolish_problem(decision_city(state, d), a.hexes)
    return starve_problem(state, d.seat, d.count, a.hexes)


def _first_problem(state: GameState, d: Decision, a: Action) -> Phrase | None:
    city = city_at(state, a.hex or "")
    if city is not None and city.owner == d.seat and city.castle in d.cities:
        return None
    choices = chain(PHRASE_OR, [f"{decision_city(state, d, h).name} ({h})" for h in d.cities])
    if city is None:
        return PHRASE.t(
            "At {hex} stands no building; choose which of your cities takes first: {choices}.",
            hex=a.hex, choices=choices,
        )  # fmt: skip
    return PHRASE.t(
        "At {hex} stands {city}, which does not compete for a last citizen; choose which of your cities "
        "takes first: {choices}.",
        hex=a.hex, city=city.name, choices=choices,
    )  # fmt: skip


def resolve(
    state: GameState, d: Decision, a: Action, ev: Events, *, auto: bool = False, t: Table | None = None
) -> None:
    """Carry out a checked answer; the decision is already off the pending list.

    ``auto``: the engine answers because no other answer is possible; the answer's first
    event says so (``data["auto"]``), so that it can be shown as the seat's own move.
    ``t``: the lookups of the position, for a turn: kept up to date by the move (see `Played`).
    """
    first = len(ev)
    _carry_out(state, d, a, ev, auto, t)  # (positional: cheaper to call)
    if auto and len(ev) > first:
        ev[first].data["auto"] = True


def _carry_out(state: GameState, d: Decision, a: Action, ev: Events, auto: bool, t: Table | None) -> None:
    kind, seat = d.kind, d.seat  # (read once: each read of a model's attribute costs)
    if kind == "turn":
        first = len(ev)
        apply_turn(state, seat, a, ev, t)
        if auto:
            _say_only_move(ev[first])
        put(state, "turn_index", state.turn_index + 1)
    elif kind == "castle":
        assert a.hex is not None
        place_starting_castle(state, seat, a.hex, ev)
        state.placement.pop(0)
        if not state.placement:
            state.start_player = (seat + 1) % state.n_players
    elif kind == "first":
        city = decision_city(state, d, a.hex)
        ev.add(
            "first",
            N_("{name}'s {city} takes first."),
            {"name": state.players[seat].name, "city": city.name},
            seat=seat,
            hexes=[city.castle],
        )
        relocate_city(state, city, ev)
    elif kind == "prefer":
        city = decision_city(state, d)
        assert a.service is not None
        state.preferred[city.id] = a.service  # type: ignore[assignment]
        ev.add(
            "prefer",
            N_("{name}'s {city} compares {service}."),
            {"name": state.players[seat].name, "city": city.name, "service": a.service},
            seat=seat,
            hexes=[city.castle],
        )
    elif kind == "demolish":
        demolish(state, decision_city(state, d), a.hexes, ev, auto=auto)
    else:
        starve(state, seat, a.hexes, ev)
        for city in state.cities_of(seat):
            if excess_buildings(city):
                open_decision(
                    state,
                    new_decision(seat, "demolish", city=city.castle, count=excess_buildings(city)),
                    ev,
                )


def _say_only_move(e: Event) -> None:
    """The first event of a turn says that it was the only possible move: its message changed,
    its English text told from it when first read (`engine.events.Later`, as `Events.add`
    leaves it), written as pydantic's assignment writes them, without it."""
    message = AUTO_TURN.get(e.message)
    if message is not None:
        d = e.__dict__
        d["message"] = message
        d["text"] = Later(message, d["values"])
        e.__pydantic_fields_set__.update(TOLD)
    else:  # not expected (see AUTO_TURN): the English text says so
        e.text = f"{e.text.removesuffix('.')} (the only possible move)."
        e.message, e.values = "", {}


def default(t: Table, d: Decision) -> Action:
    """The least harmful answer, for a player who does not answer in time.

    A turn takes 2 gold (or passes); a castle goes where it yields the most food; a tied
    voice picks the service that takes from more neighbours; demolition and starvation
    keep what loses the least (see `least_harmful` and `least_harmful_starve`).

    **Decision** (rules §7) for ``first``: the city that is not at its limit goes first (the
    citizen it takes then stays in the player's city), then the earliest founded.
    """
    state = t.state
    if d.kind == "turn":
        return Action("gold") if state.players[d.seat].action_cards else Action("pass")
    if d.kind == "castle":
        return max(options(t, d), key=lambda a: (hex_food(t.areas, a.hex or ""), -BOARD.index[a.hex or ""]))
    if d.kind == "first":
        cities = [decision_city(state, d, h) for h in d.cities]
        return Action("first", hex=next((c for c in cities if room(c) > 0), cities[0]).castle)
    if d.kind == "prefer":
        city = decision_city(state, d)
        best = max(d.services, key=lambda s: (len(winners_against(state, city, s)), -d.services.index(s)))
        return Action("prefer", hex=city.castle, service=best)
    if d.kind == "demolish":
        return Action("demolish", hexes=least_harmful(state, decision_city(state, d)))
    return Action("starve", hexes=least_harmful_starve(state, d.seat, d.count))


class Played(Events):
    """The events of a move (`Events`), with the lookups of the position a turn left (`Table`,
    kept up to date by the turn: `engine.turn_play.carry`) and the year they are of.

    **Decision**: in the politics phase of a year only turns change the board (the others'
    changes come with the year's end, and the next politics phase is another year's), and
    an automatic turn (gold or pass: rules §10) changes none. So the next turn asked in the
    same year's politics phase (`open_decision`) is searched with these lookups instead of
    new ones over every city. tests/test_engine_speed.py compares them with fresh ones."""

    table: Table | None = None
    year = 0
    asked: tuple[Lookahead, ...] = ()
    """Every starvation and demolition asked while they happened, with its answers found so far
    (`open_decision`), for `Game` to keep (`KEPT`)."""
    near: Near | None = None
    near_state: GameState | None = None
    near_year = 0
    """The opposing neighbours found in a relocation phase, of that state and year
    (`engine.flow._near`)."""

    def carry(self, t: Table | None) -> None:
        """Keep ``t``, the lookups of the position now (after a turn), for the next turn."""
        if t is not None and t.state.phase == "politics":
            self.table, self.year = t, t.state.year


def _lookups(state: GameState, d: Decision, ev: Events) -> Table:
    """The lookups to search ``d`` with: those a turn left in the same year's politics phase
    (`Played`), else new ones."""
    if d.kind == "turn" and isinstance(ev, Played):
        t = ev.table
        if t is not None and t.state is state and state.year == ev.year and state.phase == "politics":
            return t
    return Table(state)


def open_decision(state: GameState, d: Decision, ev: Events) -> None:
    """Ask for a decision, or take it at once when only one answer is possible (rules §10).

    The search for answers stops at the second; an asked decision leaves it, to go on from
    there, in ``ev.opened`` (see `Lookahead`)."""
    kind = d.kind  # (read once: each read of a model's attribute costs)
    t = _lookups(state, d, ev)
    rest = iter_options(t, d)
    choices: list[Action] = []
    for batch in rest:
        choices += batch
        if len(choices) >= 2:
            break
    if len(choices) == 1:
        resolve(state, d, choices[0], ev, auto=True, t=t)
        if kind == "turn" and isinstance(ev, Played):
            ev.carry(t)
    else:
        state.pending.append(d)
        ev.opened = Lookahead(d, t, choices, rest)
        if kind in KEPT and isinstance(ev, Played):
            ev.asked += (ev.opened,)
