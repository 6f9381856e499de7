"""What a bot process does to its share of the work when it starts and when it stops (part of the
service layer): it takes over at once the claims of a predecessor that died in its place, lets the
seats the bot plays answer in the running games (a crash may have interrupted them), and gives up
its claims when it stops, so that the next process need not wait for their leases."""

from __future__ import annotations

from bot.service.context import Context


async def take_over(ctx: Context) -> None:
    """Free the claims of earlier processes in this process's slot (one died here?)."""
    await ctx.storage.claims.take_over(ctx.claimant.slot, ctx.claimant.owner)


async def running_games(ctx: Context) -> list[int]:
    """The running games of this process's shards (their seats the bot plays may have a move to make)."""
    return [row.id for row in await ctx.storage.games.active_games(ctx.shards) if row.status == "active"]


async def release(ctx: Context) -> None:
    """Give up every claim of this process (it stops): what is left to do goes to the next at once."""
    await ctx.storage.claims.release(ctx.claimant.owner)
