"""Waiting for announcements (`Deliverer.wait`, what `/citta play` does before it answers): a
waiter wakes when its own posts are settled, not at every other post, and leaves nothing behind;
and the delivery task ends when the bot closes."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.client.sender import DiscordSender
from bot.service.delivery import Deliverer
from bot.service.posting import Delivery


def deliverer() -> Deliverer:
    storage: Any = object()  # waiting never reads the storage
    client: Any = object()
    return Deliverer(DiscordSender(client), storage)


async def test_a_waiter_wakes_when_its_posts_are_settled_and_only_then() -> None:
    d = deliverer()
    mine = asyncio.create_task(d.wait([1, 2], 5))
    other = asyncio.create_task(d.wait([3], 5))
    await asyncio.sleep(0)
    await d._settle(1, Delivery("sent"))
    await asyncio.sleep(0)
    assert not mine.done(), "post 2 is not settled yet"
    await d._settle(2, Delivery("held", error="channel deleted"))
    held = Delivery("held", error="channel deleted")
    assert await asyncio.wait_for(mine, 1) == {1: Delivery("sent"), 2: held}
    assert not other.done(), "posts 1 and 2 settled; 3 did not"
    await d._settle(3, Delivery("sent"))
    assert await asyncio.wait_for(other, 1) == {3: Delivery("sent")}
    assert d._waiting == {}


async def test_a_post_settled_before_the_wait_answers_at_once_and_an_unsettled_one_times_out() -> None:
    d = deliverer()
    await d._settle(7, Delivery("sent"))
    assert await asyncio.wait_for(d.wait([7], 5), 0.5) == {7: Delivery("sent")}
    assert await d.wait([7, 8], 0.05) == {7: Delivery("sent"), 8: Delivery("pending")}
    assert d._waiting == {}, "a waiter that timed out is forgotten"


async def test_two_waiters_on_one_post_both_wake() -> None:
    d = deliverer()
    first, second = (asyncio.create_task(d.wait([4], 5)) for _ in range(2))
    await asyncio.sleep(0)
    await d._settle(4, Delivery("failed", error="400"))
    assert [await first, await second] == [{4: Delivery("failed", error="400")}] * 2


class _NothingStored:
    async def outbox_heads(self, shards: object = None) -> list[object]:
        return []


async def test_the_delivery_task_stops_when_cancelled_as_it_is_woken() -> None:
    """The bot's close cancels the task while posts being stored wake it; it must end (with
    asyncio.wait_for, Python 3.11 lost such a cancellation and the close waited for ever)."""
    for steps in range(6):  # the cancellation lands at each point of the wake-up in turn
        client: Any = object()
        storage: Any = _NothingStored()
        d = Deliverer(DiscordSender(client), storage)
        task = asyncio.create_task(d.run())
        for _ in range(3):
            await asyncio.sleep(0)  # waiting for a wake-up now
        d.wake()
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=1)
        assert done and task.cancelled(), f"cancelled {steps} steps after the wake-up"
