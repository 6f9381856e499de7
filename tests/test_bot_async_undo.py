"""Undo: your own last move while nobody moved since; the host for others; never past a reveal
(a refilled politics row, a poll, a pass draw, the voice); stale buttons; restarts."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_bot_support import CHANNEL, OUTSIDER, PLAYERS, answered, current, open_service, start_game

from bot.errors import MoveRefused, NoGame, NotAllowed, NotSeated
from bot.ids import parse_custom_id
from bot.service import advance as svc_advance
from bot.service import lobby as svc_lobby
from bot.service import moves as svc_moves
from bot.service import undo as svc_undo
from bot.service.context import Context
from engine import Game
from engine.events import REVEALED as REVEALS

ANN, BOB, CID = PLAYERS[:3]


async def _play(svc: Context, move: str) -> int:
    """The pending player plays ``move``; their seat."""
    seat = (await current(svc)).pending_seats()[0]
    await svc_moves.play(svc, PLAYERS[seat].id, move, channel=CHANNEL, confirmed=True)
    return seat


async def _build(svc: Context) -> tuple[int, str]:
    """The pending player builds (a move that reveals nothing); (seat, move)."""
    game = await current(svc)
    seat = game.pending_seats()[0]
    move = str(next(a for a in game.legal_moves(seat) if a.verb == "build"))
    await svc_moves.play(svc, PLAYERS[seat].id, move, channel=CHANNEL)
    return seat, move


async def test_own_last_move_is_taken_back_and_the_table_sees_it_across_a_restart(
    database: Path | str,
) -> None:
    svc = await open_service(database)
    start = await start_game(svc, 3)
    before = (await current(svc)).snapshot()
    seat, move = await _build(svc)
    await svc.close()
    svc = await open_service(database)
    undone = await svc_undo.undo(svc, PLAYERS[seat].id, channel=CHANNEL)
    assert undone.announcement is not None and not undone.announcement.ephemeral
    assert f"took back their move `{move}`" in undone.announcement.text
    assert f"<@{PLAYERS[seat].id}>" in undone.announcement.text, "it is their turn again"
    assert (await current(svc)).snapshot() == before
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None and row.version == 2 and await svc.storage.moves.moves(row.id) == []
    assert start.announcement is not None  # its buttons were made at version 0: the same position
    ref = parse_custom_id(start.announcement.buttons[1].custom_id)
    assert ref is not None and ref.move is not None
    again = await svc_moves.play(
        svc, PLAYERS[seat].id, ref.move, game_id=ref.game, based_on=ref.version, seat=ref.seat
    )
    assert again.reply.text == f"You played `{ref.move}`."
    game = await current(svc)
    assert Game.replay(game.record()).snapshot() == game.snapshot()
    await svc.close()


async def test_undo_is_refused_once_someone_has_moved_but_the_host_may_take_back_others_moves(
    database: Path | str,
) -> None:
    svc = await open_service(database)
    await start_game(svc, 3)
    first, _ = await _build(svc)
    second, move = await _build(svc)
    others = [s for s in range(3) if s != second and PLAYERS[s] != ANN]
    assert others
    for s in others:  # including the first mover when they are not the host
        with pytest.raises(NotAllowed, match="nobody has moved since; anything else needs the host"):
            await svc_undo.undo(svc, PLAYERS[s].id, channel=CHANNEL)
    with pytest.raises(NotSeated):
        await svc_undo.undo(svc, OUTSIDER.id, channel=CHANNEL)
    by_host = await svc_undo.undo(svc, ANN.id, channel=CHANNEL)
    assert by_host.announcement is not None and f"`{move}`" in by_host.announcement.text
    by_manager = await svc_undo.undo(svc, OUTSIDER.id, channel=CHANNEL, can_manage=True)
    assert by_manager.announcement is not None and "took back" in by_manager.announcement.text
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None and await svc.storage.moves.moves(row.id) == [] and first != second
    with pytest.raises(NoGame, match="No move"):
        await svc_undo.undo(svc, ANN.id, channel=CHANNEL)
    await svc.close()


def _pick(game: Game, seat: int, wanted: set[str], rnd: random.Random) -> str:
    """A move that may reveal something still untested, else a random one."""
    moves = game.legal_moves(seat)
    for verb in ("poll", "pass"):
        if verb in wanted and (hits := [a for a in moves if a.verb == verb]):
            return str(hits[0])
    if "refill" in wanted and (
        cards := [a for a in moves if a.verb not in ("gold", "found", "build", "pass")]
    ):
        return str(rnd.choice(cards))
    return str(rnd.choice(moves))


async def test_undo_is_refused_after_every_kind_of_reveal_even_for_the_host(database: Path | str) -> None:
    svc = await open_service(database)
    await start_game(svc, 2)
    wanted = {"refill", "poll", "pass", "tally"}
    rnd = random.Random(5)
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    while wanted:
        game = await current(svc)
        assert not game.is_over, f"never saw {wanted}"
        seat = game.pending_seats()[0]
        await svc_moves.play(
            svc, PLAYERS[seat].id, _pick(game, seat, wanted, rnd), channel=CHANNEL, confirmed=True
        )
        last = (await svc.storage.moves.moves(row.id))[-1]
        kinds = {k for k, _ in last.events or []} & set(REVEALS)
        if not last.reveals:
            continue
        assert kinds, f"a reveal the undo message cannot name: {last}"
        version = (await svc.storage.games.open_game(CHANNEL)).version  # type: ignore[union-attr]
        for who in {PLAYERS[seat].id, ANN.id}:
            with pytest.raises(NotAllowed, match="cannot be taken back"):
                await svc_undo.undo(svc, who, channel=CHANNEL)
        assert (await svc.storage.games.open_game(CHANNEL)).version == version  # type: ignore[union-attr]
        wanted -= kinds
    await svc.close()


async def test_a_button_from_the_undone_position_does_not_play(database: Path | str) -> None:
    svc = await open_service(database)
    await start_game(svc, 2)
    game = await current(svc)
    seat = game.pending_seats()[0]
    build = str(next(a for a in game.legal_moves(seat) if a.verb == "build"))
    after = await svc_moves.play(svc, PLAYERS[seat].id, build, channel=CHANNEL)
    await svc_undo.undo(svc, PLAYERS[seat].id, channel=CHANNEL)
    assert after.announcement is not None
    ref = parse_custom_id(after.announcement.buttons[1].custom_id)
    assert ref is not None and ref.move is not None and ref.seat == 1 - seat
    with pytest.raises(MoveRefused, match="not your turn"):
        await svc_moves.play(
            svc, PLAYERS[ref.seat].id, ref.move, game_id=ref.game, based_on=ref.version, seat=ref.seat
        )
    await svc.close()


async def test_the_undo_message_names_the_computers_answers_taken_back_with_the_move(
    database: Path | str,
) -> None:
    svc = await open_service(database)
    await svc_lobby.new_game(svc, ANN, channel=CHANNEL)
    await svc_lobby.add_ai(svc, ANN, channel=CHANNEL, level="random")
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    await answered(svc, await svc_lobby.start(svc, row.id, ANN))
    for _ in range(20):  # until ANN's move is answered by the computer without a reveal
        before = (await current(svc)).snapshot()
        await _play(svc, "gold")
        await svc_advance.advance(svc, row.id)
        batch = (await svc.storage.moves.moves(row.id))[-2:]
        if len(batch) == 2 and batch[1].auto and not any(m.reveals for m in batch):
            undone = await svc_undo.undo(svc, ANN.id, channel=CHANNEL)
            assert undone.announcement is not None and "(and the bot's 1 answer)" in undone.announcement.text
            assert (await current(svc)).snapshot() == before
            break
    else:
        raise AssertionError("the computer never answered with a quiet move")
    await svc.close()
