"""The SQL of the outbox (part of `bot.storage.Storage`): announcements stored with the change
they announce, read back in order per channel, and marked as the delivery task sends them.

``_enqueue`` runs inside a transaction its caller holds (a move, a game start, a reminder);
every other method holds the storage lock, like the rest of `Storage`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Collection, Iterable, Sequence

from bot.results import Post
from bot.storage import convert, envelope
from bot.storage.clocks import ClockStorage
from bot.storage.rows import Clock, OutboxRow
from bot.storage.shards import Shards, sqlite_params
from bot.storage.shards import sqlite_on_shards as on_shards

MISSING = "missing "
"""How the error of a post waiting for a permission begins."""
NONCE_BYTES = 8
"""The nonce is ``<16 hex digits>.<id>``: unique per database and well under Discord's 25 characters."""


MOVE_POST = (
    "UPDATE outbox SET channel = $1, nonce = $2, state = 'pending', error = NULL, next_try = 0, "
    "claimed_by = NULL, claimed_until = 0, tried_at = NULL WHERE id = $3"
)
"""A post of a game moved to another channel (`move_game`): due there at once, never tried
there, with a new nonce (one Discord saw in the channel that is gone must not answer for it)."""


def qmarks(sql: str) -> str:
    """SQL written for both backends with PostgreSQL's ``$1, $2 …``, in SQLite's ``?`` (each
    numbered parameter used once, in order)."""
    return re.sub(r"\$\d+", "?", sql)


def fresh_nonce(outbox_id: int) -> str:
    """A new nonce for the post ``outbox_id`` (see `NONCE_BYTES`)."""
    return f"{secrets.token_hex(NONCE_BYTES)}.{outbox_id}"


outbox_row = convert.outbox
WITH_FILE = "SELECT o.*, f.image FROM outbox o LEFT JOIN outbox_files f ON f.outbox = o.id"
PRUNABLE = (
    "state IN ('sent', 'failed') AND COALESCE(sent_at, created_at) < $1 AND NOT EXISTS "
    "(SELECT 1 FROM games g WHERE g.id = outbox.game AND g.version = outbox.version)"
)
"""The outbox rows `prune_outbox` forgets (their files go with them: ON DELETE CASCADE)."""
"""An outbox row and its attached file (None: it has none, or it was sent)."""


