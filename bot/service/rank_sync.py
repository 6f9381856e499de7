"""Keeping a server's rank roles current (part of the service layer): step 8 of the clock's tick
(`bot.service.tick`), which decides who should hold each role (`bot.service.ranks.holders`) and gives
and takes them through the client's port (`bot.service.role_calls.RoleCalls`).

Decisions:

- **When**: a server is decided again when a rule changed, a game of it finished or a season of it was
  announced since the last time (`bot.storage.ranks_protocol.RankSync`): at the clock's next tick,
  and at once after a game of it finishes (`bot.service.advance`, once the final post is stored),
  so the roles follow a game within seconds; grants left undone (a restart, a Discord outage) are
  done at the next tick even when nothing changed. One update at a time (`Context.ranking`).
- **Stored before it is done, exactly once in effect.** The plan (`RanksProtocol.plan`) is stored
  before any call; each grant goes `wanted` → `putting` → `held` and `held` → `removing` → forgotten,
  each step stored after its call. Giving and taking a role are idempotent on Discord, so a call
  repeated after a restart changes nothing more. A `wanted` grant first asks whether the member holds
  the role already: if so it is not the bot's (an admin gave it) and is forgotten — the bot never
  takes it. Only then is it `putting`, so a restart between the call and its record gives it again
  rather than taking a held role for someone else's.
- **A refusal (403)**: Discord refuses when the bot lost Manage Roles or a role was moved above its
  own. The server's changes stop there (the rest of the bot and the other servers go on); the admins
  are told once, in the channel and language of the last rule set, and it is logged once
  (`RanksProtocol.refuse`); the bot tries again every `RETRY` seconds, and once a change is made the
  refusal is forgotten. A role or member Discord no longer knows (404: the role was deleted, the member
  left) is forgotten. Any other failure is logged and tried again at the next tick.
- Nothing is posted for a role given or taken: the audit log says why (`reason`), in the language of
  the last rule set.
"""

from __future__ import annotations

import logging

import i18n
from bot.errors import StorageUnavailable
from bot.results import Message, Post
from bot.service import ranks
from bot.service.context import Context
from bot.service.role_calls import RoleCalls, RoleGone, RolesRefused
from bot.storage.ranks_protocol import Grant, RankSync
from i18n import _

log = logging.getLogger(__name__)
RETRY = 3600
"""After how many seconds a server whose changes Discord refused is tried again."""


async def sync_due(ctx: Context, guild: int | None = None) -> int:
    """The clock's step: bring the rank roles of this process's servers (or only ``guild``'s) up to
    date (see the module); how many servers had changes made. Without a Discord side (``ctx.roles``
    None) nothing is done."""
    calls = ctx.roles
    if calls is None:
        return 0
    async with ctx.ranking:
        return await _sync_due(ctx, calls, guild)


async def _sync_due(ctx: Context, calls: RoleCalls, guild: int | None) -> int:
    done = 0
    for s in await ctx.storage.ranks.syncs(ctx.shards):
        if guild is not None and s.guild != guild:
            continue
        decide = s.changed_at >= s.synced_at
        if not decide and not s.pending:
            continue
        if s.refused_at is not None and ctx.now() < s.refused_at + RETRY:
            continue
        try:
            done += await sync(ctx, calls, s, decide)
        except StorageUnavailable:  # the database's fault, for every server: the tick stops
            raise
        except Exception:  # one server's failure must not stop the others
            log.exception(
                "The rank roles of server %d could not be updated; the next tick tries again", s.guild
            )
    return done


async def sync(ctx: Context, calls: RoleCalls, s: RankSync, decide: bool) -> int:
    """Decide the holders of server ``s`` (when ``decide``) and make the calls left: 1 if any was made."""
    if decide:
        wanted = await ranks.holders(ctx, s.guild, await ctx.storage.ranks.rules(s.guild))
        pending = await ctx.storage.ranks.plan(s.guild, wanted, ctx.now())
    else:
        pending = [g for g in await ctx.storage.ranks.grants(s.guild) if g.state != "held"]
    if not pending:
        return 0
    with i18n.speaking(s.language):
        reason = _("La Città keeps its rank roles current (/citta-server rank-roles)")
    try:
        for g in pending:
            await apply(ctx, calls, g, reason)
    except RolesRefused:
        await refused(ctx, s)
        return 0
    if s.refused_at is not None:
        await ctx.storage.ranks.accepted(s.guild)
        log.info("Discord accepts the rank role changes of server %d again", s.guild)
    return 1


async def apply(ctx: Context, calls: RoleCalls, g: Grant, reason: str) -> None:
    """One grant's call and its record (see the module's decisions)."""
    store = ctx.storage.ranks
    try:
        if g.state == "wanted":
            if await calls.holds(g.guild, g.member, g.role):
                await store.settle(g, None)  # an admin gave it: not the bot's to take
                return
            await store.settle(g, "putting")
        if g.state in ("wanted", "putting"):
            await calls.give(g.guild, g.member, g.role, reason)
            await store.settle(g, "held")
        elif g.state == "removing":
            await calls.take(g.guild, g.member, g.role, reason)
            await store.settle(g, None)
    except RoleGone:
        await store.settle(g, None)


async def refused(ctx: Context, s: RankSync) -> None:
    """Discord refused a change of server ``s``: stored, and the admins told and it logged once."""
    with i18n.speaking(s.language):
        notice = Post(s.channel, Message(ranks.refused_text(ctx.now())))
    if await ctx.storage.ranks.refuse(s.guild, ctx.now(), [notice]) is not None:
        log.warning("Discord refused a rank role change in server %d (Manage Roles, or a role above "
                    "the bot's); the admins are told, and it is tried again every %d s",
                    s.guild, RETRY)  # fmt: skip
