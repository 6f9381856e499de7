"""Changing the test guild as its admins, its users or time would, with the gateway events Discord sends.

- Guilds: ``add_guild(name, shard=1, shards=2)`` adds a guild (with its text channel) whose id puts it on
  that shard (Discord's formula, `payloads.shard_of`), and sends its GUILD_CREATE to the sessions of that
  shard, as when the bot is added to a server; all members are members of every guild.
- Roles: ``grant(user, "manage_guild", guild=...)`` gives a member a role with those permissions in a
  guild (the first guild by default): interactions there carry them in the member's ``permissions``
  and the role in its ``roles``; GUILD_CREATE has the role. ``await give_role(...)`` does the same
  and also tells connected bots (GUILD_ROLE_CREATE or GUILD_ROLE_UPDATE), so that discord.py's
  ``channel.permissions_for(member)`` knows the role (`grant` is for before the bot connects);
  ``await revoke(user, "manage_roles")`` takes permissions back (GUILD_ROLE_UPDATE). Other roles:
  ``await add_role(name, position=..., managed=...)`` (GUILD_ROLE_CREATE), which the bot gives and takes
  through REST (`roles`) and an admin with ``put_role``; ``holders(role)`` are the members holding it.
- Private channels: ``add_private_channel(name, *members, roles=(...))`` is a text channel @everyone
  cannot view (VIEW_CHANNEL denied to the @everyone role), viewable by the bot, by ``members`` (a
  member overwrite) and by the members whose own role is allowed (``roles``: a role overwrite);
  ``let_view(channel, user, by_role=...)`` allows one more later (CHANNEL_UPDATE).
- Permissions: ``deny(channel, "send_messages", ...)`` / ``allow_perms(...)`` / ``reset_perms(channel)``
  set the bot member's permission overwrite on a channel (a thread takes its parent's) and send
  CHANNEL_UPDATE, so discord.py's ``channel.permissions_for(guild.me)`` agrees with what REST enforces.
- Channels: ``add_text_channel(name, guild=...)`` (CHANNEL_CREATE), ``delete_channel`` (CHANNEL_DELETE,
  or THREAD_DELETE; a channel's threads go with it).
- Threads: ``add_thread`` (a public thread in the text channel, or a post in the forum channel, created
  on demand, or with ``private=True`` a private thread of its owner and the bot; THREAD_CREATE once a
  bot is connected, else in GUILD_CREATE), ``archive`` / ``unarchive`` (THREAD_UPDATE; discord.py
  drops archived threads from its cache and adds them back when unarchived).
- Users: ``user_says`` posts a user message (MESSAGE_CREATE for bots with the intent); in an archived
  thread it unarchives it first, as on Discord, unless the thread is locked (a FakeDiscordError: a user
  without MANAGE_THREADS cannot post there).
- Time: ``advance(seconds)`` moves the fake's clock (the nonce window, thread auto-archiving).
- Gateway: ``request_reconnect`` (op 7 RECONNECT) and ``drop_gateway`` (the TCP connection is cut): both
  make discord.py RESUME; ``gateway_paused()`` keeps the bot from reconnecting meanwhile, so events sent
  then are queued and replayed on RESUME.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from . import payloads, perms
from .gateway import GUILDS
from .models import (
    FORUM,
    TEXT,
    FakeChannel,
    FakeDiscordError,
    FakeGuild,
    FakeMessage,
    FakeRole,
    FakeUser,
    Overwrite,
)
from .server import FakeServer

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes Discord accepts for auto_archive_duration


class FakeWorld(FakeServer):
    # --- guilds ----------------------------------------------------------------------------------------

    async def add_guild(self, name: str, *, shard: int = 0, shards: int = 1) -> FakeGuild:
        """A new guild with a text channel, on ``shard`` of ``shards``; connected sessions of that shard
        get its GUILD_CREATE."""
        guild = self.store.add_guild(payloads.snowflake_on_shard(shard, shards), name)
        await self.gateway.dispatch("GUILD_CREATE", self.gateway.guild_create(guild.id), GUILDS)
        return guild

    # --- roles and permissions -------------------------------------------------------------------------

    def grant(self, user: FakeUser, *names: str, guild: FakeGuild | None = None) -> None:
        """Give ``user`` a role with the permissions ``names`` ("manage_guild", ...) in ``guild`` (default:
        the first guild), added to what its role had; Discord sends the role's permissions with each of the
        member's interactions there (the bot reads ``interaction.permissions``)."""
        target = guild or self.store.guilds[self.store.guild_id]
        self.store.give_role(target, user, perms.bits(*names))

    async def give_role(self, user: FakeUser, *names: str, guild: FakeGuild | None = None) -> None:
        """`grant`, and GUILD_ROLE_CREATE (a new role) or GUILD_ROLE_UPDATE to the connected bots: a
        role given while the bot runs (Discord sends no member update without the members intent; the
        member's roles come with their interactions)."""
        target = guild or self.store.guilds[self.store.guild_id]
        new = self.store.give_role(target, user, perms.bits(*names))
        data = {"guild_id": str(target.id), "role": payloads.member_role(target, user)}
        await self.gateway.dispatch("GUILD_ROLE_CREATE" if new else "GUILD_ROLE_UPDATE", data, GUILDS)

    async def revoke(self, user: FakeUser, *names: str, guild: FakeGuild | None = None) -> None:
        """Take the permissions ``names`` from ``user``'s own role (GUILD_ROLE_UPDATE), as an admin who
        edits the role does."""
        target = guild or self.store.guilds[self.store.guild_id]
        if user.id not in target.role_ids:
            raise FakeDiscordError(f"{user} has no role of their own in {target}")
        target.roles[user.id] &= ~perms.bits(*names)
        self.store.changed()
        data = {"guild_id": str(target.id), "role": payloads.member_role(target, user)}
        await self.gateway.dispatch("GUILD_ROLE_UPDATE", data, GUILDS)

    async def add_role(
        self, name: str, *, position: int = 1, managed: bool = False, guild: FakeGuild | None = None
    ) -> FakeRole:
        """A role that is nobody's own at ``position`` (below the members' own roles, `OWN_ROLES_AT`,
        unless placed there or higher), GUILD_ROLE_CREATE to the connected bots (GUILD_CREATE has it
        for those connecting later)."""
        target = guild or self.store.guilds[self.store.guild_id]
        role = FakeRole(payloads.snowflake(), name, position, managed=managed)
        target.other_roles[role.id] = role
        self.store.changed()
        await self.gateway.dispatch(
            "GUILD_ROLE_CREATE", {"guild_id": str(target.id), "role": payloads.other_role(role)}, GUILDS
        )
        return role

    def put_role(self, user: FakeUser, role: FakeRole, *, guild: FakeGuild | None = None) -> None:
        """Give ``user`` the ``role`` as an admin does in Discord's app (no audit entry of the bot's)."""
        target = guild or self.store.guilds[self.store.guild_id]
        target.held.setdefault(user.id, set()).add(role.id)
        self.store.changed()

    def holders(self, role: FakeRole, *, guild: FakeGuild | None = None) -> set[FakeUser]:
        """The members who hold ``role``."""
        target = guild or self.store.guilds[self.store.guild_id]
        return {u for u in self.store.members if role.id in target.held.get(u.id, ())}

    def permissions(self, channel: FakeChannel, user: FakeUser | None = None) -> int:
        """The permission bits of ``user`` (default: the bot) in ``channel``, as the REST routes see them."""
        who = user or self.store.bot
        return perms.in_channel(
            channel, who.id, self.store.role(channel, who), self.store.role_id(channel, who)
        )

    async def deny(self, channel: FakeChannel, *names: str) -> None:
        """Deny the bot permissions ``names`` ("send_messages", "attach_files", ...) in ``channel``."""
        await self._overwrite(channel, perms.bits(*names), 0)

    async def allow_perms(self, channel: FakeChannel, *names: str) -> None:
        """Allow the bot permissions ``names`` in ``channel`` (also undoes a `deny` of them)."""
        await self._overwrite(channel, 0, perms.bits(*names))

    async def reset_perms(self, channel: FakeChannel) -> None:
        """Remove the bot's overwrite from ``channel``: the @everyone permissions apply again."""
        await self._overwrite(channel, None, None)

    async def _overwrite(self, channel: FakeChannel, deny: int | None, allow: int | None) -> None:
        if channel.is_thread or channel.guild_id is None:
            raise FakeDiscordError(f"{channel} has no permission overwrites (a thread's are its parent's)")
        bot = self.store.bot.id
        ow = channel.overwrites.setdefault(bot, Overwrite(bot, type=1))
        if deny is None or allow is None:
            ow.allow = ow.deny = 0
        else:
            ow.allow, ow.deny = (ow.allow | allow) & ~deny, (ow.deny | deny) & ~allow
        if not ow.allow and not ow.deny:
            del channel.overwrites[bot]
        self.store.changed()
        await self.gateway.channel_event("CHANNEL_UPDATE", channel)

    # --- channels and threads --------------------------------------------------------------------------

    async def add_text_channel(self, name: str, *, guild: FakeGuild | None = None) -> FakeChannel:
        """A new text channel in ``guild`` (default: the first guild), announced with CHANNEL_CREATE."""
        channel = self.store.add_channel(name, guild_id=None if guild is None else guild.id)
        self.store.changed()
        await self.gateway.channel_event("CHANNEL_CREATE", channel)
        return channel

    async def add_private_channel(
        self, name: str, *members: FakeUser, roles: tuple[FakeUser, ...] = (), guild: FakeGuild | None = None
    ) -> FakeChannel:
        """A new text channel in ``guild`` (default: the first) that @everyone cannot view: the
        @everyone role is denied VIEW_CHANNEL, the bot, each of ``members`` and the own role of each
        of ``roles`` (given one, without permissions, when they have none) are allowed it."""
        channel = self.store.add_channel(name, guild_id=None if guild is None else guild.id)
        target = self.store.guilds[channel.guild_id or self.store.guild_id]
        channel.overwrites[target.id] = Overwrite(target.id, type=0, deny=perms.VIEW_CHANNEL)
        for user in (self.store.bot, *members):
            channel.overwrites[user.id] = Overwrite(user.id, type=1, allow=perms.VIEW_CHANNEL)
        for user in roles:
            if user.id not in target.role_ids:
                await self.give_role(user, guild=target)
            role_id = target.role_ids[user.id]
            channel.overwrites[role_id] = Overwrite(role_id, type=0, allow=perms.VIEW_CHANNEL)
        self.store.changed()
        await self.gateway.channel_event("CHANNEL_CREATE", channel)
        return channel

    async def let_view(self, channel: FakeChannel, user: FakeUser, *, by_role: bool = False) -> None:
        """Allow ``user`` (``by_role``: their own role, given one when they have none) to view
        ``channel`` (CHANNEL_UPDATE)."""
        if channel.is_thread or channel.guild_id is None:
            raise FakeDiscordError(f"{channel} has no permission overwrites (a thread's are its parent's)")
        target = self.store.guilds[channel.guild_id]
        if by_role and user.id not in target.role_ids:
            await self.give_role(user, guild=target)
        key, kind = (target.role_ids[user.id], 0) if by_role else (user.id, 1)
        ow = channel.overwrites.setdefault(key, Overwrite(key, type=kind))
        ow.allow, ow.deny = ow.allow | perms.VIEW_CHANNEL, ow.deny & ~perms.VIEW_CHANNEL
        self.store.changed()
        await self.gateway.channel_event("CHANNEL_UPDATE", channel)

    async def delete_channel(self, channel: FakeChannel) -> None:
        """Delete ``channel`` (with its threads): REST on it answers 404 10003 "Unknown Channel"."""
        if channel.guild_id is None or channel.deleted:
            raise FakeDiscordError(f"cannot delete {channel}")
        self.store.remove_channel(channel)
        await self.gateway.channel_event("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", channel)

    async def add_thread(
        self,
        name: str,
        parent: FakeChannel | None = None,
        *,
        forum: bool = False,
        auto_archive_minutes: int = 1440,
        owner: FakeUser | None = None,
        private: bool = False,
    ) -> FakeChannel:
        """A public thread (type 11) started by ``owner`` (default: the first member) in ``parent`` (default:
        the text channel; with ``forum``: a post in the forum channel, created on first use); with
        ``private``, a private thread (type 12) of the text channel, viewable only by its owner, the bot
        (its members) and members with MANAGE_THREADS."""
        if auto_archive_minutes not in ARCHIVE_DURATIONS:
            raise ValueError(f"auto_archive_minutes must be one of {ARCHIVE_DURATIONS}")
        if parent is None:
            parent = await self._forum() if forum else self.store.text_channel
        if parent.type != (FORUM if forum else TEXT):
            raise FakeDiscordError(f"{parent} is not a {'forum' if forum else 'text'} channel")
        owner = owner or self.store.members[0]
        thread = self.store.add_thread(name, parent, owner, auto_archive_minutes, private=private)
        await self.gateway.channel_event("THREAD_CREATE", thread)
        return thread

    async def _forum(self) -> FakeChannel:
        found = next((c for c in self.store.channels.values() if c.type == FORUM), None)
        if found is None:
            found = self.store.add_channel("la-citta-forum", type=FORUM)
            await self.gateway.channel_event("CHANNEL_CREATE", found)
        return found

    async def archive(self, thread: FakeChannel, locked: bool = False) -> None:
        """Archive ``thread`` (and lock it: then only MANAGE_THREADS may unarchive it), as a moderator."""
        self._thread(thread)
        await self.channel_api.set_archived(thread, True, locked)

    async def unarchive(self, thread: FakeChannel) -> None:
        """Unarchive and unlock ``thread``, as a moderator."""
        self._thread(thread)
        await self.channel_api.set_archived(thread, False, False)

    @staticmethod
    def _thread(thread: FakeChannel) -> None:
        if not thread.is_thread or thread.deleted:
            raise FakeDiscordError(f"{thread} is not a live thread")

    async def user_says(self, user: FakeUser, channel: FakeChannel, text: str) -> FakeMessage:
        """``user`` posts ``text`` in ``channel``; in an archived (unlocked) thread that unarchives it."""
        if channel.deleted or channel.type == FORUM:
            raise FakeDiscordError(f"{user} cannot post in {channel}")
        if channel.recipient is not None and channel.recipient is not user:
            raise FakeDiscordError(f"{user} cannot post in {channel.recipient}'s DM channel")
        if channel.is_thread and channel.archived:
            if channel.locked:
                raise FakeDiscordError(f"{channel} is archived and locked: {user} cannot post there")
            await self.channel_api.set_archived(channel, False)
        msg = self.store.create_message(channel, {"content": text}, [], author=user)
        await self.gateway.message_create(msg)
        return msg

    # --- time ------------------------------------------------------------------------------------------

    async def advance(self, seconds: float) -> None:
        """Move the fake's clock ``seconds`` ahead; threads idle for their auto-archive duration archive."""
        self.store.clock_offset += seconds
        self.store.changed()
        for thread in self.store.active_threads():
            if self.store.now() - thread.last_activity >= thread.auto_archive_minutes * 60:
                await self.channel_api.set_archived(thread, True)

    # --- the gateway -----------------------------------------------------------------------------------

    async def request_reconnect(self) -> None:
        """Send RECONNECT (op 7) to every connected bot session: the client should RESUME."""
        for s in self.connected:
            await s.send(7, None)

    async def drop_gateway(self) -> None:
        """Cut every bot's websocket without a close frame (a network failure): the client should RESUME."""
        await self.gateway.drop()

    @contextlib.asynccontextmanager
    async def gateway_paused(self) -> AsyncIterator[None]:
        """While inside, new gateway connections wait before HELLO; events meanwhile are queued."""
        self.gateway.admitting.clear()
        try:
            yield
        finally:
            self.gateway.admitting.set()
