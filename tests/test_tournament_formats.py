"""A tournament's formats (`bot.service.tournament_formats`): table sizes, what a table is worth, the
standings' tie-breaks, Swiss seating (by points, then rating; repeats avoided), round robin groups and
single elimination from groups, whose places follow how far each player went."""

from __future__ import annotations

from bot.service.tournament_formats import (
    Entrant,
    Result,
    next_tables,
    ranked,
    sizes,
    standings,
    swiss,
    winner,
)


def _entrants(n: int, dropped: tuple[int, ...] = ()) -> list[Entrant]:
    """Players 1..n, player 1 the best rated."""
    return [Entrant(u, float(100 - u), u, u not in dropped) for u in range(1, n + 1)]


def _table(*players: int, scores: tuple[int, ...] = (), forfeits: frozenset[int] = frozenset()) -> Result:
    """A table whose players finished in the order given."""
    return Result(tuple(players), {u: k for k, u in enumerate(players, start=1)},
                  dict(zip(players, scores, strict=False)), forfeits)  # fmt: skip


def test_tables_are_as_even_as_can_be_and_never_of_one_player() -> None:
    assert sizes(9, 3) == [3, 3, 3]
    assert sizes(8, 3) == [3, 3, 2]
    assert sizes(10, 4) == [4, 3, 3]
    assert sizes(3, 2) == [3]  # three at one table rather than a table of one
    assert sizes(1, 3) == []


def test_a_table_is_worth_the_share_of_the_others_beaten_ties_half_and_nothing_when_forfeited() -> None:
    three = _table(1, 2, 3)
    assert [three.points(u) for u in (1, 2, 3)] == [1.0, 0.5, 0.0]
    tied = Result((1, 2, 3), {1: 1, 2: 1, 3: 3})
    assert [tied.points(u) for u in (1, 2, 3)] == [0.75, 0.75, 0.0]
    assert tied.won(1) and tied.won(2) and not tied.won(3)
    forfeited = _table(1, 2, 3, forfeits=frozenset({1}))
    assert forfeited.points(1) == 0.0 and not forfeited.won(1) and forfeited.points(2) == 0.5


def test_standings_break_ties_by_tables_won_then_victory_points_then_opponents_then_rating() -> None:
    entrants = _entrants(6)
    # 1 and 4 both have 1 point: 4 won a table, 1 did not (two seconds).
    results = [_table(4, 5, 6), _table(2, 1, 3), _table(3, 1, 2)]
    order = [x.user for x in standings(entrants, results)]
    assert order.index(4) < order.index(1)
    # Equal points and tables won: more victory points first.
    vp = [_table(1, 2, scores=(10, 5)), _table(3, 4, scores=(20, 5))]
    assert [x.user for x in standings(_entrants(4), vp)][:2] == [3, 1]
    # Equal in everything but rating: the better rated first.
    same = [_table(1, 2, scores=(10, 5)), _table(3, 4, scores=(10, 5))]
    assert [x.user for x in standings(_entrants(4), same)][:2] == [1, 3]


def test_swiss_round_one_seats_by_rating_and_later_rounds_by_points() -> None:
    entrants = _entrants(9)
    first = next_tables("swiss", entrants, [], [], round=1, rounds=3, size=3)
    assert first == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    results = [_table(3, 2, 1), _table(6, 5, 4), _table(9, 8, 7)]
    second = swiss(entrants, results, 3)
    winners = {3, 6, 9}
    assert set(second[0]) == winners, "the winners play each other"
    assert sorted(u for t in second for u in t) == list(range(1, 10))


def test_swiss_avoids_a_repeat_when_a_swap_with_a_later_table_does() -> None:
    entrants = _entrants(4)
    results = [_table(1, 2), _table(3, 4), _table(1, 3), _table(2, 4)]
    # By points 1, 2, 3, 4: [1, 2] and [3, 4] met in round 1; 2 and 4 change places.
    assert swiss(entrants, results, 2) == [[1, 4], [3, 2]]
    assert swiss(entrants, results[:2], 2) == [[1, 3], [2, 4]], "no swap where nobody met"


def test_a_forfeiting_drop_out_is_seated_no_more_and_the_tables_even_out() -> None:
    entrants = _entrants(9, dropped=(5,))
    tables = next_tables("swiss", entrants, [_table(1, 2, 3)], [], round=2, rounds=3, size=3)
    assert tables is not None and sorted(map(len, tables), reverse=True) == [3, 3, 2]
    assert all(5 not in t for t in tables)
    assert next_tables("swiss", entrants, [], [], round=4, rounds=3, size=3) is None, "three rounds only"


def test_round_robin_groups_are_dealt_in_a_snake_and_meet_again_every_round() -> None:
    entrants = _entrants(6)
    first = next_tables("groups", entrants, [], [], round=1, rounds=2, size=3)
    assert first == [[1, 4, 5], [2, 3, 6]]
    assert next_tables("groups", entrants, [_table(1, 4, 5)], [], round=2, rounds=2, size=3) == first


def test_single_elimination_takes_each_tables_winner_on_until_one_table_is_left() -> None:
    entrants = _entrants(9)
    first = next_tables("knockout", entrants, [], [], round=1, rounds=1, size=3)
    assert first == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    round1 = [_table(7, 6, 1), _table(2, 5, 8), _table(4, 3, 9)]
    final = next_tables("knockout", entrants, round1, round1, round=2, rounds=1, size=3)
    assert final is not None and sorted(final[0]) == [2, 4, 7] and len(final) == 1
    last = [_table(4, 7, 2)]
    everything = round1 + last
    assert next_tables("knockout", entrants, everything, last, round=3, rounds=1, size=3) is None
    assert winner("knockout", entrants, everything, last) == 4


def test_a_knockouts_places_follow_the_round_reached_then_the_place_there_not_the_points() -> None:
    """Player 1 has more points (a win, then a shared first place that did not go on) than player 3,
    who reached the final on two shared first places: 3 is second all the same."""
    entrants = _entrants(8)
    tie = Result((3, 7), {3: 1, 7: 1})
    rounds = [
        [_table(1, 5), _table(2, 6), tie, _table(4, 8)],
        [Result((1, 3), {1: 1, 3: 1}), _table(2, 4)],
        [_table(2, 3)],
    ]
    by_points = [x.user for x in standings(entrants, [r for tables in rounds for r in tables])]
    assert by_points[:2] == [2, 1], "by points, player 1 would be second"
    assert [x.user for x in ranked("knockout", entrants, rounds)] == [2, 3, 1, 4, 7, 6, 5, 8]
    assert ranked("swiss", entrants, rounds) == standings(entrants, [r for tables in rounds for r in tables])


def test_a_knockout_ranks_a_forfeit_last_at_its_table_and_a_forfeiting_drop_out_after_those_still_in() -> (
    None
):
    """Player 1 won their table, then dropped out and forfeits; player 2 forfeited their table."""
    entrants = _entrants(4, dropped=(1,))
    rounds = [[_table(1, 4), _table(2, 3, forfeits=frozenset({2}))]]
    assert [x.user for x in ranked("knockout", entrants, rounds)] == [4, 3, 2, 1]
    assert [x.user for x in ranked("knockout", entrants, rounds, winner=3)] == [3, 4, 2, 1], (
        "the winner first"
    )
