"""The players on PostgreSQL: their preferences across games, and their seats' vacations,
absences and hand-overs. A change that reads before it writes locks the game's row first
(`lock_game`), so two such changes to one game, from any process, run one after the other."""

from __future__ import annotations

from collections.abc import Collection

from bot.storage import convert, queries
from bot.storage.postgres.base import Part, affected, lock_game
from bot.storage.rows import Deed, Prefs


class Players(Part):
    """Queries of preferences and seats (see `bot.storage.protocol.PlayersProtocol`)."""

    async def prefs(self, user_ids: Collection[int]) -> dict[int, Prefs]:
        """The preferences of these users (defaults for those who set none)."""
        ids = sorted(set(user_ids))
        rows = await self.db.all("SELECT * FROM players WHERE user_id = ANY($1::bigint[])", ids)
        found = {r["user_id"]: convert.prefs(r) for r in rows}
        return {u: found.get(u, Prefs(u)) for u in ids}

    async def set_prefs(self, prefs: Prefs) -> None:
        await self.db.execute(
            queries.SET_PREFS,
            prefs.user_id, prefs.quiet_start, prefs.quiet_end, prefs.utc_offset, prefs.remind_by,
            prefs.language, convert.ahead_json(prefs.ahead), prefs.digest_at, prefs.next_ping,
        )  # fmt: skip

    async def deeds(self, user_ids: Collection[int], since: int) -> list[Deed]:
        """What these users did in their games since ``since`` (`bot.storage.queries.DEEDS`)."""
        users = sorted(set(user_ids))
        sql = queries.DEEDS.format(users="= ANY(", end=")")
        rows = await self.db.all(sql, users, since, users, since, users, since)
        return [convert.deed(r) for r in rows]

    async def digests(self) -> list[Prefs]:
        return [convert.prefs(r) for r in await self.db.all(queries.DIGESTS)]

    async def claim_digest(self, user_id: int, day: int) -> bool:
        return await self.db.execute(queries.CLAIM_DIGEST, day, user_id, day) == 1

    async def come_back(self, game_id: int, seat: int) -> bool:
        """Give an absent player their seat back; False if they were not away."""
        changed = await self.db.execute(
            "UPDATE seats SET away = false WHERE game = $1 AND seat = $2 AND away", game_id, seat
        )
        return changed == 1

    async def replace_player(self, game_id: int, seat: int, user_id: int, now: int) -> bool:
        """Hand a seat to another user (who takes it over fully); False if they already play."""
        async with self.db.transaction() as conn:
            await lock_game(conn, game_id)
            taken = await conn.fetchval(queries.PLAYS, game_id, user_id)
            old = await conn.fetchval(queries.SEAT_USER, game_id, seat)
            if taken is not None or old is None:
                return False
            await conn.execute(queries.CONDUCT, "left", now, game_id, seat)
            await conn.execute(queries.NEW_HOST, user_id, game_id, old)
            await conn.execute(
                "UPDATE seats SET user_id = $1, resigned = false, away = false, vacation_until = NULL, "
                "held_since = (SELECT version FROM games WHERE id = $2) WHERE game = $2 AND seat = $3",
                user_id, game_id, seat,
            )  # fmt: skip
            await conn.execute(
                "UPDATE clocks SET since = $1, paused = 0, reminders = 0, last_reminded = NULL, "
                "stalled = false WHERE game = $2 AND seat = $3",
                now, game_id, seat,
            )  # fmt: skip
            await conn.execute(queries.TOUCH, now, game_id)
            return True

    async def set_vacation(
        self, game_id: int, seat: int, *, until: int | None, used: int, year: int | None, shift: int,
        was: int | None, request: int | None = None,
    ) -> bool:  # fmt: skip
        """Record a seat's vacation and move its clock's deadline by ``shift`` seconds, if its
        vacation still ends at ``was`` (the request was based on that) and its last change was
        not ``request``; False otherwise."""
        async with self.db.transaction() as conn:
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
