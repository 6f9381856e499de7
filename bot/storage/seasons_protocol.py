"""The seasons' part of the storage contract (`bot.storage.protocol`): a server's season settings
(`/citta-server season`), its seasons — the one running and those over, with their champions — and
the results of the games finished in a season, from which its leaderboard is computed
(`bot.service.seasons`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.results import Post
from bot.storage.rows import Placing, Season, SeasonSettings
from bot.storage.shards import Shards


class SeasonsProtocol(Protocol):
    """A server's seasons: its settings, the running season, the past ones and their champions."""

    async def settings(self, guild: int) -> SeasonSettings | None:
        """The server's season settings (None: never set)."""

    async def configure(self, settings: SeasonSettings, opening: Season | None) -> Season | None:
        """Store the server's settings, in one transaction with what they do to its seasons: ``off``
        drops the running season (it is never announced nor listed); otherwise, when no season runs,
        ``opening`` (its number one more than the server's last) starts. The season running
        afterwards (None: none)."""

    async def running(self, guild: int) -> Season | None:
        """The server's season not yet announced (at most one)."""

    async def due(self, now: int, shards: Shards | None = None) -> list[Season]:
        """The running seasons (of servers on ``shards``) that ended at ``now`` or before, by server."""

    async def close(
        self, season: Season, *, champion: str | None, name: str | None, posts: Sequence[Post],
        now: int, following: Season | None,
    ) -> list[int] | None:  # fmt: skip
        """End ``season`` with its ``champion`` (rating key and name; None: nobody qualified), store
        the ``posts`` announcing it and start ``following`` (None: seasons were turned off), in one
        transaction: the posts' outbox ids. None, changing nothing, when it was ended already (by
        this process or another): a season is announced once."""

    async def past(self, guild: int) -> list[Season]:
        """The server's seasons that are over, the newest first."""

    async def titles(self, guild: int, player: str) -> list[Season]:
        """The seasons of ``guild`` that ``player`` (a rating key) won, oldest first."""

    async def results(self, guild: int, starts: int, ends: int) -> list[list[Placing]]:
        """The placings (by seat) of each game of ``guild`` finished from ``starts`` until before
        ``ends``, in the order they ended (then by game id)."""
