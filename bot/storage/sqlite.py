"""All SQL of the bot: games, seats, the move log and private notes, in SQLite via aiosqlite
(the queries of deadlines, reminders and preferences are in `bot.storage.clocks`).

Every query is parameterised. The schema comes from the numbered files in ``migrations/``,
applied in order at start-up and remembered in ``schema_version``. One connection is shared
and every method holds a lock, so a transaction is never interleaved with another query;
each move is one transaction guarded by a version check (`commit_moves`).
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.results import Post
from bot.storage.convert import events_json, secret, told_json
from bot.storage.history import HistoryStorage
from bot.storage.protocol import OPEN, ChannelBusy
from bot.storage.rows import Clock, GameRow, GameSettings, MoveRow, Placing, Prefs, SeatRow, Secret
from bot.storage.shards import Shards, sqlite_params
from bot.storage.shards import sqlite_on_shards as on_shards

MIGRATIONS = Path(__file__).parent / "migrations"
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
OPEN_GAME = "SELECT * FROM games WHERE channel = ? AND status IN (?, ?)"
"""A channel's lobby or running game (parameters: the channel, then `OPEN`)."""
SEATS = "SELECT * FROM seats WHERE game = ? ORDER BY seat"
__all__ = [
    "ChannelBusy", "Clock", "GameRow", "GameSettings", "MoveRow", "Prefs", "SeatRow", "Secret", "Storage",
    "migration_files",
]  # fmt: skip


def migration_files(folder: Path = MIGRATIONS) -> list[tuple[int, Path]]:
    """The migration files, by number; their numbers must run 1, 2, 3 … without gaps."""
    found = sorted(
        (int(m.group(1)), p) for p in folder.iterdir() if (m := _MIGRATION_NAME.match(p.name)) is not None
    )
    if [n for n, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"Migrations in {folder} must be numbered 0001, 0002, … without gaps.")
    return found


