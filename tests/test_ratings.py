"""Ratings (`bot.ratings`): OpenSkill Plackett–Luce on free-for-all games of 2–5 players, with
shared places for equal score and gold, resigned players last, computer levels as one player."""

from __future__ import annotations

import pytest

from bot.service.ratings import Standing, ranks, rate
from bot.storage.rows import SIGMA, Rating


def _table(*scores: tuple[int, int]) -> list[Standing]:
    return [Standing(f"user:{k}", score, gold) for k, (score, gold) in enumerate(scores)]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_the_higher_place_gains_more_for_every_player_count(n: int) -> None:
    table = _table(*((40 - 5 * k, 0) for k in range(n)))
    new = rate(table, {})
    assert ranks(table) == list(range(1, n + 1))
    shown = [new[s.player].shown for s in table]
    assert shown == sorted(shown, reverse=True) and len(set(shown)) == n
    assert new[table[0].player].mu > Rating().mu > new[table[-1].player].mu
    assert all(new[s.player].sigma < SIGMA for s in table), "every game makes each rating surer"


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_equal_score_and_gold_share_the_place_and_the_update(n: int) -> None:
    table = _table(*([(30, 4)] * 2 + [(20 - k, 0) for k in range(n - 2)]))
    new = rate(table, {})
    assert ranks(table)[:2] == [1, 1]
    assert new["user:0"] == new["user:1"]
    if n == 2:
        assert new["user:0"].mu == pytest.approx(Rating().mu), "a shared win between equals changes no skill"


def test_gold_breaks_a_tie_in_score() -> None:
    table = _table((30, 2), (30, 5), (12, 9))
    assert ranks(table) == [2, 1, 3]
    new = rate(table, {})
    assert new["user:1"].mu > new["user:0"].mu > new["user:2"].mu


def test_a_resigned_player_is_placed_below_everyone_who_did_not_resign() -> None:
    table = [Standing("user:0", 50, 9, resigned=True), Standing("user:1", 10, 0), Standing("user:2", 5, 0),
             Standing("user:3", 60, 0, resigned=True)]  # fmt: skip
    assert ranks(table) == [4, 1, 2, 3]
    new = rate(table, {})
    assert new["user:0"].mu < new["user:3"].mu < new["user:2"].mu


def test_an_upset_moves_ratings_more_than_the_expected_result() -> None:
    strong, weak = Rating(35.0, 3.0), Rating(15.0, 3.0)
    expected = rate(_table((30, 0), (10, 0)), {"user:0": strong, "user:1": weak})
    upset = rate(_table((10, 0), (30, 0)), {"user:0": strong, "user:1": weak})
    assert abs(upset["user:1"].mu - weak.mu) > abs(expected["user:1"].mu - weak.mu)


def test_computer_players_of_one_level_share_one_rating_moved_by_their_average_update() -> None:
    table = [Standing("computer:basic", 30, 0), Standing("user:1", 20, 0), Standing("computer:basic", 10, 0)]
    new = rate(table, {})
    assert set(new) == {"computer:basic", "user:1"}
    alone_first = rate(table[:2], {})["computer:basic"]
    assert Rating().mu < alone_first.mu
    assert new["computer:basic"].mu < alone_first.mu, "its last place counts too"
