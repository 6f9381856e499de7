"""Several processes on one database, at the service layer and in the delivery (each backend): a
process's clock works only on the games of its shards; two processes ticking at once remind
once; two delivery tasks at once send each announcement once, in order."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from test_bot_support import PLAYERS, FakeClock, open_service

from bot.client.sender import DiscordSender
from bot.results import Message, Post
from bot.service import lobby as svc_lobby
from bot.service import tick as svc_tick
from bot.service.context import Context
from bot.service.delivery import Deliverer
from bot.storage.shards import Shards

ON_0, ON_1 = 2 << 22, 1 << 22
"""Servers on shard 0 and on shard 1 of 2."""
CHANNEL_0, CHANNEL_1 = 700, 701


async def _game(svc: Context, guild: int, channel: int) -> int:
    """A two-player game of Ann and Bob in ``channel`` of ``guild``, started: its id."""
    await svc_lobby.new_game(svc, PLAYERS[0], channel=channel, guild=guild)
    row = await svc.storage.games.open_game(channel)
    assert row is not None
    await svc_lobby.join(svc, row.id, PLAYERS[1])
    await svc_lobby.start(svc, row.id, PLAYERS[0])
    return row.id


def _reminded(posts: list[Post]) -> list[int]:
    return sorted(p.channel for p in posts if p.message is not None and "Reminder" in p.message.text)


async def test_a_process_s_clock_ticks_only_the_games_of_its_shards(database: Path | str) -> None:
    clock = FakeClock()
    setup = await open_service(database, clock=clock)
    await _game(setup, ON_0, CHANNEL_0)
    await _game(setup, ON_1, CHANNEL_1)
    await setup.close()
    shard_1 = await Context.open(database, clock=clock, renderer=None, shards=Shards(2, (1,)))
    shard_0 = await Context.open(database, clock=clock, renderer=None, shards=Shards(2, (0,)))
    clock.advance(12)
    assert _reminded(await svc_tick.tick(shard_1)) == [CHANNEL_1]
    assert _reminded(await svc_tick.tick(shard_0)) == [CHANNEL_0]
    assert await svc_tick.tick(shard_1) == [] and await svc_tick.tick(shard_0) == [], "each reminded once"
    await shard_0.close()
    await shard_1.close()


async def test_two_processes_ticking_at_once_remind_each_game_once(database: Path | str) -> None:
    clock = FakeClock()
    first = await open_service(database, clock=clock)
    second = await open_service(database, clock=clock)
    channels = [CHANNEL_0 + k for k in range(4)]
    for channel in channels:
        await _game(first, ON_0, channel)
    clock.advance(12)
    posts = [
        p
        for _ in range(3)
        for ticked in await asyncio.gather(svc_tick.tick(first), svc_tick.tick(second))
        for p in ticked
    ]
    assert _reminded(posts) == channels, "each game reminded once, by one of them"
    counts = [c.reminders for c in await first.storage.clocks.get()]
    assert counts == [1] * len(channels)
    await first.close()
    await second.close()


class _Channel:
    def __init__(self, sent: list[tuple[int, str]], channel: int) -> None:
        self.sent, self.channel = sent, channel

    async def send(self, *, nonce: str, **kwargs: Any) -> SimpleNamespace:
        await asyncio.sleep(0.01)  # on the wire: the other process runs meanwhile
        self.sent.append((self.channel, kwargs.get("content") or ""))
        return SimpleNamespace(id=len(self.sent))


class _Client:
    """Just what the delivery of plain channel posts uses of a discord.py client."""

    user = None

    def __init__(self, sent: list[tuple[int, str]]) -> None:
        self.sent = sent

    def get_partial_messageable(self, channel: int) -> _Channel:
        return _Channel(self.sent, channel)


async def test_two_delivery_tasks_at_once_send_each_announcement_once_in_order(
    database: Path | str,
) -> None:
    svc = await open_service(database)
    game = await _game(svc, ON_0, CHANNEL_0)
    texts = [f"post {k}" for k in range(12)]
    for k, text in enumerate(texts):
        await svc.storage.outbox.enqueue(game, [Post(CHANNEL_0 + k % 3, Message(text))], k)
    other = await open_service(database)
    sent: list[tuple[int, str]] = []
    deliverers = [Deliverer(DiscordSender(_Client(sent)), s.storage) for s in (svc, other, svc, other)]  # type: ignore[arg-type]
    await asyncio.gather(*(d.settle() for d in deliverers))
    posted = [text for _, text in sent if text.startswith("post")]
    assert sorted(posted) == sorted(texts), "each once"
    for k in range(3):
        mine = [text for channel, text in sent if channel == CHANNEL_0 + k and text.startswith("post")]
        assert mine == texts[k::3], "in order within its channel"
    assert {r.state for r in await svc.storage.outbox.heads()} == set(), "nothing left"
    await other.close()
    await svc.close()


async def test_a_delivery_task_leaves_the_posts_of_other_shards_alone(database: Path | str) -> None:
    svc = await open_service(database)
    zero = await _game(svc, ON_0, CHANNEL_0)
    one = await _game(svc, ON_1, CHANNEL_1)
    await svc.storage.outbox.enqueue(zero, [Post(CHANNEL_0, Message("zero"))], 1)
    await svc.storage.outbox.enqueue(one, [Post(CHANNEL_1, Message("one"))], 1)
    sent: list[tuple[int, str]] = []
    await Deliverer(DiscordSender(_Client(sent)), svc.storage, shards=Shards(2, (1,))).settle()  # type: ignore[arg-type]
    assert {channel for channel, _ in sent} == {CHANNEL_1}
    assert [h.channel for h in await svc.storage.outbox.heads()] == [CHANNEL_0], "left for shard 0"
    await svc.close()
