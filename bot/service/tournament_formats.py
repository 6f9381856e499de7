"""A tournament's formats (part of the service layer, pure): how a round's tables are seated, what a
finished table is worth, and how the standings are ranked. No storage, no clock: what is decided here
follows from the entrants and the tables' results alone, so a restart decides the same.

Decisions:

- **Tables.** ``n`` players at tables of ``size`` sit at ⌈n / size⌉ tables whose sizes differ by one at
  most, the larger first (8 players, tables of 3: 3, 3, 2); a table has 2 players at least.
- **A table's points.** Each table is a small round robin, worth one point to a player who finishes
  ahead of everyone: a player scores the share of the others they finished ahead of, a tie counting
  half (three players: 1, ½, 0; two: 1, 0). A player who forfeited the table (dropped out with
  ``forfeit``) scores 0 there, and still counts as beaten for the others.
- **Standings** rank by points, then tables won (first places, shared first places too), then the
  victory points of all their tables, then their opponents' points (Buchholz: the sum of the points of
  everyone they sat with, once per table), then the rating they signed up with, then who signed up
  first. `TIE_BREAKS` says so in every standings post.
- **A knockout's places** follow how far each player went, not their points (`ranked`): the winner
  first, then those who sat in the latest round, then in the one before, and so on; among those of
  one round, the players still in (a player who dropped out with ``forfeit`` after them), then their
  place at that round's table (a table forfeited last), then the standings. So the last table's
  runner-up is second whatever points a player knocked out before gathered (with shared first
  places, one can have more); `KNOCKOUT_TIE_BREAKS` says so in its posts.
- **Swiss** (``swiss``, for the rounds the organiser chose): each round seats the players still in by
  points, then rating at sign-up (round 1: by rating alone), the best together, table after table;
  then a player who met someone at their table before changes places with the nearest player of a
  later table when that lowers the number of such repeats.
- **Round robin in groups** (``groups``): the players are dealt into groups of the table size by
  rating in a snake (1 2 3 | 6 5 4 | 7 8 9 …), and each group plays one table every round, for the
  rounds chosen: everyone meets everyone of their group at every game.
- **Single elimination from groups** (``knockout``): round 1 deals the players into tables as the
  groups are dealt; the winner of each table (the first of its placings; a shared first place goes
  to the better of the standings) goes on; the next round deals them again, until one table is left:
  its winner wins the tournament. The rounds chosen do not apply.
- **Drop-outs.** A player who drops out is no longer seated (``forfeit``); with ``computer`` their
  place is kept and seated as before, played by a computer from then on (its results count for them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from i18n import N_

Format = Literal["swiss", "groups", "knockout"]
FORMATS: dict[str, str] = {
    "swiss": N_("Swiss"),
    "groups": N_("round robin in groups"),
    "knockout": N_("single elimination from groups"),
}
"""The formats as the posts name them."""
TIE_BREAKS = N_("ranked by points, then tables won, victory points, opponents' points, rating at sign-up")
KNOCKOUT_TIE_BREAKS = N_(
    "ranked by the last round reached, then the place at its table, points, tables won, victory points, "
    "opponents' points, rating at sign-up"
)
MIN_TABLE = 2


@dataclass(frozen=True)
class Entrant:
    """A player of the tournament as the formats see them: their user id, rating at sign-up, the order
    they signed up in, and whether they are still seated (False: dropped out and forfeiting)."""

    user: int
    rating: float
    order: int
    seated: bool = True


@dataclass(frozen=True)
class Result:
    """A finished table: its players in seat order, their places (1 the best; ties share), victory
    points, and those who forfeited it."""

    players: tuple[int, ...]
    places: dict[int, int]
    scores: dict[int, int] = field(default_factory=dict)
    forfeits: frozenset[int] = frozenset()

    def points(self, user: int) -> float:
        """What the table is worth to ``user`` (see the module)."""
        if user in self.forfeits or len(self.players) < MIN_TABLE:
            return 0.0
        me = self.places[user]
        ahead = sum(1.0 if me < self.places[o] else 0.5 if me == self.places[o] else 0.0
                    for o in self.players if o != user)  # fmt: skip
        return ahead / (len(self.players) - 1)

    def won(self, user: int) -> bool:
        return user not in self.forfeits and self.places[user] == min(self.places.values())


@dataclass(frozen=True)
class Line:
    """A player's line of the standings."""

    user: int
    points: float
    won: int
    score: int
    opponents: float
    tables: int


def sizes(players: int, size: int) -> list[int]:
    """The sizes of the tables ``players`` sit at (see the module).

    >>> sizes(9, 3), sizes(8, 3), sizes(7, 4), sizes(2, 3)
    ([3, 3, 3], [3, 3, 2], [4, 3], [2])
    """
    if players < MIN_TABLE:
        return []
    count = math.ceil(players / size)
    while count > 1 and players // count < MIN_TABLE:
        count -= 1
    base, extra = divmod(players, count)
    return [base + 1] * extra + [base] * (count - extra)


def standings(entrants: Sequence[Entrant], results: Sequence[Result]) -> list[Line]:
    """Every entrant's line, ranked (see the module's tie-breaks)."""
    points = {e.user: 0.0 for e in entrants}
    won = dict.fromkeys(points, 0)
    score = dict.fromkeys(points, 0)
    tables = dict.fromkeys(points, 0)
    for r in results:
        for u in r.players:
            if u in points:
                points[u] += r.points(u)
                won[u] += r.won(u)
                score[u] += r.scores.get(u, 0)
                tables[u] += 1
    opponents = dict.fromkeys(points, 0.0)
    for r in results:
        for u in r.players:
            if u in opponents:
                opponents[u] += sum(points.get(o, 0.0) for o in r.players if o != u)
    by = {e.user: e for e in entrants}
    lines = [Line(u, points[u], won[u], score[u], opponents[u], tables[u]) for u in points]
    return sorted(lines, key=lambda x: (-x.points, -x.won, -x.score, -x.opponents, -by[x.user].rating,
                                        by[x.user].order))  # fmt: skip


