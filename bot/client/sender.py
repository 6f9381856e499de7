"""The Discord side of the delivery (`bot.service.delivery`): posting in a channel, finding a post
made before a crash, sending a direct message — and what each of Discord's refusals means.

- 429 and 5xx: discord.py waits (``retry_after``) and retries by itself; what still fails, and any
  network fault, is a `Fault` (the delivery tries again later).
- 403 (50013 Missing Permissions, 50001 Missing Access): `Blocked`, with the permissions the bot
  lacks in the channel, read from discord.py's cache.
- 10003 Unknown Channel, or a locked archived thread (50083): `Gone`.
- An archived thread that is not locked unarchives itself when the post arrives (Discord does that);
  should Discord still refuse (50083), the thread is unarchived and the post sent again.
- Anything else Discord refuses (400: a malformed request): `Refused`.
- A post that opens a thread (`Message.thread`) opens it on itself once posted or found, so a thread
  is never opened twice (Discord answers 160004 to a second one); a thread that could not be opened
  leaves the post unsent, and the next try finds the post and opens it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import aiohttp
import discord

from bot.client import components
from bot.client.layout import edit_kwargs, message_kwargs, posted_text, text_of
from bot.client.mentions import COMMANDS, unlink
from bot.results import DirectMessage, Message
from bot.service import resume
from bot.service.posting import SEND_OR_ATTACH, Blocked, Fault, Gone, Refused
from i18n import N_

log = logging.getLogger(__name__)

HISTORY = 50
"""How many of a channel's messages since an earlier try are read to find a post made then."""
CLOCK_SKEW = 60
"""Seconds allowed between this machine's clock and Discord's when reading the history."""
NEEDED = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "attach_files": N_("Attach Files"),
    "read_message_history": N_("Read Message History"),
    "create_public_threads": N_("Create Public Threads"),
}
"""Discord's permissions by their English names (stored and logged so; `bot.service.delivery.blocked_text`
says them in the reader's language, as their Discord shows them)."""
GONE = {10003: resume.GONE, 50083: N_("the thread is archived and locked")}
"""Why a channel is gone for good, in English (stored; translated where a player reads it)."""


THREAD_ALREADY_OPENED = 160004
"""Discord's code for "A thread has already been created for this message"."""


