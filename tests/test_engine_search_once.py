"""The engine searches a position's legal moves once (issue 31): what `play` began to see whether
the next turn is a choice is finished by `legal_moves`, and a listed move is not checked again.
Neither may change a result: these compare with a game that searches afresh (`Game.restore`
keeps nothing of the search)."""

from __future__ import annotations

import random

from engine import Game


def fresh(g: Game) -> Game:
    return Game.restore(g.snapshot(), g.record())


def test_legal_moves_after_a_move_are_those_a_fresh_search_finds() -> None:
    kept = 0
    for seed in range(6):
        rng = random.Random(seed)
        g = Game.new([f"P{i}" for i in range(2 + seed % 4)], seed=seed, setup="experienced")
        while not g.is_over:
            seat = g.pending_seats()[0]
            kept += g._ahead is not None
            moves = g.legal_moves(seat)
            assert moves == fresh(g).legal_moves(seat)
            assert g.legal_moves(seat) == moves  # asked again: the same list
            g.play(seat, rng.choice(moves))
    assert kept > 100  # the kept search was finished, not a new one


def test_every_listed_move_is_one_a_fresh_check_allows() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        g = Game.new(["Ann", "Bob", "Cid"], seed=seed, setup="beginner")
        while not g.is_over:
            seat = g.pending_seats()[0]
            moves = g.legal_moves(seat)
            other = fresh(g)
            for move in rng.sample(moves, min(5, len(moves))):
                assert other.check(seat, move)[0] == move
            g.play(seat, rng.choice(moves))


def test_a_move_changed_by_hand_drops_the_kept_search() -> None:
    g = Game.new(["Ann", "Bob"], seed=7)
    seat = g.pending_seats()[0]
    g.state.players[seat].action_cards = 0
    g.state.politics_row = []
    g._changed()  # what play_without_advancing (engine.ai.playout) does after changing the state
    assert [str(m) for m in g.legal_moves(seat)] == ["pass"]


def test_a_listed_move_played_as_listed_does_what_its_text_does() -> None:
    """`Game.check` takes a listed `Action` as it is (no canonical form made, no check): every
    listed move must already be the canonical move the text of it becomes, for every kind of
    decision, both setups, 2-5 players."""
    for seed in range(8):
        rng = random.Random(seed)
        g = Game.new(
            [f"P{i}" for i in range(2 + seed % 4)], seed=seed, setup="beginner" if seed % 2 else "experienced"
        )
        while not g.is_over:
            seat = g.pending_seats()[0]
            move = rng.choice(g.legal_moves(seat))
            by_text = fresh(g)
            assert by_text.check(seat, str(move)) == g.check(seat, move)
            assert g.play(seat, move) == by_text.play(seat, str(move))
            assert g.snapshot() == by_text.snapshot()
            assert g.record() == by_text.record()
