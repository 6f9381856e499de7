"""Random self-play: whole games over many seeds, checking invariants after every move."""

from __future__ import annotations

import random

import pytest
from scenario import check_invariants

from engine import Game
from engine.cities import population_limit


def random_game(n: int, seed: int, setup: str, *, every_move: bool = True) -> Game:
    """Play a whole game of random legal moves, checking invariants after every move."""
    rng = random.Random(seed)
    g = Game.new([f"P{i}" for i in range(n)], seed=seed, setup=setup)  # type: ignore[arg-type]
    polled: dict[int, set[int]] = {i: set() for i in range(n)}
    step = 0
    while not g.is_over:
        seat = g.pending_seats()[0]
        year = g.state.year
        move = rng.choice(g.legal_moves(seat))
        before = {c.id: c.population for c in g.state.cities}
        events = g.play(seat, move)
        step += 1
        for c in g.state.cities:
            if c.population > before.get(c.id, 0) and c.id in before:
                assert c.population <= population_limit(c), f"{c.name} gained beyond its limit"
        if g.state.year != year or g.is_over:
            polled = {i: set() for i in range(n)}
        elif move.verb == "poll":
            polled[seat] |= set(move.cards)
        if not every_move:
            continue
        check_invariants(g)
        viewer = step % (n + 1) if step % (n + 1) < n else None  # each seat and the spectator in turn
        view = g.view(viewer)
        shown = {k for k in (1, 2, 3) if view.peek[k] is not None}
        assert shown == (polled[viewer] if viewer is not None else set()), "only one's own polled cards"
        if g.state.voice and not g.state.voice_revealed:
            assert view.voice[1:] == [None, None, None], "face-down voice cards stay hidden"
        for e in events:
            assert e.private_to in (None, e.seat), "a private event is its own seat's only"
    assert g.scores is not None and g.winners
    return g


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("setup", ["beginner", "experienced"])
def test_hundreds_of_random_games_keep_every_invariant_after_every_move(n: int, setup: str) -> None:
    for seed in range(25):
        g = random_game(n, 1000 * n + seed, setup)
        if seed % 5 == 0:
            replayed = Game.replay(g.record())
            assert replayed.state == g.state, "replay equals state"
            assert replayed.view(None) == g.view(None)


def test_random_play_uses_every_kind_of_move() -> None:
    verbs: set[str] = set()
    for seed in range(40):
        g = random_game(2 + seed % 4, seed, "experienced", every_move=False)
        verbs |= {text.split()[0] for _, text in g.record().moves}
    assert verbs >= {
        "castle", "gold", "found", "build", "palace", "hospital", "bath", "cathedral",
        "university", "master", "golden", "bread", "harvest", "poll", "pass", "demolish", "starve",
    }  # fmt: skip


def test_the_same_seed_and_moves_give_the_same_game() -> None:
    a = random_game(4, 77, "experienced", every_move=False)
    b = random_game(4, 77, "experienced", every_move=False)
    assert a.record() == b.record()
    assert a.state == b.state
