"""The things the fake Discord remembers: users, channels and threads, messages, attachments, commands,
interactions. Plain dataclasses; `state.Store` holds them and changes them."""

from __future__ import annotations

import copy
import mimetypes
import re
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from . import components as comps
from . import payloads
from .payloads import EPHEMERAL, LOADING

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


class FakeDiscordError(AssertionError):
    """A test drove the fake in a way a real Discord client could not (unknown command, hidden button...)."""


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False
    joined_at: str = field(default_factory=payloads.now_iso)
    locale: str = "en-US"
    """The user's client language, sent as each interaction's ``locale``."""

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __str__(self) -> str:
        return self.name


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes
    url: str
    description: str | None = None

    @property
    def content_type(self) -> str:
        return mimetypes.guess_type(self.filename)[0] or "application/octet-stream"

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def width(self) -> int | None:
        return self._png_size()[0]

    @property
    def height(self) -> int | None:
        return self._png_size()[1]

    def _png_size(self) -> tuple[int | None, int | None]:
        if self.data[:8] == b"\x89PNG\r\n\x1a\n" and self.data[12:16] == b"IHDR":
            w, h = struct.unpack(">II", self.data[16:24])
            return w, h
        return None, None


TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD, FORUM = 0, 1, 11, 12, 15  # channel types
GROUP_DM = payloads.GROUP_DM


@dataclass(eq=False)
class Overwrite:
    """A channel's permission overwrite for a role (type 0; the @everyone role has the guild's id) or a
    member (type 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass(eq=False)
class FakeRole:
    """A role of a guild that is nobody's own (`world.FakeWorld.add_role`): members get it through the
    REST API (``PUT /guilds/{g}/members/{u}/roles/{r}``) or `world.FakeWorld.put_role`. Its ``position``
    orders it among the guild's roles (@everyone is 0; members' own roles start at `OWN_ROLES_AT`);
    a ``managed`` role belongs to an integration and nobody may give or take it."""

    id: int
    name: str
    position: int
    permissions: int = 0
    managed: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def __repr__(self) -> str:
        return f"<FakeRole {self.id} {self.name!r} at {self.position}>"


OWN_ROLES_AT = 100
"""The position of the first member's own role (`world.FakeWorld.grant`), the next ones above it: the
roles a test adds (`FakeRole`) go below them unless placed higher."""


@dataclass(frozen=True)
class AuditEntry:
    """A change of a member's roles, with the reason the bot gave (``X-Audit-Log-Reason``)."""

    action: str
    """``add`` or ``remove``."""
    user: int
    role: int
    reason: str | None


@dataclass(eq=False)
class FakeGuild:
    """A server the bot is in: every member of the fake is a member of each (see `world.add_guild`)."""

    id: int
    name: str
    channel: FakeChannel
    """Its text channel, where games are played."""
    roles: dict[int, int] = field(default_factory=dict)
    """The permission bits of each member's own role, by user id (`world.FakeWorld.grant`)."""
    role_ids: dict[int, int] = field(default_factory=dict)
    """The Discord id of each member's own role, by user id (made with the role)."""
    other_roles: dict[int, FakeRole] = field(default_factory=dict)
    """The roles that are nobody's own, by id (`world.FakeWorld.add_role`)."""
    held: dict[int, set[int]] = field(default_factory=dict)
    """The ids of the `other_roles` each member holds, by user id."""
    audit_log: list[AuditEntry] = field(default_factory=list)
    """The changes of members' roles made through the REST API, oldest first."""

    def own_position(self, user_id: int) -> int:
        """The position of the member's own role (they must have one)."""
        return OWN_ROLES_AT + list(self.role_ids).index(user_id)

    def top_position(self, user_id: int) -> int:
        """The position of the member's highest role (0: only @everyone)."""
        held = [self.other_roles[r].position for r in self.held.get(user_id, ())]
        own = [self.own_position(user_id)] if user_id in self.role_ids else []
        return max([0, *held, *own])

    def member_role_ids(self, user_id: int) -> list[int]:
        """The ids of every role the member holds (their own first), @everyone aside."""
        own = [self.role_ids[user_id]] if user_id in self.role_ids else []
        return own + sorted(self.held.get(user_id, ()))

    def __repr__(self) -> str:
        return f"<FakeGuild {self.id} {self.name!r}>"


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a DM channel, a group DM, a forum channel or a public thread (see ``type``)."""

    id: int
    name: str
    guild_id: int | None = None
    recipient: FakeUser | None = None  # set for DM channels
    members: list[FakeUser] = field(default_factory=list)  # a group DM's users (the bot is not one);
    # a private thread's members (its owner, the bot, those added)
    messages: list[FakeMessage] = field(default_factory=list)
    type: int = TEXT
    overwrites: dict[int, Overwrite] = field(default_factory=dict)  # by role or member id
    deleted: bool = False
    # threads only: their text or forum channel, who started them, thread_metadata
    parent: FakeChannel | None = None
    owner: FakeUser | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_minutes: int = 1440
    archive_timestamp: str = field(default_factory=payloads.now_iso)  # last (un)archived, or created
    create_timestamp: str = field(default_factory=payloads.now_iso)
    last_activity: float = 0.0  # the fake's clock at the last message (inactive threads auto-archive)

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_private_thread(self) -> bool:
        return self.type == PRIVATE_THREAD

    @property
    def permission_source(self) -> FakeChannel:
        """The channel whose overwrites apply: a thread has none of its own, its parent's apply."""
        return self.parent if self.is_thread and self.parent is not None else self

    def __repr__(self) -> str:
        return f"<FakeChannel {self.id} type={self.type} {self.name!r}{' deleted' if self.deleted else ''}>"


