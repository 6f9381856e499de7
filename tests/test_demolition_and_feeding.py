"""Demolition of unmanned buildings (rules §7) and feeding the people (rules §8)."""

from __future__ import annotations

import pytest
from scenario import Scenario

from engine import Game, IllegalMove
from engine.components import Service

CULTURE: list[Service] = ["culture", "culture", "culture", "health"]


def losing_city(b_buildings: list[tuple[str, str]], b_population: int) -> Game:
    """Seat 1's city at the junction M9 loses a citizen to seat 0's palace at the year's end."""
    sc = Scenario()
    for h in ("J9", "N9", "M10", "L8"):
        sc.hex_terrain(h, ("farmland", 3), ("farmland", 3))
    sc.city(0, "J9", 4, [("palace", "I9")])
    sc.city(1, "M9", b_population, b_buildings)
    sc.voice(*CULTURE)
    return sc.turn(1, last=True).game()


def test_a_city_keeps_its_castle_and_one_building_per_citizen_beyond_the_first() -> None:
    g = losing_city([("farm", "N9"), ("statue", "M10")], 3)
    g.play(1, "gold")
    (d,) = g.state.pending
    assert (d.seat, d.kind, d.city, d.count) == (1, "demolish", "M9", 1)
    assert [str(m) for m in g.legal_moves(1)] == ["demolish N9", "demolish M10"]


def test_the_owner_chooses_and_loses_the_food_of_a_demolished_farm() -> None:
    g = losing_city([("farm", "N9"), ("farm", "M10")], 3)
    g.play(1, "gold")
    food = g.view(1).players[1].food
    g.play(1, "demolish N9")
    assert [b.hex for b in g.state.cities[1].buildings] == ["M10"]
    assert g.view(1).players[1].food == food - 6


def test_kept_buildings_stay_connected_to_the_castle() -> None:
    g = losing_city([("farm", "N9"), ("quarry", "O9")], 3)
    events = g.play(1, "gold")
    # Keeping O9 alone would cut it off: the only choice is taken by the engine.
    assert any(e.kind == "demolish" and e.hexes == ["O9"] for e in events)
    assert g.state.year == 2


def test_a_demolition_that_cuts_the_city_apart_is_refused() -> None:
    g = losing_city([("farm", "N9"), ("quarry", "O9"), ("statue", "M10")], 3)
    g.play(1, "gold")
    assert g.state.pending[0].count == 2
    with pytest.raises(IllegalMove, match="stay connected to the castle"):
        g.play(1, "demolish N9 M10")
    with pytest.raises(IllegalMove, match="demolish exactly 2, not 1"):
        g.play(1, "demolish O9")
    with pytest.raises(IllegalMove, match="castle of"):
        g.play(1, "demolish M9 O9")
    g.play(1, "demolish O9 M10")


def test_the_default_demolition_keeps_the_food() -> None:
    g = losing_city([("farm", "N9"), ("statue", "M10")], 3)
    g.play(1, "gold")
    assert str(g.default_move(1)) == "demolish M10"


def feeding(food_sides: tuple[int, int], cities: list[tuple[str, int]], year: int = 1) -> Game:
    sc = Scenario()
    sc.hex_terrain("K9", ("farmland", food_sides[0]), ("farmland", food_sides[1]))
    sc.hex_terrain("C9", ("wasteland", 0), ("lake", 0))
    for castle, pop in cities:
        sc.city(0, castle, pop)
    sc.hex_terrain("F13", ("farmland", 3), ("farmland", 3))
    sc.city(1, "F13", 3)
    return sc.turn(1, last=True, year=year).game()


def test_a_player_short_of_food_chooses_which_cities_lose_citizens() -> None:
    g = feeding((1, 1), [("K9", 3), ("C9", 3)])  # food 2 for 6 citizens
    g.play(1, "gold")
    (d,) = g.state.pending
    assert (d.seat, d.kind, d.count) == (0, "starve", 4)
    assert "starve C9 C9 K9 K9" in [str(m) for m in g.legal_moves(0)]
    with pytest.raises(IllegalMove, match="exactly 4 citizens, not 2"):
        g.play(0, "starve K9 K9")
    g.play(0, "starve C9 C9 K9 K9")
    assert {c.castle: c.population for c in g.state.cities_of(0)} == {"K9": 1 + 1, "C9": 1 + 1}
    assert g.state.players[0].hunger


def test_starving_a_city_to_nobody_loses_it() -> None:
    g = feeding((1, 1), [("K9", 3), ("C9", 3)])
    g.play(1, "gold")
    events = g.play(0, "starve C9 C9 C9 K9")
    assert any(e.kind == "city_lost" for e in events)
    assert [c.castle for c in g.state.cities_of(0)] == ["K9"]


def test_with_one_city_the_engine_takes_the_only_choice() -> None:
    g = feeding((1, 2), [("K9", 5)])
    events = g.play(1, "gold")
    assert any(e.kind == "starve" and e.seat == 0 for e in events)
    assert g.state.year == 2


def test_a_rich_harvest_feeds_more_people() -> None:
    sc = Scenario().hex_terrain("K9", ("farmland", 1), ("farmland", 1))
    sc.city(0, "K9", 5, [("farm", "L9")])  # food 2 + 2 for 5
    sc.city(1, "F13", 3)
    sc.hex_terrain("F13", ("farmland", 3), ("farmland", 3))
    sc.state.cities[0].buildings[0].harvest = True
    g = sc.turn(1, last=True).game()
    events = g.play(1, "gold")
    assert not any(e.kind == "starve" for e in events)


def test_starving_citizens_are_notables_free() -> None:
    # Notables are not citizens and need no food.
    sc = Scenario().hex_terrain("K9", ("farmland", 2), ("farmland", 2))
    sc.city(0, "K9", 4, [("statue", "L9")])
    sc.state.cities[0].buildings[0].notables = {"culture": 3}
    sc.city(1, "F13", 3)
    sc.hex_terrain("F13", ("farmland", 3), ("farmland", 3))
    g = sc.turn(1, last=True).game()
    events = g.play(1, "gold")
    assert not any(e.kind == "starve" for e in events)
