"""Ratings of a server's players: OpenSkill's Plackett–Luce model on free-for-all games.

We use `openskill` (MIT licence, maintained; Weng & Lin's Bayesian approximation). Its
Plackett–Luce model rates a free-for-all game of any number of one-player teams from their
finishing order, shares ties, and needs no patented TrueSkill factor graph. A rating is a
skill estimate ``mu`` with an uncertainty ``sigma``; what we show and rank by is the
conservative estimate ``mu − 3·sigma`` (`shown`), which starts at 0 and grows as a player
proves themselves.

How a finished game is ranked (`ranks`):

- the winner rule of the game decides (rules §9): the higher score first, then the more
  gold; equal score *and* equal gold share a place (and a rating update);
- a player who resigned is placed below everyone who did not, and among the resigned by
  the same rule (the bot played their seat to the end, so they have a score);
- a game abandoned before its end is not rated (nor listed): nobody finished it.

Computer players are rated per level (one pseudo-player such as "Computer (strong)" per
level and server), so a player sees whom they beat. When several computer players of one
level sit at the same table, each plays with the level's rating and the level's rating then
moves by the average of their updates.

>>> ranks([Standing("a", 30, 2), Standing("b", 30, 2), Standing("c", 31, 0), Standing("d", 40, 9, True)])
[2, 2, 1, 4]
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from statistics import fmean

from openskill.models import PlackettLuce

from bot.storage.rows import MU, SIGMA, Rating

MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class Standing:
    """How one seat finished: who played it (their rating key), score, gold, resigned."""

    player: str
    score: int
    gold: int
    resigned: bool = False


def ranks(standings: list[Standing]) -> list[int]:
    """Each seat's place (1 = first; a shared place for equal score and gold, see the module)."""
    keys = [(s.resigned, -s.score, -s.gold) for s in standings]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def rate(standings: list[Standing], before: dict[str, Rating]) -> dict[str, Rating]:
    """The new rating of every player of a finished game (``before``: their ratings now; a
    player missing from it starts at the default)."""
    return rate_places([s.player for s in standings], ranks(standings), before)


def rate_places(players: list[str], places: list[int], before: dict[str, Rating]) -> dict[str, Rating]:
    """The new rating of every player of a game whose seats (their rating keys ``players``) finished
    at ``places`` (1 = first), from ``before`` (a player missing from it starts at the default)."""
    start = [before.get(p, Rating()) for p in players]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in start]
    rated = MODEL.rate(teams, ranks=[float(r) for r in places])
    updates: dict[str, list[Rating]] = defaultdict(list)
    for p, [new] in zip(players, rated, strict=True):
        updates[p].append(Rating(new.mu, new.sigma))
    return {p: Rating(fmean(r.mu for r in rs), fmean(r.sigma for r in rs)) for p, rs in updates.items()}
