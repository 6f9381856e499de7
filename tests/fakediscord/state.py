"""What the fake Discord remembers (`Store`): the guild, its members, channels and threads, messages,
attachments, commands and interactions, and the fake's clock. Changes here send no gateway event:
the server and the world (`world.FakeWorld`) do that."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

from . import components, payloads
from .components import COMPONENTS_V2
from .models import (
    FORUM,
    GROUP_DM,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT,
    Command,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
    InteractionRecord,
)
from .payloads import LOADING, SUPPRESS_EMBEDS, snowflake
from .wire import plan_attachments

POLL_SECONDS = 0.05


class Store:
    """All state of the fake; every change calls ``changed()`` so waiters re-check their conditions."""

    def __init__(self, base_url: Callable[[], str]) -> None:
        self._base_url = base_url
        self.application_id = snowflake()
        self.bot = FakeUser(self.application_id, "citta-bot", bot=True)
        self.guild_id = snowflake()
        self.guild_name = "La Città test guild"
        self.guild_locale = "en-US"
        """The server's language (``preferred_locale``), sent as each interaction's ``guild_locale``."""
        self.members: list[FakeUser] = []
        self.owner = FakeUser(snowflake(), "owner")
        """The owner of every guild: a member Discord gives every permission everywhere (discord.py's
        ``permissions_for`` too), so none of the test users in ``members`` is it; it never acts."""
        self.channels: dict[int, FakeChannel] = {}
        self.text_channel = self.add_channel("la-citta")
        self.guilds: dict[int, FakeGuild] = {}
        """Every guild the bot is in, by id: the first one (``guild_id``) and those `add_guild` adds."""
        self.guilds[self.guild_id] = FakeGuild(self.guild_id, self.guild_name, self.text_channel)
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.commands: dict[tuple[int | None, str], Command] = {}
        self.installed_by: set[int] = set()
        """Users who installed the app to their account (Discord's user install, `install_for`)."""
        self.interactions: dict[int, InteractionRecord] = {}
        self.webhook_tokens: dict[str, InteractionRecord] = {}
        self.nonces: dict[tuple[int, str], FakeMessage] = {}  # (author id, nonce) → message
        self.seq = 0
        self.clock_offset = 0.0  # seconds the fake's clock is ahead of the real one (`advance`)
        self._changed = asyncio.Event()

    # --- the fake's clock ------------------------------------------------------------------------------

    def now(self) -> float:
        """The fake's time (epoch seconds): the real time, plus what tests advanced it by."""
        return time.time() + self.clock_offset

    def iso(self) -> str:
        return payloads.now_iso(self.now())

    # --- change notification -----------------------------------------------------------------------

    def changed(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float) -> Any:
        """``predicate()`` once truthy: re-checked on every change, and every 50 ms for conditions on the
        bot's side (discord.py's cache)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            event = self._changed
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout}s; last messages: {self.recent()}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, POLL_SECONDS))

    def recent(self, n: int = 5) -> list[FakeMessage]:
        return sorted(self.messages.values(), key=lambda m: m.seq)[-n:]

    # --- users and channels ------------------------------------------------------------------------

    def add_guild(self, guild_id: int, name: str, channel: FakeChannel | None = None) -> FakeGuild:
        """A guild with its text channel (``channel``, or a new one named ``la-citta``)."""
        guild = FakeGuild(guild_id, name, channel or self.add_channel("la-citta", guild_id=guild_id))
        self.guilds[guild_id] = guild
        self.changed()
        return guild

    def role(self, channel: FakeChannel, user: FakeUser) -> int:
        """The permission bits of ``user``'s own role in ``channel``'s guild (0: none; in a DM: 0)."""
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        return 0 if guild is None else guild.roles.get(user.id, 0)

    def role_id(self, channel: FakeChannel, user: FakeUser) -> int | None:
        """The id of ``user``'s own role in ``channel``'s guild (None: they have none; in a DM: None)."""
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        return None if guild is None else guild.role_ids.get(user.id)

    def give_role(self, guild: FakeGuild, user: FakeUser, permissions: int) -> bool:
        """Give ``user`` their own role in ``guild`` (made on first use) with ``permissions`` added to
        what it had; whether the role is new."""
        new = user.id not in guild.role_ids
        if new:
            guild.role_ids[user.id] = snowflake()
        guild.roles[user.id] = guild.roles.get(user.id, 0) | permissions
        self.changed()
        return new

    def add_channel(
        self, name: str, recipient: FakeUser | None = None, *, type: int = TEXT, guild_id: int | None = None
    ) -> FakeChannel:
        """A channel of guild ``guild_id`` (default: the first guild), or a DM channel with ``recipient``."""
        guild = None if recipient else (guild_id or self.guild_id)
        ch = FakeChannel(snowflake(), name, guild, recipient, type=type)
        self.channels[ch.id] = ch
        return ch

    def add_thread(
        self, name: str, parent: FakeChannel, owner: FakeUser, auto_archive_minutes: int,
        private: bool = False, id: int | None = None,
    ) -> FakeChannel:  # fmt: skip
        """A public thread in ``parent`` (in a forum channel: a post, with its starter message), or with
        ``private`` a private thread of a text channel, whose members are its owner and the bot; ``id``:
        a thread started from a message has that message's id."""
        if parent.type not in (TEXT, FORUM) or parent.guild_id is None or parent.deleted:
            raise ValueError(f"threads live in guild text or forum channels, not in {parent}")
        if private and parent.type != TEXT:
            raise ValueError(f"private threads live in text channels, not in {parent}")
        now = self.iso()
        kind = PRIVATE_THREAD if private else PUBLIC_THREAD
        thread = FakeChannel(id or snowflake(), name, parent.guild_id, type=kind, parent=parent, owner=owner)
        if private:
            thread.members = [owner, self.bot]
        thread.auto_archive_minutes = auto_archive_minutes
        thread.archive_timestamp = thread.create_timestamp = now
        thread.last_activity = self.now()
        self.channels[thread.id] = thread
        if parent.type == FORUM:  # a forum post's starter message has the thread's id
            self.create_message(thread, {"content": name}, [], author=owner, id=thread.id)
        self.changed()
        return thread

    def guild_channels(self, guild_id: int | None = None) -> list[FakeChannel]:
        """The channels (not threads) of guild ``guild_id`` (default: of every guild)."""
        return [
            c for c in self.channels.values()
            if c.guild_id is not None and not c.is_thread and guild_id in (None, c.guild_id)
        ]  # fmt: skip

    def active_threads(self, guild_id: int | None = None) -> list[FakeChannel]:
        """The threads of guild ``guild_id`` (default: of every guild) that are not archived."""
        return [
            c for c in self.channels.values()
            if c.is_thread and not c.archived and guild_id in (None, c.guild_id)
        ]  # fmt: skip

    def remove_channel(self, ch: FakeChannel) -> list[FakeChannel]:
        """Delete a channel (and the threads in it, as Discord does); return what was removed."""
        gone = [ch, *(t for t in self.channels.values() if t.parent is ch)]
        for c in gone:
            c.deleted = True
            self.channels.pop(c.id, None)
        self.changed()
        return gone

    def group_dm(self, name: str, users: list[FakeUser]) -> FakeChannel:
        """A group DM of ``users``, which the bot is not in (an app reaches it only through the
        commands a user installed to their account)."""
        ch = FakeChannel(snowflake(), name, None, type=GROUP_DM, members=list(users))
        self.channels[ch.id] = ch
        return ch

    def dm_channel(self, u: FakeUser) -> FakeChannel:
        for ch in self.channels.values():
            if ch.recipient is u:
                return ch
        return self.add_channel(f"dm-{u.name}", recipient=u)

    def user(self, user_id: int) -> FakeUser | None:
        if user_id == self.bot.id:
            return self.bot
        if user_id == self.owner.id:
            return self.owner
        return next((u for u in self.members if u.id == user_id), None)

    # --- messages ----------------------------------------------------------------------------------

    def add_attachment(
        self, channel: FakeChannel, filename: str, data: bytes, description: str | None
    ) -> FakeAttachment:
        att_id = snowflake()
        url = f"{self._base_url()}/attachments/{channel.id}/{att_id}/{filename}"
        att = FakeAttachment(att_id, filename, data, url, description)
        self.attachments[att_id] = att
        return att

    def build_attachments(
        self,
        channel: FakeChannel,
        payload: dict[str, Any],
        files: list[tuple[str, bytes]],
        existing: list[FakeAttachment],
    ) -> list[FakeAttachment]:
        """The attachments after a create or edit (`wire.plan_attachments`): kept ones (with the
        description the payload gives them) and the uploaded ``files[n]`` it names."""
        plan = plan_attachments(payload, files, existing)
        if plan is None:
            return existing
        out: list[FakeAttachment] = []
        for source, filename, description in plan:
            if isinstance(source, int):
                out.append(self.add_attachment(channel, filename, files[source][1], description))
            elif source is not None:
                source.description = description
                out.append(source)
        return out

    def create_message(
        self,
        channel: FakeChannel,
        payload: dict[str, Any],
        files: list[tuple[str, bytes]],
        *,
        interaction: InteractionRecord | None = None,
        flags: int | None = None,
        type: int = 0,
        author: FakeUser | None = None,
        id: int | None = None,
    ) -> FakeMessage:
        """A new message by ``author`` (default: the bot); remembers its ``nonce`` for `find_nonce`."""
        self.seq += 1
        author = author or self.bot
        msg_id = snowflake() if id is None else id
        msg = FakeMessage(msg_id, self.seq, channel, author, type=type, interaction=interaction)
        msg.flags = (payload.get("flags") or 0) if flags is None else flags
        msg.created_at = channel.last_activity = self.now()
        msg.nonce = payload.get("nonce")
        if msg.nonce is not None:
            self.nonces[(author.id, str(msg.nonce))] = msg
        if msg.ephemeral and interaction is not None:
            msg.recipient = interaction.user
        self.apply_edit(msg, payload, files, snapshot=False)
        channel.messages.append(msg)
        self.messages[msg.id] = msg
        msg.snapshot()
        self.changed()
        return msg

    def apply_edit(
        self,
        msg: FakeMessage,
        payload: dict[str, Any],
        files: list[tuple[str, bytes]],
        *,
        snapshot: bool = True,
    ) -> None:
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = payload["embeds"] or []
        if payload.get("flags") is not None:  # an edit sets IS_COMPONENTS_V2 but never clears it
            new = int(payload["flags"])
            msg.flags = (msg.flags & ~SUPPRESS_EMBEDS) | (new & (COMPONENTS_V2 | SUPPRESS_EMBEDS))
        if "allowed_mentions" in payload:
            msg.allowed_mentions = payload["allowed_mentions"]
        if files or "attachments" in payload:
            msg.attachments = self.build_attachments(msg.channel, payload, files, msg.attachments)
        if "components" in payload:
            msg.components = components.stored(payload["components"] or [], msg.attachments)
        if snapshot:
            msg.flags &= ~LOADING
            msg.edited_timestamp = payloads.now_iso()
            msg.snapshot()
            self.changed()

    def find_nonce(self, author: FakeUser, nonce: int | str, window: float) -> FakeMessage | None:
        """The message ``author`` created with ``nonce`` less than ``window`` seconds ago, if any."""
        msg = self.nonces.get((author.id, str(nonce)))
        if msg is None or self.now() - msg.created_at >= window:
            return None
        return msg
