"""The SQL of the outbox on PostgreSQL (the twin of `bot.storage.outbox`): announcements stored
with the change they announce, read back in order per channel, and marked as they are sent.

Order per channel: `_enqueue` first takes a transaction-level advisory lock on each channel it
stores for (in channel order, so that two transactions never wait for each other in a circle;
for a single channel, in the statement that stores its first post), and only then takes ids
from the sequence. A channel's ids are therefore handed out in the order
the transactions commit, as on SQLite: the lowest pending id of a channel is never one that a
transaction still open will commit after a higher one was seen.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING

import asyncpg

from bot.results import Post
from bot.storage import convert, envelope
from bot.storage.outbox import MISSING, MOVE_POST, NONCE_BYTES, PRUNABLE, WITH_FILE, fresh_nonce
from bot.storage.postgres.base import many
from bot.storage.postgres.clocks import PgClocks
from bot.storage.protocol import OPEN
from bot.storage.rows import Clock, OutboxRow
from bot.storage.shards import Shards, postgres_params
from bot.storage.shards import postgres_on_shards as on_shards

if TYPE_CHECKING:
    from bot.storage.postgres.base import Connection


_NEW_ID = "SELECT nextval(pg_get_serial_sequence('outbox', 'id')) AS id"
_ROW = (
    "INSERT INTO outbox (id, game, channel, version, payload, nonce, created_at) "
    "SELECT id, $1, $2, $3, $4, $5 || '.' || id, $6 FROM new RETURNING id"
)
INSERT = f"WITH new AS ({_NEW_ID}) {_ROW}"
"""A post's row, its id drawn from the sequence in the same statement."""
INSERT_LOCKED = (
    "WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock($2::bigint)), "
    f"new AS MATERIALIZED ({_NEW_ID} FROM locked) {_ROW}"
)
"""The same, the channel's lock taken first in the statement: ``new`` reads ``locked``, so its
id is drawn once the lock is held (both materialized: each runs once, in that order)."""


