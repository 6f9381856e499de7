"""The storage contract (`bot.storage.protocol`), the same assertions on each backend: the version
check, also between two processes at once; lobbies; the move log; clocks and preferences; shards
and claims. The outbox's part: `test_bot_storage_outbox`; the history's: `test_bot_storage_history`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from test_bot_support import query

from bot.results import Message, Picture, Post
from bot.storage import ChannelBusy, StorageProtocol, open_storage
from bot.storage.protocol import MISSING
from bot.storage.rows import Clock, GameSettings, MoveRow, Placing, Prefs, Rating, Secret
from bot.storage.shards import Shards

CHANNEL = 500
ANN, BOB, CID, DEA = 11, 12, 13, 14
RECORD = {"players": ["Ann", "Bob"], "seed": 1, "setup": "beginner", "moves": []}
SNAPSHOT = {"players": [{"name": "Ann", "gold": 1}, {"name": "Bob", "gold": 2}], "phase": "play"}


@pytest.fixture
async def other(database: Path | str, store: StorageProtocol) -> AsyncIterator[StorageProtocol]:
    """A second storage on the same database: another process's connection (or pool)."""
    opened = await open_storage(database)
    yield opened
    await opened.close()


async def running_game(store: StorageProtocol, channel: int = CHANNEL, guild: int = 1, now: int = 0) -> int:
    """A game of Ann and Bob started at version 0, waiting for Ann (seat 0)."""
    game = await store.games.create_lobby(
        guild=guild, channel=channel, host=ANN, host_name="Ann", setup="beginner", players_wanted=2, now=now
    )
    assert await store.games.join_lobby(game, BOB, "Bob", 2, now) == "joined"
    ids = await store.games.start_game(
        game, users=[ANN, BOB], seed=1, record=RECORD, snapshot=SNAPSHOT, highlight=[], now=now,
        clocks=[Clock(game, 0, now)], posts=[Post(channel, Message("begins"))],
    )  # fmt: skip
    assert ids is not None and len(ids) == 1
    return game


def commit_kw(**changes: Any) -> dict[str, Any]:
    kw: dict[str, Any] = dict(
        record=RECORD, snapshot=SNAPSHOT, status="active", highlight=["F5"], secrets=[], now=10
    )
    return kw | changes


async def commit(
    store: StorageProtocol, game: int, based_on: int, *moves: MoveRow, **changes: Any
) -> list[int] | None:
    """`commit_moves` with `commit_kw`: the outbox ids, or None when nothing was stored."""
    return await store.moves.commit_moves(game, based_on=based_on, moves=list(moves), **commit_kw(**changes))


def move(number: int, seat: int, text: str = "gold", **kw: Any) -> MoveRow:
    return MoveRow(number, seat, text, summary=f"{text}!", events=[("gold", text)], **kw)


def placing(seat: int, player: str, name: str, rank: int, mu: float, user_id: int | None = None) -> Placing:
    return Placing(
        seat=seat, player=player, user_id=user_id, name=name, rank=rank, score=30 - rank, gold=rank,
        citizens=10, bonus=3, hunger_vp=-1, resigned=rank == 3, hungry_years=1, built={"farm": 2},
        before=Rating(), after=Rating(mu, 7.5),
    )  # fmt: skip


async def counts(store: StorageProtocol) -> tuple[int, ...]:
    """How many rows the log, the private notes and the outbox hold."""
    tables = ("moves", "secrets", "outbox")
    return tuple([(await query(store, f"SELECT COUNT(*) AS n FROM {t}"))[0]["n"] for t in tables])


# --- the version check ------------------------------------------------------------------


