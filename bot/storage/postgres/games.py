"""Games and their seats on PostgreSQL: lobbies, starts, statuses, settings and the channel a game
is in (the move log: `moves`). Lobby changes lock the game's row before they read its seats
(`lock_game`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import asyncpg

from bot.results import Message, Post
from bot.storage import convert, queries
from bot.storage.convert import SETTING_COLUMNS
from bot.storage.postgres.base import Part, affected, lock_game, many
from bot.storage.postgres.clocks import sync_clocks
from bot.storage.postgres.outbox import store_posts
from bot.storage.protocol import OPEN, ChannelBusy
from bot.storage.queries import fresh_nonce
from bot.storage.rows import Clock, GameRow, GameSettings, LobbyView, SeatRow, TooManyLobbies
from bot.storage.shards import Shards, postgres_params
from bot.storage.shards import postgres_on_shards as on_shards

if TYPE_CHECKING:
    from bot.storage.postgres.base import Connection

HOST_LOCK = 0x4C4F4249
"""The first key of the advisory lock on a member's lobbies in a server (``LOBI``; the second: a
hash of the server and member), held while a lobby of theirs is created: two ``/citta new`` at
once cannot both pass the cap. The outbox's per-channel locks use the one-bigint key space."""


async def lobby_edit(
    conn: Connection, game_id: int, view: LobbyView | None, now: int, *, unless: Message | None = None
) -> list[int]:
    """Store the edit of the lobby's message to what the lobby now is (inside the caller's
    transaction): its outbox ids ([]: no ``view``, the message is not known, or it shows ``unless``)."""
    if view is None:
        return []
    row = await conn.fetchrow(queries.GAME, game_id)
    if row is None or row["lobby_message"] is None:
        return []
    game, seats = convert.game(row), await conn.fetch(queries.SEATS, game_id)
    message = view(game, [convert.seat(r) for r in seats])
    if message == unless:
        return []
    post = Post(game.channel, message, edits=game.lobby_message)
    return await store_posts(conn, game_id, [post], now)


