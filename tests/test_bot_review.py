"""The review opens games stored by earlier versions: a finished game whose record is from before the
engine asked ``first`` (no ``legacy_moves``) is walked move by move, each position the engine's replay
of the record up to it (`bot.service.review`)."""

from __future__ import annotations

import json
from pathlib import Path

from test_bot_support import CHANNEL, PLAYERS, FakeRenderer, open_service, query
from test_relocation_order import fixture_games

from bot.service import review
from bot.service.visible import Viewer
from engine import Game, Record


async def test_a_finished_game_stored_by_an_earlier_version_opens_in_the_review(database: Path | str) -> None:
    old = fixture_games()[0]["record"]
    assert "legacy_moves" not in old, "a record from before the field"
    renderer = FakeRenderer()
    svc = await open_service(database, renderer)
    [made] = await query(
        svc.storage,
        "INSERT INTO games (channel, host, status, setup, seed, version, record, created_at, updated_at) "
        "VALUES (?, ?, 'over', 'beginner', ?, 1, ?, 0, 0) RETURNING id",
        CHANNEL, PLAYERS[0].id, old["seed"], json.dumps(old),
    )  # fmt: skip
    for seat, name in enumerate(old["players"]):
        await query(svc.storage, "INSERT INTO seats (game, seat, user_id, name) VALUES (?, ?, ?, ?)",
                    made["id"], seat, PLAYERS[seat].id, name)  # fmt: skip
    count = len(old["moves"])
    cut = Record.model_validate(old)
    for k in range(0, count + 1, 11):
        part = cut.model_copy(update={"moves": cut.moves[:k], "legacy_moves": None})
        at = review.position(old, k, seat=None, over=True)
        assert at.view == Game.replay(part).open_view(), f"after {k} moves"
    shown = await review.review(svc, Viewer.of(PLAYERS[2].id, []), guild=None, channel=0,
                                game_id=made["id"], move=count)  # fmt: skip
    assert f"move {count} of {count}" in shown.text and "The game is over" in shown.text, shown.text
    assert renderer.calls[-1][0] == Game.replay(old).open_view()
    await svc.close()
