"""Member role REST routes, answered as Discord documents them (docs/resources/Guild.md, "Add Guild
Member Role" and "Remove Guild Member Role"; docs/topics/Permissions.md, "Permission Hierarchy"):

- ``PUT`` / ``DELETE /guilds/{guild}/members/{user}/roles/{role}`` give or take a role: 204 with no
  body, also when the member already had it (or did not): both are idempotent. They take the
  ``X-Audit-Log-Reason`` header (URL-encoded), kept in the guild's ``audit_log``.
- 404: 10004 Unknown Guild, 10007 Unknown Member, 10011 Unknown Role (@everyone is no role to give).
- 403 50013 Missing Permissions: the bot lacks MANAGE_ROLES (its roles' permissions; ADMINISTRATOR has
  every one; the guild's owner is not the bot), or the role is not below the bot's highest role (a
  role at the same position or above), or it is managed by an integration.
- Discord then sends GUILD_MEMBER_UPDATE only to bots with the GUILD_MEMBERS intent, which the fake's
  gateway does not model: none is sent.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import unquote

from aiohttp import web

from . import perms
from .models import AuditEntry, FakeGuild
from .wire import DiscordError

if TYPE_CHECKING:
    from .server import FakeServer, Handler


class RoleApi:
    """The routes that change a member's roles."""

    def __init__(self, server: FakeServer) -> None:
        self.server = server
        self.store = server.store

    def routes(self) -> list[tuple[str, str, Handler]]:
        path = "/guilds/{guild}/members/{user}/roles/{role}"
        return [("PUT", path, self.change), ("DELETE", path, self.change)]

    def bot_permissions(self, guild: FakeGuild) -> int:
        """The bot's permissions in the guild: @everyone's and its own role's (ADMINISTRATOR: all)."""
        value = perms.EVERYONE | guild.roles.get(self.store.bot.id, 0)
        return perms.ALL if value & perms.ADMINISTRATOR else value

    async def change(self, request: web.Request) -> web.StreamResponse:
        guild = self.store.guilds.get(int(request.match_info["guild"]))
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        user = self.store.user(int(request.match_info["user"]))
        if user is None:
            raise DiscordError(404, 10007, "Unknown Member")
        role = guild.other_roles.get(int(request.match_info["role"]))
        if role is None:
            raise DiscordError(404, 10011, "Unknown Role")
        bot = self.store.bot.id
        allowed = self.bot_permissions(guild) & perms.MANAGE_ROLES
        if not allowed or role.position >= guild.top_position(bot) or role.managed:
            raise DiscordError(403, 50013, "Missing Permissions")
        held = guild.held.setdefault(user.id, set())
        adding = request.method == "PUT"
        if adding:
            held.add(role.id)
        else:
            held.discard(role.id)
        reason = request.headers.get("X-Audit-Log-Reason")
        entry = AuditEntry(
            "add" if adding else "remove", user.id, role.id, unquote(reason) if reason else None
        )
        guild.audit_log.append(entry)
        self.store.changed()
        return web.Response(status=204)
