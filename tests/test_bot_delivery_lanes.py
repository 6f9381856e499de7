"""A channel's lane (the delivery task sends a channel's posts in order, one lane per channel):
a post stored just as the lane finds no more is still sent at once, without another look at
the whole outbox after every lane, nor a claim after the channel's last post."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import discord
from test_bot_support import CHANNEL, RecordingClient

from bot.client.sender import DiscordSender
from bot.results import Message, Post
from bot.service.delivery import Deliverer
from bot.storage.protocol import StorageProtocol


class _StoredAsTheLaneEnds:
    """The storage's outbox, with a post stored (and the outbox looked at, the lane still running)
    just as the lane learns that its channel has nothing more pending, the first time; it takes
    the outbox's place in ``storage``."""

    def __init__(self, storage: StorageProtocol) -> None:
        self.outbox = storage.outbox
        storage.outbox = self
        self.deliverer: Deliverer | None = None
        self.late: list[int] = []
        self.looks = self.claims = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.outbox, name)

    async def heads(self, *args: Any) -> Any:
        self.looks += 1
        return await self.outbox.heads(*args)

    async def claim(self, *args: Any) -> Any:
        self.claims += 1
        return await self.outbox.claim(*args)

    async def sent(self, outbox_id: int, *args: Any) -> bool:
        more = await self.outbox.sent(outbox_id, *args)
        if not more and not self.late and self.deliverer is not None:
            row = await self.outbox.get(outbox_id)
            assert row is not None
            self.late = await self.outbox.enqueue(None, [Post(row.channel, Message("late"))], 0)
            await self.deliverer.flush()
        return more


async def test_a_post_stored_as_its_channel_s_lane_ends_is_sent_at_once(store: StorageProtocol) -> None:
    client, racing = RecordingClient(), _StoredAsTheLaneEnds(store)
    deliverer = Deliverer(DiscordSender(cast(discord.Client, client)), store)
    racing.deliverer = deliverer
    [first] = await store.outbox.enqueue(None, [Post(CHANNEL, Message("first"))], 0)
    task = asyncio.create_task(deliverer.run())
    try:
        assert (await deliverer.wait([first], 5))[first].state == "sent"
        for _ in range(100):
            if racing.late:
                break
            await asyncio.sleep(0.01)
        assert (await deliverer.wait(racing.late, 5))[racing.late[0]].state == "sent"
        assert [m["content"] for m in client.sent] == ["first", "late"]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_a_lane_that_sent_its_posts_ends_without_another_look_at_the_outbox(
    store: StorageProtocol,
) -> None:
    client, counting = RecordingClient(), _StoredAsTheLaneEnds(store)
    deliverer = Deliverer(DiscordSender(cast(discord.Client, client)), store)
    ids = await store.outbox.enqueue(None, [Post(CHANNEL, Message("one")), Post(CHANNEL, Message("two"))], 0)
    task = asyncio.create_task(deliverer.run())
    try:
        assert {d.state for d in (await deliverer.wait(ids, 5)).values()} == {"sent"}
        await asyncio.sleep(0.1)
        assert counting.looks == 1, "one look at the outbox started the lane; none after it"
        assert counting.claims == 2, "each post claimed; no claim after the last"
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
