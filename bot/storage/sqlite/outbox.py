"""The outbox in SQLite: announcements stored with the change they announce (`store_posts`,
inside the transaction of a move, a game start, a reminder, a replay), read back in order per
channel, claimed, and marked as the delivery task sends them.

SQLite runs one write at a time, so a claim is one conditional ``UPDATE … RETURNING``: it takes
the channel's next post if it is free, expired or already the claimant's, and of two claimants
exactly one gets it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import aiosqlite

from bot.results import Post
from bot.storage import convert, envelope, queries
from bot.storage.protocol import MISSING
from bot.storage.queries import fresh_nonce, qmarks
from bot.storage.rows import Backlog, OutboxRow
from bot.storage.shards import Shards, sqlite_params
from bot.storage.shards import sqlite_on_shards as on_shards
from bot.storage.sqlite.base import Part, fetch_all, fetch_one

HEADS = queries.HEADS.format(on_shards=on_shards("g.guild"))
UNBLOCK = qmarks(queries.UNBLOCK).format(on_shards=on_shards(queries.POST_GUILD))
BACKLOG = qmarks(queries.BACKLOG).format(on_shards=on_shards("g.guild"))
OPEN_GAMES = "channel = ? AND status IN ('lobby', 'active')"
"""A channel's lobby or running game (its parameter: the channel)."""


async def store_posts(
    conn: aiosqlite.Connection, game: int | None, posts: Iterable[Post], now: int, version: int | None = None
) -> list[int]:
    """Store ``posts`` for delivery (inside the caller's transaction); their outbox ids. The
    caller wakes the delivery (`Database.woken`) once its transaction is committed."""
    ids = []
    for post in posts:
        payload, image = envelope.dump(post)
        cur = await conn.execute(
            "INSERT INTO outbox (game, channel, version, payload, nonce, created_at, edits) "
            "VALUES (?, ?, ?, ?, '', ?, ?)",
            (game, post.channel, version, payload, now, post.edits),
        )
        assert cur.lastrowid is not None
        await conn.execute(
            "UPDATE outbox SET nonce = ? WHERE id = ?", (fresh_nonce(cur.lastrowid), cur.lastrowid)
        )
        if image is not None:
            await conn.execute(qmarks(queries.NEW_FILE), (cur.lastrowid, image))
        ids.append(cur.lastrowid)
    return ids


