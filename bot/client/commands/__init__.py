"""The slash commands: ``/citta`` and its subcommands, by theme — playing (`table`), looking at the
game (`questions`), its clock and absent players (`clock`), the server's history (`history`), a
player's own settings (`me`) — and the tree they hang on (`CittaTree`), through which every command
and autocomplete passes: the reader's language first, the one error path (`bot.client.door.fail`)
for whatever goes wrong.

Where the next commands go (Discord allows 25 subcommands or groups in a command, 25 subcommands in
a group, one level of groups; ``/citta`` has its 25, and none is renamed or removed): see
docs/commands.md.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.client.commands import (
    clock,
    history,
    me,
    mine,
    options,
    questions,
    review,
    season,
    table,
    tournament,
)
from bot.client.commands.base import citta
from bot.client.door import context_of, fail, speak_to
from bot.client.measure import timed
from bot.errors import CittaError
from bot.service import absence
from bot.service.admission import IN_A_DM
from i18n import _

log = logging.getLogger(__name__)
MODULES = (table, questions, clock, history, me)
"""The modules that define ``/citta``'s subcommands (imported for that)."""
GROUPS: tuple[app_commands.Group | app_commands.Command[Any, ..., Any], ...] = (
    citta, mine.my_games, review.review, season.server, season.season, tournament.organise,
    tournament.tournament,
)  # fmt: skip
"""The top-level commands, as the tree syncs them."""


class CittaTree(app_commands.CommandTree[Any]):
    """Every slash command and autocomplete passes here first: it is answered in the user's language,
    its options' values are checked (`options`: a modified client can send anything), and a command
    gives a player the bot played for (after a deadline) their seat back."""

    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        """discord.py's dispatch of a command or an autocomplete, timed (`bot.metrics`)."""
        autocomplete = interaction.type is discord.InteractionType.autocomplete
        with timed(interaction, "autocomplete" if autocomplete else "command"):
            await super()._call(interaction)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        command = interaction.type is discord.InteractionType.application_command
        try:
            await speak_to(interaction)
            if command and isinstance(interaction.command, app_commands.Command):
                options.check(interaction.command, dict(interaction.data or {}))
            if command and interaction.channel_id is not None:
                await absence.come_back(
                    context_of(interaction), interaction.user.id, channel=interaction.channel_id
                )
        except Exception as e:
            if command:
                await fail(interaction, e, "the start of a command")
            else:  # an autocomplete has no other answer than its choices
                log.exception("An autocomplete could not start")
                await interaction.response.autocomplete([])
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        """Known errors become the short private reply; anything else the private apology with an
        incident id (`bot.client.door.fail`)."""
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(cause, app_commands.NoPrivateMessage):
            cause = CittaError(_(IN_A_DM))
        elif isinstance(cause, app_commands.CheckFailure | app_commands.TransformerError):
            cause = CittaError(str(cause))
        command = interaction.command.qualified_name if interaction.command else "?"
        await fail(interaction, cause, f"/{command}")


def add_commands(tree: app_commands.CommandTree[Any], dev_guild: int | None = None) -> None:
    """Hang the bot's commands on ``tree``: all global; with a ``dev_guild``, the commands that run
    only in servers are that server's instead (Discord offers a server's commands at once, global
    ones after a while), and those that also run elsewhere (a DM, a user's install) stay global."""
    for group in GROUPS:
        if dev_guild is not None and only_in_servers(group):
            tree.add_command(group, guild=discord.Object(id=dev_guild))
        else:
            tree.add_command(group)


def only_in_servers(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> bool:
    """Whether a top-level command runs in servers only."""
    contexts = command.allowed_contexts
    return command.guild_only or (
        contexts is not None and not (contexts.dm_channel or contexts.private_channel)
    )
