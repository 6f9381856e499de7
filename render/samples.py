"""Sample positions for the gallery, the tests and the benchmark, played by a seeded bot.

The bot picks random legal moves, but prefers building to taking gold and answers
demolition and hunger decisions the way the engine does for absent players, so that the
boards look like real games rather than famines.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine import Action, Game
from engine.components import YEARS
from engine.events import Event
from engine.views import View

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve"]
WEIGHT: dict[str, int] = {
    "found": 8, "build": 6, "palace": 6, "hospital": 6, "bath": 6, "cathedral": 8, "university": 8,
    "master": 5, "golden": 3, "bread": 3, "harvest": 4, "poll": 1, "gold": 2, "pass": 1,
}  # fmt: skip


@dataclass(frozen=True)
class Sample:
    """A position to draw: the view, the hexes of the last move, and a file name."""

    name: str
    view: View
    highlight: list[str]


def choose(game: Game, seat: int, rng: random.Random) -> Action:
    """The sample bot's move for ``seat``."""
    moves = game.legal_moves(seat)
    if game.pending_decisions(seat)[0].kind in ("demolish", "starve"):
        default = game.default_move(seat)
        if default is not None:
            return default
    weights = [WEIGHT.get(m.verb, 1) for m in moves]
    return rng.choices(moves, weights)[0]


def play(game: Game, rng: random.Random, until: Callable[[Game], bool]) -> list[Event]:
    """Play bot moves until ``until(game)`` or the end; the events of the last move."""
    events: list[Event] = list(game.setup_events)
    while not game.is_over and not until(game):
        seat = game.pending_seats()[0]
        events = game.play(seat, choose(game, seat, rng))
    return events


def hexes(events: list[Event], viewer: int | None = None) -> list[str]:
    """The hexes the events of one move concern (what to ring), in order, once each."""
    return list(dict.fromkeys(h for e in events if e.visible_to(viewer) for h in e.hexes))


def at(year: int, rnd: int) -> Callable[[Game], bool]:
    """A stop condition: the political round ``rnd`` of ``year`` has begun."""
    return lambda g: (g.state.year, g.state.round) >= (year, rnd) and g.state.phase == "politics"


def new_game(players: int, seed: int, setup: str = "beginner") -> Game:
    return Game.new(NAMES[:players], seed=seed, setup="experienced" if setup == "experienced" else "beginner")


def early_posts(games: int, moves: int = 4) -> list[tuple[View, list[str], int | None]]:
    """The turn posts (view, the move's hexes, the seat to act) of ``moves`` moves in each of
    ``games`` 3-player games, game after game in turn: what the benchmarks draw."""
    posts: list[list[tuple[View, list[str], int | None]]] = [[] for _ in range(moves)]
    for seed in range(games):
        game, rng = new_game(3, 1000 + seed), random.Random(seed)
        for k in range(moves):
            seat = game.pending_seats()[0]
            events = game.play(seat, choose(game, seat, rng))
            pending = game.pending_seats()
            acting = pending[0] if pending else None
            posts[k].append((game.view(acting), hexes(events), acting))
    return [post for round_ in posts for post in round_]


def late_game(players: int = 5, seed: int = 11) -> tuple[Game, list[str]]:
    """The last political decision of year 6 (the fullest board) and its last move's hexes."""
    g = new_game(players, seed)
    rng = random.Random(seed)
    events: list[Event] = []
    last: tuple[Game, list[Event]] | None = None
    while not g.is_over:
        if g.state.year == YEARS and g.state.phase == "politics":
            last = (Game.restore(g.snapshot(), g.record()), events)
        seat = g.pending_seats()[0]
        events = g.play(seat, choose(g, seat, rng))
    assert last is not None
    return last[0], hexes(last[1])


def finished_game(players: int = 5, seed: int = 11) -> tuple[Game, list[str]]:
    g = new_game(players, seed)
    ev = play(g, random.Random(seed), lambda _g: False)
    return g, hexes(ev)


def gallery() -> list[Sample]:
    """The gallery: starts for 2 and 5 players, an experienced setup, mid-game, late, final."""
    out = []
    for n in (2, 5):
        g = new_game(n, 3)
        out.append(Sample(f"beginner-{n}p-start", g.view(None), []))
    g = new_game(3, 5, "experienced")
    ev = play(g, random.Random(5), lambda g: len(g.state.cities) >= 3)
    out.append(Sample("experienced-3p-setup", g.view(None), hexes(ev)))
    g = new_game(4, 7)
    ev = play(g, random.Random(7), at(3, 3))
    seat = g.pending_seats()[0]
    out.append(Sample("midgame-4p-player-view", g.view(seat), hexes(ev, seat)))
    g = new_game(3, 9)
    ev = play(g, random.Random(9), lambda g: g.state.phase in ("demolition", "feeding", "relocation"))
    out.append(Sample("decision-3p", g.view(None), hexes(ev)))
    g, last = late_game()
    out.append(Sample("late-5p", g.view(None), last))
    g, last = finished_game()
    out.append(Sample("final-5p", g.view(None), last))
    return out
