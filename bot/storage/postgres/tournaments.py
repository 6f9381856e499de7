"""The tournaments on PostgreSQL (see `bot.storage.tournaments_protocol`): the same queries as the
SQLite part (`bot.storage.sqlite.tournaments`); of two changes at one version, the second updates no
row and stores nothing."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from bot.results import Post
from bot.storage import queries
from bot.storage.convert import tournament
from bot.storage.postgres.base import Part, affected
from bot.storage.postgres.outbox import store_posts
from bot.storage.shards import Shards, postgres_params
from bot.storage.shards import postgres_on_shards as on_shards
from bot.storage.tournaments_protocol import Stale, TournamentRow, TournamentStatus

ACTIVE = queries.ACTIVE_TOURNAMENTS.format(on_shards=on_shards("guild", 1))


class Tournaments(Part):
    """Queries of the tournaments (see `bot.storage.tournaments_protocol.TournamentsProtocol`)."""

    async def create(
        self, guild: int, channel: int, state: dict[str, Any], now: int,
        posts: Callable[[int], Sequence[Post]],
    ) -> tuple[int, list[int]]:  # fmt: skip
        async with self.db.transaction() as conn:
            made = await conn.fetchval(queries.NEW_TOURNAMENT, guild, channel, json.dumps(state), now, now)
            ids = await store_posts(conn, None, posts(made), now)
        self.db.woken(ids)
        return made, ids

    async def get(self, tournament_id: int) -> TournamentRow | None:
        r = await self.db.one(queries.TOURNAMENT, tournament_id)
        return tournament(r) if r else None

    async def of_guild(self, guild: int) -> list[TournamentRow]:
        return [tournament(r) for r in await self.db.all(queries.GUILD_TOURNAMENTS, guild)]

    async def active(self, shards: Shards | None = None) -> list[TournamentRow]:
        return [tournament(r) for r in await self.db.all(ACTIVE, *postgres_params(shards))]

    async def change(
        self, row: TournamentRow, *, status: TournamentStatus, state: Callable[[list[int]], dict[str, Any]],
        posts: Sequence[Post], now: int,
    ) -> list[int] | None:  # fmt: skip
        try:
            async with self.db.transaction() as conn:
                ids = await store_posts(conn, None, posts, now)
                changed = await conn.execute(
                    queries.CHANGE_TOURNAMENT, status, json.dumps(state(ids)), now, row.id, row.version
                )
                if affected(changed) != 1:
                    raise Stale(row.id)
        except Stale:
            return None
        self.db.woken(ids)
        return ids