def ranked(
    form: Format, entrants: Sequence[Entrant], rounds: Sequence[Sequence[Result]], winner: int | None = None
) -> list[Line]:
    """Every entrant's line in the order of the tournament's places, from the finished tables of
    each round (``rounds[0]``: round 1's) and its ``winner`` once over: a knockout's by how far each
    went (see the module), the other formats' by their standings."""
    lines = standings(entrants, [r for tables in rounds for r in tables])
    if form != "knockout":
        return lines
    seated = {e.user for e in entrants if e.seated}
    reached: dict[int, tuple[bool, int, bool, int]] = {}
    for k, tables in enumerate(rounds, start=1):
        for r in tables:
            for u in r.players:
                place = len(r.players) + 1 if u in r.forfeits else r.places[u]
                reached[u] = (u != winner, -k, u not in seated, place)
    return sorted(lines, key=lambda x: reached.get(x.user, (True, 1, True, 0)))  # stable: then the standings


def tie_breaks(form: Format) -> str:
    """What the standings of a tournament of ``form`` are ranked by (untranslated: `i18n.N_`)."""
    return KNOCKOUT_TIE_BREAKS if form == "knockout" else TIE_BREAKS


def _by_rating(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.rating, e.order))


def snake(players: Sequence[int], size: int) -> list[list[int]]:
    """``players`` (best first) dealt into tables of ``size`` in a snake.

    >>> snake([1, 2, 3, 4, 5, 6, 7, 8, 9], 3)
    [[1, 6, 7], [2, 5, 8], [3, 4, 9]]
    """
    count = len(sizes(len(players), size))
    tables: list[list[int]] = [[] for _ in range(count)]
    for k, p in enumerate(players):
        lap, at = divmod(k, count)
        tables[at if lap % 2 == 0 else count - 1 - at].append(p)
    return tables


def _met(results: Sequence[Result]) -> set[frozenset[int]]:
    return {frozenset((a, b)) for r in results for a in r.players for b in r.players if a != b}


def _repeats(table: Sequence[int], met: set[frozenset[int]]) -> int:
    return sum(frozenset((a, b)) in met for k, a in enumerate(table) for b in table[k + 1 :])


def swiss(entrants: Sequence[Entrant], results: Sequence[Result], size: int) -> list[list[int]]:
    """A Swiss round's tables (see the module)."""
    seated = [e for e in entrants if e.seated]
    lines = {x.user: x for x in standings(seated, results)}
    order = sorted(seated, key=lambda e: (-lines[e.user].points, -e.rating, e.order))
    tables, k = [], 0
    for n in sizes(len(order), size):
        tables.append([e.user for e in order[k : k + n]])
        k += n
    met = _met(results)
    for i, table in enumerate(tables):
        for seat in range(len(table) - 1, -1, -1):
            if _repeats(table, met) == 0:
                break
            for other in tables[i + 1 :]:
                for j in range(len(other)):
                    a, b = table.copy(), other.copy()
                    a[seat], b[j] = other[j], table[seat]
                    if _repeats(a, met) + _repeats(b, met) < _repeats(table, met) + _repeats(other, met):
                        table[:], other[:] = a, b
                        break
                else:
                    continue
                break
    return tables


def groups(entrants: Sequence[Entrant], size: int) -> list[list[int]]:
    """The groups of a round robin (and the first round of a knockout): dealt by rating in a snake."""
    return snake([e.user for e in _by_rating([e for e in entrants if e.seated])], size)


def advancing(entrants: Sequence[Entrant], results: Sequence[Result], last: Sequence[Result]) -> list[int]:
    """The winners of a knockout round's tables ``last`` who go on, best first (a shared first place:
    the better of the standings)."""
    rank = {x.user: k for k, x in enumerate(standings(entrants, results))}
    seated = {e.user for e in entrants if e.seated}
    winners = []
    for r in last:
        firsts = [u for u in r.players if r.won(u) and u in seated]
        if firsts:
            winners.append(min(firsts, key=rank.__getitem__))
    return sorted(winners, key=rank.__getitem__)


def next_tables(
    form: Format, entrants: Sequence[Entrant], results: Sequence[Result], last: Sequence[Result], *,
    round: int, rounds: int, size: int,
) -> list[list[int]] | None:  # fmt: skip
    """The tables of round ``round`` (1: the first) after ``results`` (all finished tables; ``last``:
    those of the round before); None when the tournament is over."""
    if form == "knockout":
        if round == 1:
            return groups(entrants, size)
        players = advancing(entrants, results, last)
        if len(players) < MIN_TABLE:
            return None
        return snake(players, size)
    if round > rounds or sum(e.seated for e in entrants) < MIN_TABLE:
        return None
    if form == "groups":
        return groups(entrants, size)
    return swiss(entrants, results, size)


def winner(
    form: Format, entrants: Sequence[Entrant], results: Sequence[Result], last: Sequence[Result]
) -> int:
    """The tournament's winner once it is over: a knockout's last table's winner, otherwise the first
    of the standings."""
    if form == "knockout":
        players = advancing(entrants, results, last)
        if players:
            return players[0]
    return standings(entrants, results)[0].user
