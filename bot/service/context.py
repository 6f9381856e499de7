"""What every use case of the service works with, passed to each explicitly: the storage, the
workers, the renderer, the clock, and what this process keeps in memory.

One `Context` per bot (or per test): ``await Context.open(path, …)`` opens the database behind it,
``await ctx.close()`` closes it. Tests inject their own clock, seeds, renderer and workers.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.metrics import Metrics
from bot.results import Drawing, Picture
from bot.service import pictures
from bot.service.drawings import Drawings
from bot.service.kept import Kept
from bot.service.limits import Limits
from bot.service.pictures import Renderer, default_renderer
from bot.service.positions import Positions
from bot.service.role_calls import RoleCalls
from bot.service.workers import ThreadWorkers, Workers
from bot.storage.backends import open_storage
from bot.storage.protocol import StorageProtocol
from bot.storage.shards import Claimant, Shards

REPLAYS_KEPT = 8
"""Replays kept (a GIF is some 700 KB: 6 MB at most)."""
ASKED_KEPT = 32
"""Boards, descriptions and hints kept (the newest versions of the games being looked at; a
board's pictures are some 260 KB: 8 MB at most)."""


def _seed() -> int:
    return secrets.randbits(63)


def shards_of(count: int | None, ids: Sequence[int] | None) -> Shards | None:
    """The share of the games a process runs the shards ``ids`` of ``count`` works on (None: all of
    them; see `bot.storage.shards`)."""
    return Shards.of(count, ids)


@dataclass(eq=False)
class Context:
    """The explicit context of the service's use cases (see the module docstring)."""

    storage: StorageProtocol
    renderer: Renderer | None = default_renderer
    """Draws the pictures (None: a bot that draws none)."""
    workers: Workers = field(default_factory=ThreadWorkers)
    """Where computer players think and pictures are drawn (worker processes in the bot)."""
    clock: Callable[[], float] = time.time
    """The time (seconds since the epoch); tests inject their own to drive deadlines."""
    seeds: Callable[[], int] = _seed
    """A new game's secret seed."""
    shards: Shards | None = None
    """The shards this process runs: its clock works only on the games of their servers (None:
    every game)."""
    metrics: Metrics = field(default_factory=Metrics)
    """What the use cases count and time (`bot.metrics`): the bot hands its own in, which its web
    server's ``/metrics`` shows."""
    claimant: Claimant = field(init=False)
    """Who this process is when it claims a game's clock (see `bot.storage.shards`)."""
    positions: Positions = field(default_factory=Positions)
    """Games restored once per version (see `bot.service.positions`)."""
    drawings: Drawings = field(init=False)
    """Turn posts' pictures, kept until the delivery task sends the post (`bot.service.drawings`)."""
    locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    rating_locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    ranking: asyncio.Lock = field(default_factory=asyncio.Lock)
    """One rank-role update at a time in this process (`bot.service.rank_sync`): the clock's and a
    finished game's would otherwise race on the same grants."""
    replays: Kept = field(default_factory=lambda: Kept(REPLAYS_KEPT))
    """Finished games' replays by (game, language), drawn once (`bot.service.ending`)."""
    asked: Kept = field(default_factory=lambda: Kept(ASKED_KEPT))
    """What members asked for privately at a game's version (the board, the position in words, a
    hint), made once (`bot.service.kept`)."""
    limits: Limits = field(default_factory=Limits)
    """How often each member may ask for what is costly to make (`bot.service.limits`)."""
    replaying: set[int] = field(default_factory=set)
    """Finished games whose replay is being drawn now (`bot.service.ending`)."""
    pruned_at: int = 0
    """When this process last forgot old sent announcements (`bot.service.tick`)."""
    lobby_limit: int | None = 3
    """How many open lobbies one member may host in a server (``CITTA_LOBBIES_PER_MEMBER``; None:
    no cap)."""
    lobby_days: int = 7
    """After how many days without a join, a leave, a computer or a setting a lobby is closed, and
    a closed lobby forgotten (``CITTA_LOBBY_DAYS``; `bot.service.stale`)."""
    swept_at: int = 0
    """When this process last closed and forgot stale lobbies (`bot.service.stale`)."""
    roles: RoleCalls | None = None
    """Gives and takes members' roles on Discord (`bot.service.role_calls`): the client's, handed in
    once it is set up; None: the rank roles are decided but no role changes (`bot.service.rank_sync`)."""
    web_url: str | None = None
    """The public address of the bot's web server (``CITTA_WEB_URL``; None: no web page is linked,
    `bot.service.webpage`)."""

    def __post_init__(self) -> None:
        self.claimant = Claimant.new(self.shards)
        self.drawings = Drawings(self._redraw)

    async def _redraw(self, drawing: Drawing) -> tuple[Picture, ...]:
        return await pictures.redraw(self, drawing)

    @classmethod
    async def open(cls, path: str | Path, **options: object) -> Context:
        """Open the database ``path`` names (an SQLite file or a PostgreSQL URL, see
        `bot.storage.backends`), migrating it, and make a context on it."""
        return cls(await open_storage(path), **options)  # type: ignore[arg-type]

    async def close(self) -> None:
        await self.storage.close()

    def now(self) -> int:
        return int(self.clock())

    def game_lock(self, game_id: int) -> asyncio.Lock:
        """One change to a game at a time in this process (the version check still guards the
        database): simultaneous decisions then queue instead of losing races."""
        return self.locks.setdefault(game_id, asyncio.Lock())

    def rating_lock(self, guild: int) -> asyncio.Lock:
        """One game of a server rated at a time: two games ending at once are rated one after the other."""
        return self.rating_locks.setdefault(guild, asyncio.Lock())
