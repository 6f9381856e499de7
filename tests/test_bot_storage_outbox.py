"""The storage contract's outbox (`bot.storage.protocol`), the same assertions on each backend:
each channel's posts in id order and their marks, held and released channels, a paused game
moving to another channel, waking the delivery, forgetting old posts."""

from __future__ import annotations

import asyncio

from test_bot_storage_contract import ANN, BOB, CHANNEL, commit, move, running_game
from test_bot_support import query

from bot.results import DirectMessage, Message, Picture, Post
from bot.storage import StorageProtocol
from bot.storage.outbox import MISSING
from bot.storage.postgres import PostgresStorage


async def test_the_outbox_gives_each_channel_its_posts_in_id_order(store: StorageProtocol) -> None:
    game = await running_game(store)  # its start post is id 1, in CHANNEL
    picture = Picture("board.png", b"PNG" * 100, "the board")
    post = Post(
        CHANNEL + 1, Message("one", pictures=(picture,)), (DirectMessage(ANN, "a"), DirectMessage(BOB, "b"))
    )
    [a] = await store.enqueue(game, [post], 1)
    [b, c] = await store.enqueue(
        None, [Post(CHANNEL, Message("two")), Post(CHANNEL + 1, Message("three"))], 2
    )
    assert 1 < a < b < c
    heads = await store.outbox_heads()
    assert [(h.id, h.channel, h.image) for h in heads] == [(1, CHANNEL, None), (a, CHANNEL + 1, None)]
    row = await store.outbox(a)
    assert row is not None and row.image == picture.data and row.state == "pending" and row.game == game
    assert row.nonce.endswith(f".{a}") and len(row.nonce) <= 25 and row.dms_done == {}
    await store.outbox_dm_done(a, 0, 2**60)
    await store.outbox_dm_done(a, 1, -5)
    await store.outbox_dm_done(a, 1, 0)
    await store.outbox_trying(a, 7)
    await store.outbox_trying(a, 8)
    row = await store.outbox(a)
    assert row is not None and (row.dms_done, row.attempts, row.tried_at) == ({0: 2**60, 1: 0}, 2, 8)
    assert await store.set_blocked(game, "Embed Links") and not await store.set_blocked(game, "Embed Links")
    await store.outbox_sent(a, 4242, 9)
    row = await store.outbox(a)
    assert row is not None and (row.state, row.message_id, row.image, row.error) == ("sent", 4242, None, None)
    assert await query(store, "SELECT outbox FROM outbox_files WHERE outbox = ?", a) == [], (
        "the file is deleted"
    )
    assert (await store.game(game)).blocked is None  # type: ignore[union-attr]
    assert (await store.outbox_head(CHANNEL + 1)).id == c  # type: ignore[union-attr]
    await store.outbox_retry(c, 100, f"{MISSING}Attach Files")
    await store.outbox_retry(b, 100, "503 " + "x" * 600)
    await store.outbox_unblock()
    assert [(r.id, r.next_try) for r in await store.outbox_heads()] == [(1, 0), (c, 0)]
    assert len((await store.outbox(b)).error or "") == 500  # type: ignore[union-attr]
    await store.outbox_failed(1, "400 malformed")
    assert (await store.outbox_head(CHANNEL)).id == b  # type: ignore[union-attr]
    assert await store.hold_channel(CHANNEL, "channel deleted", 20) == [game]
    assert await store.outbox_head(CHANNEL) is None
    assert (await store.outbox(b)).state == "held"  # type: ignore[union-attr]
    assert (await store.game(game)).paused == "channel deleted"  # type: ignore[union-attr]


async def test_a_released_channel_sends_its_held_posts_again_and_its_games_go_on(
    store: StorageProtocol,
) -> None:
    game = await running_game(store)
    while (head := await store.outbox_head(CHANNEL)) is not None:  # the start's post
        await store.outbox_sent(head.id, 1, 1)
    a, b, elsewhere = await store.enqueue(
        game, [Post(CHANNEL, Message("a")), Post(CHANNEL, Message("b")), Post(CHANNEL + 1, Message("x"))], 2
    )
    assert (await store.outbox_claim(CHANNEL, "me", 3, 60)).id == a  # type: ignore[union-attr]
    await store.outbox_trying(a, 3)
    assert await store.hold_channel(CHANNEL, "the thread is archived and locked", 4) == [game]
    assert await store.hold_channel(CHANNEL + 1, "channel deleted", 4) == []
    assert await store.release_channel(CHANNEL, 9) == [game]
    row = await store.game(game)
    assert row is not None and (row.paused, row.updated_at) == (None, 9)
    claimed = await store.outbox_claim(CHANNEL, "another process", 10, 70)
    assert claimed is not None and (claimed.id, claimed.state, claimed.error) == (a, "pending", None)
    assert claimed.tried_at == 3, "a post tried before the hold is looked for before it is sent again"
    assert (await store.outbox(b)).state == "pending"  # type: ignore[union-attr]
    assert (await store.outbox(elsewhere)).state == "held", "another channel's posts stay held"  # type: ignore[union-attr]
    assert await store.release_channel(CHANNEL, 11) == [], "nothing is paused there any more"


