"""The storage on PostgreSQL through asyncpg (a pool of connections; no libpq): the same
behaviour as the SQLite storage (`bot.storage.protocol`), the same tables from its own numbered
migrations (``migrations/postgres/``), split by concern like the SQLite side — games and moves
(`games`), clocks and preferences (`clocks`), the outbox (`outbox`), the claims (`claims`), the
history (`history`) on the pool and the schema (`base`).

Several processes may share the database: every change to a game is serialised by its row
(the version check of `PostgresStorage.commit_moves`, row locks in the lobby), a channel's
announcements get their ids in commit order, and clocks and announcements are claimed with
``FOR UPDATE SKIP LOCKED`` and a lease (`claims`).
"""

from __future__ import annotations

from bot.storage.postgres.base import PG_MIGRATIONS, POOL_SIZE
from bot.storage.postgres.games import PgGames

__all__ = ["PG_MIGRATIONS", "PostgresStorage"]


class PostgresStorage(PgGames):
    """The bot's database on PostgreSQL. Open with `PostgresStorage.open(url)`; close with `close()`."""

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresStorage:
        """Connect to ``url`` (``postgresql://user:password@host:port/database``) and apply any
        migration the database lacks."""
        store = cls(await cls.connect(url, pool_size=pool_size))
        try:
            await store.migrate()
        except BaseException:
            await store.close()
            raise
        return store