class Games(Part):
    """Queries of games and seats (see `bot.storage.protocol.GamesProtocol`)."""

    # --- reading --------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        row = await self.db.one(queries.GAME, game_id)
        return convert.game(row) if row else None

    async def open_game(self, channel: int) -> GameRow | None:
        """The lobby or running game of a channel."""
        row = await self.db.one(
            "SELECT * FROM games WHERE channel = $1 AND status = ANY($2::text[])", channel, list(OPEN)
        )
        return convert.game(row) if row else None

    async def open_game_with_seats(self, channel: int) -> tuple[GameRow, list[SeatRow]] | None:
        """`open_game` and its `seats`, in one statement (each seat a record of the row type)."""
        row = await self.db.one(
            "SELECT g.*, ARRAY(SELECT s FROM seats s WHERE s.game = g.id ORDER BY s.seat) AS seat_rows "
            "FROM games g WHERE g.channel = $1 AND g.status = ANY($2::text[])",
            channel, list(OPEN),
        )  # fmt: skip
        return None if row is None else (convert.game(row), [convert.seat(r) for r in row["seat_rows"]])

    async def latest_game(self, channel: int) -> GameRow | None:
        """The open game of a channel, else the last one that was played there."""
        row = await self.db.one(
            "SELECT * FROM games WHERE channel = $1 ORDER BY status = ANY($2::text[]) DESC, id DESC LIMIT 1",
            channel, list(OPEN),
        )  # fmt: skip
        return convert.game(row) if row else None

    async def paused_games(self, guild: int) -> list[GameRow]:
        """The open games of ``guild`` paused because their channel is gone, oldest first."""
        rows = await self.db.all(
            "SELECT * FROM games WHERE guild = $1 AND paused IS NOT NULL AND status = ANY($2::text[]) "
            "ORDER BY id",
            guild, list(OPEN),
        )  # fmt: skip
        return [convert.game(r) for r in rows]

    async def active_games(self, shards: Shards | None = None) -> list[GameRow]:
        rows = await self.db.all(
            f"SELECT * FROM games WHERE status = ANY($1::text[]) AND {on_shards('guild', 2)} ORDER BY id",
            list(OPEN), *postgres_params(shards),
        )  # fmt: skip
        return [convert.game(r) for r in rows]

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self.db.all(queries.SEATS, game_id)
        return [convert.seat(r) for r in rows]

    async def games_of(self, user_id: int, limit: int) -> list[tuple[GameRow, list[SeatRow]]]:
        """One statement: each game with its seats (each a record of the row type)."""
        rows = await self.db.all(
            "SELECT g.*, ARRAY(SELECT s FROM seats s WHERE s.game = g.id ORDER BY s.seat) AS seat_rows "
            f"FROM ({queries.GAMES_OF}) g ORDER BY g.updated_at DESC, g.id DESC",
            user_id, limit,
        )  # fmt: skip
        return [(convert.game(r), [convert.seat(s) for s in r["seat_rows"]]) for r in rows]

    async def create_lobby(
        self, *, guild: int | None, channel: int, host: int, host_name: str, setup: str,
        players_wanted: int | None, now: int, limit: int | None = None,
    ) -> int:  # fmt: skip
        """A new lobby with its host seated; ChannelBusy when the channel has an open game,
        TooManyLobbies when the host has ``limit`` open lobbies in the server."""
        try:
            async with self.db.transaction() as conn:
                if limit is not None:
                    await conn.execute(
                        "SELECT pg_advisory_xact_lock($1::int, hashtext($2))", HOST_LOCK, f"{guild}:{host}"
                    )
                    hosted = await conn.fetch(queries.HOSTED, guild or 0, host)
                    if len(hosted) >= limit:
                        raise TooManyLobbies([r["channel"] for r in hosted])
                game_id: int = await conn.fetchval(
                    "INSERT INTO games (guild, channel, host, status, setup, players_wanted, created_at, "
                    "updated_at) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, $6) RETURNING id",
                    guild, channel, host, setup, players_wanted, now,
                )  # fmt: skip
                await conn.execute(queries.HOST_SEAT, game_id, host, host_name)
        except asyncpg.UniqueViolationError:
            raise ChannelBusy(channel) from None
        return game_id

    async def show_lobby(
        self, game_id: int, message_id: int, *, now: int | None = None, view: LobbyView | None = None,
        sent: Message | None = None,
    ) -> None:  # fmt: skip
        async with self.db.transaction() as conn:
            await conn.execute(queries.SHOWN, message_id, game_id)
            ids = [] if now is None else await lobby_edit(conn, game_id, view, now, unless=sent)
        self.db.woken(ids)

    async def join_lobby(
        self, game_id: int, user_id: int, name: str, limit: int, now: int, ai_level: str | None = None,
        view: LobbyView | None = None,
    ) -> str:  # fmt: skip
        """Seat a user (or a computer player) in a lobby: ``joined``, ``already``, ``full`` or ``closed``."""
        async with self.db.transaction() as conn:
            if await lock_game(conn, game_id) != "lobby":
                return "closed"
            rows = await conn.fetch(queries.LOBBY_SEATS, game_id)
            if any(r["user_id"] == user_id for r in rows):
                return "already"
            if len(rows) >= limit:
                return "full"
            seat = max((r["seat"] for r in rows), default=-1) + 1
            await conn.execute(queries.NEW_SEAT, game_id, seat, user_id, name, ai_level)
            await conn.execute(queries.TOUCH, now, game_id)
            ids = await lobby_edit(conn, game_id, view, now)
        self.db.woken(ids)
        return "joined"

    async def add_computer(
        self, game_id: int, *, by: int, level: str, limit: int, now: int, since: int,
        view: LobbyView | None = None,
    ) -> tuple[str, int]:  # fmt: skip
        """Seat the next computer player at ``by``'s request (see the protocol), the game's row locked."""
        async with self.db.transaction() as conn:
            game = await conn.fetchrow("SELECT * FROM games WHERE id = $1 FOR UPDATE", game_id)
            rows = await conn.fetch(queries.MEMBERS, game_id)
            k = sum(1 for r in rows if r["ai_level"] is not None)
            if game is None or game["status"] != "lobby":
                return "closed", k
            if game["computer_by"] == by and (game["computer_at"] or 0) >= since and k:
                return "recent", k
            if len(rows) >= limit:
                return "full", k
            await conn.execute(queries.NEW_SEAT, game_id, len(rows), -(k + 1), f"Computer {k + 1}", level)
            await conn.execute(queries.COMPUTER, by, now, now, game_id)
            ids = await lobby_edit(conn, game_id, view, now)
        self.db.woken(ids)
        return "joined", k + 1

    async def leave_lobby(
        self, game_id: int, user_id: int, now: int, view: LobbyView | None = None
    ) -> tuple[str, int | None]:
        """Unseat a user: ``left``, ``not_in`` or ``closed``, with the (new) host; an empty
        lobby is abandoned, a leaving host hands over to the next member."""
        async with self.db.transaction() as conn:
            game = await conn.fetchrow("SELECT status, host FROM games WHERE id = $1 FOR UPDATE", game_id)
            if game is None or game["status"] != "lobby":
                return "closed", None
            rows = await conn.fetch(queries.MEMBERS, game_id)
            rest = [(r["user_id"], r["name"], r["ai_level"]) for r in rows if r["user_id"] != user_id]
            if len(rest) == len(rows):
                return "not_in", game["host"]
            await conn.execute(queries.NO_SEATS, game_id)
            await many(
                conn,
                queries.NEW_SEAT,
                [(game_id, i, uid, name, level) for i, (uid, name, level) in enumerate(rest)],
            )
            humans = [uid for uid, _, level in rest if level is None]
            host = game["host"] if game["host"] != user_id else (humans[0] if humans else None)
            status = "lobby" if humans else "abandoned"
            await conn.execute(queries.LEFT, host, status, now, game_id)
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
            if await lock_game(conn, game_id) != "lobby":
                return None
            rows = await conn.fetch(queries.USERS, game_id)
            if [r["user_id"] for r in rows] != users:
                return None
            changed = await conn.execute(
                queries.START,
                seed, json.dumps(record), json.dumps(snapshot), json.dumps(highlight), now, game_id,
            )  # fmt: skip
            if affected(changed) != 1:
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
        async with self.db.transaction() as conn:
            changed = affected(await conn.execute(
                "UPDATE games SET status = $1, updated_at = $2 WHERE id = $3 AND status = ANY($4::text[])",
                status, now, game_id, list(only_if),
            )) == 1  # fmt: skip
            ids = await lobby_edit(conn, game_id, view, now) if changed else []
        self.db.woken(ids)
        return changed

    async def set_settings(
        self, game_id: int, settings: GameSettings, *, now: int | None = None, view: LobbyView | None = None
    ) -> None:
        values = asdict(settings)
        assignments = ", ".join(f"{c} = ${i}" for i, c in enumerate(SETTING_COLUMNS, 2))
        async with self.db.transaction() as conn:
            values_in_order = (values[c] for c in SETTING_COLUMNS)
            await conn.execute(f"UPDATE games SET {assignments} WHERE id = $1", game_id, *values_in_order)
            if now is not None:
                await conn.execute(queries.TOUCH, now, game_id)
            ids = [] if now is None else await lobby_edit(conn, game_id, view, now)
        self.db.woken(ids)

    # --- stale lobbies ----------------------------------------------------------------

    async def by_state(self, shards: Shards | None = None) -> dict[str, int]:
        rows = await self.db.all(
            queries.BY_STATE.format(on_shards=on_shards("guild", 1)), *postgres_params(shards)
        )
        return {r["state"]: r["games"] for r in rows}

    async def stale_lobbies(self, before: int, shards: Shards | None = None) -> list[int]:
        rows = await self.db.all(
            f"SELECT id FROM games WHERE {queries.STALE} AND {on_shards('guild', 2)} ORDER BY id",
            before, *postgres_params(shards),
        )  # fmt: skip
        return [r["id"] for r in rows]

    async def close_lobby(
        self, game_id: int, *, before: int, now: int, view: LobbyView | None = None
    ) -> bool:
        async with self.db.transaction() as conn:
            changed = affected(await conn.execute(queries.CLOSE, game_id, before)) == 1
            ids = await lobby_edit(conn, game_id, view, now) if changed else []
        self.db.woken(ids)
        return changed

    async def prune_lobbies(self, before: int, shards: Shards | None = None) -> int:
        """Forget the lobbies closed long ago (their seats and posts go with them: ON DELETE CASCADE)."""
        return await self.db.execute(
            f"DELETE FROM games WHERE {queries.PRUNED} AND {on_shards('guild', 2)}",
            before, *postgres_params(shards),
        )  # fmt: skip

    async def set_blocked(self, game_id: int, missing: str | None) -> bool:
        """Remember which permissions the table was told are missing; False if it was told already."""
        changed = await self.db.execute(
            "UPDATE games SET blocked = $1 WHERE id = $2 AND blocked IS DISTINCT FROM $1", missing, game_id
        )
        return changed == 1

    async def move_game(self, game_id: int, channel: int, now: int) -> int | None:
        """A paused game goes on in ``channel``, which has no open game: its held and waiting
        posts go there, due at once with fresh nonces (how many), the game is no longer paused.
        None: the game is not paused (any more) or ``channel`` has an open game."""
        try:
            async with self.db.transaction() as conn:
                await conn.execute("SELECT pg_advisory_xact_lock($1::bigint)", channel)  # as `store_posts`
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
                await conn.executemany(
                    queries.MOVE_POST, [(channel, fresh_nonce(r["id"]), r["id"]) for r in posts]
                )
                await conn.execute(
                    "UPDATE games SET channel = $1, paused = NULL, blocked = NULL, updated_at = $2 "
                    "WHERE id = $3",
                    channel, now, game_id,
                )  # fmt: skip
        except asyncpg.UniqueViolationError:  # another game opened in ``channel`` at that moment
            return None
        self.db.woken([r["id"] for r in posts])
        return len(posts)

    # --- the web page ---------------------------------------------------------------

    async def page(self, game_id: int, fresh: str) -> str | None:
        async with self.db.transaction() as conn:
            await conn.execute(queries.PAGE_MADE, fresh, game_id)
            page = await conn.fetchval(queries.PAGE, game_id)
        return None if page is None else str(page)

    async def renew_page(self, game_id: int, fresh: str) -> bool:
        return await self.db.execute(queries.PAGE_RENEWED, fresh, game_id) == 1

    async def game_by_page(self, token: str) -> GameRow | None:
        row = await self.db.one(queries.BY_PAGE, token)
        return convert.game(row) if row else None
