"""The outbox and idempotent requests at the service layer: every announcement is stored with
the change it announces, a second copy of a request applies once, lobby races answer what
happened, and the computer players answer after the mover, one stored post per move."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from test_bot_support import CHANNEL, PLAYERS, PNG, FakeClock, current, open_service, query, start_game

from bot.errors import AlreadyMade, LobbyError
from bot.results import DirectMessage, Message, Post
from bot.service import absence as svc_absence
from bot.service import advance as svc_advance
from bot.service import lobby as svc_lobby
from bot.service import moves as svc_moves
from bot.service import tick as svc_tick
from bot.service import undo as svc_undo
from bot.service.context import Context
from bot.storage import envelope

ANN, BOB, CID = PLAYERS[:3]


async def pending_posts(svc: Context) -> list[tuple[int, str, int | None]]:
    rows = await query(svc.storage, "SELECT id, state, version FROM outbox ORDER BY id")
    return [(r["id"], r["state"], r["version"]) for r in rows]


async def test_a_move_and_its_announcement_are_stored_together(database: Path | str) -> None:
    svc = await open_service(database)
    started = await start_game(svc, 2)
    assert len(started.outbox) == 1
    seat = (await current(svc)).pending_seats()[0]
    played = await svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL)
    [oid] = played.outbox
    row = await svc.storage.outbox.get(oid)
    assert row is not None and row.state == "pending" and row.version == 1
    post = envelope.load(row.channel, row.payload, row.image)
    assert played.announcement is not None and played.announcement.pictures[0].data == PNG
    # Its pictures are not stored but what they are drawn from (test_bot_drawings).
    stored = replace(played.announcement, pictures=())
    assert row.channel == CHANNEL and post.message_for() == stored and stored.drawing is not None
    assert len(row.nonce) <= 25 and row.nonce != (await svc.storage.outbox.get(started.outbox[0])).nonce  # type: ignore[union-attr]
    await svc.close()


async def test_a_move_that_loses_the_race_stores_no_announcement(svc: Context) -> None:
    await start_game(svc, 2)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None and row.record is not None and row.snapshot is not None
    before = await pending_posts(svc)
    kw = dict(
        moves=[], record=row.record, snapshot=row.snapshot, status="active", highlight=[], secrets=[], now=0
    )
    from bot.results import Message, Post

    post = Post(CHANNEL, Message("never"))
    assert await svc.storage.moves.commit_moves(row.id, based_on=7, posts=[post], **kw) is None  # type: ignore[arg-type]
    assert await pending_posts(svc) == before


async def test_a_retried_move_is_told_it_counted(svc: Context) -> None:
    await start_game(svc, 2)
    seat = (await current(svc)).pending_seats()[0]
    await svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL)
    with pytest.raises(
        AlreadyMade, match=r"Your move `gold` was already made \(move 1, .*\) and counts\. Next:"
    ):
        await svc_moves.play(svc, PLAYERS[seat].id, "  GOLD ", channel=CHANNEL)


async def test_two_copies_of_a_typed_move_apply_once(svc: Context) -> None:
    await start_game(svc, 2)
    seat = (await current(svc)).pending_seats()[0]
    first, second = await asyncio.gather(
        svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL),
        svc_moves.play(svc, PLAYERS[seat].id, "gold", channel=CHANNEL),
        return_exceptions=True,
    )
    # whichever copy takes the game's lock first (the database's answers may come in either order) is played
    played = [r for r in (first, second) if not isinstance(r, BaseException)]
    refused = [r for r in (first, second) if isinstance(r, BaseException)]
    assert len(played) == 1 and played[0].outbox
    assert len(refused) == 1 and isinstance(refused[0], AlreadyMade) and "already made" in str(refused[0])
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None and row.version == 1


async def test_two_copies_of_undo_take_back_one_move(svc: Context) -> None:
    await start_game(svc, 2)
    for _ in range(2):  # two quiet moves: building reveals nothing
        game = await current(svc)
        seat = game.pending_seats()[0]
        move = next(m for m in game.legal_moves(seat) if m.verb == "build")
        await svc_moves.play(svc, PLAYERS[seat].id, str(move), channel=CHANNEL, confirmed=True)
    moves = await svc.storage.moves.moves((await svc.storage.games.latest_game(CHANNEL)).id)  # type: ignore[union-attr]
    assert len(moves) == 2
    row = await svc.storage.games.latest_game(CHANNEL)
    assert row is not None
    copies = [  # both made at this version, however late the second is read (a busy machine)
        svc_undo.undo(svc, ANN.id, channel=CHANNEL, can_manage=True, based_on=row.version) for _ in range(2)
    ]
    results = await asyncio.gather(*copies, return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    refused = next(r for r in results if isinstance(r, BaseException))
    assert isinstance(refused, AlreadyMade) and "already taken back" in str(refused)
    left = await svc.storage.moves.moves((await svc.storage.games.latest_game(CHANNEL)).id)  # type: ignore[union-attr]
    assert [m.number for m in left] == [1], "one move taken back, not two"


async def test_simultaneous_joins_that_fill_the_lobby_seat_both_and_start_once(svc: Context) -> None:
    await svc_lobby.new_game(svc, ANN, channel=CHANNEL, players=3)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    bob, cid = await asyncio.gather(
        svc_lobby.join(svc, row.id, BOB), svc_lobby.join(svc, row.id, CID), return_exceptions=True
    )
    assert not isinstance(bob, BaseException) and not isinstance(cid, BaseException), (bob, cid)
    starts = [o for o in (bob, cid) if o.announcement is not None]
    assert len(starts) == 1 and "begins" in starts[0].announcement.text  # type: ignore[union-attr]
    assert [s.user_id for s in await svc.storage.games.seats(row.id)] == [ANN.id, BOB.id, CID.id]


async def test_a_double_join_and_a_start_pressed_three_times_say_what_happened(svc: Context) -> None:
    await svc_lobby.new_game(svc, ANN, channel=CHANNEL)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    joined, again = await asyncio.gather(
        svc_lobby.join(svc, row.id, BOB), svc_lobby.join(svc, row.id, BOB), return_exceptions=True
    )
    assert not isinstance(joined, BaseException)
    assert isinstance(again, LobbyError) and "already in this game" in str(again)
    results = await asyncio.gather(
        *(svc_lobby.start(svc, row.id, ANN) for _ in range(3)), return_exceptions=True
    )
    started = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(started) == 1 and len(refused) == 2
    assert all(isinstance(r, LobbyError) and "already started, and you are in it" in str(r) for r in refused)


async def test_computer_players_answer_after_the_mover_one_post_each(svc: Context) -> None:
    await svc_lobby.new_game(svc, ANN, channel=CHANNEL)
    for level in ("random", "random"):
        svc.clock.now += svc_lobby.SAME_REQUEST + 1  # type: ignore[attr-defined]  # one request each
        await svc_lobby.add_ai(svc, ANN, channel=CHANNEL, level=level)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    await svc_lobby.start(svc, row.id, ANN)
    await svc_advance.advance(svc, row.id)
    game = await current(svc)
    assert game.pending_seats() == [0]
    played = await svc_moves.play(svc, ANN.id, str(game.legal_moves(0)[0]), channel=CHANNEL, confirmed=True)
    assert played.announcement is not None and "🤖" not in played.announcement.text.splitlines()[0]
    assert (await current(svc)).pending_seats() != [0], "the computers have not moved yet"
    answers = await svc_advance.advance(svc, row.id)
    assert answers and all(len(a.outbox) == 1 for a in answers)
    assert all("🤖 (computer player, random)" in a.announcement.text for a in answers)  # type: ignore[union-attr]
    ids = [i for o in (played, *answers) for i in o.outbox]
    assert ids == sorted(ids), "the posts go out in the order the moves were made"
    moves = await svc.storage.moves.moves(row.id)
    mine = next(m for m in moves if not m.auto)
    assert {m.batch for m in moves if m.number > mine.number} <= {mine.batch}, (
        "answers join the mover's batch"
    )


async def test_two_copies_of_a_vacation_request_apply_once(svc: Context) -> None:
    """Two copies of one interaction (its id is the request's key): whether the second reads the
    seat before the first stored (PostgreSQL's pool runs them side by side) or after, it applies once."""
    from bot.service.absence import VacationError

    await start_game(svc, 2)
    request = 1234567890123
    results = await asyncio.gather(
        svc_absence.vacation(svc, ANN.id, channel=CHANNEL, days=3, request=request),
        svc_absence.vacation(svc, ANN.id, channel=CHANNEL, days=3, request=request),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert any(isinstance(r, VacationError) and "a second request?" in str(r) for r in results)
    [me] = [s for s in await svc.storage.games.seats(1) if s.user_id == ANN.id]
    assert me.vacation_used == 3, "three days taken, not six"


async def test_a_retried_found_without_its_source_is_told_it_counted(svc: Context) -> None:
    await start_game(svc, 2)
    game = await current(svc)
    seat = game.pending_seats()[0]
    found = next(m for m in game.legal_moves(seat) if m.verb == "found")
    short = str(found).split(" from ")[0]
    played = await svc_moves.play(svc, PLAYERS[seat].id, short, channel=CHANNEL, confirmed=True)
    assert played.outbox
    with pytest.raises(AlreadyMade, match=r"Your move `found \w+ from \w+` was already made"):
        await svc_moves.play(svc, PLAYERS[seat].id, short, channel=CHANNEL, confirmed=True)


async def test_the_clock_forgets_announcements_sent_a_month_ago_once_an_hour(database: Path | str) -> None:
    clock = FakeClock()
    svc = await open_service(database, clock=clock)
    [old] = await svc.storage.outbox.enqueue(None, [Post(CHANNEL, Message("old"))], int(clock.now))
    await svc.storage.outbox.sent(old, 1, int(clock.now))
    clock.advance(24 * 29)
    await svc_tick.tick(svc)
    assert await svc.storage.outbox.get(old) is not None, "sent 29 days ago: kept"
    clock.advance(24 * 2)
    await svc_tick.tick(svc)
    assert await svc.storage.outbox.get(old) is None, "sent 31 days ago: forgotten"
    [later] = await svc.storage.outbox.enqueue(None, [Post(CHANNEL, Message("later"))], int(clock.now))
    await svc.storage.outbox.sent(later, 2, int(clock.now) - 31 * 24 * 3600)
    clock.advance(0.5)
    await svc_tick.tick(svc)
    assert await svc.storage.outbox.get(later) is not None, "the last look was half an hour ago"
    clock.advance(0.6)
    await svc_tick.tick(svc)
    assert await svc.storage.outbox.get(later) is None
    await svc.close()


def test_a_dm_only_post_without_a_fallback_says_nothing_in_the_channel_when_a_dm_fails() -> None:
    post = Post(CHANNEL, None, (DirectMessage(ANN.id, "psst"),))
    assert post.message_for({ANN.id}) is None and post.message_for() is None
    told = Post(CHANNEL, None, (DirectMessage(ANN.id, "psst"),), "see your DMs")
    assert told.message_for({ANN.id}) == Message(f"<@{ANN.id}> see your DMs", mentions=(ANN.id,))
