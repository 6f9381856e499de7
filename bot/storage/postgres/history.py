"""A server's history on PostgreSQL: placings, ratings per server, the replay posted after a
game, and forgetting a player. `store_results` runs inside the transaction of the game's final
move (`moves.Moves.commit_moves`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.results import Post
from bot.storage import convert, queries
from bot.storage.postgres.base import Part, affected, many
from bot.storage.postgres.outbox import store_posts
from bot.storage.rows import FORMER, FORMER_KEY, FORMER_SEAT, Finished, Placing, Rating, Result, Standing
from bot.storage.shards import Shards, postgres_params
from bot.storage.shards import postgres_on_shards as on_shards

if TYPE_CHECKING:
    from bot.storage.postgres.base import Connection


def _renamed(document: str | None, seat: int, *, field: str | None) -> str | None:
    """A game's JSON ``document`` with the name of ``players[seat]`` (or its ``field``) made
    `FORMER`, as SQLite's ``json_set`` does in `bot.storage.sqlite.history`; None stays None."""
    if not document:
        return document
    data: Any = json.loads(document)
    players = data.get("players") if isinstance(data, dict) else None
    if isinstance(players, list) and 0 <= seat < len(players):
        if field is None:
            players[seat] = FORMER
        elif isinstance(players[seat], dict):
            players[seat][field] = FORMER
    return json.dumps(data)


PLAYED_IN = (
    "FROM games g JOIN seats s ON s.game = g.id "
    "WHERE g.guild IS NOT DISTINCT FROM $1::bigint AND s.user_id = $2 AND g.status IN ('over', 'abandoned')"
)
"""A user's seats in a server's finished games ($1 guild, $2 user id): what `forget` renames."""


async def store_results(
    conn: Connection, game_id: int, guild: int, places: Sequence[Placing], now: int
) -> None:
    """Store a finished game's placings and its players' new ratings (in the caller's transaction)."""
    await many(
        conn,
        queries.NEW_RESULT,
        [(game_id, p.seat, guild, p.player, p.user_id, p.name, p.rank, p.score, p.gold, p.citizens,
          p.bonus, p.hunger_vp, bool(p.resigned), p.hungry_years, json.dumps(p.built), p.before.mu,
          p.before.sigma, p.after.mu, p.after.sigma, now) for p in places],
    )  # fmt: skip
    latest = {p.player: p for p in places}  # one row per player (several computers of one level)
    await many(
        conn,
        "INSERT INTO ratings (guild, player, name, mu, sigma, games) VALUES ($1, $2, $3, $4, $5, 1) "
        "ON CONFLICT (guild, player) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
        "sigma = excluded.sigma, games = ratings.games + 1",
        [(guild, p.player, p.name, p.after.mu, p.after.sigma) for p in latest.values()],
    )


class History(Part):
    """Queries of the history (see `bot.storage.protocol.HistoryProtocol`)."""

    async def ratings(self, guild: int, players: Sequence[str]) -> dict[str, Rating]:
        """The current ratings of ``players`` in ``guild`` (those never rated are left out)."""
        rows = await self.db.all(
            "SELECT player, mu, sigma FROM ratings WHERE guild = $1 AND player = ANY($2::text[])",
            guild, list(players),
        )  # fmt: skip
        return {r["player"]: Rating(r["mu"], r["sigma"]) for r in rows}

    async def leaderboard(self, guild: int) -> list[Standing]:
        """Every rated player of ``guild``, best first (ties by player key in code-point order, as
        SQLite sorts text, whatever the database's collation)."""
        rows = await self.db.all(
            "SELECT * FROM ratings WHERE guild = $1 "
            'ORDER BY mu - 3 * sigma DESC, games DESC, player COLLATE "C"',
            guild,
        )
        return [Standing(r["player"], r["name"], Rating(r["mu"], r["sigma"]), r["games"]) for r in rows]

    async def results_of(self, guild: int, player: str) -> list[Result]:
        """A player's results in ``guild``, oldest first."""
        rows = await self.db.all(queries.RESULTS_OF, guild, player)
        return [Result(r["game"], r["ended_at"], convert.placing(r)) for r in rows]

    async def finished_games(self, guild: int, last: int, before: int | None = None) -> list[Finished]:
        """The ``last`` games finished in ``guild`` (before game ``before``), newest first, with the
        final post's message."""
        below = queries.NO_GAME_AFTER if before is None else before
        async with self.db.transaction() as conn:
            games = await conn.fetch(queries.FINISHED, guild, below, last)
            seats = await conn.fetch(
                "SELECT * FROM results WHERE game = ANY($1::bigint[]) ORDER BY game, seat",
                [g["id"] for g in games],
            )
        places: dict[int, list[Placing]] = {}
        for r in seats:
            places.setdefault(r["game"], []).append(convert.placing(r))
        return [
            Finished(g["id"], g["ended_at"], g["channel"], g["message_id"], places[g["id"]]) for g in games
        ]

    async def game_results(self, game_id: int) -> list[Placing]:
        """The placings of a finished game by seat ([] when it has none: not finished, or not rated)."""
        rows = await self.db.all(queries.GAME_RESULTS, game_id)
        return [convert.placing(r) for r in rows]

    async def unreplayed(self, shards: Shards | None = None) -> list[int]:
        """The finished games (of servers on ``shards``) whose replay has not been stored yet."""
        rows = await self.db.all(
            "SELECT id FROM games WHERE status = 'over' AND NOT replayed "
            "AND EXISTS (SELECT 1 FROM results WHERE game = games.id) "
            f"AND {on_shards('guild', 1)} ORDER BY id",
            *postgres_params(shards),
        )
        return [r["id"] for r in rows]

    async def store_replay(self, game_id: int, posts: Sequence[Post], now: int) -> list[int] | None:
        """Mark the game's replay as made and store its ``posts``, once: None if it was already made."""
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                "UPDATE games SET replayed = true WHERE id = $1 AND NOT replayed", game_id
            )
            if affected(changed) != 1:
                return None
            ids = await store_posts(conn, game_id, posts, now)
        self.db.woken(ids)
        return ids

    async def games_to_forget(self, guild: int, user_id: int) -> int:
        """How many of ``guild``'s finished games the user played in (`forget` renames them)."""
        return int(await self.db.value(f"SELECT COUNT(*) {PLAYED_IN}", guild or None, user_id))

    async def forget(self, guild: int, user_id: int) -> int:
        """Take a player's name out of ``guild``'s finished games (and delete their rating): how
        many games they were in. Their seats stay, as `FORMER`, no longer tied to their user id."""
        key = f"user:{user_id}"
        async with self.db.transaction() as conn:
            games = await conn.fetch(
                f"SELECT g.id, s.seat, g.record, g.snapshot {PLAYED_IN} ORDER BY g.id FOR UPDATE OF g",
                guild or None, user_id,
            )  # fmt: skip
            for g in games:
                await conn.execute(
                    "UPDATE games SET record = $1, snapshot = $2 WHERE id = $3",
                    _renamed(g["record"], g["seat"], field=None),
                    _renamed(g["snapshot"], g["seat"], field="name"),
                    g["id"],
                )
                await conn.execute(
                    queries.FORMER_SEAT_SQL, FORMER, FORMER_SEAT - g["seat"], g["id"], g["seat"]
                )
            await conn.execute(queries.FORGET_RESULTS, FORMER_KEY, FORMER, guild, key)
            await conn.execute(queries.FORGET_RATING, guild, key)
            await conn.execute(queries.FORGET_CONDUCT, user_id, guild)
        return len(games)
