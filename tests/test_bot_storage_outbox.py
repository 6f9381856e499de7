"""The storage contract's outbox (`bot.storage.protocol`), the same assertions on each backend:
each channel's posts in id order and their marks, held and released channels, a paused game
moving to another channel, waking the delivery, forgetting old posts."""

from __future__ import annotations

import asyncio

import pytest
from test_bot_storage_contract import ANN, BOB, CHANNEL, commit, move, running_game
from test_bot_support import query

from bot.results import DirectMessage, Message, Picture, Post
from bot.service.delivery import dm_nonce
from bot.storage import StorageProtocol
from bot.storage.postgres import PostgresStorage
from bot.storage.postgres.outbox import store_posts
from bot.storage.protocol import MISSING
from bot.storage.sqlite import Storage


async def test_the_outbox_gives_each_channel_its_posts_in_id_order(store: StorageProtocol) -> None:
    game = await running_game(store)  # its start post is id 1, in CHANNEL
    picture = Picture("board.png", b"PNG" * 100, "the board")
    post = Post(
        CHANNEL + 1, Message("one", pictures=(picture,)), (DirectMessage(ANN, "a"), DirectMessage(BOB, "b"))
    )
    [a] = await store.outbox.enqueue(game, [post], 1)
    [b, c] = await store.outbox.enqueue(
        None, [Post(CHANNEL, Message("two")), Post(CHANNEL + 1, Message("three"))], 2
    )
    assert 1 < a < b < c
    heads = await store.outbox.heads()
    assert [(h.id, h.channel, h.image) for h in heads] == [(1, CHANNEL, None), (a, CHANNEL + 1, None)]
    row = await store.outbox.get(a)
    assert row is not None and row.image == picture.data and row.state == "pending" and row.game == game
    assert row.nonce.endswith(f".{a:x}") and len(row.nonce) <= 25 and row.dms_done == {}
    await store.outbox.dm_done(a, 0, 2**60)
    await store.outbox.dm_done(a, 1, -5)
    await store.outbox.dm_done(a, 1, 0)
    await store.outbox.trying(a, 7)
    await store.outbox.trying(a, 8)
    row = await store.outbox.get(a)
    assert row is not None and (row.dms_done, row.attempts, row.tried_at) == ({0: 2**60, 1: 0}, 2, 8)
    assert await store.games.set_blocked(game, "Embed Links") and not await store.games.set_blocked(
        game, "Embed Links"
    )
    await store.outbox.sent(a, 4242, 9)
    row = await store.outbox.get(a)
    assert row is not None and (row.state, row.message_id, row.image, row.error) == ("sent", 4242, None, None)
    assert await query(store, "SELECT outbox FROM outbox_files WHERE outbox = ?", a) == [], (
        "the file is deleted"
    )
    assert (await store.games.game(game)).blocked is None  # type: ignore[union-attr]
    assert (await store.outbox.head(CHANNEL + 1)).id == c  # type: ignore[union-attr]
    await store.outbox.retry(c, 100, f"{MISSING}Attach Files")
    await store.outbox.retry(b, 100, "503 " + "x" * 600)
    await store.outbox.unblock()
    assert [(r.id, r.next_try) for r in await store.outbox.heads()] == [(1, 0), (c, 0)]
    assert len((await store.outbox.get(b)).error or "") == 500  # type: ignore[union-attr]
    await store.outbox.failed(1, "400 malformed")
    assert (await store.outbox.head(CHANNEL)).id == b  # type: ignore[union-attr]
    assert await store.outbox.hold_channel(CHANNEL, "channel deleted", 20) == [game]
    assert await store.outbox.hold_channel(CHANNEL, "channel deleted", 21) == [], "paused already: not again"
    assert await store.outbox.head(CHANNEL) is None
    assert (await store.outbox.get(b)).state == "held"  # type: ignore[union-attr]
    assert (await store.games.game(game)).paused == "channel deleted"  # type: ignore[union-attr]


async def test_a_released_channel_sends_its_held_posts_again_and_its_games_go_on(
    store: StorageProtocol,
) -> None:
    game = await running_game(store)
    while (head := await store.outbox.head(CHANNEL)) is not None:  # the start's post
        await store.outbox.sent(head.id, 1, 1)
    a, b, elsewhere = await store.outbox.enqueue(
        game, [Post(CHANNEL, Message("a")), Post(CHANNEL, Message("b")), Post(CHANNEL + 1, Message("x"))], 2
    )
    assert (await store.outbox.claim(CHANNEL, "me", 3, 60)).id == a  # type: ignore[union-attr]
    await store.outbox.trying(a, 3)
    assert await store.outbox.hold_channel(CHANNEL, "the thread is archived and locked", 4) == [game]
    assert await store.outbox.hold_channel(CHANNEL + 1, "channel deleted", 4) == []
    assert await store.outbox.release_channel(CHANNEL, 9) == [game]
    row = await store.games.game(game)
    assert row is not None and (row.paused, row.updated_at) == (None, 9)
    claimed = await store.outbox.claim(CHANNEL, "another process", 10, 70)
    assert claimed is not None and (claimed.id, claimed.state, claimed.error) == (a, "pending", None)
    assert claimed.tried_at == 3, "a post tried before the hold is looked for before it is sent again"
    assert (await store.outbox.get(b)).state == "pending"  # type: ignore[union-attr]
    assert (await store.outbox.get(elsewhere)).state == "held", "another channel's posts stay held"  # type: ignore[union-attr]
    assert await store.outbox.release_channel(CHANNEL, 11) == [], "nothing is paused there any more"


