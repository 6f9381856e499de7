"""Storage: all SQL of the bot (SQLite through aiosqlite in `sqlite`, its queries of clocks,
the outbox and the history beside it), the rows it returns (`rows`), the outbox's payloads
(`envelope`) and the numbered migrations (``migrations/``)."""

from __future__ import annotations

from bot.storage.rows import Clock, GameRow, GameSettings, MoveRow, Prefs, SeatRow, Secret
from bot.storage.sqlite import MIGRATIONS, ChannelBusy, Storage, migration_files

__all__ = [
    "MIGRATIONS", "ChannelBusy", "Clock", "GameRow", "GameSettings", "MoveRow", "Prefs", "SeatRow", "Secret",
    "Storage", "migration_files",
]  # fmt: skip