async def test_a_commit_on_a_stale_version_or_a_stopped_game_stores_nothing(store: StorageProtocol) -> None:
    game = await running_game(store)
    post = Post(CHANNEL, Message("moved"))
    ids = await commit(store, game, 0, move(1, 0), posts=[post], clocks=[Clock(game, 1, 10)])
    assert ids is not None and len(ids) == 1
    before = await counts(store), await store.clocks.get(game)
    for based_on in (0, 5):
        secrets = [Secret(1, 1, 2, "peek", "card 1 is X")]
        late = await commit(store, game, based_on, move(based_on + 1, 1), posts=[post], secrets=secrets,
                            clocks=[Clock(game, 0, 20)])  # fmt: skip
        assert late is None
    assert (await counts(store), await store.clocks.get(game)) == before
    assert await store.moves.secrets(game, 1, 1) == []
    row = await store.games.game(game)
    assert row is not None and row.version == 1 and row.highlight == ["F5"]
    assert await store.games.set_status(game, "abandoned", now=11)
    assert await commit(store, game, 1, move(2, 1)) is None


async def test_two_processes_committing_on_one_version_store_exactly_one(
    store: StorageProtocol, other: StorageProtocol
) -> None:
    game = await running_game(store)
    for version in range(8):
        results = await asyncio.gather(*(
            s.moves.commit_moves(game, based_on=version, moves=[move(version + 1, k, f"move {k}")],
                           posts=[Post(CHANNEL, Message(f"{version}:{k}"))], **commit_kw())
            for k, s in enumerate((store, other, store, other))
        ))  # fmt: skip
        assert sum(r is not None for r in results) == 1, results
    row = await other.games.game(game)
    assert row is not None and row.version == 8
    moves = await store.moves.moves(game)
    assert [m.number for m in moves] == list(range(1, 9))
    assert await counts(store) == (8, 0, 9), "one post per stored move, and the start's"


async def test_two_processes_starting_one_lobby_start_it_once(
    store: StorageProtocol, other: StorageProtocol
) -> None:
    game = await store.games.create_lobby(
        guild=1, channel=CHANNEL, host=ANN, host_name="Ann", setup="beginner", players_wanted=None, now=0
    )
    await other.games.join_lobby(game, BOB, "Bob", 5, 0)
    kw: dict[str, Any] = dict(users=[ANN, BOB], seed=3, record=RECORD, snapshot=SNAPSHOT, highlight=[], now=1)
    results = await asyncio.gather(*(
        s.games.start_game(game, posts=[Post(CHANNEL, Message("go"))], **kw) for s in (store, other, store)
    ))  # fmt: skip
    assert sum(r is not None for r in results) == 1
    assert await store.games.start_game(game, **kw) is None
    assert await store.games.join_lobby(game, CID, "Cid", 5, 2) == "closed"


async def test_joins_from_two_processes_take_distinct_seats_up_to_the_limit(
    store: StorageProtocol, other: StorageProtocol
) -> None:
    game = await store.games.create_lobby(
        guild=None, channel=CHANNEL, host=ANN, host_name="Ann", setup="beginner", players_wanted=3, now=0
    )
    results = await asyncio.gather(*(
        s.games.join_lobby(game, user, f"P{user}", 3, 1)
        for s, user in ((store, BOB), (other, CID), (other, DEA), (store, 15))
    ))  # fmt: skip
    assert sorted(results) == ["full", "full", "joined", "joined"]
    seats = await store.games.seats(game)
    assert [s.seat for s in seats] == [0, 1, 2] and len({s.user_id for s in seats}) == 3


async def test_two_processes_opening_a_lobby_in_one_channel(
    store: StorageProtocol, other: StorageProtocol
) -> None:
    kw: dict[str, Any] = dict(
        guild=1, channel=CHANNEL, host_name="X", setup="beginner", players_wanted=None, now=0
    )
    results = await asyncio.gather(
        store.games.create_lobby(host=ANN, **kw),
        other.games.create_lobby(host=BOB, **kw),
        return_exceptions=True,
    )
    assert sum(isinstance(r, ChannelBusy) for r in results) == 1
    [opened] = [r for r in results if isinstance(r, int)]
    assert (await other.games.open_game(CHANNEL)).id == opened  # type: ignore[union-attr]


