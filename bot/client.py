"""`CittaBot`: the discord.py client, built from explicit settings (nothing read from the environment)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from .errors import CittaError
from .results import Message
from .service import CittaService, Renderer, default_renderer
from .ui import CittaButton, reply, send_post

log = logging.getLogger(__name__)
EXTENSIONS = ("bot.cogs.game",)


def intents() -> discord.Intents:
    """As few as possible: slash commands and buttons need no privileged intent; ``guilds``
    keeps the channel cache that interactions refer to."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class CittaBot(commands.Bot):
    """The La Città bot. ``setup_hook`` opens the database, loads the cogs, registers the
    buttons, starts the clock (deadlines and reminders, every ``tick_seconds``) and syncs the
    slash commands (to ``dev_guild`` at once when given)."""

    def __init__(
        self,
        *,
        db_path: str | Path,
        dev_guild: int | None = None,
        renderer: Renderer | None = default_renderer,
        sync_commands: bool = True,
        tick_seconds: float = 60.0,
        clock: Callable[[], float] = time.time,
        **options: Any,
    ) -> None:
        options.setdefault("intents", intents())
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(command_prefix=commands.when_mentioned, help_command=None, **options)
        self.db_path = db_path
        self.dev_guild = dev_guild
        self.renderer = renderer
        self.sync_commands = sync_commands
        self.clock = clock
        self._service: CittaService | None = None
        self.clock_loop = tasks.loop(seconds=tick_seconds)(self.tick)
        self.clock_loop.before_loop(self._before_tick)

    @property
    def service(self) -> CittaService:
        if self._service is None:
            raise RuntimeError("The bot is not set up yet (setup_hook has not run).")
        return self._service

    async def setup_hook(self) -> None:
        self._service = await CittaService.open(self.db_path, renderer=self.renderer, clock=self.clock)
        self.tree.error(self.on_app_command_error)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        self.add_dynamic_items(CittaButton)
        self.clock_loop.start()
        if self.sync_commands:
            if self.dev_guild is not None:
                guild = discord.Object(id=self.dev_guild)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
            log.info("Synced %d command(s)%s", len(synced), " to the dev guild" if self.dev_guild else "")

    async def _before_tick(self) -> None:
        await self.wait_until_ready()

    async def tick(self) -> None:
        """One turn of the clock: the service decides and stores, then we post (never raises)."""
        try:
            posts = await self.service.tick()
        except Exception:
            log.exception("The clock tick failed")
            return
        for post in posts:
            await send_post(self, post)

    async def on_ready(self) -> None:
        log.info("Logged in as %s (id %s) in %d server(s)", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds))  # fmt: skip

    async def on_app_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Known errors become a short private reply; anything else is logged (and apologised for)."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, CittaError):
            text = f"⚠️ {cause}"
        elif isinstance(cause, app_commands.NoPrivateMessage):
            text = "⚠️ La Città is played in a server channel, not in direct messages."
        elif isinstance(cause, app_commands.CheckFailure | app_commands.TransformerError):
            text = f"⚠️ {cause}"
        else:
            command = interaction.command.qualified_name if interaction.command else "?"
            log.error("Command /%s failed", command, exc_info=cause)
            text = "Something went wrong on my side; the game is unchanged. Please try again."
        try:
            await reply(interaction, Message(text, ephemeral=True))
        except discord.HTTPException:
            log.warning("Could not send the error reply", exc_info=True)

    async def close(self) -> None:
        self.clock_loop.cancel()
        await super().close()
        if self._service is not None:
            await self._service.close()
            self._service = None
