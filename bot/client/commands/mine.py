"""``/citta-my-games``: a player's games at a glance, in every server (`bot.service.mine`). A
top-level command of its own: it runs in a server, in a direct message with the bot, and — for a
member who added the bot to their account (Discord's user install) — in any other private channel.
Its answer is private wherever it is asked; its menu opens a game's panel right there."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from bot.client.commands.base import Interaction, ctx
from bot.client.replies import answer
from bot.service import mine


def server_name(interaction: Interaction) -> mine.ServerName:
    """A server's name as the bot's cache knows it (None: a server the bot is not in any more)."""

    def name(guild_id: int) -> str | None:
        guild = interaction.client.get_guild(guild_id)
        return None if guild is None else guild.name

    return name


@app_commands.command(
    name="citta-my-games", description=_("Your La Città games in every server, those waiting on you first")
)
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
async def my_games(interaction: Interaction) -> None:
    await answer(
        interaction, await mine.my_games(ctx(interaction), interaction.user.id, server_name(interaction))
    )
