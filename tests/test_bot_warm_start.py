"""The worker processes start and warm while the bot logs in, not once it is connected, and the bot
connects to the gateway once its running games are drawn ahead (a bounded wait): the first board
after a restart is drawn by a warm worker (through real discord.py on the fake Discord)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from fakediscord.driver import running
from fakediscord.fixtures import fake_discord
from test_bot_support import FakeRenderer, open_service, start_game
from test_e2e_web import readiness, web_server

from bot.client.bot import CittaBot
from bot.service.thread_workers import ThreadWorkers
from bot.service.workers import ProcessWorkers
from bot.web.server import WebServer
from engine import View

__all__ = ["fake_discord"]


class Watched(ProcessWorkers):
    """Workers that note, when they are started, how far the bot had got (and start nothing)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.bot: CittaBot | None = None
        self.started: list[tuple[bool, bool]] = []
        """(logged in, ready) at each `start`."""

    async def start(self) -> None:
        assert self.bot is not None
        self.started.append((self.bot.user is not None, self.bot.is_ready()))


async def test_the_workers_start_warming_before_the_bot_has_logged_in(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    workers = Watched()
    bot = CittaBot(db_path=tmp_path / "c.db", renderer=None, sync_commands=False, workers=workers)
    workers.bot = bot
    async with running(bot, fake_discord):
        assert bot.is_ready()
    assert workers.started == [(False, False)], "started once, before login (so before the gateway)"


class Held(FakeRenderer):
    """Draws a post only once ``go`` is set (as a worker still warming up would), saying when it began."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()
        self.began = threading.Event()

    def post(self, view: View, **options: Any) -> list[tuple[str, bytes, str]]:
        self.began.set()
        self.go.wait(30)
        return super().post(view, **options)


@contextlib.asynccontextmanager
async def restarted(
    fake: FakeDiscord, path: Path, hold: float, web: WebServer | None = None
) -> AsyncIterator[tuple[CittaBot, Held, asyncio.Event]]:
    """A bot started on a database with a running game (something to draw ahead) whose drawing
    waits for ``go``; the event set once the bot is ready. The bot runs in a task: it is closed on exit."""
    svc = await open_service(path)
    await start_game(svc, 2, channel=fake.channel.id)
    renderer, ready, done = Held(), asyncio.Event(), asyncio.Event()
    bot = CittaBot(
        db_path=path, renderer=renderer, sync_commands=False, workers=ThreadWorkers(), predraw_hold=hold,
        web=web,
    )  # fmt: skip

    async def run() -> None:
        async with running(bot, fake, timeout=30):
            ready.set()
            await done.wait()

    task = asyncio.create_task(run())
    try:
        yield bot, renderer, ready
    finally:
        renderer.go.set()
        done.set()
        await task


async def test_the_bot_connects_to_the_gateway_once_its_running_games_are_drawn_ahead(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The first move a player can make after a restart finds its game drawn ahead (by a warm
    worker): until then the bot is logged in but not connected, and ``/readyz`` says why."""
    async with (
        web_server() as web,
        restarted(fake_discord, tmp_path / "h.db", 30, web) as (bot, drawn, ready),
    ):
        assert await asyncio.to_thread(drawn.began.wait, 10), "the running game is being drawn ahead"
        await asyncio.sleep(0.3)
        assert bot.user is not None and bot.holding(), "logged in, holding"
        assert not ready.is_set() and not fake_discord.connected, "not connected to the gateway"
        status, body = await readiness(web)
        assert status == 503
        assert body["checks"]["discord"]["detail"] == "drawing the running games ahead, then connecting"
        drawn.go.set()
        await asyncio.wait_for(ready.wait(), 10)
        assert len(drawn.calls) == 1 and not bot.holding()
        assert (await readiness(web))[1]["checks"]["discord"]["detail"] == "logged in"


async def test_the_bot_connects_after_the_hold_even_if_its_games_are_not_drawn_ahead_yet(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A pre-draw that takes too long (a worker that cannot start, a slow host) delays the bot's
    connection by the hold at most; it goes on meanwhile."""
    caplog.set_level(logging.INFO)
    async with restarted(fake_discord, tmp_path / "h.db", 0.5) as (bot, drawn, ready):
        began = time.perf_counter()
        await asyncio.wait_for(ready.wait(), 10)
        assert drawn.began.is_set() and drawn.calls == [], "connected while the drawing still waits"
        assert time.perf_counter() - began < 5 and bot.is_ready() and not bot.holding()
        drawn.go.set()
        await fake_discord.wait_for(lambda: "Drew ahead the posts of 1 running game(s)" in caplog.text, 10)
