"""The clock's tick (part of the service layer): what happens to the games as time passes.

The bot's background task calls `tick` every minute (tests call it with their own clock). Every
step decides from what is stored, so a restart loses nothing; what it says is stored with the
change it announces, and the outbox sends it. The steps, in order:

1. `prune`: once an hour, forget the announcements sent more than `KEEP_SENT` ago;
2. `clocks`: in the running games whose clocks this process claims (see `bot.storage.shards`), the
   deadline policies, the reminders and the stall notices (`bot.service.reminders`);
3. `replays`: the replays of finished games that a stop interrupted (`bot.service.ending`);
4. `stale.sweep`: once an hour, close the lobbies left alone for days and forget closed ones
   (`bot.service.stale`);
5. `digest.send_due`: the daily digests whose time has come (`bot.service.digest`);
6. `seasons.close_due`: the seasons whose time is up end, their champions announced once, and the
   next ones start (`bot.service.seasons`);
7. `tournament_rounds.play_due`: the tournaments' sign-ups close, their tables' games are opened and
   started, finished tables are scored and the next rounds seated (`bot.service.tournament_rounds`);
8. `rank_sync.sync_due`: the rank roles of the servers whose games finished or seasons ended are
   given and taken on Discord (`bot.service.rank_sync`); a server's failure stops only its own.

When the database fails (`bot.errors.StorageUnavailable`) the tick stops where it is and raises it:
what it did not do, the next tick does.
"""

from __future__ import annotations

import logging

from bot.errors import StorageUnavailable
from bot.results import Post
from bot.service import digest, rank_sync, reminders, seasons, stale, tournament_rounds
from bot.service.context import Context
from bot.service.ending import post_replay

log = logging.getLogger(__name__)
KEEP_SENT = 30 * 86400
"""How long a sent announcement stays in the outbox (seconds): a game's last post stays for good."""
PRUNE_EVERY = 3600
"""How often the tick forgets older sent announcements (seconds)."""


async def tick(ctx: Context) -> list[Post]:
    """One turn of the clock (see the module docstring); the posts it stored (those with an outcome name
    a game whose computer players may move next: the bot lets them)."""
    await prune(ctx)
    posts = await clocks(ctx)
    await replays(ctx)
    await stale.sweep(ctx)
    await digest.send_due(ctx)
    await seasons.close_due(ctx)
    posts += await tournament_rounds.play_due(ctx)
    await rank_sync.sync_due(ctx)
    return posts


async def prune(ctx: Context) -> None:
    """Once an hour: forget the announcements sent more than `KEEP_SENT` ago (each is a row of a few
    KB; a game's last post stays, the server's history links to it)."""
    now = ctx.now()
    if now < ctx.pruned_at + PRUNE_EVERY:
        return
    ctx.pruned_at = now
    try:
        gone = await ctx.storage.outbox.prune(now - KEEP_SENT)
    except Exception:
        log.exception("Forgetting old sent announcements failed; the next hour tries again")
        return
    if gone:
        log.info("Forgot %d announcement(s) sent more than %d days ago", gone, KEEP_SENT // 86400)


async def clocks(ctx: Context) -> list[Post]:
    """Deadline policies, reminders and stall notices in the games of this process's shards whose
    clocks it could claim (another process may be working on some); what was stored to post."""
    posts: list[Post] = []
    now, me = ctx.now(), ctx.claimant
    claimed = await ctx.storage.clocks.claim(me.owner, now, now + me.lease, ctx.shards)
    try:
        for game_id in claimed:
            try:
                async with ctx.game_lock(game_id):
                    row = await ctx.storage.games.game(game_id)
                    if row is not None and row.status == "active" and row.paused is None:
                        posts.extend(
                            await reminders.tick_game(ctx, row, await ctx.storage.clocks.get(game_id))
                        )
            except StorageUnavailable:  # not this game's fault: the database's, for every game
                raise
            except Exception:  # one broken game must not stop the others' clocks
                log.exception("The clock of game %s failed", game_id)
    finally:
        try:
            await ctx.storage.clocks.release(me.owner, claimed)
        except StorageUnavailable:  # the claims' lease runs out: the next tick claims them again
            log.warning("The clocks of game(s) %s could not be released", claimed)
    return posts


async def replays(ctx: Context) -> None:
    """Post the replays of the finished games (of this process's shards) that have none yet."""
    for game_id in await ctx.storage.history.unreplayed(ctx.shards):
        await post_replay(ctx, game_id)
