"""What the storages of both backends share: a storage is its parts (`protocol.PARTS`), each a
small class of queries, over one database helper of its backend (`sqlite.base.Database`,
`postgres.base.Database`) that holds the connection or pool, the schema, and the delivery's
wake-up (`on_enqueue`), which it calls once a transaction that stored announcements is
committed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from bot.storage.protocol import (
    ClaimsProtocol,
    ClocksProtocol,
    GamesProtocol,
    HistoryProtocol,
    MovesProtocol,
    OutboxProtocol,
    PlayersProtocol,
    RanksProtocol,
    SeasonsProtocol,
    ServerPagesProtocol,
    TournamentsProtocol,
)


class Database(Protocol):
    """What a backend's database helper does for the storage as a whole."""

    on_enqueue: Callable[[], None] | None

    async def close(self) -> None: ...

    async def schema_version(self) -> int: ...

    async def migrate(self, folder: Path = ...) -> int: ...


DB = TypeVar("DB", bound=Database)


class Parts(Generic[DB]):
    """A storage of either backend: its parts over ``db`` (see `protocol.StorageProtocol`)."""

    def __init__(
        self, db: DB, games: GamesProtocol, moves: MovesProtocol, players: PlayersProtocol,
        clocks: ClocksProtocol, outbox: OutboxProtocol, claims: ClaimsProtocol, history: HistoryProtocol,
        seasons: SeasonsProtocol, tournaments: TournamentsProtocol, ranks: RanksProtocol,
        server_pages: ServerPagesProtocol,
    ) -> None:  # fmt: skip
        self.db = db
        self.games = games
        self.moves = moves
        self.players = players
        self.clocks = clocks
        self.outbox = outbox
        self.claims = claims
        self.history = history
        self.seasons = seasons
        self.tournaments = tournaments
        self.ranks = ranks
        self.server_pages = server_pages

    @property
    def on_enqueue(self) -> Callable[[], None] | None:
        """Called once after each committed transaction that stored announcements."""
        return self.db.on_enqueue

    @on_enqueue.setter
    def on_enqueue(self, wake: Callable[[], None] | None) -> None:
        self.db.on_enqueue = wake

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def migrate(self, folder: Path | None = None) -> int:
        """Apply the backend's migrations (from ``folder``, else its own) newer than the database,
        each in its own transaction."""
        return await (self.db.migrate() if folder is None else self.db.migrate(folder))
