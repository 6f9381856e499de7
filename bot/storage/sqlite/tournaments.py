"""The tournaments in SQLite (see `bot.storage.tournaments_protocol`): one row each, its document
changed whole at a version, with its posts, in one transaction."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.results import Post
from bot.storage import queries
from bot.storage.convert import tournament
from bot.storage.queries import qmarks
from bot.storage.shards import Shards, sqlite_params
from bot.storage.shards import sqlite_on_shards as on_shards
from bot.storage.sqlite.base import Part, fetch_one
from bot.storage.sqlite.outbox import store_posts
from bot.storage.tournaments_protocol import Stale, TournamentRow, TournamentStatus

ACTIVE = queries.ACTIVE_TOURNAMENTS.format(on_shards=on_shards("guild"))


class Tournaments(Part):
    """Queries of the tournaments (see `bot.storage.tournaments_protocol.TournamentsProtocol`)."""

    async def create(
        self, guild: int, channel: int, state: dict[str, Any], now: int,
        posts: Callable[[int], Sequence[Post]],
    ) -> tuple[int, list[int]]:  # fmt: skip
        async with self.db.transaction() as conn:
            r = await fetch_one(
                conn, qmarks(queries.NEW_TOURNAMENT), (guild, channel, json.dumps(state), now, now)
            )
            assert r is not None
            ids = await store_posts(conn, None, posts(r["id"]), now)
        self.db.woken(ids)
        return r["id"], ids

    async def get(self, tournament_id: int) -> TournamentRow | None:
        r = await self.db.one(qmarks(queries.TOURNAMENT), (tournament_id,))
        return tournament(r) if r else None

    async def of_guild(self, guild: int) -> list[TournamentRow]:
        return [tournament(r) for r in await self.db.all(qmarks(queries.GUILD_TOURNAMENTS), (guild,))]

    async def active(self, shards: Shards | None = None) -> list[TournamentRow]:
        return [tournament(r) for r in await self.db.all(ACTIVE, sqlite_params(shards))]

    async def change(
        self, row: TournamentRow, *, status: TournamentStatus, state: Callable[[list[int]], dict[str, Any]],
        posts: Sequence[Post], now: int,
    ) -> list[int] | None:  # fmt: skip
        try:
            async with self.db.transaction() as conn:
                ids = await store_posts(conn, None, posts, now)
                cur = await conn.execute(
                    qmarks(queries.CHANGE_TOURNAMENT),
                    (status, json.dumps(state(ids)), now, row.id, row.version),
                )
                if cur.rowcount != 1:
                    raise Stale(row.id)
        except Stale:
            return None
        self.db.woken(ids)
        return ids
