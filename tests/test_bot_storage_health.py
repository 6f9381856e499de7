"""The storage contract's figures for the operator (`OutboxProtocol.backlog`, `GamesProtocol.by_state`),
the same assertions on each backend: what ``/readyz`` and ``/metrics`` read (`bot.service.health`)."""

from __future__ import annotations

from test_bot_storage_contract import ANN, CHANNEL, ON_0, ON_1, running_game

from bot.results import Message, Post
from bot.storage import StorageProtocol
from bot.storage.protocol import MISSING
from bot.storage.rows import Backlog
from bot.storage.shards import Shards


async def test_the_backlog_counts_the_posts_waiting_and_the_oldest_one_s_time(store: StorageProtocol) -> None:
    assert await store.outbox.backlog() == Backlog(0, None)
    game = await running_game(store, now=100)  # its start post, stored at 100
    posts = [Post(CHANNEL, Message("later")), *(Post(CHANNEL + k, Message("x")) for k in (1, 2))]
    [later, blocked, _held] = await store.outbox.enqueue(game, posts, 130)
    assert await store.outbox.backlog() == Backlog(4, 100)
    await store.outbox.retry(blocked, 10_000, f"{MISSING}Send Messages")  # the server's admins must act
    await store.outbox.hold_channel(CHANNEL + 2, "channel deleted", 140)  # its game paused
    assert await store.outbox.backlog() == Backlog(2, 100), "waiting for a permission or held: not counted"
    [first] = [h.id for h in await store.outbox.heads() if h.channel == CHANNEL]
    await store.outbox.retry(first, 10_000, "503 Service Unavailable")  # Discord failed: still waiting
    assert await store.outbox.backlog() == Backlog(2, 100)
    await store.outbox.sent(first, 1, 150)
    assert await store.outbox.backlog() == Backlog(1, 130)
    await store.outbox.failed(later, "refused")
    assert await store.outbox.backlog() == Backlog(0, None)


async def test_the_backlog_and_the_games_by_state_are_of_the_process_s_shards(store: StorageProtocol) -> None:
    await running_game(store, CHANNEL, guild=ON_0, now=5)
    await running_game(store, CHANNEL + 1, guild=ON_1, now=7)
    await store.games.create_lobby(
        guild=ON_1, channel=CHANNEL + 2, host=ANN, host_name="Ann", setup="beginner", players_wanted=2, now=9
    )
    assert await store.outbox.backlog(Shards(2, (0,))) == Backlog(1, 5)
    assert await store.outbox.backlog(Shards(2, (1,))) == Backlog(1, 7)
    assert await store.games.by_state(Shards(2, (0,))) == {"active": 1}
    assert await store.games.by_state(Shards(2, (1,))) == {"active": 1, "lobby": 1}
    await store.outbox.hold_channel(CHANNEL, "channel deleted", 20)
    assert await store.games.by_state() == {"paused": 1, "active": 1, "lobby": 1}, (
        "a game whose channel is gone"
    )
