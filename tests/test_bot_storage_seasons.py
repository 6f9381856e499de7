"""The storage contract's seasons part (`bot.storage.seasons_protocol`), on each backend: a server's
season settings, the running season, closing it once with its post and the next season, past
seasons and titles, and the results of a season's games."""

from __future__ import annotations

import asyncio

from test_bot_storage_contract import ANN, BOB, CHANNEL, commit, move, placing, running_game

from bot.results import Message, Post
from bot.storage import StorageProtocol
from bot.storage.rows import Season, SeasonSettings
from bot.storage.shards import Shards, shard_of

GUILD = 2**55
HALL = 1575893277096280073
"""A channel's id as Discord gives them (past 32 bits)."""


async def test_a_season_is_configured_closed_once_with_its_post_and_followed_by_the_next(
    store: StorageProtocol,
) -> None:
    assert await store.seasons.settings(GUILD) is None and await store.seasons.running(GUILD) is None
    first = Season(GUILD, 1, 100, 200)
    monthly = SeasonSettings(GUILD, "month", HALL, "de")
    assert await store.seasons.configure(monthly, first) == first
    assert await store.seasons.settings(GUILD) == monthly
    again = await store.seasons.configure(
        SeasonSettings(GUILD, "quarter", CHANNEL + 1, "fr"), Season(GUILD, 1, 0, 9)
    )
    assert again == first, "a running season keeps its bounds when the settings change"
    assert await store.seasons.settings(GUILD) == SeasonSettings(GUILD, "quarter", CHANNEL + 1, "fr")
    assert await store.seasons.due(199) == [] and await store.seasons.due(200) == [first]
    on, off = shard_of(GUILD, 4), (shard_of(GUILD, 4) + 1) % 4
    assert await store.seasons.due(200, Shards(4, (on,))) == [first]
    assert await store.seasons.due(200, Shards(4, (off,))) == []

    second = Season(GUILD, 2, 200, 300)
    post = [Post(CHANNEL + 1, Message("🏆 Ann"))]
    ids = await store.seasons.close(first, champion=f"user:{ANN}", name="Ann", posts=post, now=201,
                                    following=second)  # fmt: skip
    assert ids is not None and len(ids) == 1
    again_ids = await store.seasons.close(first, champion=f"user:{BOB}", name="Bob", posts=post, now=202,
                                          following=Season(GUILD, 3, 0, 1))  # fmt: skip
    assert again_ids is None, "a season is closed and announced once"
    row = await store.outbox.get(ids[0])
    assert row is not None and row.channel == CHANNEL + 1 and row.game is None
    assert await store.seasons.running(GUILD) == second
    assert await store.seasons.past(GUILD) == [Season(GUILD, 1, 100, 200, f"user:{ANN}", "Ann", 201)]
    assert await store.seasons.titles(GUILD, f"user:{ANN}") == await store.seasons.past(GUILD)
    assert await store.seasons.titles(GUILD, f"user:{BOB}") == []
    assert await store.seasons.due(1000) == [second]

    assert (
        await store.seasons.close(second, champion=None, name=None, posts=[], now=301, following=None) == []
    )
    assert await store.seasons.running(GUILD) is None and await store.seasons.due(1000) == []
    assert [s.number for s in await store.seasons.past(GUILD)] == [2, 1], "the newest first"
    assert await store.seasons.past(GUILD + 1) == []


async def test_seasons_turned_off_drop_the_running_one_and_two_starts_at_once_store_one(
    store: StorageProtocol,
) -> None:
    monthly = SeasonSettings(GUILD, "month", CHANNEL, "en")
    starts = await asyncio.gather(
        *(store.seasons.configure(monthly, Season(GUILD, 1, 10 * k, 100)) for k in range(3))
    )
    assert len(set(starts)) == 1 and await store.seasons.running(GUILD) == starts[0]
    assert await store.seasons.configure(SeasonSettings(GUILD, "off", CHANNEL, "en"), None) is None
    assert await store.seasons.running(GUILD) is None and await store.seasons.past(GUILD) == []
    assert await store.seasons.due(10**9) == []
    assert (await store.seasons.settings(GUILD) or monthly).length == "off"


async def test_a_seasons_results_are_the_games_finished_in_it_in_the_order_they_ended(
    store: StorageProtocol,
) -> None:
    places = [placing(0, f"user:{ANN}", "Ann", 1, 30.0, ANN), placing(1, f"user:{BOB}", "Bob", 2, 28.0, BOB)]
    for k, now in enumerate((50, 100, 150, 200)):
        game = await running_game(store, channel=CHANNEL + k, guild=GUILD, now=now - 5)
        done = await commit(store, game, 0, move(1, 0), placings=places, guild=GUILD, status="over", now=now)
        assert done is not None
    other = await running_game(store, channel=CHANNEL + 9, guild=GUILD + 1, now=120)
    done = await commit(store, other, 0, move(1, 0), placings=places, guild=GUILD + 1, status="over", now=120)
    assert done is not None
    results = await store.seasons.results(GUILD, 100, 200)
    assert results == [places, places], "from the start until before the end, this server's only"
    assert await store.seasons.results(GUILD, 0, 10) == []
    assert len(await store.seasons.results(GUILD, 0, 1000)) == 4
