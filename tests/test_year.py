"""The game year with action cards (rules §4, §5, §8, §9), one rule per test."""

from __future__ import annotations

import pytest
from scenario import Scenario, play_out

from engine import IllegalMove
from engine.components import STACK_SIZE
from engine.events import Events
from engine.flow import start_year


def rich(sc: Scenario, *hexes: str) -> Scenario:
    for h in hexes:
        sc.hex_terrain(h, ("farmland", 3), ("farmland", 3))
    return sc


def test_a_castle_between_a_2_and_a_3_wheat_field_yields_5_food() -> None:
    sc = Scenario().hex_terrain("K9", ("farmland", 2), ("farmland", 3))
    sc.city(0, "K9")
    assert sc.game().view(0).players[0].food == 5


def test_a_hex_touching_lake_and_mountain_yields_no_food() -> None:
    sc = Scenario().hex_terrain("K9", ("lake", 0), ("mountain", 0))
    sc.city(0, "K9")
    assert sc.game().view(0).players[0].food == 0


def test_a_farm_adds_the_food_of_its_own_fields() -> None:
    # J9, K9 and L9 form one path segment: they touch the same two fields.
    sc = Scenario().hex_terrain("K9", ("farmland", 1), ("farmland", 2))
    sc.city(0, "K9", 4)
    g = sc.turn(0).game()
    g.play(0, "build farm L9")
    assert g.view(0).players[0].food == 3 + 3


@pytest.mark.parametrize(
    ("population", "buildings", "grows_to"),
    [
        (4, [], 5),
        (5, [], 5),
        (7, [("market", "L9")], 8),
        (8, [("market", "L9")], 8),
        (8, [("market", "L9"), ("hospital", "J9")], 8),
        (8, [("market", "L9"), ("fountain", "J9")], 9),
        (8, [("market", "L9"), ("bath", "J9")], 9),
    ],
)
def test_growth_stops_at_5_without_market_and_at_8_without_water(
    population: int, buildings: list[tuple[str, str]], grows_to: int
) -> None:
    sc = Scenario()
    city = sc.city(0, "K9", population, buildings)
    start_year(sc.state, 2, Events())
    assert city.population == grows_to


def test_growth_needs_a_citizen_in_the_supply() -> None:
    sc = Scenario()
    city = sc.city(0, "K9", 3)
    sc.state.supply_citizens = 0
    start_year(sc.state, 2, Events())
    assert city.population == 3


def test_a_markets_citizen_comes_from_the_supply_even_at_5() -> None:
    sc = Scenario()
    sc.city(0, "K9", 5)
    g = sc.turn(0).game()
    supply = g.state.supply_citizens
    g.play(0, "build market L9")
    city = g.view(0).players[0].cities[0]
    assert (city.population, city.castle_citizens, city.limit) == (6, 5, 8)
    assert g.state.supply_citizens == supply - 1


def test_at_most_one_market_per_city() -> None:
    sc = Scenario()
    sc.city(0, "K9", 5, [("market", "L9")])
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match="already has a market"):
        g.play(0, "build market J9")


def test_a_building_needs_a_spare_citizen_in_the_castle() -> None:
    sc = Scenario()
    sc.city(0, "K9", 2, [("farm", "L9")])
    g = sc.turn(0).game()
    with pytest.raises(
        IllegalMove, match=r"school needs a spare citizen in the castle of Firenze \(K9\); it has 1"
    ):
        g.play(0, "build school J9")


def test_a_building_goes_next_to_its_city_on_an_empty_playable_hex() -> None:
    sc = Scenario()
    sc.city(0, "K9", 5)
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match="not next to any of your buildings"):
        g.play(0, "build farm C9")
    with pytest.raises(IllegalMove, match="taken by the castle"):
        g.play(0, "build farm K9")


def test_a_building_never_touches_another_city() -> None:
    sc = Scenario()
    sc.city(0, "K9", 5)
    sc.city(1, "M9", 5)
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match="an empty hex must always separate two cities"):
        g.play(0, "build farm L9")
    assert "build farm L9" not in [str(m) for m in g.legal_moves(0)]


def test_a_fountain_must_stand_next_to_a_lake() -> None:
    sc = Scenario().hex_terrain("K9", ("lake", 0), ("farmland", 1))
    sc.city(0, "K9", 5, [("farm", "L9")])
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match="must stand next to a lake"):
        g.play(0, "build fountain M9")  # a junction touches no terrain
    g.play(0, "build fountain J9")


def test_quarry_income_is_one_gold_per_adjacent_mountain() -> None:
    sc = Scenario().hex_terrain("L9", ("mountain", 0), ("mountain", 0))
    sc.city(0, "K9", 5, [("quarry", "L9")])
    sc.city(1, "D9", 5, [("quarry", "E9")])  # a junction touches no area: no gold
    gold = [p.gold for p in sc.state.players]
    start_year(sc.state, 2, Events())
    assert [p.gold for p in sc.state.players] == [gold[0] + 2, gold[1]]


def test_founding_needs_a_spare_citizen() -> None:
    sc = Scenario()
    sc.city(0, "K9", 1)
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match="none of your castles has more than 1 citizen"):
        g.play(0, "found C9")


def test_founding_keeps_three_empty_hexes_to_every_other_city() -> None:
    sc = Scenario()
    sc.city(0, "K9", 4, [("farm", "L9")])
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match="only 2 empty hexes away"):
        g.play(0, "found O9")  # L9 .. O9: M9, N9 between
    supply = g.state.supply_citizens
    events = g.play(0, "found P9")
    cities = g.view(0).players[0].cities
    assert [(c.castle, c.population) for c in cities] == [("K9", 3), ("P9", 3)]
    assert g.state.supply_citizens == supply - 2
    assert any(e.kind == "found" for e in events)


