"""The SQLite storage's connection: one aiosqlite connection that every part shares, the lock
each query holds (so a transaction is never interleaved with another query), the write
transactions, and the schema from the numbered files in ``migrations/``.

The parts' helpers that run inside a transaction another part holds take its connection
(``conn``) and hold no lock themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable, Collection
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.schema import MIGRATIONS, VERSION, VERSION_TABLE, migration_files

# One trip to the database's thread each (`execute_fetchall`), not three (execute, fetch, close):
# a move asks a few dozen of these, and each trip wakes the thread and then the event loop.


async def fetch_one(conn: aiosqlite.Connection, sql: str, params: tuple[Any, ...]) -> sqlite3.Row | None:
    rows: list[sqlite3.Row] = list(await conn.execute_fetchall(sql, params))
    return rows[0] if rows else None


async def fetch_all(conn: aiosqlite.Connection, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
    return list(await conn.execute_fetchall(sql, params))


async def many(conn: aiosqlite.Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """``sql`` for each of ``rows``; no trip to the database for none (a move has no secrets,
    undos or absences most of the time)."""
    if rows:
        await conn.executemany(sql, rows)


class Database:
    """The connection the parts share, its lock and its transactions; `on_enqueue` is woken
    after a transaction that stored announcements (`woken`)."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()
        self.on_enqueue: Callable[[], None] | None = None

    @classmethod
    async def connect(cls, path: str | Path) -> Database:
        """Open (or create) the database file (``:memory:``: one in memory)."""
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        conn.row_factory = sqlite3.Row
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute("PRAGMA busy_timeout = 5000")
        if str(path) != ":memory:":
            await conn.execute("PRAGMA journal_mode = WAL")
        return cls(conn)

    async def close(self) -> None:
        async with self.lock:
            await self.conn.close()

    @contextlib.asynccontextmanager
    async def locked(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, held (several reads seen together, no transaction)."""
        async with self.lock:
            yield self.conn

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, held, in one write transaction: committed at the end, rolled back on
        an error."""
        async with self.lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    def woken(self, ids: Collection[int]) -> None:
        """Tell the delivery task, once the transaction that stored ``ids`` is committed."""
        if ids and self.on_enqueue is not None:
            self.on_enqueue()

    async def one(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Row | None:
        async with self.lock:
            return await fetch_one(self.conn, sql, params)

    async def all(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        async with self.lock:
            return await fetch_all(self.conn, sql, params)

    async def execute(self, sql: str, params: tuple[Any, ...]) -> int:
        """Run one statement (committed by itself); the rows it changed."""
        async with self.lock:
            cur = await self.conn.execute(sql, params)
            return cur.rowcount

    async def many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """`many` on the connection, held (each statement committed by itself)."""
        async with self.lock:
            await many(self.conn, sql, rows)

    # --- schema ---------------------------------------------------------------------

    async def schema_version(self) -> int:
        async with self.lock:
            return await self._schema_version()

    async def _schema_version(self) -> int:
        await self.conn.execute(VERSION_TABLE)
        row = await fetch_one(self.conn, VERSION, ())
        return int(row[0]) if row and row[0] is not None else 0

    async def migrate(self, folder: Path = MIGRATIONS) -> int:
        """Apply the migrations newer than the database, each in its own transaction."""
        async with self.lock:
            current = await self._schema_version()
            for number, path in migration_files(folder):
                if number <= current:
                    continue
                sql = path.read_text(encoding="utf-8")
                await self.conn.executescript(
                    f"BEGIN;\n{sql}\nINSERT INTO schema_version (version) VALUES ({number});\nCOMMIT;"
                )
                current = number
            return current


class Part:
    """A part of the storage: its queries over the shared `Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db
