"""What the fake Discord remembers: users, channels, messages, attachments, commands, interactions."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import mimetypes
import re
import struct
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from . import payloads
from .payloads import EPHEMERAL, LOADING, snowflake

_USER_MENTION = re.compile(r"<@!?(\d+)>")


class FakeDiscordError(AssertionError):
    """A test drove the fake in a way a real Discord client could not (unknown command, hidden button...)."""


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dms_closed: bool = False
    joined_at: str = field(default_factory=payloads.now_iso)

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


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    guild_id: int | None = None
    recipient: FakeUser | None = None  # set for DM channels
    messages: list[FakeMessage] = field(default_factory=list)


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

    @property
    def mentioned(self) -> list[int]:
        """Ids of the users the content mentions (``<@id>``), in order, each once."""
        return list(dict.fromkeys(int(u) for u in _USER_MENTION.findall(self.content)))

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
    def text(self) -> str:
        """Content plus every embed text, for searching what a user reads."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", ""), (e.get("footer") or {}).get("text", "")]
            parts += [(e.get("author") or {}).get("name", "")]
            for f in e.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
        return "\n".join(p for p in parts if p)

    def all_components(self) -> list[dict[str, Any]]:
        """Every component, flattened out of its action rows."""
        out: list[dict[str, Any]] = []
        stack = list(reversed(self.components))
        while stack:
            comp = stack.pop()
            out.append(comp)
            stack.extend(reversed(comp.get("components", [])))
        return [c for c in out if c.get("type") != 1]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.all_components() if c.get("custom_id") == custom_id), None)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.all_components() if "custom_id" in c]

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


class Store:
    """All state of the fake; every change calls ``changed()`` so waiters re-check their conditions."""

    def __init__(self, base_url: Callable[[], str]) -> None:
        self._base_url = base_url
        self.application_id = snowflake()
        self.bot = FakeUser(self.application_id, "citta-bot", bot=True)
        self.guild_id = snowflake()
        self.guild_name = "La Città test guild"
        self.members: list[FakeUser] = []
        self.channels: dict[int, FakeChannel] = {}
        self.text_channel = self.add_channel("la-citta")
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.commands: dict[tuple[int | None, str], Command] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.webhook_tokens: dict[str, InteractionRecord] = {}
        self.seq = 0
        self._changed = asyncio.Event()

    # --- change notification -----------------------------------------------------------------------

    def changed(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float) -> Any:
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
                await asyncio.wait_for(event.wait(), remaining)

    def recent(self, n: int = 5) -> list[FakeMessage]:
        return sorted(self.messages.values(), key=lambda m: m.seq)[-n:]

    # --- users and channels ------------------------------------------------------------------------

    def add_channel(self, name: str, recipient: FakeUser | None = None) -> FakeChannel:
        ch = FakeChannel(snowflake(), name, None if recipient else self.guild_id, recipient)
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
        """Resolve a payload's ``attachments`` list against the uploaded ``files[n]`` and kept attachments."""
        specs = payload.get("attachments")
        if specs is None:
            return existing + [self.add_attachment(channel, name, data, None) for name, data in files]
        out: list[FakeAttachment] = []
        for spec in specs:
            ref = int(spec["id"])
            kept = next((a for a in existing if a.id == ref), None)
            if kept is not None:
                out.append(kept)
            elif 0 <= ref < len(files):
                name, data = files[ref]
                out.append(
                    self.add_attachment(channel, spec.get("filename", name), data, spec.get("description"))
                )
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
    ) -> FakeMessage:
        self.seq += 1
        msg = FakeMessage(snowflake(), self.seq, channel, self.bot, type=type, interaction=interaction)
        msg.flags = (payload.get("flags") or 0) if flags is None else flags
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
        if "components" in payload:
            msg.components = payload["components"] or []
        if "allowed_mentions" in payload:
            msg.allowed_mentions = payload["allowed_mentions"]
        if files or "attachments" in payload:
            msg.attachments = self.build_attachments(msg.channel, payload, files, msg.attachments)
        if snapshot:
            msg.flags &= ~LOADING
            msg.edited_timestamp = payloads.now_iso()
            msg.snapshot()
            self.changed()
