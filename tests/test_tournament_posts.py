"""A tournament's posts (`bot.service.tournament_posts`) over its stored document: a knockout's
standings and final post rank the players by how far each went (`State.ranked`), and say so."""

from __future__ import annotations

import re

from bot.service import tournament_posts
from bot.service.tournament_formats import standings
from bot.service.tournament_state import Player, Rules, State, Table


def _table(round: int, number: int, *players: int, shared: bool = False) -> Table:
    """A finished table whose players placed in the order given (``shared``: the first two tied)."""
    places = {str(u): k for k, u in enumerate(players, start=1)}
    if shared:
        places[str(players[1])] = 1
    return Table(round=round, number=number, players=list(players), places=places)


def _knockout() -> State:
    """Eight players at tables of two. Player 1 wins round 1 and ties player 3 in round 2, who goes
    on (on two shared first places) and loses the final to player 2."""
    rules = Rules(name="Cup", format="knockout", rounds=1, size=2, signup_until=0, organiser=1)
    players = [Player(user=u, name=f"P{u}", rating=100.0 - u) for u in range(1, 9)]
    tables = [
        _table(1, 1, 1, 5), _table(1, 2, 2, 6), _table(1, 3, 3, 7, shared=True), _table(1, 4, 4, 8),
        _table(2, 1, 1, 3, shared=True), _table(2, 2, 2, 4),
        _table(3, 1, 2, 3),
    ]  # fmt: skip
    return State(rules=rules, players=players, tables=tables, round=3, winner=2)


def _shown(text: str) -> list[str]:
    return re.findall(r"^\d+\. (P\d) — ", text, re.M)


def test_a_knockouts_final_post_ranks_the_runner_up_second_whatever_the_points() -> None:
    state = _knockout()
    by_points = [state.name(x.user) for x in standings(state.seeded(), state.results())]
    assert by_points[:2] == ["P2", "P1"], "by points, P1 would be second"
    text = tournament_posts.over(state, 2)
    assert "The winner: **P2**" in text and _shown(text) == ["P2", "P3", "P1"]


def test_a_knockouts_standings_post_says_it_ranks_by_the_round_reached() -> None:
    state = _knockout()
    text = tournament_posts.table_done(state, state.tables[-1])
    assert "ranked by the last round reached, then the place at its table" in text
    assert _shown(text) == ["P2", "P3", "P1", "P4", "P7", "P6", "P5", "P8"]


def test_a_swiss_tournaments_posts_rank_by_points() -> None:
    state = _knockout().model_copy(update={"rules": _knockout().rules.model_copy(update={"format": "swiss"})})
    text = tournament_posts.table_done(state, state.tables[-1])
    assert "ranked by points, then tables won" in text
    assert _shown(text) == [state.name(x.user) for x in standings(state.seeded(), state.results())]
