"""The delivery task: sends what waits in the outbox, in order per channel, exactly once.

Each channel's next post is claimed before it is sent (`storage.outbox.claim`), so
that of several processes on one database only one sends it, and only the posts of the
servers on this process's shards are looked at; a post claimed by a process that died is
taken over when its claim expires (at once by a process started in its place).

The service stores every announcement with the change it announces; this task (the Discord
side) sends it: first the direct messages that go with it, then the channel post, each with
a nonce Discord enforces (``enforce_nonce``). A post that was tried before (the bot may have
died after Discord made it) is first looked for among the channel's messages since that try;
if it is not there it is sent again with the same nonce, so that a post still in flight comes
back as the message already made. Each step is marked in the database as it is done. A turn
post's pictures come from the service's memory, or are drawn again from the drawing stored
with the post (`bot.service.drawings`).

What can go wrong, and the one answer to each:

- 429 and 5xx: discord.py waits (``retry_after``) and retries by itself; what still fails is
  tried again later with backoff, and the channel's later posts wait behind it.
- 403 (50013 Missing Permissions, 50001 Missing Access): the post waits; the host is told
  by DM, and the mover in their private reply, which permission is missing. Posts resume
  once it is granted (a channel update wakes the task; otherwise it looks every minute).
- 10003 Unknown Channel, or a locked archived thread (50083): the channel is gone; its games
  are paused and logged, their posts held, and nothing is tried again.
- An archived thread that is not locked unarchives itself when the post arrives (Discord does
  that); should Discord still refuse (50083), the thread is unarchived and the post sent again.
- Anything else Discord refuses (400: a malformed request) is logged and passed over, so that
  one bad post cannot hold a channel forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Literal

import aiohttp
import discord

import i18n
from bot.client.layout import message_kwargs, posted_text, text_of
from bot.client.mentions import COMMANDS, unlink
from bot.results import DirectMessage, Message
from bot.service.drawings import Drawings
from bot.storage import envelope
from bot.storage.protocol import MISSING, StorageProtocol
from bot.storage.rows import OutboxRow
from bot.storage.shards import Claimant, Shards
from i18n import N_, _

log = logging.getLogger(__name__)

HISTORY = 50
NONCE_LIMIT = 25
"""Discord's limit on a nonce's length."""
"""How many of a channel's messages since an earlier try are read to find a post made then."""
CLOCK_SKEW = 60
"""Seconds allowed between this machine's clock and Discord's when reading the history."""
PERIOD = 60.0
"""Seconds between two looks at the outbox when nothing wakes the task."""
MAX_BACKOFF = 300
BLOCKED_RETRY = 60
NEEDED = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "attach_files": N_("Attach Files"),
    "read_message_history": N_("Read Message History"),
}
"""Discord's permissions by their English names (stored and logged so; `blocked_text` says
them in the reader's language, as their Discord shows them)."""
SEND_OR_ATTACH = N_("Send Messages or Attach Files")
GONE = {10003: N_("the channel was deleted"), 50083: N_("the thread is archived and locked")}
"""Why a channel is gone for good, in English (stored; translated where a player reads it)."""


@dataclass(frozen=True)
class Delivery:
    """What became of one announcement so far."""

    state: str
    """``sent``, ``pending`` (waiting or being retried), ``held`` (channel gone) or ``failed``."""
    missing: str | None = None
    """The permissions the bot lacks in the channel, when that is why it waits."""
    error: str | None = None


class Blocked(Exception):
    """The bot may not post (or attach) in the channel."""

    def __init__(self, missing: str) -> None:
        super().__init__(missing)
        self.missing = missing


Went = Literal["wait", "next", "last"]
"""What a delivered post leaves its lane: ``wait`` (it must wait: a retry, a permission, a
paused game), ``next`` (go on with the channel's next post), ``last`` (sent, and no other post of
its channel was pending)."""


class Gone(Exception):
    """The channel is gone for good."""


