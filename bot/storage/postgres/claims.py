"""The claims on PostgreSQL (the twin of `bot.storage.claims`): a game's clock and a channel's
next announcement, claimed by one process until a time (see `bot.storage.shards`).

A claim locks the rows it takes with ``FOR UPDATE SKIP LOCKED`` and then sets its lease: rows
another process is claiming (or committing a move on) at that moment are passed over, not
waited for, and a row claimed by another owner until later is left alone. Of two processes
claiming at once, each row goes to exactly one.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.storage import convert
from bot.storage.postgres.outbox import PgOutbox
from bot.storage.rows import OutboxRow
from bot.storage.shards import Shards, postgres_params
from bot.storage.shards import postgres_on_shards as on_shards


class PgClaims(PgOutbox):
    """Claims on clocks and announcements."""

    async def claim_clocks(self, owner: str, now: int, until: int, shards: Shards | None = None) -> list[int]:
        """Claim the clocks of the running games (not paused, of servers on ``shards``) that are
        free, expired or ``owner``'s, until ``until``: their ids."""
        rows = await self._all(
            "UPDATE games g SET clock_claimed_by = $1, clock_claimed_until = $2 FROM ("
            "SELECT id FROM games WHERE status = 'active' AND paused IS NULL "
            "AND EXISTS (SELECT 1 FROM clocks WHERE game = games.id) "
            "AND (clock_claimed_until <= $3 OR clock_claimed_by = $1) "
            f"AND {on_shards('guild', 4)} ORDER BY id FOR UPDATE SKIP LOCKED"
            ") AS free WHERE g.id = free.id RETURNING g.id",
            owner, until, now, *postgres_params(shards),
        )  # fmt: skip
        return sorted(r["id"] for r in rows)

    async def release_clocks(self, owner: str, games: Collection[int]) -> None:
        """Give up ``owner``'s claims on these games' clocks."""
        await self._execute(
            "UPDATE games SET clock_claimed_by = NULL, clock_claimed_until = 0 "
            "WHERE id = ANY($1::bigint[]) AND clock_claimed_by = $2",
            list(games), owner,
        )  # fmt: skip

    async def outbox_claim(self, channel: int, owner: str, now: int, until: int) -> OutboxRow | None:
        """Claim the channel's next announcement (its oldest pending one) until ``until``, if it is
        due and free, expired or ``owner``'s: the row, or None (also while another process is
        claiming it: the head is locked, never skipped for the post after it)."""
        row = await self._one(
            "WITH claimed AS (UPDATE outbox o SET claimed_by = $2, claimed_until = $4 FROM (SELECT id "
            "FROM outbox WHERE id = (SELECT MIN(id) FROM outbox WHERE channel = $1 AND state = 'pending') "
            "FOR UPDATE SKIP LOCKED) AS head WHERE o.id = head.id AND o.state = 'pending' "
            "AND o.next_try <= $3 AND (o.claimed_until <= $3 OR o.claimed_by = $2) RETURNING o.*) "
            "SELECT claimed.*, f.image FROM claimed LEFT JOIN outbox_files f ON f.outbox = claimed.id",
            channel, owner, now, until,
        )  # fmt: skip
        return None if row is None else convert.outbox(row, row["image"])

    async def release_claims(self, owner: str) -> None:
        """Give up every claim ``owner`` holds (it stops)."""
        await self._free("= $1", owner)

    async def take_over(self, slot: str, owner: str) -> None:
        """Free the claims that earlier owners in ``slot`` left (a process that died there:
        ``owner`` is its successor)."""
        await self._free("<> $1 AND left({0}, $2) = $3", owner, len(slot) + 1, f"{slot}#")

    async def _free(self, holder: str, *params: object) -> None:
        """Free the claims whose holder column matches ``holder`` (``{0}``: the column)."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE games SET clock_claimed_by = NULL, clock_claimed_until = 0 "
                f"WHERE clock_claimed_by {holder.format('clock_claimed_by')}",
                *params,
            )
            await conn.execute(
                "UPDATE outbox SET claimed_by = NULL, claimed_until = 0 "
                f"WHERE state = 'pending' AND claimed_by {holder.format('claimed_by')}",
                *params,
            )