# --- lobbies and seats ------------------------------------------------------------------


async def test_a_lobby_renumbers_its_seats_and_hands_the_host_on(store: StorageProtocol) -> None:
    game = await store.games.create_lobby(
        guild=1, channel=CHANNEL, host=ANN, host_name="Ann", setup="experienced", players_wanted=None, now=0
    )
    assert await store.games.join_lobby(game, -1, "Computer 1", 5, 1, ai_level="basic") == "joined"
    assert await store.games.join_lobby(game, BOB, "Bob", 5, 1) == "joined"
    assert await store.games.join_lobby(game, BOB, "Bob", 5, 1) == "already"
    assert await store.games.leave_lobby(game, CID, 2) == ("not_in", ANN)
    assert await store.games.leave_lobby(game, ANN, 2) == ("left", BOB)
    seats = await store.games.seats(game)
    assert [(s.seat, s.user_id, s.computer) for s in seats] == [(0, -1, True), (1, BOB, False)]
    assert (await store.games.game(game)).host == BOB  # type: ignore[union-attr]
    assert await store.games.leave_lobby(game, BOB, 3) == ("left", None)
    row = await store.games.game(game)
    assert row is not None and row.status == "abandoned" and await store.games.open_game(CHANNEL) is None
    assert await store.games.leave_lobby(game, -1, 4) == ("closed", None)
    assert (await store.games.latest_game(CHANNEL)).id == game  # type: ignore[union-attr]


async def test_a_channel_s_open_game_comes_with_its_seats_in_order(store: StorageProtocol) -> None:
    assert await store.games.open_game_with_seats(CHANNEL) is None
    game = await store.games.create_lobby(
        guild=1, channel=CHANNEL, host=ANN, host_name="Ann", setup="beginner", players_wanted=None, now=0
    )
    assert await store.games.join_lobby(game, -1, "Computer 1", 5, 1, ai_level="basic") == "joined"
    assert await store.games.join_lobby(game, BOB, "Bob", 5, 1) == "joined"
    table = await store.games.open_game_with_seats(CHANNEL)
    assert table is not None
    row, seats = table
    assert row == await store.games.game(game) and seats == await store.games.seats(game)
    assert [(s.seat, s.name, s.ai_level) for s in seats] == [(0, "Ann", None), (1, "Computer 1", "basic"),
                                                             (2, "Bob", None)]  # fmt: skip
    assert await store.games.set_status(game, "abandoned", now=2)
    assert await store.games.open_game_with_seats(CHANNEL) is None, "only a lobby or a running game"


async def test_settings_seats_and_statuses_round_trip(store: StorageProtocol) -> None:
    game = await running_game(store)
    settings = GameSettings(deadline_hours=48, remind_hours=0, policy="skip", ai_level="strong",
                            board_every="round", vacation_days=3, language="de")  # fmt: skip
    await store.games.set_settings(game, settings)
    assert (await store.games.game(game)).settings == settings  # type: ignore[union-attr]
    assert await store.players.replace_player(game, 0, BOB, 5) is False, "Bob plays already"
    assert await store.players.replace_player(game, 7, CID, 5) is False, "no such seat"
    assert await store.players.replace_player(game, 0, CID, 5) is True
    row = await store.games.game(game)
    assert row is not None and row.host == CID
    assert [s.user_id for s in await store.games.seats(game)] == [CID, BOB]
    assert await commit(store, game, 0, move(1, 0), away=[1], resign=0) is not None
    seats = await store.games.seats(game)
    assert (seats[0].resigned, seats[1].away, seats[1].played_by_bot) == (True, True, True)
    assert await store.players.come_back(game, 1) and not await store.players.come_back(game, 1)
    assert not await store.games.set_status(game, "over", now=6, only_if=("lobby",))
    assert await store.games.set_status(game, "over", now=6) and await store.games.active_games() == []


