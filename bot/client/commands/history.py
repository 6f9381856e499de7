"""``/citta leaderboard|stats|games|replay``: the server's history, answered privately."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.client.commands.base import Interaction, channel, citta, ctx, guild, thinking, viewer
from bot.client.replies import answer
from bot.ids import MAX_GAME
from bot.results import User
from bot.service import archive


@citta.command(description=_("This server's best rated players, and your place"))
async def leaderboard(interaction: Interaction) -> None:
    await answer(
        interaction, await archive.leaderboard(ctx(interaction), guild(interaction), interaction.user.id)
    )


@citta.command(description=_("A player's games, wins, scores, rating and its trend on this server"))
@app_commands.describe(player=_("whose record (default: yours)"))
async def stats(interaction: Interaction, player: discord.User | None = None) -> None:
    who = player or interaction.user
    await answer(
        interaction, await archive.stats(ctx(interaction), guild(interaction), User(who.id, who.display_name))
    )


@citta.command(description=_("This server's finished games: date, players, scores, the final post"))
async def games(interaction: Interaction) -> None:
    await thinking(interaction)  # Discord may be asked about channels it no longer keeps in the cache
    await answer(interaction, await archive.games(ctx(interaction), guild(interaction), viewer(interaction)))


@citta.command(description=_("The animated board of a finished game, one frame per round and year"))
@app_commands.describe(game=_("the game's number (default: this channel's latest game)"))
async def replay(interaction: Interaction, game: app_commands.Range[int, 1, MAX_GAME] | None = None) -> None:
    await thinking(interaction)
    await answer(
        interaction,
        await archive.replay(
            ctx(interaction), guild(interaction), channel(interaction), viewer(interaction), game
        ),
    )