class Deliverer:
    """Sends the outbox through ``client``. `wake` after storing; `run` is the task's body."""

    def __init__(
        self, client: discord.Client, storage: StorageProtocol, clock: Callable[[], float] = time.time, *,
        claimant: Claimant | None = None, shards: Shards | None = None, drawings: Drawings | None = None,
    ) -> None:  # fmt: skip
        self.client = client
        self.storage = storage
        self.drawings = drawings
        """Where turn posts' pictures come from (None: such posts go without them)."""
        self.clock = clock
        self.shards = shards
        """The posts of the servers on these shards are sent here (None: every post)."""
        self.claimant = claimant or Claimant.new(shards)
        self._wake = asyncio.Event()
        self._waiting: dict[int, list[asyncio.Future[None]]] = {}
        """Who waits for each post (`wait`): woken when that one is settled, and only then."""
        self._lanes: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        """Channels with a pending post seen while their lane ran (`_lane_done`)."""
        self._outcomes: dict[int, Delivery] = {}

    def now(self) -> int:
        return int(self.clock())

    def wake(self) -> None:
        """Something was stored: look at the outbox now."""
        self._wake.set()

    async def permissions_changed(self) -> None:
        """A channel, thread or role changed: what waits for a permission is tried again now."""
        await self.storage.outbox.unblock(self.shards)
        self.wake()

    async def run(self) -> None:
        """Deliver what is pending, then wait to be woken, for the next retry, or `PERIOD`; forever."""
        while True:
            self._wake.clear()
            pause = PERIOD
            try:
                pause = min(PERIOD, max(1.0, await self.flush() - self.now()))
            except Exception:
                log.exception("Delivering the outbox failed; trying again shortly")
            # Not asyncio.wait_for: in Python 3.11 it swallows a cancellation that comes as the
            # event is set (gh-86296), and the bot's close then waited for this task for ever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(pause):
                    await self._wake.wait()

    async def flush(self) -> float:
        """Start a lane for every channel with a post that is due and not already being sent;
        when the next post that waits (for a retry, or for another process's claim to expire) is due."""
        now, due = self.now(), float("inf")
        for head in await self.storage.outbox.heads(self.shards):
            lane = self._lanes.get(head.channel)
            free = head.free_at(self.claimant.owner)
            if free > now:
                due = min(due, free)
            elif lane is None or lane.done():
                lane = self._lanes[head.channel] = asyncio.create_task(self._lane(head.channel))
                lane.add_done_callback(functools.partial(self._lane_done, head.channel))
            else:  # the lane may have claimed its last post before this one was stored
                self._again.add(head.channel)
        return due

    def _lane_done(self, channel: int, _lane: asyncio.Task[None]) -> None:
        """A lane ended: look again if a post of its channel was seen while it ran (it may have
        ended without it)."""
        if channel in self._again:
            self._again.discard(channel)
            self.wake()

    async def settle(self) -> None:
        """Deliver until nothing due is left (what is waiting for a retry stays): at shutdown,
        and in tests that then look at what was posted."""
        while True:
            await self.flush()
            running = [lane for lane in self._lanes.values() if not lane.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def wait(self, ids: Iterable[int], timeout: float) -> dict[int, Delivery]:
        """What became of ``ids`` once each was sent, held, failed or tried once (at most ``timeout``)."""
        wanted = list(ids)
        loop = asyncio.get_running_loop()
        waits = [(i, loop.create_future()) for i in wanted if i not in self._outcomes]
        for i, future in waits:
            self._waiting.setdefault(i, []).append(future)
        try:
            if waits:
                await asyncio.wait([f for _, f in waits], timeout=timeout)
        finally:
            for i, future in waits:
                if future in (waiting := self._waiting.get(i, [])):
                    waiting.remove(future)
                    if not waiting:
                        del self._waiting[i]
        return {i: self._outcomes.get(i, Delivery("pending")) for i in wanted}

    async def _settle(self, outbox_id: int, delivery: Delivery) -> None:
        self._outcomes[outbox_id] = delivery
        if len(self._outcomes) > 10_000:  # old answers nobody waits for any more
            for key in list(self._outcomes)[:5_000]:
                del self._outcomes[key]
        for future in self._waiting.pop(outbox_id, []):
            if not future.done():
                future.set_result(None)

    # --- one channel ------------------------------------------------------------------

    async def _lane(self, channel: int) -> None:
        """Send the channel's pending posts in order, each claimed first. Having sent one that
        the storage saw no other post of the channel behind, it ends quietly (one stored since:
        `_lane_done`); otherwise (a post must wait: a retry, a permission; or the next was not
        there to claim: another process holds it) the run loop looks again, and then waits for
        what holds the channel up."""
        while (head := await self._claim(channel)) is not None:
            went = await self._deliver(head)
            if went == "last":
                return
            if went == "wait":
                break
        self.wake()

    async def _claim(self, channel: int) -> OutboxRow | None:
        now, me = self.now(), self.claimant
        return await self.storage.outbox.claim(channel, me.owner, now, now + me.lease)

    async def _deliver(self, row: OutboxRow) -> Went:
        """Send one announcement; whether the channel's next may follow (`Went`)."""
        post = envelope.load(row.channel, row.payload, row.image)
        done = dict(row.dms_done)
        for i, dm in enumerate(post.direct):
            if done.get(i, -1) < 0:  # not sent yet, or tried (-when) before a crash
                tried = -done[i] if i in done else None
                await self.storage.outbox.dm_done(row.id, i, -self.now())
                done[i] = await self._dm(dm, dm_nonce(row.nonce, i), tried)
                await self.storage.outbox.dm_done(row.id, i, done[i])
        failed = {dm.user_id for i, dm in enumerate(post.direct) if done[i] == 0}
        msg = post.message_for(failed)
        if msg is not None and msg.drawing is not None and not msg.pictures and self.drawings is not None:
            msg = replace(msg, pictures=await self.drawings.pictures(msg.drawing))
        try:
            message_id = None if msg is None else await self._post(row, msg)
        except Blocked as e:
            await self._blocked(row, e.missing)
            return "wait"
        except Gone as e:
            games = await self.storage.outbox.hold_channel(row.channel, str(e), self.now())
            log.warning("Channel %s is gone (%s): game(s) %s paused", row.channel, e, games)
            await self._settle(row.id, Delivery("held", error=str(e)))
            return "wait"
        except Exception as e:  # a network fault or a Discord outage: later, with backoff
            wait = min(MAX_BACKOFF, 2 ** min(row.attempts + 1, 9))
            log.warning("Posting in channel %s failed (%s); next try in %s s", row.channel, _why(e), wait)
            await self.storage.outbox.retry(row.id, self.now() + wait, _why(e))
            await self._settle(row.id, Delivery("pending", error=_why(e)))
            return "wait"
        if msg is not None and msg.drawing is not None and self.drawings is not None:
            self.drawings.drop(msg.drawing)  # sent, or refused for good: not needed again
        if message_id == -1:
            await self._settle(row.id, Delivery("failed"))
            return "next"
        more = await self.storage.outbox.sent(row.id, message_id, self.now())
        await self._settle(row.id, Delivery("sent"))
        return "next" if more else "last"

    async def _post(self, row: OutboxRow, msg: Message) -> int:
        """Send the channel message (or find it, if an earlier try got through); its id, -1 when
        Discord refused it for good."""
        if row.tried_at is not None:  # an earlier try may have got through before a crash
            found = await self._find(row.channel, posted_text(msg), since=row.tried_at - CLOCK_SKEW)
            if found is not None:
                log.info("Outbox %s was posted before a restart (message %s)", row.id, found)
                return found
        await self.storage.outbox.trying(row.id, self.now())
        channel = self.client.get_partial_messageable(row.channel)
        for unarchived in (False, True):
            try:
                sent = await channel.send(nonce=row.nonce, **message_kwargs(msg))
                return sent.id
            except discord.Forbidden as e:
                if e.code == 50083 and not unarchived and await self._unarchive(row.channel):
                    continue
                if e.code in GONE:
                    raise Gone(GONE[e.code]) from None
                raise Blocked(self._missing(row.channel, msg)) from None
            except discord.NotFound as e:
                if e.code in GONE:
                    raise Gone(GONE[e.code]) from None
                raise
            except discord.HTTPException as e:
                if e.status >= 500 or e.status == 429:
                    raise
                log.error("Discord refused outbox %s for good (%s %s): %s", row.id, e.status, e.code, e.text)
                await self.storage.outbox.failed(row.id, f"{e.status} {e.code} {e.text}")
                return -1
        raise AssertionError("unreachable")  # pragma: no cover

    async def _find(self, channel: int, text: str, since: float) -> int | None:
        """Our message with ``text`` among the channel's messages since ``since`` (epoch seconds)."""
        me = self.client.user
        after = discord.Object(discord.utils.time_snowflake(datetime.fromtimestamp(since, UTC)))
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
        wanted = ["view_channel", send, *(["attach_files"] if msg.image is not None or msg.pictures else [])]
        missing = [NEEDED[p] for p in wanted if not getattr(perms, p)]
        return " and ".join(missing) or SEND_OR_ATTACH

    async def _blocked(self, row: OutboxRow, missing: str) -> None:
        log.warning("May not post in channel %s: missing %s", row.channel, missing)
        await self.storage.outbox.retry(row.id, self.now() + BLOCKED_RETRY, f"{MISSING}{missing}")
        await self._settle(row.id, Delivery("pending", missing=missing))
        if row.game is None or not await self.storage.games.set_blocked(row.game, missing):
            return
        game = await self.storage.games.game(row.game)
        if game is not None and game.host > 0:
            prefs = (await self.storage.players.prefs([game.host]))[game.host]
            with i18n.speaking(prefs.language or game.settings.language):  # a DM: in the host's language
                text = blocked_text(game.id, row.channel, missing)
            await self._dm(DirectMessage(game.host, text), None)

    async def _dm(self, dm: DirectMessage, nonce: str | None, tried: int | None = None) -> int:
        """Send a DM (unless a try at ``tried`` got through); its message id, or 0 when it cannot
        be delivered (DMs closed …)."""
        try:
            user = self.client.get_user(dm.user_id) or await self.client.fetch_user(dm.user_id)
            if tried is not None:
                channel = user.dm_channel or await user.create_dm()
                found = await self._find(channel.id, dm.text, since=tried - CLOCK_SKEW)
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


def dm_nonce(nonce: str, index: int) -> str:
    """The nonce of a post's ``index``-th direct message: the post's with ``d<index>``, within
    Discord's 25 characters (a longer one, as posts of old databases may have, is shortened to a
    hash of it: the same on every try).

    >>> dm_nonce("0a1b2c3d.5f", 2), len(dm_nonce("0123456789abcdef.1000000", 0))
    ('0a1b2c3d.5fd2', 24)
    """
    text = f"{nonce}d{index}"
    if len(text) <= NONCE_LIMIT:
        return text
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def blocked_text(game_id: int, channel: int, missing: str) -> str:
    """What the host (and the mover) are told when the bot may not post in the game's channel
    (in the current language; ``missing`` as `Deliverer._missing` wrote it)."""
    return _(
        "⚠️ La Città game {game}: I cannot post in <#{channel}> because I lack the **{missing}** "
        "permission there. Moves are stored and nothing is lost: ask a server admin to grant it, "
        "and the waiting posts follow at once.",
        game=game_id, channel=channel, missing=permissions_text(missing),
    )  # fmt: skip


def permissions_text(missing: str) -> str:
    """``View Channel and Attach Files`` in the current language (the names as Discord shows them)."""
    return i18n.listing([_(name) for name in missing.split(" and ") if name])


def _why(e: BaseException) -> str:
    if isinstance(e, discord.HTTPException):
        return f"{e.status} {e.code} {e.text}".strip()
    if isinstance(e, aiohttp.ClientError | OSError | TimeoutError):
        return f"{type(e).__name__}: {e}"
    return repr(e)
