"""The tournaments' part of the storage contract (`bot.storage.protocol`): a tournament is one
document (its settings, entrants and tables as JSON, `bot.service.tournament_state`) with a status and
a version. Every change is stored whole, at the version it was based on, with the posts announcing it,
in one transaction: of two changes based on the same version (two processes, two presses) exactly
one is stored, so each round is seated once and each standings post is stored once."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from bot.results import Post
from bot.storage.shards import Shards

TournamentStatus = Literal["signup", "running", "over", "cancelled"]


@dataclass(frozen=True)
class TournamentRow:
    """A stored tournament: where it runs, its status, its version and its document."""

    id: int
    guild: int
    channel: int
    status: TournamentStatus
    version: int
    state: dict[str, Any]
    created_at: int
    updated_at: int


class Stale(Exception):
    """A tournament changed since the version a change was based on (its transaction is rolled back)."""


class TournamentsProtocol(Protocol):
    """The tournaments of the servers (see the module)."""

    async def create(
        self, guild: int, channel: int, state: dict[str, Any], now: int,
        posts: Callable[[int], Sequence[Post]],
    ) -> tuple[int, list[int]]:  # fmt: skip
        """A new tournament in sign-up, with the posts ``posts(its id)`` makes: its id and their outbox
        ids."""

    async def get(self, tournament: int) -> TournamentRow | None:
        """The tournament (None: no such one)."""

    async def of_guild(self, guild: int) -> list[TournamentRow]:
        """The server's tournaments, the newest first."""

    async def active(self, shards: Shards | None = None) -> list[TournamentRow]:
        """The tournaments in sign-up or running (of servers on ``shards``), oldest first."""

    async def change(
        self, row: TournamentRow, *, status: TournamentStatus, state: Callable[[list[int]], dict[str, Any]],
        posts: Sequence[Post], now: int,
    ) -> list[int] | None:  # fmt: skip
        """Store the ``posts`` and ``state(their outbox ids)`` with ``status``, if the tournament is still at
        ``row.version`` (then one version on): the posts' outbox ids; None, changing nothing, if it changed
        meanwhile."""
