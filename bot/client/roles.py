"""The Discord side of the rank roles (`bot.service.role_calls`): giving and taking a member's role
through discord.py's HTTP client (`DiscordRoles`, the service's `RoleCalls` port), and what an admin's
role is, read from discord.py's cache of the server (`facts`).

Discord's answers: 204 for a role given or taken (also when nothing changed: both calls are
idempotent); 403 (50013 Missing Permissions: no Manage Roles, or the role is not below the bot's
highest role) is `RolesRefused`; 404 (10011 Unknown Role, 10007 Unknown Member) is `RoleGone`; 429 and
5xx are waited for and retried by discord.py, what still fails is raised as it is (a fault: the
service tries again at the next tick). The bot reads a member's roles with one ``GET`` (it does not
ask for the members intent, so its cache does not know them).
"""

from __future__ import annotations

from collections.abc import Awaitable

import discord

from bot.service.role_calls import RoleFacts, RoleGone, RolesRefused


class DiscordRoles:
    """Gives and takes members' roles through ``client`` (see the module docstring)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def holds(self, guild: int, member: int, role: int) -> bool:
        try:
            data = await self.client.http.get_member(guild, member)
        except discord.NotFound as e:
            raise RoleGone(str(e)) from e
        return str(role) in data.get("roles", [])

    async def give(self, guild: int, member: int, role: int, reason: str) -> None:
        await _refused_or_gone(self.client.http.add_role(guild, member, role, reason=reason))

    async def take(self, guild: int, member: int, role: int, reason: str) -> None:
        await _refused_or_gone(self.client.http.remove_role(guild, member, role, reason=reason))


async def _refused_or_gone(call: Awaitable[object]) -> None:
    """Make a role call, Discord's 403 told as `RolesRefused` and its 404 as `RoleGone`."""
    try:
        await call
    except discord.Forbidden as e:
        raise RolesRefused(str(e)) from e
    except discord.NotFound as e:
        raise RoleGone(str(e)) from e


def facts(interaction: discord.Interaction[discord.Client], role: discord.Role) -> RoleFacts:
    """What the service checks of a role an admin maps: the bot's Manage Roles in the server and its
    highest role, from discord.py's cache (the bot's own member is always cached); without it, the
    interaction's ``app_permissions`` and no role below the bot (the service then refuses)."""
    me = role.guild.me
    if me is None:
        perms, below, top = interaction.app_permissions, False, interaction.client.user
        name = top.name if top is not None else "La Città"
        return RoleFacts(role.id, role.is_default(), role.managed, perms.manage_roles, below, name)
    return RoleFacts(
        role.id, role.is_default(), role.managed, me.guild_permissions.manage_roles, role < me.top_role,
        me.top_role.name,
    )  # fmt: skip
