"""``python -m bot.storage.copy``: a SQLite database with games in every state moves to PostgreSQL,
verified by replaying each game; the bot goes on with it there; a non-empty target, a game whose
record does not replay to its snapshot, and wrong arguments are refused."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from pgserver import PgServer
from test_bot_history import finish
from test_bot_support import (
    CHANNEL,
    GUILD,
    PLAYERS,
    FakeClock,
    Table,
    Transcript,
    answer_all,
    open_service,
    query,
    start_game,
)

from bot.results import Message, Post
from bot.service import absence as svc_absence
from bot.service import lobby as svc_lobby
from bot.service import settings as svc_settings
from bot.storage import StorageProtocol, open_storage
from bot.storage.copy import ORDER, main


async def a_lived_in_database(path: Path) -> None:
    """Games in every state: finished and rated (a player then forgotten), running with moves,
    secrets, clocks and a vacation, a lobby, an abandoned one; preferences; sent and pending posts."""
    table = Table(path, FakeClock())
    svc = await table.open()
    await finish(table, 2, ("random",), channel=CHANNEL + 1)
    await start_game(svc, 3)
    await answer_all(svc, random.Random(4), Transcript(), 12)
    await svc_absence.vacation(svc, PLAYERS[2].id, channel=CHANNEL, days=2)
    await svc_settings.me(svc, PLAYERS[0].id, quiet="22-08 UTC+1", remind_by="dm")
    await svc_lobby.new_game(svc, PLAYERS[3], channel=CHANNEL + 2)
    await svc_lobby.new_game(svc, PLAYERS[4], channel=CHANNEL + 3)
    gone = await svc.storage.games.open_game(CHANNEL + 3)
    assert gone is not None and await svc.storage.games.set_status(gone.id, "abandoned", now=svc.now())
    await svc.storage.history.forget(GUILD, PLAYERS[1].id)
    await svc.storage.outbox.dm_done(2, 0, 0)
    await svc.storage.outbox.sent(1, 4242, svc.now())
    await svc.close()


async def everything(store: StorageProtocol) -> list[object]:
    """What the bot can read back, through the storage interface."""
    games = [await store.games.game(g) for g in range(1, 10)]
    seen: list[object] = [
        games,
        await store.clocks.get(),
        await store.history.unreplayed(),
        await store.history.leaderboard(GUILD),
    ]
    seen += [
        await store.history.finished_games(GUILD, 10),
        await store.players.prefs([u.id for u in PLAYERS]),
    ]
    for g in games:
        if g is not None:
            seen += [
                await store.games.seats(g.id),
                await store.moves.moves(g.id),
                await store.history.game_results(g.id),
            ]
            seen += [await store.moves.secrets(g.id, seat, year) for seat in range(5) for year in range(1, 7)]
    seen += [await store.outbox.get(i) for i in range(1, 200)]
    return seen


async def test_a_database_moves_to_postgresql_verified_and_the_bot_goes_on_there(
    tmp_path: Path, postgres: str
) -> None:
    db = tmp_path / "citta.db"
    await a_lived_in_database(db)
    done = subprocess.run(
        [sys.executable, "-m", "bot.storage.copy", str(db), postgres],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    printed = done.stdout
    assert "Copied" in printed and "2 game(s) replayed" in printed and "(2 never started)" in printed
    assert "  games          4" in printed and "  outbox" in printed
    source, copied = await open_storage(db), await open_storage(postgres)
    assert await everything(copied) == await everything(source)
    await source.close()
    await copied.close()
    svc = await open_service(postgres)
    before = await svc.storage.games.game(2)
    assert before is not None and before.status == "active"
    assert await answer_all(svc, random.Random(9), Transcript(), 3) == 3, "play goes on"
    [last] = await query(svc.storage, "SELECT MAX(id) AS id FROM outbox")
    assert await svc.storage.outbox.enqueue(None, [Post(CHANNEL, Message("hello"))], svc.now()) == [
        last["id"] + 1
    ]
    await svc_lobby.new_game(svc, PLAYERS[0], channel=CHANNEL + 9)
    assert (await svc.storage.games.open_game(CHANNEL + 9)).id == 5  # type: ignore[union-attr]
    await svc.close()
    again = io.StringIO()
    with contextlib.redirect_stderr(again):
        assert await asyncio.to_thread(main, [str(db), postgres]) == 1
    assert "not empty" in again.getvalue()


async def test_a_game_whose_record_does_not_replay_to_its_snapshot_copies_nothing(
    tmp_path: Path, postgres_server: PgServer
) -> None:
    db = tmp_path / "citta.db"
    table = Table(db, FakeClock())
    svc = await table.open()
    await start_game(svc, 2)
    await answer_all(svc, random.Random(1), Transcript(), 4)
    await svc.close()
    with contextlib.closing(sqlite3.connect(db)) as con, con:
        [snapshot] = con.execute("SELECT snapshot FROM games WHERE id = 1").fetchone()
        state = json.loads(snapshot)
        state["players"][0]["gold"] += 1
        con.execute("UPDATE games SET snapshot = ? WHERE id = 1", (json.dumps(state),))
    async with postgres_server.database() as url:
        said = io.StringIO()
        with contextlib.redirect_stderr(said):
            assert await asyncio.to_thread(main, [str(db), url]) == 1
        assert "game 1: its record replays to another state than its snapshot" in said.getvalue()
        store = await open_storage(url)
        assert await store.games.game(1) is None and await store.games.active_games() == [], (
            "nothing was copied"
        )
        await store.close()


def test_wrong_arguments_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        main([str(tmp_path / "c.db"), "mysql://root:hunter2@db/citta"])
    assert refused.value.code == 2
    with pytest.raises(SystemExit):
        main([str(tmp_path / "c.db"), str(tmp_path / "d.db")])
    assert main([str(tmp_path / "missing.db"), "postgresql://citta@db/citta"]) == 1
    err = capsys.readouterr().err
    assert "hunter2" not in err and "not a postgresql:// URL" in err and "missing.db is not a file" in err


async def test_a_server_that_cannot_be_reached_is_told_in_one_line_without_the_password(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "citta.db"
    await (await open_storage(db)).close()
    url = "postgresql://citta:hunter2@127.0.0.1:1/citta"  # nothing listens on port 1
    assert await asyncio.to_thread(main, [str(db), url]) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        "citta-copy: Cannot use the PostgreSQL database postgresql://citta:[redacted]@127.0.0.1:1/citta ("
    ), err
    assert "nothing was copied" in err and "hunter2" not in err and len(err.strip().splitlines()) == 1


async def test_every_table_of_the_schema_is_copied(tmp_path: Path) -> None:
    """A table added by a migration but not to the copy's list would be left behind."""
    db = tmp_path / "citta.db"
    await (await open_storage(db)).close()
    with contextlib.closing(sqlite3.connect(db)) as con:
        tables = {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables - {"schema_version", "sqlite_sequence"} == set(ORDER)
