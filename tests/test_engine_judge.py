"""Why, at each move (issue 33, point 2): the strong player's judgement of a move made, from the
mover's view only, its values measured on the same samples; a whole game judged move by move,
and its decisive moments."""

from __future__ import annotations

import random
from functools import cache

import pytest
from scenario import Scenario
from test_ai_strong import level_end
from twins import positions, twin

from engine import Action, Game, Record
from engine.ai import choose, search
from engine.ai.judge import Judgement, decisive, judge, judge_game
from engine.ai.tally import WIN_VP
from engine.errors import IllegalMove
from engine.state import GameState


@pytest.fixture
def small_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The strong player's smallest budget (2 candidates, 1 sample) keeps tests fast."""
    monkeypatch.setattr(search, "MOVE_LIMIT", 0)


def facing_schools() -> Game:
    """Year 2, P0's last turn: its Nuoro (N9, 3 citizens, no service) between two of P1's cities
    with a school, and P0 knows the voice asks for education (face up and polled twice)."""
    sc = Scenario()
    for castle in ("K6", "N5", "N9"):
        sc.hex_terrain(castle, ("farmland", 3), ("farmland", 3))
    sc.city(1, "K6", 3, [("school", "L7")])
    sc.city(1, "N5", 3, [("statue", "N6"), ("school", "M5")])
    sc.city(0, "N9", 3)
    sc.voice("education", "education", "education", "health")
    sc.turn(0, year=2, last=True)
    sc.state.players[0].peek = [None, "education", "education", None]
    sc.state.players[0].gold = 3
    return sc.game()


@cache
def basic_game(players: int, seed: int, moves: int) -> Game:
    """A game of ``basic`` players, ``moves`` moves in (or over); kept (not to be changed)."""
    g = Game.new([f"P{k}" for k in range(players)], seed=seed)
    while not g.is_over and len(g.record().moves) < moves:
        seat = g.pending_seats()[0]
        g.play(seat, choose(g, seat, "basic", seed=seed))
    return g


def turns(g: Game, every: int) -> list[tuple[Game, int]]:
    """Copies of the political turns with a choice of ``g``'s record, every ``every``-th."""
    out = []
    for k, (game, _events) in enumerate(Game.walk(g.record())):
        if k == len(g.record().moves):
            break
        seat = g.record().moves[k][0]
        if k % every == 0 and game.state.phase == "politics" and len(game.legal_moves(seat)) > 1:
            out.append((Game.restore(game.snapshot(), game.record()), seat))
    return out


def test_a_move_that_gives_away_the_win_differs_by_the_win(small_search: None) -> None:
    j = judge(level_end(), 0, "build farm K5", seed=3)
    assert j is not None and str(j.best) == "gold" and str(j.played) == "build farm K5"
    assert j.difference == pytest.approx(WIN_VP)
    assert j.why.startswith("you have 0 gold")


def test_a_move_that_leaves_a_city_undefended_gets_a_positive_difference() -> None:
    g = facing_schools()
    j = judge(g, 0, "gold", seed=1)
    assert j is not None and j.best == choose(g, 0, "strong", seed=1)
    assert j.best.verb != "gold" and j.difference is not None and j.difference >= 1.0
    assert j.best_value is not None and j.played_value is not None and j.samples >= 1


def test_the_strong_move_itself_has_difference_zero(small_search: None) -> None:
    checked = 0
    for g, seat in turns(basic_game(3, 4, 40), every=9)[:3]:
        best = choose(g, seat, "strong", seed=4)
        j = judge(g, seat, best, seed=4)
        assert j is not None and j.agrees and j.best == best
        assert j.difference == 0.0 and j.best_value is not None
        checked += 1
    assert checked == 3


def test_the_same_seed_gives_the_same_judgement(small_search: None) -> None:
    g = basic_game(3, 4, 40)
    for game, seat in turns(g, every=11)[:3]:
        played = game.legal_moves(seat)[-1]
        again = Game.replay(game.record())
        first = judge(game, seat, played, seed=5)
        assert first is not None and not first.agrees
        assert first == judge(again, seat, played, seed=5) == judge(game, seat, str(played), seed=5)


def test_the_judgement_sees_only_the_movers_view(small_search: None) -> None:
    """Twins that agree on the mover's view, but not on the face-down voice cards, the other
    seats' polls, the politics pile or the generator, give the same judgement."""
    checked = {"turn": 0, "other": 0}
    for k, (game, seat, kind) in enumerate(positions(per_kind=1, turns=4)):
        played = game.legal_moves(seat)[k % len(game.legal_moves(seat))]
        other = twin(game, seat, random.Random(k))
        assert other.state.voice != game.state.voice or other.state.politics_pile != game.state.politics_pile
        j = judge(game, seat, played, seed=11)
        assert j == judge(other, seat, played, seed=11), f"a {kind} judged by hidden cards"
        checked["turn" if kind == "turn" else "other"] += 1
    assert checked["turn"] >= 4 and checked["other"] >= 5


def test_decisions_left_to_the_basic_player_are_named_without_a_difference() -> None:
    for game, seat, kind in positions(per_kind=1, turns=0):
        j = judge(game, seat, game.legal_moves(seat)[0], seed=2)
        assert j is not None and j.best in game.legal_moves(seat), kind
        assert j.difference is None and j.best_value is None and j.samples == 0, kind


def test_a_lone_move_is_not_judged_and_bad_requests_are_refused() -> None:
    g = basic_game(2, 3, 0)
    seat = g.pending_seats()[0]
    with pytest.raises(ValueError, match="nothing to decide"):
        judge(g, 1 - seat, "gold", seed=0)
    with pytest.raises(IllegalMove):
        judge(g, seat, "build farm A1", seed=0)
    end = level_end()
    state = GameState.model_validate(end.snapshot())
    state.players[0].action_cards = 0
    state.politics_row = []
    lone = Game.restore(state.model_dump(), end.record())
    assert [str(a) for a in lone.legal_moves(0)] == ["pass"]
    assert judge(lone, 0, "pass", seed=0) is None


def test_a_whole_game_is_judged_move_by_move(small_search: None) -> None:
    record = basic_game(2, 7, 14).record()
    judged = judge_game(record.model_dump(mode="json"), seed=1, samples=1)
    assert len(judged) == len(record.moves) == 14
    for k, (game, _events) in enumerate(Game.walk(record)):
        if k == len(record.moves):
            break
        seat, text = record.moves[k]
        lone = len(game.legal_moves(seat)) == 1
        assert (judged[k] is None) == lone, f"move {k}"
        if k in (3, 11) and not lone:
            assert judged[k] == judge(game, seat, text, seed=1, samples=1)
    assert judge_game(Record.model_validate({**record.model_dump(), "moves": []}), seed=1) == []


def _judged(difference: float | None) -> Judgement:
    value = None if difference is None else 1.0
    played = None if difference is None else 1.0 - difference
    return Judgement(0, Action("gold"), Action("pass"), value, played, 1, "")


def test_the_decisive_moments_are_the_largest_differences_first() -> None:
    judged: list[Judgement | None] = [_judged(d) for d in (0.2, 3.0, None, 7.5, 0.0, 3.0, -2.0, 0.6, 1.0)]
    judged.insert(4, None)
    assert decisive(judged) == [3, 1, 6, 9, 8]
    assert decisive(judged, count=2) == [3, 1]
    assert decisive(judged, least=5.0) == [3]
    assert decisive([None, _judged(0.1)]) == []
