"""Computer players: always legal, blind to hidden cards, deterministic, and basic beats random."""

from __future__ import annotations

import random

import pytest
from scenario import Scenario

from engine import Game
from engine.ai import LEVELS, choose, search
from engine.components import SERVICES
from engine.game import Record
from engine.state import GameState

KINDS = {"castle", "turn", "prefer", "demolish", "starve"}
"""Decision kinds these games reach; `first` is rare in random play and has its own scenario
(tests/test_relocation_order.py)."""


@pytest.fixture(autouse=True)
def small_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The strong level with the smallest budget (2 candidates, 1 sample) keeps tests fast."""
    monkeypatch.setattr(search, "MOVE_LIMIT", 0)


def play_game(levels: list[str], seed: int, setup: str = "beginner") -> Game:
    g = Game.new([f"P{i}" for i in range(len(levels))], seed=seed, setup=setup)  # type: ignore[arg-type]
    while not g.is_over:
        seat = g.pending_seats()[0]
        g.play(seat, choose(g, seat, levels[seat], seed=seed))
    return g


@pytest.mark.parametrize("level", ["random", "basic"])
def test_every_level_answers_every_decision_kind_with_a_legal_move(level: str) -> None:
    seen: set[str] = set()
    for seed in range(6):
        n = 2 + seed % 4
        g = Game.new([f"P{i}" for i in range(n)], seed=seed, setup="experienced" if seed % 2 else "beginner")
        rng = random.Random(seed)
        step = 0
        while not g.is_over:
            seat = g.pending_seats()[0]
            kinds = {d.kind for d in g.pending_decisions(seat)}
            legal = g.legal_moves(seat)
            move = rng.choice(legal)
            if kinds != {"turn"} or step % 3 == 0:
                move = choose(g, seat, level, seed=seed)
                assert move in legal
                seen |= kinds
            # Random moves elsewhere reach positions (hunger, ties) a good player avoids.
            g.play(seat, move)
            step += 1
    assert seen >= KINDS


def test_the_strong_level_answers_with_legal_moves_in_every_phase() -> None:
    for seed, n in ((1, 2), (3, 5)):
        g = Game.new([f"P{i}" for i in range(n)], seed=seed, setup="experienced")
        rng = random.Random(seed)
        step = 0
        while not g.is_over:
            seat = g.pending_seats()[0]
            legal = g.legal_moves(seat)
            kind = g.pending_decisions(seat)[0].kind
            if kind != "turn" or step % 25 == 0:
                assert choose(g, seat, "strong", seed=seed) in legal
            g.play(seat, rng.choice(legal))
            step += 1


def test_unknown_levels_and_seats_without_a_decision_are_refused() -> None:
    g = Game.new(["A", "B"], seed=1)
    seat = g.pending_seats()[0]
    with pytest.raises(ValueError, match="level"):
        choose(g, seat, "grandmaster")
    with pytest.raises(ValueError, match="nothing to decide"):
        choose(g, 1 - seat, "basic")
    assert LEVELS == ("random", "basic", "strong")


def with_other_secrets(g: Game, seat: int, seed: int) -> Game:
    """The same game for ``seat``'s eyes: other face-down cards, pile order, generator, peeks."""
    state = GameState.model_validate(g.snapshot())
    rng = random.Random(seed)
    hidden = [k for k in range(1, len(state.voice)) if state.players[seat].peek[k] is None]
    for k in hidden:
        state.voice[k] = rng.choice(SERVICES)  # any other cards
    rng.shuffle(state.politics_pile)
    rng.shuffle(state.voice_pile)
    state.rng = rng.getrandbits(64)
    for p in state.players:
        if p.seat != seat:
            p.peek = [None, *(rng.choice(["culture", "health", None]) for _ in range(3))]  # type: ignore[list-item]
    other = Game(state, Record.model_validate(g.record()), [])
    assert other.view(seat) == g.view(seat)
    return other


@pytest.mark.parametrize(("level", "every"), [("random", 3), ("basic", 4), ("strong", 31)])
def test_choices_do_not_depend_on_hidden_information(level: str, every: int) -> None:
    checked = 0
    for seed in range(3):
        g = Game.new([f"P{i}" for i in range(2 + seed)], seed=seed)
        rng = random.Random(seed)
        step = 0
        while not g.is_over:
            seat = g.pending_seats()[0]
            legal = g.legal_moves(seat)
            if g.state.phase == "politics" and step % every == 0:
                twin = with_other_secrets(g, seat, seed * 100 + step)
                assert choose(twin, seat, level, seed=seed) == choose(g, seat, level, seed=seed)
                checked += 1
            g.play(seat, rng.choice(legal))
            step += 1
    assert checked >= 4


@pytest.mark.parametrize(("level", "positions"), [("random", 20), ("basic", 20), ("strong", 4)])
def test_the_same_seed_gives_the_same_move(level: str, positions: int) -> None:
    g = Game.new(["A", "B", "C"], seed=4)
    rng = random.Random(4)
    for _ in range(positions):
        seat = g.pending_seats()[0]
        again = Game.replay(g.record())
        assert choose(g, seat, level, seed=9) == choose(again, seat, level, seed=9)
        for _ in range(3):
            seat = g.pending_seats()[0]
            g.play(seat, rng.choice(g.legal_moves(seat)))


def test_basic_beats_random_in_two_player_games() -> None:
    wins = 0
    for seed in range(10):
        levels = ["basic", "random"] if seed % 2 == 0 else ["random", "basic"]
        g = play_game(levels, seed, "beginner" if seed % 4 < 2 else "experienced")
        wins += levels.index("basic") in (g.winners or [])
    assert wins >= 9


def test_basic_feeds_its_people_before_taking_gold() -> None:
    sc = Scenario()  # F6 yields 2 food, F5, G6 and F7 would yield 2 more each
    sc.city(0, "F6", population=4)
    sc.city(1, "I13", population=2)
    sc.turn(0, round=1, year=6)
    g = sc.game()
    move = choose(g, 0, "basic")
    g.play(0, move)
    me = g.view(0).players[0]
    assert me.food >= me.citizens, move


def test_basic_builds_a_market_when_its_city_is_at_the_limit() -> None:
    sc = Scenario()  # J6 and the farm at J7 yield 8 food: growth, not food, is what is short
    sc.city(0, "J6", population=5, buildings=[("farm", "J7")])
    sc.city(1, "I13", population=2)
    sc.turn(0, round=1, year=2)
    sc.state.players[0].founded_this_year = True  # founding a city would come first
    assert str(choose(sc.game(), 0, "basic")).startswith("build market")
