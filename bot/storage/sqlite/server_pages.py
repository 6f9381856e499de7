"""A server's page in SQLite (see `bot.storage.server_pages_protocol`): its token while it is on,
the server a token finds, the running games it lists."""

from __future__ import annotations

from bot.storage import convert, queries
from bot.storage.queries import qmarks
from bot.storage.rows import GameRow
from bot.storage.sqlite.base import Part, fetch_one


class ServerPages(Part):
    """Queries of the server pages (see `bot.storage.server_pages_protocol.ServerPagesProtocol`)."""

    async def token(self, guild: int) -> str | None:
        row = await self.db.one(qmarks(queries.SERVER_PAGE), (guild,))
        return None if row is None else str(row["token"])

    async def switch_on(self, guild: int, fresh: str) -> str:
        async with self.db.transaction() as conn:
            await conn.execute(qmarks(queries.SERVER_PAGE_ON), (guild, fresh))
            row = await fetch_one(conn, qmarks(queries.SERVER_PAGE), (guild,))
        assert row is not None
        return str(row["token"])

    async def renew(self, guild: int, fresh: str) -> None:
        await self.db.execute(qmarks(queries.SERVER_PAGE_RENEWED), (guild, fresh))

    async def switch_off(self, guild: int) -> bool:
        return await self.db.execute(qmarks(queries.SERVER_PAGE_OFF), (guild,)) == 1

    async def server_by_page(self, token: str) -> int | None:
        row = await self.db.one(qmarks(queries.SERVER_BY_PAGE), (token,))
        return None if row is None else int(row["guild"])

    async def running_games(self, guild: int, last: int) -> list[GameRow]:
        return [convert.game(r) for r in await self.db.all(qmarks(queries.RUNNING_OF_SERVER), (guild, last))]