async def test_a_paused_game_moves_to_another_channel_with_its_held_posts(store: StorageProtocol) -> None:
    game = await running_game(store)
    while (head := await store.outbox_head(CHANNEL)) is not None:  # the start's post
        await store.outbox_sent(head.id, 1, 1)
    a, b = await store.enqueue(game, [Post(CHANNEL, Message("a")), Post(CHANNEL, Message("b"))], 2)
    (not_the_games,) = await store.enqueue(None, [Post(CHANNEL, Message("a lobby's"))], 2)
    assert (await store.outbox_claim(CHANNEL, "me", 3, 60)).id == a  # type: ignore[union-attr]
    await store.outbox_trying(a, 3)
    nonce = (await store.outbox(a)).nonce  # type: ignore[union-attr]
    assert await store.move_game(game, CHANNEL + 5, 4) is None, "a game that is not paused stays"
    assert await store.hold_channel(CHANNEL, "the channel was deleted", 4) == [game]
    assert [g.id for g in await store.paused_games(1)] == [game] and await store.paused_games(2) == []
    busy = await running_game(store, channel=CHANNEL + 6)
    assert await store.move_game(game, CHANNEL + 6, 5) is None, "a channel holds one open game"
    assert await store.move_game(game, CHANNEL + 5, 9) == 2
    row = await store.game(game)
    assert row is not None and (row.channel, row.paused, row.updated_at) == (CHANNEL + 5, None, 9)
    assert (await store.open_game(CHANNEL + 5)).id == game and await store.open_game(CHANNEL) is None  # type: ignore[union-attr]
    assert await store.paused_games(1) == []
    claimed = await store.outbox_claim(CHANNEL + 5, "another process", 10, 70)
    assert claimed is not None and (claimed.id, claimed.state, claimed.error, claimed.tried_at) == (
        a, "pending", None, None,
    ), "due at once, never tried in its new channel"  # fmt: skip
    assert claimed.nonce != nonce and claimed.nonce.endswith(f".{a}")
    assert (await store.outbox(b)).channel == CHANNEL + 5  # type: ignore[union-attr]
    left = await store.outbox(not_the_games)
    assert left is not None and (left.channel, left.state) == (CHANNEL, "held"), "only the game's posts move"
    assert await store.move_game(game, CHANNEL + 7, 11) is None, "no longer paused"
    assert (await store.game(busy)).channel == CHANNEL + 6  # type: ignore[union-attr]


async def test_storing_posts_wakes_the_delivery(store: StorageProtocol) -> None:
    woken: list[int] = []
    store.on_enqueue = lambda: woken.append(1)
    game = await running_game(store)
    assert woken, "the start's post"
    woken.clear()
    assert await commit(store, game, 0, move(1, 0)) == []
    assert await commit(store, game, 0, move(1, 0), posts=[Post(CHANNEL)]) is None
    assert not woken, "nothing was stored"
    await store.enqueue(game, [Post(CHANNEL, Message("x"))], 1)
    assert woken


async def test_old_sent_posts_are_forgotten_but_a_game_s_last_post_and_unsent_ones_stay(
    store: StorageProtocol,
) -> None:
    game = await running_game(store, now=5)
    [first] = await commit(store, game, 0, move(1, 0), posts=[Post(CHANNEL, Message("move 1"))]) or [0]
    [last] = await commit(store, game, 1, move(2, 0), posts=[Post(CHANNEL, Message("move 2"))]) or [0]
    sent, failed, pending, recent, held = await store.enqueue(
        None, [Post(CHANNEL + 1 + k, Message(f"{k}")) for k in range(5)], 10
    )
    for head in await store.outbox_heads():
        if head.id not in (failed, pending, recent, held):
            await store.outbox_sent(head.id, 1, 20)
    while (head := await store.outbox_head(CHANNEL)) is not None:
        await store.outbox_sent(head.id, 1, 20)
    await store.outbox_failed(failed, "400 malformed")
    await store.outbox_sent(recent, 1, 200)
    assert await store.hold_channel(CHANNEL + 5, "channel deleted", 20) == []
    assert await store.prune_outbox(100) == 4, "the start post, move 1's, the sent and the failed one"
    left = [r["id"] for r in await query(store, "SELECT id FROM outbox ORDER BY id")]
    assert left == [last, pending, recent, held]
    assert first not in left and sent not in left
    assert await store.prune_outbox(100) == 0


async def test_a_sent_post_tells_whether_another_of_its_channel_is_pending(store: StorageProtocol) -> None:
    one, two, elsewhere = await store.enqueue(
        None, [Post(CHANNEL, Message("1")), Post(CHANNEL, Message("2")), Post(CHANNEL + 1, Message("x"))], 0
    )
    assert await store.outbox_sent(one, 11, 1) is True, "two waits behind it"
    assert await store.outbox_sent(two, 12, 2) is False, "another channel's post does not count"
    assert (await store.outbox(two)).state == "sent"  # type: ignore[union-attr]
    assert [h.id for h in await store.outbox_heads()] == [elsewhere]


async def test_a_post_being_stored_is_not_overtaken_by_a_later_one(postgres: str) -> None:
    """PostgreSQL: a channel's ids are taken in commit order (an advisory lock per channel)."""
    first, second = await PostgresStorage.open(postgres), await PostgresStorage.open(postgres)
    async with first._transaction() as conn:
        [mine] = await first._enqueue(conn, None, [Post(CHANNEL, Message("first"))], 0)
        elsewhere = await asyncio.wait_for(second.enqueue(None, [Post(CHANNEL + 1, Message("x"))], 0), 5)
        later = asyncio.create_task(second.enqueue(None, [Post(CHANNEL, Message("second"))], 0))
        await asyncio.sleep(0.3)
        assert not later.done(), "waits for the first transaction of its channel"
        assert await second.outbox_heads() == [await second.outbox(elsewhere[0])]
        [again] = await first._enqueue(conn, None, [Post(CHANNEL, Message("first, again"))], 0)
    [theirs] = await later
    assert mine < again < theirs, "the waiting post took its id only once it had the channel's lock"
    assert [h.id for h in await second.outbox_heads()] == [mine, *elsewhere]
    await first.close()
    await second.close()
