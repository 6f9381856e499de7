"""Positions in hand (`bot.service.positions`): a game is restored once per version, not for
each question asked of it; what is kept is always the stored position — after a move that lost
its race, after a player is renamed, after a move stored by another process."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_bot_support import CHANNEL, PLAYERS, current, open_service, start_game

from bot.service import choices as svc_choices
from bot.service import moves as svc_moves
from bot.service import panel as svc_panel
from bot.service.context import Context
from bot.service.positions import Positions
from bot.storage.rows import GameRow
from engine import Game


@pytest.fixture
def restores(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The versions of the games restored from a stored snapshot, as they are restored."""
    counted: list[int] = []
    real: Callable[[type[Game], dict[str, Any], Any], Game] = vars(Game)["restore"].__func__

    def counting(cls: type[Game], snapshot: dict[str, Any], record: Any) -> Game:
        counted.append(len(record["moves"]) if isinstance(record, dict) else len(record.moves))
        return real(cls, snapshot, record)

    monkeypatch.setattr(Game, "restore", classmethod(counting))
    return counted


async def _row(svc: Context) -> GameRow:
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    return row


async def test_a_move_and_the_questions_before_the_next_restore_nothing(
    svc: Context, restores: list[int]
) -> None:
    await start_game(svc, 3)
    seat = (await current(svc)).pending_seats()[0]
    restores.clear()
    offered = await svc_choices.choices(svc, CHANNEL, PLAYERS[seat].id, "")
    assert len(restores) == 1, "the first question restores the position"
    await svc_moves.play(svc, PLAYERS[seat].id, offered[0].value, channel=CHANNEL, confirmed=True)
    nxt = (await current(svc)).pending_seats()[0]
    restores.clear()
    offered = await svc_choices.choices(svc, CHANNEL, PLAYERS[nxt].id, "")
    await svc_panel.panel(svc, PLAYERS[nxt].id, game_id=(await _row(svc)).id)
    await svc_moves.play(svc, PLAYERS[nxt].id, offered[0].value, channel=CHANNEL, confirmed=True)
    assert restores == [], "the position the move stored was kept for the next player"
    assert (await current(svc)).snapshot() == svc.positions.look(await _row(svc)).snapshot()


async def test_a_move_that_is_not_stored_leaves_the_stored_position_kept(svc: Context) -> None:
    await start_game(svc, 3)
    row = await _row(svc)
    kept = svc.positions.look(row)
    game = svc.positions.take(row)
    assert game is kept, "the kept position is handed over"
    seat = game.pending_seats()[0]
    game.play(seat, game.legal_moves(seat)[0])  # played, never stored (it lost a race)
    assert svc.positions.look(row).snapshot() == (await current(svc)).snapshot()
    assert svc.positions.look(row) is not game


async def test_a_position_stored_elsewhere_or_renamed_is_restored_again(database: Path | str) -> None:
    svc, other = await open_service(database), await open_service(database)
    await start_game(svc, 3)
    row = await _row(svc)
    kept = svc.positions.look(row)
    seat = kept.pending_seats()[0]
    await svc_moves.play(
        other, PLAYERS[seat].id, str(kept.legal_moves(seat)[0]), channel=CHANNEL, confirmed=True
    )
    moved = await _row(svc)
    assert svc.positions.look(moved).snapshot() == (await current(svc)).snapshot(), "a newer version"
    assert moved.record is not None
    renamed = {**moved.record, "players": ["Zed", *moved.record["players"][1:]]}
    assert svc.positions.look(replace(moved, record=renamed)) is not svc.positions.look(moved)
    await svc.close()
    await other.close()


def _row_of(game_id: int, game: Game) -> GameRow:
    record, snapshot = game.record().model_dump(mode="json"), game.snapshot()
    return GameRow(
        id=game_id, guild=None, channel=game_id, host=0, status="active", setup="beginner",
        players_wanted=2, seed=game_id, version=0, record=record, snapshot=snapshot, highlight=[],
        created_at=0, updated_at=0,
    )  # fmt: skip


def test_the_least_recently_used_position_goes_first() -> None:
    games = {k: Game.new(["A", "B"], seed=k) for k in range(3)}
    rows = {k: _row_of(k, g) for k, g in games.items()}
    positions = Positions(keep=2)
    first, second = positions.look(rows[0]), positions.look(rows[1])
    assert positions.look(rows[0]) is first, "kept, and now the most recently used"
    positions.look(rows[2])
    assert positions.look(rows[0]) is first
    assert positions.look(rows[1]) is not second, "let go to make room"