@dataclass(eq=False)
class FakeMessage:
    id: int
    seq: int  # creation order over the whole fake
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    interaction: InteractionRecord | None = None  # the interaction this message answers
    recipient: FakeUser | None = None  # who sees an ephemeral message
    timestamp: str = field(default_factory=payloads.now_iso)
    edited_timestamp: str | None = None
    deleted: bool = False
    versions: list[dict[str, Any]] = field(default_factory=list)  # every state it was ever in, oldest first
    allowed_mentions: dict[str, Any] | None = None  # as the bot last sent it; None: Discord's default
    nonce: int | str | None = None  # as the author sent it (Discord echoes it only on creation)
    created_at: float = 0.0  # the fake's clock (`Store.now`), for the nonce window

    @property
    def mentioned(self) -> list[int]:
        """Ids of the users the content mentions (``<@id>``), in order, each once: in a Components V2
        message, its text displays (mentions there notify as in content; those in embeds never do)."""
        text = "\n".join([self.content, *comps.texts(self.components)])
        return list(dict.fromkeys(int(u) for u in _USER_MENTION.findall(text)))

    @property
    def mentioned_roles(self) -> list[int]:
        """Ids of the roles the content mentions (``<@&id>``), in order, each once (text displays too)."""
        text = "\n".join([self.content, *comps.texts(self.components)])
        return list(dict.fromkeys(int(r) for r in _ROLE_MENTION.findall(text)))

    @property
    def pinged_roles(self) -> set[int]:
        """Ids of the mentioned roles Discord notifies, given ``allowed_mentions`` (None: Discord's
        default, every mentioned role; ``parse`` with ``roles``, or the ``roles`` listed)."""
        rules = self.allowed_mentions
        if rules is None or "roles" in rules.get("parse", []):
            return set(self.mentioned_roles)
        allowed = {int(r) for r in rules.get("roles", [])}
        return {r for r in self.mentioned_roles if r in allowed}

    @property
    def pinged(self) -> set[int]:
        """Ids of the mentioned users Discord notifies, given ``allowed_mentions`` (roles and @everyone
        are not modelled)."""
        rules = self.allowed_mentions
        if rules is None or "users" in rules.get("parse", []):
            return set(self.mentioned)
        allowed = {int(u) for u in rules.get("users", [])}
        return {u for u in self.mentioned if u in allowed}

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still showing "Bot is thinking..."."""
        return bool(self.flags & LOADING)

    @property
    def components_v2(self) -> bool:
        """Sent with IS_COMPONENTS_V2: all its text and media are in components (see `components`)."""
        return bool(self.flags & comps.COMPONENTS_V2)

    @property
    def text(self) -> str:
        """Content, every embed text, then the text displays (also in containers and sections), in order:
        for searching what a user reads."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", ""), (e.get("footer") or {}).get("text", "")]
            parts += [(e.get("author") or {}).get("name", "")]
            for f in e.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
        parts += comps.texts(self.components)
        return "\n".join(p for p in parts if p)

    def all_components(self) -> list[dict[str, Any]]:
        """Every component at any depth (in containers, sections and their accessories), in document
        order, without the action rows."""
        return [c for _, c in comps.walk(self.components) if c.get("type") != comps.ROW]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.all_components() if c.get("custom_id") == custom_id), None)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

    def gallery(self) -> list[tuple[FakeAttachment, str | None]]:
        """Every media gallery item (at any depth, in order): the attachment it shows and its description
        (alt text). A FakeDiscordError if an item shows no attachment of this message (an external url,
        or an attachment an edit removed)."""
        out: list[tuple[FakeAttachment, str | None]] = []
        for _, comp in comps.walk(self.components):
            for item in comp.get("items", []) if comp.get("type") == comps.GALLERY else []:
                media = item.get("media") or {}
                att = next((a for a in self.attachments if str(a.id) == media.get("attachment_id")), None)
                if att is None:
                    raise FakeDiscordError(f"gallery item {media.get('url')!r} shows no attachment of {self}")
                out.append((att, item.get("description")))
        return out

    def attachment(self, filename: str | None = None) -> FakeAttachment:
        for a in self.attachments:
            if filename is None or a.filename == filename:
                return a
        raise FakeDiscordError(f"message {self.id} has no attachment {filename!r}: {self.attachments}")

    def snapshot(self) -> None:
        self.versions.append(
            {
                "content": self.content,
                "embeds": copy.deepcopy(self.embeds),
                "components": copy.deepcopy(self.components),
                "attachments": [a.filename for a in self.attachments],
                "descriptions": [a.description for a in self.attachments],
                "flags": self.flags,
            }
        )

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return f"<FakeMessage {self.id}{flags} in {self.channel.name!r} {self.text[:80]!r}>"


