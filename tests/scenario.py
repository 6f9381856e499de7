"""Building positions for scenario tests: a real game whose board is then arranged by hand."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import Game
from engine.board import BOARD
from engine.cities import hex_food, occupancy, player_food
from engine.components import CITIZENS_TOTAL, Service, Terrain
from engine.construction import add_castle
from engine.state import Building, City, Decision, GameState


class Scenario:
    """A game state arranged by a test; `game()` turns it into a playable Game."""

    def __init__(self, players: int = 2, seed: int = 1, setup: str = "beginner") -> None:
        g = Game.new([f"P{i}" for i in range(players)], seed=seed, setup=setup)  # type: ignore[arg-type]
        self.record = g.record()
        self.state: GameState = g.state.model_copy(deep=True)
        s = self.state
        s.cities = []
        s.next_city_id = 1
        s.supply_citizens = CITIZENS_TOTAL
        s.pending = []
        s.placement = []
        s.year = 1
        s.phase = "politics"
        s.round = 1
        s.turn_index = 0
        s.start_player = 0

    # --- board ------------------------------------------------------------------------

    def terrain(self, area: str, terrain: Terrain, wheat: int = 0) -> Scenario:
        for a in self.state.areas:
            if a.id == area:
                a.terrain = terrain
                a.wheat = wheat
        self.state.__pydantic_private__["_area_map"] = None  # type: ignore[index]
        return self

    def hex_terrain(self, label: str, *sides: tuple[Terrain, int]) -> Scenario:
        """Set the terrain on both sides of a (non-junction) hex."""
        for area, (t, w) in zip(BOARD.areas_of(label), sides, strict=True):
            self.terrain(area, t, w)
        return self

    def city(
        self,
        seat: int,
        castle: str,
        population: int = 3,
        buildings: list[tuple[str, str]] = (),  # type: ignore[assignment]
    ) -> City:
        """A city with its castle on ``castle``; buildings as (kind, hex); citizens from the supply."""
        city = add_castle(self.state, seat, castle, population)
        city.buildings = [Building(hex=h, kind=k) for k, h in buildings]
        self.state.supply_citizens -= population
        return city

    # --- whose move -------------------------------------------------------------------

    def turn(self, seat: int, *, round: int = 1, year: int = 1, last: bool = False) -> Scenario:
        """Make it ``seat``'s turn; with ``last`` it is the last turn of round 5."""
        s = self.state
        s.year = year
        s.phase = "politics"
        s.start_player = (seat + 1) % s.n_players if last else seat
        s.turn_index = s.n_players - 1 if last else 0
        s.round = 5 if last else round
        s.pending = [Decision(seat=seat, kind="turn")]
        return self

    def row(self, *cards: str) -> Scenario:
        """Put these cards into the face-up politics row (the rest of the row is kept)."""
        s = self.state
        for card in cards:
            s.politics_pile.insert(0, s.politics_row.pop())
            s.politics_row.insert(0, card)
            for pile in (s.politics_pile, s.politics_discard):
                if card in pile:
                    pile.remove(card)
                    break
        return self

    def voice(self, *cards: Service) -> Scenario:
        self.state.voice = list(cards)
        return self

    def game(self) -> Game:
        return Game.restore(self.state.model_dump(), self.record)


def play_out(
    g: Game, stop: Callable[[Game], bool] = lambda g: False, rng: random.Random | None = None
) -> None:
    """Answer every decision with the default move (or a random legal one) until ``stop``."""
    while not g.is_over and not stop(g):
        seat = g.pending_seats()[0]
        move: Any = rng.choice(g.legal_moves(seat)) if rng else g.default_move(seat)
        g.play(seat, move)


def check_invariants(g: Game) -> None:
    """Facts that hold after every move of every game."""
    s = g.state
    on_board = sum(c.population for c in s.cities)
    assert on_board + s.supply_citizens == CITIZENS_TOTAL, "citizens are conserved with the supply"
    assert s.supply_citizens >= 0
    playable = BOARD.playable(s.n_players)
    occ = occupancy(s)
    assert len(occ) == sum(1 + len(c.buildings) for c in s.cities), "one building per hex"
    for c in s.cities:
        assert c.population >= 1
        hexes = [c.castle, *(b.hex for b in c.buildings)]
        assert all(h in playable for h in hexes), "no building outside the playable zones"
        # Connected around the castle.
        seen, todo = {c.castle}, [c.castle]
        while todo:
            for n in BOARD.neighbors(todo.pop()):
                if n in hexes and n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == set(hexes), f"{c.name} is connected around its castle"
        # Never touching another city.
        for h in hexes:
            for n in BOARD.neighbors(h):
                other = occ.get(BOARD.index[n])
                assert other is None or other is c, f"{c.name} touches {other.name if other else ''}"
        if s.phase == "politics":
            assert len(c.buildings) <= c.population - 1, "every building is manned"
        assert sum(1 for b in c.buildings if b.kind == "market") <= 1, "at most one market"
    for p in s.players:
        assert p.gold >= 0
        assert 0 <= p.notables <= 4
        placed = sum(n for c in s.cities_of(p.seat) for b in c.buildings for n in b.notables.values())
        placed += sum(1 for c in s.cities_of(p.seat) for b in c.buildings if b.harvest)
        assert placed + p.notables <= 4, "at most four notables a year"
        areas = s.area_map()
        food = sum(
            hex_food(areas, c.castle)
            + sum(hex_food(areas, b.hex) * (2 if b.harvest else 1) for b in c.buildings if b.kind == "farm")
            for c in s.cities_of(p.seat)
        )
        assert player_food(s, p.seat) == food, "food is what the board yields"
