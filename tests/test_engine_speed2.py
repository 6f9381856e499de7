"""What keeps an engine step quick must not change a result (issue 31, docs/engine.md "Speed"),
continued from tests/test_engine_speed.py: each fast path compared with the plain way."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import Game
from engine.decisions import Played
from engine.events import Events
from engine.placement import Lookahead, Table


def positions(count: int, players: int = 5) -> Iterator[Game]:
    """Every position of random games (a new game per seed, both setups)."""
    for seed in range(count):
        rng = random.Random(seed)
        g = Game.new(
            [f"P{i}" for i in range(players)], seed=seed, setup="beginner" if seed % 2 else "experienced"
        )
        while not g.is_over:
            yield g
            seat = g.pending_seats()[0]
            g.play(seat, rng.choice(g.legal_moves(seat)))


def test_the_searches_kept_are_those_of_the_decisions_still_pending(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Game._keep` keeps (by identity, through a set of ids) the searches of the decisions
    still pending, as looking for each among the pending ones by `is` does: in random games,
    the same searches, some of them dropped (their decision answered)."""
    seen = {"kept": 0, "dropped": 0}
    keep = Game._keep

    def compared(self: Game, ev: Events, kept: list[Lookahead] = []) -> None:  # noqa: B006
        searched = [*kept, *ev.asked] if isinstance(ev, Played) else list(kept)
        pending = self.state.pending
        plain = [a for a in searched if any(a.decision is d for d in pending)]
        keep(self, ev, kept)
        if searched:
            assert [id(a) for a in self._asked] == [id(a) for a in plain]
            seen["kept"] += len(plain)
            seen["dropped"] += len(searched) - len(plain)

    monkeypatch.setattr(Game, "_keep", compared)
    for g in positions(6):
        if g._asked:  # and a search of a decision no longer pending (an equal one is not it)
            stale = Lookahead(g._asked[0].decision.model_copy(), Table(g.state), [], iter(()))
            g._keep(Events(), [stale, *g._asked])
    assert seen["kept"] > 100 and seen["dropped"] > 10, seen
