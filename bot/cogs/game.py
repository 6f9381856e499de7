"""The ``/citta`` slash commands. Each one defers if needed, calls the service, and replies."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from ..rules_help import TOPICS
from ..ui import deliver, reply, service_of, user_of

if TYPE_CHECKING:
    from ..client import CittaBot

Interaction = discord.Interaction["CittaBot"]


def _channel(interaction: Interaction) -> int:
    assert interaction.channel_id is not None
    return interaction.channel_id


@app_commands.guild_only()
class Citta(commands.GroupCog, group_name="citta", group_description="Play La Città in this channel"):
    """``/citta new|play|board|status|log|score|rules|secrets|resign|abandon``."""

    def __init__(self, bot: CittaBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Open a new game of La Città in this channel")
    @app_commands.describe(
        setup="beginner: fixed board and castles; experienced: shuffled board, you place castles",
        players="start automatically when this many players have joined (2–5)",
    )
    async def new(
        self, interaction: Interaction, setup: Literal["beginner", "experienced"] = "beginner",
        players: app_commands.Range[int, 2, 5] | None = None,
    ) -> None:  # fmt: skip
        svc = service_of(interaction)
        msg = await svc.new_game(user_of(interaction), channel=_channel(interaction),
                                 guild=interaction.guild_id, setup=setup, players=players)  # fmt: skip
        await reply(interaction, msg)

    @app_commands.command(description="Make your move (the list shows your legal moves; type to narrow it)")
    @app_commands.describe(move="a move such as: gold, build farm I9, golden 2 F5, poll 1 3, starve F6")
    async def play(self, interaction: Interaction, move: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await service_of(interaction).play(interaction.user.id, move, channel=_channel(interaction))
        await deliver(interaction, outcome)

    @play.autocomplete("move")
    async def play_autocomplete(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        choices = await service_of(interaction).choices(_channel(interaction), interaction.user.id, current)
        return [app_commands.Choice(name=c.name, value=c.value) for c in choices]

    @app_commands.command(description="Show the board")
    async def board(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await reply(interaction, await service_of(interaction).board(_channel(interaction)))

    @app_commands.command(description="Year, phase and round; who we wait for, and since when")
    async def status(self, interaction: Interaction) -> None:
        await reply(interaction, await service_of(interaction).status(_channel(interaction)))

    @app_commands.command(description="The last moves of the game")
    @app_commands.describe(n="how many moves (default 10)")
    async def log(self, interaction: Interaction, n: app_commands.Range[int, 1, 50] = 10) -> None:
        await reply(interaction, await service_of(interaction).log(_channel(interaction), n))

    @app_commands.command(description="The score (so far, or the final one)")
    async def score(self, interaction: Interaction) -> None:
        await reply(interaction, await service_of(interaction).score(_channel(interaction)))

    @app_commands.command(description="Short rule help")
    @app_commands.describe(topic="what to explain")
    @app_commands.choices(topic=[app_commands.Choice(name=t, value=t) for t in TOPICS])
    async def rules(self, interaction: Interaction, topic: str | None = None) -> None:
        await reply(interaction, service_of(interaction).rules(topic))

    @app_commands.command(description="Your private information this year (polled voice cards), only for you")
    async def secrets(self, interaction: Interaction) -> None:
        msg = await service_of(interaction).secrets(interaction.user.id, channel=_channel(interaction))
        await reply(interaction, msg)

    @app_commands.command(description="Resign (the bot then makes your moves), or leave the lobby")
    async def resign(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        outcome = await service_of(interaction).resign(interaction.user.id, channel=_channel(interaction))
        await deliver(interaction, outcome)

    @app_commands.command(description="Abandon this channel's game (host or Manage Server; asks to confirm)")
    async def abandon(self, interaction: Interaction) -> None:
        can_manage = bool(interaction.permissions.manage_guild)
        msg = await service_of(interaction).abandon_prompt(
            interaction.user.id, channel=_channel(interaction), can_manage=can_manage
        )
        await reply(interaction, msg)


async def setup(bot: CittaBot) -> None:
    await bot.add_cog(Citta(bot))
