"""Discord JSON objects the fake sends: users, members, channels and threads, the guild, messages,
interactions (the wire format and Discord's checks of what the bot sends are in `wire`)."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from . import perms
from .wire import ATTACHMENT_SIZE_LIMIT

GROUP_DM = 3
"""A group DM's channel type (`models.GROUP_DM`; the models import this module)."""

if TYPE_CHECKING:
    from .models import FakeAttachment, FakeChannel, FakeGuild, FakeMessage, FakeRole, FakeUser

DISCORD_EPOCH_MS = 1420070400000
SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
LOADING = 1 << 7

_counter = itertools.count()


def snowflake() -> int:
    """A fresh, time-ordered Discord snowflake."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard whose session gets a guild's events (Discord's formula); DMs go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def snowflake_on_shard(shard: int, shard_count: int) -> int:
    """A fresh snowflake whose guild would be on ``shard`` of ``shard_count`` (its timestamp moved
    up to ``shard_count - 1`` milliseconds ahead)."""
    if not 0 <= shard < shard_count:
        raise ValueError(f"shard {shard} is not one of 0..{shard_count - 1}")
    flake = snowflake()
    ms = flake >> 22
    return ((ms + (shard - ms) % shard_count) << 22) | (flake & 0x3FFFFF)


def now_iso(at: float | None = None) -> str:
    """An ISO 8601 timestamp: now, or at the epoch seconds ``at``."""
    return datetime.fromtimestamp(time.time() if at is None else at, UTC).isoformat()


def user(u: FakeUser) -> dict[str, Any]:
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": None if u.bot else u.name.title(),
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "public_flags": 0,
        "flags": 0,
        "verified": True,
        "mfa_enabled": False,
    }


def member(
    u: FakeUser,
    *,
    permissions: int | None = None,
    with_user: bool = True,
    role_id: int | None = None,
    roles: list[int] | None = None,
) -> dict[str, Any]:
    """A guild member object (``role_id``: their own role, if they have one; ``roles``: every role
    they hold, when given, instead)."""
    held = roles if roles is not None else ([] if role_id is None else [role_id])
    data: dict[str, Any] = {
        "roles": [str(r) for r in held],
        "nick": None,
        "avatar": None,
        "joined_at": u.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user(u)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def channel(ch: FakeChannel) -> dict[str, Any]:
    """A channel object: DM (type 1), guild text (0) or forum (15) channel, or public thread (11)."""
    if ch.type == GROUP_DM:
        return {
            "id": str(ch.id),
            "type": GROUP_DM,
            "name": ch.name,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user(u) for u in ch.members],
            "owner_id": str(ch.members[0].id),
        }
    if ch.recipient is not None:
        return {
            "id": str(ch.id),
            "type": 1,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user(ch.recipient)],
        }
    last = ch.messages[-1].id if ch.messages else None
    data: dict[str, Any] = {
        "id": str(ch.id),
        "type": ch.type,
        "guild_id": str(ch.guild_id),
        "name": ch.name,
        "last_message_id": None if last is None else str(last),
        "rate_limit_per_user": 0,
        "flags": 0,
    }
    if ch.is_thread:
        assert ch.parent is not None and ch.owner is not None
        count = len([m for m in ch.messages if not m.deleted])
        return data | {
            "parent_id": str(ch.parent.id),
            "owner_id": str(ch.owner.id),
            "message_count": count,
            "total_message_sent": count,
            "member_count": 1,
            "applied_tags": [],
            "thread_metadata": {
                "archived": ch.archived,
                "auto_archive_duration": ch.auto_archive_minutes,
                "archive_timestamp": ch.archive_timestamp,
                "locked": ch.locked,
                "create_timestamp": ch.create_timestamp,
                **({"invitable": True} if ch.is_private_thread else {}),
            },
        }
    data |= {
        "position": 0,
        "permission_overwrites": [o.to_dict() for o in ch.overwrites.values()],
        "nsfw": False,
        "parent_id": None,
        "topic": None,
    }
    if ch.type == 15:
        data |= {
            "available_tags": [],
            "default_reaction_emoji": None,
            "default_sort_order": None,
            "default_forum_layout": 0,
            "default_thread_rate_limit_per_user": 0,
        }
    return data


def role(role_id: int, name: str, permissions: int, position: int, managed: bool = False) -> dict[str, Any]:
    """A role object (the @everyone role has the guild's id and position 0)."""
    return {
        "id": str(role_id),
        "name": name,
        "permissions": str(permissions),
        "position": position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": managed,
        "mentionable": False,
        "flags": 0,
    }


def member_role(guild: FakeGuild, u: FakeUser) -> dict[str, Any]:
    """``u``'s own role in ``guild`` (they must have one), named after them."""
    role_id = guild.role_ids[u.id]
    return role(role_id, f"{u.name}'s role", guild.roles.get(u.id, 0), guild.own_position(u.id))


def other_role(r: FakeRole) -> dict[str, Any]:
    """A role that is nobody's own (`models.FakeRole`)."""
    return role(r.id, r.name, r.permissions, r.position, r.managed)


def guild_create(
    guild: FakeGuild,
    owner: FakeUser,
    channels: list[FakeChannel],
    members: list[FakeUser],
    threads: list[FakeChannel],
) -> dict[str, Any]:
    """GUILD_CREATE: the guild with its roles (@everyone and each member's own), its channels, its
    active threads and its members (with their roles)."""
    guild_id, name = guild.id, guild.name
    own = {u.id: u for u in members if u.id in guild.role_ids}
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "owner_id": str(owner.id),
        "unavailable": False,
        "large": False,
        "member_count": len(members),
        "joined_at": now_iso(),
        "preferred_locale": "en-US",
        "features": [],
        "verification_level": 0,
        "default_message_notifications": 1,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "system_channel_id": None,
        "afk_channel_id": None,
        "roles": [
            role(guild_id, "@everyone", perms.EVERYONE, 0),
            *(member_role(guild, u) for u in own.values()),
            *(other_role(r) for r in guild.other_roles.values()),
        ],
        "emojis": [],
        "stickers": [],
        "channels": [channel(c) for c in channels],
        "threads": [channel(t) for t in threads],
        "members": [member(m, roles=guild.member_role_ids(m.id)) for m in members],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment(a: FakeAttachment) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(a.id),
        "filename": a.filename,
        "size": len(a.data),
        "url": a.url,
        "proxy_url": a.url,
        "content_type": a.content_type,
        "flags": 0,
    }
    if a.description is not None:
        data["description"] = a.description
    if a.width is not None:
        data["width"], data["height"] = a.width, a.height
    return data


