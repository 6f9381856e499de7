"""The full game state: every fact of a game, secrets included (never shown to players as is).

Players only ever see projections of it (`engine.views`). The state is a tree of pydantic
models mutated in place by the rules; `GameState.model_dump()` is its snapshot.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, PrivateAttr

from .board import BOARD
from .components import Service, Terrain

Phase = Literal["setup", "politics", "relocation", "demolition", "feeding", "over"]
DecisionKind = Literal["castle", "turn", "first", "prefer", "demolish", "starve"]
SetupKind = Literal["beginner", "experienced"]


class Area(BaseModel):
    """One terrain area (a large triangle) and what lies on it."""

    id: str
    terrain: Terrain
    wheat: int = 0


class Building(BaseModel):
    """A building other than the castle, with this year's notables on its arches."""

    hex: str
    kind: str
    notables: dict[Service, int] = Field(default_factory=dict)
    harvest: bool = False


class City(BaseModel):
    """A city: its castle hex, its population and its other buildings."""

    id: int
    name: str
    owner: int
    castle: str
    population: int
    buildings: list[Building] = Field(default_factory=list)
    founded_year: int = 0


def no_peek() -> list[Service | None]:
    """Nothing polled: one unknown entry per voice card of the year."""
    return [None, None, None, None]


class PlayerState(BaseModel):
    seat: int
    name: str
    gold: int
    action_cards: int
    notables: int
    hunger: bool = False
    """Lost citizens to hunger last year: the first turn of this year is lost (rules §5)."""
    hunger_vp: int = 0
    """Victory points lost to hunger in year 6."""
    founded_this_year: bool = False
    peek: list[Service | None] = Field(default_factory=no_peek)
    """Voice cards this player has seen this year (private to the player)."""


class Decision(BaseModel):
    """A decision a seat must take now. Several may be pending at once."""

    seat: int
    kind: DecisionKind
    city: str | None = None
    """The castle hex of the city the decision is about (prefer, demolish)."""
    count: int = 0
    """How many buildings to demolish, or citizens to send away (starve)."""
    services: list[Service] = Field(default_factory=list)
    """The tied services to choose from (prefer)."""
    cities: list[str] = Field(default_factory=list)
    """The castle hexes of the cities to choose from, in founding order (first)."""


class GameState(BaseModel):
    setup: SetupKind
    seed: int
    rng: int
    players: list[PlayerState]
    areas: list[Area]
    cities: list[City] = Field(default_factory=list)
    next_city_id: int = 1

    year: int = 0
    phase: Phase = "setup"
    round: int = 0
    start_player: int = 0
    turn_index: int = 0
    """Position, counted from the start player, of the player on turn in a round."""
    placement: list[int] = Field(default_factory=list)
    """Seats still to place a starting castle, in order (experienced setup)."""

    politics_row: list[str] = Field(default_factory=list)
    politics_pile: list[str] = Field(default_factory=list)
    politics_discard: list[str] = Field(default_factory=list)
    politics_used: list[str] = Field(default_factory=list)
    """Cards played or drawn this year; discarded at the end of the year."""

    voice_pile: list[Service] = Field(default_factory=list)
    voice: list[Service] = Field(default_factory=list)
    voice_revealed: bool = False
    voice_result: list[Service] = Field(default_factory=list)
    """The tallied voice of this year: one service, or two tied at 2-2 (empty before the tally)."""
    voice_used: list[Service] = Field(default_factory=list)

    supply_citizens: int = 0
    pending: list[Decision] = Field(default_factory=list)
    relocation_queue: list[int] = Field(default_factory=list)
    """Seats that still have their relocation turn this year, in order."""
    relocated: list[int] = Field(default_factory=list)
    """Ids of the cities of the seat on its relocation turn that have already checked their
    neighbours (a city chosen with ``first`` checks at once; the others after the last choice)."""
    preferred: dict[int, Service] = Field(default_factory=dict)
    """Service chosen per city id for this year's relocation (tied voice)."""

    scores: list[int] | None = None
    winners: list[int] | None = None

    _area_map: dict[str, Area] | None = PrivateAttr(default=None)
    _lake_idx: frozenset[int] | None = PrivateAttr(default=None)

    def __eq__(self, other: object) -> bool:
        """Equal when every field is (the private lookup cache does not count)."""
        return isinstance(other, GameState) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def area_map(self) -> dict[str, Area]:
        """Areas by id (the terrain never changes during a game, so this is cached)."""
        private = self.__pydantic_private__
        assert private is not None
        cached: dict[str, Area] | None = private["_area_map"]
        if cached is None:
            cached = private["_area_map"] = {a.id: a for a in self.areas}
        return cached

    def lake_idx(self) -> frozenset[int]:
        """The hexes (board indexes) that touch a lake area (cached, as `area_map`)."""
        private = self.__pydantic_private__
        assert private is not None
        cached: frozenset[int] | None = private["_lake_idx"]
        if cached is None:
            lakes = {a.id for a in self.areas if a.terrain == "lake"}
            touching = BOARD.area_idx
            cached = private["_lake_idx"] = frozenset(
                i for i, ids in enumerate(touching) if lakes.intersection(ids)
            )
        return cached

    # --- small lookups used everywhere ------------------------------------------------

    @property
    def n_players(self) -> int:
        return len(self.players)

    def turn_seat(self) -> int:
        return (self.start_player + self.turn_index) % len(self.players)

    def seats_from_start(self) -> list[int]:
        n = self.n_players
        return [(self.start_player + k) % n for k in range(n)]

    def city_by_id(self, city_id: int) -> City:
        for c in self.cities:
            if c.id == city_id:
                return c
        raise KeyError(city_id)

    def cities_of(self, seat: int) -> list[City]:
        return [c for c in self.cities if c.owner == seat]


