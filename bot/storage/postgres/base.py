"""The PostgreSQL storage's connection pool, its transactions and the schema (numbered
migrations from ``migrations/postgres/``).

Every query borrows a connection from one asyncpg pool for one statement or one transaction;
nothing holds a connection between calls, so the same database serves several processes. The
parts' helpers that run inside a transaction another part holds take its connection.

A server that stops, restarts or cannot be reached fails only the queries made meanwhile: each
`Database` method turns the connection's faults (refused, lost, timed out, the server shutting
down or starting up) into `bot.errors.StorageUnavailable`, and a full disk into
`bot.errors.StorageFull` (`guarded`); a transaction that fails is rolled back by the server (its
connection is gone, or asyncpg rolls it back). The pool replaces a closed connection the next
time it lends it, so once the server is back the next query works, in the same process.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable, Collection, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import asyncpg

from bot.errors import StorageFull, StorageUnavailable
from bot.storage.schema import PG_MIGRATIONS, VERSION, VERSION_TABLE, migration_files

POOL_SIZE = 10
"""The connections one process keeps open (a move holds one for its transaction only). All are
opened at start, as asyncpg does by default: no request waits for a connection to be made, so
two copies of one request read the game at the same moment, as they do on SQLite."""
CONNECT_TIMEOUT = 10.0
"""Seconds a new connection may take (asyncpg's default: 60): when the server cannot be reached,
the user in flight is told so (`StorageUnavailable`) rather than kept waiting for a minute."""
MIGRATION_LOCK = (0x43495454, 1)
"""The advisory lock (two int keys: "CITT", 1) held while migrating; the outbox's per-channel
locks use the one-bigint key space, which never overlaps it."""

if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    Connection: TypeAlias = PoolConnectionProxy[asyncpg.Record]
    """A connection borrowed from the pool."""


def affected(status: str) -> int:
    """The row count of a command tag such as ``UPDATE 1`` or ``INSERT 0 3``."""
    return int(status.rsplit(" ", 1)[-1])


async def many(conn: Connection, sql: str, rows: list[tuple[Any, ...]]) -> None:
    """``sql`` for each of ``rows`` on ``conn``; no round trip for none (a move has no secrets,
    undos or absences most of the time)."""
    if rows:
        await conn.executemany(sql, rows)


async def lock_game(conn: Connection, game_id: int) -> str | None:
    """Lock the game's row until the transaction ends: its status (None: no such game). Two
    changes to one game that read before they write, from any process, run one after the other."""
    status: str | None = await conn.fetchval("SELECT status FROM games WHERE id = $1 FOR UPDATE", game_id)
    return status


UNREACHABLE = (
    OSError,  # refused, reset, no such socket, no route
    TimeoutError,  # connecting (asyncpg's ``timeout``) or a query that did not answer
    asyncpg.PostgresConnectionError,  # class 08: the connection failed or does not exist
    asyncpg.exceptions.OperatorInterventionError,  # class 57: shutting down, starting up, cancelled
    asyncpg.exceptions.InsufficientResourcesError,  # class 53: out of memory, too many connections
)
"""The errors of a server that cannot answer now (`guarded`)."""


def fault(error: Exception) -> StorageUnavailable | None:
    """``error`` as the storage's fault (None: not a fault of the connection, e.g. a constraint).
    Its message names the fault's kind and PostgreSQL's words, never the server's address.

    >>> fault(asyncpg.exceptions.DiskFullError("could not extend file: No space left on device"))
    StorageFull('PostgreSQL: DiskFullError: could not extend file: No space left on device')
    >>> fault(ConnectionRefusedError(111, "Connect call failed"))
    StorageUnavailable('PostgreSQL: ConnectionRefusedError')
    >>> fault(asyncpg.exceptions.InterfaceError("connection is closed")) is not None
    True
    >>> fault(asyncpg.exceptions.UniqueViolationError("duplicate key")) is None
    True
    """
    kind = type(error).__name__
    if isinstance(error, asyncpg.exceptions.DiskFullError):
        return StorageFull(f"PostgreSQL: {kind}: {error}")
    if isinstance(error, asyncpg.PostgresError) and isinstance(error, UNREACHABLE):
        return StorageUnavailable(f"PostgreSQL: {kind}: {error}")
    if isinstance(error, UNREACHABLE):  # an OS error's text may name the address: its kind only
        return StorageUnavailable(f"PostgreSQL: {kind}")
    if isinstance(error, asyncpg.InterfaceError) and "closed" in str(error):
        return StorageUnavailable(f"PostgreSQL: {kind}: {error}")
    return None


@contextlib.contextmanager
def guarded() -> Iterator[None]:
    """Raise the connection's faults as `StorageUnavailable` (`fault`); the rest as they are."""
    try:
        yield
    except Exception as e:
        found = fault(e)
        if found is None:
            raise
        raise found from e


async def _keep_session(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """What a connection goes through when it returns to the pool, beyond asyncpg's own (it
    rolls back a transaction left open): nothing. asyncpg's default sends a reset query
    (``pg_advisory_unlock_all(); CLOSE ALL; UNLISTEN *; RESET ALL``) at every release, that is
    after every query: a round trip that cost about 75 µs of the server's CPU and 200 µs of the
    event loop's a query (`scripts/bench_load.py`). This storage leaves no session state to
    reset: it sets no session setting, opens no cursor, listens to nothing, takes its advisory
    locks for the transaction (`pg_advisory_xact_lock`) but the migrations' one, which
    `Database.migrate` releases itself."""


class Database:
    """The pool the parts share and its transactions; `on_enqueue` is woken after a transaction
    that stored announcements (`woken`)."""

    def __init__(self, pool: asyncpg.Pool[asyncpg.Record]) -> None:
        self.pool = pool
        self.on_enqueue: Callable[[], None] | None = None

    @classmethod
    async def connect(cls, dsn: str, *, pool_size: int = POOL_SIZE) -> Database:
        """A pool of ``pool_size`` connections to ``dsn`` (a ``postgresql://`` URL), all opened now."""
        pool: asyncpg.Pool[asyncpg.Record] = await asyncpg.create_pool(
            dsn, min_size=pool_size, max_size=pool_size, reset=_keep_session, timeout=CONNECT_TIMEOUT,
            server_settings={"application_name": "citta-bot"},
        )  # fmt: skip
        return cls(pool)

    async def close(self) -> None:
        await self.pool.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """A connection in a transaction (READ COMMITTED): committed at the end, rolled back on
        an error. Rows a transaction changes stay locked until it ends."""
        with guarded():
            async with self.pool.acquire() as conn, conn.transaction():
                yield conn

    def woken(self, ids: Collection[int]) -> None:
        """Tell the delivery task, once the transaction that stored ``ids`` is committed."""
        if ids and self.on_enqueue is not None:
            self.on_enqueue()

    async def one(self, sql: str, *args: Any) -> asyncpg.Record | None:
        with guarded():
            return await self.pool.fetchrow(sql, *args)

    async def all(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        with guarded():
            return await self.pool.fetch(sql, *args)

    async def value(self, sql: str, *args: Any) -> Any:
        """The first column of the first row."""
        with guarded():
            return await self.pool.fetchval(sql, *args)

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the rows it changed."""
        with guarded():
            return affected(await self.pool.execute(sql, *args))

    # --- schema ---------------------------------------------------------------------

    async def schema_version(self) -> int:
        with guarded():
            async with self.pool.acquire() as conn:
                return await self._schema_version(conn)

    @staticmethod
    async def _schema_version(conn: Connection) -> int:
        await conn.execute(VERSION_TABLE)
        found = await conn.fetchval(VERSION)
        return 0 if found is None else int(found)

    async def migrate(self, folder: Path = PG_MIGRATIONS) -> int:
        """Apply the migrations newer than the database, each in its own transaction, under an
        advisory lock: processes starting together apply each one once."""
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1, $2)", *MIGRATION_LOCK)
            try:
                current = await self._schema_version(conn)
                for number, path in migration_files(folder):
                    if number <= current:
                        continue
                    async with conn.transaction():
                        await conn.execute(path.read_text(encoding="utf-8"))
                        await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
                    current = number
                return current
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1, $2)", *MIGRATION_LOCK)


class Part:
    """A part of the storage: its queries over the shared `Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db
