"""The move log and private notes on PostgreSQL: reading them, and storing moves.

A move is one transaction guarded by the version check: ``UPDATE games … WHERE id = $7 AND
version = $8 AND status = 'active'``. The update locks the game's row; a second commit based
on the same version, from this process or another, waits for the first to end and then finds
no row at that version (PostgreSQL checks the condition again on the committed row), so it
stores nothing. Lobby changes lock the game's row before they read its seats (`lock_game`).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from bot.results import Post
from bot.storage import convert, queries
from bot.storage.convert import events_json, told_json
from bot.storage.postgres.base import Part, affected, many
from bot.storage.postgres.clocks import sync_clocks
from bot.storage.postgres.history import store_results
from bot.storage.postgres.outbox import store_posts
from bot.storage.rows import Clock, MoveRow, Placing, Secret


class Moves(Part):
    """Queries of the move log (see `bot.storage.protocol.MovesProtocol`)."""

    async def moves(self, game_id: int, last: int | None = None) -> list[MoveRow]:
        """The move log in order, undone moves left out (only the ``last`` n moves when given)."""
        rows = await self.db.all(
            "SELECT * FROM (SELECT * FROM moves WHERE game = $1 AND NOT undone ORDER BY number DESC "
            "LIMIT $2) AS m ORDER BY number",
            game_id, last,
        )  # fmt: skip
        return [convert.move(r) for r in rows]

    async def moved_since(
        self, game_id: int, version: int, seat: int, text: str | None = None
    ) -> MoveRow | None:
        """The first move ``seat`` made (``text``, when given) after the game was at ``version``."""
        row = await self.db.one(
            "SELECT * FROM moves WHERE game = $1 AND number > $2 AND seat = $3 AND NOT auto AND NOT undone "
            "AND ($4::text IS NULL OR text = $4) ORDER BY number LIMIT 1",
            game_id, version, seat, text,
        )  # fmt: skip
        return None if row is None else convert.move(row)

    async def moves_after(self, game_id: int, version: int) -> bool:
        """Whether a move (not taken back) was stored after the game was at ``version``."""
        found = await self.db.one(
            "SELECT 1 FROM moves WHERE game = $1 AND number > $2 AND NOT undone LIMIT 1", game_id, version
        )
        return found is not None

    async def last_move_of(self, game_id: int, seat: int) -> MoveRow | None:
        """The seat's last move that was not taken back."""
        row = await self.db.one(
            "SELECT * FROM moves WHERE game = $1 AND seat = $2 AND NOT undone ORDER BY number DESC LIMIT 1",
            game_id, seat,
        )  # fmt: skip
        return None if row is None else convert.move(row)

    async def last_batch_id(self, game_id: int) -> int | None:
        """The batch of the game's last move that was not taken back (None: no move yet)."""
        row = await self.db.one(
            "SELECT batch FROM moves WHERE game = $1 AND NOT undone ORDER BY number DESC LIMIT 1", game_id
        )
        return None if row is None else row["batch"]

    async def secrets(self, game_id: int, seat: int, year: int) -> list[Secret]:
        rows = await self.db.all(
            "SELECT * FROM secrets WHERE game = $1 AND seat = $2 AND year = $3 ORDER BY move, id",
            game_id, seat, year,
        )  # fmt: skip
        return [convert.secret(r) for r in rows]

    # --- lobby and status -----------------------------------------------------------

    async def commit_moves(
        self, game_id: int, *, based_on: int, moves: list[MoveRow], record: dict[str, Any],
        snapshot: dict[str, Any], status: str, highlight: list[str], secrets: list[Secret],
        now: int, resign: int | None = None, clocks: list[Clock] | None = None,
        restart: Collection[int] = (), away: Collection[int] = (), undo: Collection[int] = (),
        posts: Sequence[Post] = (), batch: int | None = None, guild: int = 0,
        placings: Sequence[Placing] = (),
    ) -> list[int] | None:  # fmt: skip
        """Store moves made on the game at version ``based_on`` and the ``posts`` announcing them,
        all in one transaction; the posts' outbox ids, or None (nothing stored) when the game is
        no longer at that version or not running. See `bot.storage.protocol.GamesProtocol`."""
        version = based_on + (len(moves) if not undo else 1)
        async with self.db.transaction() as conn:
            changed = await conn.execute(
                queries.COMMIT,
                version, json.dumps(record), json.dumps(snapshot), status, json.dumps(highlight), now,
                game_id, based_on,
            )  # fmt: skip
            if affected(changed) != 1:
                return None
            await many(
                conn,
                queries.NEW_MOVE,
                [(game_id, m.number, m.seat, m.text, m.summary, bool(m.auto), now, bool(m.reveals),
                  based_on if batch is None else batch, events_json(m)) for m in moves],
            )  # fmt: skip
            await conn.execute(queries.ASKED, game_id, based_on, based_on)
            await conn.execute(queries.LATE, now, game_id, now, game_id, based_on)
            await many(
                conn,
                queries.NEW_SECRET,
                [(game_id, s.seat, s.year, s.move, s.kind, s.text, told_json(s)) for s in secrets],
            )
            await many(
                conn,
                "UPDATE moves SET undone = true WHERE game = $1 AND number = $2",
                [(game_id, n) for n in undo],
            )
            conduct = [("resigned", resign)] if resign is not None else []
            conduct += [("missed", a) for a in away]
            await many(conn, queries.CONDUCT, [(k, now, game_id, seat) for k, seat in conduct])
            if resign is not None:
                await conn.execute(
                    "UPDATE seats SET resigned = true WHERE game = $1 AND seat = $2", game_id, resign
                )
            await many(
                conn,
                "UPDATE seats SET away = true WHERE game = $1 AND seat = $2",
                [(game_id, a) for a in away],
            )
            if clocks is not None:
                await sync_clocks(conn, game_id, clocks, restart)
            if placings:
                await store_results(conn, game_id, guild, placings, now)
            ids = await store_posts(conn, game_id, posts, now, version=version)
        self.db.woken(ids)
        return ids

    # --- settings and the table's channel -------------------------------------------