async def test_a_paused_game_moves_to_another_channel_with_its_held_posts(store: StorageProtocol) -> None:
    game = await running_game(store)
    while (head := await store.outbox.head(CHANNEL)) is not None:  # the start's post
        await store.outbox.sent(head.id, 1, 1)
    a, b = await store.outbox.enqueue(game, [Post(CHANNEL, Message("a")), Post(CHANNEL, Message("b"))], 2)
    (not_the_games,) = await store.outbox.enqueue(None, [Post(CHANNEL, Message("a lobby's"))], 2)
    assert (await store.outbox.claim(CHANNEL, "me", 3, 60)).id == a  # type: ignore[union-attr]
    await store.outbox.trying(a, 3)
    nonce = (await store.outbox.get(a)).nonce  # type: ignore[union-attr]
    assert await store.games.move_game(game, CHANNEL + 5, 4) is None, "a game that is not paused stays"
    assert await store.outbox.hold_channel(CHANNEL, "the channel was deleted", 4) == [game]
    assert [g.id for g in await store.games.paused_games(1)] == [game] and await store.games.paused_games(
        2
    ) == []
    busy = await running_game(store, channel=CHANNEL + 6)
    assert await store.games.move_game(game, CHANNEL + 6, 5) is None, "a channel holds one open game"
    assert await store.games.move_game(game, CHANNEL + 5, 9) == 2
    row = await store.games.game(game)
    assert row is not None and (row.channel, row.paused, row.updated_at) == (CHANNEL + 5, None, 9)
    moved = await store.games.open_game(CHANNEL + 5)
    assert moved is not None and moved.id == game and await store.games.open_game(CHANNEL) is None
    assert await store.games.paused_games(1) == []
    claimed = await store.outbox.claim(CHANNEL + 5, "another process", 10, 70)
    assert claimed is not None and (claimed.id, claimed.state, claimed.error, claimed.tried_at) == (
        a, "pending", None, None,
    ), "due at once, never tried in its new channel"  # fmt: skip
    assert claimed.nonce != nonce and claimed.nonce.endswith(f".{a:x}")
    assert (await store.outbox.get(b)).channel == CHANNEL + 5  # type: ignore[union-attr]
    left = await store.outbox.get(not_the_games)
    assert left is not None and (left.channel, left.state) == (CHANNEL, "held"), "only the game's posts move"
    assert await store.games.move_game(game, CHANNEL + 7, 11) is None, "no longer paused"
    assert (await store.games.game(busy)).channel == CHANNEL + 6  # type: ignore[union-attr]


def in_transaction(store: StorageProtocol) -> bool:
    """Whether the storage holds a transaction open (SQLite: its connection is in one; PostgreSQL:
    a connection of its pool is out, as it is for a transaction only)."""
    if isinstance(store, PostgresStorage):
        return store.db.pool.get_idle_size() < store.db.pool.get_size()
    assert isinstance(store, Storage)
    return store.db.conn.in_transaction


async def test_the_delivery_is_woken_once_after_each_commit_that_stored_posts(store: StorageProtocol) -> None:
    woken: list[bool] = []  # whether a transaction was still open at each call
    store.on_enqueue = lambda: woken.append(in_transaction(store))
    game = await running_game(store)
    assert woken == [False], "the start's post: once its transaction is committed"
    two = [Post(CHANNEL, Message("one")), Post(CHANNEL + 1, Message("two"))]
    assert await commit(store, game, 0, move(1, 0), posts=two) is not None
    assert woken == [False] * 2, "one transaction, one call, however many posts and channels"
    assert await commit(store, game, 0, move(1, 0), posts=two) is None
    assert await commit(store, game, 1, move(2, 0)) == []
    assert woken == [False] * 2, "not for a commit that lost the version race, nor one without posts"
    heads = await store.outbox.heads()
    bad = Post(CHANNEL + 2, Message("bad", mentions=(object(),)))  # type: ignore[arg-type]
    with pytest.raises(TypeError):  # stored its first post, then failed: rolled back
        await store.outbox.enqueue(game, [Post(CHANNEL + 2, Message("first")), bad], 2)
    assert woken == [False] * 2 and await store.outbox.heads() == heads, "not for a transaction rolled back"
    assert await store.clocks.remind(game, reminded=[], stalled=[], posts=[Post(CHANNEL)], now=3)
    assert await store.outbox.hold_channel(CHANNEL, "channel deleted", 4) == [game]
    assert await store.games.move_game(game, CHANNEL + 5, 5) == 3, "its held posts moved: the delivery looks"
    assert woken == [False] * 4


