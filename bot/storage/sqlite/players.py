"""The players in SQLite: their preferences across games, and their seats' vacations, absences
and hand-overs."""

from __future__ import annotations

import json
from collections.abc import Collection

from bot.storage import convert, queries
from bot.storage.queries import DEEDS, qmarks
from bot.storage.rows import Deed, Prefs
from bot.storage.sqlite.base import Part, fetch_one


class Players(Part):
    """Queries of preferences and seats (see `bot.storage.protocol.PlayersProtocol`)."""

    async def prefs(self, user_ids: Collection[int]) -> dict[int, Prefs]:
        """The preferences of these users (defaults for those who set none)."""
        ids = sorted(set(user_ids))
        marks = ", ".join("?" for _ in ids)
        rows = await self.db.all(f"SELECT * FROM players WHERE user_id IN ({marks})", tuple(ids))
        found = {r["user_id"]: convert.prefs(r) for r in rows}
        return {u: found.get(u, Prefs(u)) for u in ids}

    async def set_prefs(self, prefs: Prefs) -> None:
        await self.db.execute(
            qmarks(queries.SET_PREFS),
            (prefs.user_id, prefs.quiet_start, prefs.quiet_end, prefs.utc_offset, prefs.remind_by,
             prefs.language, convert.ahead_json(prefs.ahead), prefs.digest_at, int(prefs.next_ping)),
        )  # fmt: skip

    async def deeds(self, user_ids: Collection[int], since: int) -> list[Deed]:
        """What these users did in their games since ``since`` (`bot.storage.queries.DEEDS`)."""
        users = json.dumps(sorted(set(user_ids)))
        sql = qmarks(DEEDS.format(users="IN (SELECT value FROM json_each(", end="))"))
        rows = await self.db.all(sql, (users, since, users, since, users, since))
        return [convert.deed(r) for r in rows]

    async def digests(self) -> list[Prefs]:
        return [convert.prefs(r) for r in await self.db.all(queries.DIGESTS, ())]

    async def claim_digest(self, user_id: int, day: int) -> bool:
        return await self.db.execute(qmarks(queries.CLAIM_DIGEST), (day, user_id, day)) == 1

    async def come_back(self, game_id: int, seat: int) -> bool:
        """Give an absent player their seat back; False if they were not away."""
        changed = await self.db.execute(
            "UPDATE seats SET away = 0 WHERE game = ? AND seat = ? AND away = 1", (game_id, seat)
        )
        return changed == 1

    async def replace_player(self, game_id: int, seat: int, user_id: int, now: int) -> bool:
        """Hand a seat to another user (who takes it over fully); False if they already play."""
        async with self.db.transaction() as conn:
            taken = await fetch_one(conn, qmarks(queries.PLAYS), (game_id, user_id))
            old = await fetch_one(conn, qmarks(queries.SEAT_USER), (game_id, seat))
            if taken is not None or old is None:
                return False
            await conn.execute(qmarks(queries.CONDUCT), ("left", now, game_id, seat))
            await conn.execute(qmarks(queries.NEW_HOST), (user_id, game_id, old["user_id"]))
            await conn.execute(
                "UPDATE seats SET user_id = ?, resigned = 0, away = 0, vacation_until = NULL, "
                "held_since = (SELECT version FROM games WHERE id = ?) WHERE game = ? AND seat = ?",
                (user_id, game_id, game_id, seat),
            )
            await conn.execute(
                "UPDATE clocks SET since = ?, paused = 0, reminders = 0, last_reminded = NULL, "
                "stalled = 0 WHERE game = ? AND seat = ?",
                (now, game_id, seat),
            )
            await conn.execute(qmarks(queries.TOUCH), (now, game_id))
            return True

    async def set_vacation(
        self, game_id: int, seat: int, *, until: int | None, used: int, year: int | None, shift: int,
        was: int | None, request: int | None = None,
    ) -> bool:  # fmt: skip
        """Record a seat's vacation and move its clock's deadline by ``shift`` seconds, if its
        vacation still ends at ``was`` (the request was based on that) and its last change was
        not ``request``; False otherwise."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE seats SET vacation_until = ?, vacation_used = ?, vacation_year = ?, "
                "vacation_request = ? WHERE game = ? AND seat = ? AND vacation_until IS ? "
                "AND (? IS NULL OR vacation_request IS NOT ?)",
                (until, used, year, request, game_id, seat, was, request, request),
            )
            if cur.rowcount != 1:
                return False
            await conn.execute(
                "UPDATE clocks SET paused = MAX(0, paused + ?) WHERE game = ? AND seat = ?",
                (shift, game_id, seat),
            )
            return True
