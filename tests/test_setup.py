"""Setup (rules §3): beginner layouts, experienced placement, and the starting position."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import Game, IllegalMove
from engine.board import BOARD
from engine.cities import area_map, hex_food
from engine.setup import BEGINNER_CASTLES, BEGINNER_TERRAIN, TILES, placement_order


def test_beginner_layout_uses_exactly_the_22_tiles() -> None:
    assert Counter(BEGINNER_TERRAIN) == Counter(TILES)
    assert Counter(t for t, _ in TILES) == {"farmland": 14, "lake": 5, "mountain": 3}
    assert sorted(w for t, w in TILES if t == "farmland") == [1] * 6 + [2] * 7 + [3]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_beginner_castles_give_everyone_equal_food_and_keep_the_distance(n: int) -> None:
    g = Game.new([f"P{i}" for i in range(n)], seed=3)
    foods = {p.food for p in g.view(None).players}
    assert len(foods) == 1 and foods.pop() > 0
    castles = [h for pair in BEGINNER_CASTLES[n] for h in pair]
    assert len(castles) == 2 * n
    playable = BOARD.playable(n)
    assert all(h in playable for h in castles)
    for a in castles:
        for b in castles:
            if a != b:
                assert BOARD.distance(a, b) >= 4, (a, b)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_player_starts_with_two_castles_of_three_citizens_and_one_gold(n: int) -> None:
    g = Game.new([f"P{i}" for i in range(n)], seed=5)
    view = g.view(None)
    for p in view.players:
        assert p.gold == 1
        assert p.action_cards == 3
        assert p.notables == 4
        assert [c.population for c in p.cities] == [4, 4], "3 citizens each, +1 growth in year 1"
    assert view.supply.citizens == 130 - 8 * n
    assert view.year == 1 and view.phase == "politics" and view.round == 1
    assert len(view.politics_row) == 7
    assert view.pending == [view.start_player]


def test_beginner_start_player_is_drawn_from_the_seed() -> None:
    starts = {Game.new(["A", "B", "C"], seed=s).state.start_player for s in range(30)}
    assert starts == {0, 1, 2}
    assert (
        Game.new(["A", "B", "C"], seed=4).state.start_player
        == Game.new(["A", "B", "C"], seed=4).state.start_player
    )


def test_experienced_placement_goes_counter_clockwise_then_back_clockwise() -> None:
    # Rules §3.5 with 4 players and seat 1 starting: 1, 0, 3, 2 then 2, 3, 0, 1.
    assert placement_order(4, 1) == [1, 0, 3, 2, 2, 3, 0, 1]


def test_experienced_setup_asks_for_castles_and_then_the_player_left_of_the_last_starts() -> None:
    g = Game.new(["A", "B", "C"], seed=11, setup="experienced")
    order = list(g.state.placement)
    assert g.state.phase == "setup"
    for seat in order:
        assert g.pending_seats() == [seat]
        moves = g.legal_moves(seat)
        assert all(m.verb == "castle" for m in moves)
        g.play(seat, moves[len(moves) // 2])
    assert g.state.year == 1
    assert g.state.start_player == (order[-1] + 1) % 3
    areas = area_map(g.state)
    for p in g.view(None).players:
        assert len(p.cities) == 2
        assert p.food == sum(hex_food(areas, c.castle) for c in p.cities)


def test_experienced_terrain_is_shuffled_by_the_seed() -> None:
    a = Game.new(["A", "B"], seed=1, setup="experienced").state.areas
    b = Game.new(["A", "B"], seed=2, setup="experienced").state.areas
    assert a != b
    assert Counter((x.terrain, x.wheat) for x in a[:22]) == Counter(TILES)


def test_a_starting_castle_must_keep_three_empty_hexes_to_every_castle() -> None:
    g = Game.new(["A", "B"], seed=11, setup="experienced")
    seat = g.pending_seats()[0]
    g.play(seat, "castle I9")
    seat = g.pending_seats()[0]
    with pytest.raises(IllegalMove, match="only 2 empty hexes away"):
        g.play(seat, "castle L9")
    g.play(seat, "castle M9")


def test_a_castle_outside_the_playable_zones_is_refused() -> None:
    g = Game.new(["A", "B"], seed=11, setup="experienced")
    zone3 = next(h for h in BOARD.labels if BOARD.zone(h) == 3)
    with pytest.raises(IllegalMove, match="outside the playable area for 2 players"):
        g.play(g.pending_seats()[0], f"castle {zone3}")


@pytest.mark.parametrize("names", [["Solo"], ["A", "B", "C", "D", "E", "F"]])
def test_only_two_to_five_players_can_play(names: list[str]) -> None:
    with pytest.raises(ValueError, match="2 to 5 players"):
        Game.new(names)
