"""`CittaBot`: the discord.py client, built from explicit settings (nothing read from the environment)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands, tasks

from bot.client.commands import CittaTree, add_commands
from bot.client.components import REGISTERED
from bot.client.measure import http_trace
from bot.client.mentions import COMMANDS
from bot.client.roles import DiscordRoles
from bot.client.sender import DiscordSender
from bot.client.translator import CittaTranslator
from bot.errors import StorageUnavailable
from bot.metrics import Metrics
from bot.results import Outcome
from bot.service import advance as advancing
from bot.service import predraw, process, resume
from bot.service import tick as ticking
from bot.service.context import Context, shards_of
from bot.service.delivery import Deliverer
from bot.service.pictures import Renderer, default_renderer
from bot.service.workers import ProcessWorkers, Workers
from bot.web.server import WebServer

log = logging.getLogger(__name__)
CLOSE_WAIT = 5.0
"""Seconds the bot keeps sending the outbox when it is stopped."""
ANNOUNCE_WAIT = 8.0
"""Seconds a command waits for its announcement to be posted, to tell the actor if it cannot be."""

STORAGE_RETRY = 30.0
"""Seconds the computer players of a game wait to try again when the database failed as they
played (a loop would otherwise stop for good, and their game with it, until the next move)."""


def intents() -> discord.Intents:
    """As few as possible: slash commands and buttons need no privileged intent; ``guilds``
    keeps the channel cache that interactions refer to."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class CittaBot(commands.AutoShardedBot):
    """The La Città bot. ``setup_hook`` opens the database (the service's `Context`), adds the slash
    commands and registers the components (`bot.client.components`), starts the clock (deadlines and
    reminders, every ``tick_seconds``) and syncs the slash commands (to ``dev_guild`` at once when
    given), learning their ids for the mentions in messages (`bot.client.mentions`); then it waits
    for the running games to be drawn ahead, ``predraw_hold`` seconds at most, before the gateway
    is connected (`bot.service.predraw`).

    It runs the shards ``shard_ids`` of ``shard_count`` (without a count, as many as Discord
    recommends, all of them here) and works only on the games of their servers: several
    processes, each with its shards, share one PostgreSQL database (see `bot.storage.shards`)."""

    def __init__(
        self,
        *,
        db_path: str | Path,
        dev_guild: int | None = None,
        renderer: Renderer | None = default_renderer,
        sync_commands: bool = True,
        tick_seconds: float = 60.0,
        clock: Callable[[], float] = time.time,
        workers: Workers | None = None,
        shard_count: int | None = None,
        shard_ids: Sequence[int] | None = None,
        lobbies_per_member: int | None = 3,
        lobby_days: int = 7,
        web: WebServer | None = None,
        predraw_hold: float = predraw.HOLD,
        **options: Any,
    ) -> None:
        self.metrics = Metrics()
        """What the bot counts (`bot.metrics`): its service's, its Discord side's; ``/metrics`` shows them."""
        options.setdefault("intents", intents())
        options.setdefault("http_trace", http_trace(self.metrics))
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        if shard_ids is not None:
            options["shard_ids"] = list(shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned, help_command=None, shard_count=shard_count,
            tree_cls=CittaTree, **options,
        )  # fmt: skip
        self.shard_scope = shards_of(shard_count, shard_ids)
        """The games this process works on: those of the servers on its shards (None: all)."""
        self.db_path = db_path
        self.dev_guild = dev_guild
        self.renderer = renderer
        self.sync_commands = sync_commands
        self.clock = clock
        self.workers: Workers = workers or ProcessWorkers()
        self.lobbies_per_member = lobbies_per_member
        """How many open lobbies one member may host in a server (None: no cap)."""
        self.lobby_days = lobby_days
        """After how many idle days a lobby is closed (`bot.service.stale`)."""
        self.predraw_hold = predraw_hold
        """Seconds at most the bot waits, before it connects, for its running games to be drawn ahead."""
        self._holding = False
        self._service: Context | None = None
        self._deliverer: Deliverer | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._advancing: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self.clock_loop = tasks.loop(seconds=tick_seconds)(self.tick)
        self.clock_loop.before_loop(self._before_tick)
        self.web_url = web.settings.url if web is not None else None
        """The web server's public address (``CITTA_WEB_URL``): the game pages' links."""
        if web is not None:
            web.attach(self)  # its /readyz and /metrics report on this client from now on

    @property
    def service(self) -> Context:
        """The service's context: what every use case works with."""
        if self._service is None:
            raise RuntimeError("The bot is not set up yet (setup_hook has not run).")
        return self._service

    def opened(self) -> Context | None:
        """The service's context once `setup_hook` opened it (None before, and once closed)."""
        return self._service

    def public(self, channel: int) -> bool:
        """Whether @everyone may view the channel or thread ``channel`` (a server's page lists only
        such games: `bot.service.server_page`), from discord.py's cache, never asking Discord (a page
        view costs no Discord call): @everyone's View Channel there with the channel's overwrites
        (``permissions_for(guild.default_role)``); a thread by its parent's; a private thread never;
        a channel the cache does not hold (deleted, another bot's server, an archived thread that
        fell out of it) is not public."""
        found = self.get_channel(channel)
        if not isinstance(found, discord.abc.GuildChannel | discord.Thread):
            return False
        if isinstance(found, discord.Thread) and (found.is_private() or found.parent is None):
            return False
        try:
            return found.permissions_for(found.guild.default_role).view_channel
        except discord.ClientException:  # a thread whose parent is not known
            return False

    def logged_in(self) -> bool:
        """Logged in to Discord, its gateway connected (``/readyz``)."""
        return self.is_ready() and not self.is_closed()

    def holding(self) -> bool:
        """Logged in, and waiting for the running games to be drawn ahead before it connects to the
        gateway (``/readyz`` says so)."""
        return self._holding

    @property
    def deliverer(self) -> Deliverer:
        if self._deliverer is None:
            raise RuntimeError("The bot is not set up yet (setup_hook has not run).")
        return self._deliverer

    async def login(self, token: str) -> None:
        """Start and warm the worker processes (or wait for those ``python -m bot`` started before
        it imported discord.py: `ProcessWorkers.spawn`), then log in: they warm while the bot logs
        in, syncs its commands and connects to the gateway, so the first board after a restart is
        drawn by a warm worker (at ``on_ready`` it came seconds late)."""
        if isinstance(self.workers, ProcessWorkers):
            self._spawn(self.workers.start())
        await super().login(token)

    async def setup_hook(self) -> None:
        self._service = await Context.open(
            self.db_path,
            renderer=self.renderer,
            clock=self.clock,
            workers=self.workers,
            shards=self.shard_scope,
            lobby_limit=self.lobbies_per_member,
            lobby_days=self.lobby_days,
            metrics=self.metrics,
            web_url=self.web_url,
            roles=DiscordRoles(self),
        )
        await process.take_over(self._service)
        drawing = self._spawn(predraw.predraw(self._service))  # the last of the workers' jobs
        self._deliverer = Deliverer.of(self._service, DiscordSender(self))
        await self.tree.set_translator(CittaTranslator())
        add_commands(self.tree, self.dev_guild)
        self.add_dynamic_items(*REGISTERED)
        self.clock_loop.start()
        self._spawn(self._start_up())
        if self.sync_commands:
            synced = await self.tree.sync()
            if self.dev_guild is not None:
                synced += await self.tree.sync(guild=discord.Object(id=self.dev_guild))
            COMMANDS.learn_synced(synced)
            log.info("Synced %d command(s)%s", len(synced), " to the dev guild" if self.dev_guild else "")
        await self._hold(drawing)

    async def _hold(self, drawing: asyncio.Task[int]) -> None:
        """Wait for ``drawing`` (the pre-draw), `predraw_hold` seconds at most, before the gateway is
        connected: the first move a player can make then finds its game drawn ahead."""
        self._holding = True
        try:
            await asyncio.wait_for(asyncio.shield(drawing), self.predraw_hold)
        except TimeoutError:
            log.info("Connecting while the running games are still being drawn ahead (%.1f s passed)",
                     self.predraw_hold)  # fmt: skip
        finally:
            self._holding = False

    async def _before_tick(self) -> None:
        await self.wait_until_ready()

    async def _start_up(self) -> None:
        """Once connected: send what the outbox still holds (a crash may have left posts unsent),
        and let the computer players answer where a crash interrupted them."""
        await self.wait_until_ready()
        self._spawn(self.deliverer.run())
        for game in await process.running_games(self.service):
            self.advance(game)

    def _spawn(self, job: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def tick(self) -> None:
        """One turn of the clock: the service decides and stores; the outbox sends (never raises)."""
        try:
            for post in await ticking.tick(self.service):
                if post.outcome is not None and post.outcome.game:
                    self.advance(post.outcome.game)
        except StorageUnavailable as e:  # the next tick tries again: the loop goes on at its pace
            log.warning("The clock tick was skipped: the database failed (%s)", e)
        except Exception:
            log.exception("The clock tick failed")

    def advance(self, game_id: int) -> None:
        """Let the computer players (and the seats the bot plays) answer in the background, one
        task per game; asked again while it runs, it looks once more when done."""
        running = self._advancing.get(game_id)
        if running is not None and not running.done():
            self._again.add(game_id)
            return
        self._advancing[game_id] = self._spawn(self._advance(game_id))

    async def _advance(self, game_id: int) -> None:
        while True:
            self._again.discard(game_id)
            try:
                await advancing.advance(self.service, game_id)
            except StorageUnavailable as e:  # their moves are not stored: they play once it is back
                log.warning("The computer players of game %s wait for the database (%s)", game_id, e)
                await asyncio.sleep(STORAGE_RETRY)
                self._again.add(game_id)
            except Exception:
                log.exception("The computer players of game %s failed", game_id)
                return
            if game_id not in self._again:
                return

    async def announce(self, outcome: Outcome) -> str | None:
        """Send the outcome's stored announcement and let the bot's seats answer; what the actor
        must be told when it cannot be posted (None: it was posted, or is on its way)."""
        if outcome.game and not outcome.settled:
            self.advance(outcome.game)
        return await self.deliverer.problem(outcome, ANNOUNCE_WAIT)

    async def on_guild_channel_update(self, before: Any, after: Any) -> None:
        await self.deliverer.permissions_changed()  # a permission may have been granted

    async def on_thread_update(self, before: Any, after: Any) -> None:
        await self.deliverer.permissions_changed()

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread unlocked (archived or not: a post unarchives it) can be posted in again."""
        if not payload.data.get("thread_metadata", {}).get("locked", False):
            self.resumed(await resume.resume_channel(self.service, payload.thread_id))

    async def on_guild_channel_delete(self, channel: Any) -> None:
        """A deleted channel's games are paused at once (their players are told how they go on)."""
        await resume.channel_gone(self.service, channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A deleted thread's game too; discord.py dispatches this for each thread it knows of a
        deleted channel (Discord sends no THREAD_DELETE for them)."""
        await resume.channel_gone(self.service, payload.thread_id)

    def resumed(self, outcomes: list[Outcome]) -> None:
        """Games that go on again: their held posts and notes are sent, their computers play."""
        for outcome in outcomes:
            self.advance(outcome.game)
        if outcomes:
            self.deliverer.wake()

    async def on_guild_role_update(self, before: Any, after: Any) -> None:
        await self.deliverer.permissions_changed()

    async def on_ready(self) -> None:
        log.info("Logged in as %s (id %s) in %d server(s), %s", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds), self.shard_scope or "all shards")  # fmt: skip

    async def close(self) -> None:
        """Stop the clock and the background tasks, send what is due in the outbox (for a few
        seconds at most: what is left goes out after the next start), then close everything
        `setup_hook` opened (safe when it never ran, or failed half-way)."""
        self.clock_loop.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._deliverer is not None and self.is_ready() and not self.is_closed():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._deliverer.settle(), CLOSE_WAIT)
        await super().close()
        self.workers.close()
        if self._service is not None:
            with contextlib.suppress(Exception):  # what is left to do goes to the next process at once
                await process.release(self._service)
            await self._service.close()
            self._service = None
