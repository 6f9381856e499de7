"""Computer players in the bot: `/citta add-ai` fills lobby seats, computers play at once (their
moves marked), a game against a computer reaches its end, and nobody is pinged for them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_bot_support import CHANNEL, PLAYERS, Transcript, answered, current, open_service, query, start_game

from bot.errors import LobbyError, NotAllowed
from bot.ids import kind_of, parse_custom_id
from bot.results import Outcome
from bot.service import advance as svc_advance
from bot.service import leaving as svc_leaving
from bot.service import lobby as svc_lobby
from bot.service import moves as svc_moves
from bot.service import tick as svc_tick
from bot.service.context import Context

ANN, BOB = PLAYERS[:2]


async def _lobby_with_computer(svc: Context, level: str = "random") -> tuple[int, Outcome]:
    await svc_lobby.new_game(svc, ANN, channel=CHANNEL)
    added = await svc_lobby.add_ai(svc, ANN, channel=CHANNEL, level=level)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    return row.id, added


async def test_the_host_adds_a_computer_player_and_the_lobby_lists_it(database: Path | str) -> None:
    svc = await open_service(database)
    game_id, added = await _lobby_with_computer(svc)
    assert "🤖 Computer 1 (random)" in added.reply.text and "<@-" not in added.reply.text
    await svc_lobby.join(svc, game_id, BOB)
    with pytest.raises(NotAllowed, match="Only the host"):
        await svc_lobby.add_ai(svc, BOB, channel=CHANNEL)
    with pytest.raises(LobbyError, match="levels are"):
        await svc_lobby.add_ai(svc, ANN, channel=CHANNEL, level="godlike")
    svc.clock.now += svc_lobby.SAME_REQUEST + 1  # type: ignore[attr-defined]  # a second request, not a repeat
    again = await svc_lobby.add_ai(svc, ANN, channel=CHANNEL, level="basic")
    assert "🤖 Computer 2 (basic)" in again.reply.text
    seats = await svc.storage.games.seats(game_id)
    assert [(s.computer, s.ai_level) for s in seats] == [(False, None), (True, "random"), (False, None),
                                                         (True, "basic")]  # fmt: skip
    await svc.close()


async def test_a_lobby_for_two_starts_when_the_computer_fills_it(database: Path | str) -> None:
    svc = await open_service(database)
    await svc_lobby.new_game(svc, ANN, channel=CHANNEL, players=2)
    started = await svc_lobby.add_ai(svc, ANN, channel=CHANNEL, level="random")
    assert started.announcement is not None and "begins" in started.announcement.text
    assert "🤖 Computer 1 (random) as Computer 1" in started.announcement.text
    assert started.announcement.mentions == (ANN.id,), "only the human is pinged"
    await svc_advance.advance(svc, started.game)
    assert (await current(svc)).pending_seats() == [0], "the computer has played if it began"
    with pytest.raises(LobbyError, match="lobby"):
        await svc_lobby.add_ai(svc, ANN, channel=CHANNEL)
    await svc.close()


async def test_a_game_against_a_computer_reaches_the_end_with_its_moves_marked(database: Path | str) -> None:
    svc = await open_service(database)
    game_id, _ = await _lobby_with_computer(svc)
    log = Transcript()
    for outcome in await answered(svc, await svc_lobby.start(svc, game_id, ANN)):
        log.add(outcome)
    rnd = random.Random(9)
    turns = 0
    while not (game := await current(svc)).is_over:
        assert game.pending_seats() == [0], "the computer never keeps the table waiting"
        move = str(rnd.choice(game.legal_moves(0)))
        for outcome in await answered(
            svc, await svc_moves.play(svc, ANN.id, move, channel=CHANNEL, confirmed=True)
        ):
            log.add(outcome)
        turns += 1
        if turns == 20:  # the bot restarts in the middle
            await svc.close()
            svc = await open_service(database)
    moves = await svc.storage.moves.moves(game_id)
    assert {m.seat for m in moves if m.auto} == {1} and not any(m.seat == 0 and m.auto for m in moves)
    marked = [
        line for text in log.public for line in text.splitlines() if "🤖 (computer player, random)" in line
    ]
    assert len(marked) >= len([m for m in moves if m.auto]) // 2
    assert all(u > 0 for o in log.outcomes if o.announcement for u in o.announcement.mentions)
    assert "<@-" not in "\n".join(log.public)
    row = await svc.storage.games.game(game_id)
    assert row is not None and row.status == "over"
    assert await svc.storage.clocks.get(game_id) == [], "no clock runs for a finished game"
    assert not log.outcomes[-1].settled, "the last move leaves the replay to post"
    posts = [o.announcement for o in log.outcomes if o.announcement is not None]
    for_computer = [p for p in posts if "Next: 🤖 Computer 1 to" in p.text]
    kinds = [[kind_of(b.custom_id).name for b in p.buttons] for p in for_computer]
    assert kinds and all(k == ["review-at"] for k in kinds), "no 🎲, no quick answer for a computer: only 🔎"
    refs = [parse_custom_id(b.custom_id) for p in posts for b in p.buttons]
    assert refs and all(r is not None and r.seat in (None, 0) for r in refs), "every button is Ann's"
    texts = [
        json.loads(r["payload"])["message"] for r in await query(svc.storage, "SELECT payload FROM outbox")
    ]
    [final] = [t["text"] for t in texts if t and "final scoring" in t["text"]]
    assert "🤖 Computer 1 (random)" in final and "Computer (random)" not in final, "named as in every post"
    await svc.close()


async def test_a_move_is_settled_when_only_people_have_decisions_to_make(database: Path | str) -> None:
    """`advance` (a read of the game and its seats) is skipped after a settled move."""
    svc = await open_service(database)
    await start_game(svc, 2)
    game = await current(svc)
    seat = game.pending_seats()[0]
    played = await svc_moves.play(
        svc, PLAYERS[seat].id, str(game.legal_moves(seat)[0]), channel=CHANNEL, confirmed=True
    )
    assert played.announcement is not None and played.settled
    await svc.close()


async def test_a_move_that_leaves_a_computer_to_decide_is_not_settled(database: Path | str) -> None:
    svc = await open_service(database)
    game_id, _ = await _lobby_with_computer(svc)
    await answered(svc, await svc_lobby.start(svc, game_id, ANN))
    rnd, seen = random.Random(3), set()
    for _ in range(12):
        game = await current(svc)
        played = await svc_moves.play(
            svc, ANN.id, str(rnd.choice(game.legal_moves(0))), channel=CHANNEL, confirmed=True
        )
        computer_next = 1 in (await current(svc)).pending_seats()
        assert played.settled is not computer_next
        seen.add(computer_next)
        await answered(svc, played)
    assert seen == {True, False}, "both kinds of move were made"
    await svc.close()


async def test_when_the_last_human_resigns_the_game_is_abandoned_not_played_out(database: Path | str) -> None:
    svc = await open_service(database)
    game_id, _ = await _lobby_with_computer(svc)
    await svc_lobby.start(svc, game_id, ANN)
    resigned = await svc_leaving.resign(svc, ANN.id, channel=CHANNEL)
    assert resigned.announcement is not None and "abandoned" in resigned.announcement.text
    row = await svc.storage.games.game(game_id)
    assert row is not None and row.status == "abandoned" and row.version <= 1
    await svc.close()


async def test_computers_and_the_deadline_do_not_remind_anyone_but_humans(database: Path | str) -> None:
    from test_bot_support import MIDNIGHT, FakeClock

    clock = FakeClock()
    svc = await open_service(database, clock=clock)
    game_id, _ = await _lobby_with_computer(svc)
    await answered(svc, await svc_lobby.start(svc, game_id, ANN))
    assert [c.seat for c in await svc.storage.clocks.get(game_id)] == [0]
    clock.now = MIDNIGHT + 12 * 3600
    [post] = await svc_tick.tick(svc)
    assert post.message is not None and post.message.mentions == (ANN.id,)
    await svc.close()