def test_a_city_is_founded_at_most_once_a_year() -> None:
    sc = Scenario()
    sc.city(0, "K9", 5)
    sc.city(1, "E5", 5)
    g = sc.turn(0).game()
    g.play(0, "found P9")
    g.play(1, "gold")
    with pytest.raises(IllegalMove, match="already founded a city this year"):
        g.play(0, "found E13")


def test_a_player_has_only_four_castles() -> None:
    sc = Scenario()
    for h in ("A9", "E9", "I9", "M9"):
        sc.city(0, h, 3)
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match="All 4 of your castles"):
        g.play(0, "found E1")


def test_no_building_without_a_token_in_the_supply(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(STACK_SIZE, "farm/quarry", 1)
    sc = Scenario()
    sc.city(0, "K9", 5, [("farm", "L9")])
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match="No quarry token is left"):
        g.play(0, "build quarry J9")


def test_taking_gold_uses_an_action_card() -> None:
    sc = Scenario()
    sc.city(0, "K9")
    g = sc.turn(0).game()
    g.play(0, "gold")
    p = g.view(0).players[0]
    assert (p.gold, p.action_cards) == (3, 2)


def test_pass_is_only_allowed_without_action_cards() -> None:
    sc = Scenario()
    sc.city(0, "K9")
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match="pass only when all are used"):
        g.play(0, "pass")
    g.state.players[0].action_cards = 0
    g2 = sc.game()
    g2.state.players[0].action_cards = 0
    pile = len(g2.state.politics_pile)
    events = g2.play(0, "pass")
    assert len(g2.state.politics_pile) == pile - 1
    assert [e.kind for e in events if e.private_to == 0] == ["draw"]


def test_each_player_plays_one_card_a_round_for_five_rounds() -> None:
    sc = Scenario(players=3)
    for seat, h in enumerate(("B9", "J9", "P9")):
        sc.city(seat, h, 3)
    g = sc.turn(0).game()
    order = []
    while g.state.phase == "politics" and g.state.year == 1:
        seat = g.pending_seats()[0]
        order.append(seat)
        move = g.default_move(seat)
        assert move is not None
        g.play(seat, move)
    assert order == [0, 1, 2] * 5


def test_start_player_moves_clockwise_each_year() -> None:
    sc = Scenario(players=3)
    for seat, h in enumerate(("B9", "J9", "P9")):
        rich(sc, h)
        sc.city(seat, h, 3)
    g = sc.turn(2, last=True).game()
    assert g.state.start_player == 0
    g.play(2, "gold")
    assert (g.state.year, g.state.start_player) == (2, 1)


def test_the_voice_shows_one_card_face_up_and_three_face_down() -> None:
    sc = Scenario()
    sc.city(0, "K9")
    view = sc.game().view(None)
    assert view.voice[0] is not None and view.voice[1:] == [None, None, None]


def test_hunger_sends_citizens_away_and_costs_the_first_turn_next_year() -> None:
    sc = Scenario().hex_terrain("K9", ("farmland", 1), ("farmland", 2))
    sc.city(0, "K9", 5)
    rich(sc, "D9")
    sc.city(1, "D9", 3)
    g = sc.turn(1, last=True).game()
    events = g.play(1, "gold")
    assert g.view(0).players[0].cities[0].population == 3 + 1  # starved to 3, then grew
    assert any(e.kind == "starve" and e.seat == 0 for e in events)
    assert g.view(0).players[0].hunger
    play_out(g, stop=lambda g: g.state.players[0].action_cards < 3 or 0 in g.pending_seats())
    p = g.view(0).players[0]
    assert (p.action_cards, p.hunger) == (2, False)


def test_hunger_in_year_6_costs_5_victory_points() -> None:
    sc = Scenario().hex_terrain("K9", ("farmland", 1), ("farmland", 2))
    sc.city(0, "K9", 5)
    rich(sc, "D9")
    sc.city(1, "D9", 3)
    g = sc.turn(1, last=True, year=6).game()
    g.play(1, "gold")
    assert g.is_over
    assert g.scores == [3 - 5, 3]
    assert g.view(None).players[0].hunger_vp == 5


def test_final_score_counts_citizens_and_3_per_city_with_all_three_services() -> None:
    sc = rich(Scenario(), "K9", "D9")
    sc.city(0, "K9", 5, [("statue", "L9"), ("hospital", "J9")])
    sc.city(1, "D9", 5, [("statue", "E9"), ("school", "C9")])
    g = sc.turn(1, last=True, year=6).game()
    assert [p.score for p in sc.game().view(None).players] == [5 + 3, 5], "the score so far"
    g.play(1, "gold")
    assert g.scores == [5 + 3, 5]
    assert g.winners == [0]
    assert [(p.city_bonus, p.score) for p in g.view(None).players] == [(3, 8), (0, 5)]


def test_a_tie_is_broken_by_gold_and_then_shared() -> None:
    sc = rich(Scenario(), "K9", "D9")
    sc.city(0, "K9", 4)
    sc.city(1, "D9", 4)
    g = sc.turn(1, last=True, year=6).game()
    g.play(1, "gold")  # seat 1 now has 3 gold to seat 0's 1
    assert g.scores == [4, 4] and g.winners == [1]
    g2 = sc.game()
    g2.state.players[0].gold = 3
    g2.play(1, "pass" if g2.state.players[1].action_cards == 0 else "gold")
    assert g2.winners == [0, 1]
