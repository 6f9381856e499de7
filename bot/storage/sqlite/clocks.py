"""The seats' clocks in SQLite: deadlines and reminders (rows become `Clock` in
`bot.storage.convert`), and the claims a process takes on a game's clock (see
`bot.storage.shards`).

`sync_clocks` runs inside the transaction of a move or a start (`bot.storage.sqlite.games`). A
claim is one conditional ``UPDATE … RETURNING``: SQLite runs one write at a time, so of two
claimants exactly one gets each clock.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import aiosqlite

from bot.results import Post
from bot.storage import convert, queries
from bot.storage.queries import qmarks
from bot.storage.rows import Clock
from bot.storage.shards import Shards, sqlite_params
from bot.storage.shards import sqlite_on_shards as on_shards
from bot.storage.sqlite.base import Part, fetch_one, many
from bot.storage.sqlite.outbox import store_posts


async def sync_clocks(
    conn: aiosqlite.Connection, game_id: int, clocks: list[Clock], restart: Collection[int]
) -> None:
    """Keep the clocks of seats still waited for; start ``clocks`` for the others (and for the
    seats in ``restart``, which have just moved); drop the clocks of everyone else (inside the
    caller's transaction)."""
    waiting = [c.seat for c in clocks]
    marks = ", ".join("?" for _ in waiting)
    await conn.execute(f"DELETE FROM clocks WHERE game = ? AND seat NOT IN ({marks})", (game_id, *waiting))
    await many(conn, "DELETE FROM clocks WHERE game = ? AND seat = ?", [(game_id, s) for s in restart])
    await many(
        conn,
        "INSERT OR IGNORE INTO clocks (game, seat, since, paused) VALUES (?, ?, ?, ?)",
        [(game_id, c.seat, c.since, c.paused) for c in clocks],
    )


class Clocks(Part):
    """Queries of the clocks (see `bot.storage.protocol.ClocksProtocol`)."""

    async def get(self, game_id: int | None = None) -> list[Clock]:
        """The running clocks of one game, or of every running game."""
        rows = await self.db.all(
            "SELECT c.* FROM clocks c JOIN games g ON g.id = c.game WHERE g.status = 'active' "
            "AND (? IS NULL OR c.game = ?) ORDER BY c.game, c.seat",
            (game_id, game_id),
        )
        return [convert.clock(r) for r in rows]

    async def reset(self, game_id: int, clocks: list[Clock]) -> None:
        """Start these clocks afresh (a seat handed to someone else, a returning player)."""
        await self.db.many(
            "INSERT OR REPLACE INTO clocks (game, seat, since, paused) VALUES (?, ?, ?, ?)",
            [(game_id, c.seat, c.since, c.paused) for c in clocks],
        )

    async def claim(self, owner: str, now: int, until: int, shards: Shards | None = None) -> list[int]:
        """Claim the clocks of the running games (not paused, of servers on ``shards``) that are
        free, expired or ``owner``'s, until ``until``: their ids."""
        rows = await self.db.all(
            "UPDATE games SET clock_claimed_by = ?, clock_claimed_until = ? "
            "WHERE status = 'active' AND paused IS NULL "
            "AND EXISTS (SELECT 1 FROM clocks WHERE game = games.id) "
            "AND (clock_claimed_until <= ? OR clock_claimed_by = ?) "
            f"AND {on_shards('guild')} RETURNING id",
            (owner, until, now, owner, *sqlite_params(shards)),
        )
        return sorted(r["id"] for r in rows)

    async def release(self, owner: str, games: Collection[int]) -> None:
        """Give up ``owner``'s claims on these games' clocks."""
        await self.db.many(
            "UPDATE games SET clock_claimed_by = NULL, clock_claimed_until = 0 "
            "WHERE id = ? AND clock_claimed_by = ?",
            [(g, owner) for g in games],
        )

    async def remind(
        self, game_id: int, *, reminded: Collection[Clock], stalled: Collection[Clock],
        posts: Sequence[Post], now: int,
    ) -> list[int] | None:  # fmt: skip
        """Count the reminders sent to ``reminded``, mark ``stalled`` clocks, and store the posts
        that tell them, in one transaction; None (nothing stored) when one of these clocks is no
        longer as it was read."""
        async with self.db.transaction() as conn:
            for c in {c.seat: c for c in (*reminded, *stalled)}.values():
                row = await fetch_one(
                    conn, "SELECT * FROM clocks WHERE game = ? AND seat = ?", (game_id, c.seat)
                )
                if row is None or convert.clock(row) != c:
                    return None
            await many(conn, qmarks(queries.REMINDED), [(now, game_id, c.seat) for c in reminded])
            await many(
                conn,
                "UPDATE clocks SET stalled = 1 WHERE game = ? AND seat = ?",
                [(game_id, c.seat) for c in stalled],
            )
            ids = await store_posts(conn, game_id, posts, now)
        self.db.woken(ids)
        return ids
