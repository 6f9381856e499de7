"""Founding takes the spare citizen from the castle the player names (rules §5, `found HEX from HEX2`)."""

from __future__ import annotations

import pytest
from scenario import Scenario

from engine import Action, Game, IllegalMove, MalformedMove
from engine.describe import describe


def two_cities() -> Game:
    """P0's Firenze (K9, 3 citizens, a farm at L9) and Siena (E5, 5 citizens): Siena has more spare."""
    sc = Scenario()
    sc.city(0, "K9", 3, [("farm", "L9")])
    sc.city(0, "E5", 5)
    return sc.turn(0).game()


def populations(g: Game) -> dict[str, int]:
    return {c.castle: c.population for c in g.state.cities}


def test_the_named_castle_gives_the_spare_citizen() -> None:
    g = two_cities()
    events = g.play(0, "found P9 from L9")  # any hex of Firenze names it
    assert g.record().moves[-1] == (0, "found P9 from K9")
    assert populations(g) == {"K9": 2, "E5": 5, "P9": 3}
    assert "with a citizen from Firenze" in next(e.text for e in events if e.kind == "found")


def test_found_hex_alone_still_takes_from_the_castle_with_the_most_spare_citizens() -> None:
    g = two_cities()
    g.play(0, "found P9")
    assert g.record().moves[-1] == (0, "found P9 from E5"), "the record names the castle it took"
    assert populations(g) == {"K9": 3, "E5": 4, "P9": 3}


def test_every_castle_with_a_spare_citizen_is_offered_as_the_source() -> None:
    g = two_cities()
    founds = [str(m) for m in g.legal_moves(0) if m.verb == "found"]
    assert "found P9 from E5" in founds and "found P9 from K9" in founds
    assert all(f.split()[-1] in ("E5", "K9") for f in founds)
    assert len(founds) == 2 * len({f.split()[1] for f in founds})


def test_a_castle_without_a_spare_citizen_cannot_give_one() -> None:
    sc = Scenario()
    sc.city(0, "K9", 2, [("farm", "L9")])  # one citizen on the castle, one on the farm
    sc.city(0, "E5", 4)
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match=r"Firenze \(K9\) has 1 citizen in its castle.*from Siena \(E5\)"):
        g.play(0, "found P9 from K9")
    assert all(m.source == "E5" for m in g.legal_moves(0) if m.verb == "found")


def test_another_players_city_cannot_give_the_citizen() -> None:
    sc = Scenario()
    sc.city(0, "K9", 4)
    sc.city(1, "E5", 5)
    g = sc.turn(0).game()
    with pytest.raises(IllegalMove, match="from E5: E5 belongs to P1's city Siena"):
        g.play(0, "found P9 from E5")
    with pytest.raises(IllegalMove, match="from I13: There is no building at I13"):
        g.play(0, "found P9 from I13")


def test_found_with_a_source_is_written_with_from() -> None:
    assert str(Action.parse("FOUND p9  From  l9")) == "found P9 from L9"
    with pytest.raises(MalformedMove, match="found HEX from HEX2"):
        Action.parse("found P9 L9")


def test_the_description_names_the_city_that_gives_the_citizen() -> None:
    g = two_cities()
    assert "a citizen from Firenze (3→2)" in describe(g, 0, Action.parse("found P9 from K9"))
    assert "a citizen from Siena (5→4)" in describe(g, 0, Action.parse("found P9 from E5"))


def test_the_computer_player_weighs_the_castle_that_gives_the_citizen() -> None:
    from engine.ai.heuristic import Scorer

    g = two_cities()
    scorer = Scorer(g.state, 0)
    # Siena is at its limit of 5 and grows back next year; Firenze has room: not the same.
    assert scorer.score(Action.parse("found P9 from E5")) != scorer.score(Action.parse("found P9 from K9"))
