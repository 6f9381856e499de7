"""Games and their seats in SQLite: lobbies, starts, statuses, settings and the channel a game is
in (the move log: `moves`)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import aiosqlite

from bot.results import Message, Post
from bot.storage import convert, queries
from bot.storage.convert import SETTING_COLUMNS
from bot.storage.protocol import OPEN, ChannelBusy
from bot.storage.queries import fresh_nonce, qmarks
from bot.storage.rows import Clock, GameRow, GameSettings, LobbyView, SeatRow, TooManyLobbies
from bot.storage.shards import Shards, sqlite_params
from bot.storage.shards import sqlite_on_shards as on_shards
from bot.storage.sqlite.base import Part, fetch_all, fetch_one, many
from bot.storage.sqlite.clocks import sync_clocks
from bot.storage.sqlite.outbox import store_posts

OPEN_GAME = "SELECT * FROM games WHERE channel = ? AND status IN (?, ?)"
"""A channel's lobby or running game (parameters: the channel, then `OPEN`)."""


async def lobby_edit(
    conn: aiosqlite.Connection, game_id: int, view: LobbyView | None, now: int, *,
    unless: Message | None = None,
) -> list[int]:  # fmt: skip
    """Store the edit of the lobby's message to what the lobby now is (inside the caller's
    transaction): its outbox ids ([]: no ``view``, the message is not known, or it shows ``unless``)."""
    if view is None:
        return []
    row = await fetch_one(conn, qmarks(queries.GAME), (game_id,))
    if row is None or row["lobby_message"] is None:
        return []
    game, seats = convert.game(row), await fetch_all(conn, qmarks(queries.SEATS), (game_id,))
    message = view(game, [convert.seat(r) for r in seats])
    if message == unless:
        return []
    post = Post(game.channel, message, edits=game.lobby_message)
    return await store_posts(conn, game_id, [post], now)


