"""The worker processes start and warm while the bot logs in, not once it is connected: the first
board after a restart is drawn by a warm worker (through real discord.py on the fake Discord)."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord.driver import running
from fakediscord.fixtures import fake_discord

from bot.client.bot import CittaBot
from bot.service.workers import ProcessWorkers

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
