"""The storage in SQLite through aiosqlite: every query is parameterised; the schema comes from
the numbered files in ``migrations/``, applied in order at start-up and remembered in
``schema_version``.

One connection is shared by the parts — games and seats (`games`), the move log (`moves`),
preferences and seats (`players`), clocks (`clocks`), the outbox (`outbox`), the claims
(`claims`), the history (`history`), the seasons (`seasons`), the tournaments (`tournaments`), the
rank roles (`ranks`), the server pages (`server_pages`) — with a lock that every query holds, so a
transaction is never interleaved with another query (`base`); each move is one transaction guarded
by a version check (`moves.Moves.commit_moves`).
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.parts import Parts
from bot.storage.schema import MIGRATIONS, migration_files
from bot.storage.sqlite.base import Database
from bot.storage.sqlite.claims import Claims
from bot.storage.sqlite.clocks import Clocks
from bot.storage.sqlite.games import Games
from bot.storage.sqlite.history import History
from bot.storage.sqlite.moves import Moves
from bot.storage.sqlite.outbox import Outbox
from bot.storage.sqlite.players import Players
from bot.storage.sqlite.ranks import Ranks
from bot.storage.sqlite.seasons import Seasons
from bot.storage.sqlite.server_pages import ServerPages
from bot.storage.sqlite.tournaments import Tournaments

__all__ = ["MIGRATIONS", "Storage", "migration_files"]


class Storage(Parts[Database]):
    """The bot's database in SQLite, by part. Open with `Storage.open(path)`; close with `close()`."""

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
    async def open(cls, path: str | Path) -> Storage:
        """Open (or create) the database and apply any migration it lacks."""
        store = cls(await Database.connect(path))
        await store.migrate()
        return store
