"""The claims on PostgreSQL, all of a process's at once: given up when it stops, taken over from
a predecessor that died (see `bot.storage.shards`). Claiming one game's clock or one channel's
next post is in `clocks` and `outbox`."""

from __future__ import annotations

from bot.storage import queries
from bot.storage.postgres.base import Part


class Claims(Part):
    """Claims on clocks and announcements (see `bot.storage.protocol.ClaimsProtocol`)."""

    async def release(self, owner: str) -> None:
        """Give up every claim ``owner`` holds (it stops)."""
        await self._free(queries.OWNER, owner)

    async def take_over(self, slot: str, owner: str) -> None:
        """Free the claims that earlier owners in ``slot`` left (a process that died there:
        ``owner`` is its successor)."""
        await self._free(queries.PREDECESSORS, owner, len(slot) + 1, f"{slot}#")

    async def _free(self, holder: str, *params: object) -> None:
        """Free the claims whose holder column matches ``holder`` (``{0}``: the column)."""
        async with self.db.transaction() as conn:
            await conn.execute(queries.FREE_CLOCKS.format(holder.format("clock_claimed_by")), *params)
            await conn.execute(queries.FREE_POSTS.format(holder.format("claimed_by")), *params)
