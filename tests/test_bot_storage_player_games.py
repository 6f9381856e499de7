"""The storage's queries behind a player's games at a glance (`GamesProtocol.games_of`,
`OutboxProtocol.last_posts`), the same assertions on each backend."""

from __future__ import annotations

from test_bot_storage_contract import ANN, BOB, CID, running_game

from bot.results import Message, Post
from bot.storage import StorageProtocol
from bot.storage.rows import Prefs


async def test_a_players_open_games_in_every_server_come_newest_first_with_their_seats(
    store: StorageProtocol,
) -> None:
    first = await running_game(store, channel=501, guild=1, now=10)
    lobby = await store.games.create_lobby(
        guild=2, channel=601, host=CID, host_name="Cid", setup="beginner", players_wanted=3, now=30
    )
    assert await store.games.join_lobby(lobby, ANN, "Ann", 3, 30) == "joined"
    second = await running_game(store, channel=502, guild=2, now=20)
    ended = await running_game(store, channel=503, guild=1, now=40)
    assert await store.games.set_status(ended, "over", now=40)
    others = await store.games.create_lobby(
        guild=1, channel=504, host=CID, host_name="Cid", setup="beginner", players_wanted=2, now=50
    )

    mine = await store.games.games_of(ANN, 10)
    assert [row.id for row, _ in mine] == [lobby, second, first], "open ones only, newest change first"
    assert [row.guild for row, _ in mine] == [2, 2, 1]
    assert [[s.user_id for s in seats] for _, seats in mine] == [[CID, ANN], [ANN, BOB], [ANN, BOB]]
    assert [row.id for row, _ in await store.games.games_of(ANN, 2)] == [lobby, second]
    assert [row.id for row, _ in await store.games.games_of(CID, 10)] == [others, lobby]
    assert await store.games.games_of(99, 10) == []


async def test_a_resigned_seat_is_not_one_of_the_players_games(store: StorageProtocol) -> None:
    game = await running_game(store)
    await store.moves.commit_moves(
        game, based_on=0, moves=[], record={}, snapshot={}, status="active", highlight=[], secrets=[],
        now=5, resign=1,
    )  # fmt: skip
    assert [row.id for row, _ in await store.games.games_of(ANN, 10)] == [game]
    assert await store.games.games_of(BOB, 10) == []


async def test_a_games_last_post_is_its_last_message_sent_not_an_edit_nor_one_still_pending(
    store: StorageProtocol,
) -> None:
    game = await running_game(store, channel=501)
    quiet = await running_game(store, channel=502)
    [start] = [h.id for h in await store.outbox.heads() if h.channel == 501]
    await store.outbox.sent(start, 9001, 1)
    assert await store.outbox.last_posts([game, quiet]) == {game: (501, 9001)}
    ids = await store.outbox.enqueue(game, [Post(501, Message("edited"), edits=9001)], 2)
    await store.outbox.sent(ids[0], 9001, 3)
    later = await store.outbox.enqueue(game, [Post(501, Message("next turn"))], 4)
    assert await store.outbox.last_posts([game]) == {game: (501, 9001)}, "an edit and a pending post"
    await store.outbox.sent(later[0], 9002, 5)
    assert await store.outbox.last_posts([game]) == {game: (501, 9002)}
    assert await store.outbox.last_posts([]) == {}


async def test_a_players_digest_of_a_day_is_taken_once_and_those_who_want_one_are_listed(
    store: StorageProtocol,
) -> None:
    await store.players.set_prefs(Prefs(ANN, digest_at=18 * 60, utc_offset=60))
    await store.players.set_prefs(Prefs(BOB))
    assert [(p.user_id, p.digest_at, p.utc_offset) for p in await store.players.digests()] == [
        (ANN, 1080, 60)
    ]
    assert await store.players.claim_digest(ANN, 20000)
    assert not await store.players.claim_digest(ANN, 20000), "that day's is taken"
    assert not await store.players.claim_digest(ANN, 19999)
    assert await store.players.claim_digest(ANN, 20001)
    await store.players.set_prefs(Prefs(ANN, digest_at=None))
    assert await store.players.digests() == []
    [ann] = (await store.players.prefs([ANN])).values()
    assert ann.digest_day == 20001, "setting one's preferences keeps the last digest's day"
