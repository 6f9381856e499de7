"""Pytest fixtures: a fake Discord on 127.0.0.1 with discord.py pointed at it.

Import them explicitly into a test module: ``from fakediscord.fixtures import fake_discord``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import discord.asset
import discord.gateway
import discord.http
import pytest
import yarl

from .driver import FakeDiscord


@contextlib.asynccontextmanager
async def serve(**kwargs: Any) -> AsyncIterator[FakeDiscord]:
    """Start a FakeDiscord and point discord.py's REST, gateway and CDN at it; undo both on exit."""
    fake = FakeDiscord(**kwargs)
    await fake.start()
    saved = (
        discord.http.Route.BASE,
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
        discord.asset.Asset.BASE,
    )
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    discord.asset.Asset.BASE = f"{fake.http_url}/cdn"  # avatars etc. must not leave loopback either
    try:
        yield fake
    finally:
        (
            discord.http.Route.BASE,
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            discord.asset.Asset.BASE,
        ) = saved
        await fake.stop()


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running fake; at teardown the test fails on unanswered interactions, unknown routes, stuck defers."""
    async with serve() as fake:
        yield fake
        fake.check()