Model = TypeVar("Model", bound=BaseModel)
_slot = BaseModel.__dict__
_set_dict = _slot["__dict__"].__set__
_set_fields_set = _slot["__pydantic_fields_set__"].__set__
_set_extra = _slot["__pydantic_extra__"].__set__
_set_private = _slot["__pydantic_private__"].__set__
"""The setters of a model's slots (`BaseModel.__slots__`), for the models the engine makes
without validation (`trusted`): taken once, each written through its own descriptor costs less
than through `object.__setattr__`, which looks it up by name."""


def put(model: BaseModel, name: str, value: Any) -> None:
    """``model.name = value`` written as pydantic's assignment writes a field of these models
    (no validation on assignment: the value in the model's dict, the field marked as set),
    without going through it, for the fields the engine writes on most steps (the turn, the
    gold, the action cards, populations) and at a year's end and start (the phase, the voice,
    the round). tests/test_engine_speed.py compares with assigning."""
    model.__dict__[name] = value
    model.__pydantic_fields_set__.add(name)


def trusted(model: type[Model], fields: dict[str, Any], given: set[str]) -> Model:
    """``model(**{k: fields[k] for k in given})`` made without validation, for values the engine
    makes on most moves and knows right: ``fields`` holds every field in order (fresh defaults
    for the others), ``given`` the ones marked as set (`model_fields_set`). The model has no
    private attributes. tests/test_engine_speed.py compares with validated ones."""
    made = object.__new__(model)
    _set_dict(made, fields)
    _set_fields_set(made, given)
    _set_extra(made, None)
    _set_private(made, None)
    return made


def new_building(label: str, kind: str) -> Building:
    """``Building(hex=label, kind=kind)``."""
    return trusted(Building, {"hex": label, "kind": kind, "notables": {}, "harvest": False}, {"hex", "kind"})


def turn_decision(seat: int) -> Decision:
    """``Decision(seat=seat, kind="turn")``."""
    return new_decision(seat, "turn")


_DECISION_GIVEN = frozenset({"city", "count", "services", "cities"})


def new_decision(seat: int, kind: DecisionKind, **given: Any) -> Decision:
    """``Decision(seat=seat, kind=kind, **given)``, for the engine's own decisions (``given``: of
    ``city``, ``count``, ``services``, ``cities``, each of its type; the lists are copied)."""
    fields: dict[str, Any] = {
        "seat": seat, "kind": kind, "city": None, "count": 0, "services": [], "cities": [],
    }  # fmt: skip
    if given:  # (a turn gives none: the most made)
        if not _DECISION_GIVEN.issuperset(given):
            raise TypeError(f"Not fields of a decision: {sorted(set(given) - _DECISION_GIVEN)}")
        fields.update(given)  # (every key is there already: the order stays the fields')
        fields["services"] = list(fields["services"])
        fields["cities"] = list(fields["cities"])
    return trusted(Decision, fields, {"seat", "kind", *given})


def new_city(id: int, name: str, owner: int, castle: str, population: int, founded_year: int) -> City:
    """``City(id=id, name=name, owner=owner, castle=castle, population=population,
    founded_year=founded_year)``."""
    fields = {
        "id": id,
        "name": name,
        "owner": owner,
        "castle": castle,
        "population": population,
        "buildings": [],
        "founded_year": founded_year,
    }
    return trusted(City, fields, {"id", "name", "owner", "castle", "population", "founded_year"})