# --- the move log -----------------------------------------------------------------------


async def test_the_move_log_answers_what_undo_recap_and_retries_ask(store: StorageProtocol) -> None:
    game = await running_game(store)
    batch = [move(1, 0, "gold"), move(2, 0, "pass", auto=True), move(3, 1, "build farm I9", reveals=True)]
    assert await commit(store, game, 0, *batch) is not None
    assert await commit(store, game, 3, move(4, 0, "gold"), batch=0) is not None
    assert [m.text for m in await store.moves.moves(game)] == ["gold", "pass", "build farm I9", "gold"]
    assert [m.number for m in await store.moves.moves(game, last=2)] == [3, 4]
    first = await store.moves.moved_since(game, 0, 0)
    assert first is not None and (first.number, first.summary) == (1, "gold!")
    assert first.events == [("gold", "gold")] and not first.auto
    assert (await store.moves.moved_since(game, 1, 0)).number == 4  # type: ignore[union-attr]
    assert await store.moves.moved_since(game, 0, 0, "pass") is None, "a move the bot made for the seat"
    assert (await store.moves.moved_since(game, 0, 1, "build farm I9")).reveals  # type: ignore[union-attr]
    assert (await store.moves.last_move_of(game, 0)).number == 4  # type: ignore[union-attr]
    assert await store.moves.last_batch_id(game) == 0 and await store.moves.moves_after(game, 3)
    assert await commit(store, game, 4, undo=[4]) is not None
    assert (await store.games.game(game)).version == 5  # type: ignore[union-attr]
    assert await store.moves.moved_since(game, 3, 0) is None and not await store.moves.moves_after(game, 3)
    assert (await store.moves.last_move_of(game, 0)).number == 2, "its last move, by itself or not"  # type: ignore[union-attr]
    assert await store.moves.last_batch_id(game) == 0


async def test_secrets_come_by_move_then_in_the_order_stored(store: StorageProtocol) -> None:
    game = await running_game(store)
    secrets = [Secret(0, 1, 2, "peek", "b"), Secret(0, 1, 1, "peek", "z"), Secret(0, 1, 2, "draw", "a"),
               Secret(1, 1, 1, "peek", "bob's"), Secret(0, 2, 1, "peek", "next year")]  # fmt: skip
    assert await commit(store, game, 0, move(1, 0), secrets=secrets) is not None
    assert [s.text for s in await store.moves.secrets(game, 0, 1)] == ["z", "b", "a"]


# --- clocks and preferences -------------------------------------------------------------


async def test_clocks_follow_whom_the_game_waits_for(store: StorageProtocol) -> None:
    game = await running_game(store)
    later = await running_game(store, channel=CHANNEL + 1)
    assert await store.clocks.get(game) == [Clock(game, 0, 0)]
    assert await commit(store, game, 0, move(1, 0), clocks=[Clock(game, 0, 9), Clock(game, 1, 9)]) is not None
    assert await store.clocks.get(game) == [Clock(game, 0, 0), Clock(game, 1, 9)], "a running clock is kept"
    assert await commit(store, game, 1, move(2, 0), clocks=[Clock(game, 0, 20)], restart=[0]) is not None
    assert await store.clocks.get(game) == [Clock(game, 0, 20)], "restarted; seat 1's clock dropped"
    assert await commit(store, game, 2, move(3, 0), clocks=None) is not None
    assert await store.clocks.get(game) == [Clock(game, 0, 20)], "clocks=None leaves them"
    [read] = await store.clocks.get(game)
    assert await store.clocks.remind(game, reminded=[read], stalled=[read],
                                     posts=[Post(CHANNEL, Message("psst"))], now=30) is not None  # fmt: skip
    assert await store.clocks.remind(game, reminded=[read], stalled=[], posts=[], now=35) is None, (
        "read before"
    )
    [read] = await store.clocks.get(game)
    assert await store.clocks.remind(game, reminded=[read], stalled=[], posts=[], now=40) == []
    assert await store.clocks.get(game) == [Clock(game, 0, 20, 0, 2, 40, True)]
    assert await commit(store, game, 3, move(4, 0), clocks=[Clock(game, 0, 45)]) is not None
    assert await store.clocks.get(game) == [Clock(game, 0, 20, 0, 2, 40, True)], "kept with its reminders"
    assert await commit(store, game, 4, move(5, 0), clocks=[Clock(game, 0, 45)], restart=[0]) is not None
    assert await store.clocks.get(game) == [Clock(game, 0, 45)], "a restarted clock starts afresh"
    assert [c.game for c in await store.clocks.get()] == [game, later]
    await store.clocks.reset(game, [Clock(game, 0, 50, 7), Clock(game, 1, 50)])
    assert await store.clocks.get(game) == [Clock(game, 0, 50, 7), Clock(game, 1, 50)]
    await store.games.set_status(later, "over", now=60)
    assert [c.game for c in await store.clocks.get()] == [game, game], "only running games' clocks"


