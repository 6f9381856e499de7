"""The SQL of asynchronous play (part of `bot.storage.Storage`): settings, preferences,
clocks, vacation, computer and absent seats (rows become dataclasses in `bot.storage.convert`).

Every method holds the storage lock, like the rest of `Storage`; ``_sync_clocks`` runs inside
a transaction that its caller holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Collection
from dataclasses import asdict
from typing import Any

import aiosqlite

from bot.storage import convert
from bot.storage.convert import SETTING_COLUMNS
from bot.storage.rows import Clock, GameSettings, Prefs


class ClockStorage:
    """Queries for deadlines, reminders and seats; `Storage` supplies ``db`` and the lock."""

    db: aiosqlite.Connection
    _lock: asyncio.Lock

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """Hold the lock and one write transaction: committed at the end, rolled back on an error."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    # --- rows -----------------------------------------------------------------------

    # One trip to the database's thread each (`execute_fetchall`), not three (execute, fetch, close):
    # a move asks a few dozen of these, and each trip wakes the thread and then the event loop.

    async def _one(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Row | None:
        rows: list[sqlite3.Row] = list(await self.db.execute_fetchall(sql, params))
        return rows[0] if rows else None

    async def _all(self, sql: str, params: tuple[Any, ...]) -> list[sqlite3.Row]:
        return list(await self.db.execute_fetchall(sql, params))

    async def _many(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """``sql`` for each of ``rows``; no trip to the database for none (a move has no
        secrets, undos or absences most of the time)."""
        if rows:
            await self.db.executemany(sql, rows)

    _game = staticmethod(convert.game)
    _seat = staticmethod(convert.seat)
    _move = staticmethod(convert.move)
    _clock = staticmethod(convert.clock)

    # --- settings and preferences ---------------------------------------------------

    async def set_settings(self, game_id: int, settings: GameSettings) -> None:
        values = asdict(settings)
        assignments = ", ".join(f"{c} = ?" for c in SETTING_COLUMNS)
        async with self._lock:
            await self.db.execute(
                f"UPDATE games SET {assignments} WHERE id = ?",
                (*(values[c] for c in SETTING_COLUMNS), game_id),
            )

    async def prefs(self, user_ids: Collection[int]) -> dict[int, Prefs]:
        """The preferences of these users (defaults for those who set none)."""
        ids = sorted(set(user_ids))
        marks = ", ".join("?" for _ in ids)
        async with self._lock:
            rows = await self._all(f"SELECT * FROM players WHERE user_id IN ({marks})", tuple(ids))
        found = {r["user_id"]: convert.prefs(r) for r in rows}
        return {u: found.get(u, Prefs(u)) for u in ids}

    async def set_prefs(self, prefs: Prefs) -> None:
        async with self._lock:
            await self.db.execute(
                "INSERT INTO players (user_id, quiet_start, quiet_end, utc_offset, remind_by, language) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, "
                "utc_offset = excluded.utc_offset, remind_by = excluded.remind_by, "
                "language = excluded.language",
                (
                    prefs.user_id,
                    prefs.quiet_start,
                    prefs.quiet_end,
                    prefs.utc_offset,
                    prefs.remind_by,
                    prefs.language,
                ),
            )

    # --- clocks ---------------------------------------------------------------------

    async def _sync_clocks(self, game_id: int, clocks: list[Clock], restart: Collection[int]) -> None:
        """Keep the clocks of seats still waited for; start ``clocks`` for the others (and for
        the seats in ``restart``, which have just moved); drop the clocks of everyone else."""
        waiting = [c.seat for c in clocks]
        marks = ", ".join("?" for _ in waiting)
        await self.db.execute(
            f"DELETE FROM clocks WHERE game = ? AND seat NOT IN ({marks})", (game_id, *waiting)
        )
        await self._many("DELETE FROM clocks WHERE game = ? AND seat = ?", [(game_id, s) for s in restart])
        await self._many(
            "INSERT OR IGNORE INTO clocks (game, seat, since, paused) VALUES (?, ?, ?, ?)",
            [(game_id, c.seat, c.since, c.paused) for c in clocks],
        )

    async def clocks(self, game_id: int | None = None) -> list[Clock]:
        """The running clocks of one game, or of every running game."""
        async with self._lock:
            rows = await self._all(
                "SELECT c.* FROM clocks c JOIN games g ON g.id = c.game WHERE g.status = 'active' "
                "AND (? IS NULL OR c.game = ?) ORDER BY c.game, c.seat",
                (game_id, game_id),
            )
        return [self._clock(r) for r in rows]

    async def reset_clocks(self, game_id: int, clocks: list[Clock]) -> None:
        """Start these clocks afresh (a seat handed to someone else, a returning player)."""
        async with self._lock:
            await self._many(
                "INSERT OR REPLACE INTO clocks (game, seat, since, paused) VALUES (?, ?, ?, ?)",
                [(game_id, c.seat, c.since, c.paused) for c in clocks],
            )

    # --- seats ----------------------------------------------------------------------

    async def set_vacation(
        self, game_id: int, seat: int, *, until: int | None, used: int, year: int | None, shift: int,
        was: int | None, request: int | None = None,
    ) -> bool:  # fmt: skip
        """Record a seat's vacation and move its clock's deadline by ``shift`` seconds, if its
        vacation still ends at ``was`` (the request was based on that) and its last change was
        not ``request``; False otherwise."""
        async with self._transaction():
            cur = await self.db.execute(
                "UPDATE seats SET vacation_until = ?, vacation_used = ?, vacation_year = ?, "
                "vacation_request = ? WHERE game = ? AND seat = ? AND vacation_until IS ? "
                "AND (? IS NULL OR vacation_request IS NOT ?)",
                (until, used, year, request, game_id, seat, was, request, request),
            )
            if cur.rowcount != 1:
                return False
            await self.db.execute(
                "UPDATE clocks SET paused = MAX(0, paused + ?) WHERE game = ? AND seat = ?",
                (shift, game_id, seat),
            )
            return True

    async def come_back(self, game_id: int, seat: int) -> bool:
        """Give an absent player their seat back; False if they were not away."""
        async with self._lock:
            cur = await self.db.execute(
                "UPDATE seats SET away = 0 WHERE game = ? AND seat = ? AND away = 1", (game_id, seat)
            )
            return cur.rowcount == 1

    async def replace_player(self, game_id: int, seat: int, user_id: int, now: int) -> bool:
        """Hand a seat to another user (who takes it over fully); False if they already play."""
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                taken = await self._one(
                    "SELECT 1 FROM seats WHERE game = ? AND user_id = ?", (game_id, user_id)
                )
                old = await self._one(
                    "SELECT user_id FROM seats WHERE game = ? AND seat = ?", (game_id, seat)
                )
                if taken is not None or old is None:
                    return False
                await self.db.execute(
                    "UPDATE games SET host = ? WHERE id = ? AND host = ?", (user_id, game_id, old["user_id"])
                )
                await self.db.execute(
                    "UPDATE seats SET user_id = ?, resigned = 0, away = 0, vacation_until = NULL "
                    "WHERE game = ? AND seat = ?",
                    (user_id, game_id, seat),
                )
                await self.db.execute(
                    "UPDATE clocks SET since = ?, paused = 0, reminders = 0, last_reminded = NULL, "
                    "stalled = 0 WHERE game = ? AND seat = ?",
                    (now, game_id, seat),
                )
                await self.db.execute("UPDATE games SET updated_at = ? WHERE id = ?", (now, game_id))
                return True
            finally:
                await self.db.execute("COMMIT")