class Outbox(Part):
    """Queries of the outbox (see `bot.storage.protocol.OutboxProtocol`)."""

    async def enqueue(self, game: int | None, posts: Iterable[Post], now: int) -> list[int]:
        """Store ``posts`` for delivery in a transaction of their own."""
        async with self.db.transaction() as conn:
            ids = await store_posts(conn, game, posts, now)
        self.db.woken(ids)
        return ids

    async def get(self, outbox_id: int) -> OutboxRow | None:
        r = await self.db.one(qmarks(queries.POST), (outbox_id,))
        return convert.outbox(r, r["image"]) if r else None

    async def heads(self, shards: Shards | None = None) -> list[OutboxRow]:
        """The oldest pending announcement of each channel (due or not; of servers on ``shards``), by
        id, without its file."""
        rows = await self.db.all(HEADS, sqlite_params(shards))
        return [convert.outbox(r) for r in rows]

    async def backlog(self, shards: Shards | None = None) -> Backlog:
        """The posts waiting to be sent and the oldest one's time (not those waiting for a permission)."""
        r = await self.db.one(BACKLOG, (f"{MISSING}%", *sqlite_params(shards)))
        return Backlog(r["posts"], r["oldest"]) if r else Backlog(0, None)

    async def head(self, channel: int) -> OutboxRow | None:
        """The oldest pending announcement of one channel."""
        r = await self.db.one(qmarks(queries.HEAD), (channel,))
        return convert.outbox(r, r["image"]) if r else None

    async def claim(self, channel: int, owner: str, now: int, until: int) -> OutboxRow | None:
        """Claim the channel's next announcement (its oldest pending one) until ``until``, if it is
        due and free, expired or ``owner``'s: the row, or None."""
        async with self.db.locked() as conn:
            row = await fetch_one(
                conn,
                "UPDATE outbox SET claimed_by = ?, claimed_until = ? "
                "WHERE id = (SELECT MIN(id) FROM outbox WHERE channel = ? AND state = 'pending') "
                "AND next_try <= ? AND (claimed_until <= ? OR claimed_by = ?) RETURNING *",
                (owner, until, channel, now, now, owner),
            )
            if row is None:
                return None
            image = await fetch_one(conn, "SELECT image FROM outbox_files WHERE outbox = ?", (row["id"],))
        return convert.outbox(row, None if image is None else image["image"])

    async def trying(self, outbox_id: int, now: int) -> None:
        """The channel post is about to be sent (a crash after this sends it again, same nonce)."""
        await self.db.execute(qmarks(queries.TRYING), (now, outbox_id))

    async def dm_done(self, outbox_id: int, index: int, message_id: int) -> None:
        """The ``index``-th DM was sent (``message_id``) or cannot be delivered (0)."""
        await self.db.execute(
            "UPDATE outbox SET dms_done = json_set(dms_done, ?, ?) WHERE id = ?",
            (f'$."{index}"', message_id, outbox_id),
        )

    async def sent(self, outbox_id: int, message_id: int | None, now: int) -> bool:
        """Delivered: the attached file and the drawing (`bot.service.drawings`: a few KB, needed
        no more) are dropped, and the game's channel works again; whether another post of its
        channel is pending."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "UPDATE outbox SET state = 'sent', message_id = ?, sent_at = ?, error = NULL, "
                "payload = json_remove(payload, '$.message.drawing') WHERE id = ?",
                (message_id, now, outbox_id),
            )
            await conn.execute("DELETE FROM outbox_files WHERE outbox = ?", (outbox_id,))
            await conn.execute(  # only if blocked: not rewriting the game's row at every post
                "UPDATE games SET blocked = NULL WHERE id = (SELECT game FROM outbox WHERE id = ?) "
                "AND blocked IS NOT NULL",
                (outbox_id,),
            )
            [(more,)] = await conn.execute_fetchall(
                "SELECT EXISTS (SELECT 1 FROM outbox WHERE state = 'pending' "
                "AND channel = (SELECT channel FROM outbox WHERE id = ?))",
                (outbox_id,),
            )
        return bool(more)

    async def retry(self, outbox_id: int, next_try: int, error: str) -> None:
        """Not sent this time; the channel's later posts wait behind it."""
        await self.db.execute(qmarks(queries.RETRY), (next_try, error[:500], outbox_id))

    async def unblock(self, shards: Shards | None = None) -> None:
        """Permissions changed somewhere: the posts (of servers on ``shards``) waiting for one are
        due again at once."""
        await self.db.execute(UNBLOCK, (f"{MISSING}%", *sqlite_params(shards)))

    async def failed(self, outbox_id: int, error: str) -> None:
        """Discord refused this post for good (a malformed request): it is passed over, logged."""
        await self.db.execute(qmarks(queries.FAILED), (error[:500], outbox_id))

    async def prune(self, before: int) -> int:
        """Forget the posts sent (or refused for good) before ``before``, but a game's post of
        its current version (the last one: the server's history links to it); how many."""
        return await self.db.execute(f"DELETE FROM outbox WHERE {qmarks(queries.PRUNABLE)}", (before,))

    async def last_posts(self, games: Collection[int]) -> dict[int, tuple[int, int]]:
        ids = tuple(games)
        rows = await self.db.all(
            "SELECT game, channel, message_id FROM outbox WHERE id IN (SELECT max(id) FROM outbox WHERE "
            f"state = 'sent' AND edits IS NULL AND message_id > 0 AND game IN ({', '.join('?' * len(ids))}) "
            "GROUP BY game)",
            ids,
        )
        return {r["game"]: (r["channel"], r["message_id"]) for r in rows}

    async def hold_channel(self, channel: int, reason: str, now: int) -> list[int]:
        """The channel is gone: its pending posts are held and its open games paused (the ids of
        those not paused before)."""
        async with self.db.transaction() as conn:
            await conn.execute(qmarks(queries.HOLD), (reason, channel))
            rows = await fetch_all(
                conn, f"SELECT id FROM games WHERE {OPEN_GAMES} AND paused IS NULL", (channel,)
            )
            await conn.execute(
                f"UPDATE games SET paused = ?, updated_at = ? WHERE {OPEN_GAMES}", (reason, now, channel)
            )
        return [r["id"] for r in rows]

    async def release_channel(self, channel: int, now: int) -> list[int]:
        """The channel can be posted in again: its held posts are due at once and its paused
        games go on (their ids)."""
        async with self.db.transaction() as conn:
            await conn.execute(qmarks(queries.RELEASE), (channel,))
            rows = await fetch_all(
                conn, f"SELECT id FROM games WHERE {OPEN_GAMES} AND paused IS NOT NULL", (channel,)
            )
            await conn.execute(
                f"UPDATE games SET paused = NULL, updated_at = ? WHERE {OPEN_GAMES} AND paused IS NOT NULL",
                (now, channel),
            )
        return [r["id"] for r in rows]
