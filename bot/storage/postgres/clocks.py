"""The seats' clocks on PostgreSQL: deadlines and reminders, and the claims a process takes on a
game's clock (see `bot.storage.shards`).

`sync_clocks` runs inside the transaction of a move or a start (`bot.storage.postgres.games`).
A claim locks the rows it takes with ``FOR UPDATE SKIP LOCKED`` and then sets its lease: rows
another process is claiming (or committing a move on) at that moment are passed over, not
waited for, and a row claimed by another owner until later is left alone. Of two processes
claiming at once, each row goes to exactly one.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from bot.results import Post
from bot.storage import convert, queries
from bot.storage.postgres.base import Part, many
from bot.storage.postgres.outbox import store_posts
from bot.storage.rows import Clock
from bot.storage.shards import Shards, postgres_params
from bot.storage.shards import postgres_on_shards as on_shards

if TYPE_CHECKING:
    from bot.storage.postgres.base import Connection


async def sync_clocks(conn: Connection, game_id: int, clocks: list[Clock], restart: Collection[int]) -> None:
    """Keep the clocks of seats still waited for; start ``clocks`` for the others (and for the
    seats in ``restart``, which have just moved); drop the clocks of everyone else (inside the
    caller's transaction)."""
    # One statement (one round trip): the DELETE and the INSERT touch different seats (those
    # no longer waited for, those waited for), so neither needs to see the other's rows. A
    # restarted seat's clock is reset in place, all its columns as a fresh row has them.
    await conn.execute(
        "WITH gone AS (DELETE FROM clocks WHERE game = $1 AND NOT (seat = ANY($2::integer[]))) "
        "INSERT INTO clocks (game, seat, since, paused) SELECT $1, c.seat, c.since, c.paused "
        "FROM unnest($2::integer[], $3::bigint[], $4::bigint[]) AS c(seat, since, paused) "
        "ON CONFLICT (game, seat) DO UPDATE SET since = EXCLUDED.since, paused = EXCLUDED.paused, "
        "reminders = 0, last_reminded = NULL, stalled = false WHERE clocks.seat = ANY($5::integer[])",
        game_id, [c.seat for c in clocks], [c.since for c in clocks], [c.paused for c in clocks],
        list(restart),
    )  # fmt: skip


class Clocks(Part):
    """Queries of the clocks (see `bot.storage.protocol.ClocksProtocol`)."""

    async def get(self, game_id: int | None = None) -> list[Clock]:
        """The running clocks of one game, or of every running game."""
        rows = await self.db.all(
            "SELECT c.* FROM clocks c JOIN games g ON g.id = c.game WHERE g.status = 'active' "
            "AND ($1::bigint IS NULL OR c.game = $1) ORDER BY c.game, c.seat",
            game_id,
        )
        return [convert.clock(r) for r in rows]

    async def reset(self, game_id: int, clocks: list[Clock]) -> None:
        """Start these clocks afresh (a seat handed to someone else, a returning player)."""
        async with self.db.transaction() as conn:
            await many(
                conn,
                "INSERT INTO clocks (game, seat, since, paused) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (game, seat) DO UPDATE SET since = excluded.since, paused = excluded.paused, "
                "reminders = 0, last_reminded = NULL, stalled = false",
                [(game_id, c.seat, c.since, c.paused) for c in clocks],
            )

    async def claim(self, owner: str, now: int, until: int, shards: Shards | None = None) -> list[int]:
        """Claim the clocks of the running games (not paused, of servers on ``shards``) that are
        free, expired or ``owner``'s, until ``until``: their ids."""
        rows = await self.db.all(
            "UPDATE games g SET clock_claimed_by = $1, clock_claimed_until = $2 FROM ("
            "SELECT id FROM games WHERE status = 'active' AND paused IS NULL "
            "AND EXISTS (SELECT 1 FROM clocks WHERE game = games.id) "
            "AND (clock_claimed_until <= $3 OR clock_claimed_by = $1) "
            f"AND {on_shards('guild', 4)} ORDER BY id FOR UPDATE SKIP LOCKED"
            ") AS free WHERE g.id = free.id RETURNING g.id",
            owner, until, now, *postgres_params(shards),
        )  # fmt: skip
        return sorted(r["id"] for r in rows)

    async def release(self, owner: str, games: Collection[int]) -> None:
        """Give up ``owner``'s claims on these games' clocks."""
        await self.db.execute(
            "UPDATE games SET clock_claimed_by = NULL, clock_claimed_until = 0 "
            "WHERE id = ANY($1::bigint[]) AND clock_claimed_by = $2",
            list(games), owner,
        )  # fmt: skip

    async def remind(
        self, game_id: int, *, reminded: Collection[Clock], stalled: Collection[Clock],
        posts: Sequence[Post], now: int,
    ) -> list[int] | None:  # fmt: skip
        """Count the reminders sent to ``reminded``, mark ``stalled`` clocks, and store the posts
        that tell them, in one transaction; None (nothing stored) when one of these clocks is no
        longer as it was read (their rows are locked while they are compared)."""
        async with self.db.transaction() as conn:
            for c in {c.seat: c for c in (*reminded, *stalled)}.values():
                row = await conn.fetchrow(
                    "SELECT * FROM clocks WHERE game = $1 AND seat = $2 FOR UPDATE", game_id, c.seat
                )
                if row is None or convert.clock(row) != c:
                    return None
            await many(conn, queries.REMINDED, [(now, game_id, c.seat) for c in reminded])
            await many(
                conn,
                "UPDATE clocks SET stalled = true WHERE game = $1 AND seat = $2",
                [(game_id, c.seat) for c in stalled],
            )
            ids = await store_posts(conn, game_id, posts, now)
        self.db.woken(ids)
        return ids
