"""Channel REST routes (channels, threads, messages, history), answered as Discord answers a bot.

Checks, in order: a channel that does not exist or was deleted → 404 10003 "Unknown Channel"; without
VIEW_CHANNEL → 403 50001 "Missing Access". Creating a message: without SEND_MESSAGES (in a thread:
SEND_MESSAGES_IN_THREADS) → 403 50013 "Missing Permissions"; files without ATTACH_FILES → 403 50013;
embeds without EMBED_LINKS are dropped, 403 50013 when nothing is left (discord-api-docs#2601); in a
forum channel itself → 400 50008. With ``nonce`` and ``enforce_nonce`` (discord.py's ``send`` always
sends both, with a random nonce unless given one), the bot's message with that nonce from the last
``FakeServer.nonce_window`` seconds is answered again (200, nothing created; 404 10008 if it was
deleted). In an archived thread a message unarchives it (THREAD_UPDATE), unless it is locked and the bot
lacks MANAGE_THREADS: then 403 50083 "Thread is archived". Editing or deleting a message in an archived
thread → 403 50083. PATCH of a thread: ``{"archived": false}`` unarchives (403 50083 if locked, without
MANAGE_THREADS); locking needs MANAGE_THREADS, archiving too unless the bot started the thread.

History (GET /channels/{id}/messages, ``limit`` 1-100 (50), ``before``/``after``/``around``) is newest
first, without ephemeral or deleted messages and without nonces; without READ_MESSAGE_HISTORY it is empty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import payloads, perms
from .models import FORUM, FakeChannel, FakeMessage
from .payloads import EPHEMERAL
from .wire import DiscordError, check, json_response, read_body

if TYPE_CHECKING:
    from .server import FakeServer, Handler

THREAD_ARCHIVED_STATUS = 403  # what Discord answers with code 50083 "Thread is archived"


def missing_permissions() -> DiscordError:
    return DiscordError(403, 50013, "Missing Permissions")


def thread_archived() -> DiscordError:
    return DiscordError(THREAD_ARCHIVED_STATUS, 50083, "Thread is archived")


class ChannelApi:
    def __init__(self, server: FakeServer) -> None:
        self.server = server
        self.store = server.store

    def routes(self) -> list[tuple[str, str, Handler]]:
        one = "/channels/{channel}/messages/{message}"
        return [
            ("GET", "/channels/{channel}", self.get_channel),
            ("PATCH", "/channels/{channel}", self.patch_channel),
            ("POST", "/channels/{channel}/typing", self.typing),
            ("GET", "/channels/{channel}/messages", self.history),
            ("POST", "/channels/{channel}/messages", self.create_message),
            ("GET", one, self.channel_message),
            ("PATCH", one, self.channel_message),
            ("DELETE", one, self.channel_message),
            ("POST", one + "/threads", self.thread_from_message),
        ]

    def _channel(self, request: web.Request) -> tuple[FakeChannel, int]:
        """The channel of the route and the bot's permissions in it."""
        ch = self.store.channels.get(int(request.match_info["channel"]))
        if ch is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        have = perms.in_channel(ch, self.store.bot.id)
        if not have & perms.VIEW_CHANNEL:
            raise DiscordError(403, 50001, "Missing Access")
        return ch, have

    async def set_archived(self, thread: FakeChannel, archived: bool, locked: bool | None = None) -> None:
        """Archive or unarchive ``thread`` (and lock or unlock it), then send THREAD_UPDATE."""
        if thread.archived != archived:
            thread.archive_timestamp = self.store.iso()
            thread.last_activity = self.store.now()
        thread.archived = archived
        if locked is not None:
            thread.locked = locked
        self.store.changed()
        await self.server.gateway.channel_event("THREAD_UPDATE", thread)

    async def get_channel(self, request: web.Request) -> web.StreamResponse:
        return json_response(payloads.channel(self._channel(request)[0]))

    async def patch_channel(self, request: web.Request) -> web.StreamResponse:
        """Only threads can be changed (``archived``, ``locked``, ``name``, ``auto_archive_duration``)."""
        ch, have = self._channel(request)
        body, _ = await read_body(request)
        if not ch.is_thread:
            if not have & perms.MANAGE_CHANNELS:
                raise missing_permissions()
            ch.name = body.get("name", ch.name)
            await self.server.gateway.channel_event("CHANNEL_UPDATE", ch)
            return json_response(payloads.channel(ch))
        manage = bool(have & perms.MANAGE_THREADS)
        archived, locked = body.get("archived", ch.archived), body.get("locked", ch.locked)
        if ch.archived and archived:  # docs: "requires the thread to have archived set to false or be
            raise thread_archived()  # set to false in the request"
        if not archived and ch.archived and ch.locked and not manage:
            raise thread_archived()
        if not archived and ch.archived and not have & perms.SEND_MESSAGES:
            raise missing_permissions()  # docs: unarchiving an unlocked thread needs SEND_MESSAGES
        owner = ch.owner is self.store.bot
        if bool(locked) != ch.locked and not manage:
            raise missing_permissions()
        if archived and not manage and not owner:
            raise missing_permissions()
        ch.name = body.get("name", ch.name)
        ch.auto_archive_minutes = body.get("auto_archive_duration", ch.auto_archive_minutes)
        await self.set_archived(ch, archived, locked)
        return json_response(payloads.channel(ch))

    async def typing(self, request: web.Request) -> web.StreamResponse:
        ch, have = self._channel(request)
        if not have & (perms.SEND_IN_THREADS if ch.is_thread else perms.SEND_MESSAGES):
            raise missing_permissions()
        return web.Response(status=204)

    async def history(self, request: web.Request) -> web.StreamResponse:
        ch, have = self._channel(request)
        q = request.query
        limit = int(q.get("limit", 50))
        if not 1 <= limit <= 100:
            raise DiscordError(400, 50035, "Invalid Form Body", {"limit": {"_errors": []}})
        if not have & perms.READ_HISTORY:
            return json_response([])
        shown = sorted((m for m in ch.messages if not m.deleted and not m.ephemeral), key=lambda m: m.id)
        if "before" in q:
            shown = [m for m in shown if m.id < int(q["before"])][-limit:]
        elif "after" in q:
            shown = [m for m in shown if m.id > int(q["after"])][:limit]
        elif "around" in q:
            middle = next((i for i, m in enumerate(shown) if m.id >= int(q["around"])), len(shown))
            start = max(0, middle - limit // 2)
            shown = shown[start : start + limit]
        else:
            shown = shown[-limit:]
        return json_response([payloads.message(m) for m in reversed(shown)])

    async def create_message(self, request: web.Request) -> web.StreamResponse:
        ch, have = self._channel(request)
        body, files = await read_body(request)
        if ch.recipient is not None and ch.recipient.dms_closed:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        if ch.type == FORUM:
            raise DiscordError(400, 50008, "Cannot send messages in a non-text channel")
        if not have & (perms.SEND_IN_THREADS if ch.is_thread else perms.SEND_MESSAGES):
            raise missing_permissions()
        if files and not have & perms.ATTACH_FILES:
            raise missing_permissions()
        body = self._without_embeds(body, have, files)
        check(body, files)
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            earlier = self.store.find_nonce(self.store.bot, nonce, self.server.nonce_window)
            if earlier is not None:
                if earlier.deleted:
                    raise DiscordError(404, 10008, "Unknown Message")
                return json_response(payloads.message(earlier, nonce=True))
        if ch.is_thread and ch.archived:
            if ch.locked and not have & perms.MANAGE_THREADS:
                raise thread_archived()
            await self.set_archived(ch, False)
        msg = self.store.create_message(ch, body, files, flags=(body.get("flags") or 0) & ~EPHEMERAL)
        await self.server.gateway.message_create(msg)
        return json_response(payloads.message(msg, nonce=True))

    async def thread_from_message(self, request: web.Request) -> web.StreamResponse:
        """Start Thread from Message: a public thread whose id is the message's (201, THREAD_CREATE).
        Without CREATE_PUBLIC_THREADS → 403 50013; a message in a thread or a forum → 400 50024
        "Cannot execute action on this channel type"; a second thread on one message → 400 160004
        "A thread has already been created for this message"; ``name`` 1-100 characters."""
        ch, have = self._channel(request)
        msg = self.store.messages.get(int(request.match_info["message"]))
        if msg is None or msg.channel is not ch or msg.deleted or msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        if ch.is_thread or ch.type == FORUM or ch.guild_id is None:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        if not have & perms.CREATE_PUBLIC_THREADS:
            raise missing_permissions()
        if msg.id in self.store.channels:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        body, _ = await read_body(request)
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            raise DiscordError(400, 50035, "Invalid Form Body", {"name": {"_errors": []}})
        minutes = int(body.get("auto_archive_duration") or 1440)
        thread = self.store.add_thread(name, ch, self.store.bot, minutes, id=msg.id)
        await self.server.gateway.channel_event("THREAD_CREATE", thread)
        return json_response(payloads.channel(thread), status=201)

    @staticmethod
    def _without_embeds(body: dict[str, Any], have: int, files: list[tuple[str, bytes]]) -> dict[str, Any]:
        """Discord drops a bot's embeds where it lacks EMBED_LINKS, and refuses what is then empty."""
        if not body.get("embeds") or have & perms.EMBED_LINKS:
            return body
        if not (body.get("content") or body.get("components") or files):
            raise missing_permissions()
        return {**body, "embeds": []}

    async def channel_message(self, request: web.Request) -> web.StreamResponse:
        ch, have = self._channel(request)
        msg = self.store.messages.get(int(request.match_info["message"]))
        if msg is None or msg.channel is not ch or msg.deleted or msg.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        if request.method == "GET":
            return json_response(payloads.message(msg))
        if msg.author is not self.store.bot:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        if ch.is_thread and ch.archived:
            raise thread_archived()
        return await self.edit_or_delete(request, msg, have)

    async def edit_or_delete(
        self, request: web.Request, msg: FakeMessage, have: int = perms.ALL
    ) -> web.StreamResponse:
        if request.method == "DELETE":
            msg.deleted = True
            self.store.changed()
            return web.Response(status=204)
        body, files = await read_body(request)
        if body.get("embeds") and not have & perms.EMBED_LINKS:
            body = {**body, "embeds": []}
        check(body, files, partial=True, current=msg)
        self.store.apply_edit(msg, body, files)
        return json_response(payloads.message(msg))