class Storage(HistoryStorage):
    """The bot's database. Open with `Storage.open(path)`; close with `close()`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (or create) the database and apply any migration it lacks."""
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA foreign_keys = ON")
        await db.execute("PRAGMA busy_timeout = 5000")
        if str(path) != ":memory:":
            await db.execute("PRAGMA journal_mode = WAL")
        store = cls(db)
        await store.migrate()
        return store

    async def close(self) -> None:
        async with self._lock:
            await self.db.close()

    # --- schema ---------------------------------------------------------------------

    async def schema_version(self) -> int:
        async with self._lock:
            return await self._schema_version()

    async def _schema_version(self) -> int:
        await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with self.db.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    async def migrate(self, folder: Path = MIGRATIONS) -> int:
        """Apply the migrations newer than the database, each in its own transaction."""
        async with self._lock:
            current = await self._schema_version()
            for number, path in migration_files(folder):
                if number <= current:
                    continue
                sql = path.read_text(encoding="utf-8")
                await self.db.executescript(
                    f"BEGIN;\n{sql}\nINSERT INTO schema_version (version) VALUES ({number});\nCOMMIT;"
                )
                current = number
            return current

    # --- reading --------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        async with self._lock:
            row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return self._game(row) if row else None

    async def open_game(self, channel: int) -> GameRow | None:
        """The lobby or running game of a channel."""
        async with self._lock:
            row = await self._one(OPEN_GAME, (channel, *OPEN))
        return self._game(row) if row else None

    async def open_game_with_seats(self, channel: int) -> tuple[GameRow, list[SeatRow]] | None:
        """`open_game` and its `seats`, read under one hold of the connection."""
        async with self._lock:
            row = await self._one(OPEN_GAME, (channel, *OPEN))
            if row is None:
                return None
            seats = await self._all(SEATS, (row["id"],))
        return self._game(row), [self._seat(r) for r in seats]

    async def latest_game(self, channel: int) -> GameRow | None:
        """The open game of a channel, else the last one that was played there."""
        async with self._lock:
            row = await self._one(
                "SELECT * FROM games WHERE channel = ? ORDER BY status IN (?, ?) DESC, id DESC LIMIT 1",
                (channel, *OPEN),
            )
        return self._game(row) if row else None

    async def paused_games(self, guild: int) -> list[GameRow]:
        """The open games of ``guild`` paused because their channel is gone, oldest first."""
        async with self._lock:
            rows = await self._all(
                "SELECT * FROM games WHERE guild = ? AND paused IS NOT NULL AND status IN (?, ?) ORDER BY id",
                (guild, *OPEN),
            )
        return [self._game(r) for r in rows]

    async def active_games(self, shards: Shards | None = None) -> list[GameRow]:
        async with self._lock:
            rows = await self._all(
                f"SELECT * FROM games WHERE status IN (?, ?) AND {on_shards('guild')} ORDER BY id",
                (*OPEN, *sqlite_params(shards)),
            )
        return [self._game(r) for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        async with self._lock:
            rows = await self._all(SEATS, (game_id,))
        return [self._seat(r) for r in rows]

    async def moves(self, game_id: int, last: int | None = None) -> list[MoveRow]:
        """The move log in order, undone moves left out (only the ``last`` n moves when given)."""
        limit = -1 if last is None else last
        async with self._lock:
            rows = await self._all(
                "SELECT * FROM (SELECT * FROM moves WHERE game = ? AND undone = 0 ORDER BY number DESC "
                "LIMIT ?) ORDER BY number",
                (game_id, limit),
            )
        return [self._move(r) for r in rows]

    async def moved_since(
        self, game_id: int, version: int, seat: int, text: str | None = None
    ) -> MoveRow | None:
        """The first move ``seat`` made (``text``, when given) after the game was at ``version``."""
        async with self._lock:
            row = await self._one(
                "SELECT * FROM moves WHERE game = ? AND number > ? AND seat = ? AND auto = 0 AND undone = 0 "
                "AND (? IS NULL OR text = ?) ORDER BY number LIMIT 1",
                (game_id, version, seat, text, text),
            )
        return None if row is None else self._move(row)

    async def moves_after(self, game_id: int, version: int) -> bool:
        """Whether a move (not taken back) was stored after the game was at ``version``."""
        async with self._lock:
            row = await self._one(
                "SELECT 1 FROM moves WHERE game = ? AND number > ? AND undone = 0 LIMIT 1", (game_id, version)
            )
        return row is not None

    async def last_move_of(self, game_id: int, seat: int) -> MoveRow | None:
        """The seat's last move that was not taken back."""
        async with self._lock:
            row = await self._one(
                "SELECT * FROM moves WHERE game = ? AND seat = ? AND undone = 0 ORDER BY number DESC LIMIT 1",
                (game_id, seat),
            )
        return None if row is None else self._move(row)

    async def last_batch_id(self, game_id: int) -> int | None:
        """The batch of the game's last move that was not taken back (None: no move yet)."""
        async with self._lock:
            row = await self._one(
                "SELECT batch FROM moves WHERE game = ? AND undone = 0 ORDER BY number DESC LIMIT 1",
                (game_id,),
            )
        return None if row is None else row["batch"]

    async def secrets(self, game_id: int, seat: int, year: int) -> list[Secret]:
        async with self._lock:
            rows = await self._all(
                "SELECT * FROM secrets WHERE game = ? AND seat = ? AND year = ? ORDER BY move, rowid",
                (game_id, seat, year),
            )
        return [secret(r) for r in rows]

    # --- lobby ----------------------------------------------------------------------

    async def create_lobby(
        self, *, guild: int | None, channel: int, host: int, host_name: str, setup: str,
        players_wanted: int | None, now: int,
    ) -> int:  # fmt: skip
        """A new lobby with its host seated; ChannelBusy when the channel has an open game."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = await self.db.execute(
                    "INSERT INTO games (guild, channel, host, status, setup, players_wanted, "
                    "created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (guild, channel, host, setup, players_wanted, now, now),
                )
                game_id = cur.lastrowid
                assert game_id is not None
                await self.db.execute(
                    "INSERT INTO seats (game, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    (game_id, host, host_name),
                )
            except sqlite3.IntegrityError:
                await self.db.execute("ROLLBACK")
                raise ChannelBusy(channel) from None
            await self.db.execute("COMMIT")
            return game_id

    async def join_lobby(
        self, game_id: int, user_id: int, name: str, limit: int, now: int, ai_level: str | None = None
    ) -> str:
        """Seat a user (or a computer player) in a lobby: ``joined``, ``already``, ``full`` or ``closed``."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                game = await self._one("SELECT status FROM games WHERE id = ?", (game_id,))
                if game is None or game["status"] != "lobby":
                    return "closed"
                rows = await self._all("SELECT seat, user_id FROM seats WHERE game = ?", (game_id,))
                if any(r["user_id"] == user_id for r in rows):
                    return "already"
                if len(rows) >= limit:
                    return "full"
                await self.db.execute(
                    "INSERT INTO seats (game, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
                    (game_id, max((r["seat"] for r in rows), default=-1) + 1, user_id, name, ai_level),
                )
                await self.db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
                return "joined"
            finally:
                await self.db.execute("COMMIT")

    async def leave_lobby(self, game_id: int, user_id: int, now: int) -> tuple[str, int | None]:
        """Unseat a user: ``left``, ``not_in`` or ``closed``, with the (new) host; an empty
        lobby is abandoned, a leaving host hands over to the next member."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                game = await self._one("SELECT status, host FROM games WHERE id = ?", (game_id,))
                if game is None or game["status"] != "lobby":
                    return "closed", None
                rows = await self._all(
                    "SELECT user_id, name, ai_level FROM seats WHERE game = ? ORDER BY seat", (game_id,)
                )
                rest = [(r["user_id"], r["name"], r["ai_level"]) for r in rows if r["user_id"] != user_id]
                if len(rest) == len(rows):
                    return "not_in", game["host"]
                await self.db.execute("DELETE FROM seats WHERE game = ?", (game_id,))
                await self._many(
                    "INSERT INTO seats (game, seat, user_id, name, ai_level) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, i, uid, name, level) for i, (uid, name, level) in enumerate(rest)],
                )
                humans = [uid for uid, _, level in rest if level is None]
                host = game["host"] if game["host"] != user_id else (humans[0] if humans else None)
                status = "lobby" if humans else "abandoned"
                await self.db.execute(
                    "UPDATE games SET host = COALESCE(?, host), status = ?, updated_at = ? WHERE id = ?",
                    (host, status, now, game_id),
                )
                return "left", host
            finally:
                await self.db.execute("COMMIT")

    async def start_game(
        self, game_id: int, *, users: list[int], seed: int, record: dict[str, Any],
        snapshot: dict[str, Any], highlight: list[str], now: int, clocks: list[Clock] | None = None,
        posts: Sequence[Post] = (),
    ) -> list[int] | None:  # fmt: skip
        """Turn a lobby into a running game and store its announcement ``posts``: their outbox
        ids, or None when it is no longer a lobby or its members are no longer ``users`` (in
        seat order)."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                rows = await self._all("SELECT user_id FROM seats WHERE game = ? ORDER BY seat", (game_id,))
                if [r["user_id"] for r in rows] != users:
                    return None
                cur = await self.db.execute(
                    "UPDATE games SET status = 'active', seed = ?, record = ?, snapshot = ?, version = 0, "
                    "highlight = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                    (seed, json.dumps(record), json.dumps(snapshot), json.dumps(highlight), now, game_id),
                )
                if cur.rowcount != 1:
                    return None
                if clocks:
                    await self._sync_clocks(game_id, clocks, ())
                return await self._enqueue(game_id, posts, now, version=0)
            finally:
                await self.db.execute("COMMIT")

    async def set_status(
        self, game_id: int, status: str, *, now: int, only_if: tuple[str, ...] = OPEN
    ) -> bool:
        """Change a game's status if it is one of ``only_if``; False otherwise."""
        marks = ", ".join("?" for _ in only_if)
        async with self._lock:
            cur = await self.db.execute(
                f"UPDATE games SET status = ?, updated_at = ? WHERE id = ? AND status IN ({marks})",
                (status, now, game_id, *only_if),
            )
            return cur.rowcount == 1

    # --- moves ----------------------------------------------------------------------

    async def commit_moves(
        self, game_id: int, *, based_on: int, moves: list[MoveRow], record: dict[str, Any],
        snapshot: dict[str, Any], status: str, highlight: list[str], secrets: list[Secret],
        now: int, resign: int | None = None, clocks: list[Clock] | None = None,
        restart: Collection[int] = (), away: Collection[int] = (), undo: Collection[int] = (),
        posts: Sequence[Post] = (), batch: int | None = None, guild: int = 0,
        placings: Sequence[Placing] = (),
    ) -> list[int] | None:  # fmt: skip
        """Store moves made on the game at version ``based_on`` and the ``posts`` announcing them,
        all in one transaction; the posts' outbox ids.

        Returns None, changing nothing, when the game is no longer at that version (someone
        else's move was stored first) or is not running. ``clocks`` are the seats we wait for
        now (see `_sync_clocks`); ``away`` seats are played for from now on; ``undo`` lists move
        numbers taken back (the version then still goes up by one, so old buttons stay stale).
        ``batch`` joins the moves to an earlier batch (the computer players' answers to a move,
        taken back with it); by default they are a batch of their own. ``placings`` are the
        results of the game when these moves end it (stored with the ratings of ``guild``).
        """
        version = based_on + (len(moves) if not undo else 1)
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                cur = await self.db.execute(
                    "UPDATE games SET version = ?, record = ?, snapshot = ?, status = ?, highlight = ?, "
                    "updated_at = ? WHERE id = ? AND version = ? AND status = 'active'",
                    (version, json.dumps(record), json.dumps(snapshot), status,
                     json.dumps(highlight), now, game_id, based_on),
                )  # fmt: skip
                if cur.rowcount != 1:
                    await self.db.execute("ROLLBACK")
                    return None
                await self._many(
                    "INSERT INTO moves (game, number, seat, text, summary, auto, created_at, reveals, batch, "
                    "events) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [(game_id, m.number, m.seat, m.text, m.summary, int(m.auto), now, int(m.reveals),
                      based_on if batch is None else batch, events_json(m)) for m in moves],
                )  # fmt: skip
                await self._many(
                    "INSERT INTO secrets (game, seat, year, move, kind, text, told) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [(game_id, s.seat, s.year, s.move, s.kind, s.text, told_json(s)) for s in secrets],
                )
                await self._many(
                    "UPDATE moves SET undone = 1 WHERE game = ? AND number = ?", [(game_id, n) for n in undo]
                )
                if resign is not None:
                    await self.db.execute(
                        "UPDATE seats SET resigned = 1 WHERE game = ? AND seat = ?", (game_id, resign)
                    )
                await self._many(
                    "UPDATE seats SET away = 1 WHERE game = ? AND seat = ?", [(game_id, a) for a in away]
                )
                if clocks is not None:
                    await self._sync_clocks(game_id, clocks, restart)
                if placings:
                    await self._store_results(game_id, guild, placings, now)
                ids = await self._enqueue(game_id, posts, now, version=version)
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")
            return ids