class DiscordSender:
    """Sends the outbox's posts through a discord.py ``client`` (see the module docstring); each
    button of a post is sent as its kind's class (`components.REGISTERED`)."""

    kinds = components.REGISTERED

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def send(self, channel: int, msg: Message, nonce: str) -> int:
        target = self.client.get_partial_messageable(channel)

        async def post() -> int:
            return (await target.send(nonce=nonce, **message_kwargs(msg))).id

        return await self._threaded(channel, msg, await self._call(channel, msg, post, missing=Fault))

    async def _threaded(self, channel: int, msg: Message, message_id: int) -> int:
        """Open the thread ``msg`` asks for on the message just posted (or found): its id is the
        message's; Discord's 160004 (one was opened on it already, before a restart) is that done."""
        name = msg.thread
        if name is None:
            return message_id

        async def opened() -> int:
            try:
                await self.client.http.start_thread_with_message(
                    channel, message_id, name=name[:100], auto_archive_duration=10080
                )
            except discord.HTTPException as e:
                if e.code != THREAD_ALREADY_OPENED:
                    raise
            return message_id

        return await self._call(channel, msg, opened, missing=Fault)

    async def edit(self, channel: int, message_id: int, msg: Message) -> None:
        """Edit the bot's message (the lobby's); refused as a post is, and a message deleted
        meanwhile (10008 Unknown Message) is `Refused`: there is nothing left to edit."""
        target = self.client.get_partial_messageable(channel).get_partial_message(message_id)

        async def change() -> int:
            await target.edit(**edit_kwargs(msg))
            return message_id

        await self._call(channel, msg, change, missing=Refused)

    async def _call(
        self, channel: int, msg: Message, call: Callable[[], Awaitable[int]], *, missing: type[Exception]
    ) -> int:
        """``call()`` (a post or an edit of ``msg`` in the channel), with Discord's refusals told apart:
        `Gone`, `Blocked`, `Refused` or `Fault` (an archived thread is unarchived once and tried
        again; a 404 that is not the channel's is ``missing``)."""
        for unarchived in (False, True):
            try:
                return await call()
            except discord.Forbidden as e:
                if e.code == 50083 and not unarchived and await self._unarchive(channel):
                    continue
                if e.code in GONE:
                    raise Gone(GONE[e.code]) from None
                raise Blocked(self._missing(channel, msg)) from None
            except discord.NotFound as e:
                if e.code in GONE:
                    raise Gone(GONE[e.code]) from None
                raise missing(_why(e) if missing is Fault else f"{e.status} {e.code} {e.text}") from None
            except discord.HTTPException as e:
                if e.status >= 500 or e.status == 429:
                    raise Fault(_why(e)) from None
                raise Refused(f"{e.status} {e.code} {e.text}") from None
            except (aiohttp.ClientError, OSError) as e:  # OSError covers TimeoutError
                raise Fault(_why(e)) from None
        raise AssertionError("unreachable")  # pragma: no cover

    async def find(self, channel: int, msg: Message, since: float) -> int | None:
        found = await self._find(channel, posted_text(msg), since)
        return found if found is None else await self._threaded(channel, msg, found)

    async def dm(self, dm: DirectMessage, nonce: str | None, tried: int | None) -> int:
        try:
            user = self.client.get_user(dm.user_id) or await self.client.fetch_user(dm.user_id)
            if tried is not None:
                channel = user.dm_channel or await user.create_dm()
                found = await self._find(channel.id, dm.text, since=tried)
                if found is not None:
                    return found
            text = COMMANDS.link(dm.text)[:2000]
            sent = await user.send(text, nonce=nonce) if nonce else await user.send(text)
        except (discord.Forbidden, discord.NotFound):
            return 0
        except discord.HTTPException:
            log.warning("Direct message to user %s failed", dm.user_id, exc_info=True)
            return 0
        return sent.id

    async def _find(self, channel: int, text: str, since: float) -> int | None:
        """Our message with ``text`` among the channel's messages since ``since`` (epoch seconds, less
        `CLOCK_SKEW`), however the commands it names were said (`bot.client.mentions.unlink`)."""
        me = self.client.user
        after = discord.Object(discord.utils.time_snowflake(datetime.fromtimestamp(since - CLOCK_SKEW, UTC)))
        try:
            async for m in self.client.get_partial_messageable(channel).history(limit=HISTORY, after=after):
                if me is not None and m.author.id == me.id and unlink(text_of(m)) == unlink(text):
                    return m.id
        except discord.HTTPException:
            log.warning("Could not read channel %s's last messages", channel, exc_info=True)
        return None

    async def _unarchive(self, channel: int) -> bool:
        try:
            await self.client.http.edit_channel(channel, archived=False)
        except discord.HTTPException:
            return False
        log.info("Unarchived thread %s to post in it", channel)
        return True

    def _missing(self, channel_id: int, msg: Message) -> str:
        """The permissions the bot lacks in the channel, in Discord's words (from its cache)."""
        channel = self.client.get_channel(channel_id)
        if not isinstance(channel, discord.abc.GuildChannel | discord.Thread):
            return SEND_OR_ATTACH
        perms = channel.permissions_for(channel.guild.me)
        send = "send_messages_in_threads" if isinstance(channel, discord.Thread) else "send_messages"
        wanted = ["view_channel", send, *(["attach_files"] if msg.image is not None or msg.pictures else []),
                  *(["create_public_threads"] if msg.thread is not None else [])]  # fmt: skip
        missing = [NEEDED[p] for p in wanted if not getattr(perms, p)]
        return " and ".join(missing) or SEND_OR_ATTACH


def _why(e: BaseException) -> str:
    if isinstance(e, discord.HTTPException):
        return f"{e.status} {e.code} {e.text}".strip()
    return f"{type(e).__name__}: {e}"
