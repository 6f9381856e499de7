"""The rulebooks' worked examples, played through the engine."""

from __future__ import annotations

from scenario import Scenario


def test_example_development_of_a_city() -> None:
    # English rulebook, "example: development of a city": a castle next to 3 + 1 wheat, a farm
    # on the same fields, a quarry by a mountain, a market, a public bath for 1 gold by a
    # lake, and a pass in round 5 (no citizen, no action card, no gold).
    sc = Scenario()
    sc.terrain("0,-1,D", "farmland", 3).terrain("0,0,U", "farmland", 1)
    sc.terrain("1,-1,U", "mountain").terrain("0,0,D", "lake")
    sc.city(0, "K9", 4)  # 3 citizens + growth in phase 4
    sc.hex_terrain("F13", ("farmland", 3), ("farmland", 3))
    sc.city(1, "F13", 3)
    costly = ["palace", "hospital", "bath", "cathedral", "university", "master", "palace"]
    sc.state.politics_row = costly
    sc.state.politics_pile = ["cathedral", "university", "palace", "hospital"] * 4
    g = sc.turn(0).game()
    assert g.view(0).players[0].food == 4

    g.play(0, "build farm L9")
    assert g.view(0).players[0].food == 8
    g.play(1, "gold")
    g.play(0, "build quarry L8")
    g.play(1, "gold")
    g.play(0, "build market J9")
    city = g.view(0).players[0].cities[0]
    assert (city.population, city.castle_citizens, city.limit) == (5, 2, 8)
    g.play(1, "gold")
    g.play(0, "bath L10")
    city = g.view(0).players[0].cities[0]
    assert (city.limit, city.health, g.view(0).players[0].gold) == (None, 2, 0)
    move = g.default_move(1)
    assert move is not None
    events = g.play(1, move)
    auto_pass = [e for e in events if e.kind == "pass" and e.seat == 0]
    assert auto_pass and "only possible move" in auto_pass[0].text

    # "The rest of this year is uneventful ... in phase 3 of the next game year, you earn
    # 1 gold coin for your quarry and in phase 4, you add one citizen figure to your castle."
    while g.state.year == 1:
        seat = g.pending_seats()[0]
        move = g.default_move(seat)
        assert move is not None
        g.play(seat, move)
    me = g.view(0).players[0]
    assert me.gold == 1
    assert me.cities[0].population == 6
