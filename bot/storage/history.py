"""The SQL of a server's history (part of `bot.storage.Storage`): each finished game's
placings, the players' ratings per server, the replay posted after a game, and forgetting a
player. See `bot.service.history` for what is stored and `bot.service.ratings` for how it is rated.

Every method holds the storage lock, like the rest of `Storage`; ``_store_results`` runs
inside the transaction of the game's final move (`Storage.commit_moves`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.results import Post
from bot.storage import convert
from bot.storage.claims import ClaimStorage
from bot.storage.rows import FORMER, Finished, Placing, Rating, Result, Standing
from bot.storage.shards import Shards, sqlite_params
from bot.storage.shards import sqlite_on_shards as on_shards

__all__ = ["FORMER_KEY", "FORMER_SEAT", "Finished", "HistoryStorage", "Result", "Standing"]

FORMER_KEY = "former"
FORMER_SEAT = -100
"""A forgotten player's seat gets the user id ``FORMER_SEAT - seat`` (no one's: computers have -1 … -4)."""


_placing = convert.placing


PLAYED_IN = (
    "FROM games g JOIN seats s ON s.game = g.id "
    "WHERE g.guild IS ? AND s.user_id = ? AND g.status IN ('over', 'abandoned')"
)
"""A user's seats in a server's finished games (guild, user id): what `forget` renames."""


class HistoryStorage(ClaimStorage):
    """Queries of the history; `Storage` supplies ``db`` and the lock."""

    async def ratings(self, guild: int, players: Sequence[str]) -> dict[str, Rating]:
        """The current ratings of ``players`` in ``guild`` (those never rated are left out)."""
        marks = ", ".join("?" for _ in players)
        async with self._lock:
            rows = await self._all(
                f"SELECT player, mu, sigma FROM ratings WHERE guild = ? AND player IN ({marks})",
                (guild, *players),
            )
        return {r["player"]: Rating(r["mu"], r["sigma"]) for r in rows}

    async def _store_results(self, game_id: int, guild: int, places: Sequence[Placing], now: int) -> None:
        """Store a finished game's placings and its players' new ratings (in the caller's transaction)."""
        await self._many(
            "INSERT INTO results (game, seat, guild, player, user_id, name, rank, score, gold, citizens, "
            "bonus, hunger_vp, resigned, hungry_years, built, mu_before, sigma_before, mu_after, "
            "sigma_after, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, p.seat, guild, p.player, p.user_id, p.name, p.rank, p.score, p.gold, p.citizens,
              p.bonus, p.hunger_vp, int(p.resigned), p.hungry_years, json.dumps(p.built), p.before.mu,
              p.before.sigma, p.after.mu, p.after.sigma, now) for p in places],
        )  # fmt: skip
        latest = {p.player: p for p in places}  # one row per player (several computers of one level)
        await self._many(
            "INSERT INTO ratings (guild, player, name, mu, sigma, games) VALUES (?, ?, ?, ?, ?, 1) "
            "ON CONFLICT (guild, player) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
            "sigma = excluded.sigma, games = games + 1",
            [(guild, p.player, p.name, p.after.mu, p.after.sigma) for p in latest.values()],
        )

    async def leaderboard(self, guild: int) -> list[Standing]:
        """Every rated player of ``guild``, best first."""
        async with self._lock:
            rows = await self._all(
                "SELECT * FROM ratings WHERE guild = ? ORDER BY mu - 3 * sigma DESC, games DESC, player",
                (guild,),
            )
        return [Standing(r["player"], r["name"], Rating(r["mu"], r["sigma"]), r["games"]) for r in rows]

    async def results_of(self, guild: int, player: str) -> list[Result]:
        """A player's results in ``guild``, oldest first."""
        async with self._lock:
            rows = await self._all(
                "SELECT * FROM results WHERE guild = ? AND player = ? ORDER BY game, seat", (guild, player)
            )
        return [Result(r["game"], r["ended_at"], _placing(r)) for r in rows]

    async def finished_games(self, guild: int, last: int) -> list[Finished]:
        """The ``last`` games finished in ``guild``, newest first, with the final post's message."""
        async with self._lock:
            games = await self._all(
                "SELECT g.id, g.channel, MAX(r.ended_at) AS ended_at, (SELECT o.message_id FROM outbox o "
                "WHERE o.game = g.id AND o.version = g.version ORDER BY o.id LIMIT 1) AS message_id "
                "FROM games g JOIN results r ON r.game = g.id WHERE r.guild = ? "
                "GROUP BY g.id ORDER BY g.id DESC LIMIT ?",
                (guild, last),
            )
            seats = await self._all(
                f"SELECT * FROM results WHERE game IN ({', '.join('?' for _ in games)}) ORDER BY game, seat",
                tuple(g["id"] for g in games),
            )
        places: dict[int, list[Placing]] = {}
        for r in seats:
            places.setdefault(r["game"], []).append(_placing(r))
        return [
            Finished(g["id"], g["ended_at"], g["channel"], g["message_id"], places[g["id"]]) for g in games
        ]

    async def game_results(self, game_id: int) -> list[Placing]:
        """The placings of a finished game by seat ([] when it has none: not finished, or not rated)."""
        async with self._lock:
            rows = await self._all("SELECT * FROM results WHERE game = ? ORDER BY seat", (game_id,))
        return [_placing(r) for r in rows]

    async def unreplayed(self, shards: Shards | None = None) -> list[int]:
        """The finished games (of servers on ``shards``) whose replay has not been stored yet."""
        async with self._lock:
            rows = await self._all(
                "SELECT id FROM games WHERE status = 'over' AND replayed = 0 "
                "AND EXISTS (SELECT 1 FROM results WHERE game = games.id) "
                f"AND {on_shards('guild')} ORDER BY id",
                sqlite_params(shards),
            )
        return [r["id"] for r in rows]

    async def store_replay(self, game_id: int, posts: Sequence[Post], now: int) -> list[int] | None:
        """Mark the game's replay as made and store its ``posts``, once: None if it was already made."""
        async with self._transaction():
            cur = await self.db.execute(
                "UPDATE games SET replayed = 1 WHERE id = ? AND replayed = 0", (game_id,)
            )
            if cur.rowcount != 1:
                return None
            return await self._enqueue(game_id, posts, now)

    async def games_to_forget(self, guild: int, user_id: int) -> int:
        """How many of ``guild``'s finished games the user played in (`forget` renames them)."""
        async with self._lock:
            rows = await self._all(
                f"SELECT COUNT(*) AS n {PLAYED_IN}",
                (guild or None, user_id),
            )
        return int(rows[0]["n"])

    async def forget(self, guild: int, user_id: int) -> int:
        """Take a player's name out of ``guild``'s finished games (and delete their rating): how
        many games they were in. Their seats stay, as `FORMER`, no longer tied to their user id."""
        key = f"user:{user_id}"
        async with self._transaction():
            games = await self._all(
                f"SELECT g.id, s.seat {PLAYED_IN}",
                (guild or None, user_id),
            )
            for g in games:
                await self.db.execute(
                    "UPDATE games SET record = json_set(record, ?, ?), snapshot = json_set(snapshot, ?, ?) "
                    "WHERE id = ?",
                    (f"$.players[{g['seat']}]", FORMER, f"$.players[{g['seat']}].name", FORMER, g["id"]),
                )
                await self.db.execute(
                    "UPDATE seats SET name = ?, user_id = ? WHERE game = ? AND seat = ?",
                    (FORMER, FORMER_SEAT - g["seat"], g["id"], g["seat"]),
                )
            await self.db.execute(
                "UPDATE results SET player = ?, user_id = NULL, name = ? WHERE guild = ? AND player = ?",
                (FORMER_KEY, FORMER, guild, key),
            )
            await self.db.execute("DELETE FROM ratings WHERE guild = ? AND player = ?", (guild, key))
        return len(games)