class PgOutbox(PgClocks):
    """Queries of the outbox."""

    @staticmethod
    async def _enqueue(
        conn: Connection, game: int | None, posts: Iterable[Post], now: int, version: int | None = None
    ) -> list[int]:
        """Store ``posts`` for delivery (inside the caller's transaction); their outbox ids. The
        caller wakes the delivery (`_woken`) once its transaction is committed."""
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
                game, post.channel, version, payload, secrets.token_hex(NONCE_BYTES), now,
            )  # fmt: skip
            if image is not None:
                await conn.execute(
                    "INSERT INTO outbox_files (outbox, image) VALUES ($1, $2)", outbox_id, image
                )
            ids.append(outbox_id)
        return ids

    async def enqueue(self, game: int | None, posts: Iterable[Post], now: int) -> list[int]:
        """Store ``posts`` for delivery in a transaction of their own."""
        async with self._transaction() as conn:
            ids = await self._enqueue(conn, game, posts, now)
        self._woken(ids)
        return ids

    async def remind(
        self,
        game_id: int,
        *,
        reminded: Collection[Clock],
        stalled: Collection[Clock],
        posts: Sequence[Post],
        now: int,
    ) -> list[int] | None:
        """Count the reminders sent to ``reminded``, mark ``stalled`` clocks, and store the posts
        that tell them, in one transaction; None (nothing stored) when one of these clocks is no
        longer as it was read (their rows are locked while they are compared)."""
        async with self._transaction() as conn:
            for c in {c.seat: c for c in (*reminded, *stalled)}.values():
                row = await conn.fetchrow(
                    "SELECT * FROM clocks WHERE game = $1 AND seat = $2 FOR UPDATE", game_id, c.seat
                )
                if row is None or convert.clock(row) != c:
                    return None
            await many(
                conn,
                "UPDATE clocks SET reminders = reminders + 1, last_reminded = $1 "
                "WHERE game = $2 AND seat = $3",
                [(now, game_id, c.seat) for c in reminded],
            )
            await many(
                conn,
                "UPDATE clocks SET stalled = true WHERE game = $1 AND seat = $2",
                [(game_id, c.seat) for c in stalled],
            )
            ids = await self._enqueue(conn, game_id, posts, now)
        self._woken(ids)
        return ids

    async def outbox(self, outbox_id: int) -> OutboxRow | None:
        r = await self._one(f"{WITH_FILE} WHERE o.id = $1", outbox_id)
        return convert.outbox(r, r["image"]) if r else None

    async def outbox_heads(self, shards: Shards | None = None) -> list[OutboxRow]:
        """The oldest pending announcement of each channel (due or not; of servers on ``shards``), by
        id, without its file."""
        rows = await self._all(
            "SELECT o.* FROM outbox o LEFT JOIN games g ON g.id = o.game WHERE o.id IN "
            "(SELECT MIN(id) FROM outbox WHERE state = 'pending' GROUP BY channel) "
            f"AND {on_shards('g.guild', 1)} ORDER BY o.id",
            *postgres_params(shards),
        )
        return [convert.outbox(r) for r in rows]

    async def outbox_head(self, channel: int) -> OutboxRow | None:
        """The oldest pending announcement of one channel."""
        r = await self._one(
            f"{WITH_FILE} WHERE o.channel = $1 AND o.state = 'pending' ORDER BY o.id LIMIT 1", channel
        )
        return convert.outbox(r, r["image"]) if r else None

    async def outbox_trying(self, outbox_id: int, now: int) -> None:
        """The channel post is about to be sent (a crash after this sends it again, same nonce)."""
        await self._execute(
            "UPDATE outbox SET attempts = attempts + 1, tried_at = $1 WHERE id = $2", now, outbox_id
        )

    async def outbox_dm_done(self, outbox_id: int, index: int, message_id: int) -> None:
        """The ``index``-th DM was sent (``message_id``) or cannot be delivered (0)."""
        await self._execute(
            "UPDATE outbox SET dms_done = jsonb_set(dms_done, ARRAY[$1::text], to_jsonb($2::bigint)) "
            "WHERE id = $3",
            str(index), message_id, outbox_id,
        )  # fmt: skip

    async def outbox_sent(self, outbox_id: int, message_id: int | None, now: int) -> bool:
        """Delivered: the attached file and the drawing are dropped, and the game's channel works
        again; whether another post of its channel is pending."""
        # One statement (atomic by itself): one round trip instead of five with a transaction.
        # Its parts see the table as it was before it: the post itself still looks pending.
        more: bool = await self.pool.fetchval(
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

    async def prune_outbox(self, before: int) -> int:
        """Forget the posts sent (or refused for good) before ``before``, but a game's post of
        its current version (the last one: the server's history links to it); how many."""
        return await self._execute(f"DELETE FROM outbox WHERE {PRUNABLE}", before)

    async def outbox_retry(self, outbox_id: int, next_try: int, error: str) -> None:
        """Not sent this time; the channel's later posts wait behind it."""
        await self._execute(
            "UPDATE outbox SET next_try = $1, error = $2, claimed_by = NULL, claimed_until = 0 WHERE id = $3",
            next_try,
            error[:500],
            outbox_id,
        )

    async def outbox_unblock(self, shards: Shards | None = None) -> None:
        """Permissions changed somewhere: the posts (of servers on ``shards``) waiting for one are
        due again at once."""
        await self._execute(
            "UPDATE outbox SET next_try = 0 WHERE state = 'pending' AND error LIKE $1 "
            f"AND {on_shards('(SELECT guild FROM games WHERE id = outbox.game)', 2)}",
            f"{MISSING}%", *postgres_params(shards),
        )  # fmt: skip

    async def outbox_failed(self, outbox_id: int, error: str) -> None:
        """Discord refused this post for good (a malformed request): it is passed over, logged."""
        await self._execute(
            "UPDATE outbox SET state = 'failed', error = $1 WHERE id = $2", error[:500], outbox_id
        )

    async def hold_channel(self, channel: int, reason: str, now: int) -> list[int]:
        """The channel is gone: its pending posts are held and its running games paused (their ids)."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE outbox SET state = 'held', error = $1 WHERE channel = $2 AND state = 'pending'",
                reason, channel,
            )  # fmt: skip
            rows = await conn.fetch(
                "UPDATE games SET paused = $1, updated_at = $2 "
                "WHERE channel = $3 AND status IN ('lobby', 'active') RETURNING id",
                reason, now, channel,
            )  # fmt: skip
        return sorted(r["id"] for r in rows)

    async def release_channel(self, channel: int, now: int) -> list[int]:
        """The channel can be posted in again: its held posts are due at once and its paused
        games go on (their ids)."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE outbox SET state = 'pending', error = NULL, next_try = 0, claimed_by = NULL, "
                "claimed_until = 0 WHERE channel = $1 AND state = 'held'",
                channel,
            )
            rows = await conn.fetch(
                "UPDATE games SET paused = NULL, updated_at = $1 "
                "WHERE channel = $2 AND paused IS NOT NULL AND status IN ('lobby', 'active') RETURNING id",
                now, channel,
            )  # fmt: skip
        return sorted(r["id"] for r in rows)

    async def move_game(self, game_id: int, channel: int, now: int) -> int | None:
        """A paused game goes on in ``channel``, which has no open game: its held and waiting
        posts go there, due at once with fresh nonces (how many), the game is no longer paused.
        None: the game is not paused (any more) or ``channel`` has an open game."""
        try:
            async with self._transaction() as conn:
                await conn.execute("SELECT pg_advisory_xact_lock($1::bigint)", channel)  # as `_enqueue`
                old = await conn.fetchval(
                    "SELECT channel FROM games WHERE id = $1 AND paused IS NOT NULL "
                    "AND status = ANY($2::text[]) FOR UPDATE",
                    game_id, list(OPEN),
                )  # fmt: skip
                taken = await conn.fetchval(
                    "SELECT 1 FROM games WHERE channel = $1 AND status = ANY($2::text[])", channel, list(OPEN)
                )
                if old is None or taken is not None:
                    return None
                posts = await conn.fetch(
                    "SELECT id FROM outbox WHERE game = $1 AND channel = $2 AND state IN ('held', 'pending') "
                    "ORDER BY id FOR UPDATE",
                    game_id, old,
                )  # fmt: skip
                await conn.executemany(MOVE_POST, [(channel, fresh_nonce(r["id"]), r["id"]) for r in posts])
                await conn.execute(
                    "UPDATE games SET channel = $1, paused = NULL, blocked = NULL, updated_at = $2 "
                    "WHERE id = $3",
                    channel, now, game_id,
                )  # fmt: skip
        except asyncpg.UniqueViolationError:  # another game opened in ``channel`` at that moment
            return None
        self._woken([r["id"] for r in posts])
        return len(posts)

    async def set_blocked(self, game_id: int, missing: str | None) -> bool:
        """Remember which permissions the table was told are missing; False if it was told already."""
        return (
            await self._execute(
                "UPDATE games SET blocked = $1 WHERE id = $2 AND blocked IS DISTINCT FROM $1",
                missing,
                game_id,
            )
            == 1
        )
