"""A server's history in SQLite: each finished game's placings, the players' ratings per
server, the replay posted after a game, and forgetting a player. See `bot.service.history` for
what is stored and `bot.service.ratings` for how it is rated.

`store_results` runs inside the transaction of the game's final move (`moves.Moves.commit_moves`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import aiosqlite

from bot.results import Post
from bot.storage import convert, queries
from bot.storage.queries import qmarks
from bot.storage.rows import FORMER, FORMER_KEY, FORMER_SEAT, Finished, Placing, Rating, Result, Standing
from bot.storage.shards import Shards, sqlite_params
from bot.storage.shards import sqlite_on_shards as on_shards
from bot.storage.sqlite.base import Part, fetch_all, many
from bot.storage.sqlite.outbox import store_posts

PLAYED_IN = (
    "FROM games g JOIN seats s ON s.game = g.id "
    "WHERE g.guild IS ? AND s.user_id = ? AND g.status IN ('over', 'abandoned')"
)
"""A user's seats in a server's finished games (guild, user id): what `forget` renames."""


async def store_results(
    conn: aiosqlite.Connection, game_id: int, guild: int, places: Sequence[Placing], now: int
) -> None:
    """Store a finished game's placings and its players' new ratings (in the caller's transaction)."""
    await many(
        conn,
        qmarks(queries.NEW_RESULT),
        [(game_id, p.seat, guild, p.player, p.user_id, p.name, p.rank, p.score, p.gold, p.citizens,
          p.bonus, p.hunger_vp, int(p.resigned), p.hungry_years, json.dumps(p.built), p.before.mu,
          p.before.sigma, p.after.mu, p.after.sigma, now) for p in places],
    )  # fmt: skip
    latest = {p.player: p for p in places}  # one row per player (several computers of one level)
    await many(
        conn,
        "INSERT INTO ratings (guild, player, name, mu, sigma, games) VALUES (?, ?, ?, ?, ?, 1) "
        "ON CONFLICT (guild, player) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
        "sigma = excluded.sigma, games = games + 1",
        [(guild, p.player, p.name, p.after.mu, p.after.sigma) for p in latest.values()],
    )


class History(Part):
    """Queries of the history (see `bot.storage.protocol.HistoryProtocol`)."""

    async def ratings(self, guild: int, players: Sequence[str]) -> dict[str, Rating]:
        """The current ratings of ``players`` in ``guild`` (those never rated are left out)."""
        marks = ", ".join("?" for _ in players)
        rows = await self.db.all(
            f"SELECT player, mu, sigma FROM ratings WHERE guild = ? AND player IN ({marks})",
            (guild, *players),
        )
        return {r["player"]: Rating(r["mu"], r["sigma"]) for r in rows}

    async def leaderboard(self, guild: int) -> list[Standing]:
        """Every rated player of ``guild``, best first."""
        rows = await self.db.all(
            "SELECT * FROM ratings WHERE guild = ? ORDER BY mu - 3 * sigma DESC, games DESC, player", (guild,)
        )
        return [Standing(r["player"], r["name"], Rating(r["mu"], r["sigma"]), r["games"]) for r in rows]

    async def results_of(self, guild: int, player: str) -> list[Result]:
        """A player's results in ``guild``, oldest first."""
        rows = await self.db.all(qmarks(queries.RESULTS_OF), (guild, player))
        return [Result(r["game"], r["ended_at"], convert.placing(r)) for r in rows]

    async def finished_games(self, guild: int, last: int, before: int | None = None) -> list[Finished]:
        """The ``last`` games finished in ``guild`` (before game ``before``), newest first, with the
        final post's message."""
        below = queries.NO_GAME_AFTER if before is None else before
        async with self.db.locked() as conn:
            games = await fetch_all(conn, qmarks(queries.FINISHED), (guild, below, last))
            seats = await fetch_all(
                conn,
                f"SELECT * FROM results WHERE game IN ({', '.join('?' for _ in games)}) ORDER BY game, seat",
                tuple(g["id"] for g in games),
            )
        places: dict[int, list[Placing]] = {}
        for r in seats:
            places.setdefault(r["game"], []).append(convert.placing(r))
        return [
            Finished(g["id"], g["ended_at"], g["channel"], g["message_id"], places[g["id"]]) for g in games
        ]

    async def game_results(self, game_id: int) -> list[Placing]:
        """The placings of a finished game by seat ([] when it has none: not finished, or not rated)."""
        rows = await self.db.all(qmarks(queries.GAME_RESULTS), (game_id,))
        return [convert.placing(r) for r in rows]

    async def unreplayed(self, shards: Shards | None = None) -> list[int]:
        """The finished games (of servers on ``shards``) whose replay has not been stored yet."""
        rows = await self.db.all(
            "SELECT id FROM games WHERE status = 'over' AND replayed = 0 "
            "AND EXISTS (SELECT 1 FROM results WHERE game = games.id) "
            f"AND {on_shards('guild')} ORDER BY id",
            sqlite_params(shards),
        )
        return [r["id"] for r in rows]

    async def store_replay(self, game_id: int, posts: Sequence[Post], now: int) -> list[int] | None:
        """Mark the game's replay as made and store its ``posts``, once: None if it was already made."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE games SET replayed = 1 WHERE id = ? AND replayed = 0", (game_id,)
            )
            if cur.rowcount != 1:
                return None
            ids = await store_posts(conn, game_id, posts, now)
        self.db.woken(ids)
        return ids

    async def games_to_forget(self, guild: int, user_id: int) -> int:
        """How many of ``guild``'s finished games the user played in (`forget` renames them)."""
        rows = await self.db.all(f"SELECT COUNT(*) AS n {PLAYED_IN}", (guild or None, user_id))
        return int(rows[0]["n"])

    async def forget(self, guild: int, user_id: int) -> int:
        """Take a player's name out of ``guild``'s finished games (and delete their rating): how
        many games they were in. Their seats stay, as `FORMER`, no longer tied to their user id."""
        key = f"user:{user_id}"
        async with self.db.transaction() as conn:
            games = await fetch_all(conn, f"SELECT g.id, s.seat {PLAYED_IN}", (guild or None, user_id))
            for g in games:
                await conn.execute(
                    "UPDATE games SET record = json_set(record, ?, ?), snapshot = json_set(snapshot, ?, ?) "
                    "WHERE id = ?",
                    (f"$.players[{g['seat']}]", FORMER, f"$.players[{g['seat']}].name", FORMER, g["id"]),
                )
                await conn.execute(
                    qmarks(queries.FORMER_SEAT_SQL), (FORMER, FORMER_SEAT - g["seat"], g["id"], g["seat"])
                )
            await conn.execute(qmarks(queries.FORGET_RESULTS), (FORMER_KEY, FORMER, guild, key))
            await conn.execute(qmarks(queries.FORGET_RATING), (guild, key))
            await conn.execute(qmarks(queries.FORGET_CONDUCT), (user_id, guild))
        return len(games)
