"""The outbox on PostgreSQL: announcements stored with the change they announce
(`store_posts`), read back in order per channel, claimed, and marked as they are sent.

Order per channel: `store_posts` first takes a transaction-level advisory lock on each channel
it stores for (in channel order, so that two transactions never wait for each other in a
circle; for a single channel, in the statement that stores its first post), and only then
takes ids from the sequence. A channel's ids are therefore handed out in the order the
transactions commit, as on SQLite: the lowest pending id of a channel is never one that a
transaction still open will commit after a higher one was seen.

A claim locks the channel's next post with ``FOR UPDATE SKIP LOCKED`` and then sets its lease:
a post another process is claiming at that moment is passed over, not waited for.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING

from bot.results import Post
from bot.storage import convert, envelope, queries
from bot.storage.postgres.base import Part
from bot.storage.protocol import MISSING
from bot.storage.queries import NONCE_BYTES
from bot.storage.rows import Backlog, OutboxRow
from bot.storage.shards import Shards, postgres_params
from bot.storage.shards import postgres_on_shards as on_shards

if TYPE_CHECKING:
    from bot.storage.postgres.base import Connection


_NEW_ID = "SELECT nextval(pg_get_serial_sequence('outbox', 'id')) AS id"
_ROW = (
    "INSERT INTO outbox (id, game, channel, version, payload, nonce, created_at, edits) "
    "SELECT id, $1, $2, $3, $4, $5 || '.' || to_hex(id), $6, $7 FROM new RETURNING id"
)
INSERT = f"WITH new AS ({_NEW_ID}) {_ROW}"
"""A post's row, its id drawn from the sequence in the same statement."""
INSERT_LOCKED = (
    "WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock($2::bigint)), "
    f"new AS MATERIALIZED ({_NEW_ID} FROM locked) {_ROW}"
)
"""The same, the channel's lock taken first in the statement: ``new`` reads ``locked``, so its
id is drawn once the lock is held (both materialized: each runs once, in that order)."""
HEADS = queries.HEADS.format(on_shards=on_shards("g.guild", 1))
BACKLOG = queries.BACKLOG.format(on_shards=on_shards("g.guild", 2))
UNBLOCK = queries.UNBLOCK.format(on_shards=on_shards(queries.POST_GUILD, 2))


async def store_posts(
    conn: Connection, game: int | None, posts: Iterable[Post], now: int, version: int | None = None
) -> list[int]:
    """Store ``posts`` for delivery (inside the caller's transaction); their outbox ids. The
    caller wakes the delivery (`Database.woken`) once its transaction is committed."""
    posts = list(posts)
    channels = sorted({p.channel for p in posts})
    if len(channels) > 1:  # every lock before any id: in channel order, never in a circle
        for channel in channels:
            await conn.execute("SELECT pg_advisory_xact_lock($1::bigint)", channel)
    ids = []
    for k, post in enumerate(posts):
        payload, image = envelope.dump(post)
        # The nonce ends with the post's id: the id is drawn first, in the same statement
        # (after the lock of the channel when there is one channel: one round trip less).
        outbox_id: int = await conn.fetchval(
            INSERT_LOCKED if k == 0 and len(channels) == 1 else INSERT,
            game, post.channel, version, payload, secrets.token_hex(NONCE_BYTES), now, post.edits,
        )  # fmt: skip
        if image is not None:
            await conn.execute(queries.NEW_FILE, outbox_id, image)
        ids.append(outbox_id)
    return ids


OPEN_GAMES = "channel = $1 AND status IN ('lobby', 'active')"
"""A channel's lobby or running game (its first parameter: the channel)."""


