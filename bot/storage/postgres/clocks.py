"""The SQL of asynchronous play on PostgreSQL: settings, preferences, clocks, vacation,
computer and absent seats (the twin of `bot.storage.clocks`).

A change that reads before it writes locks the game's row first (``SELECT … FOR UPDATE``), so
two such changes to one game, from any process, run one after the other.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import asdict
from typing import TYPE_CHECKING

from bot.storage import convert
from bot.storage.convert import SETTING_COLUMNS
from bot.storage.postgres.base import PgBase, affected, many
from bot.storage.rows import Clock, GameSettings, Prefs

if TYPE_CHECKING:
    from bot.storage.postgres.base import Connection


class PgClocks(PgBase):
    """Queries for settings, preferences, deadlines, reminders and seats."""

    @staticmethod
    async def _lock_game(conn: Connection, game_id: int) -> str | None:
        """Lock the game's row until the transaction ends: its status (None: no such game)."""
        status: str | None = await conn.fetchval("SELECT status FROM games WHERE id = $1 FOR UPDATE", game_id)
        return status

    # --- settings and preferences ---------------------------------------------------

    async def set_settings(self, game_id: int, settings: GameSettings) -> None:
        values = asdict(settings)
        assignments = ", ".join(f"{c} = ${i}" for i, c in enumerate(SETTING_COLUMNS, 2))
        await self._execute(
            f"UPDATE games SET {assignments} WHERE id = $1", game_id, *(values[c] for c in SETTING_COLUMNS)
        )

    async def prefs(self, user_ids: Collection[int]) -> dict[int, Prefs]:
        """The preferences of these users (defaults for those who set none)."""
        ids = sorted(set(user_ids))
        rows = await self._all("SELECT * FROM players WHERE user_id = ANY($1::bigint[])", ids)
        found = {r["user_id"]: convert.prefs(r) for r in rows}
        return {u: found.get(u, Prefs(u)) for u in ids}

    async def set_prefs(self, prefs: Prefs) -> None:
        await self._execute(
            "INSERT INTO players (user_id, quiet_start, quiet_end, utc_offset, remind_by, language) "
            "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id) DO UPDATE SET "
            "quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end, "
            "utc_offset = excluded.utc_offset, remind_by = excluded.remind_by, language = excluded.language",
            prefs.user_id, prefs.quiet_start, prefs.quiet_end, prefs.utc_offset, prefs.remind_by,
            prefs.language,
        )  # fmt: skip

    # --- clocks ---------------------------------------------------------------------

    @staticmethod
    async def _sync_clocks(
        conn: Connection, game_id: int, clocks: list[Clock], restart: Collection[int]
    ) -> None:
        """Keep the clocks of seats still waited for; start ``clocks`` for the others (and for
        the seats in ``restart``, which have just moved); drop the clocks of everyone else
        (inside the caller's transaction)."""
        # One statement (one round trip): the DELETE and the INSERT touch different seats (those
        # no longer waited for, those waited for), so neither needs to see the other's rows. A
        # restarted seat's clock is reset in place, all its columns as a fresh row has them.
        await conn.execute(
            "WITH gone AS (DELETE FROM clocks WHERE game = $1 AND NOT (seat = ANY($2::integer[]))) "
            "INSERT INTO clocks (game, seat, since, paused) SELECT $1, c.seat, c.since, c.paused "
            "FROM unnest($2::integer[], $3::bigint[], $4::bigint[]) AS c(seat, since, paused) "
            "ON CONFLICT (game, seat) DO UPDATE SET since = EXCLUDED.since, paused = EXCLUDED.paused, "
            "reminders = 0, last_reminded = NULL, stalled = false WHERE clocks.seat = ANY($5::integer[])",
            game_id, [c.seat for c in clocks], [c.since for c in clocks], [c.paused for c in clocks],
            list(restart),
        )  # fmt: skip

    async def clocks(self, game_id: int | None = None) -> list[Clock]:
        """The running clocks of one game, or of every running game."""
        rows = await self._all(
            "SELECT c.* FROM clocks c JOIN games g ON g.id = c.game WHERE g.status = 'active' "
            "AND ($1::bigint IS NULL OR c.game = $1) ORDER BY c.game, c.seat",
            game_id,
        )
        return [convert.clock(r) for r in rows]

    async def reset_clocks(self, game_id: int, clocks: list[Clock]) -> None:
        """Start these clocks afresh (a seat handed to someone else, a returning player)."""
        async with self._transaction() as conn:
            await many(
                conn,
                "INSERT INTO clocks (game, seat, since, paused) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (game, seat) DO UPDATE SET since = excluded.since, paused = excluded.paused, "
                "reminders = 0, last_reminded = NULL, stalled = false",
                [(game_id, c.seat, c.since, c.paused) for c in clocks],
            )

    # --- seats ----------------------------------------------------------------------

    async def set_vacation(
        self, game_id: int, seat: int, *, until: int | None, used: int, year: int | None, shift: int,
        was: int | None, request: int | None = None,
    ) -> bool:  # fmt: skip
        """Record a seat's vacation and move its clock's deadline by ``shift`` seconds, if its
        vacation still ends at ``was`` (the request was based on that) and its last change was
        not ``request``; False otherwise."""
        async with self._transaction() as conn:
            changed = await conn.execute(
                "UPDATE seats SET vacation_until = $1, vacation_used = $2, vacation_year = $3, "
                "vacation_request = $7 WHERE game = $4 AND seat = $5 "
                "AND vacation_until IS NOT DISTINCT FROM $6::bigint "
                "AND ($7::bigint IS NULL OR vacation_request IS DISTINCT FROM $7::bigint)",
                until, used, year, game_id, seat, was, request,
            )  # fmt: skip
            if affected(changed) != 1:
                return False
            await conn.execute(
                "UPDATE clocks SET paused = GREATEST(0, paused + $1) WHERE game = $2 AND seat = $3",
                shift, game_id, seat,
            )  # fmt: skip
            return True

    async def come_back(self, game_id: int, seat: int) -> bool:
        """Give an absent player their seat back; False if they were not away."""
        return (
            await self._execute(
                "UPDATE seats SET away = false WHERE game = $1 AND seat = $2 AND away", game_id, seat
            )
            == 1
        )

    async def replace_player(self, game_id: int, seat: int, user_id: int, now: int) -> bool:
        """Hand a seat to another user (who takes it over fully); False if they already play."""
        async with self._transaction() as conn:
            await self._lock_game(conn, game_id)
            taken = await conn.fetchval(
                "SELECT 1 FROM seats WHERE game = $1 AND user_id = $2", game_id, user_id
            )
            old = await conn.fetchval(
                "SELECT user_id FROM seats WHERE game = $1 AND seat = $2", game_id, seat
            )
            if taken is not None or old is None:
                return False
            await conn.execute(
                "UPDATE games SET host = $1 WHERE id = $2 AND host = $3", user_id, game_id, old
            )
            await conn.execute(
                "UPDATE seats SET user_id = $1, resigned = false, away = false, vacation_until = NULL "
                "WHERE game = $2 AND seat = $3",
                user_id, game_id, seat,
            )  # fmt: skip
            await conn.execute(
                "UPDATE clocks SET since = $1, paused = 0, reminders = 0, last_reminded = NULL, "
                "stalled = false WHERE game = $2 AND seat = $3",
                now, game_id, seat,
            )  # fmt: skip
            await conn.execute("UPDATE games SET updated_at = $1 WHERE id = $2", now, game_id)
            return True
