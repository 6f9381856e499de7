"""What every slash command shares: the ``/citta`` group (and ``/citta me``), and reading an
interaction's context, channel, server and permissions, and which channels its member can view.

The group's commands are defined by theme in this package's modules; each handler only turns the
interaction into one service call and its result into a reply (errors: `bot.client.door.fail`).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

import i18n
from bot.client.door import context_of, user_of
from bot.results import User
from bot.service.context import Context
from bot.service.visible import Viewer

Interaction = discord.Interaction[Any]

citta = app_commands.Group(name="citta", description=_("Play La Città in this channel"), guild_only=True)
"""``/citta``: the game of this channel, its clock and its server's history (25 children, Discord's limit)."""
me = app_commands.Group(
    name="me", description=_("Your quiet hours and reminders; forget your name"), parent=citta
)
"""``/citta me``: a player's own settings."""
LANGUAGE_CHOICES = [app_commands.Choice(name=i18n.NAMES[code], value=code) for code in i18n.LANGUAGES]
"""Each language by its own name (the same for every reader)."""


def game_language(chosen: str | None, server: str | None, client: str | None) -> str:
    """The language of what a channel reads (a new game's posts, a season's announcements): the one
    chosen, else the server's (when we speak it), else the asker's client's, else English."""
    return i18n.choose(chosen, server, client)


def channel_language(interaction: Interaction, chosen: str | None = None) -> str:
    """`game_language` of an interaction: ``chosen``, else its server's, else its user's client's."""
    return game_language(chosen, str(interaction.guild_locale or ""), str(interaction.locale))


def ctx(interaction: Interaction) -> Context:
    return context_of(interaction)


def channel(interaction: Interaction) -> int:
    assert interaction.channel_id is not None
    return interaction.channel_id


def guild(interaction: Interaction) -> int:
    return interaction.guild_id or 0


def manager(interaction: Interaction) -> bool:
    """Whether the user may manage the server (they may then act as any game's host)."""
    return bool(interaction.permissions.manage_guild)


def user(interaction: Interaction) -> User:
    return user_of(interaction)


def viewer(interaction: Interaction) -> Viewer:
    """The member of the interaction as the history sees them (`bot.service.visible`): their id,
    and whether they can view a channel of this server, asked of Discord once per channel."""
    known: dict[int, bool] = {}

    async def can_view(channel_id: int) -> bool:
        if channel_id not in known:
            known[channel_id] = await _can_view(interaction, channel_id)
        return known[channel_id]

    return Viewer(interaction.user.id, can_view)


async def _can_view(interaction: Interaction, channel_id: int) -> bool:
    """Whether the interaction's member has View Channel in the channel ``channel_id`` of its server,
    with their roles and its overwrites (discord.py's ``permissions_for``): a thread by its parent's,
    a private thread only with Manage Threads there too (who was added to one is not known without
    asking Discord for its members; its players see its games anyway). A channel not in the cache is
    asked for (discord.py keeps no archived thread); one that is gone, in another server, or hidden
    from the bot is viewable by nobody."""
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return False
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None:
        try:
            channel = await guild.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden, discord.InvalidData):
            return False
    try:
        allowed = channel.permissions_for(member)
    except discord.ClientException:  # a thread whose parent is not known
        return False
    if isinstance(channel, discord.Thread) and channel.is_private():
        return allowed.view_channel and allowed.manage_threads
    return allowed.view_channel


async def thinking(interaction: Interaction) -> None:
    """A private "thinking…" first, for a command that may take a moment."""
    await interaction.response.defer(ephemeral=True, thinking=True)
