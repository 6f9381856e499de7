"""The voice of the people and citizen relocation (rules §4.6, §7)."""

from __future__ import annotations

from typing import Any

import pytest
from scenario import Scenario

from engine import Game, IllegalMove
from engine.components import Service


def year_end(
    voice: list[Service], a: dict[str, Any], b: dict[str, Any], *, a_seat: int = 0, b_seat: int = 1
) -> Game:
    """Two cities, plenty of food, the given voice; the year's last turn is seat 1's."""
    sc = Scenario()
    for h in ("J9", "N9", "B9", "P9", "E13"):
        sc.hex_terrain(h, ("farmland", 3), ("farmland", 3))
    sc.city(a_seat, **a)
    sc.city(b_seat, **b)
    sc.voice(*voice)
    return sc.turn(1, last=True).game()


def relocations(events: list) -> list[tuple[str, str]]:  # type: ignore[type-arg]
    return [(e.data["from"], e.data["to"]) for e in events if e.kind == "relocate"]


CULTURE: list[Service] = ["culture", "culture", "education", "health"]


def test_tally_finds_the_service_with_the_most_cards() -> None:
    g = year_end(CULTURE, {"castle": "J9"}, {"castle": "P9"})
    events = g.play(1, "gold")
    tally = next(e for e in events if e.kind == "tally")
    assert tally.data["result"] == ["culture"]


def test_a_weaker_neighbour_two_hexes_away_gives_one_citizen() -> None:
    g = year_end(
        CULTURE,
        {"castle": "J9", "population": 3, "buildings": [("statue", "K9")]},
        {"castle": "N9", "population": 4},
    )
    events = g.play(1, "gold")
    assert relocations(events) == [("N9", "J9")]


def test_cities_three_empty_hexes_apart_are_not_neighbours() -> None:
    g = year_end(
        CULTURE,
        {"castle": "J9", "population": 3, "buildings": [("statue", "K9")]},
        {"castle": "P9", "population": 4},
    )
    assert relocations(g.play(1, "gold")) == []


def test_equal_points_move_nobody() -> None:
    g = year_end(
        CULTURE,
        {"castle": "J9", "population": 3, "buildings": [("statue", "K9")]},
        {"castle": "N9", "population": 3, "buildings": [("statue", "O9")]},
    )
    assert relocations(g.play(1, "gold")) == []


def test_a_city_at_its_limit_sends_the_citizen_to_the_supply() -> None:
    g = year_end(
        CULTURE,
        {"castle": "J9", "population": 5, "buildings": [("statue", "K9")]},
        {"castle": "N9", "population": 4},
    )
    supply = g.state.supply_citizens
    events = g.play(1, "gold")
    assert relocations(events) == [("N9", "J9")]
    assert "leaves for the supply" in next(e.text for e in events if e.kind == "relocate")
    pops = {c.castle: c.population for c in g.state.cities}
    assert pops == {"J9": 5, "N9": 4 - 1 + 1}  # N9 lost one, then grew next year
    assert g.state.supply_citizens == supply + 1 - 1  # the relocated citizen, then N9's growth


def test_a_players_own_cities_never_take_from_each_other() -> None:
    g = year_end(
        CULTURE,
        {"castle": "J9", "population": 3, "buildings": [("statue", "K9")]},
        {"castle": "N9", "population": 4},
        b_seat=0,
    )
    assert relocations(g.play(1, "gold")) == []


def test_a_city_that_loses_its_last_citizen_is_lost() -> None:
    g = year_end(
        CULTURE,
        {"castle": "J9", "population": 3, "buildings": [("statue", "K9")]},
        {"castle": "N9", "population": 1},
    )
    events = g.play(1, "gold")
    assert any(e.kind == "city_lost" for e in events)
    assert [c.castle for c in g.state.cities] == ["J9"]
    assert g.view(None).players[1].castles_left == 4


def test_each_stronger_neighbour_takes_one_citizen() -> None:
    sc = Scenario(players=3)
    for h in ("J9", "N9", "I13"):
        sc.hex_terrain(h, ("farmland", 3), ("farmland", 3))
    sc.city(0, "J9", 3, [("statue", "K9")])
    sc.city(1, "M9", 5)  # junction: between J9 and N9
    sc.city(2, "P9", 3, [("statue", "O9")])
    sc.voice(*CULTURE)
    g = sc.turn(2, last=True).game()
    events = g.play(2, "gold")
    assert sorted(relocations(events)) == [("M9", "J9"), ("M9", "P9")]


def test_tied_voice_each_player_chooses_per_city_and_the_example_ends_even() -> None:
    # Rules §7, the seeds' example: Anna is stronger in health, Bob in culture.
    tied: list[Service] = ["culture", "health", "culture", "health"]
    g = year_end(
        tied,
        {"castle": "J9", "population": 4, "buildings": [("fountain", "K9")]},
        {"castle": "N9", "population": 4, "buildings": [("statue", "O9")]},
    )
    g.state.start_player = 0
    g.play(1, "gold")
    assert [(d.seat, d.kind, d.services) for d in g.state.pending] == [(0, "prefer", ["culture", "health"])]
    events = g.play(0, "prefer J9 health")
    assert relocations(events) == [("N9", "J9")]
    assert g.pending_seats() == [1]
    with pytest.raises(IllegalMove, match="choose one of those"):
        g.play(1, "prefer N9 education")
    events = g.play(1, "prefer O9 culture")
    assert relocations(events) == [("J9", "N9")]
    pops = {c.castle: c.population for c in g.state.cities}
    assert pops == {"J9": 5, "N9": 5}, "each won one and lost one, then grew"


def test_a_tied_voice_is_not_asked_when_both_services_give_the_same_result() -> None:
    tied: list[Service] = ["culture", "health", "culture", "health"]
    g = year_end(
        tied,
        {"castle": "J9", "population": 4, "buildings": [("statue", "K9"), ("fountain", "I9")]},
        {"castle": "N9", "population": 4},
    )
    events = g.play(1, "gold")
    assert relocations(events) == [("N9", "J9")]
    assert all(d.kind != "prefer" for d in g.state.pending)


def test_relocation_goes_in_turn_order_from_the_start_player() -> None:
    tied: list[Service] = ["culture", "health", "culture", "health"]
    g = year_end(
        tied,
        {"castle": "J9", "population": 4, "buildings": [("fountain", "K9")]},
        {"castle": "N9", "population": 4, "buildings": [("statue", "O9")]},
    )
    g.state.start_player = 1
    g.state.turn_index = 1
    g.state.pending[0].seat = 0
    g2 = Game.restore(g.snapshot(), g.record())
    g2.play(0, "gold")
    assert g2.pending_seats() == [1], "the start player relocates first"
