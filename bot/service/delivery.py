"""The delivery of the outbox (part of the service layer): what waits there is sent, in order per
channel, exactly once, through a `Sender` (the Discord side: `bot.client.sender`).

Each channel's next post is claimed before it is sent (`bot.storage.protocol.OutboxProtocol.claim`),
so that of several processes on one database only one sends it, and only the posts of the servers
on this process's shards are looked at; a post claimed by a process that died is taken over when its
claim expires (at once by a process started in its place).

An entry may also be the edit of a message the bot made (`bot.results.Post.edits`: the lobby's
message after a Join), sent in its channel's order like a post.

The service stores every announcement with the change it announces; this task sends it: first the
direct messages that go with it, then the channel post, each with a nonce Discord enforces. A post
that was tried before (the bot may have died after Discord made it) is first looked for among the
channel's messages since that try; if it is not there it is sent again with the same nonce, so that
a post still in flight comes back as the message already made. Each step is marked in the database
as it is done. A turn post's pictures come from memory, or are drawn again from the drawing stored
with the post (`bot.service.drawings`).

What can go wrong, and the one answer to each (the sender says which it was):

- a fault or an outage (discord.py retries 429 and 5xx itself): tried again later with backoff, and
  the channel's later posts wait behind it;
- the bot lacks a permission (`Blocked`): the post waits; the host is told by DM, and the mover in
  their private reply, which permission is missing. Posts resume once it is granted (a channel
  update wakes the task: `permissions_changed`; otherwise it looks every minute);
- the channel is gone for good (`Gone`: deleted, a locked archived thread): its games are paused and
  logged, their posts held, and nothing is tried again;
- anything else Discord refuses for good (`Refused`: a malformed request) is logged and passed over,
  so that one bad post cannot hold a channel forever;
- the database fails (`bot.errors.StorageUnavailable`): logged as a warning, and the outbox looked
  at again when a change is stored or after `PERIOD`, never in a tight loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Literal

import i18n
from bot.errors import StorageUnavailable
from bot.metrics import Metrics
from bot.results import DirectMessage, Message, Outcome
from bot.service import resume
from bot.service.context import Context
from bot.service.drawings import Drawings
from bot.service.posting import Blocked, Delivery, Fault, Gone, Refused, Sender
from bot.storage import envelope
from bot.storage.protocol import MISSING, StorageProtocol
from bot.storage.rows import OutboxRow
from bot.storage.shards import Claimant, Shards
from i18n import _

log = logging.getLogger(__name__)

PERIOD = 60.0
"""Seconds between two looks at the outbox when nothing wakes the task."""
MAX_BACKOFF = 300
BLOCKED_RETRY = 60
NONCE_LIMIT = 25
"""Discord's limit on a nonce's length."""
OUTCOMES_KEPT = 2_000
"""What became of the last posts, kept for `Deliverer.wait` (asked as soon as a post is stored: at
50 posts a second, 2,000 cover 40 s); past it the older half is dropped. (10,000 grew the bot's
memory for the first ten thousand posts after a start.)"""
Went = Literal["wait", "next", "last"]
"""What a delivered post leaves its lane: ``wait`` (it must wait: a retry, a permission, a paused
game), ``next`` (go on with the channel's next post), ``last`` (sent, and no other post of its
channel was pending)."""


class Deliverer:
    """Sends the outbox through ``sender``. `wake` after storing; `run` is the task's body."""

    def __init__(
        self, sender: Sender, storage: StorageProtocol, clock: Callable[[], float] = time.time, *,
        claimant: Claimant | None = None, shards: Shards | None = None, drawings: Drawings | None = None,
        metrics: Metrics | None = None,
    ) -> None:  # fmt: skip
        self.sender = sender
        self.metrics = metrics or Metrics()
        """Where the posts tried are counted, by result (`bot.metrics`)."""
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

    @classmethod
    def of(cls, ctx: Context, sender: Sender) -> Deliverer:
        """The delivery of the context's outbox (posts of its shards, its claims, its pictures),
        woken by the storage once each change that stored posts is committed."""
        deliverer = cls(sender, ctx.storage, ctx.clock, claimant=ctx.claimant, shards=ctx.shards,
                        drawings=ctx.drawings, metrics=ctx.metrics)  # fmt: skip
        ctx.storage.on_enqueue = deliverer.wake
        return deliverer

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
            except StorageUnavailable as e:  # a change stored once it is back wakes it sooner
                log.warning("Delivering the outbox waits for the database (%s); next look in %d s", e, PERIOD)
            except Exception:
                log.exception("Delivering the outbox failed; trying again shortly")
            # Not asyncio.wait_for: in Python 3.11 it swallows a cancellation that comes as the
            # event is set (gh-86296), and the bot's close then waited for this task for ever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(pause):
                    await self._wake.wait()

    async def flush(self) -> float:
        """Start a lane for every channel with a post that is due and not already being sent; when
        the next post that waits (for a retry, or for another process's claim to expire) is due."""
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
        """Deliver until nothing due is left (what is waiting for a retry stays): at shutdown, and
        in tests that then look at what was posted."""
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

    async def problem(self, outcome: Outcome, timeout: float) -> str | None:
        """What the actor must be told when the outcome's announcement cannot be posted (in the current
        language); None: it was posted, or is on its way. A channel the table was already told it
        lacks a permission in is said at once (the post waits behind the one that was refused);
        otherwise the post is waited for, at most ``timeout``."""
        if not outcome.outbox:
            return None
        self.wake()
        try:
            return await self._problem(outcome, timeout)
        except StorageUnavailable as e:  # the announcement is stored: it goes out once it is back
            log.warning("Whether outbox %s went out is unknown: the database failed (%s)", outcome.outbox, e)
            return None

    async def _problem(self, outcome: Outcome, timeout: float) -> str | None:
        game = await self.storage.games.game(outcome.game) if outcome.game else None
        if game is not None and game.blocked is not None:
            return blocked_text(game.id, game.channel, game.blocked)
        results = await self.wait(outcome.outbox, timeout)
        held = next((r for r in results.values() if r.state == "held"), None)
        if held is not None:
            return _(
                "⚠️ Your move is stored, but I cannot post in this game's channel ({why}): "
                "the game is paused.",
                why=_(held.error) if held.error else "",
            )
        missing = next((r.missing for r in results.values() if r.missing), None)
        if missing is None:
            return None
        game = await self.storage.games.game(outcome.game)
        return blocked_text(outcome.game, game.channel if game else 0, missing)

    async def _settle(self, outbox_id: int, delivery: Delivery) -> None:
        self._outcomes[outbox_id] = delivery
        if len(self._outcomes) > OUTCOMES_KEPT:  # old answers nobody waits for any more
            for key in list(self._outcomes)[: OUTCOMES_KEPT // 2]:
                del self._outcomes[key]
        for future in self._waiting.pop(outbox_id, []):
            if not future.done():
                future.set_result(None)

    # --- one channel ------------------------------------------------------------------

    async def _lane(self, channel: int) -> None:
        """Send the channel's pending posts in order, each claimed first. Having sent one that the
        storage saw no other post of the channel behind, it ends quietly (one stored since:
        `_lane_done`); otherwise (a post must wait: a retry, a permission; or the next was not there
        to claim: another process holds it) the run loop looks again, and then waits for what holds
        the channel up."""
        try:
            while (head := await self._claim(channel)) is not None:
                went = await self._deliver(head)
                if went == "last":
                    return
                if went == "wait":
                    break
        except StorageUnavailable as e:
            # What was sent but not marked is found in the channel at the next try (`_post`); the
            # run loop looks again when a change is stored, or after `PERIOD`: no retry at once.
            log.warning("Delivering in channel %s waits for the database (%s)", channel, e)
            return
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
                done[i] = await self.sender.dm(dm, dm_nonce(row.nonce, i), tried)
                await self.storage.outbox.dm_done(row.id, i, done[i])
        failed = {dm.user_id for i, dm in enumerate(post.direct) if done[i] == 0}
        msg = post.message_for(failed)
        if msg is not None and msg.drawing is not None and not msg.pictures and self.drawings is not None:
            msg = replace(msg, pictures=await self.drawings.pictures(msg.drawing))
        try:
            message_id = None if msg is None else await self._post(row, msg)
        except Blocked as e:
            self._count("blocked")
            await self._blocked(row, e.missing)
            return "wait"
        except Gone as e:
            self._count("held")
            games = await self.storage.outbox.hold_channel(row.channel, str(e), self.now())
            log.warning("Channel %s is gone (%s): game(s) %s paused", row.channel, e, games)
            if str(e) == resume.GONE:  # deleted, and its event not seen yet: the players are told here
                for game_id in games:
                    await resume.tell_paused(self.storage, game_id, self.now())
            await self._settle(row.id, Delivery("held", error=str(e)))
            return "wait"
        except Exception as e:  # a network fault or a Discord outage: later, with backoff
            wait = min(MAX_BACKOFF, 2 ** min(row.attempts + 1, 9))
            why = str(e) if isinstance(e, Fault) else repr(e)
            self._count("retry")
            log.warning("Posting in channel %s failed (%s); next try in %s s", row.channel, why, wait)
            await self.storage.outbox.retry(row.id, self.now() + wait, why)
            await self._settle(row.id, Delivery("pending", error=why))
            return "wait"
        if msg is not None and msg.drawing is not None and self.drawings is not None:
            self.drawings.drop(msg.drawing)  # sent, or refused for good: not needed again
        if message_id == -1:
            self._count("failed")
            await self._settle(row.id, Delivery("failed"))
            return "next"
        more = await self.storage.outbox.sent(row.id, message_id, self.now())
        self._count("sent")
        await self._settle(row.id, Delivery("sent"))
        return "next" if more else "last"

    def _count(self, result: str) -> None:
        """One post tried, and what became of it (`bot.metrics.POST_RESULTS`)."""
        self.metrics.posts.labels(result=result).inc()

    async def _post(self, row: OutboxRow, msg: Message) -> int:
        """Send the channel message (or find it, if an earlier try got through before a crash); its
        id, -1 when Discord refused it for good. An edit (``row.edits``) is made again as it is
        (the same text twice is no harm): the edited message's id."""
        if row.edits is not None:
            await self.storage.outbox.trying(row.id, self.now())
            try:
                await self.sender.edit(row.channel, row.edits, msg)
            except Refused as e:
                log.error("Discord refused outbox %s (an edit of %s) for good: %s", row.id, row.edits, e)
                await self.storage.outbox.failed(row.id, str(e))
                return -1
            return row.edits
        if row.tried_at is not None:
            found = await self.sender.find(row.channel, msg, since=row.tried_at)
            if found is not None:
                log.info("Outbox %s was posted before a restart (message %s)", row.id, found)
                return found
        await self.storage.outbox.trying(row.id, self.now())
        try:
            return await self.sender.send(row.channel, msg, row.nonce)
        except Refused as e:
            log.error("Discord refused outbox %s for good: %s", row.id, e)
            await self.storage.outbox.failed(row.id, str(e))
            return -1

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
            await self.sender.dm(DirectMessage(game.host, text), None, None)


def dm_nonce(nonce: str, index: int) -> str:
    """The nonce of a post's ``index``-th direct message: the post's with ``d<index>``, within
    Discord's 25 characters (a longer one, as posts of old databases may have, is shortened to a
    hash of it: the same on every try).

    >>> dm_nonce("0a1b2c.5f", 2), len(dm_nonce("0123456789abcdef.1000000", 0))
    ('0a1b2c.5fd2', 24)
    """
    text = f"{nonce}d{index}"
    if len(text) <= NONCE_LIMIT:
        return text
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def blocked_text(game_id: int, channel: int, missing: str) -> str:
    """What the host (and the mover) are told when the bot may not post in the game's channel (in
    the current language; ``missing`` as `Blocked` names them)."""
    return _(
        "⚠️ La Città game {game}: I cannot post in <#{channel}> because I lack the **{missing}** "
        "permission there. Moves are stored and nothing is lost: ask a server admin to grant it, "
        "and the waiting posts follow at once.",
        game=game_id, channel=channel, missing=permissions_text(missing),
    )  # fmt: skip


def permissions_text(missing: str) -> str:
    """``View Channel and Attach Files`` in the current language (the names as Discord shows them)."""
    return i18n.listing([_(name) for name in missing.split(" and ") if name])