class Games(Part):
    """Queries of games and seats (see `bot.storage.protocol.GamesProtocol`)."""

    # --- reading --------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        row = await self.db.one(qmarks(queries.GAME), (game_id,))
        return convert.game(row) if row else None

    async def open_game(self, channel: int) -> GameRow | None:
        """The lobby or running game of a channel."""
        row = await self.db.one(OPEN_GAME, (channel, *OPEN))
        return convert.game(row) if row else None

    async def open_game_with_seats(self, channel: int) -> tuple[GameRow, list[SeatRow]] | None:
        """`open_game` and its `seats`, read under one hold of the connection."""
        async with self.db.locked() as conn:
            row = await fetch_one(conn, OPEN_GAME, (channel, *OPEN))
            if row is None:
                return None
            seats = await fetch_all(conn, qmarks(queries.SEATS), (row["id"],))
        return convert.game(row), [convert.seat(r) for r in seats]

    async def latest_game(self, channel: int) -> GameRow | None:
        """The open game of a channel, else the last one that was played there."""
        row = await self.db.one(
            "SELECT * FROM games WHERE channel = ? ORDER BY status IN (?, ?) DESC, id DESC LIMIT 1",
            (channel, *OPEN),
        )
        return convert.game(row) if row else None

    async def paused_games(self, guild: int) -> list[GameRow]:
        """The open games of ``guild`` paused because their channel is gone, oldest first."""
        rows = await self.db.all(
            "SELECT * FROM games WHERE guild = ? AND paused IS NOT NULL AND status IN (?, ?) ORDER BY id",
            (guild, *OPEN),
        )
        return [convert.game(r) for r in rows]

    async def active_games(self, shards: Shards | None = None) -> list[GameRow]:
        rows = await self.db.all(
            f"SELECT * FROM games WHERE status IN (?, ?) AND {on_shards('guild')} ORDER BY id",
            (*OPEN, *sqlite_params(shards)),
        )
        return [convert.game(r) for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.db.all(qmarks(queries.SEATS), (game_id,))
        return [convert.seat(r) for r in rows]

    async def games_of(self, user_id: int, limit: int) -> list[tuple[GameRow, list[SeatRow]]]:
        async with self.db.locked() as conn:
            games = await fetch_all(conn, qmarks(queries.GAMES_OF), (user_id, limit))
            ids = [r["id"] for r in games]
            seats = await fetch_all(
                conn,
                f"SELECT * FROM seats WHERE game IN ({', '.join('?' * len(ids))}) ORDER BY seat",
                tuple(ids),
            )
        return [(convert.game(g), [convert.seat(r) for r in seats if r["game"] == g["id"]]) for g in games]

    async def create_lobby(
        self, *, guild: int | None, channel: int, host: int, host_name: str, setup: str,
        players_wanted: int | None, now: int, limit: int | None = None,
    ) -> int:  # fmt: skip
        """A new lobby with its host seated; ChannelBusy when the channel has an open game,
        TooManyLobbies when the host has ``limit`` open lobbies in the server."""
        try:
            async with self.db.transaction() as conn:
                if limit is not None:
                    hosted = await fetch_all(conn, qmarks(queries.HOSTED), (guild or 0, host))
                    if len(hosted) >= limit:
                        raise TooManyLobbies([r["channel"] for r in hosted])
                cur = await conn.execute(
                    "INSERT INTO games (guild, channel, host, status, setup, players_wanted, "
                    "created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?)",
                    (guild, channel, host, setup, players_wanted, now, now),
                )
                game_id = cur.lastrowid
                assert game_id is not None
                await conn.execute(qmarks(queries.HOST_SEAT), (game_id, host, host_name))
        except sqlite3.IntegrityError:
            raise ChannelBusy(channel) from None
        return game_id

    async def show_lobby(
        self, game_id: int, message_id: int, *, now: int | None = None, view: LobbyView | None = None,
        sent: Message | None = None,
    ) -> None:  # fmt: skip
        async with self.db.transaction() as conn:
            await conn.execute(qmarks(queries.SHOWN), (message_id, game_id))
            ids = [] if now is None else await lobby_edit(conn, game_id, view, now, unless=sent)
        self.db.woken(ids)

    async def join_lobby(
        self, game_id: int, user_id: int, name: str, limit: int, now: int, ai_level: str | None = None,
        view: LobbyView | None = None,
    ) -> str:  # fmt: skip
        """Seat a user (or a computer player) in a lobby: ``joined``, ``already``, ``full`` or ``closed``."""
        async with self.db.transaction() as conn:
            game = await fetch_one(conn, "SELECT status FROM games WHERE id = ?", (game_id,))
            if game is None or game["status"] != "lobby":
                return "closed"
            rows = await fetch_all(conn, qmarks(queries.LOBBY_SEATS), (game_id,))
            if any(r["user_id"] == user_id for r in rows):
                return "already"
            if len(rows) >= limit:
                return "full"
            seat = max((r["seat"] for r in rows), default=-1) + 1
            await conn.execute(qmarks(queries.NEW_SEAT), (game_id, seat, user_id, name, ai_level))
            await conn.execute(qmarks(queries.TOUCH), (now, game_id))
            ids = await lobby_edit(conn, game_id, view, now)
        self.db.woken(ids)
        return "joined"

    async def add_computer(
        self, game_id: int, *, by: int, level: str, limit: int, now: int, since: int,
        view: LobbyView | None = None,
    ) -> tuple[str, int]:  # fmt: skip
        """Seat the next computer player at ``by``'s request (see the protocol)."""
        async with self.db.transaction() as conn:
            game = await fetch_one(conn, qmarks(queries.GAME), (game_id,))
            rows = await fetch_all(conn, qmarks(queries.MEMBERS), (game_id,))
            k = sum(1 for r in rows if r["ai_level"] is not None)
            if game is None or game["status"] != "lobby":
                return "closed", k
            if game["computer_by"] == by and (game["computer_at"] or 0) >= since and k:
                return "recent", k
            if len(rows) >= limit:
                return "full", k
            seat = (game_id, len(rows), -(k + 1), f"Computer {k + 1}", level)
            await conn.execute(qmarks(queries.NEW_SEAT), seat)
            await conn.execute(qmarks(queries.COMPUTER), (by, now, now, game_id))
            ids = await lobby_edit(conn, game_id, view, now)
        self.db.woken(ids)
        return "joined", k + 1

    async def leave_lobby(
        self, game_id: int, user_id: int, now: int, view: LobbyView | None = None
    ) -> tuple[str, int | None]:
        """Unseat a user: ``left``, ``not_in`` or ``closed``, with the (new) host; an empty
        lobby is abandoned, a leaving host hands over to the next member."""
        async with self.db.transaction() as conn:
            game = await fetch_one(conn, "SELECT status, host FROM games WHERE id = ?", (game_id,))
            if game is None or game["status"] != "lobby":
                return "closed", None
            rows = await fetch_all(conn, qmarks(queries.MEMBERS), (game_id,))
            rest = [(r["user_id"], r["name"], r["ai_level"]) for r in rows if r["user_id"] != user_id]
            if len(rest) == len(rows):
                return "not_in", game["host"]
            await conn.execute(qmarks(queries.NO_SEATS), (game_id,))
            await many(
                conn,
                qmarks(queries.NEW_SEAT),
                [(game_id, i, uid, name, level) for i, (uid, name, level) in enumerate(rest)],
            )
            humans = [uid for uid, _, level in rest if level is None]
            host = game["host"] if game["host"] != user_id else (humans[0] if humans else None)
            status = "lobby" if humans else "abandoned"
            await conn.execute(qmarks(queries.LEFT), (host, status, now, game_id))
            ids = await lobby_edit(conn, game_id, view, now)
        self.db.woken(ids)
        return "left", host

    async def start_game(
        self, game_id: int, *, users: list[int], seed: int, record: dict[str, Any],
        snapshot: dict[str, Any], highlight: list[str], now: int, clocks: list[Clock] | None = None,
        posts: Sequence[Post] = (), view: LobbyView | None = None,
    ) -> list[int] | None:  # fmt: skip
        """Turn a lobby into a running game and store the edit of its message and its
        announcement ``posts``: their outbox ids, or None when it is no longer a lobby or its
        members are no longer ``users`` (in seat order)."""
        async with self.db.transaction() as conn:
            rows = await fetch_all(conn, qmarks(queries.USERS), (game_id,))
            if [r["user_id"] for r in rows] != users:
                return None
            cur = await conn.execute(
                qmarks(queries.START),
                (seed, json.dumps(record), json.dumps(snapshot), json.dumps(highlight), now, game_id),
            )
            if cur.rowcount != 1:
                return None
            if clocks:
                await sync_clocks(conn, game_id, clocks, ())
            ids = await lobby_edit(conn, game_id, view, now)
            ids += await store_posts(conn, game_id, posts, now, version=0)
        self.db.woken(ids)
        return ids

    async def set_status(
        self, game_id: int, status: str, *, now: int, only_if: tuple[str, ...] = OPEN,
        view: LobbyView | None = None,
    ) -> bool:  # fmt: skip
        """Change a game's status if it is one of ``only_if`` (with the edit of a lobby's
        message); False otherwise."""
        marks = ", ".join("?" for _ in only_if)
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                f"UPDATE games SET status = ?, updated_at = ? WHERE id = ? AND status IN ({marks})",
                (status, now, game_id, *only_if),
            )
            ids = await lobby_edit(conn, game_id, view, now) if cur.rowcount == 1 else []
        self.db.woken(ids)
        return cur.rowcount == 1

    async def set_settings(
        self, game_id: int, settings: GameSettings, *, now: int | None = None, view: LobbyView | None = None
    ) -> None:
        values = asdict(settings)
        assignments = ", ".join(f"{c} = ?" for c in SETTING_COLUMNS)
        async with self.db.transaction() as conn:
            values_in_order = (*(values[c] for c in SETTING_COLUMNS), game_id)
            await conn.execute(f"UPDATE games SET {assignments} WHERE id = ?", values_in_order)
            if now is not None:
                await conn.execute(qmarks(queries.TOUCH), (now, game_id))
            ids = [] if now is None else await lobby_edit(conn, game_id, view, now)
        self.db.woken(ids)

    # --- stale lobbies ----------------------------------------------------------------

    async def by_state(self, shards: Shards | None = None) -> dict[str, int]:
        rows = await self.db.all(queries.BY_STATE.format(on_shards=on_shards("guild")), sqlite_params(shards))
        return {r["state"]: r["games"] for r in rows}

    async def stale_lobbies(self, before: int, shards: Shards | None = None) -> list[int]:
        rows = await self.db.all(
            f"SELECT id FROM games WHERE {qmarks(queries.STALE)} AND {on_shards('guild')} ORDER BY id",
            (before, *sqlite_params(shards)),
        )
        return [r["id"] for r in rows]

    async def close_lobby(
        self, game_id: int, *, before: int, now: int, view: LobbyView | None = None
    ) -> bool:
        async with self.db.transaction() as conn:
            cur = await conn.execute(qmarks(queries.CLOSE), (game_id, before))
            ids = await lobby_edit(conn, game_id, view, now) if cur.rowcount == 1 else []
        self.db.woken(ids)
        return cur.rowcount == 1

    async def prune_lobbies(self, before: int, shards: Shards | None = None) -> int:
        """Forget the lobbies closed long ago (their seats and posts go with them: ON DELETE CASCADE)."""
        return await self.db.execute(
            f"DELETE FROM games WHERE {qmarks(queries.PRUNED)} AND {on_shards('guild')}",
            (before, *sqlite_params(shards)),
        )

    # --- the web page ---------------------------------------------------------------

    async def page(self, game_id: int, fresh: str) -> str | None:
        async with self.db.transaction() as conn:
            await conn.execute(qmarks(queries.PAGE_MADE), (fresh, game_id))
            row = await fetch_one(conn, qmarks(queries.PAGE), (game_id,))
        return None if row is None else str(row["page"])

    async def renew_page(self, game_id: int, fresh: str) -> bool:
        return await self.db.execute(qmarks(queries.PAGE_RENEWED), (fresh, game_id)) == 1

    async def game_by_page(self, token: str) -> GameRow | None:
        row = await self.db.one(qmarks(queries.BY_PAGE), (token,))
        return convert.game(row) if row else None

    # --- moves ----------------------------------------------------------------------

    async def set_blocked(self, game_id: int, missing: str | None) -> bool:
        """Remember which permissions the table was told are missing; False if it was told already."""
        changed = await self.db.execute(
            "UPDATE games SET blocked = ? WHERE id = ? AND blocked IS NOT ?", (missing, game_id, missing)
        )
        return changed == 1

    async def move_game(self, game_id: int, channel: int, now: int) -> int | None:
        """A paused game goes on in ``channel``, which has no open game: its held and waiting
        posts go there, due at once with fresh nonces (how many), the game is no longer paused.
        None: the game is not paused (any more) or ``channel`` has an open game."""
        async with self.db.transaction() as conn:
            row = await fetch_one(
                conn,
                "SELECT channel FROM games WHERE id = ? AND paused IS NOT NULL "
                "AND status IN ('lobby', 'active')",
                (game_id,),
            )
            taken = await fetch_one(
                conn, "SELECT 1 FROM games WHERE channel = ? AND status IN ('lobby', 'active')", (channel,)
            )
            if row is None or taken is not None:
                return None
            posts = await fetch_all(
                conn,
                "SELECT id FROM outbox WHERE game = ? AND channel = ? AND state IN ('held', 'pending')",
                (game_id, row["channel"]),
            )
            await many(
                conn, qmarks(queries.MOVE_POST), [(channel, fresh_nonce(r["id"]), r["id"]) for r in posts]
            )
            await conn.execute(
                "UPDATE games SET channel = ?, paused = NULL, blocked = NULL, updated_at = ? WHERE id = ?",
                (channel, now, game_id),
            )
        self.db.woken([r["id"] for r in posts])
        return len(posts)
