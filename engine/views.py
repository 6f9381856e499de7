"""What one viewer may see: a projection of the state with no field for anyone's secrets.

`project(state, seat)` builds the view of a seat; ``seat=None`` is the spectator. The
face-down voice cards, the draw pile order, the seed and the generator never enter a view;
a seat's own polled cards appear only in its own view (``peek``). The schema is documented
in `docs/view.md`.
"""

from __future__ import annotations

from pydantic import BaseModel

from .board import BOARD, PLAYABLE_ZONES
from .cities import (
    UNLIMITED,
    castle_citizens,
    city_food,
    has_all_services,
    player_citizens,
    player_food,
    population_limit,
    service_points,
)
from .components import CASTLES_PER_PLAYER, STACK_SIZE, Service, Terrain
from .placement import Table, building_sites
from .scoring import city_bonus, score_of
from .state import City, DecisionKind, GameState, Phase, SetupKind


class AreaView(BaseModel):
    id: str
    terrain: Terrain
    wheat: int


class BuildingView(BaseModel):
    hex: str
    kind: str
    notables: dict[Service, int]
    harvest: bool


class CityView(BaseModel):
    id: int
    name: str
    owner: int
    castle: str
    population: int
    castle_citizens: int
    limit: int | None
    """Population limit; ``None`` when there is none (market and water)."""
    food: int
    buildings: list[BuildingView]
    """The buildings other than the castle, in the order they were built."""
    culture: int
    education: int
    health: int
    complete: bool
    """Has a culture, an education and a health arch (+3 VP at the end)."""


class PlayerView(BaseModel):
    seat: int
    name: str
    gold: int
    food: int
    citizens: int
    action_cards: int
    notables: int
    hunger: bool
    """Lost citizens to hunger last year: loses the first turn of this year."""
    hunger_vp: int
    castles_left: int
    founded_this_year: bool
    cities: list[CityView]
    city_bonus: int = 0
    """+3 VP per city with all three services."""
    score: int = 0
    """The score if the game ended now (the final score once it is over)."""


class DecisionView(BaseModel):
    seat: int
    kind: DecisionKind
    city: str | None
    count: int
    services: list[Service]
    cities: list[str] = []
    """The castle hexes of the cities to choose from (``first``)."""


class SupplyView(BaseModel):
    citizens: int
    tokens: dict[str, int]
    """Tokens left per double-sided stack (``"farm/quarry"`` …)."""


class View(BaseModel):
    viewer: int | None
    setup: SetupKind
    player_count: int
    max_zone: int
    year: int
    phase: Phase
    round: int
    start_player: int
    turn: int | None
    """The seat on turn in a political round."""
    pending: list[int]
    decisions: list[DecisionView]
    areas: list[AreaView]
    players: list[PlayerView]
    politics_row: list[str]
    politics_pile: int
    politics_discard: int
    voice: list[Service | None]
    voice_result: list[Service]
    voice_discard: list[Service] = []
    """The voice cards of past years, all revealed at their tally (public)."""
    peek: list[Service | None]
    """The viewer's own polled cards this year, by voice position (all null for others)."""
    sites: list[str]
    """Hexes where the viewer could place a building next to one of their cities."""
    supply: SupplyView
    scores: list[int] | None
    winners: list[int] | None


def project(state: GameState, seat: int | None) -> View:
    """The view of ``seat`` (``None``: a spectator)."""
    t = Table(state)
    areas = t.areas

    def city_view(c: City) -> CityView:
        lim = population_limit(c)
        return CityView(
            id=c.id, name=c.name, owner=c.owner, castle=c.castle, population=c.population,
            castle_citizens=castle_citizens(c), limit=None if lim >= UNLIMITED else lim,
            food=city_food(areas, c),
            buildings=[BuildingView(hex=b.hex, kind=b.kind, notables=dict(b.notables),
                                    harvest=b.harvest) for b in c.buildings],
            culture=service_points(c, "culture"), education=service_points(c, "education"),
            health=service_points(c, "health"), complete=has_all_services(c),
        )  # fmt: skip

    players = [
        PlayerView(
            seat=p.seat, name=p.name, gold=p.gold, food=player_food(state, p.seat),
            citizens=player_citizens(state, p.seat), action_cards=p.action_cards,
            notables=p.notables, hunger=p.hunger, hunger_vp=p.hunger_vp,
            castles_left=CASTLES_PER_PLAYER - len(state.cities_of(p.seat)),
            founded_this_year=p.founded_this_year,
            cities=[city_view(c) for c in state.cities_of(p.seat)],
            city_bonus=city_bonus(state, p.seat), score=score_of(state, p.seat),
        )
        for p in state.players
    ]  # fmt: skip
    voice: list[Service | None] = [None] * 4
    if state.voice:
        voice = [s if (k == 0 or state.voice_revealed) else None for k, s in enumerate(state.voice)]
    peek: list[Service | None] = [None] * 4
    sites: list[str] = []
    if seat is not None:
        peek = list(state.players[seat].peek)
        sites = sorted({h for c in state.cities_of(seat) for h in building_sites(t, c)}, key=BOARD.sort_key)
    tokens = {stack: size - t.stacks_used[stack] for stack, size in STACK_SIZE.items()}
    return View(
        viewer=seat,
        setup=state.setup,
        player_count=state.n_players,
        max_zone=PLAYABLE_ZONES[state.n_players],
        year=state.year,
        phase=state.phase,
        round=state.round,
        start_player=state.start_player,
        turn=state.turn_seat() if state.phase == "politics" else None,
        pending=sorted({d.seat for d in state.pending}),
        decisions=[DecisionView(**d.model_dump()) for d in state.pending],
        areas=[AreaView(id=a.id, terrain=a.terrain, wheat=a.wheat) for a in areas.values()],
        players=players,
        politics_row=list(state.politics_row),
        politics_pile=len(state.politics_pile),
        politics_discard=len(state.politics_discard),
        voice=voice,
        voice_result=list(state.voice_result),
        voice_discard=list(state.voice_used),
        peek=peek,
        sites=sites,
        supply=SupplyView(citizens=state.supply_citizens, tokens=tokens),
        scores=state.scores,
        winners=state.winners,
    )
