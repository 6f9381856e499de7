"""Which of a player's cities checks its neighbours first in relocation (rules §7, `first HEX`).

The board: P1's Pisa at N9 (one citizen) neighbours both of P0's cities, Firenze (K6, statue
L7) and Siena (N5, statue N6); Siena also neighbours N3, where P1 may have a second city,
which P0's third city (K1, statue L1) neighbours too. The voice is culture: every statue wins.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scenario import Scenario

from engine import Action, Game, IllegalMove
from engine.describe import describe
from engine.state import GameState

FIRENZE, SIENA, THIRD = ("K6", "L7"), ("N5", "N6"), ("K1", "L1")
PISA, LUCCA = "N9", "N3"
FIXTURE = Path(__file__).parent / "fixtures" / "records_before_first.json"


def two_take_the_last(
    firenze_pop: int = 3, siena_pop: int = 3, pisa_pop: int = 1, lucca: bool = False, third: bool = False
) -> Game:
    """The year's last turn is P1's; P0 relocates first."""
    sc = Scenario()
    for castle, _ in (FIRENZE, SIENA, THIRD):
        sc.hex_terrain(castle, ("farmland", 3), ("farmland", 3))
    sc.city(0, FIRENZE[0], firenze_pop, [("statue", FIRENZE[1])])
    sc.city(0, SIENA[0], siena_pop, [("statue", SIENA[1])])
    sc.city(1, PISA, pisa_pop)
    if third:
        sc.city(0, THIRD[0], 3, [("statue", THIRD[1])])
    if lucca:
        sc.city(1, LUCCA, 1)
    sc.voice("culture", "culture", "culture", "health")
    return sc.turn(1, last=True).game()


def populations(g: Game) -> dict[str, int]:
    return {c.castle: c.population for c in g.state.cities}


def test_two_cities_that_would_take_the_same_last_citizen_ask_which_goes_first() -> None:
    g = two_take_the_last()
    g.play(1, "gold")
    assert [(d.seat, d.kind, d.cities) for d in g.state.pending] == [(0, "first", ["K6", "N5"])]
    assert [str(m) for m in g.legal_moves(0)] == ["first N5", "first K6"]  # board order
    assert "Waiting for P0 to choose which city takes first in relocation: Firenze (K6) or Siena (N5)" in (
        g.waiting_for()
    )


def test_the_city_chosen_first_takes_the_last_citizen_and_the_other_gets_nothing() -> None:
    g = two_take_the_last()
    g.play(1, "gold")
    events = g.play(0, "first N6")  # any hex of Siena names it; the record keeps its castle
    assert g.record().moves[-1] == (0, "first N5")
    moved = [(e.data["from"], e.data["to"]) for e in events if e.kind == "relocate"]
    assert moved == [(PISA, "N5")]
    assert any(e.kind == "city_lost" and e.hexes[0] == PISA for e in events)
    assert populations(g) == {"K6": 3 + 1, "N5": 3 + 1 + 1}  # then both grew in year 2


def test_founding_order_would_have_given_the_citizen_to_the_earliest_city() -> None:
    g = two_take_the_last()
    g.play(1, "gold")
    g.play(0, "first K6")
    assert populations(g) == {"K6": 3 + 1 + 1, "N5": 3 + 1}


def test_no_question_when_the_opposing_city_has_a_citizen_for_each() -> None:
    g = two_take_the_last(pisa_pop=2)
    events = g.play(1, "gold")
    assert all(d.kind != "first" for d in g.state.pending)
    assert sorted((e.data["from"], e.data["to"]) for e in events if e.kind == "relocate") == [
        (PISA, "K6"),
        (PISA, "N5"),
    ]


def test_no_question_when_both_cities_are_full_and_the_citizen_goes_to_the_supply_either_way() -> None:
    g = two_take_the_last(firenze_pop=5, siena_pop=5)
    events = g.play(1, "gold")
    assert all(d.kind != "first" for d in g.state.pending)
    assert [e.data["to_supply"] for e in events if e.kind == "relocate"] == [True]


def test_by_default_the_city_that_is_not_full_goes_first_then_the_earliest() -> None:
    g = two_take_the_last(firenze_pop=5)
    g.play(1, "gold")
    assert g.default_move(0) == Action.parse("first N5"), "Firenze is full: Siena keeps the citizen"
    g = two_take_the_last()
    g.play(1, "gold")
    assert g.default_move(0) == Action.parse("first K6"), "both have room: the earliest founded"


def test_a_city_that_does_not_compete_is_refused_with_the_choices() -> None:
    g = two_take_the_last()
    g.play(1, "gold")
    with pytest.raises(IllegalMove, match=r"does not compete.*Firenze \(K6\) or Siena \(N5\)"):
        g.play(0, "first N9")
    with pytest.raises(IllegalMove, match="At I9 stands no building"):
        g.play(0, "first I9")


def test_after_the_first_city_checks_the_others_are_asked_again_only_if_they_still_compete() -> None:
    # Firenze and Siena compete for Pisa; Siena and the third city for Lucca.
    g = two_take_the_last(lucca=True, third=True)
    g.play(1, "gold")
    assert g.state.pending[0].cities == ["K6", "N5", "K1"]
    g.play(0, "first K6")  # Firenze takes Pisa's citizen; Siena and the third still compete for Lucca
    assert [(d.kind, d.cities) for d in g.state.pending] == [("first", ["N5", "K1"])]
    restored = Game.restore(g.snapshot(), g.record())  # a stored game keeps who has checked
    events = restored.play(0, "first K1")
    assert [(e.data["from"], e.data["to"]) for e in events if e.kind == "relocate"] == [(LUCCA, "K1")]
    g.play(0, "first K1")
    assert restored.state == g.state


def test_siena_first_takes_both_last_citizens_and_nothing_more_is_asked() -> None:
    g = two_take_the_last(lucca=True, third=True)
    g.play(1, "gold")
    events = g.play(0, "first N5")
    assert sorted(e.data["from"] for e in events if e.kind == "relocate") == [LUCCA, PISA]
    assert all(d.kind != "first" for d in g.state.pending)


def test_the_description_says_what_the_first_city_takes() -> None:
    g = two_take_the_last(firenze_pop=5)
    g.play(1, "gold")
    assert describe(g, 0, Action.parse("first K6")) == (
        "first K6 — Firenze first: takes from P1's Pisa (last); full, to the supply"
    )
    assert describe(g, 0, Action.parse("first N5")) == "first N5 — Siena first: takes from P1's Pisa (last)"


def test_a_citizen_sent_to_the_supply_is_not_said_to_have_left_for_the_full_city() -> None:
    g = two_take_the_last(firenze_pop=5, siena_pop=5)
    texts = [e.text for e in g.play(1, "gold") if e.kind in ("relocate", "city_lost")]
    assert texts == [
        "Culture: a citizen of P1's Pisa leaves for the supply (P0's Firenze is full).",
        "P1's Pisa has no citizen left and is lost (its last citizen left for the supply).",
    ]


def test_a_relocated_citizen_names_the_owner_of_the_city_it_moves_to() -> None:
    g = two_take_the_last(pisa_pop=2)
    texts = [e.text for e in g.play(1, "gold") if e.kind == "relocate"]
    assert "Culture: a citizen of P1's Pisa moves to P0's Firenze." in texts


@pytest.mark.parametrize("level", ["random", "basic", "strong"])
def test_every_computer_level_answers_which_city_goes_first(level: str) -> None:
    from engine.ai import choose

    g = two_take_the_last(firenze_pop=5)
    g.play(1, "gold")
    move = choose(g, 0, level, seed=1)
    assert move in g.legal_moves(0)
    if level != "random":
        assert move == Action.parse("first N5"), "the citizen is worth more in the city with room"


# --- records made before the question was asked ------------------------------------------


def fixture_games() -> list[dict]:  # type: ignore[type-arg]
    games: list[dict] = json.loads(FIXTURE.read_text())["games"]  # type: ignore[type-arg]
    return games


@pytest.mark.parametrize("k", [0, 1], ids=["whole-game", "ends-before-a-contested-relocation"])
def test_a_record_from_before_first_replays_to_the_state_it_had(k: int) -> None:
    game = fixture_games()[k]
    g = Game.replay(game["record"])
    assert g.state == GameState.model_validate(game["final"])
    assert g.record().moves == Game.replay(game["record"]).record().moves


@pytest.mark.parametrize("k", [0, 1], ids=["whole-game", "ends-before-a-contested-relocation"])
def test_the_old_records_do_reach_a_contested_relocation(k: int) -> None:
    # Replayed as a record of today's engine, the question is asked and the record has no answer.
    record = {**fixture_games()[k]["record"], "legacy_moves": 0}
    try:
        g = Game.replay(record)
    except IllegalMove as e:
        assert "takes first in relocation" in str(e)
    else:
        assert [d.kind for d in g.state.pending] == ["first"]


def test_a_restored_old_game_that_moves_on_keeps_its_old_moves_replayable() -> None:
    old = fixture_games()[1]
    g = Game.replay(old["record"])
    assert g.record().legacy_moves is None
    seat = g.pending_seats()[0]
    g.play(seat, g.default_move(seat))  # type: ignore[arg-type]
    assert g.record().legacy_moves == len(old["record"]["moves"])
    assert Game.replay(g.record()).state == g.state


def test_a_new_game_records_that_none_of_its_moves_are_from_before_first() -> None:
    g = Game.new(["Ann", "Bob"], seed=7)
    assert g.record().legacy_moves == 0


def test_a_game_whose_record_answers_first_replays_to_the_same_state() -> None:
    from engine.ai import choose

    g = Game.new(["P0", "P1", "P2"], seed=1, setup="beginner")
    while not g.is_over:
        seat = g.pending_seats()[0]
        g.play(seat, choose(g, seat, "basic", seed=1))
    assert any(text.startswith("first ") for _, text in g.record().moves)
    assert Game.replay(g.record()).state == g.state
    exported = g.record().model_dump(mode="json")
    del exported["legacy_moves"]  # an export that leaves the new field out still replays
    assert Game.replay(exported).state == g.state


def test_an_absent_player_skipped_at_the_deadline_gets_the_rules_default() -> None:
    from bot.service.computer import decide
    from bot.storage.rows import GameSettings, SeatRow

    g = two_take_the_last(firenze_pop=5)
    g.play(1, "gold")
    away = SeatRow(seat=0, user_id=1, name="P0", away=True)
    move, how = decide(g, away, GameSettings(policy="skip"), seed=1)
    assert (str(move), how) == ("first N5", "default"), "the city that is not full goes first"