async def test_a_vacation_applies_once_and_never_pauses_below_zero(store: StorageProtocol) -> None:
    game = await running_game(store)
    kw: dict[str, Any] = dict(used=3, year=0, shift=100)
    assert await store.players.set_vacation(game, 0, until=500, was=None, **kw)
    assert not await store.players.set_vacation(game, 0, until=900, was=None, **kw), (
        "based on an old vacation"
    )
    assert await store.clocks.get(game) == [Clock(game, 0, 0, 100)]
    assert await store.players.set_vacation(game, 0, until=None, used=1, year=0, shift=-1000, was=500)
    assert await store.clocks.get(game) == [Clock(game, 0, 0, 0)]
    me = (await store.games.seats(game))[0]
    assert (me.vacation_until, me.vacation_used, me.vacation_year) == (None, 1, 0)


async def test_preferences_default_and_are_replaced(store: StorageProtocol) -> None:
    assert await store.players.prefs([BOB, ANN, BOB]) == {ANN: Prefs(ANN), BOB: Prefs(BOB)}
    await store.players.set_prefs(Prefs(ANN, 22 * 60, 8 * 60, 60, "dm", "fr"))
    await store.players.set_prefs(Prefs(ANN, None, None, -300, "mention", None))
    await store.players.set_prefs(Prefs(2**62, 1, 2, 3, "dm", "de"))
    assert await store.players.prefs([ANN, 2**62]) == {
        ANN: Prefs(ANN, None, None, -300, "mention", None), 2**62: Prefs(2**62, 1, 2, 3, "dm", "de")
    }  # fmt: skip


# --- shards and claims ------------------------------------------------------------------

ON_0, ON_1 = 2 << 22, 1 << 22
"""Two servers: on shard 0 and on shard 1 of 2 (Discord's formula: (id >> 22) % 2)."""
ME, YOU = "host shards 0 of 2#me", "host shards 0 of 2#you"


