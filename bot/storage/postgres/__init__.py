"""The storage on PostgreSQL through asyncpg (a pool of connections; no libpq): the same
behaviour as the SQLite storage (`bot.storage.protocol`), the same tables from its own numbered
migrations (``migrations/postgres/``), in the same parts — games and seats (`games`), the move log (`moves`),
preferences and seats (`players`), clocks (`clocks`), the outbox (`outbox`), the claims
(`claims`), the history (`history`), the seasons (`seasons`), the tournaments (`tournaments`), the
rank roles (`ranks`), the server pages (`server_pages`) — over one pool (`base`).

Several processes may share the database: every change to a game is serialised by its row
(the version check of `moves.Moves.commit_moves`, row locks in the lobby), a channel's
announcements get their ids in commit order, and clocks and announcements are claimed with
``FOR UPDATE SKIP LOCKED`` and a lease (`clocks`, `outbox`).
"""

from __future__ import annotations

from bot.storage.parts import Parts
from bot.storage.postgres.base import POOL_SIZE, Database
from bot.storage.postgres.claims import Claims
from bot.storage.postgres.clocks import Clocks
from bot.storage.postgres.games import Games
from bot.storage.postgres.history import History
from bot.storage.postgres.moves import Moves
from bot.storage.postgres.outbox import Outbox
from bot.storage.postgres.players import Players
from bot.storage.postgres.ranks import Ranks
from bot.storage.postgres.seasons import Seasons
from bot.storage.postgres.server_pages import ServerPages
from bot.storage.postgres.tournaments import Tournaments
from bot.storage.schema import PG_MIGRATIONS

__all__ = ["PG_MIGRATIONS", "PostgresStorage"]


class PostgresStorage(Parts[Database]):
    """The bot's database on PostgreSQL, by part. Open with `PostgresStorage.open(url)`; close with
    `close()`."""

    def __init__(self, db: Database) -> None:
        super().__init__(
            db,
            Games(db),
            Moves(db),
            Players(db),
            Clocks(db),
            Outbox(db),
            Claims(db),
            History(db),
            Seasons(db),
            Tournaments(db),
            Ranks(db),
            ServerPages(db),
        )

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE) -> PostgresStorage:
        """Connect to ``url`` (``postgresql://user:password@host:port/database``) and apply any
        migration the database lacks."""
        store = cls(await Database.connect(url, pool_size=pool_size))
        try:
            await store.migrate()
        except BaseException:
            await store.close()
            raise
        return store
