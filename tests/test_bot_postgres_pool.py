"""The PostgreSQL backend's pool: a connection goes back to it without asyncpg's reset query
(a round trip after every query), so it must come back as a fresh one would be — no
transaction left open, no advisory lock held — after a transaction that failed and after the
migrations' lock."""

from __future__ import annotations

import asyncpg
import pytest

from bot.storage import open_storage
from bot.storage.postgres import PostgresStorage
from bot.storage.postgres.base import POOL_SIZE

LOCKS = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"


async def test_a_connection_comes_back_to_the_pool_with_no_transaction_and_no_lock(postgres: str) -> None:
    store = await open_storage(postgres)
    assert isinstance(store, PostgresStorage)
    try:
        await store.migrate()  # takes and releases its session-level advisory lock again
        for _ in range(POOL_SIZE):
            with pytest.raises(asyncpg.DivisionByZeroError):
                async with store.db.transaction() as conn:
                    await conn.execute("SELECT pg_advisory_xact_lock(77)")
                    await conn.execute("SELECT 1 / 0")
        held = [await store.db.pool.acquire() for _ in range(POOL_SIZE)]  # every connection of the pool
        try:
            for conn in held:
                assert not conn.is_in_transaction(), "the server's own word (ReadyForQuery: idle)"
                assert await conn.fetchval(LOCKS) == 0, "no advisory lock is held by any connection"
        finally:
            for conn in held:
                await store.db.pool.release(conn)
    finally:
        await store.close()