@dataclass(eq=False)
class InteractionRecord:
    """One interaction the fake dispatched, and everything the bot answered to it."""

    id: int
    token: str
    type: int  # 2 command, 3 component, 4 autocomplete
    user: FakeUser
    channel: FakeChannel
    application_id: int
    data: dict[str, Any]
    message: FakeMessage | None = None  # the message a component belongs to
    response_type: int | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    failed: bool = False
    errors: list[dict[str, Any]] = field(default_factory=list)  # error bodies the fake answered
    _wait: Callable[[Callable[[], Any], float], Awaitable[Any]] | None = field(default=None, repr=False)

    @property
    def deferred(self) -> bool:
        return self.response_type in (5, 6)

    @property
    def ephemeral(self) -> bool:
        return self.original is not None and self.original.ephemeral and self.response_type in (4, 5)

    @property
    def updated(self) -> FakeMessage | None:
        """The message a component interaction's response updated (type 7 UPDATE_MESSAGE, or 6
        DEFERRED_UPDATE_MESSAGE then an edit of @original), ephemeral or not; None for other responses."""
        return self.message if self.response_type in (6, 7) else None

    @property
    def messages(self) -> list[FakeMessage]:
        """The original response (if the interaction created one) and then the followups."""
        own = [self.original] if self.original is not None and self.response_type in (4, 5) else []
        return own + [m for m in self.followups if m is not self.original]

    def __repr__(self) -> str:
        what = self.data.get("custom_id") or "/" + " ".join(_command_path(self.data))
        state = "FAILED" if self.failed else f"response={self.response_type}"
        return f"<Interaction {self.id} {what} by {self.user.name}: {state} errors={self.error_codes}>"

    @property
    def error_codes(self) -> list[int]:
        return [e.get("code", 0) for e in self.errors]

    async def _until(self, predicate: Callable[[], Any], timeout: float) -> Any:
        assert self._wait is not None
        return await self._wait(predicate, timeout)

    async def wait_message(self, timeout: float = 5.0) -> FakeMessage:
        """The response message once no longer "thinking" (after a defer: once edited or followed up)."""

        def ready() -> FakeMessage | None:
            if self.original is not None and not self.original.loading:
                return self.original
            return None

        result: FakeMessage = await self._until(ready, timeout)
        return result

    async def wait_followups(self, count: int = 1, timeout: float = 5.0) -> list[FakeMessage]:
        result: list[FakeMessage] = await self._until(
            lambda: self.followups if len(self.followups) >= count else None, timeout
        )
        return result


def _command_path(data: dict[str, Any]) -> list[str]:
    path, options = [str(data.get("name", "?"))], data.get("options", [])
    while options and options[0].get("type") in (1, 2):
        path.append(options[0]["name"])
        options = options[0].get("options", [])
    return path


@dataclass(eq=False)
class Command:
    """An application command as the bot synced it (with the id the fake gave it)."""

    id: int
    guild_id: int | None
    data: dict[str, Any]

    @property
    def name(self) -> str:
        return str(self.data["name"])

    def to_dict(self, application_id: int) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **self.data,
            "id": str(self.id),
            "application_id": str(application_id),
            "version": str(self.id),
        }
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        return out
