"""Discord permissions: names to bits, the @everyone role's permissions, and a member's in a channel.

Computed as Discord documents it (docs/topics/Permissions.md, "Permission Overwrites" and "Implicit
Permissions"), for members with the @everyone role and at most one role of their own (``role``: its
permission bits, which `world.FakeWorld.grant` gives, e.g. MANAGE_GUILD; ``role_id``: its id); the
guild's owner, who has every permission, is none of the test users (`state.Store.owner`):

- base: the @everyone role's permissions (`EVERYONE`), with the member's role's added; ADMINISTRATOR
  there gives every permission, overwrites aside;
- then the channel's @everyone overwrite, then its overwrite for the member's role, then the member's
  own overwrite, each deny first, then allow (a thread has no overwrites: its parent's apply);
- without VIEW_CHANNEL a member has no permission at all in the channel;
- a private thread (type 12) is viewed only by its members (`FakeChannel.members`: its owner, the
  bot, those added) and by members with MANAGE_THREADS (docs/resources/Channel.md, "Thread" objects);
- without SEND_MESSAGES (in a thread: SEND_MESSAGES_IN_THREADS) it also loses EMBED_LINKS, ATTACH_FILES,
  MENTION_EVERYONE and SEND_TTS_MESSAGES.

discord.py's ``channel.permissions_for(member)`` computes the same from the GUILD_CREATE roles and the
channels' ``permission_overwrites``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from .models import FakeChannel

FLAGS: dict[str, int] = dict(discord.Permissions.VALID_FLAGS)  # Discord's names → bits
ALL = discord.Permissions.all().value


def bits(*names: str) -> int:
    """The permission bits named like discord.py's `Permissions` attributes ("send_messages", ...)."""
    unknown = [n for n in names if n not in FLAGS]
    if unknown:
        raise ValueError(f"unknown permission(s) {unknown}; known: {sorted(FLAGS)}")
    value = 0
    for name in names:
        value |= FLAGS[name]
    return value


VIEW_CHANNEL = bits("view_channel")
SEND_MESSAGES = bits("send_messages")
SEND_IN_THREADS = bits("send_messages_in_threads")
ATTACH_FILES = bits("attach_files")
EMBED_LINKS = bits("embed_links")
READ_HISTORY = bits("read_message_history")
MANAGE_THREADS = bits("manage_threads")
CREATE_PUBLIC_THREADS = bits("create_public_threads")
MANAGE_CHANNELS = bits("manage_channels")
ADMINISTRATOR = bits("administrator")
MANAGE_ROLES = bits("manage_roles")
_NEEDS_SEND = bits("embed_links", "attach_files", "mention_everyone", "send_tts_messages")

# What @everyone may do in the test guild (a subset of Discord's default for a new server).
EVERYONE = bits(
    "view_channel",
    "send_messages",
    "send_messages_in_threads",
    "create_public_threads",
    "embed_links",
    "attach_files",
    "add_reactions",
    "read_message_history",
    "use_application_commands",
)


def in_channel(channel: FakeChannel, member_id: int, role: int = 0, role_id: int | None = None) -> int:
    """The permissions of member ``member_id`` (with the @everyone role and the permissions ``role`` of
    their own role, whose id is ``role_id``) in ``channel``."""
    if channel.guild_id is None:  # a DM
        return EVERYONE
    source = channel.permission_source
    value = EVERYONE | role
    if value & ADMINISTRATOR:
        return ALL
    for target in (channel.guild_id, role_id, member_id):
        if target is None:
            continue
        ow = source.overwrites.get(target)
        if ow is not None:
            value = (value & ~ow.deny) | ow.allow
    if not value & VIEW_CHANNEL:
        return 0
    joined = member_id in {m.id for m in channel.members}
    if channel.is_private_thread and not joined and not value & MANAGE_THREADS:
        return 0
    if not value & (SEND_IN_THREADS if channel.is_thread else SEND_MESSAGES):
        value &= ~_NEEDS_SEND
    return value
