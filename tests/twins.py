"""Positions of every kind of decision, and their twins: the same game with everything one seat
cannot see changed (for the fairness tests of the computer players and of the hint).

(No tests here; imported by tests/test_ai_fairness.py and tests/test_hint.py.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from scenario import Scenario

from engine import Game
from engine.ai import choose
from engine.state import DecisionKind, GameState

KINDS: tuple[DecisionKind, ...] = ("turn", "castle", "prefer", "first", "demolish", "starve")
GAMES = ((11, 2, "beginner"), (12, 3, "experienced"), (13, 4, "beginner"), (14, 2, "experienced"))
"""Seeded games played by the ``random`` level: (seed, players, setup)."""


def twin(game: Game, seat: int, rng: random.Random) -> Game:
    """``game`` with what ``seat`` cannot see changed: the face-down voice cards it has not
    polled dealt again with the rest of the voice pile, the other seats' polls redone, the
    politics draw pile and discard shuffled together, and another seed and generator state."""
    s = GameState.model_validate(game.snapshot())
    mine = s.players[seat].peek
    if s.voice and not s.voice_revealed:
        hidden = [k for k in range(1, len(s.voice)) if mine[k] is None]
        pool = [s.voice[k] for k in hidden] + s.voice_pile
        rng.shuffle(pool)
        for k in hidden:
            s.voice[k] = pool.pop()
        s.voice_pile = pool
        for p in s.players:
            if p.seat != seat:  # another poll (or none), true to the new cards
                p.peek = [None, *(c if rng.random() < 0.5 else None for c in s.voice[1:])]
    else:
        rng.shuffle(s.voice_pile)
    politics = s.politics_pile + s.politics_discard
    rng.shuffle(politics)
    s.politics_pile, s.politics_discard = politics[: len(s.politics_pile)], politics[len(s.politics_pile) :]
    s.rng = rng.getrandbits(64)
    s.seed = rng.getrandbits(63)
    record = game.record().model_copy(update={"seed": s.seed})
    return Game.restore(s.model_dump(), record)


def _played(seed: int, players: int, setup: str) -> Iterator[tuple[Game, int, DecisionKind]]:
    """Every position of a game where a seat has a choice, with the seat and the kind asked."""
    game = Game.new([f"P{k}" for k in range(players)], seed=seed, setup=setup)  # type: ignore[arg-type]
    while not game.is_over:
        seat = game.pending_seats()[0]
        if len(game.legal_moves(seat)) > 1:
            kind = game.pending_decisions(seat)[0].kind
            yield Game.restore(game.snapshot(), game.record()), seat, kind
        game.play(seat, choose(game, seat, "random", seed=seed))


def with_polls(game: Game, seat: int, rng: random.Random) -> Game:
    """``game`` after ``seat`` polled two face-down voice cards and another seat polled (peeks
    true to the cards, as a `poll` leaves them)."""
    s = GameState.model_validate(game.snapshot())
    other = (seat + 1) % s.n_players
    for who, cards in ((seat, rng.sample([1, 2, 3], 2)), (other, rng.sample([1, 2, 3], 2))):
        for k in cards:
            s.players[who].peek[k] = s.voice[k]
    return Game.restore(s.model_dump(), game.record())


def first_position() -> tuple[Game, int]:
    """P0's two cities would both take the last citizen of P1's Pisa: P0 chooses which goes first
    (``first`` comes up rarely in play; this is the position of tests/test_relocation_order.py)."""
    sc = Scenario()
    for castle in ("K6", "N5"):
        sc.hex_terrain(castle, ("farmland", 3), ("farmland", 3))
    sc.city(0, "K6", 3, [("statue", "L7")])
    sc.city(0, "N5", 3, [("statue", "N6")])
    sc.city(1, "N9", 1)
    sc.voice("culture", "culture", "culture", "health")
    game = sc.turn(1, last=True).game()
    game.play(1, "gold")
    assert game.pending_decisions(0)[0].kind == "first"
    return game, 0


def positions(per_kind: int = 3, turns: int = 6) -> list[tuple[Game, int, DecisionKind]]:
    """A few positions of every kind of decision from `GAMES`: ``per_kind`` of each, and
    ``turns`` political turns spread over the games, in most of which the seat and another seat
    have polled."""
    rng = random.Random(5)
    found: dict[DecisionKind, list[tuple[Game, int, DecisionKind]]] = {k: [] for k in KINDS}
    for seed, players, setup in GAMES:
        for k, (game, seat, kind) in enumerate(_played(seed, players, setup)):
            if kind == "turn":
                if k % 37 == 5 and len(found["turn"]) < turns:
                    unseen = bool(game.state.voice) and not game.state.voice_revealed
                    polled = unseen and len(found["turn"]) % 3 != 0
                    found["turn"].append((with_polls(game, seat, rng) if polled else game, seat, kind))
            elif len(found[kind]) < per_kind:
                found[kind].append((game, seat, kind))
    game, seat = first_position()
    found["first"].append((game, seat, "first"))
    return [p for k in KINDS for p in found[k]]