class Outbox(Part):
    """Queries of the outbox (see `bot.storage.protocol.OutboxProtocol`)."""

    async def enqueue(self, game: int | None, posts: Iterable[Post], now: int) -> list[int]:
        """Store ``posts`` for delivery in a transaction of their own."""
        async with self.db.transaction() as conn:
            ids = await store_posts(conn, game, posts, now)
        self.db.woken(ids)
        return ids

    async def get(self, outbox_id: int) -> OutboxRow | None:
        r = await self.db.one(queries.POST, outbox_id)
        return convert.outbox(r, r["image"]) if r else None

    async def heads(self, shards: Shards | None = None) -> list[OutboxRow]:
        """The oldest pending announcement of each channel (due or not; of servers on ``shards``), by
        id, without its file."""
        rows = await self.db.all(HEADS, *postgres_params(shards))
        return [convert.outbox(r) for r in rows]

    async def backlog(self, shards: Shards | None = None) -> Backlog:
        """The posts waiting to be sent and the oldest one's time (not those waiting for a permission)."""
        r = await self.db.one(BACKLOG, f"{MISSING}%", *postgres_params(shards))
        return Backlog(r["posts"], r["oldest"]) if r else Backlog(0, None)

    async def head(self, channel: int) -> OutboxRow | None:
        """The oldest pending announcement of one channel."""
        r = await self.db.one(queries.HEAD, channel)
        return convert.outbox(r, r["image"]) if r else None

    async def claim(self, channel: int, owner: str, now: int, until: int) -> OutboxRow | None:
        """Claim the channel's next announcement (its oldest pending one) until ``until``, if it is
        due and free, expired or ``owner``'s: the row, or None (also while another process is
        claiming it: the head is locked, never skipped for the post after it)."""
        row = await self.db.one(
            "WITH claimed AS (UPDATE outbox o SET claimed_by = $2, claimed_until = $4 FROM (SELECT id "
            "FROM outbox WHERE id = (SELECT MIN(id) FROM outbox WHERE channel = $1 AND state = 'pending') "
            "FOR UPDATE SKIP LOCKED) AS head WHERE o.id = head.id AND o.state = 'pending' "
            "AND o.next_try <= $3 AND (o.claimed_until <= $3 OR o.claimed_by = $2) RETURNING o.*) "
            "SELECT claimed.*, f.image FROM claimed LEFT JOIN outbox_files f ON f.outbox = claimed.id",
            channel, owner, now, until,
        )  # fmt: skip
        return None if row is None else convert.outbox(row, row["image"])

    async def trying(self, outbox_id: int, now: int) -> None:
        """The channel post is about to be sent (a crash after this sends it again, same nonce)."""
        await self.db.execute(queries.TRYING, now, outbox_id)

    async def dm_done(self, outbox_id: int, index: int, message_id: int) -> None:
        """The ``index``-th DM was sent (``message_id``) or cannot be delivered (0)."""
        await self.db.execute(
            "UPDATE outbox SET dms_done = jsonb_set(dms_done, ARRAY[$1::text], to_jsonb($2::bigint)) "
            "WHERE id = $3",
            str(index), message_id, outbox_id,
        )  # fmt: skip

    async def sent(self, outbox_id: int, message_id: int | None, now: int) -> bool:
        """Delivered: the attached file and the drawing are dropped, and the game's channel works
        again; whether another post of its channel is pending."""
        # One statement (atomic by itself): one round trip instead of five with a transaction.
        # Its parts see the table as it was before it: the post itself still looks pending.
        more: bool = await self.db.value(
            "WITH sent AS (UPDATE outbox SET state = 'sent', message_id = $1, sent_at = $2, error = NULL, "
            "payload = (payload::jsonb #- '{message,drawing}')::text WHERE id = $3 RETURNING game, channel), "
            "dropped AS (DELETE FROM outbox_files WHERE outbox = $3), "
            "unblocked AS (UPDATE games SET blocked = NULL WHERE id = (SELECT game FROM sent) "
            "AND blocked IS NOT NULL) "
            "SELECT EXISTS (SELECT 1 FROM outbox WHERE channel = (SELECT channel FROM sent) "
            "AND state = 'pending' AND id <> $3)",
            message_id, now, outbox_id,
        )  # fmt: skip
        return more

    async def retry(self, outbox_id: int, next_try: int, error: str) -> None:
        """Not sent this time; the channel's later posts wait behind it."""
        await self.db.execute(queries.RETRY, next_try, error[:500], outbox_id)

    async def unblock(self, shards: Shards | None = None) -> None:
        """Permissions changed somewhere: the posts (of servers on ``shards``) waiting for one are
        due again at once."""
        await self.db.execute(UNBLOCK, f"{MISSING}%", *postgres_params(shards))

    async def failed(self, outbox_id: int, error: str) -> None:
        """Discord refused this post for good (a malformed request): it is passed over, logged."""
        await self.db.execute(queries.FAILED, error[:500], outbox_id)

    async def prune(self, before: int) -> int:
        """Forget the posts sent (or refused for good) before ``before``, but a game's post of
        its current version (the last one: the server's history links to it); how many."""
        return await self.db.execute(f"DELETE FROM outbox WHERE {queries.PRUNABLE}", before)

    async def last_posts(self, games: Collection[int]) -> dict[int, tuple[int, int]]:
        rows = await self.db.all(
            "SELECT DISTINCT ON (game) game, channel, message_id FROM outbox WHERE state = 'sent' "
            "AND edits IS NULL AND message_id > 0 AND game = ANY($1::bigint[]) ORDER BY game, id DESC",
            list(games),
        )
        return {r["game"]: (r["channel"], r["message_id"]) for r in rows}

    async def hold_channel(self, channel: int, reason: str, now: int) -> list[int]:
        """The channel is gone: its pending posts are held and its open games paused (the ids of
        those not paused before, read under the rows' lock: a call at the same time waits, then
        sees them paused)."""
        async with self.db.transaction() as conn:
            await conn.execute(queries.HOLD, reason, channel)
            was = await conn.fetch(f"SELECT id, paused FROM games WHERE {OPEN_GAMES} FOR UPDATE", channel)
            await conn.execute(
                f"UPDATE games SET paused = $2, updated_at = $3 WHERE {OPEN_GAMES}", channel, reason, now
            )
        return sorted(r["id"] for r in was if r["paused"] is None)

    async def release_channel(self, channel: int, now: int) -> list[int]:
        """The channel can be posted in again: its held posts are due at once and its paused
        games go on (their ids)."""
        async with self.db.transaction() as conn:
            await conn.execute(queries.RELEASE, channel)
            rows = await conn.fetch(
                "UPDATE games SET paused = NULL, updated_at = $1 "
                "WHERE channel = $2 AND paused IS NOT NULL AND status IN ('lobby', 'active') RETURNING id",
                now, channel,
            )  # fmt: skip
        return sorted(r["id"] for r in rows)
