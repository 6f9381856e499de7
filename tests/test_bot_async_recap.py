"""Catching up and the record: the private recap lists every change since the player's last
move; the export hides the seed until the game ends; an old database upgrades."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

from test_bot_support import CHANNEL, OUTSIDER, PLAYERS, PNG, SEED, current, open_service, start_game

from bot.service import export as svc_export
from bot.service import leaving as svc_leaving
from bot.service import moves as svc_moves
from bot.service import recap as svc_recap
from bot.service import settings as svc_settings
from bot.service.recap import MOVE_KINDS
from bot.storage.sqlite import MIGRATIONS, Storage, migration_files
from engine import Game


async def test_a_recap_across_rounds_and_a_new_year_lists_every_move_and_change_privately(
    database: Path | str,
) -> None:
    svc = await open_service(database)
    await start_game(svc, 3)
    rnd = random.Random(3)
    watcher = None
    while True:  # everyone plays; the watcher stops once a year has ended since their last move
        game = await current(svc)
        seat = game.pending_seats()[0]
        if watcher is None and game.view(None).round == 5:
            watcher = seat
        elif seat == watcher and game.view(None).year == 2:
            break
        move = str(rnd.choice(game.legal_moves(seat)))
        await svc_moves.play(svc, PLAYERS[seat].id, move, channel=CHANNEL, confirmed=True)
    assert watcher is not None
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    moves = await svc.storage.moves.moves(row.id)
    last = max(k for k, m in enumerate(moves) if m.seat == watcher)
    since = moves[last + 1 :]
    recap = await svc_recap.recap(svc, PLAYERS[watcher].id, channel=CHANNEL)
    assert recap.ephemeral and [p.data for p in recap.pictures] == [PNG]
    assert recap.text.startswith(f"Since your last move ({len(since)} moves)")
    for m in since:
        assert f"`{m.text}`" in recap.text
    changes = [(k, t) for m in since for k, t in m.events or [] if k not in MOVE_KINDS]
    kinds = {k for k, _ in changes}
    assert {"year", "voice", "refill"} <= kinds, "a round and the end of a year in between"
    for _, text in changes:
        assert text in recap.text
    for title in ("**Moves**", "**Voice of the people**", "**Years**", "**Politics row**"):
        assert title in recap.text
    assert len(recap.text) <= 2000
    nothing = await svc_recap.recap(svc, PLAYERS[moves[-1].seat].id, channel=CHANNEL)
    assert nothing.text == "Nothing has happened since your last move."
    await svc.close()


async def test_the_export_hides_the_seed_while_the_game_runs_and_replays_once_it_is_added(
    database: Path | str,
) -> None:
    svc = await open_service(database)
    await start_game(svc, 2)
    rnd = random.Random(3)
    for _ in range(12):
        game = await current(svc)
        seat = game.pending_seats()[0]
        await svc_moves.play(
            svc, PLAYERS[seat].id, str(rnd.choice(game.legal_moves(seat))), channel=CHANNEL, confirmed=True
        )
    running = await svc_export.export(svc, channel=CHANNEL, user_id=PLAYERS[1].id)
    assert running.image is not None and running.filename.endswith(".json") and not running.ephemeral
    asked = await svc_export.export(svc, channel=CHANNEL, user_id=OUTSIDER.id)
    assert asked.ephemeral and asked.image == running.image, "a non-player gets the same record, privately"
    data = json.loads(running.image)
    assert data["seed"] is None and str(SEED) not in running.image.decode() and "seed" in running.text
    assert len(data["moves"]) == 12 and data["players"] == ["Ann", "Bob"]
    game = await current(svc)
    assert Game.replay({**data, "seed": SEED}).snapshot() == game.snapshot()
    row = await svc.storage.games.open_game(CHANNEL)
    assert row is not None
    await svc_leaving.abandon(svc, PLAYERS[0].id, game_id=row.id, can_manage=False)
    ended = await svc_export.export(svc, channel=CHANNEL)
    assert ended.image is not None
    final = json.loads(ended.image)
    assert final["seed"] == SEED and final["status"] == "abandoned" and final["legacy_moves"] == 0
    assert Game.replay(final).snapshot() == game.snapshot(), "the file is the engine's record"
    await svc.close()


async def test_a_database_from_before_async_play_upgrades_and_keeps_its_game(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    game = Game.new(["Ann", "Bob"], seed=SEED)
    seat = game.pending_seats()[0]
    game.play(seat, "gold")
    with sqlite3.connect(db) as con:
        con.executescript((MIGRATIONS / "0001_init.sql").read_text())
        con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        con.execute("INSERT INTO schema_version VALUES (1)")
        con.execute(
            "INSERT INTO games (channel, host, status, setup, seed, version, record, snapshot, created_at, "
            "updated_at) VALUES (?, ?, 'active', 'beginner', ?, 1, ?, ?, 0, 0)",
            (CHANNEL, PLAYERS[0].id, SEED, json.dumps(game.record().model_dump(mode="json")),
             json.dumps(game.snapshot())),
        )  # fmt: skip
        con.executemany(
            "INSERT INTO seats (game, seat, user_id, name) VALUES (1, ?, ?, ?)",
            [(0, PLAYERS[0].id, "Ann"), (1, PLAYERS[1].id, "Bob")],
        )
        con.execute(
            "INSERT INTO moves (game, number, seat, text, created_at) VALUES (1, 1, ?, 'gold', 0)", (seat,)
        )
    store = await Storage.open(db)
    assert await store.schema_version() == len(migration_files()) >= 2
    await store.close()
    svc = await open_service(db)
    shown = await svc_settings.settings(svc, PLAYERS[0].id, channel=CHANNEL)
    assert "Move deadline: 24 h" in shown.reply.text
    [old] = await svc.storage.moves.moves(1)
    assert old.reveals and old.events is None, "an old move counts as revealing: it is never undone"
    recap = await svc_recap.recap(svc, PLAYERS[1 - seat].id, channel=CHANNEL)
    assert "`gold`" in recap.text
    nxt = (await current(svc)).pending_seats()[0]
    await svc_moves.play(svc, PLAYERS[nxt].id, "gold", channel=CHANNEL)
    assert len(await svc.storage.moves.moves(1)) == 2
    await svc.close()
