"""Computer players decide from their seat's view only (issue 16, point 3).

Positions of every kind of decision from seeded games (`twins.positions`) are paired with
twins that differ only in what the seat cannot see: the face-down voice cards it has not
polled (dealt again with the rest of the voice pile), the other seats' polls, the politics
draw pile and discard, the seed and the generator. Every level must make the same move in
both, for the same ``seed`` argument.
"""

from __future__ import annotations

import random

import pytest
from twins import KINDS, positions, twin

from engine import Game
from engine.ai import LEVELS, choose

POSITIONS = positions()
TWINS = {"random": 3, "basic": 3, "strong": 1}
"""Twins per position and level (``strong`` thinks for a while; the others are quick)."""


def test_the_positions_hold_every_kind_of_decision_and_polls() -> None:
    assert {kind for _, _, kind in POSITIONS} == set(KINDS)
    polled = [(g, s) for g, s, kind in POSITIONS if kind == "turn" and any(g.state.players[s].peek)]
    assert len(polled) >= 3, "the seat knows some face-down cards, another seat others"
    assert all(any(any(p.peek) for p in g.state.players if p.seat != s) for g, s in polled)


def test_a_twin_looks_the_same_to_the_seat_and_differs_in_what_it_cannot_see() -> None:
    changed = {"voice": 0, "peeks": 0, "pile": 0}
    for game, seat, _ in POSITIONS:
        other = twin(game, seat, random.Random(0))
        assert other.view(seat) == game.view(seat)
        assert other.legal_moves(seat) == game.legal_moves(seat)
        a, b = game.state, other.state
        assert (a.seed, a.rng) != (b.seed, b.rng)
        assert a.players[seat].peek == b.players[seat].peek, "what the seat polled is kept"
        changed["voice"] += a.voice != b.voice
        changed["peeks"] += [p.peek for p in a.players] != [p.peek for p in b.players]
        changed["pile"] += a.politics_pile != b.politics_pile
    assert all(n >= 3 for n in changed.values()), changed


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_decides_the_same_in_both_twins(level: str) -> None:
    for game, seat, kind in POSITIONS:
        for k in range(TWINS[level]):
            seed = 17 + k
            move = choose(game, seat, level, seed=seed)
            other = twin(game, seat, random.Random(k))
            assert choose(other, seat, level, seed=seed) == move, (
                f"{level} decides a {kind} differently when only hidden information differs"
            )


def test_the_hidden_information_really_reaches_the_game() -> None:
    """The twins are real games: what was hidden shows up when the year is tallied."""
    game, seat, _ = next((g, s, k) for g, s, k in POSITIONS if k == "turn" and any(g.state.players[s].peek))
    other = twin(game, seat, random.Random(1))
    tallied = []
    for g in (game, other):
        g = Game.restore(g.snapshot(), g.record())
        while g.state.phase == "politics":
            who = g.pending_seats()[0]
            g.play(who, g.default_move(who) or "pass")
        tallied.append(g.state.voice)
    assert tallied[0] != tallied[1]
