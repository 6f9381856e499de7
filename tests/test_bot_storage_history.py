"""The storage contract's history part (`bot.storage.protocol`), on each backend: results and
ratings of finished games, the leaderboard, replays, and a player forgotten."""

from __future__ import annotations

from test_bot_storage_contract import ANN, BOB, CHANNEL, commit, move, placing, running_game

from bot.results import Message, Post
from bot.storage import StorageProtocol
from bot.storage.rows import FORMER, Rating


async def test_the_history_keeps_results_ratings_and_forgets_a_player(store: StorageProtocol) -> None:
    guild = 2**55
    game = await running_game(store, guild=guild)
    places = [placing(0, f"user:{ANN}", "Ann", 1, 30.0, ANN), placing(1, f"user:{BOB}", "Bob", 2, 28.0, BOB)]
    posts = [Post(CHANNEL, Message("end")), Post(CHANNEL, Message("scores"))]
    ids = await commit(store, game, 0, move(1, 0), posts=posts, placings=places, guild=guild, status="over")
    assert ids is not None and await store.history.game_results(game) == places
    other = await running_game(store, channel=CHANNEL + 1, guild=guild, now=5)
    later = [placing(0, f"user:{ANN}", "Ann", 2, 31.0, ANN), placing(1, "computer:basic", "Comp", 1, 33.0),
             placing(2, "Computer:basic", "Comp", 3, 33.0)]  # fmt: skip
    done = await commit(store, other, 0, move(1, 0), placings=later, guild=guild, status="over", now=20)
    assert done is not None
    board = await store.history.leaderboard(guild)
    assert [(s.player, s.games) for s in board] == [
        ("Computer:basic", 1), ("computer:basic", 1), (f"user:{ANN}", 2), (f"user:{BOB}", 1)
    ], "best first; ties by games, then by key in code-point order"  # fmt: skip
    assert await store.history.ratings(guild, [f"user:{ANN}", "nobody"]) == {f"user:{ANN}": Rating(31.0, 7.5)}
    results = await store.history.results_of(guild, f"user:{ANN}")
    assert [(r.game, r.ended_at, r.place.rank) for r in results] == [(game, 10, 1), (other, 20, 2)]
    await store.outbox.sent(ids[0], 777, 30)
    finished = await store.history.finished_games(guild, 5)
    assert [(f.game, f.ended_at, f.message_id, len(f.places)) for f in finished] == [
        (other, 20, None, 3), (game, 10, 777, 2)
    ]  # fmt: skip
    assert await store.history.finished_games(guild + 1, 5) == []
    assert [f.game for f in await store.history.finished_games(guild, 1)] == [other], "the newest first"
    assert [f.game for f in await store.history.finished_games(guild, 5, other)] == [game], "the next page"
    assert await store.history.finished_games(guild, 5, game) == []
    assert await store.history.unreplayed() == [game, other]
    assert await store.history.store_replay(game, [Post(CHANNEL, Message("gif"))], 40)
    assert await store.history.store_replay(game, [Post(CHANNEL, Message("gif"))], 41) is None
    assert await store.history.unreplayed() == [other]
    assert [
        await store.history.games_to_forget(guild, ANN),
        await store.history.games_to_forget(guild + 1, ANN),
    ] == [2, 0]
    assert await store.history.forget(guild, ANN) == 2
    assert (
        await store.history.games_to_forget(guild, ANN) == 0
        and await store.history.games_to_forget(guild, BOB) == 2
    )
    row = await store.games.game(game)
    assert row is not None and row.record is not None and row.snapshot is not None
    assert row.record["players"] == [FORMER, "Bob"] and row.record["seed"] == 1
    assert row.snapshot["players"][0] == {"name": FORMER, "gold": 1}
    assert [s.name for s in await store.games.seats(game)] == [FORMER, "Bob"]
    assert await store.history.ratings(guild, [f"user:{ANN}"]) == {}
    assert {p.player for p in await store.history.game_results(game)} == {"former", f"user:{BOB}"}
