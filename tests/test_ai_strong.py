"""The ``strong`` player's look at the year's end (issue 16, point 1): the tally played out on the
evaluation's facts agrees with the engine, gold counts as the tie-break, and the voice is weighed
by what the seat knows."""

from __future__ import annotations

import pytest
from scenario import Scenario

from engine import Action, Game
from engine.ai import choose, search
from engine.ai.evaluate import FactsCache
from engine.ai.playout import after_move, is_last_turn
from engine.ai.tally import WIN_VP, final_value, relocated, year_end, year_end_value
from engine.cities import city_at, service_points
from engine.components import SERVICES
from engine.events import Events
from engine.relocation import relocate
from engine.state import GameState


@pytest.fixture(autouse=True)
def small_search(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "MOVE_LIMIT", 0)


def year_ends(seed: int, players: int) -> list[GameState]:
    """The position at the end of every year's political rounds of a game of ``basic`` players."""
    g = Game.new([f"P{k}" for k in range(players)], seed=seed)
    out = []
    while not g.is_over:
        seat = g.pending_seats()[0]
        move = choose(g, seat, "basic", seed=seed)
        if is_last_turn(g.state) and g.pending_decisions(seat)[0].kind == "turn":
            out.append(after_move(g.snapshot(), seat, move))
        g.play(seat, move)
    return out


def test_relocation_on_the_facts_is_the_engines_relocation() -> None:
    compared = moved = 0
    for seed, players in ((1, 2), (2, 3), (3, 4)):
        for state in year_ends(seed, players):
            year = year_end(state, FactsCache())
            for k, service in enumerate(SERVICES):
                real = GameState.model_validate(state.model_dump())
                real.voice_result = [service]
                n = real.n_players
                for s in range(n):
                    relocate(real, (real.start_player + s) % n, Events())
                after = {c.id: c.population for c in real.cities}
                expected = tuple(after.get(c.id, 0) for c in state.cities)
                assert relocated(year, (k,)) == expected
                compared += 1
                moved += expected != year.pops
    assert compared >= 30 and moved >= 5


def test_in_the_last_year_gold_breaks_a_level_score() -> None:
    state = year_ends(1, 2)[-1]
    assert state.year == 6
    level = [20, 20]
    state.players[0].gold, state.players[1].gold = 3, 2
    assert final_value(state, 0, level) == WIN_VP and final_value(state, 1, level) == 0.0
    state.players[1].gold = 3
    assert final_value(state, 0, level) == WIN_VP / 2
    assert final_value(state, 0, [21, 20]) == 1 + WIN_VP


def level_end() -> Game:
    """Year 6, the last turn: both players at 6 VP, no move can add one, the other has 1 gold."""
    sc = Scenario()
    for castle in ("K6", "I13"):
        sc.hex_terrain(castle, ("farmland", 3), ("farmland", 3))
    sc.city(0, "K6", 4, [("statue", "L7"), ("market", "J6")])
    sc.city(1, "I13", 4, [("statue", "J13"), ("market", "H13")])
    sc.row("poll", "bread", "palace", "hospital", "bath", "cathedral", "university")
    sc.voice("culture", "culture", "health", "health")
    sc.turn(0, year=6, last=True)
    sc.state.players[0].founded_this_year = True
    sc.state.players[0].gold, sc.state.players[1].gold = 0, 1
    return sc.game()


def test_in_the_last_year_gold_is_worth_the_tie_break() -> None:
    data, cache = level_end().snapshot(), FactsCache()
    gold = year_end_value(after_move(data, 0, Action.parse("gold")), 0, cache)
    farm = year_end_value(after_move(data, 0, Action.parse("build farm K5")), 0, cache)
    assert gold - farm == pytest.approx(WIN_VP)


def test_the_strong_player_takes_gold_to_win_a_level_game() -> None:
    g = level_end()
    move = choose(g, 0, "strong")
    assert str(move) == "gold"
    g.play(0, move)
    while not g.is_over:
        seat = g.pending_seats()[0]
        g.play(seat, g.default_move(seat) or "pass")
    assert g.scores is not None and g.scores == [g.scores[1]] * 2 and g.winners == [0]


def facing_schools(peek: tuple[str, str]) -> Game:
    """P0's Nuoro (N9, 3 citizens, no services) between two of P1's cities with a school; the
    face-up voice card is education and P0 has polled two more."""
    sc = Scenario()
    for castle in ("K6", "N5", "N9"):
        sc.hex_terrain(castle, ("farmland", 3), ("farmland", 3))
    sc.city(1, "K6", 3, [("school", "L7")])
    sc.city(1, "N5", 3, [("statue", "N6"), ("school", "M5")])
    sc.city(0, "N9", 3)
    sc.voice("education", *peek, "health")  # type: ignore[arg-type]
    sc.turn(0, year=2, last=True)
    sc.state.players[0].peek = [None, *peek, None]  # type: ignore[list-item]
    sc.state.players[0].gold = 3
    return sc.game()


@pytest.mark.parametrize("service", ["education", "culture"])
def test_the_strong_player_defends_against_the_voice_it_knows(service: str) -> None:
    """Polled ``service`` twice: the voice is ``service`` or tied with education, and Nuoro
    would lose a citizen to each neighbour with more of it; the strong player builds it."""
    g = facing_schools((service, service))
    g.play(0, choose(g, 0, "strong"))
    nuoro = city_at(g.state, "N9")
    assert nuoro is not None and service_points(nuoro, service) >= 1  # type: ignore[arg-type]
