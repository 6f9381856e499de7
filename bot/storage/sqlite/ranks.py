"""A server's rank roles in SQLite (see `bot.storage.ranks_protocol`): the rules, the bot's grants and
when the holders were last decided."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, cast

from bot.results import Post
from bot.storage import queries
from bot.storage.queries import qmarks
from bot.storage.ranks_protocol import Grant, GrantState, RankRule, RankSync, Rule, replan
from bot.storage.shards import Shards, sqlite_params
from bot.storage.shards import sqlite_on_shards as on_shards
from bot.storage.sqlite.base import Part, fetch_all
from bot.storage.sqlite.outbox import store_posts

SYNCS = queries.RANK_SYNCS.format(on_shards=on_shards("s.guild"))


def grant(r: Any) -> Grant:
    return Grant(r["guild"], r["role"], r["member"], cast(GrantState, r["state"]))


def sync(r: Any) -> RankSync:
    changed = max(r["last_result"], r["last_season"])
    return RankSync(
        r["guild"], r["synced_at"], changed, r["pending"], r["channel"], r["language"], r["refused_at"]
    )


class Ranks(Part):
    """Queries of the rank roles (see `bot.storage.ranks_protocol.RanksProtocol`)."""

    async def set_rule(self, rule: RankRule, channel: int, language: str) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(qmarks(queries.SET_RANK_RULE), (rule.guild, rule.role, rule.rule, rule.value))
            await conn.execute(qmarks(queries.RANK_SYNC_AGAIN), (rule.guild, channel, language))

    async def drop_rule(self, guild: int, role: int) -> bool:
        async with self.db.transaction() as conn:
            cur = await conn.execute(qmarks(queries.DROP_RANK_RULE), (guild, role))
            if cur.rowcount != 1:
                return False
            await conn.execute(qmarks(queries.FORGET_WANTED), (guild, role))
            await conn.execute(qmarks(queries.TAKE_BACK), (guild, role))
            await conn.execute(qmarks(queries.RANK_SYNC_DIRTY), (guild,))
            return True

    async def rules(self, guild: int) -> list[RankRule]:
        rows = await self.db.all(qmarks(queries.RANK_RULES), (guild,))
        return [RankRule(r["guild"], r["role"], cast(Rule, r["rule"]), r["value"]) for r in rows]

    async def syncs(self, shards: Shards | None = None) -> list[RankSync]:
        return [sync(r) for r in await self.db.all(SYNCS, sqlite_params(shards))]

    async def grants(self, guild: int) -> list[Grant]:
        return [grant(r) for r in await self.db.all(qmarks(queries.RANK_GRANTS), (guild,))]

    async def plan(self, guild: int, wanted: Collection[tuple[int, int]], now: int) -> list[Grant]:
        async with self.db.transaction() as conn:
            have = [grant(r) for r in await fetch_all(conn, qmarks(queries.RANK_GRANTS), (guild,))]
            new, changed, gone = replan(have, wanted)
            for role, member in new:
                await conn.execute(qmarks(queries.NEW_GRANT), (guild, role, member))
            for g in changed:
                await conn.execute(qmarks(queries.SET_GRANT), (g.state, guild, g.role, g.member))
            for g in gone:
                await conn.execute(qmarks(queries.FORGET_GRANT), (guild, g.role, g.member))
            await conn.execute(qmarks(queries.RANK_SYNCED), (now, guild))
            rows = await fetch_all(conn, qmarks(queries.RANK_GRANTS), (guild,))
        return [g for g in map(grant, rows) if g.state != "held"]

    async def settle(self, grant: Grant, state: GrantState | None) -> None:
        g = grant
        if state is None:
            await self.db.execute(qmarks(queries.FORGET_GRANT), (g.guild, g.role, g.member))
        else:
            await self.db.execute(qmarks(queries.SET_GRANT), (state, g.guild, g.role, g.member))

    async def refuse(self, guild: int, now: int, posts: Sequence[Post]) -> list[int] | None:
        async with self.db.transaction() as conn:
            cur = await conn.execute(qmarks(queries.RANK_REFUSED), (now, guild))
            if cur.rowcount != 1:
                await conn.execute(qmarks(queries.RANK_STILL_REFUSED), (now, guild))
                return None
            ids = await store_posts(conn, None, posts, now)
        self.db.woken(ids)
        return ids

    async def accepted(self, guild: int) -> None:
        await self.db.execute(qmarks(queries.RANK_ACCEPTED), (guild,))

    async def refused_since(self, guild: int) -> int | None:
        r = await self.db.one(qmarks(queries.RANK_REFUSED_SINCE), (guild,))
        return None if r is None else r["refused_at"]
