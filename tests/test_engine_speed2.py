"""What keeps an engine step quick must not change a result (issue 31, docs/engine.md "Speed"),
continued from tests/test_engine_speed.py: each fast path compared with the plain way."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import Game, flow, relocation
from engine.board import BOARD
from engine.cities import occupancy
from engine.decisions import Played
from engine.events import Events
from engine.placement import Lookahead, Table, site_idx
from engine.state import City, GameState


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


def test_the_cities_of_every_seat_found_in_one_pass_are_those_of_each_seat() -> None:
    """`engine.flow.by_seat` (a year's start and its demolitions find every seat's cities in one
    pass) and `engine.relocation.unchecked` (one pass, not `cities_of` then a filter) find the
    very cities, in the same order, as `GameState.cities_of` and a filter of it, in every
    position of random games."""
    seen = {"cities": 0, "relocated": 0}
    for players in (2, 5):
        for g in positions(3, players):
            state = g.state
            mine = flow.by_seat(state)
            assert len(mine) == players
            for seat in range(players):
                plain = state.cities_of(seat)
                assert [id(c) for c in mine[seat]] == [id(c) for c in plain]
                for relocated in ([], [c.id for c in plain[::2]]):  # (some having checked)
                    state.relocated, before = relocated, state.relocated
                    assert [id(c) for c in relocation.unchecked(state, seat)] == [
                        id(c) for c in plain if c.id not in relocated
                    ]
                    state.relocated = before
                    seen["relocated"] += len(relocated)
                seen["cities"] += len(plain)
    assert seen["cities"] > 1000 and seen["relocated"] > 500, seen


def plain_sites(state: GameState, city: City) -> list[int]:
    """A city's building sites the plain way: the playable empty hexes next to one of its hexes
    that no other city's hex touches, in board order."""
    occ, playable = occupancy(state), BOARD.playable_idx(len(state.players))
    hexes = [city.castle, *(b.hex for b in city.buildings)]
    around = {n for h in hexes for n in BOARD.neighbour_idx[BOARD.index[h]]}
    return sorted(
        n
        for n in around
        if n not in occ and n in playable and all(occ.get(m, city) is city for m in BOARD.neighbour_idx[n])
    )


def test_the_building_sites_found_by_bit_masks_are_those_found_hex_by_hex() -> None:
    """`site_idx` (bit masks of the occupied and the free hexes, `Table.taken`, `Table.free`)
    finds, for every city at every position of random games of 2-5 players, the sites a walk
    over the neighbours finds, in board order; and a turn's lookups carried to the next turn
    (`engine.turn_play.carry`) keep the masks those of the position."""
    checked = 0
    for players in (2, 3, 4, 5):
        for g in positions(2, players):
            t = Table(g.state)
            assert t.taken == sum(1 << i for i in occupancy(g.state))
            for city in g.state.cities:
                assert site_idx(t, city) == plain_sites(g.state, city)
                checked += 1
            kept = g._table  # (a turn's lookups kept for the next `legal_moves`)
            if kept is not None:
                for k in ("taken", "free"):
                    if k in kept.__dict__:
                        assert kept.__dict__[k] == getattr(t, k), k
    assert checked > 5000