async def test_a_process_scans_only_the_games_of_servers_on_its_shards(store: StorageProtocol) -> None:
    zero = await running_game(store, CHANNEL, guild=ON_0)
    one = await running_game(store, CHANNEL + 1, guild=ON_1)
    no_server = await running_game(store, CHANNEL + 2, guild=None)  # type: ignore[arg-type]
    first, second = Shards(2, (0,)), Shards(2, (1,))
    assert [g.id for g in await store.games.active_games(first)] == [zero, no_server], "no server: shard 0"
    assert [g.id for g in await store.games.active_games(second)] == [one]
    assert [g.id for g in await store.games.active_games()] == [zero, one, no_server]
    assert [h.channel for h in await store.outbox.heads(second)] == [CHANNEL + 1]
    assert [h.channel for h in await store.outbox.heads(first)] == [CHANNEL, CHANNEL + 2]
    for head in await store.outbox.heads():
        await store.outbox.retry(head.id, 100, f"{MISSING}Send Messages")
    await store.outbox.unblock(second)
    assert [(h.channel, h.next_try) for h in await store.outbox.heads()] == [
        (CHANNEL, 100), (CHANNEL + 1, 0), (CHANNEL + 2, 100)
    ], "a permission granted on shard 1 wakes its posts only"  # fmt: skip
    assert await store.clocks.claim(ME, 0, 60, second) == [one]
    assert await store.clocks.claim(ME, 0, 60, first) == [zero, no_server]
    for game, guild in ((zero, ON_0), (one, ON_1)):
        places = [placing(0, "user:1", "A", 1, 1.0)]
        assert (
            await commit(store, game, 0, move(1, 0), status="over", placings=places, guild=guild) is not None
        )
    assert await store.history.unreplayed(second) == [one] and await store.history.unreplayed(first) == [zero]
    assert await store.history.unreplayed() == [zero, one]


async def test_a_game_s_clock_is_claimed_by_one_process_until_its_claim_expires(
    store: StorageProtocol,
) -> None:
    game = await running_game(store)
    lobby = await store.games.create_lobby(
        guild=1, channel=CHANNEL + 1, host=ANN, host_name="Ann", setup="beginner", players_wanted=None, now=0
    )
    await running_game(store, CHANNEL + 2)
    await store.outbox.hold_channel(CHANNEL + 2, "channel deleted", 0)
    waiting_for_nobody = await running_game(store, CHANNEL + 3)
    assert await commit(store, waiting_for_nobody, 0, move(1, 0), clocks=[]) is not None
    assert await store.clocks.claim(ME, 100, 160) == [game], "running, not paused, with clocks"
    assert await store.clocks.claim(YOU, 159, 219) == [], "held until 160"
    assert await store.clocks.claim(ME, 120, 180) == [game], "its owner renews it"
    assert await store.clocks.claim(YOU, 180, 240) == [game], "expired at 180: taken over"
    await store.clocks.release(ME, [game])
    assert await store.clocks.claim(ME, 181, 241) == [], "only its owner releases a claim"
    await store.clocks.release(YOU, [game])
    assert await store.clocks.claim(ME, 181, 241) == [game]
    assert lobby not in await store.clocks.claim(ME, 300, 360)


async def test_a_channel_s_next_announcement_is_claimed_by_one_process_in_order(
    store: StorageProtocol,
) -> None:
    game = await running_game(store)  # its start post is id 1
    picture = Picture("board.png", b"PNG" * 100, "the board")
    [second] = await store.outbox.enqueue(game, [Post(CHANNEL, Message("second", pictures=(picture,)))], 1)
    head = await store.outbox.claim(CHANNEL, ME, 10, 70)
    assert head is not None and head.id == 1 and (head.claimed_by, head.claimed_until) == (ME, 70)
    assert await store.outbox.claim(CHANNEL, YOU, 69, 129) is None, "held; the post after it waits too"
    [row] = await store.outbox.heads()
    assert (row.claimed_by, row.free_at(YOU), row.free_at(ME)) == (ME, 70, 0)
    assert (await store.outbox.claim(CHANNEL, YOU, 70, 130)).claimed_by == YOU  # type: ignore[union-attr]
    await store.outbox.retry(1, 200, "503")
    assert (await store.outbox.get(1)).claimed_by is None, "a post that waits for a retry is not held"  # type: ignore[union-attr]
    assert await store.outbox.claim(CHANNEL, ME, 199, 259) is None, "not due yet"
    assert (await store.outbox.claim(CHANNEL, ME, 200, 260)).id == 1  # type: ignore[union-attr]
    await store.outbox.sent(1, 77, 201)
    claimed = await store.outbox.claim(CHANNEL, YOU, 201, 261)
    assert claimed is not None and claimed.id == second, "sent: the next one is free"
    assert claimed.image == picture.data, "a claimed post comes with its pictures"
    assert await store.outbox.claim(CHANNEL + 9, ME, 201, 261) is None, "nothing pending there"


