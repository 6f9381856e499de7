"""What a legal move wastes (`Game.wastes`, rules §5.5): Golden Times pays for citizens that do
not fit under the city's population limit or are not left in the supply."""

from __future__ import annotations

import random

import pytest
from scenario import Scenario

import i18n
from engine import Game, IllegalMove
from engine.words import ENGLISH, tell


def golden_times(population: int, buildings: list[tuple[str, str]] = (), supply: int | None = None) -> Game:  # type: ignore[assignment]
    """P0 may play Golden Times on their city at K9 (with ``buildings``), with 5 gold."""
    sc = Scenario()
    sc.city(0, "K9", population, buildings)
    sc.city(1, "E5", 3)
    sc.row("golden")
    sc.state.players[0].gold = 5
    if supply is not None:
        sc.state.supply_citizens = supply
    return sc.turn(0).game()


def told(g: Game, move: str) -> str | None:
    phrase = g.wastes(0, move)
    return None if phrase is None else tell(ENGLISH, phrase)


def test_golden_times_beyond_the_population_limit_wastes_the_citizens_that_do_not_fit() -> None:
    g = golden_times(3)
    city = g.state.cities[0].name
    assert told(g, "golden 3 K9") == f"Only 2 of the 3 citizens fit in {city} (its limit), but you pay for 3."
    assert told(g, "golden 2 K9") is None
    events = g.play(0, "golden 3 K9")
    assert "(1 did not fit)" in events[0].text, "what was said is what happens"


def test_golden_times_beyond_the_supply_wastes_the_citizens_that_are_not_left() -> None:
    g = golden_times(4, [("market", "L9"), ("fountain", "J9")], supply=2)
    city = g.state.cities[0].name
    expected = f"Only 2 of the 3 citizens can come to {city} (the supply has no more), but you pay for 3."
    assert told(g, "golden 3 K9") == expected


def test_a_city_may_be_named_by_any_of_its_hexes() -> None:
    g = golden_times(4, [("farm", "L9")])
    assert told(g, "golden 2 L9") == told(g, "golden 2 K9") is not None


def test_moves_of_other_kinds_waste_nothing() -> None:
    g = golden_times(4)
    assert [told(g, m) for m in ("gold", "golden 1 K9")] == [None, None]


def test_an_illegal_move_is_refused_as_check_refuses_it() -> None:
    g = golden_times(5)
    with pytest.raises(IllegalMove, match="population limit"):
        g.wastes(0, "golden 1 K9")
    with pytest.raises(IllegalMove, match="not your turn"):
        g.wastes(1, "gold")


def test_in_random_games_a_move_wastes_something_exactly_when_citizens_it_pays_for_do_not_come() -> None:
    wasted = 0
    for seed in range(4):
        rng = random.Random(seed)
        g = Game.new(["P0", "P1"], seed=seed)
        while not g.is_over:
            seat = g.pending_seats()[0]
            g.state.players[seat].gold = max(g.state.players[seat].gold, 5)  # Golden Times 3 is affordable
            moves = g.legal_moves(seat)
            for move in moves:
                phrase = g.wastes(seat, move)
                if move.verb != "golden":
                    assert phrase is None, move
                    continue
                trial = Game.restore(g.snapshot(), g.record())
                lost = trial.play(seat, move)[0].values.get("lost", 0)
                assert (phrase is not None) == (lost > 0), move
                wasted += phrase is not None
            g.play(seat, rng.choice(moves))
    assert wasted, "some Golden Times were wasteful"


def test_the_waste_is_told_in_the_readers_language() -> None:
    phrase = golden_times(4).wastes(0, "golden 3 K9")
    assert phrase is not None
    assert "Bürger" in tell(i18n.lang("de"), phrase)
