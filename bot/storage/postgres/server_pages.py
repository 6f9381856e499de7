"""A server's page on PostgreSQL (see `bot.storage.server_pages_protocol`): the same queries as the
SQLite part (`bot.storage.sqlite.server_pages`). Of two switches on at once, one token is stored
(the server's primary key) and both get it."""

from __future__ import annotations

from bot.storage import convert, queries
from bot.storage.postgres.base import Part
from bot.storage.rows import GameRow


class ServerPages(Part):
    """Queries of the server pages (see `bot.storage.server_pages_protocol.ServerPagesProtocol`)."""

    async def token(self, guild: int) -> str | None:
        token = await self.db.value(queries.SERVER_PAGE, guild)
        return None if token is None else str(token)

    async def switch_on(self, guild: int, fresh: str) -> str:
        async with self.db.transaction() as conn:
            await conn.execute(queries.SERVER_PAGE_ON, guild, fresh)
            token = await conn.fetchval(queries.SERVER_PAGE, guild)
        return str(token)

    async def renew(self, guild: int, fresh: str) -> None:
        await self.db.execute(queries.SERVER_PAGE_RENEWED, guild, fresh)

    async def switch_off(self, guild: int) -> bool:
        return await self.db.execute(queries.SERVER_PAGE_OFF, guild) == 1

    async def server_by_page(self, token: str) -> int | None:
        guild = await self.db.value(queries.SERVER_BY_PAGE, token)
        return None if guild is None else int(guild)

    async def running_games(self, guild: int, last: int) -> list[GameRow]:
        return [convert.game(r) for r in await self.db.all(queries.RUNNING_OF_SERVER, guild, last)]
