"""The storage's part of the players' reliability and pace (`PlayersProtocol.deeds`, and what
`MovesProtocol.commit_moves` and `PlayersProtocol.replace_player` note for it), the same assertions
on each backend."""

from __future__ import annotations

from test_bot_storage_contract import ANN, BOB, CID, commit, move, placing, running_game
from test_bot_support import query

from bot.storage import StorageProtocol
from bot.storage.rows import Clock, Deed

DEADLINE = 24 * 3600
"""The games' deadline (the default setting)."""


async def test_a_seats_first_answer_notes_when_it_was_asked_and_deeds_give_the_time_it_took(
    store: StorageProtocol,
) -> None:
    game = await running_game(store, now=100)  # waits for Ann (seat 0) since 100
    assert (
        await commit(store, game, 0, move(1, 0), move(2, 0), now=400, clocks=[Clock(game, 1, 400)])
        is not None
    )
    await store.clocks.reset(game, [Clock(game, 1, 400, paused=50)])  # Bob's vacation moves his clock on
    later = await commit(
        store, game, 2, move(3, 1), move(4, 0, auto=True), now=1000, clocks=[Clock(game, 0, 1000)]
    )
    assert later is not None
    asked = await query(store, "SELECT number, asked_at FROM moves WHERE game = ? ORDER BY number", game)
    assert [(r["number"], r["asked_at"]) for r in asked] == [(1, 100), (2, None), (3, 450), (4, None)]
    assert await store.players.deeds([ANN, BOB], 0) == [
        Deed(ANN, 1, "moved", 400, 300),
        Deed(BOB, 1, "moved", 1000, 550),
    ]
    assert await store.players.deeds([ANN, BOB], 401) == [Deed(BOB, 1, "moved", 1000, 550)]
    assert await store.players.deeds([CID], 0) == []


async def test_an_answer_after_its_deadline_and_a_policys_move_are_missed_deadlines(
    store: StorageProtocol,
) -> None:
    game = await running_game(store, now=0)
    late = DEADLINE + 5
    assert await commit(store, game, 0, move(1, 0), now=late, clocks=[Clock(game, 1, late)]) is not None
    assert await store.players.deeds([ANN], 0) == [
        Deed(ANN, 1, "missed", late, None),
        Deed(ANN, 1, "moved", late, late),
    ]
    at = late + DEADLINE  # Bob's time is up: the bot plays for him
    assert (
        await commit(store, game, 1, move(2, 1, auto=True), now=at, away=[1], clocks=[Clock(game, 0, at)])
        is not None
    )
    assert await store.players.deeds([BOB], 0) == [Deed(BOB, 1, "missed", at, None)]
    assert await commit(store, game, 2, move(3, 0), now=at + DEADLINE - 1, clocks=[]) is not None  # in time
    assert [d.kind for d in await store.players.deeds([ANN], 0)] == ["missed", "moved", "moved"]


async def test_resigning_and_handing_a_seat_over_are_noted_as_the_players_who_did(
    store: StorageProtocol,
) -> None:
    game = await running_game(store, guild=7, now=0)
    assert await commit(store, game, 0, move(1, 0), now=60, clocks=[Clock(game, 1, 60)]) is not None
    assert await store.players.replace_player(game, 0, CID, 70)  # Ann's seat goes to Cid
    assert (
        await commit(store, game, 1, move(2, 1), now=100, resign=1, clocks=[Clock(game, 0, 100)]) is not None
    )
    assert await commit(store, game, 2, move(3, 0), now=130, clocks=[]) is not None
    assert await store.players.deeds([ANN, BOB, CID], 0) == [  # Ann's move is no longer hers: see DEEDS
        Deed(ANN, 7, "left", 70, None),
        Deed(BOB, 7, "moved", 100, 40),
        Deed(BOB, 7, "resigned", 100, None),
        Deed(CID, 7, "moved", 130, 30),
    ]


async def test_the_games_finished_are_the_results_not_resigned_since_the_time_asked(
    store: StorageProtocol,
) -> None:
    game = await running_game(store, guild=3, now=0)
    end = [placing(0, f"user:{ANN}", "Ann", 1, 30.0, ANN), placing(1, f"user:{BOB}", "Bob", 3, 20.0, BOB)]
    assert (
        await commit(store, game, 0, move(1, 0), status="over", now=500, guild=3, placings=end, clocks=[])
        is not None
    )
    assert [d for d in await store.players.deeds([ANN, BOB], 0) if d.kind == "finished"] == [
        Deed(ANN, 3, "finished", 500, None)  # Bob resigned (his placing says so)
    ]
    assert [d for d in await store.players.deeds([ANN], 501) if d.kind == "finished"] == []
