"""What every slash command shares: the ``/citta`` group (and ``/citta me``), and reading an
interaction's context, channel, server and permissions.

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

Interaction = discord.Interaction[Any]

citta = app_commands.Group(name="citta", description=_("Play La Città in this channel"), guild_only=True)
"""``/citta``: the game of this channel, its clock and its server's history (25 children, Discord's limit)."""
me = app_commands.Group(
    name="me", description=_("Your quiet hours and reminders; forget your name"), parent=citta
)
"""``/citta me``: a player's own settings."""
LANGUAGE_CHOICES = [app_commands.Choice(name=i18n.NAMES[code], value=code) for code in i18n.LANGUAGES]
"""Each language by its own name (the same for every reader)."""


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


async def thinking(interaction: Interaction) -> None:
    """A private "thinking…" first, for a command that may take a moment."""
    await interaction.response.defer(ephemeral=True, thinking=True)
