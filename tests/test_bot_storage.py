"""The database: migrations from an empty file, reopening, one open game per channel."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage.sqlite import ChannelBusy, Storage, migration_files


async def test_migrations_build_every_table_in_an_empty_database(tmp_path: Path) -> None:
    db = tmp_path / "new.db"
    store = await Storage.open(db)
    assert await store.schema_version() == len(migration_files()) >= 1
    await store.close()
    with sqlite3.connect(db) as con:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "seats", "moves", "secrets", "schema_version"} <= tables


async def test_reopening_does_not_apply_migrations_twice(tmp_path: Path) -> None:
    db = tmp_path / "again.db"
    await (await Storage.open(db)).close()
    store = await Storage.open(db)
    assert await store.schema_version() == len(migration_files())
    await store.close()
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == len(migration_files())


async def test_a_new_migration_file_is_applied_on_the_next_start(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    for _, path in migration_files():
        (folder / path.name).write_text(path.read_text())
    store = await Storage.open(tmp_path / "m.db")
    (folder / f"{len(migration_files()) + 1:04d}_extra.sql").write_text("CREATE TABLE extra (x INTEGER);")
    assert await store.migrate(folder) == len(migration_files()) + 1
    await store.close()


def test_migration_numbers_must_not_have_gaps(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("")
    (tmp_path / "0003_c.sql").write_text("")
    with pytest.raises(RuntimeError, match="without gaps"):
        migration_files(tmp_path)


async def test_one_open_game_per_channel_but_many_channels(tmp_path: Path) -> None:
    store = await Storage.open(tmp_path / "c.db")
    kw = dict(guild=1, host=5, host_name="Ann", setup="beginner", players_wanted=None, now=0)
    first = await store.create_lobby(channel=10, **kw)  # type: ignore[arg-type]
    with pytest.raises(ChannelBusy):
        await store.create_lobby(channel=10, **kw)  # type: ignore[arg-type]
    assert await store.create_lobby(channel=11, **kw) != first  # type: ignore[arg-type]
    assert await store.set_status(first, "abandoned", now=1)
    await store.create_lobby(channel=10, **kw)  # type: ignore[arg-type]
    await store.close()
