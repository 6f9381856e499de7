"""What the rank roles (`bot.service.ranks`, `bot.service.rank_sync`) ask of Discord: a small port,
`RoleCalls`, which the client provides (`bot.client.roles.DiscordRoles`) and hands to the service in
its `Context` (``ctx.roles``; None: a service without Discord, which decides but changes no role),
what Discord may answer (`RolesRefused`, `RoleGone`; anything else is a fault worth another try), and
what the client reads of a role when an admin maps it (`RoleFacts`).

Why a port and not a new kind of outbox entry: the outbox (`bot.service.delivery`) is a lane of posts
per channel, ordered, each found again after a crash by its nonce; a role change has no channel, no
order and no message to find — giving or taking a role is idempotent on Discord (``PUT``/``DELETE``),
so what makes it exactly-once in effect is storing the plan before the call and its outcome after
(`bot.storage.ranks_protocol`), which the rank roles' own table does. The port keeps the service
free of Discord objects and lets tests and local play run without one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class RolesRefused(Exception):
    """Discord refused (403): the bot lacks Manage Roles, or the role is not below its highest role."""


class RoleGone(Exception):
    """Discord knows no such role or member (404): the role was deleted, or the member left."""


class RoleCalls(Protocol):
    """Giving and taking a member's role (the client's `bot.client.roles.DiscordRoles`); each call
    raises `RolesRefused`, `RoleGone`, or anything else for a fault worth another try."""

    async def holds(self, guild: int, member: int, role: int) -> bool:
        """Whether the member holds the role now."""
        ...

    async def give(self, guild: int, member: int, role: int, reason: str) -> None:
        """Give the member the role (done already: nothing changes), ``reason`` in the audit log."""
        ...

    async def take(self, guild: int, member: int, role: int, reason: str) -> None:
        """Take the role from the member (not held: nothing changes), ``reason`` in the audit log."""
        ...


@dataclass(frozen=True)
class RoleFacts:
    """What the client reads of a role an admin maps (from discord.py's cache of the server)."""

    role: int
    everyone: bool
    """The @everyone role (every member holds it: nobody can be given it)."""
    managed: bool
    """A role an integration manages (a bot's, a booster's, a subscription's): nobody may give it."""
    manage_roles: bool
    """Whether the bot has Manage Roles in the server."""
    below_bot: bool
    """Whether the role is below the bot's highest role (Discord lets it give only those)."""
    bot_role: str
    """The name of the bot's highest role (where the admins fix it)."""
