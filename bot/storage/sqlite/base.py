"""The SQLite storage's connection: one aiosqlite connection that every part shares, the lock
each query holds (so a transaction is never interleaved with another query), the write
transactions, and the schema from the numbered files in ``migrations/``.

The parts' helpers that run inside a transaction another part holds take its connection
(``conn``) and hold no lock themselves.

Every query goes through the `Database`'s methods, and each of them turns SQLite's faults of the
file — it cannot be read or written ("disk I/O error"), opened, or written at all, or it is held
too long by another process — into `bot.errors.StorageUnavailable`, and a full disk ("database or
disk is full", also `PRAGMA max_page_count` reached) into `bot.errors.StorageFull` (`guarded`).
A transaction that fails is rolled back whole (SQLite may have rolled it back itself already).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable, Collection, Iterator
from pathlib import Path
from typing import Any

import aiosqlite

from bot.errors import StorageFull, StorageUnavailable
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


UNAVAILABLE = frozenset(
    {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY,
     sqlite3.SQLITE_NOMEM}
)  # fmt: skip
"""SQLite's primary result codes of a file that cannot be used now (`guarded`)."""


def fault(error: sqlite3.Error) -> StorageUnavailable | None:
    """``error`` as the storage's fault (None: not a fault of the file, e.g. a constraint or a bug).

    >>> full = sqlite3.OperationalError("database or disk is full")
    >>> full.sqlite_errorcode, full.sqlite_errorname = sqlite3.SQLITE_FULL, "SQLITE_FULL"
    >>> fault(full)
    StorageFull('SQLite: database or disk is full (SQLITE_FULL)')
    >>> io = sqlite3.OperationalError("disk I/O error")
    >>> io.sqlite_errorcode = sqlite3.SQLITE_IOERR_WRITE  # an extended code: its low byte is IOERR
    >>> type(fault(io)).__name__, fault(sqlite3.IntegrityError("UNIQUE constraint failed"))
    ('StorageUnavailable', None)
    """
    code = getattr(error, "sqlite_errorcode", None)
    if not isinstance(code, int):
        return None
    name = getattr(error, "sqlite_errorname", None) or str(code)
    if code & 0xFF == sqlite3.SQLITE_FULL:
        return StorageFull(f"SQLite: {error} ({name})")
    if code & 0xFF in UNAVAILABLE:
        return StorageUnavailable(f"SQLite: {error} ({name})")
    return None


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """Raise SQLite's faults of the file as `StorageUnavailable` (`fault`); the rest as they are."""
    try:
        yield
    except sqlite3.Error as e:
        found = fault(e)
        if found is None:
            raise
        raise found from e


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
        with guarded():
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
            with guarded():
                yield self.conn

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, held, in one write transaction: committed at the end, rolled back on
        an error (also when the commit itself fails: a full disk may refuse it)."""
        async with self.lock:
            with guarded():
                await self.conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self.conn
                    await self.conn.execute("COMMIT")
                except BaseException:
                    await self._roll_back()
                    raise

    async def _roll_back(self) -> None:
        """End the failed transaction, unless SQLite ended it (it rolls back by itself after some
        faults, a full disk or an I/O error); a rollback that fails too leaves the first error
        to be told (SQLite rolls back what was never committed when it next opens the file)."""
        if self.conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                await self.conn.execute("ROLLBACK")

    def woken(self, ids: Collection[int]) -> None:
        """Tell the delivery task, once the transaction that stored ``ids`` is committed."""
        if ids and self.on_enqueue is not None:
            self.on_enqueue()

    async def one(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Row | None:
        async with self.lock:
            with guarded():
                return await fetch_one(self.conn, sql, params)

    async def all(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        async with self.lock:
            with guarded():
                return await fetch_all(self.conn, sql, params)

    async def execute(self, sql: str, params: tuple[Any, ...]) -> int:
        """Run one statement (committed by itself); the rows it changed."""
        async with self.lock:
            with guarded():
                cur = await self.conn.execute(sql, params)
            return cur.rowcount

    async def many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """`many` on the connection, held (each statement committed by itself)."""
        async with self.lock:
            with guarded():
                await many(self.conn, sql, rows)

    # --- schema ---------------------------------------------------------------------

    async def schema_version(self) -> int:
        async with self.lock:
            with guarded():
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