class OutboxStorage(ClockStorage):
    """Queries of the outbox; `Storage` supplies ``db`` and the lock."""

    on_enqueue: Callable[[], None] | None = None
    """Called when announcements are stored (the bot wakes its delivery task)."""

    async def _enqueue(
        self, game: int | None, posts: Iterable[Post], now: int, version: int | None = None
    ) -> list[int]:
        """Store ``posts`` for delivery (inside the caller's transaction); their outbox ids."""
        ids = []
        for post in posts:
            payload, image = envelope.dump(post)
            cur = await self.db.execute(
                "INSERT INTO outbox (game, channel, version, payload, nonce, created_at) "
                "VALUES (?, ?, ?, ?, '', ?)",
                (game, post.channel, version, payload, now),
            )
            assert cur.lastrowid is not None
            nonce = fresh_nonce(cur.lastrowid)
            await self.db.execute("UPDATE outbox SET nonce = ? WHERE id = ?", (nonce, cur.lastrowid))
            if image is not None:
                await self.db.execute(
                    "INSERT INTO outbox_files (outbox, image) VALUES (?, ?)", (cur.lastrowid, image)
                )
            ids.append(cur.lastrowid)
        if ids and self.on_enqueue is not None:
            self.on_enqueue()  # the delivery task reads them once this transaction is over
        return ids

    async def enqueue(self, game: int | None, posts: Iterable[Post], now: int) -> list[int]:
        """Store ``posts`` for delivery in a transaction of their own."""
        async with self._transaction():
            return await self._enqueue(game, posts, now)

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
        longer as it was read."""
        async with self._transaction():
            for c in {c.seat: c for c in (*reminded, *stalled)}.values():
                row = await self._one("SELECT * FROM clocks WHERE game = ? AND seat = ?", (game_id, c.seat))
                if row is None or self._clock(row) != c:
                    return None
            await self._many(
                "UPDATE clocks SET reminders = reminders + 1, last_reminded = ? WHERE game = ? AND seat = ?",
                [(now, game_id, c.seat) for c in reminded],
            )
            await self._many(
                "UPDATE clocks SET stalled = 1 WHERE game = ? AND seat = ?",
                [(game_id, c.seat) for c in stalled],
            )
            return await self._enqueue(game_id, posts, now)

    async def outbox(self, outbox_id: int) -> OutboxRow | None:
        async with self._lock:
            r = await self._one(f"{WITH_FILE} WHERE o.id = ?", (outbox_id,))
        return outbox_row(r, r["image"]) if r else None

    async def outbox_heads(self, shards: Shards | None = None) -> list[OutboxRow]:
        """The oldest pending announcement of each channel (due or not; of servers on ``shards``), by
        id, without its file."""
        async with self._lock:
            rows = await self._all(
                "SELECT o.* FROM outbox o LEFT JOIN games g ON g.id = o.game WHERE o.id IN "
                "(SELECT MIN(id) FROM outbox WHERE state = 'pending' GROUP BY channel) "
                f"AND {on_shards('g.guild')} ORDER BY o.id",
                sqlite_params(shards),
            )
        return [outbox_row(r) for r in rows]

    async def outbox_head(self, channel: int) -> OutboxRow | None:
        """The oldest pending announcement of one channel."""
        async with self._lock:
            r = await self._one(
                f"{WITH_FILE} WHERE o.channel = ? AND o.state = 'pending' ORDER BY o.id LIMIT 1", (channel,)
            )
        return outbox_row(r, r["image"]) if r else None

    async def outbox_trying(self, outbox_id: int, now: int) -> None:
        """The channel post is about to be sent (a crash after this sends it again, same nonce)."""
        async with self._lock:
            await self.db.execute(
                "UPDATE outbox SET attempts = attempts + 1, tried_at = ? WHERE id = ?", (now, outbox_id)
            )

    async def outbox_dm_done(self, outbox_id: int, index: int, message_id: int) -> None:
        """The ``index``-th DM was sent (``message_id``) or cannot be delivered (0)."""
        async with self._lock:
            await self.db.execute(
                "UPDATE outbox SET dms_done = json_set(dms_done, ?, ?) WHERE id = ?",
                (f'$."{index}"', message_id, outbox_id),
            )

    async def outbox_sent(self, outbox_id: int, message_id: int | None, now: int) -> bool:
        """Delivered: the attached file and the drawing (`bot.service.drawings`: a few KB, needed
        no more) are dropped, and the game's channel works again; whether another post of its
        channel is pending."""
        async with self._transaction():
            await self.db.execute(
                "UPDATE outbox SET state = 'sent', message_id = ?, sent_at = ?, error = NULL, "
                "payload = json_remove(payload, '$.message.drawing') WHERE id = ?",
                (message_id, now, outbox_id),
            )
            await self.db.execute("DELETE FROM outbox_files WHERE outbox = ?", (outbox_id,))
            await self.db.execute(  # only if blocked: not rewriting the game's row at every post
                "UPDATE games SET blocked = NULL WHERE id = (SELECT game FROM outbox WHERE id = ?) "
                "AND blocked IS NOT NULL",
                (outbox_id,),
            )
            [(more,)] = await self.db.execute_fetchall(
                "SELECT EXISTS (SELECT 1 FROM outbox WHERE state = 'pending' "
                "AND channel = (SELECT channel FROM outbox WHERE id = ?))",
                (outbox_id,),
            )
        return bool(more)

    async def outbox_retry(self, outbox_id: int, next_try: int, error: str) -> None:
        """Not sent this time; the channel's later posts wait behind it."""
        async with self._lock:
            await self.db.execute(
                "UPDATE outbox SET next_try = ?, error = ?, claimed_by = NULL, claimed_until = 0 "
                "WHERE id = ?",
                (next_try, error[:500], outbox_id),
            )

    async def outbox_unblock(self, shards: Shards | None = None) -> None:
        """Permissions changed somewhere: the posts (of servers on ``shards``) waiting for one are
        due again at once."""
        async with self._lock:
            await self.db.execute(
                "UPDATE outbox SET next_try = 0 WHERE state = 'pending' AND error LIKE ? "
                f"AND {on_shards('(SELECT guild FROM games WHERE id = outbox.game)')}",
                (f"{MISSING}%", *sqlite_params(shards)),
            )

    async def outbox_failed(self, outbox_id: int, error: str) -> None:
        """Discord refused this post for good (a malformed request): it is passed over, logged."""
        async with self._lock:
            await self.db.execute(
                "UPDATE outbox SET state = 'failed', error = ? WHERE id = ?", (error[:500], outbox_id)
            )

    async def prune_outbox(self, before: int) -> int:
        """Forget the posts sent (or refused for good) before ``before``, but a game's post of
        its current version (the last one: the server's history links to it); how many."""
        async with self._lock:
            cur = await self.db.execute(f"DELETE FROM outbox WHERE {qmarks(PRUNABLE)}", (before,))
            return cur.rowcount

    async def hold_channel(self, channel: int, reason: str, now: int) -> list[int]:
        """The channel is gone: its pending posts are held and its running games paused (their ids)."""
        async with self._transaction():
            await self.db.execute(
                "UPDATE outbox SET state = 'held', error = ? WHERE channel = ? AND state = 'pending'",
                (reason, channel),
            )
            rows = await self._all(
                "SELECT id FROM games WHERE channel = ? AND status IN ('lobby', 'active')", (channel,)
            )
            await self.db.execute(
                "UPDATE games SET paused = ?, updated_at = ? "
                "WHERE channel = ? AND status IN ('lobby', 'active')",
                (reason, now, channel),
            )
        return [r["id"] for r in rows]

    async def release_channel(self, channel: int, now: int) -> list[int]:
        """The channel can be posted in again: its held posts are due at once and its paused
        games go on (their ids)."""
        async with self._transaction():
            await self.db.execute(
                "UPDATE outbox SET state = 'pending', error = NULL, next_try = 0, claimed_by = NULL, "
                "claimed_until = 0 WHERE channel = ? AND state = 'held'",
                (channel,),
            )
            rows = await self._all(
                "SELECT id FROM games WHERE channel = ? AND paused IS NOT NULL "
                "AND status IN ('lobby', 'active')",
                (channel,),
            )
            await self.db.execute(
                "UPDATE games SET paused = NULL, updated_at = ? "
                "WHERE channel = ? AND paused IS NOT NULL AND status IN ('lobby', 'active')",
                (now, channel),
            )
        return [r["id"] for r in rows]

    async def move_game(self, game_id: int, channel: int, now: int) -> int | None:
        """A paused game goes on in ``channel``, which has no open game: its held and waiting
        posts go there, due at once with fresh nonces (how many), the game is no longer paused.
        None: the game is not paused (any more) or ``channel`` has an open game."""
        async with self._transaction():
            row = await self._one(
                "SELECT channel FROM games WHERE id = ? AND paused IS NOT NULL "
                "AND status IN ('lobby', 'active')",
                (game_id,),
            )
            taken = await self._one(
                "SELECT 1 FROM games WHERE channel = ? AND status IN ('lobby', 'active')", (channel,)
            )
            if row is None or taken is not None:
                return None
            posts = await self._all(
                "SELECT id FROM outbox WHERE game = ? AND channel = ? AND state IN ('held', 'pending')",
                (game_id, row["channel"]),
            )
            moves = [(channel, fresh_nonce(r["id"]), r["id"]) for r in posts]
            await self.db.executemany(qmarks(MOVE_POST), moves)
            await self.db.execute(
                "UPDATE games SET channel = ?, paused = NULL, blocked = NULL, updated_at = ? WHERE id = ?",
                (channel, now, game_id),
            )
        return len(posts)

    async def set_blocked(self, game_id: int, missing: str | None) -> bool:
        """Remember which permissions the table was told are missing; False if it was told already."""
        async with self._lock:
            cur = await self.db.execute(
                "UPDATE games SET blocked = ? WHERE id = ? AND blocked IS NOT ?", (missing, game_id, missing)
            )
            return cur.rowcount == 1
