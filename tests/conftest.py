"""Shared test setup: the tests' own helper modules are importable; shared fixtures, among them
the storage backends (``database``: an SQLite file, then a database on a real PostgreSQL server
that `pgserver` starts once per session)."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from pgserver import PgServer, PgServerMissing
from test_bot_support import OPENED, FakeClock, Table, open_service

from bot.service.context import Context
from bot.storage import StorageProtocol, open_storage

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(autouse=True)
async def close_what_a_test_left_open() -> AsyncIterator[None]:
    """Close the services a test opened and left open (it failed before closing them)."""
    yield
    while OPENED:
        with contextlib.suppress(Exception):
            await OPENED.pop().close()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PgServer]:
    """A PostgreSQL server of this machine's binaries for the whole session; never skipped:
    the tests fail when the binaries are missing."""
    try:
        server = PgServer.start()
    except PgServerMissing as e:
        pytest.fail(str(e), pytrace=False)
    yield server
    server.stop()


@pytest.fixture
async def postgres(postgres_server: PgServer) -> AsyncIterator[str]:
    """The URL of a new, empty PostgreSQL database (dropped after the test)."""
    async with postgres_server.database() as url:
        yield url


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Path | str]:
    """Where a test's storage lives, once per backend: an SQLite file, or a PostgreSQL URL."""
    if request.param == "sqlite":
        yield tmp_path / "citta.db"
        return
    server: PgServer = request.getfixturevalue("postgres_server")
    async with server.database() as url:
        yield url


@pytest.fixture
async def store(database: Path | str) -> AsyncIterator[StorageProtocol]:
    """The storage alone on a fresh database (each backend)."""
    opened = await open_storage(database)
    yield opened
    await opened.close()


@pytest.fixture
async def table(database: Path | str) -> AsyncIterator[Table]:
    t = Table(database, FakeClock())
    await t.open()
    yield t
    await t.svc.close()


@pytest.fixture
async def svc(database: Path | str) -> AsyncIterator[Context]:
    """A service on a fresh database (each backend), with the fake renderer and clock."""
    service = await open_service(database)
    yield service
    await service.close()
