"""A server's seasons on PostgreSQL (see `bot.storage.seasons_protocol`): the same queries as the
SQLite part (`bot.storage.sqlite.seasons`). Of two configurations at once one season starts (the
unique running season per server); of two closes at once, the second finds the season announced."""

from __future__ import annotations

from collections.abc import Sequence

from bot.results import Post
from bot.storage import queries
from bot.storage.convert import by_game, season, settings
from bot.storage.postgres.base import Part, affected
from bot.storage.postgres.outbox import store_posts
from bot.storage.rows import Placing, Season, SeasonSettings
from bot.storage.shards import Shards, postgres_params
from bot.storage.shards import postgres_on_shards as on_shards

DUE = queries.DUE_SEASONS.format(now="$1", on_shards=on_shards("guild", 2))


class Seasons(Part):
    """Queries of the seasons (see `bot.storage.seasons_protocol.SeasonsProtocol`)."""

    async def settings(self, guild: int) -> SeasonSettings | None:
        r = await self.db.one(queries.SEASON_SETTINGS, guild)
        return settings(r) if r else None

    async def configure(self, settings: SeasonSettings, opening: Season | None) -> Season | None:
        s = settings
        async with self.db.transaction() as conn:
            await conn.execute(queries.SET_SEASONS, s.guild, s.length, s.channel, s.language)
            if s.length == "off":
                await conn.execute(queries.DROP_RUNNING, s.guild)
                return None
            if opening is not None:
                o = opening
                await conn.execute(queries.NEW_SEASON, o.guild, o.number, o.starts, o.ends)
            running = await conn.fetchrow(queries.RUNNING_SEASON, s.guild)
            return season(running) if running is not None else None

    async def running(self, guild: int) -> Season | None:
        r = await self.db.one(queries.RUNNING_SEASON, guild)
        return season(r) if r else None

    async def due(self, now: int, shards: Shards | None = None) -> list[Season]:
        return [season(r) for r in await self.db.all(DUE, now, *postgres_params(shards))]

    async def close(
        self, season: Season, *, champion: str | None, name: str | None, posts: Sequence[Post],
        now: int, following: Season | None,
    ) -> list[int] | None:  # fmt: skip
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                queries.CLOSE_SEASON, champion, name, now, season.guild, season.number
            )
            if affected(changed) != 1:
                return None
            if following is not None:
                f = following
                await conn.execute(queries.NEW_SEASON, f.guild, f.number, f.starts, f.ends)
            ids = await store_posts(conn, None, posts, now)
        self.db.woken(ids)
        return ids

    async def past(self, guild: int) -> list[Season]:
        return [season(r) for r in await self.db.all(queries.PAST_SEASONS, guild)]

    async def titles(self, guild: int, player: str) -> list[Season]:
        return [season(r) for r in await self.db.all(queries.TITLES, guild, player)]

    async def results(self, guild: int, starts: int, ends: int) -> list[list[Placing]]:
        return by_game(await self.db.all(queries.SEASON_RESULTS, guild, starts, ends))