async def test_old_sent_posts_are_forgotten_but_a_game_s_last_post_and_unsent_ones_stay(
    store: StorageProtocol,
) -> None:
    game = await running_game(store, now=5)
    [first] = await commit(store, game, 0, move(1, 0), posts=[Post(CHANNEL, Message("move 1"))]) or [0]
    [last] = await commit(store, game, 1, move(2, 0), posts=[Post(CHANNEL, Message("move 2"))]) or [0]
    sent, failed, pending, recent, held = await store.outbox.enqueue(
        None, [Post(CHANNEL + 1 + k, Message(f"{k}")) for k in range(5)], 10
    )
    for head in await store.outbox.heads():
        if head.id not in (failed, pending, recent, held):
            await store.outbox.sent(head.id, 1, 20)
    while (queued := await store.outbox.head(CHANNEL)) is not None:
        await store.outbox.sent(queued.id, 1, 20)
    await store.outbox.failed(failed, "400 malformed")
    await store.outbox.sent(recent, 1, 200)
    assert await store.outbox.hold_channel(CHANNEL + 5, "channel deleted", 20) == []
    assert await store.outbox.prune(100) == 4, "the start post, move 1's, the sent and the failed one"
    left = [r["id"] for r in await query(store, "SELECT id FROM outbox ORDER BY id")]
    assert left == [last, pending, recent, held]
    assert first not in left and sent not in left
    assert await store.outbox.prune(100) == 0


async def test_a_sent_post_tells_whether_another_of_its_channel_is_pending(store: StorageProtocol) -> None:
    one, two, elsewhere = await store.outbox.enqueue(
        None, [Post(CHANNEL, Message("1")), Post(CHANNEL, Message("2")), Post(CHANNEL + 1, Message("x"))], 0
    )
    assert await store.outbox.sent(one, 11, 1) is True, "two waits behind it"
    assert await store.outbox.sent(two, 12, 2) is False, "another channel's post does not count"
    assert (await store.outbox.get(two)).state == "sent"  # type: ignore[union-attr]
    assert [h.id for h in await store.outbox.heads()] == [elsewhere]


async def test_a_post_being_stored_is_not_overtaken_by_a_later_one(postgres: str) -> None:
    """PostgreSQL: a channel's ids are taken in commit order (an advisory lock per channel)."""
    first, second = await PostgresStorage.open(postgres), await PostgresStorage.open(postgres)
    async with first.db.transaction() as conn:
        [mine] = await store_posts(conn, None, [Post(CHANNEL, Message("first"))], 0)
        elsewhere = await asyncio.wait_for(
            second.outbox.enqueue(None, [Post(CHANNEL + 1, Message("x"))], 0), 5
        )
        later = asyncio.create_task(second.outbox.enqueue(None, [Post(CHANNEL, Message("second"))], 0))
        await asyncio.sleep(0.3)
        assert not later.done(), "waits for the first transaction of its channel"
        assert await second.outbox.heads() == [await second.outbox.get(elsewhere[0])]
        [again] = await store_posts(conn, None, [Post(CHANNEL, Message("first, again"))], 0)
    [theirs] = await later
    assert mine < again < theirs, "the waiting post took its id only once it had the channel's lock"
    assert [h.id for h in await second.outbox.heads()] == [mine, *elsewhere]
    await first.close()
    await second.close()


async def test_nonces_fit_discord_at_any_outbox_id(store: StorageProtocol) -> None:
    huge = 2**62
    if isinstance(store, PostgresStorage):
        await query(store, "SELECT setval(pg_get_serial_sequence('outbox', 'id'), ?)", huge)
    else:
        await query(
            store,
            "INSERT INTO outbox (id, channel, payload, nonce, created_at) VALUES (?, 1, '{}', 'x', 0)",
            huge,
        )
    game = await running_game(store, channel=CHANNEL + 1)
    dms = tuple(DirectMessage(user, "psst") for user in (ANN, BOB, ANN, BOB, ANN))
    [post] = await store.outbox.enqueue(game, [Post(CHANNEL, Message("hello"), dms)], 1)
    assert post > huge
    row = await store.outbox.get(post)
    assert row is not None and row.nonce.endswith(f".{post:x}")
    sent = [row.nonce, *(dm_nonce(row.nonce, k) for k in range(len(dms)))]
    assert all(len(n) <= 25 for n in sent) and len(set(sent)) == len(sent), sent
    await store.outbox.hold_channel(CHANNEL + 1, "the channel was deleted", 2)
    assert await store.games.move_game(game, CHANNEL + 2, 3) is not None
    moved = [h for h in await store.outbox.heads() if h.channel == CHANNEL + 2]
    assert moved and all(len(h.nonce) <= 23 for h in moved), "a moved post's new nonce fits too"
