"""Pytest fixtures: a fake Discord on 127.0.0.1 with discord.py pointed at it.

Import them explicitly into a test module: ``from fakediscord.fixtures import fake_discord``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from .driver import FakeDiscord
from .launch import point_discord_at


@contextlib.asynccontextmanager
async def serve(**kwargs: Any) -> AsyncIterator[FakeDiscord]:
    """Start a FakeDiscord and point discord.py's REST, gateway and CDN at it; undo both on exit."""
    fake = FakeDiscord(**kwargs)
    await fake.start()
    restore = point_discord_at(fake.http_url)
    try:
        yield fake
    finally:
        restore()
        await fake.stop()


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running fake; at teardown the test fails on unanswered interactions, unknown routes, stuck defers."""
    async with serve() as fake:
        yield fake
        fake.check()
