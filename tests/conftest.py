"""Shared test setup: the tests' own helper modules are importable; shared fixtures."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_bot_support import FakeClock, Table, open_service

from bot.service.core import CittaService


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    t = Table(tmp_path / "citta.db", FakeClock())
    await t.open()
    yield t
    await t.svc.close()


@pytest.fixture
async def svc(tmp_path: Path) -> AsyncIterator[CittaService]:
    """A service on a fresh database, with the fake renderer and clock."""
    service = await open_service(tmp_path / "citta.db")
    yield service
    await service.close()