async def test_claims_are_released_by_their_owner_or_taken_over_by_its_successor(
    store: StorageProtocol,
) -> None:
    game = await running_game(store)
    dead, other_slot = "host shards 0 of 2#dead", "other shards 0 of 2#x"
    assert await store.clocks.claim(dead, 0, 60) == [game]
    assert await store.outbox.claim(CHANNEL, dead, 0, 60) is not None
    await store.claims.take_over("host shards 0 of 2x", ME)
    assert await store.clocks.claim(other_slot, 1, 61) == [], "another slot: still held"
    await store.claims.take_over("host shards 0 of 2", ME)
    assert await store.clocks.claim(ME, 1, 61) == [game], "the slot's successor takes over at once"
    assert (await store.outbox.claim(CHANNEL, ME, 1, 61)).claimed_by == ME  # type: ignore[union-attr]
    await store.claims.take_over("host shards 0 of 2", ME)
    assert await store.clocks.claim(YOU, 2, 62) == [], "its own claims stay"
    await store.claims.release(ME)
    assert await store.clocks.claim(YOU, 2, 62) == [game]
    assert (await store.outbox.claim(CHANNEL, YOU, 2, 62)).claimed_by == YOU  # type: ignore[union-attr]
    await store.outbox.sent(1, 5, 3)
    await store.claims.release(YOU)
    await store.claims.take_over("host shards 0 of 2", ME)
    assert (await store.outbox.get(1)).claimed_by == YOU, "a sent post keeps who sent it"  # type: ignore[union-attr]


async def test_two_processes_claiming_at_once_each_get_different_work(
    store: StorageProtocol, other: StorageProtocol
) -> None:
    games = [await running_game(store, CHANNEL + k) for k in range(6)]
    for _ in range(3):
        claims = await asyncio.gather(
            *(s.clocks.claim(f"p{k}", 0, 60) for k, s in enumerate((store, other) * 2))
        )
        assert sorted(g for c in claims for g in c) == games, claims
        await asyncio.gather(*(s.clocks.release(f"p{k}", games) for k, s in enumerate((store, other) * 2)))
    heads = await asyncio.gather(
        *(s.outbox.claim(CHANNEL, f"p{k}", 0, 60) for k, s in enumerate((store, other) * 3))
    )
    assert sum(h is not None for h in heads) == 1, heads


async def test_a_copy_of_a_vacation_request_applies_once_whenever_it_reads(store: StorageProtocol) -> None:
    game = await running_game(store)
    kw: dict[str, Any] = dict(used=3, year=0, shift=100)
    assert await store.players.set_vacation(game, 0, until=500, was=None, request=7, **kw)
    assert not await store.players.set_vacation(game, 0, until=800, was=500, request=7, **kw), (
        "read after it applied"
    )
    assert (await store.games.seats(game))[0].vacation_request == 7
    assert await store.players.set_vacation(game, 0, until=800, was=500, request=8, **kw), "a new request"
    assert await store.clocks.get(game) == [Clock(game, 0, 0, 200)]


async def test_json_documents_come_back_as_they_were_stored(store: StorageProtocol) -> None:
    game = await running_game(store)
    odd = {"z": 1, "a": [2**62, -(2**62), 0.1, 1e-9, None, True], "é": "\u00e9 ⛪ \\ \" '", "": {}}
    assert await commit(store, game, 0, move(1, 0), record=odd, snapshot=odd) is not None
    row = await store.games.game(game)
    assert row is not None and row.record == odd and list(row.record) == list(odd), "keys in their order"
    assert json.dumps(row.snapshot) == json.dumps(odd)
