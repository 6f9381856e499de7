"""``/citta-organise`` and ``/citta-tournament``: a server's tournaments (`bot.service.tournaments`).

Two top-level commands (docs/commands.md): ``/citta-organise`` is the organisers' — Discord offers and
runs it only for members with Manage Server (``default_member_permissions``), and the admins may allow
a role of organisers in the server's Integrations settings; ``/citta-tournament`` is everyone's. Both
run in servers only; every answer is private (the tournament speaks in its channel, through the outbox).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.client.commands.base import LANGUAGE_CHOICES, Interaction, channel_language, ctx, guild
from bot.client.commands.clock import POLICY_CHOICES
from bot.client.commands.table import LEVEL_CHOICES, SETUP_CHOICES
from bot.client.replies import answer
from bot.service import tournaments
from bot.service.tournaments import Opening

organise = app_commands.Group(
    name="citta-organise", description=_("Run tournaments on this server (organisers only)"),
    guild_only=True, default_permissions=discord.Permissions(manage_guild=True),
)  # fmt: skip
"""``/citta-organise``: tournaments, for organisers."""
tournament = app_commands.Group(
    name="citta-tournament", description=_("This server's tournament: its standings, dropping out"),
    guild_only=True,
)  # fmt: skip
"""``/citta-tournament``: the server's tournament, for everyone."""
FORMAT_CHOICES = [
    app_commands.Choice(name=_("Swiss"), value="swiss"),
    app_commands.Choice(name=_("round robin in groups"), value="groups"),
    app_commands.Choice(name=_("single elimination from groups"), value="knockout"),
]
DROPOUT_CHOICES = [
    app_commands.Choice(name=_("a computer takes their place"), value="computer"),
    app_commands.Choice(name=_("they forfeit"), value="forfeit"),
]


@organise.command(
    name="tournament", description=_("Open a tournament in this channel; players sign up with a button")
)
@app_commands.describe(
    name=_("the tournament's name"),
    format=_("Swiss, round robin in groups, or single elimination from groups"),
    size=_("players at a table (2–5)"),
    rounds=_("rounds of a Swiss or a round robin (1–10)"),
    signup=_("hours until sign-up closes and round 1 is seated"),
    hours=_("hours a move may take at the tables"),
    policy=_("at the deadline: wait, let a computer decide, or skip with the least harmful move"),
    dropout=_("a player who drops out: a computer takes their place, or they forfeit"),
    setup=_("beginner: fixed board and castles; experienced: shuffled board, you place castles"),
    language=_("the language of the tournament's posts and games (default: the server's)"),
    level=_("the computer player's level for policy computer"),
)
@app_commands.choices(format=FORMAT_CHOICES, policy=POLICY_CHOICES, dropout=DROPOUT_CHOICES,
                      setup=SETUP_CHOICES, language=LANGUAGE_CHOICES, level=LEVEL_CHOICES)  # fmt: skip
async def open_(
    interaction: Interaction,
    name: app_commands.Range[str, 1, 60],
    format: str,
    size: app_commands.Range[int, 2, 5] = 3,
    rounds: app_commands.Range[int, 1, 10] = 3,
    signup: app_commands.Range[int, 1, 720] = 48,
    hours: app_commands.Range[int, 1, 336] = 24,
    policy: str = "computer",
    dropout: str = "forfeit",
    setup: str = "beginner",
    language: str | None = None,
    level: str = "basic",
) -> None:
    chosen = channel_language(interaction, language)
    opening = Opening(name, format, size, rounds, setup, hours, policy, dropout, signup, chosen, level)
    done = await tournaments.open_tournament(
        ctx(interaction), interaction.user.id, guild=guild(interaction), channel=interaction.channel_id or 0,
        opening=opening,
    )  # fmt: skip
    await answer(interaction, done)


@organise.command(name="drop", description=_("Drop a player out of the running tournament"))
@app_commands.describe(player=_("the player who drops out"))
async def drop_player(interaction: Interaction, player: discord.Member) -> None:
    done = await tournaments.drop(
        ctx(interaction), guild(interaction), user=player.id, by=interaction.user.id
    )
    await answer(interaction, done)


@organise.command(name="cancel", description=_("Cancel the running tournament (its games go on)"))
async def cancel(interaction: Interaction) -> None:
    await answer(interaction, await tournaments.cancel(ctx(interaction), guild(interaction)))


@tournament.command(name="standings", description=_("The tournament's standings, and your place"))
async def standings(interaction: Interaction) -> None:
    shown = await tournaments.show_standings(ctx(interaction), guild(interaction), interaction.user.id)
    await answer(interaction, shown)


@tournament.command(name="drop", description=_("Drop out of the running tournament"))
async def drop(interaction: Interaction) -> None:
    done = await tournaments.drop(
        ctx(interaction), guild(interaction), user=interaction.user.id, by=interaction.user.id
    )
    await answer(interaction, done)