def message(m: FakeMessage, *, nonce: bool = False) -> dict[str, Any]:
    """A message object; ``nonce``: with the author's nonce (Discord echoes it in the create response
    and the MESSAGE_CREATE event, not when the message is fetched later)."""
    data: dict[str, Any] = {
        "id": str(m.id),
        "channel_id": str(m.channel.id),
        "type": m.type,
        "author": user(m.author),
        "content": m.content,
        "embeds": m.embeds,
        "components": m.components,
        "attachments": [attachment(a) for a in m.attachments],
        "flags": m.flags,
        "timestamp": m.timestamp,
        "edited_timestamp": m.edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [str(r) for r in m.mentioned_roles],
        "pinned": False,
    }
    if m.channel.guild_id is not None:
        data["guild_id"] = str(m.channel.guild_id)
    if nonce and m.nonce is not None:
        data["nonce"] = m.nonce
    if m.interaction is not None:
        rec = m.interaction
        data["webhook_id"] = str(rec.application_id)
        data["application_id"] = str(rec.application_id)
        data["interaction_metadata"] = {
            "id": str(rec.id),
            "type": rec.type,
            "user": user(rec.user),
            "authorizing_integration_owners": {"0": str(m.channel.guild_id or 0)},
        }
    return data


def interaction(
    *,
    id: int,
    token: str,
    type: int,
    application_id: int,
    data: dict[str, Any],
    user_: FakeUser,
    channel_: FakeChannel,
    bot_id: int,
    message_: FakeMessage | None = None,
    guild_locale: str = "en-US",
    role: int = 0,
    role_id: int | None = None,
    bot_role: int = 0,
    bot_role_id: int | None = None,
    context: int = 0,
    installed: bool = False,
) -> dict[str, Any]:
    """An INTERACTION_CREATE payload with everything discord.py 2.7 reads; ``app_permissions`` and the
    member's ``permissions`` are the bot's and the user's in the channel (``role``: the permissions of
    the user's own role there, ``role_id`` its id, in the member's ``roles``; ``bot_role`` and
    ``bot_role_id`` the bot's own role's); ``locale`` is the user's
    client language, ``guild_locale`` the server's. ``context`` is where it happens (0 a server, 1 the
    bot's DM, 2 another private channel) and ``authorizing_integration_owners`` who installed the app
    for it, as Discord documents: "0" (a server install) the server's id, or "0" in the bot's DM; "1"
    (a user install) the user's id, when they installed the app to their account."""
    guild_id = channel_.guild_id
    owners = {} if context == 2 else {"0": str(guild_id or 0)}
    owners |= {"1": str(user_.id)} if installed else {}
    out: dict[str, Any] = {
        "id": str(id),
        "application_id": str(application_id),
        "type": type,
        "data": data,
        "token": token,
        "version": 1,
        "locale": user_.locale,
        "app_permissions": str(perms.in_channel(channel_, bot_id, bot_role, bot_role_id)),
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": owners,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "channel": channel(channel_),
        "channel_id": str(channel_.id),
    }
    if guild_id is not None:
        out["guild_id"] = str(guild_id)
        out["guild"] = {"id": str(guild_id), "locale": guild_locale, "features": []}
        out["guild_locale"] = guild_locale
        out["member"] = member(
            user_, permissions=perms.in_channel(channel_, user_.id, role, role_id), role_id=role_id
        )
        out["context"] = 0
    else:
        out["user"] = user(user_)
        out["context"] = context
    if message_ is not None:
        out["message"] = message(message_)
    return out
