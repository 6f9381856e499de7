"""The move log and private notes in SQLite: reading them, and storing moves.

A move is one transaction guarded by the version check (`Moves.commit_moves`); it stores the
clocks (`clocks.sync_clocks`), the results of a game it ends (`history.store_results`) and the
posts announcing it (`outbox.store_posts`) in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

from bot.results import Post
from bot.storage import convert, queries
from bot.storage.convert import events_json, told_json
from bot.storage.queries import qmarks
from bot.storage.rows import Clock, MoveRow, Placing, Secret
from bot.storage.sqlite.base import Part, many
from bot.storage.sqlite.clocks import sync_clocks
from bot.storage.sqlite.history import store_results
from bot.storage.sqlite.outbox import store_posts

OPEN_GAME = "SELECT * FROM games WHERE channel = ? AND status IN (?, ?)"
"""A channel's lobby or running game (parameters: the channel, then `OPEN`)."""


class Moves(Part):
    """Queries of the move log (see `bot.storage.protocol.MovesProtocol`)."""

    async def moves(self, game_id: int, last: int | None = None) -> list[MoveRow]:
        """The move log in order, undone moves left out (only the ``last`` n moves when given)."""
        rows = await self.db.all(
            "SELECT * FROM (SELECT * FROM moves WHERE game = ? AND undone = 0 ORDER BY number DESC "
            "LIMIT ?) ORDER BY number",
            (game_id, -1 if last is None else last),
        )
        return [convert.move(r) for r in rows]

    async def moved_since(
        self, game_id: int, version: int, seat: int, text: str | None = None
    ) -> MoveRow | None:
        """The first move ``seat`` made (``text``, when given) after the game was at ``version``."""
        row = await self.db.one(
            "SELECT * FROM moves WHERE game = ? AND number > ? AND seat = ? AND auto = 0 AND undone = 0 "
            "AND (? IS NULL OR text = ?) ORDER BY number LIMIT 1",
            (game_id, version, seat, text, text),
        )
        return None if row is None else convert.move(row)

    async def moves_after(self, game_id: int, version: int) -> bool:
        """Whether a move (not taken back) was stored after the game was at ``version``."""
        row = await self.db.one(
            "SELECT 1 FROM moves WHERE game = ? AND number > ? AND undone = 0 LIMIT 1", (game_id, version)
        )
        return row is not None

    async def last_move_of(self, game_id: int, seat: int) -> MoveRow | None:
        """The seat's last move that was not taken back."""
        row = await self.db.one(
            "SELECT * FROM moves WHERE game = ? AND seat = ? AND undone = 0 ORDER BY number DESC LIMIT 1",
            (game_id, seat),
        )
        return None if row is None else convert.move(row)

    async def last_batch_id(self, game_id: int) -> int | None:
        """The batch of the game's last move that was not taken back (None: no move yet)."""
        row = await self.db.one(
            "SELECT batch FROM moves WHERE game = ? AND undone = 0 ORDER BY number DESC LIMIT 1", (game_id,)
        )
        return None if row is None else row["batch"]

    async def secrets(self, game_id: int, seat: int, year: int) -> list[Secret]:
        rows = await self.db.all(
            "SELECT * FROM secrets WHERE game = ? AND seat = ? AND year = ? ORDER BY move, rowid",
            (game_id, seat, year),
        )
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
        all in one transaction; the posts' outbox ids.

        Returns None, changing nothing, when the game is no longer at that version (someone
        else's move was stored first) or is not running. ``clocks`` are the seats we wait for
        now (see `sync_clocks`); ``away`` seats are played for from now on; ``undo`` lists move
        numbers taken back (the version then still goes up by one, so old buttons stay stale).
        ``batch`` joins the moves to an earlier batch (the computer players' answers to a move,
        taken back with it); by default they are a batch of their own. ``placings`` are the
        results of the game when these moves end it (stored with the ratings of ``guild``).
        """
        version = based_on + (len(moves) if not undo else 1)
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                qmarks(queries.COMMIT),
                (version, json.dumps(record), json.dumps(snapshot), status,
                 json.dumps(highlight), now, game_id, based_on),
            )  # fmt: skip
            if cur.rowcount != 1:
                return None  # nothing was written: the transaction ends empty
            await many(
                conn,
                qmarks(queries.NEW_MOVE),
                [(game_id, m.number, m.seat, m.text, m.summary, int(m.auto), now, int(m.reveals),
                  based_on if batch is None else batch, events_json(m)) for m in moves],
            )  # fmt: skip
            await conn.execute(qmarks(queries.ASKED), (game_id, based_on, based_on))
            await conn.execute(qmarks(queries.LATE), (now, game_id, now, game_id, based_on))
            await many(
                conn,
                qmarks(queries.NEW_SECRET),
                [(game_id, s.seat, s.year, s.move, s.kind, s.text, told_json(s)) for s in secrets],
            )
            await many(
                conn,
                "UPDATE moves SET undone = 1 WHERE game = ? AND number = ?",
                [(game_id, n) for n in undo],
            )
            conduct = [("resigned", resign)] if resign is not None else []
            conduct += [("missed", a) for a in away]
            await many(conn, qmarks(queries.CONDUCT), [(k, now, game_id, seat) for k, seat in conduct])
            if resign is not None:
                await conn.execute(
                    "UPDATE seats SET resigned = 1 WHERE game = ? AND seat = ?", (game_id, resign)
                )
            await many(
                conn, "UPDATE seats SET away = 1 WHERE game = ? AND seat = ?", [(game_id, a) for a in away]
            )
            if clocks is not None:
                await sync_clocks(conn, game_id, clocks, restart)
            if placings:
                await store_results(conn, game_id, guild, placings, now)
            ids = await store_posts(conn, game_id, posts, now, version=version)
        self.db.woken(ids)
        return ids

    # --- settings and the table's channel -------------------------------------------
