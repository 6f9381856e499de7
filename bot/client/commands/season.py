"""``/citta-server season`` and ``/citta-season leaderboard|past``: a server's seasons
(`bot.service.seasons`); ``/citta-server rank-role`` and ``rank-roles``: its rank roles
(`bot.service.ranks`); ``/citta-server page on|off|renew``: the server's web page
(`bot.service.server_page`). Two top-level commands of their own (docs/commands.md): ``/citta-server``,
the server's settings, is seen only by members who may manage the server (Discord's
``default_member_permissions``: Discord itself neither offers nor runs it for anyone else, and the
admins may widen it in the server's Integrations settings); ``/citta-season`` is everyone's. Both run
in servers only; every answer is private."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.client.commands.base import LANGUAGE_CHOICES, Interaction, channel_language, ctx, guild
from bot.client.replies import answer
from bot.client.roles import facts
from bot.service import ranks, seasons, server_page

server = app_commands.Group(
    name="citta-server", description=_("This server's settings for La Città (its admins only)"),
    guild_only=True, default_permissions=discord.Permissions(manage_guild=True),
)  # fmt: skip
"""``/citta-server``: the server's own settings, for those who may manage it."""
season = app_commands.Group(
    name="citta-season", description=_("This season's leaderboard and the past seasons' champions"),
    guild_only=True,
)  # fmt: skip
"""``/citta-season``: the server's seasons, for everyone."""
LENGTH_CHOICES = [
    app_commands.Choice(name=_("a calendar month"), value="month"),
    app_commands.Choice(name=_("a calendar quarter"), value="quarter"),
    app_commands.Choice(name=_("off"), value="off"),
]


RULE_CHOICES = [
    app_commands.Choice(name=_("the last season's champion"), value="champion"),
    app_commands.Choice(name=_("places 1 to N of this season (value: N)"), value="top"),
    app_commands.Choice(name=_("an all-time rating of at least X (value: X)"), value="rating"),
    app_commands.Choice(name=_("off: take the role back"), value="off"),
]


@server.command(name="season", description=_("Run seasons here: their length, the champion's channel"))
@app_commands.describe(
    length=_("how long a season lasts (UTC), or off"),
    channel=_("where each season's champion is announced (default: this channel)"),
    language=_("the language of the announcements (default: the server's)"),
)
@app_commands.choices(length=LENGTH_CHOICES, language=LANGUAGE_CHOICES)
async def configure(
    interaction: Interaction,
    length: str,
    channel: discord.TextChannel | None = None,
    language: str | None = None,
) -> None:
    where = channel.id if channel is not None else interaction.channel_id or 0
    chosen = channel_language(interaction, language)
    done = await seasons.configure(ctx(interaction), guild(interaction), length, where, chosen)
    await answer(interaction, done)


PAGE_CHOICES = [
    app_commands.Choice(name=_("on: show me its address"), value="on"),
    app_commands.Choice(name=_("off: its address no longer opens it"), value="off"),
    app_commands.Choice(name=_("renew: a new address, the old one ends"), value="renew"),
]


@server.command(name="page", description=_("This server's web page: its games and leaderboards"))
@app_commands.describe(switch=_("on (answers with its address), off, or renew its address"))
@app_commands.choices(switch=PAGE_CHOICES)
async def page(interaction: Interaction, switch: str) -> None:
    await answer(interaction, await server_page.switch(ctx(interaction), guild(interaction), switch))


@season.command(name="leaderboard", description=_("This season's best rated players, and your place"))
async def leaderboard(interaction: Interaction) -> None:
    shown = await seasons.leaderboard(ctx(interaction), guild(interaction), interaction.user.id)
    await answer(interaction, shown)


@season.command(name="past", description=_("This server's past seasons and their champions"))
async def past(interaction: Interaction) -> None:
    await answer(interaction, await seasons.past(ctx(interaction), guild(interaction)))


@server.command(
    name="rank-role", description=_("Give a role by place or rating, kept current (needs Manage Roles)")
)
@app_commands.describe(
    role=_("the role I give and take"),
    rule=_("who holds it"),
    value=_("top: the number of places; rating: the least all-time rating"),
)
@app_commands.choices(rule=RULE_CHOICES)
async def rank_role(
    interaction: Interaction,
    role: discord.Role,
    rule: str,
    value: app_commands.Range[float, -100.0, 100.0] | None = None,
) -> None:
    language = channel_language(interaction)
    where = interaction.channel_id or 0
    done = await ranks.configure(
        ctx(interaction), guild(interaction), facts(interaction, role), rule, value, where, language
    )
    await answer(interaction, done)


@server.command(name="rank-roles", description=_("This server's rank roles and who holds them"))
async def rank_roles(interaction: Interaction) -> None:
    await answer(interaction, await ranks.listing(ctx(interaction), guild(interaction)))
