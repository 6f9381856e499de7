"""The claims of the SQLite storage (part of `bot.storage.Storage`): a game's clock and a
channel's next announcement, claimed by one process until a time (see `bot.storage.shards`).

SQLite runs one write at a time, so a claim is one conditional ``UPDATE … RETURNING``: it
takes what is free, expired or already the claimant's, and of two claimants exactly one gets
it. Every method holds the storage lock, like the rest of `Storage`.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.storage import convert
from bot.storage.outbox import OutboxStorage
from bot.storage.rows import OutboxRow
from bot.storage.shards import Shards, sqlite_params
from bot.storage.shards import sqlite_on_shards as on_shards


class ClaimStorage(OutboxStorage):
    """Claims on clocks and announcements; `Storage` supplies ``db`` and the lock."""

    async def claim_clocks(self, owner: str, now: int, until: int, shards: Shards | None = None) -> list[int]:
        """Claim the clocks of the running games (not paused, of servers on ``shards``) that are
        free, expired or ``owner``'s, until ``until``: their ids."""
        async with self._lock:
            rows = await self._all(
                "UPDATE games SET clock_claimed_by = ?, clock_claimed_until = ? "
                "WHERE status = 'active' AND paused IS NULL "
                "AND EXISTS (SELECT 1 FROM clocks WHERE game = games.id) "
                "AND (clock_claimed_until <= ? OR clock_claimed_by = ?) "
                f"AND {on_shards('guild')} RETURNING id",
                (owner, until, now, owner, *sqlite_params(shards)),
            )
        return sorted(r["id"] for r in rows)

    async def release_clocks(self, owner: str, games: Collection[int]) -> None:
        """Give up ``owner``'s claims on these games' clocks."""
        async with self._lock:
            await self._many(
                "UPDATE games SET clock_claimed_by = NULL, clock_claimed_until = 0 "
                "WHERE id = ? AND clock_claimed_by = ?",
                [(g, owner) for g in games],
            )

    async def outbox_claim(self, channel: int, owner: str, now: int, until: int) -> OutboxRow | None:
        """Claim the channel's next announcement (its oldest pending one) until ``until``, if it is
        due and free, expired or ``owner``'s: the row, or None."""
        async with self._lock:
            row = await self._one(
                "UPDATE outbox SET claimed_by = ?, claimed_until = ? "
                "WHERE id = (SELECT MIN(id) FROM outbox WHERE channel = ? AND state = 'pending') "
                "AND next_try <= ? AND (claimed_until <= ? OR claimed_by = ?) RETURNING *",
                (owner, until, channel, now, now, owner),
            )
            if row is None:
                return None
            image = await self._one("SELECT image FROM outbox_files WHERE outbox = ?", (row["id"],))
        return convert.outbox(row, None if image is None else image["image"])

    async def release_claims(self, owner: str) -> None:
        """Give up every claim ``owner`` holds (it stops)."""
        await self._free("= ?", (owner,))

    async def take_over(self, slot: str, owner: str) -> None:
        """Free the claims that earlier owners in ``slot`` left (a process that died there:
        ``owner`` is its successor)."""
        await self._free("<> ? AND substr({0}, 1, ?) = ?", (owner, len(slot) + 1, f"{slot}#"))

    async def _free(self, holder: str, params: tuple[object, ...]) -> None:
        """Free the claims whose holder column matches ``holder`` (``{0}``: the column)."""
        async with self._transaction():
            await self.db.execute(
                "UPDATE games SET clock_claimed_by = NULL, clock_claimed_until = 0 "
                f"WHERE clock_claimed_by {holder.format('clock_claimed_by')}",
                params,
            )
            await self.db.execute(
                "UPDATE outbox SET claimed_by = NULL, claimed_until = 0 "
                f"WHERE state = 'pending' AND claimed_by {holder.format('claimed_by')}",
                params,
            )
