"""Storage: all SQL of the bot behind one interface (`protocol.StorageProtocol`), made of parts
— games, players, clocks, the outbox, the claims, the history — with two backends beside it in
the same shape (`parts`), one module per part: SQLite through aiosqlite (`sqlite`) and
PostgreSQL through asyncpg (`postgres`), chosen by ``CITTA_DB`` (`backends.open_storage`). The
SQL both dialects write alike is written once (`queries`); which games a process works on and
the claims it takes when several share a database (`shards`); the rows they return (`rows`,
built by `convert`), the outbox's payloads (`envelope`), each backend's numbered migrations
(`schema`: ``migrations/``, ``migrations/postgres/``), and ``python -m bot.storage.copy`` to
move a SQLite database to PostgreSQL."""

from __future__ import annotations

from bot.storage.backends import BadDatabase, open_storage
from bot.storage.protocol import ChannelBusy, StorageProtocol
from bot.storage.rows import Clock, GameRow, GameSettings, MoveRow, Prefs, SeatRow, Secret
from bot.storage.sqlite import MIGRATIONS, Storage, migration_files

__all__ = [
    "MIGRATIONS", "BadDatabase", "ChannelBusy", "Clock", "GameRow", "GameSettings", "MoveRow", "Prefs",
    "SeatRow", "Secret", "Storage", "StorageProtocol", "migration_files", "open_storage",
]  # fmt: skip
