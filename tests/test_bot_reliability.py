"""A player's reliability and pace (`bot.service.reliability`): the figures equal those counted here,
independently, from the games played (moves at known times, a resignation, a seat handed over, a
deadline answered late and one the bot answered, a game finished), in one server and in all, over
the last 90 days; the host's minimum (`refusal`); ``/citta stats`` shows them."""

from __future__ import annotations

import random
import statistics
from collections import Counter, defaultdict

from test_bot_support import HOUR, MIDNIGHT, PLAYERS, FakeClock, Table, current

from bot.results import User
from bot.service import absence as svc_absence
from bot.service import archive as svc_archive
from bot.service import leaving as svc_leaving
from bot.service import lobby as svc_lobby
from bot.service import moves as svc_moves
from bot.service import reliability
from bot.service import settings as svc_settings
from bot.service.context import Context
from bot.service.reliability import Figures
from bot.storage.rows import GameSettings

ANN, BOB, CID, DEA, ELI = PLAYERS
HERE, THERE = 1, 2
"""The servers: ``start_game``'s, and another."""
A, B, C = 1000, 2000, 3000
"""The channels of the three games."""


class Tally:
    """What the test saw happen, counted as the figures count it (`bot.service.reliability`)."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.asked: dict[tuple[int, int], int] = {}
        self.waits: dict[tuple[int, int], list[int]] = defaultdict(list)  # (user, server): seconds
        self.counts: Counter[tuple[int, int, str]] = Counter()  # (user, server, kind)

    def now(self) -> int:
        return int(self.clock.now)

    async def waiting(self, svc: Context, channel: int) -> None:
        """The decisions asked now (those still waited for keep their time)."""
        row = await svc.storage.games.latest_game(channel)
        assert row is not None
        seats = {s.seat: s for s in await svc.storage.games.seats(row.id)}
        pending = [] if row.status != "active" else (await current(svc, channel)).pending_seats()
        people = {(row.id, s) for s in pending if not seats[s].played_by_bot}
        self.asked = {k: v for k, v in self.asked.items() if k[0] != row.id or k in people}
        for k in people:
            self.asked.setdefault(k, self.now())

    async def answer(self, svc: Context, channel: int, server: int, hours: float, rnd: random.Random) -> bool:
        """The first seat waited for answers ``hours`` later with a random legal move; False: over."""
        row = await svc.storage.games.latest_game(channel)
        assert row is not None
        if row.status != "active":
            return False
        game = await current(svc, channel)
        seat = game.pending_seats()[0]
        user = next(s.user_id for s in await svc.storage.games.seats(row.id) if s.seat == seat)
        self.clock.advance(hours)
        waited = self.now() - self.asked.pop((row.id, seat))
        self.waits[user, server].append(waited)
        if waited >= 24 * HOUR:  # the games' deadline
            self.counts[user, server, "missed"] += 1
        move = str(rnd.choice(game.legal_moves(seat)))
        await svc_moves.play(svc, user, move, channel=channel, confirmed=True)
        await self.waiting(svc, channel)
        return True

    def figures(self, user: int, server: int | None) -> Figures:
        servers = (HERE, THERE) if server is None else (server,)
        count = {k: sum(self.counts[user, s, k] for s in servers) for k in ("finished", "resigned", "left")}
        return Figures(
            count["finished"], count["resigned"], count["left"],
            sum(self.counts[user, s, "missed"] for s in servers),
            tuple(w for s in servers for w in self.waits[user, s]),
        )  # fmt: skip


async def _open(svc: Context, host: User, channel: int, server: int, *others: User) -> int:
    await svc_lobby.new_game(svc, host, channel=channel, guild=server)
    row = await svc.storage.games.open_game(channel)
    assert row is not None
    for user in others:
        await svc_lobby.join(svc, row.id, user)
    await svc_lobby.start(svc, row.id, host)
    return row.id


def _same(seen: Figures, expected: Figures) -> None:
    """The same counts and the same times to move (the storage gives them by time of answer)."""
    assert (seen.finished, seen.resigned, seen.abandoned, seen.missed) == (
        expected.finished, expected.resigned, expected.abandoned, expected.missed,
    )  # fmt: skip
    assert sorted(seen.waits) == sorted(expected.waits)
    assert seen.median == (statistics.median_low(expected.waits) if expected.waits else None)


async def test_the_figures_are_those_of_the_games_played_here_and_in_all_servers(table: Table) -> None:
    svc, tally, rnd = table.svc, Tally(table.clock), random.Random(7)
    # A game in the other server, played to its end by Ann and Bob, each answer 1 to 5 hours on.
    await _open(svc, ANN, A, THERE, BOB)
    await tally.waiting(svc, A)
    while await tally.answer(svc, A, THERE, rnd.choice((1, 2, 5)), rnd):
        pass
    tally.counts[ANN.id, THERE, "finished"] += 1
    tally.counts[BOB.id, THERE, "finished"] += 1
    # Here, Ann and Cid: a few answers, one of them 30 hours late; then Cid resigns.
    await _open(svc, ANN, B, HERE, CID)
    await tally.waiting(svc, B)
    for hours in (3, 30, 1, 2, 7):
        assert await tally.answer(svc, B, HERE, hours, rnd)
    await svc_leaving.resign(svc, CID.id, channel=B)
    tally.counts[CID.id, HERE, "resigned"] += 1
    await tally.waiting(svc, B)
    assert await tally.answer(svc, B, HERE, 4, rnd)
    # Here, Dea and Eli with the policy skip: Dea's time runs out, the bot plays for her; then she
    # hands her seat to Bob (she left it).
    await _open(svc, DEA, C, HERE, ELI)
    await svc_settings.settings(svc, DEA.id, channel=C, policy="skip")
    await tally.waiting(svc, C)
    late = [PLAYERS[3 + seat] for seat in (await current(svc, C)).pending_seats()]
    table.clock.advance(24)
    await table.at((tally.now() - MIDNIGHT) / HOUR)
    for user in late:
        tally.counts[user.id, HERE, "missed"] += 1
    await tally.waiting(svc, C)
    await svc_absence.replace(svc, late[0].id, channel=C, old=late[0], new=BOB)
    tally.counts[late[0].id, HERE, "left"] += 1

    users = [u.id for u in PLAYERS]
    for server in (HERE, THERE):
        seen = await reliability.figures(svc, users, server)
        for uid in users:
            _same(seen[uid][0], tally.figures(uid, server))
            _same(seen[uid][1], tally.figures(uid, None))
    assert tally.figures(ANN.id, None).finished == 1 and tally.figures(ANN.id, HERE).missed == 1
    assert len(tally.figures(ANN.id, None).waits) > 20

    stats = await svc_archive.stats(svc, HERE, CID)
    assert "Last 90 days on this server: 0 finished, 1 resigned" in stats.text and stats.ephemeral
    table.clock.advance(91 * 24)  # the window moves past every game
    assert all(f == (Figures(), Figures()) for f in (await reliability.figures(svc, users, HERE)).values())


def test_the_minimum_refuses_with_the_figure_and_never_for_lack_of_history() -> None:
    host = GameSettings(min_finished=80, max_pace_hours=12)
    slow = Figures(finished=4, resigned=1, waits=(13 * HOUR,) * 5)
    why = reliability.refusal(slow, host)
    assert why is not None
    assert "you finished 4 of your 5 games (80%)" not in why  # 80% is enough
    assert "your median time to move was 13 h; the host of this game asks for at most 12 h" in why
    quitter = Figures(finished=3, resigned=1, abandoned=1, waits=(HOUR,) * 5)
    assert reliability.refusal(quitter, host) == (
        "In the last 90 days you finished 3 of your 5 games (60%); the host of this game asks for at "
        "least 80%."
    )
    new = Figures(resigned=2, waits=(30 * HOUR,) * 4)  # 2 games, 4 answers: too few to judge
    assert reliability.refusal(new, host) is None
    assert reliability.refusal(quitter, GameSettings()) is None
